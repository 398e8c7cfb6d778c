"""Writes calibration/public/heldout10.json: a TENTH held-out set of public measured peaks, from
sources that devset.json and held-out-2..9 do not use, transcribed by hand from three independent
publishers (at most four rows each): Giles Thomas's fine-tune-2024-04 repository (full fine-tunes
of Qwen1.5-0.5B on one RTX 3090 and of Llama-3-8B on eight GPUs, both under DeepSpeed ZeRO-3 fp16
through the HF Trainer, with and without gradient checkpointing, one out of memory), the Mesa
paper's repositories (DeiT-Ti/S/B and Swin-T trained on ImageNet with AMP at batch 128 on one RTX
3090, the baselines without Mesa), and bitsandbytes' 8-bit optimizer benchmark (Qwen3-0.6B full
fine-tune in fp32 with torch AdamW, AdamW8bit, PagedAdamW and PagedAdamW8bit on an A100 80GB).
Run: python calibration/public/build_heldout10.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py); verdict-only rows
(``outcome`` "oom", no ``peak_bytes``) count for false fits only.

1. gpjt/fine-tune-2024-04 (the code and result CSVs of the blog series "Messing around with
   fine-tuning LLMs", part 6 on, gilesthomas.com, 2024-07/08). Each measurement is one
   ``deepspeed`` launch of ``measure_memory_usage_for_batch_size.py``: ``AutoModelForCausalLM
   .from_pretrained(base_model)`` (fp32, on the host) BEFORE ``TrainingArguments(deepspeed=...)``
   is built (so no ``zero.Init``: ``deepspeed.initialize`` casts the whole module to fp16 and
   moves it to the GPU before partitioning, ``load_placement`` "gpu"), the HF ``Trainer`` with
   ``fp16=True``, ``per_device_train_batch_size`` = the batch under test, the tokenizer's
   ``padding="max_length", max_length=2048, truncation=True`` (every batch 2048 tokens; labels =
   input_ids: the HF LM loss), stopped by an exception at global step 30 (no evaluation ran).
   ds_config.json: ``zero_optimization.stage`` 3 and nothing else (DeepSpeed's defaults: overlap_comm
   on for stage 3, contiguous gradients, buckets 5e8 / prefetch 5e7 / persistence threshold 1e5),
   ``fp16.enabled`` (16-bit module, fp32 master weights and Adam states in the optimizer; written
   ``amp-fp16`` with ZeRO as the earlier sets write DeepSpeed bf16 as ``amp-bf16``), ``optimizer``
   AdamW (DeepSpeed's FusedAdam). After training the script writes
   ``torch.cuda.memory_stats()["active_bytes.all.peak"] // 2**20`` (and the reserved peak) to a CSV:
   ``peak_memory_active``, MiB, the whole run's peak (nothing resets it), per GPU.
   - Versions: requirements.txt (torch 2.2.2, transformers 4.40.0, deepspeed 0.14.2, accelerate
     0.29.3) is the local environment's; the 8B runs were on rented machines set up from the same
     repository (not recorded per run: listed under ``unknown``). transformers 4.40 runs Qwen2 and
     Llama with SDPA by default; the padded batches pass an attention mask.
   - 0.5B: Qwen/Qwen1.5-0.5B (qwen2 config, tied embeddings), ``deepspeed`` on the author's one
     local GPU (world size 1). The GPU is not named in what is stored here: the reserved peaks (21.9 GB
     the largest, batch 3 out of memory) fit a 24 GB card, and the author's later repository
     (gpjt/ddp-base-model-from-scratch) names its local runs "1xrtx3090-..."; RTX 3090 is assumed,
     recorded under ``unknown``. Rows from ``results-no-optimizer-offload.csv`` (commit 197fd95, script as of that
     commit: no gradient checkpointing) and ``results-with-gradient-checkpointing-no-expandable-
     segments.csv`` (commit 859f8b6, the script then calls ``model.gradient_checkpointing_enable()``:
     transformers' checkpointing, which also turns the KV cache off in training).
   - 8B: meta-llama/Meta-Llama-3-8B on 8 GPUs (``for gpu in range(8)``), ``tokenizer.pad_token =
     eos``; ``results-no-optimizer-offload.csv`` (commit 948adb9): batch 2 ran on all eight ranks
     (64,180 MiB active each), batch 3 wrote "OOM" on all eight (the script catches
     ``torch.cuda.OutOfMemoryError``). The GPU model is not in the repository; part 6 of the series
     says the 8B runs were on rented Lambda Labs machines, and 64 GB active needs an 80 GB part:
     A100-SXM-80GB is assumed (an H100 80GB would change only the cuBLAS workspace), recorded under
     ``unknown``.
2. ziplab/Mesa README "Results on ImageNet" (and the same rows in its demo repositories
   HubHop/deit-mesa and HubHop/swin-mesa), "Memory footprint at training time is measured with a
   batch size of 128 and an image resolution of 224x224 on a single GPU"; the baseline rows (the
   models without Mesa). How it is measured is answered by the authors in ziplab/Mesa issue #2:
   ``torch.cuda.max_memory_allocated()`` as printed in the training log ("max mem: 4171" for
   DeiT-Ti, "PyTorch AMP, batch size 128 and image resolution 224 on ImageNet with a single 3090
   GPU"); DeiT's MetricLogger divides by 1024**2 (MiB), Swin's logger prints
   ``torch.cuda.max_memory_allocated() / (1024.0 * 1024.0)`` as "mem ...MB". Installation: torch
   1.7.1 + CUDA 10.1, timm 0.3.2.
   - DeiT (deit-mesa at c5551a8, DeiT's main.py): ``torch.distributed.launch --nproc_per_node 1``
     (DDP over one process), ``torch.cuda.amp.autocast`` with timm's NativeScaler (fp16 AMP),
     AdamW (timm ``create_optimizer`` -> torch.optim.AdamW; torch 1.7 has no foreach path), weight
     decay 0.05, Mixup/CutMix with SoftTargetCrossEntropy on 1,000 classes, drop 0, drop_path 0.1,
     model EMA on the GPU (``--model-ema`` default on: one fp32 copy of the weights, not an
     estimator input: recorded under ``unknown``). DeiT-Ti/S/B: patch 16, 224, depth 12, width
     192/384/768, heads 3/6/12, MLP ratio 4, qkv bias; the attention computes ``q @ k^T`` and its
     softmax explicitly (``attention`` "eager"). With Mesa disabled its layers call ``F.linear`` /
     the plain ops. Written as HF ViT configs with the same shapes.
   - Swin-T (swin-mesa at 3127a98, Swin's main.py): the same launcher and DDP, NVIDIA apex AMP
     ``O1`` (the script's default opt level: fp32 weights, fp16 ops; written ``amp-fp16``), AdamW
     (Swin's build_optimizer: torch.optim.AdamW), gradient clipping 5.0, drop_path 0.2, batch 128,
     window attention with an explicit softmax (``attention`` "eager"). The catalog's
     Swin-tiny-patch4-window7-224 has the same shapes (embed 96, depths 2-2-6-2, heads 3-6-12-24,
     window 7, 1,000 classes).
3. bitsandbytes-foundation/bitsandbytes ``benchmarking/README.md`` section "8-bit Optimizers",
   "NVIDIA A100 80GB" table (README read at 1b7b9bb), from
   ``benchmarking/optimizer_benchmark_comprehensive.py`` (read at 073dd10): defaults model
   Qwen/Qwen3-0.6B built with ``AutoModelForCausalLM.from_config(config, dtype=fp32)`` (random
   weights, full fine-tune, fp32, no autocast), batch 2 x 128 random token ids with labels =
   input_ids (the HF LM loss), 3 warm-up + 10 steps of forward / ``backward`` / ``step`` /
   ``zero_grad`` (set_to_none), ``outputs`` bound at loop level (kept to the next step:
   ``keeps_outputs``). Per optimizer: ``reset_peak_memory_stats()`` before the model is built, then
   "Peak GPU Memory" = ``max_memory_allocated()`` / 1024**2 (MiB) after the steps. The optimizers
   are torch.optim.AdamW (foreach), bnb.optim.AdamW8bit, bnb.optim.PagedAdamW (32-bit states in
   paged, cudaMallocManaged memory) and bnb.optim.PagedAdamW8bit. The torch and transformers
   versions are not printed (``from_config(..., dtype=)`` needs transformers >= 4.56); SXM or PCIe
   is not said (A100-SXM-80GB written; both have 80 GB): both recorded under ``unknown``.

Left out on purpose (decided before scoring, by what is known): the Qwen(-1) README's profiling
table (the measured quantity is not said, remote-code model), Lightning's FSDP guide tables
(nn.Transformer encoder-decoder demo model; whether the figure is the allocated or the reserved
peak of ``memory_summary`` is not said), the accelerate FSDP2 benchmark (figures only as images),
the transformers BERT SDPA pull request's table (checkpoint and dtype not stated), PEFT maintainer
slides (computed, not measured figures), and the rest of gpjt's CSVs (at most four rows a source;
the 0.5B sequence-length sweep repeats the batch-size runs' setup at batch 1)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-10"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom


GPJT = "gpjt-fine-tune-2024-04"
MESA = "mesa-imagenet-train-memory"
BNB = "bitsandbytes-8bit-optimizer-benchmark"
GPJT_REPO = "https://github.com/gpjt/fine-tune-2024-04"
SOURCES = {
    GPJT: {
        "url": f"{GPJT_REPO}/blob/948adb928441a1afaaddd868065c5d4e5f10f648/batch-size-memory-modeling-8B/results-no-optimizer-offload.csv",
        "also": [f"{GPJT_REPO}/blob/948adb928441a1afaaddd868065c5d4e5f10f648/batch-size-memory-modeling-8B/measure_memory_usage_for_batch_size.py",
                 f"{GPJT_REPO}/blob/948adb928441a1afaaddd868065c5d4e5f10f648/batch-size-memory-modeling-8B/ds_config.json",
                 f"{GPJT_REPO}/blob/197fd9598ecfe6190ced9f017857023832432853/batch-size-memory-modeling-0.5B/results-no-optimizer-offload.csv",
                 f"{GPJT_REPO}/blob/197fd9598ecfe6190ced9f017857023832432853/batch-size-memory-modeling-0.5B/measure_memory_usage_for_batch_size.py",
                 f"{GPJT_REPO}/blob/859f8b62e6f12c8f1ea61ad6b33df8ae8997b519/batch-size-memory-modeling-0.5B/results-with-gradient-checkpointing-no-expandable-segments.csv",
                 f"{GPJT_REPO}/blob/859f8b62e6f12c8f1ea61ad6b33df8ae8997b519/batch-size-memory-modeling-0.5B/measure_memory_usage_for_batch_size.py",
                 f"{GPJT_REPO}/blob/5a205a7cdf01851eb8b3a6dbea1cae86404eea3e/requirements.txt",
                 "https://www.gilesthomas.com/2024/07/fine-tuning-6 (the series' measurement post; "
                 "the 8B runs on Lambda Labs)"],
        "setup": "full fine-tunes with the HF Trainer under DeepSpeed ZeRO-3 fp16 (FusedAdam), every "
                 "batch padded to 2048 tokens: Qwen1.5-0.5B on one GPU (batch 2; batch 3 with "
                 "gradient checkpointing), Llama-3-8B on 8 GPUs (batch 2 ran, batch 3 out of memory)",
        "versions": {"torch": "2.2.2", "transformers": "4.40.0", "deepspeed": "0.14.2",
                     "note": "requirements.txt of the repository (the local environment)"},
        "date": "2024-08-18 (0.5B), 2024-08-19 (8B), 2024-08-31 (0.5B checkpointed)",
        "project": "gpjt/fine-tune-2024-04 (Giles Thomas, a personal blog series)",
    },
    MESA: {
        "url": "https://github.com/ziplab/Mesa/blob/460e19a84949a7fa465d25c853aec983a0731843/README.md",
        "also": ["https://github.com/ziplab/Mesa/issues/2 (how the train memory is measured: "
                 "torch.cuda.max_memory_allocated(), PyTorch AMP, batch 128, 224, one RTX 3090)",
                 "https://github.com/HubHop/deit-mesa/blob/c5551a83e98e7770d7e95f69340d865a4e88cf87/main.py",
                 "https://github.com/HubHop/deit-mesa/blob/c5551a83e98e7770d7e95f69340d865a4e88cf87/models.py",
                 "https://github.com/HubHop/deit-mesa/blob/c5551a83e98e7770d7e95f69340d865a4e88cf87/utils.py",
                 "https://github.com/HubHop/swin-mesa/blob/3127a982c99c720132dcb97669d17ddf177a495b/main.py",
                 "https://github.com/HubHop/swin-mesa/blob/3127a982c99c720132dcb97669d17ddf177a495b/README.md",
                 "https://arxiv.org/abs/2111.11124"],
        "setup": "DeiT-Ti, DeiT-S, DeiT-B and Swin-T trained on ImageNet at 224 x 224, batch 128, fp16 "
                 "AMP (torch autocast for DeiT, apex O1 for Swin), AdamW, one RTX 3090, the baselines "
                 "without Mesa's activation compression",
        "versions": {"torch": "1.7.1 (the README's install line)", "timm": "0.3.2"},
        "date": "2021-11 (README and issue #2 of 2022-01-18)",
        "project": "ziplab/Mesa (Monash ZIP Lab; the paper's code)",
    },
    BNB: {
        "url": "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/1b7b9bb4dadc5255f9edb81b4eb95457023d5880/benchmarking/README.md",
        "also": ["https://github.com/bitsandbytes-foundation/bitsandbytes/blob/073dd100ed2c02c5b37faca5066c8a0efc4cf094/benchmarking/optimizer_benchmark_comprehensive.py"],
        "setup": "Qwen3-0.6B full fine-tune in fp32 (random weights), batch 2 x 128, 13 steps, on an A100 "
                 "80GB: torch AdamW, bnb AdamW8bit, PagedAdamW, PagedAdamW8bit",
        "versions": {"torch": "not printed", "transformers": ">= 4.56 (from_config(dtype=...)); not printed"},
        "date": "2025-2026 (the section's commit)",
        "project": "bitsandbytes-foundation/bitsandbytes",
    },
}

# --------------------------------------------------------------- 1. gpjt/fine-tune-2024-04
QWEN15_05B = {  # Qwen/Qwen1.5-0.5B config.json
    "model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 1024,
    "intermediate_size": 2816, "num_hidden_layers": 24, "num_attention_heads": 16,
    "num_key_value_heads": 16, "hidden_act": "silu", "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "tie_word_embeddings": True,
    "use_cache": True, "use_sliding_window": False, "sliding_window": 32768,
    "max_window_layers": 21, "vocab_size": 151936, "attention_dropout": 0.0,
}
GPJT_UNKNOWN_VERSIONS = ("versions (requirements.txt: torch 2.2.2, transformers 4.40.0, deepspeed "
                         "0.14.2 — the local environment; not recorded per run)",)
GPJT_NOTE = ("gpjt/fine-tune-2024-04 measure_memory_usage_for_batch_size.py: from_pretrained (fp32, "
             "host) before TrainingArguments(deepspeed='ds_config.json') -> no zero.Init; HF Trainer, "
             "fp16=True, learning_rate 8e-5, weight_decay 0.01; ds_config: ZeRO stage 3 (DeepSpeed "
             "defaults otherwise), fp16 enabled, optimizer AdamW (FusedAdam); tokenizer padding="
             "'max_length', max_length=2048, labels = input_ids; stopped at global step 30 (no eval); "
             "CSV = torch.cuda.memory_stats()['active_bytes.all.peak'] // 2**20 after training; ")
GPJT_05B_UNKNOWN = ("GPU (the author's local GPU, not named in the CSV or scripts; RTX 3090 assumed: "
                    "24 GB fits the reserved peaks and the author's later repository names local runs "
                    "'1xrtx3090')", *GPJT_UNKNOWN_VERSIONS)
GPJT_BASE = dict(mode="train", precision="amp-fp16", optimizer="adamw", seq_len=2048,
                 attention="sdpa", zero_stage=3, load_placement="gpu", padding="max_length",
                 loss="standard", torch_version="2.2.2", transformers_version="4.40.0",
                 deepspeed_version="0.14.2")   # the repository's requirements.txt (est20)
add(GPJT, "qwen1.5-0.5b-zero3-fp16-b2-s2048-1gpu", 20228, "MiB", "peak_memory_active", "RTX 3090",
    dict(GPJT_BASE, hf_config=QWEN15_05B, model_name="Qwen1.5-0.5B", micro_batch=2, world_size=1,
         grad_ckpt=False),
    unknown=GPJT_05B_UNKNOWN,
    notes=GPJT_NOTE + "batch-size-memory-modeling-0.5B/results-no-optimizer-offload.csv at 197fd95: "
                      "'2, 20228, 21662, ...' (batch 2: active peak 20,228 MiB, reserved 21,662 MiB); "
                      "batch 3 'OOM'; Qwen/Qwen1.5-0.5B, one GPU, no gradient checkpointing")
add(GPJT, "qwen1.5-0.5b-zero3-fp16-b3-s2048-1gpu-gradckpt", 19288, "MiB", "peak_memory_active",
    "RTX 3090",
    dict(GPJT_BASE, hf_config=QWEN15_05B, model_name="Qwen1.5-0.5B", micro_batch=3, world_size=1,
         grad_ckpt=True),
    unknown=GPJT_05B_UNKNOWN,
    notes=GPJT_NOTE + "batch-size-memory-modeling-0.5B/results-with-gradient-checkpointing-no-"
                      "expandable-segments.csv at 859f8b6: '3, 19288, 21918, ...' (batch 3: active peak "
                      "19,288 MiB); batch 4 'OOM'; model.gradient_checkpointing_enable() (transformers "
                      "4.40 default: reentrant torch checkpoint per decoder layer, use_cache off)")
GPJT_8B_UNKNOWN = ("GPU model (rented Lambda Labs machines per the series; A100-SXM-80GB assumed: "
                   "64 GB active needs an 80 GB part)", *GPJT_UNKNOWN_VERSIONS)
add(GPJT, "llama-3-8b-zero3-fp16-b2-s2048-8gpu", 64180, "MiB", "peak_memory_active", "A100-SXM-80GB",
    dict(GPJT_BASE, model="Llama-3-8B", micro_batch=2, world_size=8, grad_ckpt=False),
    unknown=GPJT_8B_UNKNOWN,
    notes=GPJT_NOTE + "batch-size-memory-modeling-8B/results-no-optimizer-offload.csv at 948adb9: batch 2 "
                      "-> 64,180 MiB active (72,618-72,638 MiB reserved) on every one of the 8 GPUs; "
                      "meta-llama/Meta-Llama-3-8B, pad_token = eos, no gradient checkpointing")
add_oom(GPJT, "llama-3-8b-zero3-fp16-b3-s2048-8gpu", "peak_memory_active", "A100-SXM-80GB",
        dict(GPJT_BASE, model="Llama-3-8B", micro_batch=3, world_size=8, grad_ckpt=False),
        unknown=GPJT_8B_UNKNOWN,
        notes=GPJT_NOTE + "batch-size-memory-modeling-8B/results-no-optimizer-offload.csv at 948adb9: "
                          "'3, OOM' written by all 8 ranks (torch.cuda.OutOfMemoryError caught)")

# ------------------------------------------------------------ 2. Mesa: DeiT and Swin baselines


def deit(width, heads):
    """timm/DeiT VisionTransformer (patch 16, 224, depth 12, MLP ratio 4, qkv bias) as an HF ViT
    config with the same shapes; 1,000 classes."""
    return {"model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": width,
            "num_hidden_layers": 12, "num_attention_heads": heads, "intermediate_size": 4 * width,
            "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True,
            "hidden_act": "gelu", "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
            "layer_norm_eps": 1e-6, "num_labels": 1000}


MESA_UNKNOWN = ("model EMA (DeiT's --model-ema default: an fp32 copy of the weights on the GPU) is not an "
                "estimator input", "cuDNN/CUDA 10.1 workspace sizes of torch 1.7")
MESA_NOTE = ("ziplab/Mesa README 'Results on ImageNet' (baseline row, Mesa off): 'Memory footprint at "
             "training time is measured with a batch size of 128 and an image resolution of 224x224 on a "
             "single GPU'; issue #2: torch.cuda.max_memory_allocated() from the training log, PyTorch "
             "AMP, one RTX 3090; torch 1.7.1 (README install line); ")
DEIT_NOTE = ("deit-mesa c5551a8 main.py: torch.distributed.launch --nproc_per_node 1 (DDP), "
             "torch.cuda.amp.autocast + NativeScaler, timm 0.3.2 create_optimizer('adamw') -> "
             "torch.optim.AdamW (weight decay 0.05), Mixup/CutMix + SoftTargetCrossEntropy, drop 0, "
             "drop_path 0.1, model EMA on the GPU; attention q @ k^T * scale, softmax, @ v "
             "(explicit); MetricLogger 'max mem' = max_memory_allocated() / 1024**2; ")
MESA_BASE = dict(mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=128,
                 image_size=224, grad_ckpt=False, attention="eager", dropout=0.0, world_size=1,
                 foreach=False, torch_version="1.7.1",
                 # est94: torch.distributed.launch --nproc_per_node 1 wraps the model in DDP on one process
                 # (HubHop/deit-mesa main.py, read at 208a2c7: utils.init_distributed_mode sets args.distributed
                 # under the launcher, then DistributedDataParallel(model, device_ids=[args.gpu],
                 # find_unused_parameters=True)): the Reducer's gradient buckets exist at world size 1
                 ddp_one_process=True)
for rid, value, width, heads, name in (("deit-ti-amp-b128", 4171, 192, 3, "DeiT-Ti"),
                                       ("deit-s-amp-b128", 8459, 384, 6, "DeiT-S"),
                                       ("deit-b-amp-b128", 17691, 768, 12, "DeiT-B")):
    add(MESA, rid, value, "MiB", "max_memory_allocated", "RTX 3090",
        dict(MESA_BASE, hf_config=deit(width, heads), model_name=f"{name} (timm VisionTransformer)"),
        unknown=MESA_UNKNOWN,
        notes=MESA_NOTE + DEIT_NOTE + f"{name}: width {width}, {heads} heads, 12 layers; README: "
                                      f"{value:,} MB")
add(MESA, "swin-t-apex-o1-b128", 11812, "MiB", "max_memory_allocated", "RTX 3090",
    # est59: apex O1 patches torch.nn.functional.gelu to fp32 (apex amp/lists/functional_overrides.py:40 at
    # 59978d5e); swin-mesa 3127a98 models/swin_transformer.py:20 builds Mesa's GELU, whose forward with Mesa
    # off calls F.gelu(x) when it runs (ziplab/Mesa 460e19a mesa/custom_gelu.py): the fp32 GELU reaches it
    dict(MESA_BASE, model="Swin-tiny-patch4-window7-224", amp_impl="apex", gelu_at_call=True),
    unknown=(*MESA_UNKNOWN[1:], "apex AMP O1: torch autocast's casts except apex's fp32 GELU (amp_impl apex, "
             "est59); the rest of apex's per-op casts and its cast cache read as autocast's"),
    notes=MESA_NOTE + "swin-mesa 3127a98 main.py: torch.distributed.launch --nproc_per_node 1 (DDP, "
                      "broadcast_buffers False), apex amp.initialize(opt_level='O1') (the --amp-opt-level "
                      "default), torch.optim.AdamW, clip_grad 5.0, configs/swin_tiny_patch4_window7_224.yaml: "
                      "batch 128, drop_path 0.2, embed 96, depths 2-2-6-2, heads 3-6-12-24, window 7; "
                      "window attention with an explicit softmax; log 'mem' = max_memory_allocated() / "
                      "(1024.0 * 1024.0) MB; README (swin-mesa and Mesa): 11,812 MB")

# ----------------------------------------------- 3. bitsandbytes 8-bit optimizer benchmark (A100)
BNB_UNKNOWN = ("torch and transformers versions (not printed; transformers >= 4.56 for "
               "from_config(dtype=...))", "A100 80GB: SXM or PCIe not said (A100-SXM-80GB written)")
BNB_NOTE = ("bitsandbytes benchmarking/README.md at 1b7b9bb, '8-bit Optimizers', 'NVIDIA A100 80GB': "
            "'Peak GPU Memory'; optimizer_benchmark_comprehensive.py at 073dd10 defaults: Qwen/Qwen3-0.6B "
            "AutoModelForCausalLM.from_config(dtype=float32).to('cuda'), batch 2 x 128 random ids, labels "
            "= input_ids, 3 warm-up + 10 steps of outputs = model(...); loss.backward(); "
            "optimizer.step(); optimizer.zero_grad(); reset_peak_memory_stats() before the model is "
            "built, peak = max_memory_allocated() / 1024**2; ")
BNB_BASE = dict(model="Qwen3-0.6B", mode="train", precision="fp32", micro_batch=2, seq_len=128,
                grad_ckpt=False, attention="sdpa", loss="standard", world_size=1,
                padding="max_length", keeps_outputs=True)
for rid, value, opt, what in (
        ("qwen3-0.6b-fp32-b2-s128-adamw", 11609.8, "adamw", "torch.optim.AdamW (foreach): 11609.8 MB"),
        ("qwen3-0.6b-fp32-b2-s128-adamw8bit", 7135.6, "adamw-8bit", "bnb.optim.AdamW8bit: 7135.6 MB"),
        ("qwen3-0.6b-fp32-b2-s128-paged-adamw", 5975.0, "paged-adamw",
         "bnb.optim.PagedAdamW (32-bit states in paged unified memory, 'Optimizer State on GPU 0.5 MB, "
         "on CPU 4547.0 MB'): 5975.0 MB"),
        ("qwen3-0.6b-fp32-b2-s128-paged-adamw8bit", 5983.6, "paged-adamw-8bit",
         "bnb.optim.PagedAdamW8bit ('on GPU 18.6 MB, on CPU 1136.8 MB'): 5983.6 MB")):
    add(BNB, rid, value, "MiB", "max_memory_allocated", "A100-SXM-80GB", dict(BNB_BASE, optimizer=opt),
        unknown=BNB_UNKNOWN, notes=BNB_NOTE + what)


def main():
    write_split("heldout10", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
