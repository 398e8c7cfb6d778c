"""The thirty-seventh held-out set (calibration/public/heldout37.json): 7 public rows (6 measured peaks and one
out-of-memory run) from two publishers that no estimator source cites (by est36b's rule: tests/public_split_helpers.py
``estimator_sources_cited`` / ``author_cited``), neither of them Stanford CS336 and neither the course model:
project-baize/baize-chatbot (the Baize authors' LLaMA 7B / 13B / 30B LoRA fine-tunes on an 8-bit (LLM.int8) base,
micro batch 32 / 16 / 8 of 512 padded tokens, fp16 mixed precision, "designed to run on an A100-80G GPU"; the
README's "GPU VRAM Consumption" table, GB, how it was read not stated) and PrimeIntellect-ai/prime-rl (the
framework's automated benchmark: Qwen3-0.6B full supervised fine-tuning on one GPU under FSDP2, fp32 master weights
with bf16 compute, full activation checkpointing, per-layer torch.compile, flash attention, fixed-length fake data, 2
micro batches of 1 x 8192 / 16384 / 65536 tokens per step, torch AdamW; ``torch.cuda.max_memory_reserved`` per step,
the mean over the three steps after the warm-up step, on an H100 80GB HBM3 or an RTX A6000; the 65536-token run went
out of memory on the H100). 5 training rows of decoder LMs in regimes no earlier split's publishers measured here
(8-bit LoRA with 32-row micro batches; FSDP2 on one GPU with a 151,936-token vocabulary at 8k-64k context). Every
row sourced, the source's figure kept, and what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout37.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, and how earlier splits
write the same regimes: held-out-15's and -16's 8-bit LoRA rows, held-out-18's FSDP2 one-GPU rows). Same row format
as devset.json (see build_devset.py). Every figure is the source's own.

Publishers (the est36b rule: the publisher of a file in a repository is its owner; a split must be independent of
the estimator's sources, every file under calibration/public and bench/public_*.py). Neither owner is a publisher or
a word in those files, and neither page is cited by them (tests/test_public_heldout37.py checks it with
``estimator_sources_cited(37)``). The brief asked for 10-20 rows from at least three publishers with other
architectures (ViT / Swin / ConvNeXt, BERT / T5, Whisper, LoRA / QLoRA); two publishers with pinnable figures and
seven rows were found in the time given (docs/calibration.md, held-out-37, lists what was read and dropped), all
decoder LMs; no vision, encoder or audio row could be pinned.

1. project-baize/baize-chatbot at 9acab56 (2023-04-04, the commit that added the table): README.md lines 105-124
   ("The fine-tuning code is designed to run on an A100-80G GPU", the three ``python finetune.py`` commands with
   per-device batch 32 / 16 / 8, "GPU VRAM Consumption / With the settings above: ... Training (with int8) ...
   Baize-7B 26GB, Baize-13B 25GB, Baize-30B 42GB"), and finetune.py at the same commit (last changed in 972aaec):
   ``MICRO_BATCH_SIZE = int(sys.argv[2])`` (line 23), total batch 64 by accumulation, ``CUTOFF_LEN = 512`` (29),
   LoRA r 8 / alpha 16 / dropout 0.05 on q, k, v, down, gate, up projections (30-39),
   ``LlamaForCausalLM.from_pretrained("decapoda-research/llama-{size}-hf", load_in_8bit=True)`` (63-66),
   ``prepare_model_for_int8_training(model)`` (74), every sample tokenized to ``max_length=CUTOFF_LEN + 1`` with
   ``padding="max_length"`` and the last token dropped (512 tokens, 104-112), ``Trainer(fp16=True)`` (143) with
   ``DataCollatorForLanguageModeling(mlm=False)`` (154), ``torch.compile(model)`` when torch >= 2 (163-164).
2. PrimeIntellect-ai/prime-rl at b798a90 (2026-01-31, the commit that wrote the table):
   benchmarks/results/BENCHMARKS.md (the "Qwen3-0.6B" table, lines 40-42: "SFT Full | 8192 | Recompute | FA3 | ... |
   1xH100 HBM3 | ... | 31.7 GiB", "... 8192 ... FA2 ... 1xA6000 ... 31.2 GiB", "... 16384 ... FA3 ... 1xH100 HBM3
   ... 52.8 GiB") and the result files it is aggregated from, benchmarks/baselines/benchmark-1x{h100,a6000}-Qwen--
   Qwen3-0.6B-sft-full-1gpu-Recompute-flash_attention_{3,2}-{8192,16384,65536}-cp1-ep1.json (``peak_memory.gib``
   31.7421875 / 31.21484375 / 52.83984375; the 65536-token run ``"success": false`` with ``torch.OutOfMemoryError``),
   written by benchmarks/scripts/run_single_benchmark.py (``build_command``: ``torchrun --nproc-per-node=1
   src/prime_rl/trainer/sft/train.py --model.name Qwen/Qwen3-0.6B --model.seq-len L --model.attn ... --model.compile
   --model.ac --data.type fake --data.batch-size 2 --data.seq-len L``), src/prime_rl/trainer/sft/train.py (per step:
   ``reset_peak_memory_stats``, 2 micro batches of forward, ``CrossEntropyLoss(reduction="none")`` on the logits
   (``loss_impl`` default 'torch'), ``del logits``, backward; clip, ``optimizer.step()``, ``zero_grad()``;
   ``peak_memory = torch.cuda.max_memory_reserved() / 1024**3``), src/prime_rl/trainer/utils.py
   (``export_benchmark_json``: the first step dropped, ``peak_memory.gib`` the mean of the other three),
   src/prime_rl/trainer/config.py (``optimization_dtype`` 'float32', ``reduce_dtype`` 'float32',
   ``reshard_after_forward`` True, ``impl`` 'auto'), src/prime_rl/trainer/model.py (``MixedPrecisionPolicy(
   param_dtype=torch.bfloat16, ...)``, ``fully_shard`` per block and the root; ``apply_compile`` compiles each
   decoder layer, not the loss), src/prime_rl/trainer/optim.py (``torch.optim.AdamW``), src/prime_rl/trainer/sft/
   data.py (``FakeDataset``: fixed length, every position a target).

Left out on purpose (decided before scoring, by what is known): prime-rl's RL rows (a policy-gradient loss on
per-token log-probabilities computed by the framework's own kernels, which no estimator input expresses), its LoRA
and multi-GPU rows (LoRA with up to 8 concurrent adapters; expert/context parallel MoE runs on 8 GPUs), and its
offloaded-activation rows (``--model.ac-offloading``); the medAlpaca (kbressem), LongQLoRA / Firefly (yangjianxin1),
Chinese-LLaMA-Alpaca-2 (ymcui) and Yi (01-ai) tables, whose owners the estimator's sources cite; medAlpaca's table
also leaves the batch unstated; and the leads listed in docs/calibration.md's held-out-37 section."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-37"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
BZ = f"{GH}/project-baize/baize-chatbot/blob/9acab5630cc352c6b7c76afcd6cba2dddc5dfb94"
PR = f"{GH}/PrimeIntellect-ai/prime-rl/blob/b798a90d6a1c87e9bdd087d435cc460a465dcbdd"
PR_BASE = f"{PR}/benchmarks/baselines/benchmark-1x{{gpu}}-Qwen--Qwen3-0.6B-sft-full-1gpu-Recompute-{{attn}}-{{ctx}}-cp1-ep1.json"

BZKEY = "baize-llama-int8-lora-a100"
PRKEY = "prime-rl-qwen3-0.6b-sft-fsdp2-1gpu"
#: who measured and published each source's figures (est36b's measurement_publisher: the repository's owner)
MEASURED_BY = {BZKEY: "project-baize", PRKEY: "PrimeIntellect-ai"}

PR_FILES = [("h100", "flash_attention_3", 8192), ("a6000", "flash_attention_2", 8192),
            ("h100", "flash_attention_3", 16384), ("h100", "flash_attention_3", 65536)]

SOURCES = {
    BZKEY: {
        "url": f"{BZ}/README.md",
        "also": [f"{BZ}/finetune.py", f"{BZ}/requirements.txt"],
        "setup": "LLaMA 7B / 13B / 30B (decapoda-research/llama-{size}-hf) loaded with load_in_8bit=True, "
                 "prepare_model_for_int8_training, PEFT LoRA r 8 / alpha 16 / dropout 0.05 on q, k, v, down, gate "
                 "and up projections; every sample padded to 512 tokens; transformers Trainer with fp16=True, "
                 "per-device batch 32 / 16 / 8 (total 64 by accumulation), torch.compile when torch >= 2; the "
                 "README's 'GPU VRAM Consumption' with those settings, 'designed to run on an A100-80G GPU'",
        "versions": {"transformers": "git main (requirements.txt, April 2023)",
                     "peft": "git main (requirements.txt, April 2023)", "torch": "not stated"},
        "date": "2023-04-04 (9acab56)",
        "project": "project-baize/baize-chatbot (Baize, the authors' LoRA chat models on LLaMA)",
        "measured_by": MEASURED_BY[BZKEY],
    },
    PRKEY: {
        "url": f"{PR}/benchmarks/results/BENCHMARKS.md",
        "also": [PR_BASE.format(gpu=g, attn=a, ctx=c) for g, a, c in PR_FILES]
                + [f"{PR}/benchmarks/scripts/run_single_benchmark.py", f"{PR}/src/prime_rl/trainer/sft/train.py",
                   f"{PR}/src/prime_rl/trainer/utils.py", f"{PR}/src/prime_rl/trainer/config.py",
                   f"{PR}/src/prime_rl/trainer/model.py", f"{PR}/src/prime_rl/trainer/optim.py",
                   f"{PR}/src/prime_rl/trainer/sft/data.py", f"{PR}/pyproject.toml"],
        "setup": "Qwen/Qwen3-0.6B full SFT on one GPU: FSDP2 fully_shard with fp32 master weights and a bf16 "
                 "MixedPrecisionPolicy, full activation checkpointing, each decoder layer torch.compile'd, flash "
                 "attention (FA3 on H100, FA2 on A6000), fake fixed-length data, 2 micro batches of 1 x L tokens "
                 "per step (L 8192 / 16384 / 65536), torch CrossEntropyLoss on the logits, torch.optim.AdamW; "
                 "max_memory_reserved per step, the mean over steps 2-4 (GiB); H100 80GB HBM3 or RTX A6000",
        "versions": {"torch": ">=2.9.0 (pyproject)", "transformers": ">=4.57.6 (pyproject)",
                     "image": "primeintellect/prime-rl-jackmin@sha256:5a146f7d... (the result files; "
                              "commit_sha 'unknown')"},
        "date": "2026-01-15 (the runs), 2026-01-31 (b798a90, the table)",
        "project": "PrimeIntellect-ai/prime-rl (an RL / SFT post-training framework; its automated benchmark)",
        "measured_by": MEASURED_BY[PRKEY],
    },
}

# ------------------------------------------------------------------ 1. project-baize (LLaMA int8 LoRA, A100-80G)
BZ_GPU = "A100-SXM-80GB"
LLAMA_30B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 6656,
             "intermediate_size": 17920, "num_hidden_layers": 60, "num_attention_heads": 52,
             "num_key_value_heads": 52, "vocab_size": 32000, "max_position_embeddings": 2048,
             "rms_norm_eps": 1e-6, "tie_word_embeddings": False, "hidden_act": "silu"}
BZ_UNKNOWN = (
    "how the GB were read: not stated (the driver's figure, nvidia-smi, written; 'GB' read as GiB, the unit "
    "nvidia-smi prints, as held-out-15 reads axolotl's README); the table gives whole GB",
    "the GPU: 'designed to run on an A100-80G GPU' and the table is 'with the settings above'; the form factor is "
    "not stated: A100-SXM-80GB written (the PCIe card has the same 80 GB)",
    "gradient checkpointing: finetune.py does not set it; PEFT's prepare_model_for_int8_training of April 2023 "
    "(peft from git main, requirements.txt) enables it by default (use_gradient_checkpointing=True) and casts the "
    "lm_head output to fp32: grad_ckpt True and kbit_prepared True written",
    "the optimizer: the Trainer's default of transformers git main in April 2023 (optim 'adamw_hf', transformers' "
    "own AdamW, fp32 states of the LoRA parameters): 'adamw' written",
    "precision: load_in_8bit without torch_dtype loads the non-quantized weights in fp16 (bitsandbytes' requirement "
    "in transformers of that time) and Trainer(fp16=True) runs autocast with a GradScaler: 'amp-fp16' written",
    "torch.compile(model) runs only when torch >= 2; the torch version is not stated: compiled not written",
    "the data: every sample tokenized to 513 tokens with padding='max_length' and the last dropped: 512 tokens, "
    "padding 'max_length'; DataCollatorForLanguageModeling(mlm=False) sets the labels (pad -> -100)",
    "attention: LlamaAttention of transformers git main in April 2023 (eager softmax, no SDPA): 'eager' written",
    "the checkpoint decapoda-research/llama-{size}-hf: LLaMA-1 shapes, vocab 32,000",
)
BZ_ROWS = (("7b", 32, 26, {"model": "LLaMA-7B"}), ("13b", 16, 25, {"model": "LLaMA-13B"}),
           ("30b", 8, 42, {"hf_config": LLAMA_30B, "model_name": "LLaMA-30B (decapoda llama-30b-hf)"}))
for size, batch, gb, model in BZ_ROWS:
    add(BZKEY, f"llama-{size}-int8-lora-r8-ampfp16-b{batch}-s512", gb, "GiB", "nvidia-smi", BZ_GPU,
        dict(mode="train", **model, precision="amp-fp16", optimizer="adamw", micro_batch=batch,
             grad_accum=64 // batch, seq_len=512, padding="max_length", grad_ckpt=True, attention="eager",
             world_size=1, quant="8bit", kbit_prepared=True, lora_r=8,
             lora_targets=["q_proj", "k_proj", "v_proj", "down_proj", "gate_proj", "up_proj"], lora_dropout=0.05,
             loss="standard", use_cache=False),
        unknown=BZ_UNKNOWN,
        notes=f"project-baize/baize-chatbot README.md at 9acab56, lines 109-124: 'python finetune.py {size} {batch} "
              f"...' and 'GPU VRAM Consumption / With the settings above: ... Baize-{size.upper()} {gb}GB' "
              f"(Training (with int8))")

# ------------------------------------------------------------------ 2. PrimeIntellect-ai/prime-rl (Qwen3-0.6B SFT)
PR_GPUS = {"h100": "H100-SXM-80GB", "a6000": "RTX-A6000-48GB"}
PR_UNKNOWN = (
    "FSDP2 on one GPU (fully_shard per decoder block and the root, reshard_after_forward True): fp32 parameters "
    "(optimization_dtype 'float32'), a bf16 MixedPrecisionPolicy with fp32 gradient reduction, written as "
    "amp-bf16 under fsdp 'full' version 2 with world_size 1, as held-out-18 writes xtuner's one-GPU FSDP2 runs",
    "the model implementation: impl 'auto' picks the framework's own Qwen3 modeling where it has one, else "
    "transformers'; which one ran is not in the result files; the catalog's Qwen3-0.6B (tied embeddings) written",
    "the loss: torch CrossEntropyLoss(reduction='none') on the logits the model returns, then the mean over the "
    "loss mask (every position), logits deleted before backward; loss 'standard' written",
    "torch.compile on each decoder layer (apply_compile), not on the head or the loss: compiled True, "
    "compiled_loss False",
    "the versions: the result files name a docker image by digest and commit_sha 'unknown'; the code read is "
    "b798a90 (the commit of the table, two weeks after the runs); pyproject's floors torch 2.9.0 and transformers "
    "4.57.6 written",
    "the data: FakeDataset with length 'fixed' and input_ids 'increasing' (every token of a sample the same id), "
    "every position a target; 2 micro batches of 1 x L per step (--data.batch-size 2, micro_batch_size 1): "
    "micro_batch 1, grad_accum 2, padding 'packed' (no pad tokens)",
    "the optimizer: torch.optim.AdamW(lr, weight_decay 0.01, betas (0.9, 0.999)), torch's defaults otherwise; "
    "gradients clipped (clip_grad_norm_) before the step",
)


def pr_setup(ctx: int) -> dict:
    return dict(mode="train", model="Qwen3-0.6B", precision="amp-bf16", optimizer="adamw", micro_batch=1,
                grad_accum=2, seq_len=ctx, padding="packed", grad_ckpt=True, attention="flash", loss="standard",
                fsdp="full", fsdp_version=2, world_size=1, compiled=True, compiled_loss=False,
                torch_version="2.9.0", transformers_version="4.57.6")


PR_PEAKS = {("h100", 8192): (31.7421875, "31.7"), ("a6000", 8192): (31.21484375, "31.2"),
            ("h100", 16384): (52.83984375, "52.8")}
for (gpu, ctx), (gib, printed) in PR_PEAKS.items():
    attn = "flash_attention_3" if gpu == "h100" else "flash_attention_2"
    add(PRKEY, f"qwen3-0.6b-sft-full-fsdp2-ac-compile-{gpu}-s{ctx}", gib, "GiB", "memory_reserved", PR_GPUS[gpu],
        pr_setup(ctx),
        unknown=(*PR_UNKNOWN, f"attention: {attn} (--model.attn): 'flash' written"),
        notes=f"PrimeIntellect-ai/prime-rl at b798a90: benchmarks/baselines/benchmark-1x{gpu}-Qwen--Qwen3-0.6B-sft-"
              f"full-1gpu-Recompute-{attn}-{ctx}-cp1-ep1.json peak_memory.gib {gib} (device_name "
              f"'{'NVIDIA H100 80GB HBM3' if gpu == 'h100' else 'NVIDIA RTX A6000'}', 2026-01-15); "
              f"BENCHMARKS.md prints {printed} GiB; max_memory_reserved per step, mean of steps 2-4")
book.add_oom(PRKEY, "qwen3-0.6b-sft-full-fsdp2-ac-compile-h100-s65536-oom", "memory_reserved", PR_GPUS["h100"],
             pr_setup(65536),
             unknown=(*PR_UNKNOWN, "attention: flash_attention_3 (--model.attn): 'flash' written"),
             notes="PrimeIntellect-ai/prime-rl at b798a90: benchmarks/baselines/benchmark-1xh100-Qwen--Qwen3-0.6B-"
                   "sft-full-1gpu-Recompute-flash_attention_3-65536-cp1-ep1.json: 'success': false, error_reason "
                   "'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 37.09 GiB. GPU 0 has a total "
                   "capacity of 79.18 GiB of which 34.48 GiB is free ... 43.38 GiB is allocated by PyTorch'")

for _row in rows:
    _row["measured_by"] = MEASURED_BY[_row["source"]]


def main():
    write_split("heldout37", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
