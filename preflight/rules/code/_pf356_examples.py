"""PF356 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_RUN = textwrap.dedent("""
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    base = "Qwen/Qwen2.5-1.5B"
    tokenizer = AutoTokenizer.from_pretrained(base)
    config = LoraConfig(task_type="CAUSAL_LM", r=16, lora_alpha=32, target_modules=["q_proj", "v_proj"])
    args = TrainingArguments(output_dir="out/run", num_train_epochs=2, report_to="none")

    model = get_peft_model(AutoModelForCausalLM.from_pretrained(base), config)
    Trainer(model=model, args=args, train_dataset=train_set, eval_dataset=val_set).train()
    model.save_pretrained("out/adapter")

    tuned = AutoModelForCausalLM.from_pretrained(base)
    tuned = {reload}{mark}
    tuned.eval()
    print(Trainer(model=tuned, args=args, eval_dataset=val_set).evaluate())
""")

PF356_BAD = [
    # peft issue 793: the trained adapter "reloaded" with get_peft_model
    _RUN.format(reload="get_peft_model(tuned, config)", mark="  # warning: PF356"),
    # a generation script that wraps and generates
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def answer(question, adapter_dir="out/adapter"):
        tok = AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-1B")
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", torch_dtype=torch.bfloat16)
        model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))  # warning: PF356
        ids = tok(question, return_tensors="pt").input_ids
        return tok.decode(model.generate(ids, max_new_tokens=64)[0])
"""),
]

PF356_GOOD = [
    # the fix
    _RUN.format(reload='PeftModel.from_pretrained(tuned, "out/adapter")', mark=""),
    # tricky-correct: the base line evaluated first, then the same object trained
    textwrap.dedent("""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8, target_modules=["c_attn"]))
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=train_set,
                      eval_dataset=val_set)
    print("before", trainer.evaluate())
    trainer.train()
    print("after", trainer.evaluate())
"""),
    # tricky-correct: the adapter wrapped, then its trained weights loaded
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model, set_peft_model_state_dict
    from transformers import AutoModelForCausalLM

    model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8, target_modules=["c_attn"]))
    set_peft_model_state_dict(model, torch.load("out/adapter_model.bin"))
    model.eval()
    print(model.generate(prompt_ids, max_new_tokens=20))
"""),
    # tricky-correct: a custom loop that trains the wrapped model in the same function
    textwrap.dedent("""
    import torch
    from peft import LoraConfig, get_peft_model


    def finetune(base, loader):
        model = get_peft_model(base, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
        for batch in loader:
            model(**batch).loss.backward()
            opt.step()
            opt.zero_grad()
        model.eval()
        return model
"""),
]
