"""PF387 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # a misspelled projection among correct ones: PEFT adapts three and skips the fourth silently
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    targets = ["q_proj", "k_proj", "v_proj", "o_prj"]  # warning: PF387
    config = LoraConfig(r=16, target_modules=targets, task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    """),
    # the model on the launch line; the MLP names written "gate"/"up"/"down" (not Llama's *_proj)
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="meta-llama/Llama-2-7b-hf")


    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    config = LoraConfig(
        r=8,
        target_modules=["q_proj", "v_proj", "gate", "up", "down"],  # warning: PF387
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, config)
    # --- launch
    python train.py --model_name_or_path Qwen/Qwen2-7B --output_dir out
    """),
]

GOOD_EXAMPLES = [
    # the fix: every name is a Llama module
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    config = LoraConfig(r=16, target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                                              "down_proj"], task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    """),
    # tricky: one list written for several families (alpaca-lora style): the extra names are other families' modules
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    config = LoraConfig(r=8, target_modules=["q_proj", "v_proj", "query_key_value", "c_attn", "Wqkv"])
    model = get_peft_model(model, config)
    """),
    # tricky: the head and the embeddings are modules of the model too
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=2)
    config = LoraConfig(r=8, target_modules=["query", "value", "word_embeddings"], modules_to_save=["classifier"])
    model = get_peft_model(model, config)
    """),
    # tricky: a shared list also names remote-code families' modules (Baichuan W_pack, Qwen-1 w1/w2)
    textwrap.dedent("""
    # --- train.py
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "W_pack", "c_attn", "w1", "w2"]
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    model = get_peft_model(model, LoraConfig(r=8, target_modules=LORA_TARGETS, task_type="CAUSAL_LM"))
    """),
]
