"""Writes calibration/public/heldout2.json: a SECOND held-out set of public measured peaks, from
sources that devset.json does not use (torchao's optimizer README, the transformers guide
"Optimizing LLMs for Speed and Memory", torchtune's 2024 LoRA/QLoRA/Llama 3 tutorials, a
transformers issue thread), transcribed by hand. Run: python calibration/public/build_heldout2.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py)."""

import json
from pathlib import Path

GB = 10**9
GIB = 2**30
rows = []


def add(src, rid, value, unit, measured, gpu, setup, *, outcome="ran", notes="", unmodelled=()):
    r = {"id": f"{src}/{rid}", "source": src, "split": "held-out-2", "measured": measured,
         "gpu": gpu, "outcome": outcome, "setup": setup}
    if value is not None:
        r.update(value=value, unit=unit, peak_bytes=round(value * {"GB": GB, "GiB": GIB}[unit]))
    if unmodelled:
        r["unmodelled"] = list(unmodelled)
    if notes:
        r["notes"] = notes
    rows.append(r)


SOURCES = {
    "torchao-optim-readme": {
        "url": "https://github.com/pytorch/ao/blob/072500abcfbdec15a429eb53160c63fb92534b85/torchao/optim/README.md#benchmarks",
        "script": "https://github.com/pytorch/ao/blob/03cf0adec63fdbae2fd6d2aa7688b52ee8c64004/benchmarks/benchmark_low_bit_adam.py",
        "versions": {"torch": "2.4", "torchtune": "52d1b838 (Llama2 rows)"},
        "date": "2024-09 to 2025",
    },
    "hf-llm-tutorial-optimization": {
        "url": "https://github.com/huggingface/transformers/blob/008f5c8c29be84d4721dc6d1e0fcd72300580be4/docs/source/en/llm_tutorial_optimization.md",
        "versions": {"transformers": "about 4.34 (guide written 2023-09; not stated)",
                     "torch": "2.x (not stated)", "bitsandbytes": "not stated"},
        "date": "2023-09",
    },
    "torchtune-tutorials-2024": {
        "url": "https://github.com/pytorch/torchtune/blob/ff594c23113891c99050f730c6be0aeacf511b2f/docs/source/tutorials/lora_finetune.rst#trading-off-memory-and-model-performance-with-lora",
        "also": ["https://github.com/pytorch/torchtune/blob/0914d5cfb5a34bf14a72e36b9ddebc64904763d1/docs/source/tutorials/qlora_finetune.rst#putting-it-all-together-qlora-finetune",
                 "https://github.com/pytorch/torchtune/blob/20747cd87ba803d514d5d3d57e90fcfb059ecf56/docs/source/tutorials/llama3.rst"],
        "versions": {"torchtune": "April 2024 (commits above)", "torch": "2.2-2.3 (not stated)"},
        "date": "2024-04",
    },
    "transformers-issue-10803": {
        "url": "https://github.com/huggingface/transformers/issues/10803",
        "versions": {"transformers": "4.4 (2021-03, not stated)"},
        "date": "2021-03",
    },
}

# ---------------------------------------------------------------- torchao optim README
S = "torchao-optim-readme"
VIT_H = {  # timm vit_huge_patch14_224.orig_in21k with num_classes=45, as an HF ViT config
    "model_type": "vit", "hidden_size": 1280, "num_hidden_layers": 32, "num_attention_heads": 16,
    "intermediate_size": 5120, "image_size": 224, "patch_size": 14, "qkv_bias": True,
    "architectures": ["ViTForImageClassification"], "num_labels": 45,
}
VITH_NOTE = ("torchao README 'Benchmarks': timm ViT-H/14 (630M) fine-tuned on resisc45, BF16 AMP, "
             "compiled model (model.compile(fullgraph=True)), batch 8, RandomResizedCrop(224), 4070Ti "
             "SUPER 16 GB, PyTorch 2.4; the script prints torch.cuda.max_memory_allocated()/1e9 "
             "after the epoch (the evaluation pass after training runs under no_grad and is lower); "
             "timm's head reads the class token (no pooler), dropout 0")


def vith(rid, optimizer, val):
    s = dict(hf_config=VIT_H, model_name="vit_huge_patch14_224", mode="train", precision="amp-bf16",
             optimizer=optimizer, micro_batch=8, image_size=224, attention="sdpa", torch_version="2.4",
             packed_qkv=True)   # est83: timm's Attention projects q, k, v with one Linear (self.qkv)
    add(S, rid, val, "GB", "max_memory_allocated", "RTX-4070-Ti-SUPER-16GB", s, notes=VITH_NOTE,
        unmodelled=("torch.compile",))


vith("vit-h-adamw-fused", "adamw-fused", 12.23)
vith("vit-h-bnb-adamw8bit", "adamw-8bit", 8.32)
vith("vit-h-ao-adamw8bit", "adamw-8bit", 8.33)

LLAMA2_NOTE = ("torchao README: Llama2-7B full BF16 fine-tune on Alpaca with torchtune 52d1b838 on an "
               "A100, PyTorch 2.4, 'Peak memory allocated (GB)' as torchtune logs it (torchtune "
               "52d1b838 divides by 1024**3: GiB). Recipe assumed to be llama2/7B_full_low_memory.yaml "
               "at that commit with the optimizer replaced: batch 2, activation checkpointing, "
               "optimizer_in_bwd True, CEWithChunkedOutputLoss; compile assumed on (PR #746 reports "
               "compile times). Alpaca is not packed and not truncated (max_seq_len null): seq_len "
               "assumed 1304, the longest Alpaca example in Llama 2 tokens (litgpt's measurement); "
               "GPU assumed 80 GB (51.6 GiB does not fit 40 GB)")


def llama2(rid, optimizer, val):
    s = dict(model="Llama-2-7B", mode="train", precision="bf16", optimizer=optimizer, micro_batch=2,
             seq_len=1304, grad_ckpt=True, attention="sdpa", loss="chunked", optimizer_in_backward=True,
             torch_version="2.4")
    add(S, rid, val, "GiB", "max_memory_allocated", "A100-SXM-80GB", s, notes=LLAMA2_NOTE,
        unmodelled=("torch.compile",))


llama2("llama2-7b-full-adamw-fused", "adamw-fused", 51.6)
llama2("llama2-7b-full-bnb-adamw8bit", "adamw-8bit", 39.3)
llama2("llama2-7b-full-ao-adamw8bit", "adamw-8bit", 39.1)

DINO_G = {  # timm vit_giant_patch14_dinov2.lvd142m (1.1B) as the HF Dinov2 config (SwiGLU MLP)
    "model_type": "dinov2", "hidden_size": 1536, "num_hidden_layers": 40, "num_attention_heads": 24,
    "mlp_ratio": 4, "use_swiglu_ffn": True, "image_size": 518, "patch_size": 14,
    "layerscale_value": 1.0, "qkv_bias": True,
    "architectures": ["Dinov2ForImageClassification"], "num_labels": 45,
}
DINO_NOTE = ("torchao README 'Optimizer CPU offload': timm/vit_giant_patch14_dinov2.lvd142m (1.1B), "
             "activation checkpointing, batch 32, 4070Ti SUPER 16 GB, 'Max memory' from the same "
             "script (max_memory_allocated/1e9); images RandomResizedCrop(224) (the model's "
             "position table is for 518 and is interpolated: image_size 224 assumed); timm's head "
             "reads the class token only (HF's Dinov2 head reads class token + patch mean: 69k "
             "parameters of difference)")


def dino(rid, val, precision, *, optimizer="adamw-fused", extra=None, unm=(), outcome="ran", note=""):
    s = dict(hf_config=DINO_G, model_name="vit_giant_patch14_dinov2", mode="train",
             precision=precision, optimizer=optimizer, micro_batch=32, image_size=224,
             grad_ckpt=True, attention="sdpa", torch_version="2.4", packed_qkv=True)   # est83: timm's fused qkv
    s.update(extra or {})
    add(S, rid, val, "GB", "max_memory_allocated", "RTX-4070-Ti-SUPER-16GB", s, outcome=outcome,
        notes=DINO_NOTE + note, unmodelled=unm)


OFF = {"offload_optimizer": "cpu"}
dino("dinov2-g-bf16-none", 9.82, "bf16", note="; full BF16, eager, torch AdamW(fused=True)")
# est19 (in-sample): the DeepSpeed release is stated (assumed from the PR's dates, see the note);
# 0.14.1 to 0.16 copy the fp32 partition to the GPU after the offloaded step
# (terms.zero12_offload_step_copy)
dino("dinov2-g-bf16-deepspeed-zero-offload", 6.85, "bf16", optimizer="adamw",
     extra=dict(OFF, zero_stage=2, overlap_comm=True, deepspeed_version="0.14.4"),
     note="; DeepSpeed ZeRO-2 with offload_optimizer cpu (pin_memory), overlap_comm, "
          "fp32_optimizer_states False (DeepSpeed's CPU Adam), untuned buckets; DeepSpeed "
          "0.14.4 assumed: the benchmark script installs it unpinned ('pip install deepspeed') "
          "and came with pytorch/ao#584 (opened 2024-08-01, merged 2024-08-06, 1b1e94c), when "
          "PyPI's latest was 0.14.4; every release from 0.14.1 (2024-04) to 0.16.x (2025-05) "
          "makes the same GPU copy")
dino("dinov2-g-bf16-ao-offload", 5.24, "bf16", extra=OFF,
     note="; torchao CPUOffloadOptimizer: optimizer states and step on the CPU, gradients on the GPU",
     unm=("torchao CPUOffloadOptimizer (not DeepSpeed)",))
# est15 (in-sample): the estimator models offload_gradients (terms.offloaded_grads, from
# torchao/optim/cpu_offload.py); the row states it and it is no longer unmodelled
dino("dinov2-g-bf16-ao-offload-grads", 4.01, "bf16", extra=dict(OFF, offload_gradients=True),
     note="; torchao CPUOffloadOptimizer(offload_gradients=True): each gradient moved to the CPU "
          "as soon as it is ready")
dino("dinov2-g-bf16-compiled-none", 9.90, "bf16", note="; full BF16, compiled",
     unm=("torch.compile",))
dino("dinov2-g-amp-none", None, "amp-bf16", outcome="oom",
     note="; BF16 AMP (fp32 weights), eager, no offload: 'OOM' in the table")
dino("dinov2-g-amp-ao-offload", 9.90, "amp-bf16", extra=OFF,
     note="; BF16 AMP, eager, torchao CPUOffloadOptimizer", unm=("torchao CPUOffloadOptimizer (not DeepSpeed)",))

# ---------------------------------------------------------------- transformers LLM optimization guide
S = "hf-llm-tutorial-optimization"
HFO = ("transformers guide 'Optimizing LLMs for Speed and Memory': bigcode/octocoder (StarCoder "
       "shapes, 15.5B, multi-query attention), text-generation pipeline, batch 1, max_new_tokens=60, "
       "bytes_to_giga_bytes(torch.cuda.max_memory_allocated()) with /1024**3 (GiB), after flush() "
       "(reset_peak_memory_stats); 'a single 40 GB A100' (SXM assumed)")
SHORT = 20   # the guide prints 'length of key-value cache 20' for this prompt


def octo(rid, val, s, note, unm=()):
    base = dict(model="StarCoder", mode="generate", precision="bf16", micro_batch=1, seq_len=SHORT,
                max_new_tokens=60, attention="eager")
    base.update(s)
    add(S, rid, val, "GiB", "max_memory_allocated", "A100-SXM-40GB", base, notes=HFO + note,
        unmodelled=unm)


octo("octocoder-bf16", 29.0260648727417, {}, "; torch_dtype=bfloat16, device_map='auto'; "
     "gpt_bigcode ran eager attention in transformers 4.34 (no SDPA for it then)")
octo("octocoder-8bit", 15.219234466552734, {"quant": "8bit", "precision": "fp16"},
     "; load_in_8bit=True without torch_dtype: transformers loads the other weights in fp16")
octo("octocoder-4bit", 9.543574333190918,
     {"quant": "4bit", "quant_type": "fp4", "double_quant": False, "precision": "fp16"},
     "; load_in_4bit=True without a BitsAndBytesConfig: fp4, no double quantization, compute "
     "dtype float32 (bitsandbytes' default then), other weights fp16",
     unm=("4-bit compute dtype float32 (dequantized fp32 weights per matmul)",))
LONG = 5000
octo("octocoder-long-eager", 37.668193340301514, {"seq_len": LONG},
     f"; prompt = 10 x a 1,994-character system prompt + the question: about {LONG} tokens "
     "assumed (not printed; about 4 characters per token)")
octo("octocoder-long-flash", 32.617331981658936, {"seq_len": LONG, "attention": "flash"},
     f"; same {LONG}-token prompt, model.to_bettertransformer() and "
     "sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False)",
     unm=("BetterTransformer (optimum) instead of transformers' own attention",))

# ---------------------------------------------------------------- torchtune tutorials (April 2024)
S = "torchtune-tutorials-2024"
TTN = ("torchtune tutorial (April 2024): lora_finetune_single_device, llama2/7B_lora_single_device "
       "config at that time: Llama-2-7B, full bf16 (dtype bf16), batch 2, alpaca_cleaned_dataset with "
       "its default max_seq_len=512 (padded per batch; the peak comes from a 512-token batch), "
       "activation checkpointing, torch.nn.CrossEntropyLoss on full logits, torch.optim.AdamW "
       "(foreach), lora_dropout 0.05 (lora_llama2_7b's default then), compile False; 'Peak Memory' "
       "= torch.cuda.max_memory_reserved()/1e9 (the QLoRA tutorial shows the same 15.57 GB as 'peak "
       "memory reserved, training'); GPU not stated (A100 80 GB assumed; any GPU of 24 GB fits)")
QV = ["q_proj", "v_proj"]
ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def tt(rid, val, r, targets, *, model="Llama-2-7B", extra=None, note="", unm=()):
    # est17 (label, read in torchtune ff594c2): the recipe batches with
    # `collate_fn=partial(utils.padded_collate, ...)` (recipes/lora_finetune_single_device.py:355;
    # `pad_sequence` to the batch's longest sample: lengths vary between steps, as the note says),
    # and torchtune's own modules run the model (torchtune/modules/transformer.py:210
    # `self.output(h).float()`; LoRALinear built in bf16; torchao NF4 for QLoRA)
    # est62 (label, in-sample): the release the tutorials document. ff594c23 and 0914d5cf (2024-04-15) are first
    # contained in tag v0.1.0, 20747cd8 (llama3.rst, 2024-04-18) in v0.1.1 (`git tag --contains`); each commit's
    # pyproject.toml pins "torchao==0.1" (unchunked NF4 quantization: nf4_quantize.py) and its
    # recipes/lora_finetune_single_device.py:447-468 keeps the shifted fp32 `logits` through `loss.backward()`
    # (torchtune_loop.py: before 0.3)
    s = dict(model=model, mode="train", precision="bf16", optimizer="adamw", micro_batch=2,
             seq_len=512, grad_ckpt=True, attention="sdpa", loss="standard", lora_r=r,
             lora_targets=targets, lora_dropout=0.05, model_impl="torchtune", padding="dynamic",
             torchtune_version="0.1.0",
             # est67 (in-sample): a sample over max_seq_len is cut to it: Tokenizer.tokenize_messages at
             # ff594c23 (torchtune/modules/tokenizer.py lines 207-213: "Finally, truncate if necessary",
             # truncate(tokenized_messages, max_seq_len, self.eos_id)), called by InstructDataset with
             # max_seq_len (torchtune/datasets/_instruct.py line 100)
             truncation="truncate")
    s.update(extra or {})
    add(S, rid, val, "GB", "memory_reserved", "A100-SXM-80GB", s, notes=TTN + note, unmodelled=unm)


tt("llama2-7b-lora-qv-r8", 15.57, 8, QV)
tt("llama2-7b-lora-all-r8", 15.87, 8, ALL, note="; 'all layers': q, k, v, output_proj, the MLP and "
   "the final output projection", unm=("LoRA on the output projection (vocabulary-sized)",))
tt("llama2-7b-lora-qv-r64", 15.86, 64, QV)
tt("llama2-7b-lora-all-r64", 17.04, 64, ALL, note="; 'all layers' as above",
   unm=("LoRA on the output projection (vocabulary-sized)",))
tt("llama2-7b-qlora", 9.29, 8, ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                                 "down_proj"],
   extra=dict(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False),
   note="; qlora_finetune.rst table 'Peak memory reserved, training'; llama2/7B_qlora_single_device: "
        "LoRA r8 on q, k, v, output_proj and the MLP, base weights in torchao NF4 (double-quantized "
        "scales)")
tt("llama3-8b-lora-qv-r8", 18.5, 8, QV, model="Llama-3-8B", extra=dict(torchtune_version="0.1.1"),
   note="; llama3.rst: Llama3-8B-Instruct, llama3/8B_lora_single_device (LoRA r8 on q, v; batch 2; "
        "max_seq_len 512; activation checkpointing; CrossEntropyLoss over the 128k vocabulary): "
        "'we observed a peak memory usage of 18.5 GB' (reserved assumed, as in the other tutorials)")

# ---------------------------------------------------------------- transformers issue 10803
S = "transformers-issue-10803"
DEBERTA_XXL = {  # microsoft/deberta-v2-xxlarge config.json
    "model_type": "deberta-v2", "hidden_size": 1536, "num_hidden_layers": 48,
    "num_attention_heads": 24, "intermediate_size": 6144, "vocab_size": 128100,
    "max_position_embeddings": 512, "type_vocab_size": 0, "relative_attention": True,
    "position_buckets": 256, "norm_rel_ebd": "layer_norm", "share_att_key": True,
    "pos_att_type": "p2c|c2p", "position_biased_input": False, "conv_kernel_size": 3,
    "conv_act": "gelu", "layer_norm_eps": 1e-7, "max_relative_positions": -1,
    "architectures": ["DebertaV2ForMaskedLM"],
}
add(S, "deberta-v2-xxlarge-t4", None, "GB", "nvidia-smi", "T4-16GB",
    dict(hf_config=DEBERTA_XXL, model_name="deberta-v2-xxlarge", mode="train", precision="fp32",
         optimizer="adamw", micro_batch=1, seq_len=128, attention="eager",
         task="sequence-classification", num_labels=2),
    outcome="oom",
    notes="issue: 'fine tuning DeBERTa v2 xxlarge with 1.5B parameters on Nvidia Tesla T4 (16GB "
          "vRAM) and it returns CUDA out of memory' (no DeepSpeed). Batch, length, task and "
          "precision not stated: the smallest job (batch 1, 128 tokens, fp32 Trainer default, "
          "sequence classification) is assumed: it runs out of memory whatever the batch, since "
          "fp32 weights, gradients and AdamW states alone are 16 bytes x 1.5B")


def main():
    out = {
        "version": 1,
        "about": __doc__.split("\n\n")[0],
        "split_rule": "every row is held out (split 'held-out-2'); none was used to fit or tune "
                      "the estimator; committed before the first scoring",
        "sources": SOURCES,
        "rows": rows,
    }
    path = Path(__file__).resolve().parent / "heldout2.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} rows from {len(SOURCES)} sources -> {path}")


if __name__ == "__main__":
    main()
