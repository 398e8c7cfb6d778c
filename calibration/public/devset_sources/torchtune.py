"""Rows of the public dev set from the torchtune README's memory tables (training speed and
optimization flags): transcribed by hand, one add(...) per row."""
from .core import add, model

# ---------------------------------------------------------------- torchtune README
S = "torchtune-readme"
TT = "torchtune README 'Memory and training speed' (batch 2, packed to 2048 tokens, torch.compile on); recipe defaults from recipes/configs/llama3_1/*.yaml"


def tt(rid, m, val, unit, gpu, s, notes=TT, unm=("torch.compile",), not_scored=""):
    base = dict(
        model(m), mode="train", precision="bf16", attention="sdpa", loss="chunked", grad_ckpt=True,
        model_impl="torchtune",
    )
    base.update(s)
    add(S, rid, val, unit, "peak_memory_active", gpu, base, notes=notes, unmodelled=unm, not_scored=not_scored)


#: est55: the table gives the 8B full and LoRA runs twice, on a 4090 and on an A6000, under one stated
#: setting (batch 2, packed to 2,048 tokens, compile; "Runnable On" the card, the recipe defaults otherwise).
#: Peak active bytes are the tensors the step allocates, which do not depend on the card (bitsandbytes'
#: paged states are managed memory, outside torch's allocator), so one setting cannot read 18.9 and 37.4 GiB
#: (16.2 and 30.3 for LoRA). The 4090 figures fit the stated setting (they cannot exceed 24 GB); the A6000
#: figures are of a setting the README does not state (its memory-optimizations page is left to choose it)
A6000_UNSTATED = (
    "the same stated setting (recipe defaults, batch 2, packed 2,048, compile) reads {other} GiB on the RTX 4090 "
    "row of this table; peak active memory is the step's tensors, which do not depend on the card, so the A6000's "
    "{value} GiB is of a setting the README does not state (activation checkpointing off would be one; "
    "docs/calibration.md, est55)")


LQ = dict(
    lora_r=8,
    lora_targets=["q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
    optimizer="adamw",
)
tt(
    "8b-full-4090",
    "Llama-3.1-8B",
    18.9,
    "GiB",
    "RTX-4090-24GB",
    dict(optimizer="paged-adamw-8bit", micro_batch=2, seq_len=2048, optimizer_in_backward=True),
)
tt(
    "8b-full-a6000",
    "Llama-3.1-8B",
    37.4,
    "GiB",
    "RTX-A6000-48GB",
    dict(optimizer="paged-adamw-8bit", micro_batch=2, seq_len=2048, optimizer_in_backward=True),
    not_scored=A6000_UNSTATED.format(other="18.9", value="37.4"),
)
tt(
    "8b-lora-4090",
    "Llama-3.1-8B",
    16.2,
    "GiB",
    "RTX-4090-24GB",
    dict(LQ, micro_batch=2, seq_len=2048),
)
tt(
    "8b-lora-a6000",
    "Llama-3.1-8B",
    30.3,
    "GiB",
    "RTX-A6000-48GB",
    dict(LQ, micro_batch=2, seq_len=2048),
    not_scored=A6000_UNSTATED.format(other="16.2", value="30.3"),
)
tt(
    "8b-qlora-4090",
    "Llama-3.1-8B",
    7.4,
    "GiB",
    "RTX-4090-24GB",
    dict(
        LQ,
        micro_batch=2,
        seq_len=2048,
        quant="4bit",
        quant_type="nf4",
        double_quant=True,
        kbit_prepared=False,
    ),
    unm=("torch.compile", "torchao NF4 (not bitsandbytes)"),
)
tt(
    "70b-full-8xa100",
    "Llama-3.1-70B",
    13.9,
    "GiB",
    "A100-SXM-80GB",
    dict(
        optimizer="adamw-fused",
        micro_batch=2,
        seq_len=2048,
        world_size=8,
        fsdp="full",
        offload_params="cpu",
        offload_optimizer="cpu",
    ),
)
tt(
    "70b-lora-8xa100",
    "Llama-3.1-70B",
    27.6,
    "GiB",
    "A100-SXM-80GB",
    dict(LQ, lora_r=16, micro_batch=2, seq_len=2048, world_size=8, fsdp="full"),
)
tt(
    "405b-qlora-8xa100",
    "Llama-3.1-405B",
    44.8,
    "GB",
    "A100-SXM-80GB",
    dict(
        LQ,
        lora_r=16,
        micro_batch=2,
        seq_len=2048,
        world_size=8,
        fsdp="full",
        quant="4bit",
        quant_type="nf4",
        double_quant=True,
        kbit_prepared=False,
    ),
    unm=("torch.compile", "torchao NF4 (not bitsandbytes)"),
)
S = "torchtune-readme-3b-levers"
TT3 = "torchtune README 'Optimization flags': Llama 3.2 3B, full_finetune_single_device, batch 2, max_seq_len 4096, bf16, A100; each technique on top of the previous (LoRA/QLoRA rows without optimizer_in_bwd and 8-bit AdamW)"


def t3(rid, val, s, unm=()):
    base = dict(
        model("Llama-3.2-3B"),
        mode="train",
        precision="bf16",
        attention="sdpa",
        micro_batch=2,
        seq_len=4096,
        optimizer="adamw",
        loss="standard",
        model_impl="torchtune",
    )
    base.update(s)
    add(S, rid, val, "GiB", "peak_memory_active", "A100-SXM-80GB", base, notes=TT3, unmodelled=unm)


t3("packed", 60.0, {})
t3("packed-compile", 51.0, {}, ("torch.compile",))
t3("chunked-ce", 42.9, {"loss": "chunked"}, ("torch.compile",))
t3("act-ckpt", 24.9, {"loss": "chunked", "grad_ckpt": True}, ("torch.compile",))
t3(
    "opt-in-bwd",
    23.1,
    {"loss": "chunked", "grad_ckpt": True, "optimizer_in_backward": True},
    ("torch.compile",),
)
t3(
    "act-offload",
    21.8,
    {
        "loss": "chunked",
        "grad_ckpt": True,
        "optimizer_in_backward": True,
        "activation_offload": True,
    },
    ("torch.compile",),
)
t3(
    "adamw8bit",
    17.6,
    {
        "loss": "chunked",
        "grad_ckpt": True,
        "optimizer": "adamw-8bit",
        "optimizer_in_backward": True,
        "activation_offload": True,
    },
    ("torch.compile",),
)
L3 = dict(
    lora_r=64,
    lora_targets=["q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
    loss="chunked",
    grad_ckpt=True,
)
t3("lora", 8.5, dict(L3, activation_offload=True), ("torch.compile",))
t3(
    "qlora",
    4.6,
    dict(
        L3,
        quant="4bit",
        quant_type="nf4",
        double_quant=True,
        kbit_prepared=False,
        activation_offload=True,
    ),
    ("torch.compile", "torchao NF4 (not bitsandbytes)"),
)
