"""PF628 examples: small projects (``# --- <path>`` sections); bad ones pin their finding's line,
good ones stay silent."""

from __future__ import annotations

import textwrap

PF628_BAD = [
    # alignment-handbook PR 224's shape: a helper loads the reference copy, LoRA config beside it
    textwrap.dedent("""
    # --- dpo.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer


    def load(name):
        return AutoModelForCausalLM.from_pretrained(name)


    model = load("sft")
    ref_model = load("sft")
    peft_config = LoraConfig(r=16, lora_alpha=32, task_type="CAUSAL_LM")
    trainer = DPOTrainer(model=model, ref_model=ref_model,  # warning: PF628
                         args=DPOConfig(output_dir="out"), train_dataset=data, peft_config=peft_config)
    trainer.train()
"""),
    # the project pins a TRL that still refuses the pair: an error
    textwrap.dedent("""
    # --- dpo.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer

    model = AutoModelForCausalLM.from_pretrained("sft")
    trainer = DPOTrainer(
        model,
        AutoModelForCausalLM.from_pretrained("sft"),  # error: PF628
        args=DPOConfig(output_dir="out"),
        train_dataset=data,
        peft_config=LoraConfig(r=8, task_type="CAUSAL_LM"),
    )
    trainer.train()
    # --- requirements.txt
    trl==0.12.2
"""),
]

PF628_GOOD = [
    # the fix: no reference copy, the disabled adapter is the reference
    textwrap.dedent("""
    # --- dpo.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer

    model = AutoModelForCausalLM.from_pretrained("sft")
    peft_config = LoraConfig(r=16, task_type="CAUSAL_LM")
    DPOTrainer(model=model, ref_model=None, args=DPOConfig(output_dir="out"), train_dataset=data,
               peft_config=peft_config).train()
"""),
    # a separate reference on purpose, said with force_use_ref_model
    textwrap.dedent("""
    # --- dpo.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer

    model = AutoModelForCausalLM.from_pretrained("sft")
    ref = AutoModelForCausalLM.from_pretrained("other-reference")
    args = DPOConfig(output_dir="out", force_use_ref_model=True)
    DPOTrainer(model=model, ref_model=ref, args=args, train_dataset=data,
               peft_config=LoraConfig(r=16, task_type="CAUSAL_LM")).train()
"""),
    # tricky: TRL's own script shape, the PEFT config is None unless --use_peft, the reference only without it
    textwrap.dedent("""
    # --- dpo.py
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer, ModelConfig, TrlParser, get_peft_config

    script_args, training_args, model_args = TrlParser((ScriptArguments, DPOConfig, ModelConfig)).parse_args_and_config()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    peft_config = get_peft_config(model_args)
    if peft_config is None:
        ref_model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    else:
        ref_model = None
    DPOTrainer(model, ref_model, args=training_args, train_dataset=data, peft_config=peft_config).train()
"""),
    # tricky: full fine-tuning with a reference model, no PEFT config
    textwrap.dedent("""
    # --- dpo.py
    from transformers import AutoModelForCausalLM
    from trl import DPOConfig, DPOTrainer

    model = AutoModelForCausalLM.from_pretrained("sft")
    ref_model = AutoModelForCausalLM.from_pretrained("sft")
    DPOTrainer(model=model, ref_model=ref_model, args=DPOConfig(output_dir="out"), train_dataset=data).train()
"""),
]
