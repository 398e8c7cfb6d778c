"""PF242 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_ACCELERATE = dedent("""
    # --- finetune.py
    import torch
    from accelerate import Accelerator
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    def main():
        accelerator = Accelerator(mixed_precision="bf16")
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-3B", torch_dtype=torch.bfloat16,
                                                     device_map={device_map}){pin}
        model = get_peft_model(model, LoraConfig(r=16, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"))
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader())
        model.train()
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()


    main()
    # --- launch
    accelerate launch --multi_gpu --num_processes {n} finetune.py
    """)

_TRAINER = dedent("""
    # --- sft.py
    import os

    from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

    {bind}
    model = AutoModelForSequenceClassification.from_pretrained("roberta-large", num_labels=3,
                                                               device_map={device_map}){pin}
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=16, bf16=True)
    Trainer(model=model, args=args, train_dataset=train_set, eval_dataset=eval_set).train()
    # --- launch
    torchrun --nproc_per_node 2 sft.py
    """)

PF242_BAD = [
    # transformers issue 31557's shape: a LoRA fine-tune keeps device_map="auto" under accelerate launch
    _ACCELERATE.format(device_map='"auto"', pin="  # error: PF242", n=4),
    # the same under torchrun with the Trainer, the strategy bound once to a name
    _TRAINER.format(bind='DEVICE_MAP = "balanced"', device_map="DEVICE_MAP", pin="  # error: PF242"),
]

PF242_GOOD = [
    # the fix: one whole copy per process on its own GPU (trl issue 921)
    _ACCELERATE.format(device_map='{"": accelerator.process_index}', pin="", n=4),
    # tricky: one process may split the model over its GPUs
    _ACCELERATE.format(device_map='"auto"', pin="", n=1),
    # tricky: alpaca-lora's shape, "auto" rebound to the local rank when launched data-parallel
    _TRAINER.format(bind='DEVICE_MAP = "auto"\nif int(os.environ.get("WORLD_SIZE", 1)) > 1:\n'
                    '    DEVICE_MAP = {"": int(os.environ.get("LOCAL_RANK", 0))}',
                    device_map="DEVICE_MAP", pin=""),
    # tricky: the device-mapped model is a frozen teacher, never prepared
    dedent("""
        # --- distill.py
        import torch
        from accelerate import Accelerator
        from transformers import AutoModelForCausalLM


        def main():
            accelerator = Accelerator()
            teacher = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B", device_map="auto").eval()
            student = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
            optimizer = torch.optim.AdamW(student.parameters(), lr=1e-4)
            student, optimizer, loader = accelerator.prepare(student, optimizer, build_loader())
            student.train()
            for batch in loader:
                with torch.no_grad():
                    target = teacher(**batch).logits
                loss = distill_loss(student(**batch).logits, target)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()


        main()
        # --- launch
        accelerate launch --num_processes 4 distill.py
        """),
]
