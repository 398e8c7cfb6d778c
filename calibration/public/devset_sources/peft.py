"""Rows of the public dev set from PEFT: the README table, the accelerate DeepSpeed/FSDP docs and
the MetaMathQA method comparison: transcribed by hand, one add(...) per row."""
from .core import GB, add, model

# ---------------------------------------------------------------- PEFT README table
S = "peft-readme"
PR = "PEFT README 'High performance on consumer hardware' (Dec 2022): ought/raft twitter_complaints, A100 80GB, examples/*_accelerate_ds_zero3_offload.py (batch 8, fp32, TorchTracemalloc = torch.cuda.max_memory_allocated); LoRA r=8 dropout 0.1 on PEFT's default targets"


def pr(rid, m, val, s, outcome="ran"):
    base = dict(
        model(m),
        mode="train",
        precision="fp32",
        optimizer="adamw",
        micro_batch=8,
        attention="eager",
        # est15 (in-sample): the table was committed on 2022-12-29 (PEFT 5de1751) with setup.py
        # requiring "torch>=1.13.0"; torch 2.0 came out on 2023-03-15, so the runs used 1.13.x:
        # AdamW's for-loop step (foreach=None meant False before 2.0) and zero_grad()'s
        # set_to_none=False default
        torch_version="1.13",
    )
    if m == "bloomz-7b1":
        base.update(seq_len=64)
    else:
        base.update(seq_len=64, target_len=4)
    base.update(s)
    add(
        S,
        rid,
        val,
        "GB",
        "max_memory_allocated",
        "A100-SXM-80GB",
        base,
        outcome=outcome,
        notes=PR
        + "; tweet inputs padded per batch (about 64 tokens assumed), label targets 4 tokens",
    )


LR = dict(lora_r=8, lora_dropout=0.1)
DS = dict(zero_stage=3, offload_params="cpu", offload_optimizer="cpu")
pr("t0-3b-full", "T0_3B", 47.14, {})
pr("t0-3b-lora", "T0_3B", 14.4, LR)
pr("t0-3b-lora-ds-offload", "T0_3B", 9.8, dict(LR, **DS))
pr("mt0-xxl-full", "mt0-xxl", None, {}, outcome="oom")
pr("mt0-xxl-lora", "mt0-xxl", 56, LR)
pr("mt0-xxl-lora-ds-offload", "mt0-xxl", 22, dict(LR, **DS))
pr("bloomz-7b1-full", "bloomz-7b1", None, {}, outcome="oom")
pr("bloomz-7b1-lora", "bloomz-7b1", 32, LR)
pr("bloomz-7b1-lora-ds-offload", "bloomz-7b1", 18.1, dict(LR, **DS))

# ---------------------------------------------------------------- PEFT accelerate docs
S = "peft-docs-deepspeed"
SFT = "PEFT docs accelerate/deepspeed.md: examples/sft/train.py via TRL SFTTrainer, Llama-2-70b-hf, ultrachat packed to 2048, flash attention 2, gradient checkpointing, LoRA r=8 all-linear dropout 0.1"
add(
    S,
    "llama2-70b-lora-zero3-8xh100",
    64,
    "GB",
    "nvidia-smi",
    "H100-SXM-80GB",
    dict(
        model("Llama-2-70B"),
        mode="train",
        precision="amp-bf16",
        optimizer="adamw",
        micro_batch=8,
        seq_len=2048,
        grad_ckpt=True,
        attention="flash",
        lora_r=8,
        lora_targets=["all-linear"],
        lora_dropout=0.1,
        zero_stage=3,
        world_size=8,
    ),
    notes=SFT + "; '64 GB (80%)' read from a screenshot",
)
add(
    S,
    "llama2-70b-qlora-zero3-2x40gb",
    36.6,
    "GB",
    "nvidia-smi",
    "A100-SXM-40GB",
    dict(
        model("Llama-2-70B"),
        mode="train",
        precision="bf16",
        optimizer="adamw",
        micro_batch=2,
        seq_len=2048,
        grad_ckpt=True,
        attention="flash",
        lora_r=8,
        lora_targets=["all-linear"],
        lora_dropout=0.1,
        zero_stage=3,
        world_size=2,
        quant="4bit",
        quant_type="nf4",
        double_quant=True,
        kbit_prepared=False,
    ),
    notes=SFT + "; QLoRA with bnb_4bit_quant_storage=bfloat16 and use_nested_quant; 2x40GB GPUs",
)
S = "peft-docs-fsdp"
FS = "PEFT docs accelerate/fsdp.md: examples/sft/train.py via TRL SFTTrainer, Llama-2-70b-hf, ultrachat packed to 2048, flash attention 2, gradient checkpointing, LoRA r=8 all-linear dropout 0.1, FULL_SHARD"
add(
    S,
    "llama2-70b-lora-fsdp-8xh100",
    72,
    "GB",
    "nvidia-smi",
    "H100-SXM-80GB",
    dict(
        model("Llama-2-70B"),
        mode="train",
        precision="amp-bf16",
        optimizer="adamw",
        micro_batch=8,
        seq_len=2048,
        grad_ckpt=True,
        attention="flash",
        lora_r=8,
        lora_targets=["all-linear"],
        lora_dropout=0.1,
        fsdp="full",
        world_size=8,
    ),
    notes=FS + "; '72-80 GB', the upper end when saving a FULL_STATE_DICT: 72 taken for training",
)
Q = dict(
    model("Llama-2-70B"),
    mode="train",
    precision="bf16",
    optimizer="adamw",
    micro_batch=2,
    seq_len=2048,
    grad_ckpt=True,
    attention="flash",
    lora_r=8,
    lora_targets=["all-linear"],
    lora_dropout=0.1,
    fsdp="full",
    world_size=2,
    quant="4bit",
    quant_type="nf4",
    double_quant=True,
    kbit_prepared=False,
)
add(
    S,
    "llama2-70b-qlora-fsdp-offload-2x",
    19.6,
    "GB",
    "nvidia-smi",
    "RTX-4090-24GB",
    dict(Q, offload_params="cpu", offload_optimizer="cpu"),
    notes=FS + "; QLoRA, quant storage bf16, fsdp_offload_params=true, 2 GPUs of 24GB",
)
add(
    S,
    "llama2-70b-qlora-fsdp-2x",
    35.6,
    "GB",
    "nvidia-smi",
    "A100-SXM-80GB",
    Q,
    notes=FS
    + "; same without CPU offloading (GPU not named; 35.6 GB needs more than 24GB: an 80GB GPU assumed)",
)

# ---------------------------------------------------------------- PEFT MetaMathQA method comparison
S = "peft-metamathqa"
MM = "PEFT method_comparison/MetaMathQA results (peft d787f51, torch 2.13.0+cu130, transformers 5.13.1, NVIDIA L40S): Llama-3.2-3B in bf16, batch 4, no gradient checkpointing, torch AdamW; accelerator_memory_max = the largest memory_reserved() sampled after a step, minus the reserved memory at start; sequences filtered to 1300 characters (longest about 400 tokens, assumed)"


MM_PAD = ("; batches padded per batch to their longest sample (run.py: BucketIterator, "
          "tokenizer.pad(batch, return_tensors='pt'); empty_cache() every 10 steps): padding dynamic "
          "(est13 correction, was unstated)")


def mm(rid, val, s):
    base = dict(
        model("Llama-3.2-3B"),
        mode="train",
        precision="bf16",
        optimizer="adamw",
        micro_batch=4,
        seq_len=400,
        attention="sdpa",
        # est13 correction, read in run.py at peft d787f51: batches of varying length, each padded
        # to its longest sample ("iterator_train = BucketIterator(ds_train, batch_size=batch_size,
        # ...)", "batch = tokenizer.pad(batch, return_tensors=\"pt\")"), so reserved memory holds
        # cached blocks of other lengths ("torch_accelerator_module.empty_cache()" every
        # ACCELERATOR_EMPTY_CACHE_SCHEDULE = 10 steps); the versions are the results' own
        padding="dynamic",
        torch_version="2.13.0",
        transformers_version="5.13.1",
    )
    base.update(s)
    add(S, rid, val / GB, "GB", "memory_reserved", "L40S-48GB", base, notes=MM + MM_PAD)


mm("full-finetuning", 38868615168, {})
mm("lora-r32-qv", 22292725760, dict(lora_r=32, lora_targets=["q_proj", "v_proj"]))
mm("lora-r64-qv", 22552772608, dict(lora_r=64, lora_targets=["q_proj", "v_proj"]))
mm("lora-r10-mlp", 24698159104, dict(lora_r=10, lora_targets=["up_proj", "gate_proj", "down_proj"]))
