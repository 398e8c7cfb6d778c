"""PF408, PF409, PF412 examples (single files): bad ones must fire, good ones stay silent."""

from __future__ import annotations

import textwrap

PF408_BAD = [
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    bnb = BitsAndBytesConfig(load_in_4bit=True)  # warning: PF408
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", quantization_config=bnb)
"""),
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    model = AutoModelForCausalLM.from_pretrained(
        "mistralai/Mistral-7B-v0.1",
        quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4"),  # warning: PF408
    )
"""),
]

PF408_GOOD = [
    textwrap.dedent("""
    import torch
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig

    bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                             bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_use_double_quant=True)
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", quantization_config=bnb)
"""),
    # 8-bit has no 4-bit types; keys given through a dict are not second-guessed
    textwrap.dedent("""
    from transformers import BitsAndBytesConfig

    eight = BitsAndBytesConfig(load_in_8bit=True)
    four = BitsAndBytesConfig(load_in_4bit=True, **quant_kwargs)
"""),
]

PF409_BAD = [
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    args = SFTConfig(output_dir="out", packing=True)  # warning: PF409
    SFTTrainer(model=model, args=args, train_dataset=ds).train()
"""),
    textwrap.dedent("""
    from trl import SFTConfig, SFTTrainer

    args = SFTConfig(output_dir="out", padding_free=True,  # warning: PF409
                     model_init_kwargs={"attn_implementation": "sdpa"})
    SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds).train()
"""),
    # the attention choice goes to an arguments object that never reaches from_pretrained (TRL issue 2834)
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM
    from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser

    model_args, _ = TrlParser((ModelConfig, SFTConfig)).parse_args_and_config()
    model_args.attn_implementation = "flash_attention_2"
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    args = SFTConfig(output_dir="out", padding_free=True)  # warning: PF409
    SFTTrainer(model=model, args=args, train_dataset=ds).train()
"""),
]

PF409_GOOD = [
    # tricky-correct: TRL issue 1907's era (SFTTrainer(tokenizer=...), TRL <= 0.12): packing=True is
    # ConstantLengthDataset's wrapped chunks, not position_ids-separated best-fit packing
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    tok = AutoTokenizer.from_pretrained("Qwen/Qwen2-1.5B")
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-1.5B")
    config = SFTConfig(output_dir="out", dataset_text_field="text", max_seq_length=4096, packing=True)
    trainer = SFTTrainer(model=model, args=config, train_dataset=ds, tokenizer=tok)
"""),
    # the arguments object is read back where the model is loaded
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM
    from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser

    model_args, _ = TrlParser((ModelConfig, SFTConfig)).parse_args_and_config()
    model_args.attn_implementation = "flash_attention_2"
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
                                                 attn_implementation=model_args.attn_implementation)
    args = SFTConfig(output_dir="out", padding_free=True)
    SFTTrainer(model=model, args=args, train_dataset=ds).train()
"""),
    # the arguments object is handed on whole to a loader helper
    textwrap.dedent("""
    from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser
    from mylib import load_model

    model_args, _ = TrlParser((ModelConfig, SFTConfig)).parse_args_and_config()
    model_args.attn_implementation = "flash_attention_2"
    model = load_model(model_args)
    args = SFTConfig(output_dir="out", padding_free=True)
    SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=ds).train()
"""),
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", attn_implementation="flash_attention_2")
    args = SFTConfig(output_dir="out", packing=True)
    SFTTrainer(model=model, args=args, train_dataset=ds).train()
"""),
    # wrapped packing does not rely on position_ids; the attention comes from the CLI
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    args = SFTConfig(output_dir="out", packing=True, packing_strategy="wrapped")
    model2 = AutoModelForCausalLM.from_pretrained(name, attn_implementation=cli.attn)
    args2 = SFTConfig(output_dir="out", packing=True)
"""),
    # the model is built elsewhere
    textwrap.dedent("""
    from trl import SFTConfig, SFTTrainer

    def train(model, ds):
        SFTTrainer(model=model, args=SFTConfig(output_dir="o", packing=True), train_dataset=ds).train()
"""),
]

PF412_BAD = [
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2", use_cache=True)  # note: PF412
    model.gradient_checkpointing_enable()
"""),
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.config.use_cache = True  # note: PF412
    args = TrainingArguments(output_dir="out", gradient_checkpointing=True)
"""),
]

PF412_GOOD = [
    # the cache is switched back on after training, for generation
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.config.use_cache = False
    args = TrainingArguments(output_dir="out", gradient_checkpointing=True)
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    trainer.train()
    model.config.use_cache = True
    model.save_pretrained("out")
"""),
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2", use_cache=False)
    model.gradient_checkpointing_enable()
"""),
    # a cache for generation, no checkpointing
    textwrap.dedent("""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("gpt2", use_cache=True)
    out = model.generate(ids, max_new_tokens=20)
"""),
]
