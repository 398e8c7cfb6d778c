"""Writes calibration/public/heldout11.json: an ELEVENTH held-out set of public measured peaks, from
two publishers that devset.json and held-out-2..10 do not use (neither repository appears in an
earlier set), transcribed by hand: the Qwen team's Qwen2.5 speed benchmark (bf16 generation of 2,048
tokens after prompts of 1 to 30,720 tokens with transformers and FlashAttention-2 on one A100 80GB,
0.5B to 32B models) and the GPU test table of ljm565/universal-llm-trainer (full, LoRA and QLoRA
fine-tunes of Llama-3.1-8B, Gemma-2-9B, Gemma-7B, Llama-2-13B and Phi-3-mini at 2 x 8,192 tokens with
gradient checkpointing on one H100, a Llama-2-13B full fine-tune under FSDP with CPU offload on two,
and a QLoRA run that ran out of memory). Long-context generation and 8k-token fine-tunes of current model
families are what the earlier sets hold least of.
Run: python calibration/public/build_heldout11.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py); verdict-only rows
(``outcome`` "oom", no ``peak_bytes``) count for false fits only.

1. QwenLM/Qwen2.5 (now QwenLM/Qwen3) ``docs/source/benchmark/speed_benchmark.rst`` ("Qwen2.5 Speed
   Benchmark", read at b736067), the transformers tables, BF16 rows. Environment stated on the page:
   NVIDIA A100 80GB, CUDA 12.1, PyTorch 2.3.1, Flash Attention 2.5.8, Transformers 4.46.0; batch 1,
   "the least number of GPUs as possible" (one GPU for every row used here), "generating 2048 tokens
   with the input lengths of 1, 6144, 14336, 30720". The script that produces the "GPU Memory(GB)"
   column is ``examples/speed-benchmark/speed_benchmark_transformers.py`` (read at 8205ba2; unchanged
   since): one process per (model, input length); ``AutoModelForCausalLM.from_pretrained(torch_dtype=
   'auto', device_map='auto', attn_implementation='flash_attention_2')`` (the Instruct checkpoints are
   stored in bf16), the prompt is the character '我' repeated to exactly ``context_length`` tokens
   (asserted), ``generate`` with the checkpoint's generation config plus ``min_length = 2048 +
   context_length`` and ``max_new_tokens = 2048`` (every run generates all 2,048 tokens; the Qwen2.5
   Instruct generation config samples: do_sample, top_k 20, top_p 0.8, repetition_penalty 1.05), then
   the sum over visible GPUs of ``torch.cuda.max_memory_allocated(i)`` divided by 1024**3: GiB
   although the column says GB (the 32B row at input length 1, 61.58, sits just above the 61.0 GiB
   of its bf16 weights; in 1e9 bytes it would be below them). Nothing resets the peak: it covers
   loading, prefill and decoding. The page's tables were committed (0f0ecfb, 2024-10-30) before the
   script (8205ba2, 2024-11-18); that the numbers come from this script (or the EvalScope tool the
   examples README also names, which measures the same sum of max_memory_allocated) is recorded under
   ``unknown``, as is A100 SXM vs PCIe.
2. ljm565/universal-llm-trainer ``docs/gpu_test.md`` at 1aced26 (2025-08-12), section "1. NVIDIA H100"
   (Ubuntu 22.04.4, torch 2.5.1, transformers 4.49.0; docker/requirements.txt at that commit: peft
   0.14.0, bitsandbytes 0.45.0), "Batch size: 2, Sequnece length: 8,192 (Without padding, fully filled
   tokens), Model type: torch.bfloat16, Optimizer: torch.optim.AdamW, w/ Gradient checkpointing,
   Gradient accumulation: full fine-tuning 1, LoRA 32". The code at that commit (``src/run/train.py
   --gpu_test``): the QA dataset pads every sample to ``max_length`` 8192 (attention mask zero past
   the short ARC prompt), ``--gpu_test`` replaces ``src`` and ``label`` with random token ids of the
   same [2, 8192] shape; the model returns bf16 logits and the wrapper computes
   ``nn.CrossEntropyLoss`` on ``logits[:, :-1, :].reshape(-1, V)`` itself (no labels passed to the
   model: the loss runs in the logits' dtype); ``torch.optim.AdamW`` over ``model.parameters()``
   (foreach, torch 2.5 default), ``clip_grad_norm_`` 10, ``zero_grad()`` (set_to_none) after each step;
   no autocast (``amp_training`` False); transformers' ``gradient_checkpointing_enable()`` with
   ``use_cache=False``; ``attn_implementation`` null (transformers' default). "Model Mem." in the table
   is ``torch.cuda.memory_reserved() / 1E9`` printed after loading (Llama-3.1-8B: 16, Gemma-2-9B:
   18.5, Gemma-7B: 17: the bf16 weights in 1e9 bytes, not GiB), and the only memory figure the
   trainer prints during training is the progress bar's ``torch.cuda.memory_reserved() / 1E9``:
   "Peak Mem." is read as reserved memory in GB (1e9), rounded to a whole GB; both readings are
   recorded under ``unknown``.
   - LoRA (config_lora/llm_lora_config.yaml): r 8, alpha 16, dropout 0.05, q/k/v/o/gate/up/down
     (Phi-3: qkv_proj, o_proj, gate_up_proj, down_proj); the model in bf16.
   - QLoRA (config_quant/bnb_4bit.yaml): nf4, double quantization, bf16 compute; ``bit: 4`` makes the
     loader pass ``torch_dtype=torch.float32`` (embeddings, LM head and norms in fp32: "Model Mem." 8.0
     GB for Llama-3.1-8B), and ``prepare_model_for_kbit_training`` is called (on the wrapper module).
   - FSDP (llm_llama2_full_fsdp.yaml, two GPUs): FSDP1 FULL_SHARD, ``CPUOffload(offload_params=True)``
     (parameters, gradients and the optimizer step on the host), ``MixedPrecision(param_dtype=
     torch.float16)`` over weights loaded in bf16 on the host, size-based wrapping (every module of
     10,000+ parameters its own unit), gradient accumulation 32 without ``no_sync``.
   The GPU is written "H100" (80 GB; SXM or PCIe not said).

Left out on purpose (decided before scoring, by what is known): the Qwen2.5 GPTQ/AWQ rows (not
bitsandbytes quantization) and the 72B rows (device_map over two to three GPUs: not a data- or
model-parallel world size the estimator takes); the Qwen3 speed benchmark (H20; its speed formula is
not the script's, so the measuring harness is unknown); universal-llm-trainer's A100 table (the same
figures as the H100 table for the rows taken), its RTX Pro 6000 table (GPU not in the catalog), its
Llama 3 8B rows (the same figures as Llama 3.1 8B), its Qwen3 rows (added after 1aced26, with a newer
transformers than the stated 4.49), its Llama-3.1-70B, Gemma-2-9B and Gemma-7B FSDP rows (kept to one
FSDP row) and its Llama-2-13B LoRA row; torchtitan's H100/H200 benchmark tables
(selective activation checkpointing and Float8 training are not estimator inputs); the Vertex AI
OpenLLaMA report (figures only in images, precision mode unclear)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-11"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom


QWEN = "qwen2.5-speed-benchmark-transformers"
ULT = "universal-llm-trainer-gpu-test"
QWEN_REPO = "https://github.com/QwenLM/Qwen2.5"
ULT_REPO = "https://github.com/ljm565/universal-llm-trainer"
ULT_AT = f"{ULT_REPO}/blob/1aced26ce4882786c3c3ef2b97f68528cc612f99"
SOURCES = {
    QWEN: {
        "url": f"{QWEN_REPO}/blob/b736067e557e3a9536f3ab9bcfafdb94fe1c36da/docs/source/benchmark/speed_benchmark.rst",
        "also": [f"{QWEN_REPO}/blob/8205ba2a17690375467df31481412d65a1751271/examples/speed-benchmark/speed_benchmark_transformers.py",
                 f"{QWEN_REPO}/blob/8205ba2a17690375467df31481412d65a1751271/examples/speed-benchmark/README.md",
                 f"{QWEN_REPO}/blob/8205ba2a17690375467df31481412d65a1751271/examples/speed-benchmark/requirements-perf-transformers.txt",
                 "https://qwen.readthedocs.io/en/latest/benchmark/speed_benchmark.html (the rendered page; "
                 "the repository is now QwenLM/Qwen3)"],
        "setup": "bf16 generation with transformers and FlashAttention-2, batch 1, 2,048 new tokens after a "
                 "prompt of 1 to 30,720 tokens, Qwen2.5-0.5B/1.5B/3B/7B/14B/32B-Instruct on one A100 80GB; "
                 "peak = sum of max_memory_allocated over the process's GPUs, in GiB",
        "versions": {"torch": "2.3.1", "transformers": "4.46.0", "flash-attn": "2.5.8", "cuda": "12.1"},
        "date": "2024-10-30 (the tables), 2024-11-18 (the script)",
        "project": "QwenLM/Qwen2.5 (Alibaba Qwen team documentation)",
    },
    ULT: {
        "url": f"{ULT_AT}/docs/gpu_test.md",
        "also": [f"{ULT_AT}/src/trainer/trainer.py", f"{ULT_AT}/src/trainer/build.py",
                 f"{ULT_AT}/src/models/llama3.py", f"{ULT_AT}/src/models/llama2.py",
                 f"{ULT_AT}/src/models/gemma.py", f"{ULT_AT}/src/models/gemma2.py", f"{ULT_AT}/src/models/phi3.py",
                 f"{ULT_AT}/src/utils/training_utils.py",
                 f"{ULT_AT}/src/utils/peft_utils.py", f"{ULT_AT}/src/utils/__init__.py",
                 f"{ULT_AT}/src/data_collection/qa_dataset.py", f"{ULT_AT}/config/llm_llama3.1_full.yaml",
                 f"{ULT_AT}/config/llm_llama3.1_lora.yaml", f"{ULT_AT}/config/llm_llama3.1_qlora.yaml",
                 f"{ULT_AT}/config/llm_gemma2_lora.yaml", f"{ULT_AT}/config/llm_gemma2_qlora.yaml",
                 f"{ULT_AT}/config/llm_gemma_lora.yaml", f"{ULT_AT}/config/llm_gemma_qlora.yaml",
                 f"{ULT_AT}/config/llm_llama2_qlora.yaml", f"{ULT_AT}/config/llm_phi3_full.yaml",
                 f"{ULT_AT}/config/llm_phi3_lora.yaml", f"{ULT_AT}/config/llm_phi3_qlora.yaml",
                 f"{ULT_AT}/config/llm_llama2_full_fsdp.yaml",
                 f"{ULT_AT}/config_lora/llm_lora_config.yaml", f"{ULT_AT}/config_lora/llm_phi3_lora_config.yaml",
                 f"{ULT_AT}/config_quant/bnb_4bit.yaml", f"{ULT_AT}/docker/requirements.txt"],
        "setup": "full (bf16, torch AdamW), LoRA r 8 and QLoRA nf4 fine-tunes at batch 2 x 8,192 tokens "
                 "(padded, random ids) with transformers' gradient checkpointing on one H100 (Llama-3.1-8B, "
                 "Gemma-2-9B, Gemma-7B, Llama-2-13B, Phi-3-mini-128k), and Llama-2-13B under FSDP1 with CPU offload on "
                 "two; one QLoRA run out of memory; peak read as the trainer's memory_reserved()/1e9",
        "versions": {"torch": "2.5.1", "transformers": "4.49.0", "peft": "0.14.0", "bitsandbytes": "0.45.0",
                     "note": "torch and transformers from the table's heading; peft and bitsandbytes from "
                             "docker/requirements.txt at the same commit"},
        "date": "2025-08-11/12 (docs/gpu_test.md commits 1c4dca8 and 1aced26)",
        "project": "ljm565/universal-llm-trainer (Jun-Min Lee, a personal training framework)",
    },
}

# ------------------------------------------------------------- 1. Qwen2.5 speed benchmark (A100)
QWEN_UNKNOWN = ("which harness produced the tables (committed before speed_benchmark_transformers.py; "
                "EvalScope's speed benchmark measures the same sum of max_memory_allocated / 2**30)",
                "A100 80GB: SXM or PCIe not said (A100-SXM-80GB written)")
QWEN_NOTE = ("QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst at b736067, transformers table, BF16, "
             "GPU Num 1; environment A100 80GB, torch 2.3.1, flash-attn 2.5.8, transformers 4.46.0; "
             "speed_benchmark_transformers.py: from_pretrained(torch_dtype='auto', device_map='auto', "
             "attn_implementation='flash_attention_2'), batch 1, prompt = '我' x context_length tokens, "
             "generate(min_length=2048 + context_length, max_new_tokens=2048) with the checkpoint's "
             "sampling generation config, peak = sum_i max_memory_allocated(i) / 1024**3 (one process per "
             "run, nothing reset); ")
QWEN_BASE = dict(mode="generate", precision="bf16", micro_batch=1, max_new_tokens=2048, num_beams=1,
                 attention="flash", world_size=1, torch_version="2.3.1", transformers_version="4.46.0")
for rid, model, prompt, value in (
        ("qwen2.5-0.5b-instruct-bf16-fa2-in30720-gen2048", "Qwen2.5-0.5B", 30720, 2.34),
        ("qwen2.5-1.5b-instruct-bf16-fa2-in1-gen2048", "Qwen2.5-1.5B", 1, 2.95),
        ("qwen2.5-3b-instruct-bf16-fa2-in14336-gen2048", "Qwen2.5-3B", 14336, 7.47),
        ("qwen2.5-7b-instruct-bf16-fa2-in30720-gen2048", "Qwen2.5-7B", 30720, 19.97),
        ("qwen2.5-14b-instruct-bf16-fa2-in6144-gen2048", "Qwen2.5-14B", 6144, 29.50),
        ("qwen2.5-32b-instruct-bf16-fa2-in30720-gen2048", "Qwen2.5-32B", 30720, 74.47)):
    add(QWEN, rid, value, "GiB", "max_memory_allocated", "A100-SXM-80GB",
        dict(QWEN_BASE, model=model, seq_len=prompt),
        unknown=QWEN_UNKNOWN,
        notes=QWEN_NOTE + f"{model}-Instruct (the catalog's {model} has the same shapes), input length "
                          f"{prompt}: 'GPU Memory(GB)' {value}")

# ------------------------------------------- 2. universal-llm-trainer GPU test table (H100, 8k tokens)
ULT_UNKNOWN = ("what 'Peak Mem.' reads: the trainer prints only torch.cuda.memory_reserved() / 1E9 (its "
               "'Model Mem.' column matches that reading in 1e9 bytes); an nvidia-smi reading would add the "
               "CUDA context", "rounded to a whole GB", "H100: SXM or PCIe not said (H100-SXM-80GB written)")
ULT_NOTE = ("ljm565/universal-llm-trainer docs/gpu_test.md at 1aced26, '1. NVIDIA H100' (torch 2.5.1, "
            "transformers 4.49.0): batch 2, 8,192 tokens per sample (QA dataset padded to max_length, "
            "--gpu_test random ids), bf16 model, torch.optim.AdamW, gradient checkpointing "
            "(gradient_checkpointing_enable, use_cache=False), no autocast; loss = CrossEntropyLoss on "
            "logits[:, :-1, :] computed by the wrapper (bf16 logits unless the head is fp32); "
            "clip_grad_norm_ 10, zero_grad() after each optimizer step; ")
ULT_BASE = dict(mode="train", optimizer="adamw", micro_batch=2, seq_len=8192, grad_ckpt=True,
                attention="sdpa", padding="max_length", loss="standard", loss_in_logits_dtype=True,
                use_cache=False, world_size=1, torch_version="2.5.1", transformers_version="4.49.0")
LORA = dict(lora_r=8, lora_dropout=0.05, grad_accum=32,
            lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"])
PHI3_LORA = dict(LORA, lora_targets=["qkv_proj", "o_proj", "gate_up_proj", "down_proj"])
QLORA = dict(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=True)
GEMMA2_9B_IT = {  # google/gemma-2-9b-it config.json
    "model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "hidden_size": 3584,
    "intermediate_size": 14336, "num_hidden_layers": 42, "num_attention_heads": 16,
    "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000, "max_position_embeddings": 8192,
    "tie_word_embeddings": True, "rms_norm_eps": 1e-06, "sliding_window": 4096,
    "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0, "query_pre_attn_scalar": 256,
    "hidden_activation": "gelu_pytorch_tanh", "hidden_act": "gelu_pytorch_tanh", "rope_theta": 10000.0,
    "attention_bias": False, "attention_dropout": 0.0, "cache_implementation": "hybrid",
}
GEMMA2_ATTN = ("Gemma-2's default attention in transformers 4.49 (eager written: Gemma2 overrode "
               "_check_and_enable_sdpa to swap sdpa for eager in 4.42-4.47; not verified for 4.49)")
PHI3_UNKNOWN = ("microsoft/Phi-3-mini-128k-instruct (longrope scaling, 131,072 positions) written as the "
                "catalog's Phi-3-mini (same shapes, 4k rope)")
LLAMA2_POSITIONS = "8,192 tokens is twice Llama-2's 4,096 positions (rope extrapolates; memory unaffected)"
QLORA_NOTE = ("QLoRA: bnb_4bit.yaml nf4, double quant, compute bf16; bit 4 loads with torch_dtype=float32 "
              "(embeddings, LM head, norms fp32), prepare_model_for_kbit_training called; ")
ULT_ROWS = (
    ("llama-3.1-8b-full-bf16-b2-s8192-gradckpt", 78, "Llama-3.1-8B", "Full", dict(precision="bf16"), (),
     "llm_llama3.1_full.yaml, meta-llama/Llama-3.1-8B-Instruct: 78 GiB (16 GiB model)"),
    ("llama-3.1-8b-lora-r8-bf16-b2-s8192-gradckpt", 36, "Llama-3.1-8B", "LoRA",
     dict(LORA, precision="bf16"), (), "llm_llama3.1_lora.yaml: 36 GiB (16 GiB model)"),
    ("llama-3.1-8b-qlora-nf4-b2-s8192-gradckpt", 48, "Llama-3.1-8B", "QLoRA",
     dict(LORA, **QLORA, precision="bf16"), (), QLORA_NOTE + "llm_llama3.1_qlora.yaml: 48 GiB (8.0 GiB model)"),
    ("gemma-2-9b-it-lora-r8-bf16-b2-s8192-gradckpt", 60, None, "LoRA",
     dict(LORA, precision="bf16", attention="eager"), (GEMMA2_ATTN,),
     "llm_gemma2_lora.yaml, google/gemma-2-9b-it: 60 GiB (18 GiB model)"),
    ("gemma-7b-qlora-nf4-b2-s8192-gradckpt", 70, "Gemma-7B", "QLoRA",
     dict(LORA, **QLORA, precision="bf16"), (),
     QLORA_NOTE + "llm_gemma_qlora.yaml, google/gemma-7b (tied 256k-vocab head, fp32): 70 GiB (7.5 GiB model)"),
    ("gemma-7b-lora-r8-bf16-b2-s8192-gradckpt", 51, "Gemma-7B", "LoRA", dict(LORA, precision="bf16"), (),
     "llm_gemma_lora.yaml, google/gemma-7b: 51 GiB (17 GiB model)"),
    ("llama-2-13b-qlora-nf4-b2-s8192-gradckpt", 38, "Llama-2-13B", "QLoRA",
     dict(LORA, **QLORA, precision="bf16"), (LLAMA2_POSITIONS,),
     QLORA_NOTE + "llm_llama2_qlora.yaml, meta-llama/Llama-2-13b-hf: 38 GiB (8.3 GiB model)"),
    ("phi-3-mini-128k-full-bf16-b2-s8192-gradckpt", 40, "Phi-3-mini", "Full", dict(precision="bf16"),
     (PHI3_UNKNOWN,), "llm_phi3_full.yaml, microsoft/Phi-3-mini-128k-instruct: 40 GiB (8 GiB model)"),
    ("phi-3-mini-128k-qlora-nf4-b2-s8192-gradckpt", 21, "Phi-3-mini", "QLoRA",
     dict(PHI3_LORA, **QLORA, precision="bf16"), (PHI3_UNKNOWN,),
     QLORA_NOTE + "llm_phi3_qlora.yaml + llm_phi3_lora_config.yaml: 21 GiB (3.2 GiB model)"),
    ("phi-3-mini-128k-lora-r8-bf16-b2-s8192-gradckpt", 17, "Phi-3-mini", "LoRA",
     dict(PHI3_LORA, precision="bf16"), (PHI3_UNKNOWN,),
     "llm_phi3_lora.yaml + llm_phi3_lora_config.yaml: 17 GiB (8 GiB model)"),
)
for rid, value, model, method, extra, more_unknown, what in ULT_ROWS:
    setup = dict(ULT_BASE, **extra)
    if model is None:
        setup.update(hf_config=GEMMA2_9B_IT, model_name="gemma-2-9b-it")
    else:
        setup["model"] = model
    add(ULT, rid, value, "GB", "memory_reserved", "H100-SXM-80GB", setup,
        unknown=(*ULT_UNKNOWN, *more_unknown),
        notes=ULT_NOTE + f"{method}; " + what + " (the table's 'GiB', read as the trainer's 1e9-byte GB)")

add_oom(ULT, "gemma-2-9b-it-qlora-nf4-b2-s8192-gradckpt", "memory_reserved", "H100-SXM-80GB",
        dict(ULT_BASE, **LORA, **QLORA, precision="bf16", attention="eager", hf_config=GEMMA2_9B_IT,
             model_name="gemma-2-9b-it"),
        unknown=(ULT_UNKNOWN[2], GEMMA2_ATTN),
        notes=ULT_NOTE + "QLoRA; " + QLORA_NOTE + "llm_gemma2_qlora.yaml: 'OOM (8.4 GiB)' on the H100 (and "
                         "'OOM (8.2 GiB)' on the A100 80GB table; it ran at 89 GiB on a 96 GB RTX Pro 6000)")

add(ULT, "llama-2-13b-full-fsdp-cpu-offload-fp16-b2-s8192-2gpu", 31, "GB", "memory_reserved",
    "H100-SXM-80GB",
    dict(ULT_BASE, model="Llama-2-13B", precision="fp16", grad_accum=32, world_size=2, fsdp="full",
         offload_params="cpu", offload_optimizer="cpu", fsdp_unsharded_accum=False, load_placement="host"),
    unknown=(*ULT_UNKNOWN, "weights stored in bf16 on the host and gathered as fp16 (MixedPrecision("
             "param_dtype=torch.float16)): written fp16", "size-based FSDP1 wrapping (min_num_params "
             "10,000: every Linear its own unit) is not an estimator input", LLAMA2_POSITIONS),
    notes=ULT_NOTE + "FSDP; llm_llama2_full_fsdp.yaml, meta-llama/Llama-2-13b-hf on devices [0, 1]: FSDP1 "
                     "FULL_SHARD, CPUOffload(offload_params=True), MixedPrecision(param_dtype=float16, "
                     "cast_forward_inputs=True), size_based wrap (min_num_params 10000), model loaded on the "
                     "host (device_map None), gradient accumulation 32 (no no_sync): '31 GiB (CPU Offload)' "
                     "per GPU")


def main():
    write_split("heldout11", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
