"""Writes calibration/public/heldout12.json: a TWELFTH held-out set of public measured peaks, the memory
figures the ms-swift team wrote at the top of its example training scripts and in its Megatron-SWIFT
benchmark table (pages no earlier set uses), transcribed by hand with the script as it stood when each
figure was written: DeepSpeed ZeRO-2/ZeRO-3 full fine-tunes of Qwen2.5-7B/14B on four and eight GPUs at
8,192 packed tokens (with and without Liger's fused loss, with and without packing), LoRA under DDP,
ZeRO-2, ZeRO-3, FSDP2 and FSDP with CPU offload (QLoRA, Qwen2-7B and Qwen2.5-72B), a single-GPU full
fine-tune, LoRA, QLoRA, packed LoRA and Unsloth LoRA of the 7B; and, from a second publisher, Philipp
Schmid's Llama-3-70B QLoRA under FSDP with CPU offload on four A10G. Multi-GPU ZeRO/FSDP jobs, Liger and
8k-token full fine-tunes are what the earlier sets hold least of.
Run: python calibration/public/build_heldout12.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py).

Publisher and pages. modelscope/ms-swift is also the publisher of held-out-6's ``docs/source/LLM/
Benchmark.md`` (ms-swift 2.x, Qwen-7B-Chat LoRA rows measured by a benchmark harness); none of the pages
used here appears in an earlier set, the code is ms-swift 3.x (Dec 2024 - Nov 2025), and the figures were
written by the example authors, not produced by that harness. The independence from held-out-6 is
therefore partial: same publisher, same logger. The one row of philschmid/deep-learning-pytorch-huggingface
(``training/fsdp-qlora-distributed-llama3.ipynb`` at 57cab54 with ``scripts/run_fsdp_qlora.py`` at 4a0caad) is
from a publisher no earlier set uses; its versions are pinned by the notebook's install cell.

What the figures are. ms-swift's trainer logs ``memory(GiB)``: ``sum(torch.cuda.max_memory_reserved(d)
for d in range(torch.cuda.device_count())) / 1024**3`` in each process (``swift/trainers/mixin.py``
``get_max_cuda_memory`` at b40f31d; ``swift/utils get_max_reserved_memory`` later); a rank only allocates
on its own device, so the figure is that GPU's peak reserved memory in GiB. A comment "18GiB * 2" is read
as 18 GiB on each of two GPUs. Some comments write "GB" (22GB, 10GB, 42GB...): they are read as the same
logged GiB figure, and that reading is recorded under ``unknown``, as is the possibility that a figure was
read from nvidia-smi instead (which adds the CUDA context). Every comment is kept from the commit at which
it first appears with that value; where the script changed later (model, dataset, max_length) without the
figure changing, the row uses the script as it stood when the figure was written (pinned in ``notes``).

Setup defaults read from ms-swift at each commit: ``gradient_checkpointing`` True (swift's default),
``target_modules`` ['all-linear'], ``lora_rank`` 8, ``lora_dropout`` 0.05, ``attn_impl`` None (transformers'
default: sdpa for Qwen2) unless ``flash_attn`` is passed, HF Trainer with ``adamw_torch`` (DeepSpeed wraps
it), the model's own loss (HF's unfused cross-entropy) unless ``--use_liger_kernel`` (Liger's fused linear
cross-entropy: no logits), bitsandbytes 4-bit defaults nf4 with double quantization and no
``prepare_model_for_kbit_training`` call, ZeRO configs ``swift/llm/ds_config/zero{2,3}.json`` (ZeRO-2:
bucket sizes 2e8, overlap_comm; ZeRO-3: reduce/prefetch buckets "auto" = hidden^2 and 0.9 hidden^2, live
parameters and reuse distance 1e9; overlap_comm true at b40f31d/9d297f9, false at 7b70996), and ZeRO-3
models loaded under zero.Init (the TrainingArguments are built before the model). Sequence lengths: packed
rows fill ``max_length``; padded rows use ``max_length`` as the bound of the longest batch; the
swift/self-cognition rows (about a hundred short identity questions) run far below any cap and are given 128
tokens, an assumed bound recorded under ``unknown``. GPU: the scripts name none except "4 * A100"
(liger/sft.sh) and the A800 of the Megatron-SWIFT benchmark; the others are read as an 80 GB A100 (two of
them need an 80 GB card), recorded under ``unknown``. Versions are not recorded per run (requirements at
the commits: transformers <4.48 in Dec 2024, <4.51 in Mar 2025, <4.52 in Apr 2025; torch and DeepSpeed not
pinned) and are left to the estimator's defaults.

Left out on purpose (decided before scoring, by what is known): the Megatron-LM rows (tensor/pipeline
parallel, not estimator inputs); the Qwen3-30B-A3B ZeRO-2/ZeRO-3 rows (two nodes; the swift-sft command is
not published); ``full/qwen2_5_32b.sh`` (its "8 * 80GiB" first appears as a copy of the 14B benchmark
script's comment); DPO/KTO/GRPO/GKD/PPO scripts (reference or rollout models are not estimator inputs);
multimodal, embedding, reranker, NPU and Megatron scripts; GaLore, LISA, LLaMA-Pro, AdaLoRA and other
tuners that are not LoRA; ``device_map`` model-parallel scripts; ``think_model/deepseek_r1.sh`` (its 18GB was
written for an earlier model than the one the script now names)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-12"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

REPO = "https://github.com/modelscope/ms-swift"
C_30 = "b40f31df7c09dad4d625a1dfae426f19de309546"      # 2024-12-05, ms-swift 3.0 examples
C_DEMO = "69048325fd88a771dd5ae7d323c4b4356dfd7a55"    # 2024-12-20
C_UNSLOTH = "4a280f71e2dbaca81762c5f8f74a5d9b55044bb0"  # 2024-12-20
C_BNB = "ac21d51705d3bbfd01a7aeda55c53014c1cfd31f"     # 2025-01-08
C_PACK = "9b9fd89580031c38603c1196dde6e3481b6d6690"    # 2025-03-13
C_MEG = "9d297f99a9eb2488293caa09dccbe3ded2534170"     # 2025-03-21
C_LIGER = "7b709960f24895212b7df92976d42b7baa633fa0"   # 2025-04-06
C_72B = "ce24037190359aeb807eee907d88d95198ecd4d6"     # 2025-06-13
C_FSDP2 = "376640797e1309935f5cccddb9fa2a68e0e575f8"   # 2025-11-07
C_HEAD = "3602360a562313afbf2ef6065fdf61f271a2c5b9"    # 2026-08-22 (the A800 statement)


def blob(commit, path):
    return f"{REPO}/blob/{commit}/{path}"


LIGER = "ms-swift-liger-zero3-example"
MEGATRON = "ms-swift-megatron-benchmark-deepspeed"
EX30 = "ms-swift-3.0-train-examples"
EX25 = "ms-swift-2025-train-examples"
PHIL = "philschmid-fsdp-qlora-llama3-70b"
PHIL_REPO = "https://github.com/philschmid/deep-learning-pytorch-huggingface"
SOURCES = {
    LIGER: {
        "url": blob(C_LIGER, "examples/train/liger/sft.sh"),
        "also": [blob(C_LIGER, "swift/llm/ds_config/zero3.json"),
                 blob(C_LIGER, "requirements/framework.txt"),
                 blob(C_LIGER, "swift/llm/argument/base_args/template_args.py")],
        "setup": "swift sft, Qwen2.5-7B full fine-tune, DeepSpeed ZeRO-3 on 4 x A100, bf16, batch 1 x 8,192 tokens "
                 "(R1-distill SFT data), flash attention, with Liger + packing, packing alone, and neither; peak "
                 "read as the trainer's memory(GiB) (max_memory_reserved)",
        "versions": {"ms-swift": "3.3 dev (7b70996)", "transformers": ">=4.33,<4.52 (not recorded per run)",
                     "torch": "not recorded", "deepspeed": "not recorded"},
        "date": "2025-04-06",
        "project": "modelscope/ms-swift (ModelScope, Alibaba)",
    },
    MEGATRON: {
        "url": blob(C_MEG, "docs/source_en/Instruction/Megatron-SWIFT-Training.md"),
        "also": [blob(C_MEG, "examples/train/megatron/benchmark/deepspeed.sh"),
                 blob(C_MEG, "swift/llm/ds_config/zero2.json"), blob(C_MEG, "swift/llm/ds_config/zero3.json"),
                 blob(C_HEAD, "docs/source_en/Megatron-SWIFT/Quick-start.md (the same table, with its "
                              "environment: 8K context, one node of eight A800)")],
        "setup": "swift sft, Qwen2.5-14B full fine-tune, DeepSpeed ZeRO-2 and ZeRO-3 on 8 x A800, bf16, packed "
                 "8,192 tokens, flash attention (the DeepSpeed columns of the Megatron-SWIFT benchmark)",
        "versions": {"ms-swift": "3.3 dev (9d297f9)", "transformers": ">=4.33,<4.51 (not recorded per run)",
                     "torch": "not recorded", "deepspeed": "not recorded"},
        "date": "2025-03-21",
        "project": "modelscope/ms-swift (ModelScope, Alibaba)",
    },
    EX30: {
        "url": blob(C_30, "examples/train/full/train.sh"),
        "also": [blob(C_30, p) for p in (
            "examples/train/ddp/train.sh", "examples/train/deepspeed/train_zero2.sh",
            "examples/train/deepspeed/train_zero3.sh", "examples/train/fsdp_qlora/train.sh",
            "examples/train/fsdp_qlora/fsdp_offload.json", "examples/train/packing/train.sh",
            "examples/train/tuners/lora/train.sh", "swift/llm/ds_config/zero2.json",
            "swift/llm/ds_config/zero3.json", "swift/trainers/mixin.py", "swift/llm/argument/train_args.py",
            "swift/llm/argument/tuner_args.py", "swift/llm/argument/base_args/quant_args.py",
            "requirements/framework.txt")],
        "setup": "swift sft on swift/self-cognition with Qwen2-7B-Instruct (bf16): full fine-tune on one GPU, "
                 "LoRA (all-linear, r 8) on one GPU, packed to 8,192 tokens, and on two GPUs under DDP, "
                 "ZeRO-2, ZeRO-3 and FSDP with CPU offload (QLoRA); peak = the trainer's memory(GiB)",
        "versions": {"ms-swift": "3.0 dev (b40f31d)", "transformers": ">=4.33,<4.48 (not recorded per run)",
                     "peft": ">=0.11,<0.14", "torch": "not recorded", "deepspeed": "not recorded"},
        "date": "2024-12-05",
        "project": "modelscope/ms-swift (ModelScope, Alibaba)",
    },
    EX25: {
        "url": blob(C_BNB, "examples/train/qlora/bnb.sh"),
        "also": [blob(C_DEMO, "examples/train/demo.sh"), blob(C_UNSLOTH, "examples/train/tuners/unsloth/train.sh"),
                 blob(C_UNSLOTH, "swift/llm/train/tuner.py"), blob(C_PACK, "examples/train/packing/train.sh"),
                 blob(C_72B, "examples/train/multi-gpu/fsdp_qlora/train.sh"),
                 blob(C_72B, "examples/train/multi-gpu/fsdp_qlora/fsdp_offload.json"),
                 blob(C_FSDP2, "examples/train/multi-gpu/fsdp2_lora/train.sh"),
                 blob(C_FSDP2, "examples/train/multi-gpu/fsdp2_lora/fsdp2.json")],
        "setup": "swift sft with Qwen2.5-7B-Instruct (bf16): LoRA and QLoRA (nf4) at max_length 2,048 on "
                 "alpaca-gpt4 + self-cognition, packed LoRA with flash attention, Unsloth LoRA, LoRA under "
                 "FSDP2 on two GPUs, and Qwen2.5-72B QLoRA under FSDP with CPU offload on two GPUs",
        "versions": {"ms-swift": "3.0-3.10 (Dec 2024 - Nov 2025)", "transformers": "not recorded per run",
                     "torch": "not recorded"},
        "date": "2024-12-20 to 2025-11-07",
        "project": "modelscope/ms-swift (ModelScope, Alibaba)",
    },
    PHIL: {
        "url": f"{PHIL_REPO}/blob/57cab545d0675716adc11e922bc00777ef456b15/training/fsdp-qlora-distributed-llama3.ipynb",
        "also": [f"{PHIL_REPO}/blob/4a0caadaf58e6f9ac64be95250ac5a49193b308b/training/scripts/run_fsdp_qlora.py"],
        "setup": "TRL SFTTrainer, Llama-3-70B QLoRA (nf4, double quant, bf16 storage, LoRA r 16 all-linear) under "
                 "FSDP full shard with CPU offload on 4 x A10G 24GB, packed 3,072 tokens, batch 1, gradient "
                 "checkpointing, sdpa: '22 GB/GPU'",
        "versions": {"torch": "2.2.2", "transformers": "4.40.0", "accelerate": "0.29.3", "peft": "0.10.0",
                     "trl": "0.8.6", "bitsandbytes": "0.43.1"},
        "date": "2024-04-22",
        "project": "philschmid/deep-learning-pytorch-huggingface (Philipp Schmid, Hugging Face)",
    },
}

GIB_READ = ("the comment's unit: ms-swift logs memory(GiB) = max_memory_reserved / 2**30; a comment written "
            "'GB' is read as that logged figure (it may also be nvidia-smi, which adds the CUDA context)")
GPU_A100 = "GPU not named by the script: an 80 GB A100 assumed (the ms-swift examples' usual card)"
SELF_COG = ("longest batch: swift/self-cognition samples are short identity Q&A with a one-line system "
            "prompt; 128 tokens is an assumed bound (the dataset was not tokenized here)")
VERSIONS = "torch, transformers, peft and DeepSpeed versions of the run (not recorded)"

TRAIN = dict(mode="train", precision="bf16", optimizer="adamw", micro_batch=1, grad_ckpt=True)
LORA = dict(lora_r=8, lora_targets=["all-linear"], lora_dropout=0.05)
QLORA = dict(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False)
ZERO2 = dict(zero_stage=2, reduce_bucket_size=200_000_000, allgather_bucket_size=200_000_000,
             overlap_comm=True, contiguous_gradients=True)


def zero3(hidden, overlap):
    """swift's zero3.json with HF's 'auto' buckets: reduce hidden^2, prefetch 0.9 hidden^2."""
    return dict(zero_stage=3, reduce_bucket_size=hidden * hidden, prefetch_bucket_size=int(0.9 * hidden * hidden),
                max_live_parameters=1_000_000_000, max_reuse_distance=1_000_000_000, overlap_comm=overlap,
                contiguous_gradients=True, load_placement="sharded")


# --------------------------------------------------- 1. Liger example: Qwen2.5-7B full, ZeRO-3, 4 x A100
LIGER_NOTE = ("ms-swift 7b70996 examples/train/liger/sft.sh ('test env: 4 * A100'): swift sft --model "
              "Qwen/Qwen2.5-7B --train_type full, R1-distill SFT data #10000, --torch_dtype bfloat16, batch 1, "
              "gradient accumulation 2, --max_length 8192, --deepspeed zero3 (overlap_comm false, buckets auto, "
              "model under zero.Init), --attn_impl flash_attn, gradient checkpointing on (default); ")
LIGER_BASE = dict(TRAIN, model="Qwen2.5-7B", seq_len=8192, attention="flash", world_size=4, grad_accum=2,
                  **zero3(3584, False))
for rid, value, extra, what in (
        ("qwen2.5-7b-full-zero3-4gpu-8k-packing-liger", 42, dict(loss="fused", padding="packed"),
         "'Using use_liger_kernel and packing: 4 * 42GB': --packing true --use_liger_kernel true (Liger's fused "
         "linear cross-entropy, no logits)"),
        ("qwen2.5-7b-full-zero3-4gpu-8k-packing", 54, dict(loss="standard", padding="packed"),
         "'Not using use_liger_kernel: 4 * 54GB': packing kept (1 h 40 min, as fast as the packed Liger run), "
         "HF's unfused loss"),
        # est67 (in-sample): template_args.py at 7b70996, line 36: truncation_strategy ... = 'delete'
        ("qwen2.5-7b-full-zero3-4gpu-8k-padded", 52, dict(loss="standard", padding="dynamic", truncation="delete"),
         "'Not using use_liger_kernel and packing: 4 * 52GB' (3 h 30 min): per-batch padding, samples over "
         "8,192 tokens deleted (truncation_strategy 'delete'); seq_len is the bound of the longest batch")):
    add(LIGER, rid, value, "GiB", "memory_reserved", "A100-SXM-80GB", dict(LIGER_BASE, **extra),
        unknown=(GIB_READ, "A100 40 GB or 80 GB not said (54 GB needs the 80 GB card); SXM or PCIe not said",
                 VERSIONS, "the longest padded batch of the no-packing run (<= 8,192)"),
        notes=LIGER_NOTE + what)

# ------------------------------------- 2. Megatron-SWIFT benchmark, DeepSpeed columns: Qwen2.5-14B, 8 x A800
MEG_NOTE = ("ms-swift 9d297f9 docs/source_en/Instruction/Megatron-SWIFT-Training.md, Benchmark table, 'GPU "
            "Memory Usage' (the environment, 'full-parameter dense models with 8K context length ... single-node, "
            "eight-GPU A800', is stated with the same table in Megatron-SWIFT/Quick-start.md); the shell is "
            "examples/train/megatron/benchmark/deepspeed.sh ('# 8 * 80GiB'): swift sft --model Qwen/Qwen2.5-14B "
            "--train_type full, R1-distill SFT data, bf16, batch 1, gradient accumulation 2, --packing true, "
            "--max_length 8192, --attn_impl flash_attn, PYTORCH_CUDA_ALLOC_CONF expandable_segments:True, "
            "gradient checkpointing on (default); ")
MEG_BASE = dict(TRAIN, model="Qwen2.5-14B", seq_len=8192, attention="flash", world_size=8, grad_accum=2,
                loss="standard", padding="packed")
add(MEGATRON, "qwen2.5-14b-full-zero2-8xa800-8k-packed", 80, "GiB", "memory_reserved", "A800-80GB",
    dict(MEG_BASE, **ZERO2),
    unknown=(GIB_READ, "80 is the card's whole memory: the reserved peak may be capped by the GPU (the job ran)",
             VERSIONS),
    notes=MEG_NOTE + "Deepspeed-ZeRO2 column, 8*80GB (the script's --deepspeed zero2: bucket sizes 2e8, overlap_comm)")
add(MEGATRON, "qwen2.5-14b-full-zero3-8xa800-8k-packed", 58, "GiB", "memory_reserved", "A800-80GB",
    dict(MEG_BASE, **zero3(5120, True)),
    unknown=(GIB_READ, VERSIONS, "the ZeRO-3 command itself (the published shell is the ZeRO-2 one; the row "
                                 "assumes only --deepspeed zero3 changes)"),
    notes=MEG_NOTE + "Deepspeed-ZeRO3 column, 8*58GB (zero3.json at 9d297f9: overlap_comm true, buckets auto, "
                     "zero.Init)")

# --------------------------------------------- 3. ms-swift 3.0 examples (b40f31d): Qwen2-7B-Instruct, self-cognition
EX30_NOTE = ("ms-swift b40f31d (3.0 dev), swift sft --model Qwen/Qwen2-7B-Instruct on 'swift/self-cognition#1000' "
             "(torch_dtype from the checkpoint: bf16), batch 1, gradient accumulation 16 over all GPUs, no "
             "max_length (the model's), gradient checkpointing on (default), attn_impl default (sdpa), HF "
             "Trainer adamw_torch, the model's own loss; ")
SC = dict(TRAIN, model="Qwen2-7B", seq_len=128, attention="sdpa", loss="standard", padding="dynamic",
          # est67 (in-sample): swift/llm/argument/base_args/template_args.py at b40f31d, line 34:
          # "truncation_strategy: Literal['delete', 'left'] = 'left'"; template/base.py lines 629-633
          # keep input_ids[-self.max_length:]: a sample over the cap is cut to it
          truncation="truncate")
add(EX30, "qwen2-7b-full-1gpu-self-cognition", 76, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=1, grad_accum=16),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/full/train.sh '# 76GiB': --train_type full on one GPU (bf16 weights, "
                      "gradients and AdamW states in bf16: no master copy)")
add(EX30, "qwen2-7b-lora-1gpu-self-cognition", 17.2, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=1, grad_accum=16, **LORA),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/tuners/lora/train.sh '# 17.2GiB': --train_type lora --lora_rank 8 "
                      "--lora_alpha 32 (targets all-linear, dropout 0.05 by default)")
add(EX30, "qwen2-7b-lora-ddp-2gpu-self-cognition", 27.5, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=2, grad_accum=8, **LORA),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/ddp/train.sh '# 27.5GiB * 2': NPROC_PER_NODE=2 (DDP), LoRA r 8 all-linear, "
                      "gradient accumulation 16 / 2")
add(EX30, "qwen2-7b-lora-zero2-2gpu-self-cognition", 18, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=2, grad_accum=8, **LORA, **ZERO2),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/deepspeed/train_zero2.sh '# 18GiB * 2': two GPUs, --deepspeed zero2 "
                      "(zero2.json at b40f31d: optimizer AdamW, bucket sizes 2e8, overlap_comm), LoRA r 8 "
                      "all-linear")
add(EX30, "qwen2-7b-lora-zero3-2gpu-self-cognition", 16, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=2, grad_accum=8, **LORA, **zero3(3584, True)),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/deepspeed/train_zero3.sh '# 16GiB * 2': two GPUs, --deepspeed zero3 "
                      "(overlap_comm true, buckets auto, zero.Init), --max_length 1024, LoRA r 8 all-linear")
add(EX30, "qwen2-7b-qlora-fsdp-offload-2gpu-self-cognition", 14, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, world_size=2, grad_accum=8, fsdp="full", offload_params="cpu", **LORA, **QLORA),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes=EX30_NOTE + "examples/train/fsdp_qlora/train.sh '# 14GiB * 2': accelerate launch with "
                      "fsdp_offload.json (FSDP1 FULL_SHARD, offload_params true, transformer-based wrap, "
                      "mixed_precision no, cpu_ram_efficient_loading), --quant_bits 4 (bnb nf4, double quant) "
                      "--bnb_4bit_quant_storage bfloat16, --max_length 2048, LoRA r 8 all-linear")
PACKED_8192_FLOOR = (
    "the stated setting cannot give 17.2 GiB: at the end of the forward of one packed 8,192-token step the "
    "bf16 weights (7,615,616,512 x 2 bytes = 14.19 GiB), the 28 checkpointed bf16 layer inputs (28 x 8,192 "
    "x 3,584 x 2 = 1.53 GiB) and the bf16 logits over all 8,192 positions (8,192 x 152,064 x 2 = 2.32 GiB; "
    "ms-swift b40f31d swift/trainers/trainers.py compute_loss calls model(**inputs), HF's loss, no "
    "logits_to_keep before 2025) are held at once: 18.04 GiB of tensors, above the reserved figure, which "
    "holds at least the allocated tensors. The comment equals examples/train/tuners/lora/train.sh's "
    "'# 17.2GiB' (the unpacked run of the same command)")
add(EX30, "qwen2-7b-lora-1gpu-packed-8192-self-cognition", 17.2, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(SC, seq_len=8192, padding="packed", world_size=1, grad_accum=16, **LORA),
    unknown=(GPU_A100, VERSIONS, "whether 3.0's packing without flash attention masks across packed samples "
                                 "(the tensors are 8,192 tokens either way)"),
    notes=EX30_NOTE + "examples/train/packing/train.sh '# 17.2GiB': --packing true --max_length 8192 on "
                      "'swift/self-cognition#5000' (every pack filled to 8,192 tokens), LoRA r 8 all-linear, "
                      "attention default (sdpa)",
    # est55: the reading is below what the stated step must hold at once (counted by hand from the
    # catalog's shapes; tests/test_est55_packed_floor.py); ms-swift at b40f31d computes HF's loss over
    # every position (swift/trainers/trainers.py compute_loss: model(**inputs), no logits_to_keep)
    not_scored=PACKED_8192_FLOOR)

# ------------------------------------------------- 4. later ms-swift examples: Qwen2.5-7B/72B-Instruct
ALPACA = ("'AI-ModelScope/alpaca-gpt4-data-zh#500' 'AI-ModelScope/alpaca-gpt4-data-en#500' "
          "'swift/self-cognition#500', --max_length 2048 (per-batch padding; seq_len is the bound of the "
          "longest batch)")
AL = dict(TRAIN, model="Qwen2.5-7B", seq_len=2048, attention="sdpa", loss="standard", padding="dynamic",
          world_size=1, grad_accum=16,
          # est67 (in-sample): template_args.py line 34/35 at 6904832 and ac21d51: "truncation_strategy:
          # Literal['delete', 'left'(, 'right')] = 'delete'": a sample over max_length is dropped
          truncation="delete",
          # est47: the datasets the script names (the estimator looks up their published lengths)
          datasets=["AI-ModelScope/alpaca-gpt4-data-zh#500", "AI-ModelScope/alpaca-gpt4-data-en#500",
                    "swift/self-cognition#500"])
AL_UNKNOWN = ("the longest alpaca-gpt4 batch (<= 2,048 tokens)", GIB_READ, GPU_A100, VERSIONS)
add(EX25, "qwen2.5-7b-lora-1gpu-alpaca-2048", 22, "GiB", "memory_reserved", "A100-SXM-80GB", dict(AL, **LORA),
    unknown=AL_UNKNOWN,
    notes="ms-swift 6904832 examples/train/demo.sh (later lora_sft.sh) '# 22GB': swift sft --model "
          "Qwen/Qwen2.5-7B-Instruct --train_type lora --torch_dtype bfloat16 on " + ALPACA + ", batch 1, "
          "gradient accumulation 16, LoRA r 8 alpha 32 all-linear, gradient checkpointing on (default), sdpa")
add(EX25, "qwen2.5-7b-qlora-nf4-1gpu-alpaca-2048", 10, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(AL, **LORA, **QLORA),
    unknown=AL_UNKNOWN,
    notes="ms-swift ac21d51 examples/train/qlora/bnb.sh '# 10GB': as demo.sh plus --quant_method bnb "
          "--quant_bits 4 --bnb_4bit_quant_type nf4 --bnb_4bit_use_double_quant true "
          "--bnb_4bit_compute_dtype bfloat16 (embeddings, norms and LM head stay bf16; no kbit preparation)")
add(EX25, "qwen2.5-7b-lora-1gpu-packed-2048-flash", 22, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(AL, attention="flash", padding="packed", grad_accum=4, **LORA),
    unknown=(GIB_READ, GPU_A100, VERSIONS),
    notes="ms-swift 9b9fd89 examples/train/packing/train.sh '# 22GB': --packing true --attn_impl flash_attn "
          "--max_length 2048 on the alpaca-gpt4 zh#500 + en#500 + self-cognition#500 mix (packs filled to "
          "2,048 tokens), batch 1, gradient accumulation 4, LoRA r 8 all-linear, bf16")
add(EX25, "qwen2.5-7b-unsloth-lora-1gpu-self-cognition", 17, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(TRAIN, model="Qwen2.5-7B", seq_len=128, attention="sdpa", loss="fused", padding="dynamic", world_size=1,
         grad_accum=16, **LORA,
         # est67 (in-sample): template_args.py at 4a280f7, line 34: truncation_strategy ... = 'delete'
         truncation="delete"),
    unknown=(SELF_COG, GPU_A100, VERSIONS, "which attention kernel Unsloth's patched Qwen2 uses (xformers or "
                                           "flash if installed, else sdpa); the comment was 9GiB before this "
                                           "commit corrected it to 17GiB"),
    notes="ms-swift 4a280f7 examples/train/tuners/unsloth/train.sh '# 17GiB': --tuner_backend unsloth "
          "--train_type lora --lora_rank 8 --lora_alpha 32 on 'swift/self-cognition#1000', batch 1, gradient "
          "accumulation 16; swift/llm/train/tuner.py: FastLanguageModel.get_peft_model(use_gradient_checkpointing"
          "=True) (plain checkpointing, not Unsloth's offloaded mode), model loaded in bf16 (quant_bits None); "
          "Unsloth's fused cross-entropy read as the 'fused' loss")
add(EX25, "qwen2.5-7b-lora-fsdp2-2gpu-self-cognition", 14.7, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(TRAIN, model="Qwen2.5-7B", seq_len=128, attention="sdpa", loss="standard", padding="dynamic",
         world_size=2, grad_accum=8, fsdp="full", **LORA,
         # est67 (in-sample): template_args.py at 3766407, line 35 = None, which __post_init__ sets to
         # 'delete' ("if self.truncation_strategy is None: self.truncation_strategy = 'delete'")
         truncation="delete"),
    unknown=(SELF_COG, GPU_A100, VERSIONS),
    notes="ms-swift 3766407 examples/train/multi-gpu/fsdp2_lora/train.sh '# 14.7GiB * 2': accelerate launch with "
          "fsdp2.json (fsdp_version 2, reshard_after_forward, transformer-based wrap, "
          "fsdp_activation_checkpointing true: activations checkpointed by FSDP although --gradient_checkpointing "
          "false, mixed_precision bf16 over bf16 weights), --max_length 2048 on 'swift/self-cognition#1000', "
          "batch 1, gradient accumulation 16 / 2, LoRA r 8 all-linear, --weight_decay 0.1")
add(EX25, "qwen2.5-72b-qlora-fsdp-offload-2gpu-self-cognition", 80, "GiB", "memory_reserved", "A100-SXM-80GB",
    dict(TRAIN, model="Qwen2.5-72B", seq_len=128, attention="sdpa", loss="standard", padding="dynamic",
         world_size=2, grad_accum=8, fsdp="full", offload_params="cpu", **LORA, **QLORA,
         # est67 (in-sample): template_args.py at ce24037, lines 35 and 61-62: None -> 'delete'
         truncation="delete"),
    unknown=(SELF_COG, GPU_A100, VERSIONS, "80 is the card's whole memory: the reserved peak may be capped by the "
                                           "GPU (the job ran)"),
    notes="ms-swift ce24037 examples/train/multi-gpu/fsdp_qlora/train.sh '# 80GiB * 2' (the model changed from "
          "7B to 72B at 88be385 and the figure from 14GiB to 80GiB at ce24037): accelerate launch with "
          "fsdp_offload.json (FSDP1 FULL_SHARD, offload_params true, transformer-based wrap, mixed_precision no, "
          "use_orig_params false, cpu_ram_efficient_loading), --model Qwen/Qwen2.5-72B-Instruct --quant_bits 4 "
          "(nf4, double quant) --bnb_4bit_quant_storage bfloat16 --bnb_4bit_compute_dtype bfloat16, "
          "--max_length 2048 on 'swift/self-cognition#1000', batch 1, gradient checkpointing on, LoRA r 8 "
          "all-linear")


# ------------------------------------------- 5. Philipp Schmid: Llama-3-70B FSDP + QLoRA + CPU offload, 4 x A10G
add(PHIL, "llama-3-70b-qlora-fsdp-offload-4xa10g-3072-packed", 22, "GB", "nvidia-smi", "A10G",
    dict(TRAIN, model="Llama-3-70B", seq_len=3072, attention="sdpa", loss="standard", padding="packed",
         world_size=4, grad_accum=2, fsdp="full", offload_params="cpu", lora_r=16, lora_targets=["all-linear"],
         lora_dropout=0.05, **QLORA, torch_version="2.2.2", transformers_version="4.40.0"),
    unknown=("how '22 GB/GPU' was read (nvidia-smi assumed: the whole per-process figure; it may be reserved "
             "memory, and 'GB' may be nvidia-smi's MiB / 1024)",
             "whether the figure includes the end-of-training save (the notebook warns of ~10% more then)"),
    notes="philschmid/deep-learning-pytorch-huggingface training/fsdp-qlora-distributed-llama3.ipynb at 57cab54, "
          "'Expected Memory usage': 'FSDP + Q-Lora + CPU offloading needs 4x24GB GPUs, with 22 GB/GPU and 127 GB "
          "CPU RAM with a sequence length of 3072 and a batch size of 1' (g5.12xlarge: 4 x A10G). "
          "llama_3_70b_fsdp_qlora.yaml: max_seq_len 3072, per_device_train_batch_size 1, gradient accumulation 2, "
          "optim adamw_torch, bf16, tf32, gradient_checkpointing (use_reentrant True), fsdp 'full_shard auto_wrap "
          "offload' (backward_pre, use_orig_params false), ACCELERATE_USE_FSDP=1 FSDP_CPU_RAM_EFFICIENT_LOADING=1 "
          "torchrun --nproc_per_node=4; run_fsdp_qlora.py at 4a0caad: BitsAndBytesConfig(nf4, double quant, "
          "compute and storage bf16), attn_implementation 'sdpa', use_cache False, LoRA r 16 alpha 8 dropout 0.05 "
          "all-linear, SFTTrainer(packing=True, max_seq_length 3072); TRL 0.8.6 skips "
          "prepare_model_for_kbit_training for sharded QLoRA (4-bit weights on cpu/meta at load); the base "
          "Meta-Llama-3-70b (not Instruct); versions from the notebook's install cell")


if __name__ == "__main__":
    write_split("heldout12", __doc__, SPLIT, SOURCES, rows)
