"""PF1211 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PF1211`` comment; the meta-test asserts exactly those
findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF1211_BAD = [
    # huggingface/open-r1 issue 249: one of 8 GPUs kept for vLLM, 7 training processes x 1
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 7 grpo.py
        # --- grpo.py
        from trl import GRPOConfig, GRPOTrainer

        args = GRPOConfig(output_dir="out", per_device_train_batch_size=1,
                          num_generations=8, use_vllm=True)  # error: PF1211
        GRPOTrainer(model="Qwen/Qwen2.5-Math-7B", reward_funcs=reward_fn, args=args, train_dataset=ds).train()
        """),
    # huggingface/trl issue 2858 on a pinned TRL 0.15: accumulation does not count there
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.15.1
        # --- launch
        python train_grpo.py
        # --- train_grpo.py
        from trl import GRPOConfig, GRPOTrainer

        config = GRPOConfig(output_dir="grpo", per_device_train_batch_size=1, gradient_accumulation_steps=8,
                            num_generations=8)  # error: PF1211
        GRPOTrainer(model=model, reward_funcs=[format_reward], args=config, train_dataset=ds).train()
        """),
    # modelscope/ms-swift issue 3980: one generation per prompt has no group to compare with
    textwrap.dedent("""
        # --- launch
        python grpo_one.py
        # --- grpo_one.py
        from trl import GRPOConfig

        NUM_GEN = 1
        config = GRPOConfig(output_dir="grpo", per_device_train_batch_size=1, num_generations=NUM_GEN)  # error: PF1211
        """),
    # the numbers from argparse defaults and a torchrun launch: 2 x 2 x 1 = 4 completions, groups of 6
    textwrap.dedent("""
        # --- launch
        torchrun --nproc_per_node 2 rl.py
        # --- rl.py
        import argparse
        from trl import GRPOConfig

        p = argparse.ArgumentParser()
        p.add_argument("--batch", type=int, default=2)
        p.add_argument("--gens", type=int, default=6)
        a = p.parse_args()
        config = GRPOConfig(output_dir="o", per_device_train_batch_size=a.batch,
                            num_generations=a.gens)  # error: PF1211
        """),
]

PF1211_BAD.append(
    # an open-r1 style recipe read by TrlParser: 7 processes x 2 x 4 = 56 completions, groups of 16
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 7 grpo.py --config recipe.yaml
        # --- grpo.py
        from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser

        parser = TrlParser((GRPOConfig, ModelConfig))
        training_args, model_args = parser.parse_args_and_config()
        GRPOTrainer(model=model_args.model_name_or_path, reward_funcs=rewards, args=training_args,
                    train_dataset=ds).train()
        # --- recipe.yaml
        bf16: true
        use_vllm: true
        per_device_train_batch_size: 2
        gradient_accumulation_steps: 4
        num_generations: 16
        # --- expect
        recipe.yaml:5: error: PF1211
        """))

PF1211_GOOD = [
    # the recipe's numbers overridden on the launch line: not judged from the file
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 7 grpo.py --config recipe.yaml --num_generations 14
        # --- grpo.py
        from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser

        parser = TrlParser((GRPOConfig, ModelConfig))
        training_args, model_args = parser.parse_args_and_config()
        # --- recipe.yaml
        per_device_train_batch_size: 2
        gradient_accumulation_steps: 4
        num_generations: 16
        """),
    # the corrected recipe: 7 x 2 x 4 = 56 holds groups of 14 (open-r1 recipes use 7 processes x 16 x 8)
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 7 grpo.py --config recipe.yaml
        # --- grpo.py
        from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser

        parser = TrlParser((GRPOConfig, ModelConfig))
        training_args, model_args = parser.parse_args_and_config()
        # --- recipe.yaml
        per_device_train_batch_size: 16
        gradient_accumulation_steps: 8
        num_generations: 16
        """),
    # the corrected twin of open-r1 issue 249: num_generations 7 on 7 processes
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 7 grpo.py
        # --- grpo.py
        from trl import GRPOConfig

        args = GRPOConfig(output_dir="out", per_device_train_batch_size=1, num_generations=7, use_vllm=True)
        """),
    # tricky-correct: recent TRL counts accumulation (steps_per_generation defaults to it): 1 x 1 x 8
    textwrap.dedent("""
        # --- launch
        python train_grpo.py
        # --- train_grpo.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="grpo", per_device_train_batch_size=1, gradient_accumulation_steps=8,
                            num_generations=8)
        """),
    # tricky-correct: an explicit generation batch that holds whole groups
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 3 g.py
        # --- g.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="g", per_device_train_batch_size=2, generation_batch_size=48,
                            num_generations=16)
        """),
    # the launch is unknown (script audited alone): the process count is not guessed
    textwrap.dedent("""
        # --- alone.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="g", per_device_train_batch_size=1, num_generations=8)
        """),
    # the numbers come from a YAML read at run time
    textwrap.dedent("""
        # --- launch
        python cfg.py
        # --- cfg.py
        import yaml
        from trl import GRPOConfig

        cfg = yaml.safe_load(open("grpo.yaml"))
        config = GRPOConfig(output_dir="g", per_device_train_batch_size=cfg["bs"], num_generations=cfg["gens"])
        """),
    # defaults only: 8 per device always holds groups of 8
    textwrap.dedent("""
        # --- launch
        accelerate launch --num_processes 3 d.py
        # --- d.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="d", learning_rate=1e-6)
        """),
    # tricky: `deepspeed --num_gpus 4` without --num_nodes may span nodes; the count is not guessed
    textwrap.dedent("""
        # --- launch
        deepspeed --num_gpus 4 ds.py
        # --- ds.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="g", per_device_train_batch_size=1, num_generations=8)
        """),
    # an old pinned TRL without GRPO checks is not judged
    textwrap.dedent("""
        # --- requirements.txt
        trl==0.13.0
        # --- launch
        python old.py
        # --- old.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="d", per_device_train_batch_size=1, num_generations=8)
        """),
]
