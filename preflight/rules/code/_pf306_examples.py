"""PF306 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF306_BAD = [
    # transformers issue 26098's shape: a stage-1 QLoRA adapter reloaded without is_trainable, then
    # prepare_model_for_kbit_training on the PeftModel, then the Trainer
    textwrap.dedent("""
    import torch
    from peft import PeftModel, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
    base = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-13b-hf", quantization_config=bnb)
    model = PeftModel.from_pretrained(base, "out/stage1")  # error: PF306
    model = prepare_model_for_kbit_training(model)
    args = TrainingArguments(output_dir="out/stage2", per_device_train_batch_size=2, bf16=True)
    Trainer(model=model, args=args, train_dataset=train_ds).train()
"""),
    # a custom loop in a function: the optimizer gets only frozen adapter weights
    textwrap.dedent("""
    import torch
    from peft import AutoPeftModelForCausalLM


    def resume(adapter_dir, loader):
        model = AutoPeftModelForCausalLM.from_pretrained(adapter_dir, is_trainable=False)  # error: PF306
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for batch in loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
"""),
    # a fresh adapter, then prepare_model_for_kbit_training on the PEFT model: freezes the LoRA weights
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    base = AutoModelForCausalLM.from_pretrained("facebook/opt-1.3b",
                                                quantization_config=BitsAndBytesConfig(load_in_8bit=True))
    model = get_peft_model(base, LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
    model = prepare_model_for_kbit_training(model)  # error: PF306
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_ds)
    trainer.train()
"""),
]

PF306_GOOD = [
    # the fix of issue 26098: prepare the base first, load the adapter trainable
    textwrap.dedent("""
    import torch
    from peft import PeftModel, prepare_model_for_kbit_training
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
    base = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-13b-hf", quantization_config=bnb)
    base = prepare_model_for_kbit_training(base)
    model = PeftModel.from_pretrained(base, "out/stage1", is_trainable=True)
    args = TrainingArguments(output_dir="out/stage2", per_device_train_batch_size=2, bf16=True)
    Trainer(model=model, args=args, train_dataset=train_ds).train()
"""),
    # tricky-correct: loaded frozen, then the LoRA weights unfrozen by name before the optimizer
    textwrap.dedent("""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained("gpt2")
    model = PeftModel.from_pretrained(base, "out/adapter")
    for name, param in model.named_parameters():
        if "lora_" in name:
            param.requires_grad = True
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
"""),
    # tricky-correct: the reloaded adapter is merged and a new adapter is trained through peft_config
    textwrap.dedent("""
    from peft import LoraConfig, PeftModel
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer

    base = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-0.5B")
    model = PeftModel.from_pretrained(base, "out/sft-adapter")
    trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out/dpo"), train_dataset=ds,
                         peft_config=LoraConfig(r=8, task_type="CAUSAL_LM"))
    trainer.train()
"""),
    # tricky-correct: an adapter loaded for evaluation only; the trained model is another one
    textwrap.dedent("""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    reference = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained("gpt2"), "out/ref")
    reference.eval()
    policy = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
"""),
    # tricky-correct: a Seq2SeqTrainer built only to predict with the loaded adapter (BELLE's zero_inference.py
    # shape): nothing is trained
    textwrap.dedent("""
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, Seq2SeqTrainer

    model = AutoModelForCausalLM.from_pretrained("bigscience/bloomz-560m")
    model = PeftModel.from_pretrained(model, "out/lora")
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=None, eval_dataset=None)
    predictions = trainer.predict(infer_data).predictions
"""),
]
