"""PF535 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF535_BAD = [
    # Bunny issue 112's shape: an 8-bit base, a fresh LoRA, merged before the Trainer
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained(
        "facebook/opt-350m", quantization_config=BitsAndBytesConfig(load_in_8bit=True))
    model = prepare_model_for_kbit_training(model)
    model = get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    model = model.merge_and_unload()  # error: PF535
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    Trainer(model=model, args=args, train_dataset=train_ds).train()
"""),
    # a full-precision base in a custom loop: the optimizer gets only frozen weights
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForSequenceClassification


    def build(name):
        base = AutoModelForSequenceClassification.from_pretrained(name, num_labels=2)
        peft_model = get_peft_model(base, LoraConfig(r=8, target_modules=["query", "value"]))
        net = peft_model.merge_and_unload()  # error: PF535
        optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
        return net, optimizer
"""),
]

PF535_GOOD = [
    # the fix: train the adapter, merge after training for export
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    model = get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds)
    trainer.train()
    merged = trainer.model.merge_and_unload()
    merged.save_pretrained("merged")
"""),
    # tricky-correct: a stage-1 adapter merged, a new adapter attached for stage 2
    textwrap.dedent("""
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    base = AutoModelForCausalLM.from_pretrained("facebook/opt-350m")
    model = get_peft_model(base, LoraConfig(r=16, target_modules=["q_proj", "v_proj"]))
    model.load_adapter("stage1-adapter", adapter_name="default")
    model = model.merge_and_unload()
    model = get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"]))
    Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds).train()
"""),
    # tricky-correct: trl attaches a new adapter itself from peft_config
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    config = LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM")
    model = get_peft_model(AutoModelForCausalLM.from_pretrained("facebook/opt-350m"), config)
    model.load_adapter("sft-adapter", adapter_name="default")
    model = model.merge_and_unload()
    SFTTrainer(model=model, args=SFTConfig(output_dir="out"), train_dataset=train_ds, peft_config=config).train()
"""),
    # tricky-correct: a deliberate full fine-tune of the merged weights
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8, target_modules=["c_attn"]))
    model.load_adapter("warm-start", adapter_name="default")
    model = model.merge_and_unload()
    for p in model.parameters():
        p.requires_grad = True
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
"""),
]
