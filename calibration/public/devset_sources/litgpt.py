"""Rows of the public dev set from the LitGPT resource tables (tutorials/resource-tables.md):
transcribed by hand, one add(...) per row."""
from .core import add, model

# ---------------------------------------------------------------- litgpt resource tables
S = "litgpt-resource-tables"
LIT_SEQ = {
    "phi-1_5": 1044,
    "stablelm-base-alpha-3b": 1034,
    "Llama-2-7B": 1304,
    "Llama-2-13B": 1304,
    "Falcon-40B": 1079,
}


def lit_lora(m, q, mb, val, gpu="A100-SXM-40GB", ws=1, rid=None, outcome="ran"):
    s = dict(
        model(m),
        mode="train",
        precision="bf16",
        optimizer="adamw",
        micro_batch=mb,
        seq_len=LIT_SEQ[m],
        lora_r=8,
        lora_targets=["q_proj", "v_proj"],
        lora_dropout=0.05,
        attention="sdpa",
        loss="chunked",
        world_size=ws,
        grad_ckpt=ws > 1,
    )
    # finetune/lora.py at 8641822: batch_size 128, gradient_accumulation_iters = 128 // mb;
    # the model is litgpt's own GPT class (lit_gpt/model.py), not transformers'
    s["grad_accum"] = 128 // mb
    s["model_impl"] = "litgpt"
    if ws > 1:
        s["fsdp"] = "full"
        # accumulation under fabric.no_backward_sync (FSDP no_sync); Fabric 2.1 FSDPStrategy
        # defaults use_orig_params=True, and auto_wrap_policy={Block} puts the LoRA adapters
        # and the frozen weights of a block in one FlatParameter
        s.update(fsdp_unsharded_accum=True, fsdp_frozen_grads=True)
    if q:
        s.update(quant="4bit", quant_type="nf4", double_quant=(q == "nf4-dq"), kbit_prepared=False)
    src = S + ("-lora-1gpu" if ws == 1 else "-lora-multigpu")
    add(
        src,
        rid or f"lora-{m}-{q or 'bf16'}-mb{mb}-x{ws}",
        val,
        "GB",
        "max_memory_allocated",
        gpu,
        s,
        outcome=outcome,
        notes="litgpt finetune_lora (Oct 2023, commit 8641822), Alpaca; seq_len = the longest training example for the model's tokenizer; LoRA on the fused qkv projection's query and value parts (trainable count matches the table)"
        + ("; FSDP with activation checkpointing per Block; gradient accumulation under "
           "fabric.no_backward_sync (FSDP no_sync), use_orig_params=True (Lightning 71aed751 default)"
           if ws > 1 else ""),
    )


for m, rowsx in [
    (
        "phi-1_5",
        [(None, 1, 4.82), ("nf4", 1, 3.78), ("nf4-dq", 1, 3.72), (None, 2, 6.76), (None, 4, 10.68)],
    ),
    (
        "stablelm-base-alpha-3b",
        [
            (None, 1, 9.69),
            ("nf4", 1, 6.35),
            ("nf4-dq", 1, 6.19),
            (None, 2, 12.10),
            (None, 4, 16.92),
        ],
    ),
    (
        "Llama-2-7B",
        [
            (None, 1, 21.30),
            ("nf4", 1, 14.14),
            ("nf4-dq", 1, 13.84),
            (None, 2, 29.07),
            (None, 4, "OOM"),
        ],
    ),
    (
        "Llama-2-13B",
        [
            (None, 1, 38.12),
            ("nf4", 1, 23.14),
            ("nf4-dq", 1, 22.55),
            (None, 2, "OOM"),
            (None, 4, "OOM"),
        ],
    ),
    ("Falcon-40B", [(None, 1, "OOM"), ("nf4", 1, "OOM"), ("nf4-dq", 1, "OOM")]),
]:
    for q, mb, v in rowsx:
        if v == "OOM":
            lit_lora(m, q, mb, None, outcome="oom")
        else:
            lit_lora(m, q, mb, v)
for m, mb, v, ws in [
    ("phi-1_5", 1, 4.86, 2),
    ("phi-1_5", 2, 5.05, 2),
    ("phi-1_5", 4, 5.88, 2),
    ("stablelm-base-alpha-3b", 1, 12.75, 2),
    ("stablelm-base-alpha-3b", 2, 12.94, 2),
    ("stablelm-base-alpha-3b", 4, 13.45, 2),
    ("Llama-2-7B", 1, 22.18, 2),
    ("Llama-2-7B", 2, 22.47, 2),
    ("Llama-2-7B", 4, 23.39, 2),
    ("Llama-2-13B", 1, "OOM", 2),
    ("Llama-2-13B", 1, 35.57, 4),
    ("Falcon-40B", 1, "OOM", 4),
]:
    if v == "OOM":
        lit_lora(m, None, mb, None, ws=ws, outcome="oom")
    else:
        lit_lora(m, None, mb, v, ws=ws)


def lit_gen(m, q, val, outcome="ran"):
    s = dict(
        model(m),
        mode="generate",
        precision="bf16",
        micro_batch=1,
        seq_len=16,
        max_new_tokens=50,
        attention="sdpa",
        model_impl="litgpt",
    )
    if q:
        s.update(quant="4bit", quant_type="nf4", double_quant=(q == "nf4-dq"), kbit_prepared=False)
    add(
        S + "-generate",
        f"generate-{m}-{q or 'bf16'}",
        val,
        "GB",
        "max_memory_allocated",
        "A100-SXM-40GB",
        s,
        outcome=outcome,
        notes="litgpt generate/base.py defaults (short prompt, 50 new tokens, batch 1); prompt length assumed 16 tokens",
    )


for m, vals in [
    ("phi-1_5", (2.86, 1.39, 1.33)),
    ("stablelm-base-alpha-3b", (7.30, 3.20, 3.04)),
    ("Llama-2-7B", (13.52, 4.57, 4.26)),
    ("Llama-2-13B", (26.21, 8.32, 7.72)),
    ("CodeLlama-34B", ("OOM", 20.52, 18.95)),
    ("Falcon-40B", ("OOM", 26.55, 24.63)),
    ("Llama-2-70B", ("OOM", None, 37.21)),
]:
    for q, v in zip((None, "nf4", "nf4-dq"), vals):
        if v is None:
            continue
        if v == "OOM":
            lit_gen(m, q, None, outcome="oom")
        else:
            lit_gen(m, q, v)
