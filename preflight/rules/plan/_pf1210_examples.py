"""PF1210 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# warning: PF1210`` comment; the meta-test asserts exactly those
findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF1210_BAD = [
    # huggingface/trl issue 3339: SimPO (CPOConfig) with max_prompt_length == max_length == 2048
    textwrap.dedent("""
        # --- simpo.py
        from trl import CPOConfig, CPOTrainer

        args = CPOConfig(
            output_dir="simpo-out",
            loss_type="simpo",
            cpo_alpha=0.0,
            max_prompt_length=2048,  # warning: PF1210
            max_length=2048,
            per_device_train_batch_size=2,
        )
        trainer = CPOTrainer(model=model, args=args, train_dataset=ds, processing_class=tokenizer)
        trainer.train()
        """),
    # a completion budget of its own does not help: the pair is still cut to max_length (TRL 0.13-0.28)
    textwrap.dedent("""
        # --- dpo_cfg.py
        from trl import DPOConfig

        config = DPOConfig(output_dir="dpo", max_length=1024, max_prompt_length=1024,  # warning: PF1210
                           max_completion_length=512)
        """),
    # the old DPOTrainer API, both budgets read through module constants
    textwrap.dedent("""
        # --- dpo.py
        from trl import DPOTrainer

        MAX_LENGTH = 1024
        MAX_PROMPT = 1024

        trainer = DPOTrainer(model, ref_model, args=training_args, beta=0.1, train_dataset=ds,
                             tokenizer=tokenizer, max_length=MAX_LENGTH,
                             max_prompt_length=MAX_PROMPT)  # warning: PF1210
        trainer.train()
        """),
    # a prompt budget larger than the whole budget, from argparse defaults
    textwrap.dedent("""
        # --- orpo.py
        import argparse
        from trl import ORPOConfig, ORPOTrainer

        parser = argparse.ArgumentParser()
        parser.add_argument("--max_length", type=int, default=512)
        parser.add_argument("--max_prompt_length", type=int, default=768)
        args = parser.parse_args()

        config = ORPOConfig(output_dir="orpo", max_length=args.max_length,
                            max_prompt_length=args.max_prompt_length)  # warning: PF1210
        ORPOTrainer(model=model, args=config, train_dataset=ds, processing_class=tok).train()
        """),
    # huggingface/trl issue 3042: OnlineDPO generating 1024 tokens with the default max_length of 512
    textwrap.dedent("""
        # --- online_dpo.py
        from trl import OnlineDPOConfig, OnlineDPOTrainer, PairRMJudge

        judge = PairRMJudge()
        training_args = OnlineDPOConfig(output_dir="Qwen2-0.5B-OnlineDPO", logging_steps=10,
                                        max_new_tokens=1024)  # warning: PF1210
        trainer = OnlineDPOTrainer(model=model, judge=judge, args=training_args, processing_class=tokenizer,
                                   train_dataset=train_dataset)
        trainer.train()
        """),
    # both budgets explicit and equal
    textwrap.dedent("""
        # --- online_dpo2.py
        from trl import XPOConfig

        config = XPOConfig(output_dir="xpo", max_new_tokens=1024, max_length=1024)  # warning: PF1210
        OnlineDPOTrainer(model=model, judge=judge, args=config, train_dataset=ds,
                         processing_class=tok).train()
        """),
]

PF1210_BAD.append(
    # a SimPO-style recipe read by TrlParser into CPOConfig
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 8 run_simpo.py --config simpo.yaml
        # --- run_simpo.py
        from trl import CPOConfig, CPOTrainer, ModelConfig, TrlParser

        parser = TrlParser((CPOConfig, ModelConfig))
        training_args, model_args = parser.parse_args_and_config()
        CPOTrainer(model=model, args=training_args, train_dataset=ds, processing_class=tok).train()
        # --- simpo.yaml
        loss_type: simpo
        cpo_alpha: 0.0
        max_length: 2048
        max_prompt_length: 2048
        # --- expect
        simpo.yaml:4: warning: PF1210
        """))

PF1210_GOOD = [
    # the alignment-handbook DPO recipes: 1024 / 512
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 8 run_dpo.py recipe.yaml
        # --- run_dpo.py
        from trl import DPOConfig, DPOTrainer

        trainer = DPOTrainer(model, ref_model, args=training_args, train_dataset=ds)
        # --- recipe.yaml
        beta: 0.01
        max_length: 1024
        max_prompt_length: 512
        """),
    # the lengths overridden on the launch line: not judged from the file
    textwrap.dedent("""
        # --- launch
        accelerate launch run_dpo.py recipe.yaml --max_prompt_length 512
        # --- run_dpo.py
        from trl import DPOTrainer

        trainer = DPOTrainer(model, ref_model, args=training_args, train_dataset=ds)
        # --- recipe.yaml
        max_length: 1024
        max_prompt_length: 1024
        """),
    # a GRPO recipe: no prompt + completion budget
    textwrap.dedent("""
        # --- launch
        accelerate launch run_grpo.py --config grpo.yaml
        # --- run_grpo.py
        from trl import GRPOConfig, GRPOTrainer, TrlParser

        (training_args,) = TrlParser((GRPOConfig,)).parse_args_and_config()
        # --- grpo.yaml
        max_prompt_length: 1024
        max_length: 1024
        """),
    # the corrected twin of the SimPO report: half the budget for the prompt
    textwrap.dedent("""
        # --- simpo.py
        from trl import CPOConfig, CPOTrainer

        args = CPOConfig(output_dir="simpo-out", loss_type="simpo", cpo_alpha=0.0,
                         max_prompt_length=1024, max_length=2048)
        CPOTrainer(model=model, args=args, train_dataset=ds, processing_class=tokenizer).train()
        """),
    # tricky-correct: derived from max_length, strictly below it (real DPO/KTO scripts)
    textwrap.dedent("""
        # --- dpo.py
        from trl import DPOConfig, KTOConfig

        max_length = 1024
        dpo = DPOConfig(output_dir="dpo", max_length=max_length, max_prompt_length=max_length // 2)
        kto = KTOConfig(output_dir="kto", max_length=max_length, max_prompt_length=max_length - 16)
        """),
    # tricky-correct: GRPO has no prompt + completion budget; its prompt budget may exceed anything
    textwrap.dedent("""
        # --- grpo.py
        from trl import GRPOConfig

        max_length = 1024
        config = GRPOConfig(output_dir="grpo", max_prompt_length=max_length, max_completion_length=256)
        """),
    # only one budget set: the other is TRL's default, which leaves room
    textwrap.dedent("""
        # --- dpo_one.py
        from trl import DPOConfig

        config = DPOConfig(output_dir="dpo", max_prompt_length=512)
        """),
    # the budgets come from a function's parameters (unknown here)
    textwrap.dedent("""
        # --- dpo_fn.py
        from trl import DPOConfig


        def make(max_length, max_prompt_length):
            return DPOConfig(output_dir="dpo", max_length=max_length, max_prompt_length=max_prompt_length)
        """),
    # an old TRL: OnlineDPOConfig had no max_length, nothing cuts the generation
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.12.2
        # --- online_old.py
        from trl import OnlineDPOConfig

        config = OnlineDPOConfig(output_dir="odpo", max_new_tokens=1024)
        """),
    # the default max_length leaves room for a short generation
    textwrap.dedent("""
        # --- online_short.py
        from trl import OnlineDPOConfig

        config = OnlineDPOConfig(output_dir="odpo", max_new_tokens=128)
        """),
    # online trainer with room for the generation
    textwrap.dedent("""
        # --- online.py
        from trl import OnlineDPOConfig

        config = OnlineDPOConfig(output_dir="odpo", max_new_tokens=256, max_length=2048)
        """),
    # tricky-correct (a real T5 DPO script): encoder-decoder, the prompt budget is the encoder's own
    textwrap.dedent("""
        # --- dpo_t5.py
        from trl import DPOTrainer

        max_length = 512
        trainer = DPOTrainer(model, model_ref, args=training_args, beta=0.1, train_dataset=ds,
                             tokenizer=tokenizer, max_prompt_length=max_length, max_target_length=max_length,
                             max_length=max_length * 2, truncation_mode="keep_start", is_encoder_decoder=True)
        """),
    textwrap.dedent("""
        # --- dpo_t5_flag.py
        from trl import DPOConfig

        config = DPOConfig(output_dir="dpo", max_prompt_length=1024, max_length=1024, is_encoder_decoder=True)
        """),
    # another library's DPO-like class of the same name
    textwrap.dedent("""
        # --- mylib_dpo.py
        from mylib.trainers import DPOConfig

        config = DPOConfig(max_prompt_length=2048, max_length=2048)
        """),
]
