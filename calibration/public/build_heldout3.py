"""Writes calibration/public/heldout3.json: a THIRD held-out set of public measured peaks, from
sources that neither devset.json nor heldout2.json uses (IBM fms-acceleration's committed benchmark
results, optimum's GPTQ benchmark README, the Hugging Face blog post "Overview of natively supported
quantization schemes in Transformers"), transcribed by hand.
Run: python calibration/public/build_heldout3.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py), plus the
measured kind ``allocated+context`` (optimum's benchmark: torch's peak allocated bytes plus the
process's non-PyTorch device memory, nvidia-smi peak minus torch's peak reserved).

Left out on purpose (decided before scoring, by what the estimator can express, not by outcome):
torchtitan's benchmark tables (selective per-op activation checkpointing, float8, tensor/context
parallelism and a 96 GB H100 the hardware catalog lacks), the fms rows of its own fused kernels
(foak-*, accelerated-peft-*), GPTQ and Mixtral rows (no GPTQ storage model, MoE routing)."""

import json
from pathlib import Path

GB = 10**9
GIB = 2**30
MB = 10**6
rows = []


def add(src, rid, value, unit, measured, gpu, setup, *, outcome="ran", notes="", unmodelled=()):
    r = {"id": f"{src}/{rid}", "source": src, "split": "held-out-3", "measured": measured,
         "gpu": gpu, "outcome": outcome, "setup": setup}
    if value is not None:
        r.update(value=value, unit=unit,
                 peak_bytes=round(value * {"GB": GB, "GiB": GIB, "MB": MB, "B": 1}[unit]))
    if unmodelled:
        r["unmodelled"] = list(unmodelled)
    if notes:
        r["notes"] = notes
    rows.append(r)


FMS_COMMIT = "24bdadb228e2d55bc0c69deec034b86a73da6917"
FMS = f"https://github.com/foundation-model-stack/fms-acceleration/blob/{FMS_COMMIT}"
SOURCES = {
    "fms-acceleration-bench": {
        "url": f"{FMS}/scripts/benchmarks/refs/a100_80gb.csv",
        "also": [f"{FMS}/scripts/benchmarks/README.md", f"{FMS}/scripts/benchmarks/scenarios.yaml",
                 f"{FMS}/scripts/benchmarks/defaults.yaml", f"{FMS}/scripts/benchmarks/accelerate.yaml",
                 f"{FMS}/scripts/benchmarks/benchmark.py",
                 f"{FMS}/plugins/accelerated-peft/src/fms_acceleration_peft/framework_plugin_bnb.py",
                 f"{FMS}/scripts/benchmarks/refs/requirements.txt"],
        "versions": {"torch": "2.4.1", "transformers": "4.48.1", "peft": "0.13.2", "trl": "0.13.0",
                     "accelerate": "1.0.1", "bitsandbytes": "0.43.3", "flash-attn": "2.7.3",
                     "fms-hf-tuning": "2.5.0"},
        "date": "2025-02 (commit date of the reference CSV)",
    },
    "optimum-gptq-benchmark": {
        "url": "https://github.com/huggingface/optimum/blob/096386299309ec9c4c737c9e5ce260008c48fad7/tests/benchmark/README.md#gptq-benchmark",
        "script": "https://github.com/huggingface/optimum/blob/043bbe2fcf73ecf85faba1ab07cd411ef8274170/tests/benchmark/benchmark_gptq.py",
        "versions": {"transformers": "about 4.32 (2023-08, not stated)", "torch": "2.0/2.1 (not stated)"},
        "date": "2023-08",
    },
    "hf-blog-quantization-overview": {
        "url": "https://github.com/huggingface/blog/blob/0a1251e038b90bff111aea00d5722f39f87dc8fc/overview-quantization-transformers.md#inference-speed-forward-pass-only",
        "versions": {"bitsandbytes": ">=0.41.1", "transformers": "about 4.33 (2023-09, not stated)"},
        "date": "2023-09",
    },
}

# ---------------------------------------------------------------- fms-acceleration benchmark CSV
S = "fms-acceleration-bench"
FMS_NOTE = (
    "fms-acceleration refs/a100_80gb.csv (A100 80GB): fms-hf-tuning sft_trainer through "
    "`accelerate launch` with accelerate.yaml (FSDP FULL_SHARD, TRANSFORMER_BASED_WRAP, "
    "BACKWARD_PRE, cpu_ram_efficient_loading, mixed_precision 'no'), num_processes = num_gpus; "
    "defaults.yaml: use_flash_attn True, gradient_checkpointing True, gradient_accumulation 1, "
    "max_steps 100, HF Trainer AdamW (adamw_torch); benchmark.py defaults: packing True, "
    "max_seq_len 4096 (alpaca-cleaned packed into full 4096-token rows). Measured: "
    "mem_peak_torch_mem_alloc_in_bytes = the HF Trainer memory tracker's "
    "(skip_memory_metrics=False) running allocated sum plus the train stage's peaked delta, i.e. "
    "torch.cuda.max_memory_allocated of the training stage on the reporting rank. "
    "A row whose memory columns are empty and whose runtime is empty did not finish (its "
    "nvidia-smi column reads the whole 80 GB): out of memory")


def fms(rid, val, *, model="Mistral-7B-v0.1", hf=None, gpus, batch, seq=4096, lora=False,
        qlora=False, note="", outcome="ran", unm=()):
    # transformers_version: from refs/requirements.txt, added AFTER the first scoring (an input
    # fact the estimator could not take then; figures scored with it are not blind)
    s = dict(mode="train", optimizer="adamw", micro_batch=batch, seq_len=seq, grad_ckpt=True,
             attention="flash", loss="standard", world_size=gpus, torch_version="2.4.1",
             transformers_version="4.48.1")
    if hf:
        s.update(hf_config=hf, model_name=model)
    else:
        s["model"] = model
    if gpus > 1:
        s.update(fsdp="full", load_placement="sharded")
    if qlora:
        # bf16 True: AMP over bf16-stored weights; BitsAndBytesConfig(nf4, double quant, compute
        # bf16; quant_storage bf16 under FSDP); TRL 0.13 runs prepare_model_for_kbit_training only
        # when the 4-bit weights are not on cpu/meta (one GPU), not for FSDP's low-cpu-mem load
        s.update(precision="amp-bf16", weights_bits=16, lora_r=16,
                 lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"], lora_dropout=0.1,
                 quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=(gpus == 1))
    elif lora:
        s.update(precision="bf16", lora_r=16, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"],
                 lora_dropout=0.1)
    else:
        s["precision"] = "bf16"
    add(S, rid, val, "B", "max_memory_allocated", "A100-SXM-80GB", s, outcome=outcome,
        notes=FMS_NOTE + note, unmodelled=unm)


SANTACODER = {  # bigcode/gpt_bigcode-santacoder config.json
    "model_type": "gpt_bigcode", "n_embd": 2048, "n_layer": 24, "n_head": 16, "n_inner": 8192,
    "n_positions": 2048, "vocab_size": 49280, "multi_query": True,
    "activation_function": "gelu_pytorch_tanh", "architectures": ["GPTBigCodeForCausalLM"],
}
SC_NOTE = ("; full fine-tune, torch_dtype bfloat16 without --bf16 (pure bf16 weights, gradients "
           "and AdamW states); santacoder's positions stop at 2048: fms-hf-tuning caps "
           "max_seq_length at the tokenizer's model_max_length (2048), so rows of 2048 tokens "
           "are assumed")
FULL_NOTE = "; full fine-tune, torch_dtype bfloat16 without --bf16 (pure bf16 weights, gradients and AdamW states)"
LORA_NOTE = ("; standard-peft scenario: LoRA r16 alpha 16 dropout 0.1 on q,k,v,o, torch_dtype "
             "bfloat16 without --bf16 (base weights bf16, no autocast)")
QLORA_NOTE = ("; baseline-peft-bnb scenario (plugin loads the model, TRL/PEFT build the adapters): "
              "bf16 True, BitsAndBytesConfig(load_in_4bit, nf4, double quant, compute dtype bf16, "
              "quant_storage bf16 when FSDP runs over 2 GPUs); LoRA r16 alpha 16 dropout 0.1 on q,k,v,o")
ONE = "; one GPU (accelerate's FSDP config over a single rank: nothing sharded)"
TWO = "; 2 GPUs, FSDP FULL_SHARD"

fms("santacoder-full-1gpu-b4", 11267745280, model="santacoder", hf=SANTACODER, gpus=1, batch=4, seq=2048, note=SC_NOTE + ONE)
fms("santacoder-full-1gpu-b8", 15193274880, model="santacoder", hf=SANTACODER, gpus=1, batch=8, seq=2048, note=SC_NOTE + ONE)
fms("santacoder-full-2gpu-b2", 5716304896, model="santacoder", hf=SANTACODER, gpus=2, batch=2, seq=2048, note=SC_NOTE + TWO)
fms("santacoder-full-2gpu-b4", 7819433984, model="santacoder", hf=SANTACODER, gpus=2, batch=4, seq=2048, note=SC_NOTE + TWO)
fms("mistral-7b-full-1gpu-b4", 72434837504, gpus=1, batch=4, note=FULL_NOTE + ONE)
fms("mistral-7b-full-1gpu-b8", 72435230720, gpus=1, batch=8, note=FULL_NOTE + ONE)
fms("mistral-7b-full-2gpu-b2", 36225939968, gpus=2, batch=2, note=FULL_NOTE + TWO)
fms("mistral-7b-full-2gpu-b4", 36226136576, gpus=2, batch=4, note=FULL_NOTE + TWO)
fms("llama2-70b-full-1gpu-b4", None, model="Llama-2-70B", gpus=1, batch=4, outcome="oom",
    note=FULL_NOTE + ONE + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 80882 MiB)")
fms("llama2-70b-full-2gpu-b2", None, model="Llama-2-70B", gpus=2, batch=2, outcome="oom",
    note=FULL_NOTE + TWO + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 80808 MiB)")
fms("mistral-7b-lora-1gpu-b4", 26704571904, gpus=1, batch=4, lora=True, note=LORA_NOTE + ONE)
fms("mistral-7b-lora-1gpu-b8", 38742912512, gpus=1, batch=8, lora=True, note=LORA_NOTE + ONE)
fms("mistral-7b-lora-2gpu-b2", 15144870400, gpus=2, batch=2, lora=True, note=LORA_NOTE + TWO)
fms("mistral-7b-lora-2gpu-b4", 21959827968, gpus=2, batch=4, lora=True, note=LORA_NOTE + TWO)
fms("llama2-70b-lora-1gpu-b4", None, model="Llama-2-70B", gpus=1, batch=4, lora=True, outcome="oom",
    note=LORA_NOTE + ONE + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 81038 MiB)")
fms("llama2-70b-lora-2gpu-b2", None, model="Llama-2-70B", gpus=2, batch=2, lora=True, outcome="oom",
    note=LORA_NOTE + TWO + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 80937 MiB)")
fms("mistral-7b-qlora-1gpu-b4", 20669338112, gpus=1, batch=4, qlora=True, note=QLORA_NOTE + ONE)
fms("mistral-7b-qlora-1gpu-b8", 37002646016, gpus=1, batch=8, qlora=True, note=QLORA_NOTE + ONE)
fms("mistral-7b-qlora-2gpu-b2", 9424594432, gpus=2, batch=2, qlora=True, note=QLORA_NOTE + TWO)
fms("mistral-7b-qlora-2gpu-b4", 15970067968, gpus=2, batch=4, qlora=True, note=QLORA_NOTE + TWO)
fms("llama2-70b-qlora-2gpu-b2", 46685287936, model="Llama-2-70B", gpus=2, batch=2, qlora=True,
    note=QLORA_NOTE + TWO + "; NousResearch/Llama-2-70b-hf")
fms("llama2-70b-qlora-1gpu-b4", None, model="Llama-2-70B", gpus=1, batch=4, qlora=True, outcome="oom",
    note=QLORA_NOTE + ONE + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 79762 MiB)")
fms("llama2-70b-qlora-2gpu-b4", None, model="Llama-2-70B", gpus=2, batch=4, qlora=True, outcome="oom",
    note=QLORA_NOTE + TWO + "; NousResearch/Llama-2-70b-hf; no memory or runtime recorded (nvidia-smi 79517 MiB)")

# ---------------------------------------------------------------- optimum GPTQ benchmark (fp16 rows)
S = "optimum-gptq-benchmark"
OPT_NOTE = (
    "optimum tests/benchmark/README.md, rows 'gptq False' (fp16, no quantization): "
    "daryl149/llama-2-13b-chat-hf (Llama 2 13B shapes) loaded with torch_dtype float16 on one "
    "A100-SXM4-80GB, model.generate(random prompt of 512 tokens, attention_mask, greedy, "
    "use_cache, min_new_tokens = max_new_tokens = N) under no_grad; transformers of 2023-08 "
    "(Llama attention eager: no SDPA path before 4.36). 'Peak memory (MB)' = torch's "
    "allocated_bytes.all.peak * 1e-6 + (nvidia-smi peak during the call - torch's "
    "reserved_bytes.all.peak * 1e-6), i.e. peak allocated plus the CUDA context and other "
    "non-PyTorch memory, in MB of 10^6 bytes (reset_peak_memory_stats before each batch size)")


# Added AFTER the first scoring (which ran without it, see heldout3_first_scoring.txt): the
# transformers version the sources' dates imply (optimum's README commit and the blog post are of
# 2023-08/09: transformers 4.32/4.33, both before 4.42's DynamicCache default). An input fact,
# not a fitted value; figures scored with it are not blind.
TF_2023_08 = "4.32"


def opt(rid, val, batch, new_tokens, note):
    s = dict(model="Llama-2-13B", mode="generate", precision="fp16", micro_batch=batch, seq_len=512,
             max_new_tokens=new_tokens, attention="eager", transformers_version=TF_2023_08)
    add(S, rid, val, "MB", "allocated+context", "A100-SXM-80GB", s, notes=OPT_NOTE + note)


GEN = "; generation benchmark: 512 new tokens"
PRE = "; prefill-only benchmark (--prefill): new_tokens 1, 'Max memory (MB)'"
opt("llama2-13b-fp16-gen-b1", 29152.98, 1, 512, GEN)
opt("llama2-13b-fp16-gen-b2", 30831.09, 2, 512, GEN)
opt("llama2-13b-fp16-gen-b4", 34187.22, 4, 512, GEN)
opt("llama2-13b-fp16-gen-b8", 40327.62, 8, 512, GEN)
opt("llama2-13b-fp16-gen-b16", 53986.51, 16, 512, GEN)
opt("llama2-13b-fp16-prefill-b1", 27999.54, 1, 1, PRE)
opt("llama2-13b-fp16-prefill-b2", 28524.37, 2, 1, PRE)
opt("llama2-13b-fp16-prefill-b4", 29574.01, 4, 1, PRE)
opt("llama2-13b-fp16-prefill-b8", 31673.30, 8, 1, PRE)
opt("llama2-13b-fp16-prefill-b16", 35871.88, 16, 1, PRE)

# ---------------------------------------------------------------- HF blog: bitsandbytes 4-bit rows
S = "hf-blog-quantization-overview"
BLOG_NOTE = (
    "HF blog 'Overview of natively supported quantization schemes in Transformers' (2023-09), "
    "table 'Inference speed (forward pass only)', row 'bitsandbytes, 4 bits': "
    "meta-llama/Llama-2-13b-hf, bitsandbytes>=0.41.1 4-bit with bnb_4bit_compute_dtype float16 "
    "(quant type and double quantization not stated: bitsandbytes defaults fp4, no double quant), "
    "one A100-SXM4-80GB, prompt 512 tokens. The table's fp16 figures equal optimum's "
    "GENERATION benchmark (512 prompt + 512 new tokens: 29152.98 and 53986.51 MB), and the post "
    "links that benchmark for details: the row is taken as that benchmark's measurement "
    "(512 new tokens, peak allocated + non-PyTorch memory, MB of 10^6 bytes)")


def blog(rid, val, batch):
    s = dict(model="Llama-2-13B", mode="generate", precision="fp16", micro_batch=batch, seq_len=512,
             max_new_tokens=512, attention="eager", quant="4bit", quant_type="fp4",
             double_quant=False, transformers_version="4.33")
    add(S, rid, val, "MB", "allocated+context", "A100-SXM-80GB", s, notes=BLOG_NOTE,
        unmodelled=("which of the two benchmarks (prefill or generation) the row comes from",))


blog("llama2-13b-bnb4bit-b1", 11018.36, 1)
blog("llama2-13b-bnb4bit-b16", 35532.37, 16)


def main():
    out = {
        "version": 1,
        "about": __doc__.split("\n\n")[0],
        "split_rule": "every row is held out (split 'held-out-3'); none was used to fit or tune "
                      "the estimator; committed before the first scoring",
        "sources": SOURCES,
        "rows": rows,
    }
    path = Path(__file__).resolve().parent / "heldout3.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} rows from {len(SOURCES)} sources -> {path}")


if __name__ == "__main__":
    main()
