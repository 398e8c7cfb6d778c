"""The thirty-second held-out set (calibration/public/heldout32.json): 20 public rows (20 measured peaks) from pages no
earlier split read, by three publishers no earlier split read: Stas Bekman's ml-engineering book (stas00/ml-engineering,
insights/when-to-upgrade-gpus: Llama-3.1-8B full training with DeepSpeed on 8 H200s, ZeRO-3 + CPU-offloaded AdamW +
activation checkpointing + Liger-Kernel at 8K to 256K tokens, and ZeRO-2 at 8K with and without Liger-Kernel,
max_memory_reserved of the worst rank; 8 TRAINING rows), an EE 5453 KV-cache assignment
(josedavp/Assignment_2_EE5453_Jose: distilgpt2 fp16 greedy decoding on an RTX 3060 Ti, with and without the cache,
batch 1 to 4, prompts of 32 to 256 tokens, max_memory_allocated; 7 rows) and a Columbia HPML course project
(ASB1127/HPMLProj: DistilBERT sequence-classification LoRA r4 to r128 on IMDB in fp32, batch 32 x 128 tokens, each
epoch's max_memory_allocated; 5 TRAINING rows). Every row sourced, the source's printed figure kept, and what the
source leaves open recorded as unknown.

Run: python calibration/public/build_heldout32.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model and GPU
names, and how held-out-13 writes a Liger-Kernel row, held-out-8 / held-out-17 a sequence-classification row and
held-out-20 a DeepSpeed ZeRO row and an inline ``hf_config``). Same row format as devset.json (see build_devset.py).
Every figure is the source's own.

Publishers. No earlier split cites any of the three owners (tests/test_public_heldout32.py checks every URL under
calibration/public and bench). Said here so a reader can weigh it: stas00/ml-engineering is named, without a URL, in
two other benches' code pools (bench/bugs/hunt_manifest*.txt and bench/realworld/allrules_repos_hunt45.txt: its Python
files were searched for rule bugs), stas00 appears as the author of a DeepSpeed issue quoted in bench/bugs/heldout25 and
heldout28 deepspeed.cases, and held-out-31's builder lists the repository among those "searched and not found usable"
(docs/calibration.md); no estimator split has read a figure of it. The two student repositories are one person's / one
team's course work with their own code and their own logged runs (an EE 5453 assignment, a Columbia HPML project).

1. stas00/ml-engineering insights/when-to-upgrade-gpus/README.md at 2943345 (the tables first printed at 380e078,
   2026-07-20, unchanged since; benchmark.py and bench_decompose.py unchanged since c8f3691). Setup (benchmark.py):
   meta-llama/Llama-3.1-8B, real weights, bf16 (``from_pretrained(dtype=torch.bfloat16)``), HF attention
   ``flash_attention_3`` on the H200, batch 1, one dense random sequence (no padding, labels = inputs), DeepSpeed 0.19.2
   with bf16, gradient clipping 1.0, the config's own optimizer block (``AdamW``: DeepSpeed's CPU Adam when offloaded),
   ``zero_optimization`` {stage 3, overlap_comm, contiguous_gradients, offload_optimizer cpu + pin_memory}, activation
   checkpointing (non-reentrant), ``AutoLigerKernelForCausalLM`` (Liger RMSNorm / RoPE / SwiGLU / fused linear
   cross-entropy), 8 GPUs, 2 warm-up + 10 steps; the figure is ``torch.cuda.max_memory_reserved`` in GiB (one decimal),
   all-reduced with MAX over the ranks (the worst rank). The H200 column of "Peak memory (max_memory_reserved, worst
   rank)": 8K 16.3, 32K 25.8, 64K 37.5, 128K 66.5, 192K 95.7, 256K 124.5. The ZeRO-2 rows (bench_decompose.py: ZeRO-2,
   no checkpointing, no offload, 3 warm-up steps then reset_peak_memory_stats, 10 timed steps, max_memory_reserved MAX
   over ranks): "it cuts peak memory ~20% (99 -> 80GiB, identical on both GPUs)" for Liger-Kernel off / on at 8K.
   Environment table: torch 2.13.0 / cu130, deepspeed 0.19.2, transformers 5.14.1, Liger-Kernel 0.8.0,
   flash-attn-3 3.0.0.
2. josedavp/Assignment_2_EE5453_Jose at f48e1c4 (logs.csv and run_model.py of 5c03065, 2025-10-26): run_model.py loads
   distilgpt2 in fp16 (``torch_dtype=torch.float16``, ``.to(cuda)``), builds a batch of identical prompts truncated to
   ``prompt_len`` tokens, warms up with one generate(max_new_tokens=4), synchronizes and calls
   ``torch.cuda.reset_peak_memory_stats()``, then runs 128 greedy ``model.generate(max_new_tokens=1, use_cache=...)``
   calls, each on the whole sequence so far (the sequence grows by one token per call), and writes
   ``torch.cuda.max_memory_allocated() / 1024**2`` (peak_mem_mb, MiB). GPU: "NVIDIA RTX 3060 Ti" (8 GB), CUDA 12.4.
3. ASB1127/HPMLProj Lora+TopR at ec7ccdb (the logs of 340b172, 2025-12-14): lora_config/lora.py fine-tunes
   distilbert-base-uncased with ``AutoModelForSequenceClassification(num_labels=2)``, PEFT LoRA r (alpha = r, dropout
   0.1) on q_lin / k_lin / v_lin (task SEQ_CLS), inputs padded to max_length 128, Trainer with batch 32, fp16 False,
   bf16 False (fp32), TopRAdamW (torch.optim.AdamW subclass that masks the smallest gradients in place before
   AdamW.step), and a callback that calls reset_peak_memory_stats at every epoch begin and writes
   ``torch.cuda.max_memory_allocated()`` (bytes) at every epoch end (graph/imdb/r{r}/topr0.1/epoch_peak_memory.csv, ten
   epochs, the same figure every epoch).

Left out on purpose (decided before scoring, by what is known): ml-engineering's B200 column (the same setup and the
same figures within 0.2 GiB on another GPU with FA4 beta: six more rows of one publisher for one reading), its
torch.compile tables (time only) and its training/performance examples (calculated, or single tensors); josedavp's
first and third logs.csv lines repeat one configuration (one row kept); HPMLProj's SST-2 logs (the same shapes padded to
128, the same figures as IMDB), its other top-r fractions (0.3, 0.5: the masking fraction only, figures within 1%), its
rSVD / SVT runs (custom optimizers and models: no input), its total_program_memory.csv (the whole program including the
FLOP-profiler pass) and its README optimizer-state table (state sizes, not a peak); kbressem/medAlpaca's README memory
table (its train.py is a real-world job of bench/realworld, and the table names neither the batch nor the counter);
ellisbrown/BDML25SP (a LLaMA-3B QLoRA report whose 22.9 GB nvidia-smi reading is called both the peak of a batch-size
search and 28% of the card: which run it belongs to cannot be told); TonyHGF/cs182sp25_public hw04 (GPUtil readings on a
Windows WDDM laptop GPU that already held 1,365 MiB of desktop processes, SGD-momentum below SGD, batch 256 of
224 x 224 ResNet-152 at 7.8 GB of an 8 GB card: device sharing and WDDM paging cannot be told apart);
ljm565/universal-llm-trainer's tables (a publisher earlier splits cite); zyushun/Adam-mini and jiaweizzhao/GaLore issues
and scripts (Adam-mini / GaLore optimizers: no input; the GaLore third-party table is LLaMA-Factory's own benchmark);
BAdam's README (BAdam optimizer; its Adam column is written '144 GB+', not a measurement); gigagpu.com / spheron /
theneuralbase tables (estimates written as measurements, no code)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-32"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
MLE = f"{GH}/stas00/ml-engineering/blob/2943345982c3511341b6e1f92969f66e69db3ce3/insights/when-to-upgrade-gpus"
JD = f"{GH}/josedavp/Assignment_2_EE5453_Jose/blob/f48e1c49cc506957a8aca40fa027220c5c048622"
HP = f"{GH}/ASB1127/HPMLProj/blob/ec7ccdb4c70a2bfce04ac43aae1e559b12c0d252/Lora+TopR"

MLEKEY = "ml-engineering-when-to-upgrade-gpus-llama31-8b-8xh200"
JDKEY = "ee5453-kv-cache-assignment-distilgpt2-rtx3060ti"
HPKEY = "hpml-project-distilbert-lora-topr-imdb"

SOURCES = {
    MLEKEY: {
        "url": f"{MLE}/README.md",
        "also": [f"{MLE}/benchmark.py", f"{MLE}/bench_decompose.py", f"{MLE}/run_sweep.sh"],
        "setup": "meta-llama/Llama-3.1-8B full training (real weights, bf16) with DeepSpeed on 8 H200s, batch 1 of "
                 "one dense random sequence (labels = inputs), HF flash_attention_3, DeepSpeed's AdamW from the "
                 "config, bf16, gradient clipping 1.0, overlap_comm and contiguous_gradients: ZeRO-3 + CPU-offloaded "
                 "optimizer + non-reentrant activation checkpointing + AutoLigerKernelForCausalLM at 8K to 256K tokens "
                 "(benchmark.py), or ZeRO-2 without checkpointing or offload at 8K, Liger-Kernel off / on "
                 "(bench_decompose.py); torch.cuda.max_memory_reserved in GiB, MAX over the ranks",
        "versions": {"torch": "2.13.0 / cu130 (stated)", "deepspeed": "0.19.2 (stated)",
                     "transformers": "5.14.1 (stated)", "liger-kernel": "0.8.0 (stated)",
                     "flash-attn-3": "3.0.0 (stated)"},
        "date": "2026-07-20 (380e078, first printing) / 2026-08-07 (2943345, read)",
        "project": "stas00/ml-engineering (Stas Bekman's Machine Learning Engineering book)",
    },
    JDKEY: {
        "url": f"{JD}/logs.csv",
        "also": [f"{JD}/run_model.py", f"{JD}/README.md"],
        "setup": "distilgpt2 in fp16 on an RTX 3060 Ti 8GB: a batch of identical prompts truncated to prompt_len "
                 "tokens, reset_peak_memory_stats after a warm-up, then 128 greedy generate(max_new_tokens=1) calls "
                 "on the growing sequence, use_cache 1 or 0; peak_mem_mb = torch.cuda.max_memory_allocated() / "
                 "1024**2",
        "versions": {"torch": "not stated (pip cu124 wheel of 2025-10: 2.6.0 written)",
                     "transformers": "not stated (4.57.1 written for 2025-10)"},
        "date": "2025-10-26 (5c03065, logs.csv; file read at f48e1c4)",
        "project": "josedavp/Assignment_2_EE5453_Jose (an EE 5453 course assignment on KV caching)",
    },
    HPKEY: {
        "url": f"{HP}/graph/imdb/r8/topr0.1/epoch_peak_memory.csv",
        "also": [f"{HP}/lora_config/lora.py", f"{HP}/lora_call.py", f"{HP}/custom_optim/topr_adamw.py",
                 *(f"{HP}/graph/imdb/r{r}/topr0.1/epoch_peak_memory.csv" for r in (4, 16, 64, 128))],
        "setup": "distilbert-base-uncased AutoModelForSequenceClassification(num_labels=2) with PEFT LoRA r on "
                 "q_lin/k_lin/v_lin (alpha r, dropout 0.1, SEQ_CLS), IMDB padded to 128 tokens, Trainer batch 32, "
                 "fp32, TopRAdamW (a torch AdamW that zeroes all but the top 10% gradient magnitudes); each "
                 "epoch's torch.cuda.max_memory_allocated() in bytes after reset_peak_memory_stats at the epoch "
                 "begin",
        "versions": {"torch": "not pinned in use (requirements.txt 2.4.1+cu124; the runs were made as root in the "
                              "runpod/pytorch torch 2.8.0 container of docker/Dockerfile: 2.8.0 written)",
                     "transformers": "4.57.3 (requirements.txt)", "peft": "0.18.0 (requirements.txt)"},
        "date": "2025-12-14 (340b172, the runs; files read at ec7ccdb)",
        "project": "ASB1127/HPMLProj (a Columbia HPML course project)",
    },
}

# ------------------------------------------------------------------ 1. ml-engineering (training, 8 x H200)
MLE_BASE = dict(mode="train", model="Llama-3.1-8B", precision="bf16", optimizer="adamw", micro_batch=1,
                grad_accum=1, attention="flash", world_size=8, padding="max_length", loss="standard",
                overlap_comm=True, contiguous_gradients=True, zero_client_optimizer=False, load_placement="gpu",
                torch_version="2.13.0", transformers_version="5.14.1", deepspeed_version="0.19.2")
MLE_UNKNOWN = (
    "the figure: torch.cuda.max_memory_reserved(device) / 2**30 all-reduced with MAX over the 8 ranks (the worst "
    "rank), printed with one decimal: unit GiB, measured memory_reserved",
    "the data: one random dense sequence per step (input_ids = labels, no padding): seq_len the step's length, "
    "padding 'max_length' (every step the same length)",
    "the model: meta-llama/Llama-3.1-8B, the catalog's Llama-3.1-8B; attention: transformers' flash_attention_3 "
    "(FA3 3.0.0) on the H200 ('flash')",
    "DeepSpeed: the config's optimizer block {'type': 'AdamW'} (DeepSpeed's own optimizer: "
    "zero_client_optimizer False; DeepSpeedCPUAdam when the optimizer is offloaded), bf16 enabled, "
    "gradient_clipping 1.0, bucket sizes at DeepSpeed's defaults",
    "loading: from_pretrained on the host, then deepspeed.initialize without zero.Init or HfDeepSpeedConfig "
    "(load_placement 'gpu', as held-out-20 writes DeepSpeed's move of the whole module before partitioning)",
    "CUBLAS_WORKSPACE_CONFIG=':4096:8' and torch.use_deterministic_algorithms(True, warn_only=True) are set "
    "(no input says so)",
    "the GPU: 'NVIDIA H200' (HGX, 141 GB) written as H200-141GB",
)
for seq, label, value in ((8192, "8K", 16.3), (32768, "32K", 25.8), (65536, "64K", 37.5),
                          (131072, "128K", 66.5), (196608, "192K", 95.7), (262144, "256K", 124.5)):
    add(MLEKEY, f"llama31-8b-zero3-offload-ckpt-liger-fa3-b1-s{seq}-8xh200", value, "GiB", "memory_reserved",
        "H200-141GB",
        dict(MLE_BASE, seq_len=seq, zero_stage=3, offload_optimizer="cpu", grad_ckpt=True, use_cache=False,
             liger_kernels=True, loss="fused"),
        unknown=(*MLE_UNKNOWN,
                 f"'{label}' read as {seq} tokens (run_sweep.sh's list: 8192 32768 65536 131072 262144, and its "
                 "default 196608)",
                 "benchmark.py: ZERO_STAGE 3, OFFLOAD_OPTIMIZER 1 (offload_optimizer cpu, pin_memory), "
                 "GRAD_CHECKPOINT 1 (gradient_checkpointing_enable(use_reentrant=False), config.use_cache False), "
                 "USE_LIGER 1 (AutoLigerKernelForCausalLM: Liger RMSNorm, RoPE, SwiGLU and the fused linear "
                 "cross-entropy in train mode: loss 'fused', liger_kernels True)",
                 "the peak is never reset in benchmark.py (MEM_DEBUG 0): the largest reserved of the run's 12 "
                 "steps, model load and deepspeed.initialize included"),
        notes=f"stas00/ml-engineering insights/when-to-upgrade-gpus/README.md at 2943345, 'Peak memory "
              f"(`max_memory_reserved`, worst rank)' table: '| {label:>8} | {value} | ...' (H200 peak (GiB))")

for liger, value in ((False, 99), (True, 80)):
    add(MLEKEY, f"llama31-8b-zero2-{'liger' if liger else 'hf'}-fa3-b1-s8192-8xh200", value, "GiB",
        "memory_reserved", "H200-141GB",
        dict(MLE_BASE, seq_len=8192, zero_stage=2, grad_ckpt=False, loss="fused" if liger else "standard",
             **({"liger_kernels": True} if liger else {})),
        unknown=(*MLE_UNKNOWN,
                 "bench_decompose.py's 'right-sized 8k' deep-dive config: ZERO_STAGE 2, OFFLOAD_OPTIMIZER 0, "
                 "GRAD_CHECKPOINT 0, SEQ_LEN 8192, USE_LIGER 0 by default (the README's Liger comparison sets it "
                 "to 1: AutoLigerKernelForCausalLM, fused linear cross-entropy); use_cache left to the config "
                 "(no checkpointing: transformers' default)",
                 "the figure: 3 warm-up steps, reset_peak_memory_stats, 10 timed steps, max_memory_reserved / "
                 "2**30 MAX over ranks; the README rounds it to whole GiB ('~20% (99 -> 80GiB, identical on both "
                 "GPUs)')"),
        notes="stas00/ml-engineering insights/when-to-upgrade-gpus/README.md at 2943345: '**Liger-Kernel** "
              "(fused RMSNorm/RoPE/SwiGLU/CE) is a **memory win, not a speed win at 8k**: it cuts peak memory ~20% "
              f"(**99 -> 80GiB**, identical on both GPUs)' ({value} GiB: Liger-Kernel {'on' if liger else 'off'})")

# ------------------------------------------------------------------ 2. EE 5453 KV-cache assignment (generation)
DISTILGPT2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_layer": 6, "n_head": 12,
              "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257, "n_inner": None}
JD_BASE = dict(mode="generate", hf_config=DISTILGPT2, model_name="distilgpt2", precision="fp16", max_new_tokens=1,
               num_beams=1, attention="sdpa", world_size=1, torch_version="2.6.0", transformers_version="4.57.1")
JD_UNKNOWN = (
    "the figure: peak_mem_mb = torch.cuda.max_memory_allocated() / (1024 ** 2) after reset_peak_memory_stats, "
    "which runs after the model is loaded and warmed up (the weights are in the peak): MiB",
    "the loop: 128 calls of model.generate(input_ids=<the whole sequence so far>, max_new_tokens=1, greedy), each a "
    "fresh prefill of the growing sequence; the largest call is the last one, prompt_len + 127 tokens: seq_len "
    "prompt_len + 127 and max_new_tokens 1 written for every row",
    "the model: distilgpt2 (GPT-2 with 6 layers: the catalog's GPT-2 shapes with n_layer 6 written as an inline "
    "hf_config), loaded with torch_dtype=torch.float16 and .to('cuda') (precision fp16)",
    "the prompts: 'The quick brown fox jumps over the lazy dog. ' repeated 1,000 times, truncated to prompt_len "
    "tokens; batch_size identical copies (no padding)",
    "torch and transformers are not stated (torch 2.6.0: the last cu124 wheel in 2025-10; transformers 4.57.1); "
    "attention: transformers' default SDPA for GPT-2",
    "the GPU: 'NVIDIA RTX 3060 Ti' (8 GB GDDR6, Ampere) is not in the catalog: RTX-3060-12GB (the same Ampere "
    "generation) written; the memory it reports is not the card's capacity",
)
JD_ROWS = (  # (use_cache, batch, prompt_len, peak_mem_mb) as logs.csv prints them
    (1, 1, 64, 183.15576171875), (0, 1, 64, 179.79833984375), (1, 2, 64, 192.6767578125),
    (1, 4, 64, 212.611328125), (1, 1, 32, 180.92529296875), (1, 1, 128, 185.71044921875),
    (1, 1, 256, 192.72412109375))
for cache, batch, prompt, value in JD_ROWS:
    add(JDKEY, f"distilgpt2-fp16-generate-b{batch}-p{prompt}-128x1-{'cache' if cache else 'nocache'}", value, "MiB",
        "max_memory_allocated", "RTX-3060-12GB",
        dict(JD_BASE, micro_batch=batch, seq_len=prompt + 127, use_cache=bool(cache)),
        unknown=JD_UNKNOWN + (("logs.csv prints this configuration twice (lines 1 and 3) with the same figure",)
                              if (cache, batch, prompt) == (1, 1, 64) else ()),
        notes=f"josedavp/Assignment_2_EE5453_Jose logs.csv at f48e1c4: 'distilgpt2,float16,cuda,{cache},{batch},"
              f"{prompt},128,...,{value}'")

# ------------------------------------------------------------------ 3. HPML project (DistilBERT LoRA training)
HP_BASE = dict(mode="train", model="DistilBERT-base-uncased", task="sequence-classification", num_labels=2,
               precision="fp32", optimizer="adamw", micro_batch=32, grad_accum=1, seq_len=128,
               padding="max_length", grad_ckpt=False, attention="sdpa", world_size=1, lora_dropout=0.1,
               lora_targets=["q_lin", "k_lin", "v_lin"], torch_version="2.8.0", transformers_version="4.57.3")
HP_UNKNOWN = (
    "the figure: MemoryPeakPerEpochCallback resets the peak at on_epoch_begin and writes "
    "torch.cuda.max_memory_allocated() (bytes) at on_epoch_end; the Trainer evaluates and saves after "
    "on_epoch_end, so each value is one epoch of training steps (weights, LoRA states and the step's activations); "
    "all ten epochs print the same value: bytes written as MB (1e6) exactly",
    "the optimizer: TopRAdamW(model.parameters(), lr=2e-4, top_r=0.1) subclasses torch.optim.AdamW (foreach "
    "default) and, before AdamW.step, keeps the top 10% gradient magnitudes of each tensor (topk indices and a "
    "boolean mask per tensor, then an in-place multiply): written as 'adamw'",
    "the model: distilbert-base-uncased with a 2-label classification head (PEFT SEQ_CLS keeps the classifier "
    "trainable); attention: transformers' default for DistilBERT in 4.57 ('sdpa')",
    "the data: IMDB tokenized with padding='max_length', max_length=128, truncation (every batch 32 x 128)",
    "torch: the repository pins 2.4.1+cu124 but the runs (committed as root) were made in the runpod/pytorch "
    "torch 2.8.0 container its Dockerfile builds: 2.8.0 written",
    "the GPU is not stated (a runpod container): A100-SXM-80GB written",
)
HP_ROWS = ((4, 1448522240), (8, 1462956544), (16, 1467445760), (64, 1497002496), (128, 1541042688))
for rank, peak in HP_ROWS:
    add(HPKEY, f"distilbert-seqcls-lora-r{rank}-qkv-fp32-b32-s128-imdb-topr0.1", peak / 1e6, "MB",
        "max_memory_allocated", "A100-SXM-80GB",
        dict(HP_BASE, lora_r=rank),
        unknown=(*HP_UNKNOWN, f"LoraConfig(r={rank}, lora_alpha={rank}, lora_dropout=0.1, target_modules=['q_lin', "
                              "'k_lin', 'v_lin'], task_type='SEQ_CLS')"),
        notes=f"ASB1127/HPMLProj Lora+TopR/graph/imdb/r{rank}/topr0.1/epoch_peak_memory.csv at ec7ccdb: "
              f"'1,{peak}' ... '10,{peak}' (epoch,peak_memory_bytes)")


def main():
    write_split("heldout32", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
