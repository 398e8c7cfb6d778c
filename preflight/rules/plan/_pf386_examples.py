"""PF386 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # PEFT issue 294 / LMFlow issue 125: Llama's names on a GPT-NeoX (query_key_value) model
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neox-20b")
    config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM")  # error: PF386
    model = get_peft_model(model, config)
    """),
    # the model on the launch line, the LoRA config in the script: two places of one job
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-350m")


    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    lora = LoraConfig(
        r=8,
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj"],  # error: PF386
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, lora)
    Trainer(model=model, args=training_args).train()
    # --- launch
    python train.py --model_name_or_path bigscience/bloom-560m --output_dir out
    """),
    # PEFT issue 758: GPT-2's c_attn on a model that is not GPT-2 (here T5: q, k, v, o)
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import AutoModelForSeq2SeqLM

    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-base")
    peft_config = LoraConfig(task_type=TaskType.SEQ_2_SEQ_LM, r=8, target_modules=["c_attn"])  # error: PF386
    model = get_peft_model(model, peft_config)
    """),
]

GOOD_EXAMPLES = [
    # the fix: the family's own names
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neox-20b")
    config = LoraConfig(r=16, lora_alpha=32, target_modules=["query_key_value"], task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    """),
    # the same Llama names on a Llama model
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    config = LoraConfig(r=16, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"], task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    """),
    # tricky: the script's default model is GPT-2, the launch line loads a Llama: the names fit the launched job
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")


    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    # --- launch
    python train.py --model_name_or_path mistralai/Mistral-7B-v0.1 --output_dir out
    """),
    # tricky: dotted names and a layer index still match GPT-2's modules
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    config = LoraConfig(r=4, target_modules=["attn.c_attn", "h.0.mlp.c_fc"], fan_in_fan_out=True)
    model = get_peft_model(model, config)
    """),
    # tricky: a model outside the table (a remote-code family) is not judged
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModel

    model = AutoModel.from_pretrained("THUDM/chatglm2-6b", trust_remote_code=True)
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["query_key_value"]))
    """),
    # tricky: a regular expression string is PEFT's full-match form, not a list of names
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("bigscience/bloom-560m")
    model = get_peft_model(model, LoraConfig(r=8, target_modules=r".*self_attention\\.(query_key_value|dense)"))
    """),
]
