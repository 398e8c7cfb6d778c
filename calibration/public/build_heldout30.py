"""The thirtieth held-out set (calibration/public/heldout30.json): 17 public rows (17 measured peaks) from three pages no
earlier split read, by three publishers: the Qwen3 documentation's speed benchmark (QwenLM/Qwen3
docs/source/getting_started/speed_benchmark.md at 7a2f61f: bf16 generation of 2,048 tokens with Hugging Face transformers
and FlashAttention-2 on one H20 96GB, batch 1, input lengths 1 to 30,720, 'GPU Memory(MB)'; 7 rows, one per model);
torchao's generation benchmarks (pytorch/ao torchao/_models/llama/benchmark_results.txt and torchao/quantization/README.md
at fdd8fe7: gpt-fast's Llama-2-7B chat and Llama-3-8B in bf16 and fp32, eager and torch.compile, 200 new tokens after
'Hello, my name is', peak = torch.cuda.max_memory_reserved() / 1e9; 6 rows) and LLMs-from-scratch's Gemma 3 270M page
(rasbt/LLMs-from-scratch ch05/12_gemma3/README.md at 28c65cd: bf16 greedy generation on an A100 without and with a KV
cache, eager and compiled, max_memory_allocated / 1024**3; 4 rows). Every row sourced, the source's printed figure kept,
and what the source leaves open recorded as unknown. Publishers: QwenLM (held-out-11 read the Qwen2.5 speed benchmark,
another page), pytorch (earlier splits read other pages of pytorch/ao and other pytorch repositories), rasbt (held-out-8
and held-out-29 read other pages).

Run: python calibration/public/build_heldout30.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model and GPU
names and configs, and how held-out-11 writes a Qwen speed-benchmark row and held-out-29 a LLMs-from-scratch
generation row). Same row format as devset.json (see build_devset.py). Every figure is the source's own.

1. QwenLM/Qwen3 docs/source/getting_started/speed_benchmark.md at 7a2f61f (the tables from 2025-05-16/20): "Hardware:
   NVIDIA H20 96GB", "PyTorch 2.6.0, Flash Attention 2.7.4, Transformers 4.51.3", "We use a batch size of 1 and the
   minimum number of GPUs possible", "We test the speed and memory usage when generating 2048 tokens, with input lengths
   of 1, 6144, 14336, 30720, ...". The Transformers tables' BF16 rows with 'GPU Num' 1 give 'GPU Memory(MB)'. One row per
   model, chosen by a rule fixed before any scoring (the page's model order, input length cycling 1, 6144, 14336, 30720):
   Qwen3-0.6B at 1 (1394), Qwen3-1.7B at 6144 (4213), Qwen3-4B at 14336 (10012), Qwen3-8B at 30720 (20267), Qwen3-14B
   at 1 (28402), Qwen3-32B at 6144 (64583), Qwen3-30B-A3B at 14336 (59806). The harness is the repository's
   examples/speed-benchmark/speed_benchmark_transformers.py (from_pretrained(torch_dtype='auto', device_map='auto',
   attn_implementation='flash_attention_2'), a prompt of '我' x input length, generate(min_length = input + 2,048,
   max_new_tokens 2,048), the sum over GPUs of torch.cuda.max_memory_allocated()); its copy at 7a2f61f prints GB
   (/ 1024**3) where the page prints MB, so the page's runs used an edited copy: MB read as MiB (see the rows).
2. pytorch/ao torchao/_models/llama/benchmark_results.txt at fdd8fe7 (the runs of 2024-08-31): each line prints
   'peak_mem=... GB' and its 'repro: python generate.py ...' command; generate.py prints
   torch.cuda.max_memory_reserved() / 1e9. The bf16 lines without quantization: Llama-2-7b-chat-hf compiled 13.88 (the
   quantization README's UIntX table: 'Llama-2-7B | Base (bfloat16) | ... | 13.88') and eager 13.64, Meta-Llama-3-8B
   compiled 16.43 (the README's 'CUDA backend | NVIDIA-A100-80GB GPU' table: 'Llama-3-8B | Base (bfloat16) | ... |
   16.43') and eager 16.19; the fp32 lines: Llama-2-7b-chat-hf 27.23, Meta-Llama-3-8B 32.34.
3. rasbt/LLMs-from-scratch ch05/12_gemma3/README.md at 28c65cd: "| Gemma3Model 270M | Regular | Nvidia A100 GPU | 28 |
   1.84 GB |", "| Gemma3Model 270M | Regular compiled | Nvidia A100 GPU | 128 | 2.12 GB |", "| Gemma3Model 270M | KV
   cache | Nvidia A100 GPU | 26 | 1.77 GB |", "| Gemma3Model 270M | KV cache compiled | Nvidia A100 GPU | 99 | 2.12 GB
   |"; the notebooks standalone-gemma3.ipynb and standalone-gemma3-plus-kvcache.ipynb state the rest.

Left out on purpose (decided before scoring): the Qwen3 page's other rows (the same harness on the same card: one row
per model keeps the page under half the set), its FP8 / GPTQ / AWQ rows (no input for those formats) and its SGLang
tables (no memory reported); torchao's quantized rows (int8dq, int8wo, fp6, int4wo, autoquant, uintx, sparse-marlin,
codebook: torchao's own formats, which the estimator's '8bit' / '4bit' (bitsandbytes) do not describe), its
KV-cache-size rows (--cache_size 8,192 to 131,072: a static cache and a cache_size x cache_size boolean causal mask
allocated up front, which no input expresses), its --compile_prefill repeats of the compiled rows (13.90 / 16.43: no
input tells them apart), the A6000 codebook table's 'Base (bfloat16)' rows (16.19 / 16.35: the 16.19 is the eager
Llama-3-8B line of benchmark_results.txt, so the card is unclear) and the H100 Llama-3.1-8B row (no line of
benchmark_results.txt gives its command); torchao's quantized-training README (Llama2-1B pre-training: the whole
TinyStories token array is moved to the GPU, a tensor no input expresses, and the optimizer is torchao's own _AdamW);
torchao's float8 training tables (torchtitan with FSDP2, per-op selective checkpointing and float8);
LLMs-from-scratch's Gemma 3 Mac rows (no figure); GaLore / Q-GaLore script comments (GaLore optimizers, no input);
the Qwen recipes' finetune memory table (the same profiling runs as QwenLM/Qwen's README, which an earlier split read)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-30"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
QW = f"{GH}/QwenLM/Qwen3/blob/7a2f61ffc7a20d47efcd2bf97f6f2bf52729042e"
AO = f"{GH}/pytorch/ao/blob/fdd8fe7fafeb35864cf95268856fd3ea12cb0f03"
RB = f"{GH}/rasbt/LLMs-from-scratch/blob/28c65cdfbc3338e2e040016eea4b7fdf556e4d57"
QWEN3 = "qwen3-speed-benchmark-transformers-h20"
AOGEN = "torchao-llama-generate-benchmarks-fdd8fe7"
GEMMA = "llms-from-scratch-ch05-gemma3-28c65cd"

SOURCES = {
    QWEN3: {
        "url": f"{QW}/docs/source/getting_started/speed_benchmark.md",
        "also": [f"{QW}/examples/speed-benchmark/speed_benchmark_transformers.py",
                 f"{QW}/examples/speed-benchmark/README.md"],
        "setup": "Hugging Face transformers generation in bf16 (torch_dtype 'auto': the checkpoints' bfloat16) with "
                 "attn_implementation 'flash_attention_2', batch 1, a prompt of the given input length, exactly "
                 "2,048 new tokens (min_length = input + 2,048) with the checkpoint's generation config, one H20 "
                 "96GB ('GPU Num' 1); 'GPU Memory(MB)' = torch.cuda.max_memory_allocated() (MiB)",
        "versions": {"torch": "2.6.0 (stated)", "transformers": "4.51.3 (stated)", "flash-attn": "2.7.4 (stated)"},
        "date": "2025-05-16 (ac72724, the tables; c7f51a1 2025-05-20 the last change)",
        "project": "QwenLM/Qwen3 (Alibaba Qwen team documentation)",
    },
    AOGEN: {
        "url": f"{AO}/torchao/_models/llama/benchmark_results.txt",
        "also": [f"{AO}/torchao/quantization/README.md",
                 f"{AO}/torchao/_models/llama/generate.py",
                 f"{AO}/torchao/_models/llama/model.py",
                 f"{AO}/torchao/_models/llama/benchmarks.sh"],
        "setup": "torchao's gpt-fast generate.py: the Llama checkpoint converted to gpt-fast's Transformer "
                 "(model.pth), model.to(device='cuda', dtype=precision), setup_caches with a static KV cache and a "
                 "causal mask of find_multiple(prompt + 200, 8) = 208 positions, prompt 'Hello, my name is' (6 tokens "
                 "with BOS), 200 new tokens sampled (top_k 200, temperature 0.8), batch 1, 5 samples (the first a "
                 "warm-up), --compile: decode_one_token = torch.compile(mode='reduce-overhead', fullgraph=True); "
                 "'peak_mem' = torch.cuda.max_memory_reserved() / 1e9 GB",
        "versions": {"torch": "not stated (a 2.5 nightly of 2024-08 written as 2.5.0)",
                     "torchao": "main of 2024-08-31 (the lines' timestamps); file read at fdd8fe7"},
        "date": "2024-08-31 (the timestamps of the lines read)",
        "project": "pytorch/ao (torchao)",
    },
    GEMMA: {
        "url": f"{RB}/ch05/12_gemma3/README.md",
        "also": [f"{RB}/ch05/12_gemma3/standalone-gemma3.ipynb",
                 f"{RB}/ch05/12_gemma3/standalone-gemma3-plus-kvcache.ipynb"],
        "setup": "the notebooks' Gemma3Model (GEMMA3_CONFIG_270M: emb 640, 4 heads of 256 in 1 key-value group, QK "
                 "norm, 18 layers (15 sliding-window 512, 3 full), GeGLU 2,048, vocabulary 262,144, context 32,768, "
                 "bf16) with google/gemma-3-270m-it's weights and the head tied to the embedding, greedy generation of "
                 "at most 500 tokens (stopping at <end_of_turn>) after the chat-formatted prompt 'Give me a short "
                 "introduction to large language models.', without a KV cache (the whole sequence each step) or with "
                 "one (KVCache, torch.cat per step), eager or torch.compile(model), on an A100; 'GPU memory used' = "
                 "torch.cuda.max_memory_allocated() / 1024**3 after reset_peak_memory_stats()",
        "versions": {"torch": "not stated (2.8.0 written for a page of 2025-08)", "llms-from-scratch": "28c65cd"},
        "date": "2025-08-17 / 2025-08-19 (a6b883c, f571b5e: the page and the KV-cache notebook)",
        "project": "rasbt/LLMs-from-scratch (Sebastian Raschka)",
    },
}

# ------------------------------------------------------------------ 1. Qwen3 speed benchmark, transformers, H20
QWEN3_BASE = dict(mode="generate", precision="bf16", micro_batch=1, max_new_tokens=2048, num_beams=1,
                  attention="flash", use_cache=True, world_size=1, torch_version="2.6.0",
                  transformers_version="4.51.3")
QWEN3_UNKNOWN = (
    "the unit: the page prints 'GPU Memory(MB)' where the repository's script prints GB (/ 1024**3), so the page's runs "
    "used an edited copy; MB read as MiB (2**20 bytes): Qwen3-8B's 16.4e9 bf16 weight bytes alone are 15,623 MiB and the "
    "input-length-1 row reads 15,947, which 1e6-byte MB (15,947e6 bytes) could not hold",
    "what is measured: the script's sum over the process's GPUs of torch.cuda.max_memory_allocated(i), one GPU here "
    "(max_memory_allocated written); the page's harness is not pinned (its speed formula differs from the script's)",
    "the prompt: '我' repeated input-length times (the script asserts input_ids has exactly that length); 2,048 tokens "
    "generated (min_length = input + 2,048) with the checkpoint's sampling generation config, batch 1",
    "device_map 'auto' on the one visible GPU: the whole model on it",
    "'NVIDIA H20 96GB' written as the catalog's H20-96GB",
)
QWEN3_NOTE = ("QwenLM/Qwen3 docs/source/getting_started/speed_benchmark.md at 7a2f61f, '### {model} (Transformers)', "
              "BF16, GPU Num 1: '<td rowspan=\"3\">{inp}</td><td>BF16</td><td>1</td><td>{speed}</td><td>{mb}</td>'")
#: est66 (after the blind scoring, in-sample): the shapes of the catalog's Qwen3 configs the floor below reads:
#: model -> (bf16 weight bytes = the estimator's parameter count x 2, hidden, intermediate (0 for the MoE, whose
#: experts' tensors are left out of the floor), layers, key-value heads, head_dim)
QWEN3_SHAPES = {"Qwen3-0.6B": (596_049_920 * 2, 1024, 3072, 28, 8, 128),
                "Qwen3-1.7B": (1_720_574_976 * 2, 2048, 6144, 28, 8, 128),
                "Qwen3-4B": (4_022_468_096 * 2, 2560, 9728, 36, 8, 128),
                "Qwen3-8B": (8_190_735_360 * 2, 4096, 12288, 36, 8, 128),
                "Qwen3-14B": (14_768_307_200 * 2, 5120, 17408, 40, 8, 128),
                "Qwen3-32B": (32_762_123_264 * 2, 5120, 25600, 64, 8, 128),
                "Qwen3-30B-A3B": (30_532_122_624 * 2, 2048, 0, 48, 4, 128)}


def qwen3_prefill_floor(model: str, tokens: int) -> int:
    """est66: bytes an unchunked transformers 4.51.3 prefill of ``tokens`` prompt tokens must hold at once, at the last
    layer's MLP: the bf16 weights, every layer's keys and values for the prompt (DynamicCache), the residual and the
    post-attention norm's output (Qwen3DecoderLayer: ``residual = hidden_states``; ``hidden_states =
    self.mlp(self.post_attention_layernorm(...))``), and the SiLU output and up projection that are alive together
    before their product (Qwen3MLP: ``self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))``), all bf16.
    A lower bound: the product, attention's tensors and the logits are left out."""
    weights, hidden, inter, layers, kv_heads, head_dim = QWEN3_SHAPES[model]
    kv = layers * 2 * kv_heads * head_dim * 2 * tokens
    return weights + kv + 2 * tokens * hidden * 2 + 2 * tokens * inter * 2


def qwen3_end_of_generation(model: str, tokens: int, new: int = 2048) -> int:
    """est66: the bf16 weights plus the keys and values of all ``tokens + new`` positions (what the cache holds when
    generation ends), nothing transient."""
    weights, _, _, layers, kv_heads, head_dim = QWEN3_SHAPES[model]
    return weights + layers * 2 * kv_heads * head_dim * 2 * (tokens + new)


def qwen3_not_scored(model: str, tokens: int, mib: int) -> str:
    """est66: the reason a Qwen3 row is not scored, or "" where its figure can be a peak of the stated run."""
    floor = qwen3_prefill_floor(model, tokens)
    if floor <= mib * 2**20:
        return ""
    end = qwen3_end_of_generation(model, tokens)
    return (f"est66 (after the blind scoring, in-sample): the stated setting cannot give {mib:,} MiB as a peak: an "
            f"unchunked prefill of {tokens:,} tokens (transformers 4.51.3 generate: prefill_chunk_size None) holds at "
            f"the last layer's MLP at least the bf16 weights, the prompt's keys and values in every layer, the residual "
            f"and the normed input (2 x tokens x hidden x 2 bytes) and the SiLU and up-projection outputs (2 x tokens x "
            f"intermediate x 2 bytes): {floor / 2**20:,.0f} MiB, above the figure. The figure is the weights plus the "
            f"cache of all {tokens + 2048:,} positions ({end / 2**20:,.0f} MiB) + {mib - end / 2**20:.0f} MiB, as every "
            f"Transformers BF16 figure of the page at input 6,144 and up is (+34 to +48 MiB; its rise per input token "
            f"equals the cache's per-token size for all seven models): memory held when generation ends, with no "
            f"prefill transient and not even the decode's torch.cat copy of one layer's keys (cache_utils.py line 446)")


for _model, _inp, _speed, _mb in (("Qwen3-0.6B", 1, "58.57", 1394), ("Qwen3-1.7B", 6144, "238.53", 4213),
                                  ("Qwen3-4B", 14336, "195.31", 10012), ("Qwen3-8B", 30720, "208.98", 20267),
                                  ("Qwen3-14B", 1, "40.66", 28402), ("Qwen3-32B", 6144, "51.41", 64583),
                                  ("Qwen3-30B-A3B", 14336, "14.47", 59806)):
    add(QWEN3, f"{_model.lower()}-bf16-fa2-in{_inp}-gen2048-h20", _mb, "MiB", "max_memory_allocated", "H20-96GB",
        dict(QWEN3_BASE, model=_model, seq_len=_inp),
        unknown=(*QWEN3_UNKNOWN, f"the model: Qwen/{_model} (the page names no -Instruct / -Base variant; Qwen3 "
                                 f"checkpoints are one post-trained model): the catalog's {_model}"),
        notes=QWEN3_NOTE.format(model=_model, inp=_inp, speed=_speed, mb=_mb),
        not_scored=qwen3_not_scored(_model, _inp, _mb))

# ------------------------------------------------------------------ 2. torchao generate.py (gpt-fast), A100-80GB
AO_UNKNOWN = (
    "the figure: generate.py's 'Peak Memory Usage' = torch.cuda.max_memory_reserved() / 1e9 over the 5 samples and "
    "the compilation (memory_reserved written, unit GB = 1e9 bytes)",
    "the GPU: benchmark_results.txt names none; the quantization README puts the Llama-3-8B bf16 figure (16.43, the "
    "compiled line) under 'CUDA backend | NVIDIA-A100-80GB GPU', and the Llama-2 lines are from the same session "
    "(2024-08-31): A100-SXM-80GB written for all",
    "the torch release is not stated (torchao main of 2024-08 ran on torch 2.5 nightlies: 2.5.0 written)",
    "model_impl: gpt-fast's own Transformer (fused wqkv, a static KVCache per layer, freqs_cis of block_size x head_dim "
    "/ 2 x 2 in the model dtype, a bool causal mask of 208 x 208), not transformers; written as the nearest Hugging "
    "Face layout (the catalog's config) with use_cache True (the static cache holds 208 positions; 206 used)",
    "the prompt: 'Hello, my name is' with BOS: 6 tokens (seq_len 6); 200 new tokens sampled with top_k 200 and "
    "temperature 0.8 (one sequence, num_beams 1)",
)
COMPILED = ("--compile: decode_one_token compiled with mode='reduce-overhead' (CUDA graphs) and fullgraph=True, prefill "
            "eager (no --compile_prefill): compiled True written")
EAGER = "no --compile: both prefill and decode eager (compiled False written)"
AO_BASE = dict(mode="generate", micro_batch=1, seq_len=6, max_new_tokens=200, num_beams=1, use_cache=True,
               attention="sdpa", world_size=1, torch_version="2.5.0")
AO_ATTN = ("attention: gpt-fast calls F.scaled_dot_product_attention with the causal mask slice as attn_mask: 'sdpa' "
           "written")
for _ckpt, _model, _prec, _compiled, _gb, _stamp, _tok in (
        ("Llama-2-7b-chat-hf", "Llama-2-7B", "bf16", True, 13.88, "20240831225155", "107.38"),
        ("Llama-2-7b-chat-hf", "Llama-2-7B", "bf16", False, 13.64, "20240831224512", " 22.97"),
        ("Llama-2-7b-chat-hf", "Llama-2-7B", "fp32", False, 27.23, "20240831224311", " 26.75"),
        ("Meta-Llama-3-8B", "Llama-3-8B", "bf16", True, 16.43, "20240831232535", " 95.64"),
        ("Meta-Llama-3-8B", "Llama-3-8B", "bf16", False, 16.19, "20240831231725", " 23.67"),
        ("Meta-Llama-3-8B", "Llama-3-8B", "fp32", False, 32.34, "20240831231514", " 26.54")):
    _dtype = "torch.bfloat16" if _prec == "bf16" else "torch.float32"
    add(AOGEN, f"{_ckpt.lower()}-gptfast-{_prec}-{'compiled' if _compiled else 'eager'}-gen200-a100-80g", _gb, "GB",
        "memory_reserved", "A100-SXM-80GB",
        dict(AO_BASE, model=_model, precision=_prec, compiled=_compiled),
        unknown=(*AO_UNKNOWN, AO_ATTN, COMPILED if _compiled else EAGER,
                 f"the model: {_ckpt} (the catalog's {_model} has the same shapes)"),
        notes=f"pytorch/ao torchao/_models/llama/benchmark_results.txt at fdd8fe7: '{_stamp}, tok/s={_tok}, ... "
              f"peak_mem={_gb:5.2f} GB, ... quant: None, mod: {_ckpt}, kv_quant: False, compile: {_compiled}, "
              f"compile_prefill: False, dtype: {_dtype}, device: cuda repro: python generate.py --checkpoint_path "
              f"../../../checkpoints/meta-llama/{_ckpt}/model.pth --device cuda --precision {_dtype} "
              f"{'--compile ' if _compiled else ''}--num_samples 5 --max_new_tokens 200 --top_k 200 "
              f"--temperature 0.8'")

# ------------------------------------------------------------------ 3. LLMs-from-scratch Gemma 3 270M, A100
GEMMA270M = {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"], "hidden_size": 640,
             "intermediate_size": 2048, "num_hidden_layers": 18, "num_attention_heads": 4, "num_key_value_heads": 1,
             "head_dim": 256, "vocab_size": 262144, "max_position_embeddings": 32768, "tie_word_embeddings": False,
             "rms_norm_eps": 1e-06, "sliding_window": 512, "query_pre_attn_scalar": 256,
             "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0}
GEMMA_BASE = dict(mode="generate", precision="bf16", micro_batch=1, seq_len=20, max_new_tokens=70, num_beams=1,
                  attention="eager", world_size=1, torch_version="2.8.0", position_table="rope_local_global",
                  hf_config=GEMMA270M, model_name="Gemma 3 270M (LLMs-from-scratch)")
GEMMA_UNKNOWN = (
    "the figure: the notebooks' 'GPU memory used: {max_memory_allocated() / 1024**3:.2f} GB' after "
    "torch.cuda.reset_peak_memory_stats() just before generation: GiB (unit GiB written); the weights are on the GPU "
    "before the reset",
    "the torch release is not stated (2.8.0 written for a page of 2025-08)",
    "model_impl: the book's own Gemma3Model, not transformers; written as the nearest Hugging Face layout (a "
    "gemma3_text config with GEMMA3_CONFIG_270M's shapes)",
    "the head: google/gemma-3-270m-it has no lm_head.weight, so load_weights_into_gemma sets model.out_head.weight = "
    "model.tok_emb.weight ('Model uses weight tying.'): tie True written",
    "est66 (after the blind scoring, in-sample): tie False. The A100 figures entered the README in f571b5e "
    "(2025-08-19; git log -S'1.84 GB' finds no later change), whose notebooks' load_weights_into_gemma ends 'elif "
    "\"model.embed_tokens.weight\" in params: model.out_head.weight = assign(model.out_head.weight, "
    "params[\"model.embed_tokens.weight\"], ...)', and assign returns torch.nn.Parameter(right.clone().detach()): "
    "a second 262,144 x 640 bf16 matrix on the GPU; the tying line above came in 8add26c (2025-09-14). "
    "heldout30_first_scoring.txt keeps the blind score",
    "est66 (after the blind scoring, in-sample): position_table 'rope_local_global' written: Gemma3Model calls "
    "compute_rope_params twice (theta_base rope_local_base and rope_base, context_length 32,768, dtype "
    "torch.float32) and registers cos_local, sin_local, cos_global and sin_global (two fp32 pairs, 128 MiB), at "
    "f571b5e and at 28c65cd",
    "the prompt: Gemma 3's chat template around 'Give me a short introduction to large language models.' with the "
    "generation prompt (about 20 tokens; 20 written)",
    "the new tokens: greedy (argmax), at most 500, stopping at <end_of_turn>; the notebook's printed answer (55 words) "
    "is about 70 tokens: 70 written",
    "RoPE: Gemma3Model registers two fp32 cos / sin pairs of 32,768 x 256 (local base 10,000 and global base 1e6: 64 "
    "MiB each pair) as buffers; position_table 'rope' written (one pair); the second pair is not expressible (the "
    "blind reading; est66 below)",
    "attention: GroupedQueryAttention computes the scores by hand with a boolean mask built per call for the current "
    "length (global and sliding-window masks): 'eager' written",
    "'Nvidia A100 GPU' written as A100-SXM-80GB",
)
NOCACHE = ("'Regular': standalone-gemma3.ipynb's generate_text_basic_stream runs the model over the whole sequence "
           "every step (no KV cache; use_cache False written)")
KVCACHE = ("'KV cache': standalone-gemma3-plus-kvcache.ipynb primes a KVCache with the prompt and feeds one token per "
           "step; each layer's keys and values grow by torch.cat (use_cache True written)")
COMPILE_NB = ("'compiled': the notebook's '# model = torch.compile(model)' line enabled (compiled True written); the "
              "table does not say whether the figure is from the first or a later call")
for _mode, _cache, _compiled, _gib, _toks in (("Regular", False, False, 1.84, "28"),
                                              ("Regular compiled", False, True, 2.12, "128"),
                                              ("KV cache", True, False, 1.77, "26"),
                                              ("KV cache compiled", True, True, 2.12, "99")):
    _slug = ("kvcache" if _cache else "nocache") + ("-compiled" if _compiled else "-eager")
    add(GEMMA, f"gemma3-270m-it-bf16-{_slug}-greedy-a100", _gib, "GiB", "max_memory_allocated", "A100-SXM-80GB",
        dict(GEMMA_BASE, use_cache=_cache, compiled=_compiled),
        unknown=(*GEMMA_UNKNOWN, KVCACHE if _cache else NOCACHE, *((COMPILE_NB,) if _compiled else ())),
        notes=f"LLMs-from-scratch ch05/12_gemma3/README.md at 28c65cd: '| Gemma3Model 270M | {_mode} | Nvidia A100 "
              f"GPU | {_toks} | {_gib:.2f} GB |'")


def main():
    write_split("heldout30", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
