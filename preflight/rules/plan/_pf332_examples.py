"""PF332 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_POLICY = dedent("""
    # --- train_policy.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator(mixed_precision="bf16")
    {bind}policy = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2-7B", torch_dtype=torch.bfloat16,
                                                  device_map={device_map}){pin}
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
    policy, optimizer, loader = accelerator.prepare(policy, optimizer, build_loader())
    policy.train()
    for batch in loader:
        loss = policy(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes {n} train_policy.py
    """)

_QLORA = dedent("""
    # --- qlora.py
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

    bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
    model = AutoModelForCausalLM.from_pretrained("{model}", quantization_config=bnb,
                                                 device_map={device_map}){pin}
    model = get_peft_model(model, LoraConfig(r=16, task_type="CAUSAL_LM"))
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_set)
    trainer.train()
    # --- launch
    torchrun --nproc_per_node 4 qlora.py
    """)

BAD_EXAMPLES = [
    # accelerate issue 3655's shape: 8 ranks each load a 7B model onto GPU 0 (8 x 15 GB)
    _POLICY.format(bind="", device_map='{"": 0}', pin="  # warning: PF332", n=8),
    # a QLoRA script launched with torchrun: the 4-bit copies of ranks 1-3 sit on GPU 0, the Trainer's
    # prepare refuses them
    _QLORA.format(model="meta-llama/Llama-3.2-1B", device_map='{"": "cuda:0"}', pin="  # warning: PF332"),
]

GOOD_EXAMPLES = [
    # the fix: each process loads onto its own GPU
    _POLICY.format(bind="", device_map='{"": accelerator.process_index}', pin="", n=8),
    # tricky-correct: one process may pin its only copy to GPU 0
    _POLICY.format(bind="", device_map='{"": 0}', pin="", n=1),
    # tricky-correct: the current device, set per process by the launcher/Accelerator
    _QLORA.format(model="meta-llama/Llama-3.2-1B", device_map='{"": torch.cuda.current_device()}', pin=""),
    # tricky-correct: a small unquantized model (two 0.5B float32 copies fit on GPU 0 until prepare moves them)
    dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B", device_map={"": 0})
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader())
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    # --- launch
    accelerate launch --num_processes 2 train.py
    """),
    # tricky-correct: the map is rebound per process when the job is distributed
    _POLICY.format(bind='DEVICE_MAP = {"": 0}\nif accelerator.num_processes > 1:\n'
                   '    DEVICE_MAP = {"": accelerator.process_index}\n',
                   device_map="DEVICE_MAP", pin="", n=8),
]
