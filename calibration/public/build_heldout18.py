"""The eighteenth held-out set (calibration/public/heldout18.json): public measured peaks and out-of-memory
verdicts from seven publishers no earlier set uses, most rows not single-GPU LoRA of a decoder LLM: XTuner's own
documentation and issue threads (InternLM/xtuner: a Qwen3-8B full fine-tune under XTuner v1's FSDP2 on eight GPUs
and a three-layer Qwen3 on one, both read from the trainer's torch.cuda.max_memory_allocated / max_memory_reserved
log, an InternLM2-7B QLoRA quick start and an InternLM2-1.8B reward model read from mmengine's ``memory`` column,
Yi-34B-200K full fine-tunes at 128k tokens under ZeRO-3 that run out of memory on 16, 32 and 64 GPUs, and a
LLaVA-v1.5-13B QLoRA visual instruction tune that does not fit an RTX 3090), IBM's caikit-nlp (Llama-2-7B full
fine-tunes on one A100 80GB that run out of memory: bf16 at batch 7, fp32 at batch 1), the NegCLIP authors
(mertyg/vision-language-models-are-bows: CLIP ViT-B/32 contrastive fine-tunes with hard negatives on an RTX 3060 and
a V100 32GB), Ludwig (ludwig-ai/ludwig: its Llama-2-7B 4-bit QLoRA example running out of memory on a Colab T4),
FastChat (lm-sys/FastChat: the Vicuna-7B FSDP full fine-tune at batch 1 on 8 and 4 A100 40GB), LLM-Workshop
(pacman100/LLM-Workshop: a Llama-2-7B FSDP full fine-tune with paged 32-bit AdamW) and OpenRLHF (a GLM-4-9B DPO
under ZeRO-3 that runs out of memory without FlashAttention); every row sourced, what the source leaves open
recorded as unknown.

Run: python calibration/public/build_heldout18.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names that
bench/public_accuracy.py passes through). Same row format as devset.json (see build_devset.py); verdict-only rows
(``outcome`` "oom", no ``peak_bytes``) count for false fits only. Every figure is the source's own words. The
measurement kind is written per row: XTuner v1 logs ``max_memory: {torch.cuda.max_memory_allocated() / 1024**3:.2f}
GB`` and ``reserved_memory`` from ``max_memory_reserved()`` (xtuner/v1/train/trainer.py: "GB" there is GiB);
mmengine's ``memory`` column is ``torch.cuda.max_memory_allocated()`` in MiB since the last log line; the NegCLIP
comments ("using 9GB", "consumes 28GB") name no counter or unit base, so those rows write the driver's figure
(nvidia-smi) read in GiB and record that as unknown.

1. InternLM/xtuner ``docs/en/get_started/sft.md`` (October 2025): ``torchrun --nproc-per-node 8
   xtuner/v1/train/cli/sft.py --load-from <Qwen3-8B> --chat_template qwen3 --dataset <jsonl> --total-step 100`` and
   its log, ``Step 2/100 ... max_memory: 18.02 GB reserved_memory: 22.20 GB`` on every rank (step 1: 15.90 / 17.87);
   the CLI defaults (xtuner/v1/train/arguments/arguments.py): packs of 4,096 tokens, one pack per GPU, chunked
   cross-entropy (chunk 1,024), AdamW with ``foreach=False``; FSDPConfig: bf16 parameters and reductions, full
   recompute. ``docs/en/get_started/installation.md``: ``torchrun xtuner/v1/train/cli/sft.py --model-cfg
   examples/v1/sft_qwen3_tiny.py`` (a Qwen3-8B config cut to 3 layers of width 512) on one GPU, ``max_memory: 7.06 GB
   reserved_memory: 8.79 GB`` from step 2 on.
2. InternLM/xtuner ``docs/zh_cn/legacy/get_started/quickstart.rst``: QLoRA of InternLM2-Chat-7B on the Colorist data
   with ``internlm2_7b_qlora_colorist_e5`` (one GPU, 2,048-token packs, batch 1, NF4 double quantization, LoRA rank 64
   on every linear layer, fp16 AMP), log ``Iter(train) [ 20/720] ... memory: 13969``;
   ``docs/zh_cn/legacy/reward_model/quick_start.md``: ``internlm2_chat_1_8b_reward_full_ultrafeedback`` (a full
   fine-tune of InternLM2-Chat-1.8B-SFT as a reward model, 4 preference pairs per step, 2,048 tokens, fp16 AMP) "在单卡
   A800 上运行", log lines ``memory: 18021`` ... ``memory: 42186``.
3. InternLM/xtuner ``docs/zh_cn/legacy/acceleration/train_extreme_long_sequence.rst``, table 1 "不同序列长度时，使用
   ZeRO-3 训练 128k 上下文 yi-34B 模型的训练情况": sequence-parallel size 1 with ZeRO-3 on 16, 32 and 64 GPUs: OOM
   (sequence parallel 8 on 16 GPUs: 227 tokens/GPU/s); the benchmark config ``yi_34b_200k_full_alpaca_enzh_128k_sp8``:
   Yi-34B-200K, 131,072-token packs, batch 1, fp16 AMP, AdamW, activation checkpointing.
4. InternLM/xtuner issue #526 (2024-03-29): ``llava_vicuna_13b_v15_qlora_clip_vit_large_p14_336_lora_e1_gpu8_finetune``
   "on my 24GB RTX3090" runs out of memory; the maintainer: "24GB is not enough for llava fine-tuning". The config:
   Vicuna-13B-v1.5 in NF4 with LoRA rank 512 on every linear layer, CLIP ViT-L/14-336 frozen with LoRA rank 64,
   batch 16 per device, 1,472 text + 576 image tokens, fp16 AMP.
5. caikit/caikit-nlp issue #139 (2023-08-23): ``examples/run_fine_tuning.py --dataset glue/rte --model_name
   $LLAMA_HOME --batch_size=$BATCH_SIZE --accumulate_steps 16 --max_source_length 1024 --max_target_length 256
   --torch_dtype bfloat16`` on an A100 80GB: "The max batch size that was successfully tuned: 6 / First batch size
   that failed tuning with an out-of-memory error: 7" (issue #78: the model is Llama-2-7B on an A100 80GB); issue
   #256 (2023-11-01): Llama-2-7b with ``torchDtype float32``, batch 1, source 128 / target 64: "No executable batch
   size found, reached zero" (the Trainer's auto batch finder gives up after out-of-memory at batch 1), gone in bf16.
6. mertyg/vision-language-models-are-bows issue #30: NegCLIP (the README's ``python -m training.main --batch-size=256
   --model ViT-B-32 --pretrained openai``, a fork of open_clip where each batch adds a hard-negative image and two
   hard-negative captions: "batch_size=256 would result in a matrix of size 512x1024") "I could only run at
   batch-size=32 (using 9GB of memory). My GPU is RTX 3060 with 12GB memory" (2023-07-10) and "when I use a batch
   size of 256 on a 32GB V100, it consumes 28GB of GPU memory" (2023-08-22).
7. ludwig-ai/ludwig issue #3583 (2023-09-03): the "Llama2-7b Fine-Tuning with 4bit Quantization" example notebook on
   Colab "OutOfMemoryError: CUDA out of memory. Tried to allocate 86.00 MiB (GPU 0; 14.75 GiB total capacity; 13.37
   GiB already allocated ...)" at step 1,935 of 10,920; ``examples/llama2_7b_finetuning_4bit/llama2_7b_4bit.yaml``:
   4-bit quantization, a LoRA adapter, batch 2, gradient accumulation 8; the README: "in our tests, we used an Nvidia
   T4".
8. lm-sys/FastChat issue #407 (2023-04-13/15): the README's "Fine-tuning Vicuna-7B with Local GPUs" command
   (``train_mem.py``, ``--bf16 True --fsdp "full_shard auto_wrap" --model_max_length 2048 --gradient_checkpointing
   True``, batch 2) runs out of memory on 4 x A100 40GB, "Even downsize the --per_device_train_batch_size 1 ... still
   OOM"; on 8 x A100 40GB "If set batchsize to 1, the model still consumes about 30G on each card".
9. pacman100/LLM-Workshop issue #5 (2023-09-28): "when I run your 7B finetune script, it consumes ~60GB GPU memory
   using FSDP with batch size=1"; ``chat_assistant/training/run_fsdp.sh`` and ``configs/fsdp_config.yaml``:
   Llama-2-7b-chat, FSDP FULL_SHARD on 8 processes with bf16 mixed precision, packed 2,048 tokens, batch 1,
   checkpointing, FlashAttention-2, ``paged_adamw_32bit``.
10. OpenRLHF/OpenRLHF issue #384 (2024-07-23): DPO of glm-4-9b-chat on "A100-80Gx8" with ``--micro_train_batch_size
    1 --bf16 --max_len 2048 --zero_stage 3 --gradient_checkpointing`` "仍然会在训练几十步后报 OOM"; the fix: "似乎是没开
    flash_attn" (FlashAttention was off).

Left out on purpose (decided before scoring, by what is known): XTuner's loss micro-benchmark (a bare LM head, not
a job), GRPO reports whose reference model and generation engine share or split GPUs in ways no field takes
(lsdefine/simple_GRPO #21), DINO/HIPT self-distillation (student and teacher with multi-crop), Whisper reports
whose batch or audio length is not said, and every "fits in N GB" claim with no figure or no configuration."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-18"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

XT_V1 = "xtuner-v1-sft-logs"
XT_MM = "xtuner-mmengine-quickstart-logs"
XT_LONG = "xtuner-yi34b-128k-zero3-oom"
XT_LLAVA = "xtuner-issue-526-llava-qlora-3090"
CAIKIT = "caikit-nlp-llama2-7b-oom"
NEGCLIP = "negclip-issue-30"
LUDWIG = "ludwig-issue-3583-llama2-qlora-t4"
FASTCHAT = "fastchat-issue-407-vicuna-7b-fsdp"
WORKSHOP = "llm-workshop-issue-5-fsdp-7b"
OPENRLHF = "openrlhf-issue-384-dpo-glm4-oom"
GH = "https://github.com"
XT_V1C = f"{GH}/InternLM/xtuner/blob/4b10fa3ed3e68f921a209c362c6711108f1bed81"
XT_TINY = f"{GH}/InternLM/xtuner/blob/3546ecaf107bce6aea3b87ef34680f0e21247105"
XT_DOCS = f"{GH}/InternLM/xtuner/blob/b934f462095c1e750229de35367c50ae36caa786"
XT_COLOR = f"{GH}/InternLM/xtuner/blob/a37b344e57615bcdf3aaab6a967c271c86dd92d1"
XT_REWARD = f"{GH}/InternLM/xtuner/blob/a607fa3c316e08c5343d9b5f4203e5586555d9c5"
XT_YI = f"{GH}/InternLM/xtuner/blob/43ef6ab9972fafd6a614effefcc579be7adc569c"
XT_LV = f"{GH}/InternLM/xtuner/blob/0b5708c49948355ae1406fb99ec6764417aee3fa"
CK_C = f"{GH}/caikit/caikit-nlp/blob/d7433d84a005ff873086330506d81edc57ef45ba"
NC_C = f"{GH}/mertyg/vision-language-models-are-bows/blob/81fdd20dc5b6f434aa5a4a971717bc80d1cedb0d"
LW_C = f"{GH}/ludwig-ai/ludwig/blob/e1d023e41606c9b76b35e1d231c2f13368a30eca"
FC_C = f"{GH}/lm-sys/FastChat/blob/e112299e3c3529de0c430b98fd24743296d273f4"
WS_C = f"{GH}/pacman100/LLM-Workshop/blob/95acb4b034136fd99cdeeb7d8eb5ef8ad28afa1f"
OR_C = f"{GH}/OpenRLHF/OpenRLHF/blob/6a13d95439746251c3ae975b5d69e39c14ea614c"
SOURCES = {
    XT_V1: {
        "url": f"{XT_V1C}/docs/en/get_started/sft.md",
        "also": [f"{XT_V1C}/docs/en/get_started/installation.md", f"{XT_V1C}/xtuner/v1/train/arguments/arguments.py",
                 f"{XT_V1C}/xtuner/v1/config/fsdp.py", f"{XT_V1C}/xtuner/v1/train/trainer.py",
                 f"{XT_TINY}/examples/v1/sft_qwen3_tiny.py"],
        "setup": "XTuner v1 SFT CLI defaults: FSDP2 full sharding with bf16 parameters and reductions (fp32 sharded "
                 "master weights), full activation recompute, 4,096-token packs with one pack per GPU, chunked "
                 "cross-entropy (chunk 1,024), AdamW (foreach=False); Qwen3-8B on 8 GPUs and a 3-layer, width-512 "
                 "Qwen3 on one GPU; the log's max_memory / reserved_memory are max_memory_allocated() / "
                 "max_memory_reserved() divided by 1024**3",
        "versions": {"torch": "not stated (>=2.6.0 in pyproject.toml; 2.6.0 written)",
                     "transformers": "4.56.0 (pyproject pin)", "xtuner": "v1 at 4b10fa3 (October 2025)"},
        "date": "2025-08-29 (sft.md log), 2025-09-08 (installation.md log); docs at 4b10fa3",
        "project": "InternLM/xtuner (Shanghai AI Laboratory)",
    },
    XT_MM: {
        "url": f"{XT_DOCS}/docs/zh_cn/legacy/get_started/quickstart.rst",
        "also": [f"{XT_DOCS}/docs/zh_cn/legacy/reward_model/quick_start.md",
                 f"{XT_COLOR}/xtuner/configs/internlm/internlm2_7b/internlm2_7b_qlora_colorist_e5.py",
                 f"{XT_REWARD}/xtuner/configs/reward_model/internlm/internlm2_chat_1_8b_reward_full_ultrafeedback.py",
                 f"{XT_REWARD}/xtuner/dataset/collate_fns/preference_collate_fn.py"],
        "setup": "XTuner (v0, mmengine runner) logs on one GPU: InternLM2-Chat-7B QLoRA (NF4, double quantization, "
                 "LoRA rank 64 on every linear layer, 2,048-token packs, batch 1, fp16 AMP, activation "
                 "checkpointing) and an InternLM2-Chat-1.8B-SFT reward model trained in full (4 chosen/rejected "
                 "pairs = 8 sequences padded to the longest, at most 2,048 tokens, fp16 AMP over fp32 weights, "
                 "activation checkpointing, AdamW) on an A800; mmengine's memory column is max_memory_allocated() "
                 "in MiB",
        "versions": {"torch": "not stated (2.1.2 written for January 2024, 2.3.0 for June 2024)",
                     "transformers": "not stated (4.36.2 and 4.41.2 written)",
                     "xtuner": "0.1.12 written (January 2024), 0.1.21 written (June 2024)"},
        "date": "2024-01-29 (quickstart log), 2024-06-06 (reward log); docs at b934f46",
        "project": "InternLM/xtuner (Shanghai AI Laboratory)",
    },
    XT_LONG: {
        "url": f"{XT_DOCS}/docs/zh_cn/legacy/acceleration/train_extreme_long_sequence.rst",
        "also": [f"{XT_YI}/xtuner/configs/llama_speed_benchmark/yi_34b/yi_34b_200k_full_alpaca_enzh_128k_sp8.py",
                 f"{XT_YI}/xtuner/configs/deepspeed/deepspeed_zero3.json",
                 f"{XT_DOCS}/docs/zh_cn/legacy/acceleration/benchmark.rst"],
        "setup": "Yi-34B-200K full fine-tune at 131,072 tokens per sample (packed), batch 1 per GPU, DeepSpeed "
                 "ZeRO-3 with fp16 (AmpOptimWrapper float16), activation checkpointing, FlashAttention through "
                 "XTuner's dispatch, no sequence parallelism: out of memory on 16, 32 and 64 GPUs (A100-SXM4-80GB, "
                 "the benchmark page's hardware)",
        "versions": {"torch": "not stated (2.2.1 written: spring 2024)", "transformers": "not stated (4.39.3 "
                     "written)", "deepspeed": "not stated (0.14.0 written)", "flash-attn": "2.x (required for "
                     "sequence parallelism)"},
        "date": "2024 (docs table; config at 43ef6ab, June 2024)",
        "project": "InternLM/xtuner (Shanghai AI Laboratory)",
    },
    XT_LLAVA: {
        "url": f"{GH}/InternLM/xtuner/issues/526",
        "also": [f"{XT_LV}/xtuner/configs/llava/vicuna_13b_v15_clip_vit_large_p14_336/finetune/"
                 "llava_vicuna_13b_v15_qlora_clip_vit_large_p14_336_lora_e1_gpu8_finetune.py",
                 f"{XT_LV}/xtuner/model/llava.py"],
        "setup": "XTuner LLaVA-v1.5-13B QLoRA fine-tune: Vicuna-13B-v1.5 in NF4 (double quantization, fp16 compute), "
                 "LoRA rank 512 on every linear layer of the LLM, CLIP ViT-L/14-336 frozen with LoRA rank 64, "
                 "batch 16 per device, 1,472 text tokens + 576 image tokens, fp16 AMP, activation checkpointing, on "
                 "one RTX 3090: out of memory",
        "versions": {"torch": "not stated (2.2.1 written: March 2024)", "transformers": "not stated (4.38.2 "
                     "written)", "peft": "not stated (0.9.0 written)", "bitsandbytes": "not stated (0.42.0 written)"},
        "date": "2024-03-29 (issue); config at 0b5708c",
        "project": "InternLM/xtuner (Shanghai AI Laboratory)",
    },
    CAIKIT: {
        "url": f"{GH}/caikit/caikit-nlp/issues/139",
        "also": [f"{GH}/caikit/caikit-nlp/issues/78", f"{GH}/caikit/caikit-nlp/issues/256",
                 f"{CK_C}/examples/run_fine_tuning.py",
                 f"{CK_C}/caikit_nlp/modules/text_generation/text_generation_local.py",
                 f"{CK_C}/caikit_nlp/resources/pretrained_model/hf_auto_causal_lm.py"],
        "setup": "caikit-nlp TextGeneration.train on GLUE RTE with Llama-2-7B: Hugging Face Trainer, weights in the "
                 "--torch_dtype (bf16 with bf16=True, or fp32), AdamW, no gradient checkpointing, source+target "
                 "concatenated and padded to the longest in the batch by DataCollatorForLanguageModeling, one A100 "
                 "80GB: out of memory at batch 7 in bf16 and at batch 1 in fp32",
        "versions": {"transformers": "not stated (>=4.31.0 in pyproject; 4.31.0 written)",
                     "torch": "not stated (2.0.1 written: August 2023)", "accelerate": ">=0.18.0 (pyproject)"},
        "date": "2023-08-23 (#139), 2023-11-01 (#256); code at d7433d8",
        "project": "caikit/caikit-nlp (IBM)",
    },
    NEGCLIP: {
        "url": f"{GH}/mertyg/vision-language-models-are-bows/issues/30",
        "also": [f"{NC_C}/README.md"],
        "setup": "NegCLIP fine-tune of OpenAI CLIP ViT-B/32 with the authors' open_clip fork (training.main, fp16 "
                 "AMP, AdamW, no gradient checkpointing): each batch of B pairs holds 2B images (with hard-negative "
                 "images) and 4B captions (with hard-negative captions); B=32 on an RTX 3060 12GB ('using 9GB') and "
                 "B=256 on a V100 32GB ('consumes 28GB')",
        "versions": {"torch": "not stated (2.0.1 written: July/August 2023)", "open_clip": "vinid/open_clip fork "
                     "(2022)"},
        "date": "2023-07-10 and 2023-08-22 (comments); README at 81fdd20",
        "project": "mertyg/vision-language-models-are-bows (Stanford)",
    },
    LUDWIG: {
        "url": f"{GH}/ludwig-ai/ludwig/issues/3583",
        "also": [f"{LW_C}/examples/llama2_7b_finetuning_4bit/llama2_7b_4bit.yaml",
                 f"{LW_C}/examples/llama2_7b_finetuning_4bit/README.md"],
        "setup": "Ludwig's Llama-2-7B 4-bit QLoRA example (NF4, LoRA adapter with Ludwig's defaults, batch 2, "
                 "gradient accumulation 8, Alpaca) on a Colab T4 (14.75 GiB): out of memory at step 1,935",
        "versions": {"ludwig": "not stated (0.8.2 written: September 2023)", "torch": "not stated (2.0.1 written)",
                     "transformers": "not stated (4.33.0 written)", "bitsandbytes": "not stated (0.41.1 written)"},
        "date": "2023-09-03 (issue); example at e1d023e",
        "project": "ludwig-ai/ludwig (Predibase)",
    },
    FASTCHAT: {
        "url": f"{GH}/lm-sys/FastChat/issues/407",
        "also": [f"{FC_C}/README.md", f"{FC_C}/fastchat/train/train.py", f"{FC_C}/fastchat/train/train_mem.py"],
        "setup": "FastChat's Vicuna-7B recipe (train_mem.py: LLaMA-7B loaded in fp32, the Trainer's FSDP 'full_shard "
                 "auto_wrap' of LlamaDecoderLayer with bf16 mixed precision, FlashAttention through the monkey patch, "
                 "gradient checkpointing, every conversation padded to model_max_length 2,048): batch 1 'consumes "
                 "about 30G on each card' on 8 x A100 40GB; batch 1 still out of memory on 4 x A100 40GB",
        "versions": {"torch": "not stated (2.0.0 written: April 2023)", "transformers": "git main of April 2023 "
                     "(4.28.0.dev written)", "flash-attn": "1.x (the monkey patch of the time)"},
        "date": "2023-04-15 (comments); README and train.py at e112299",
        "project": "lm-sys/FastChat (LMSYS)",
    },
    WORKSHOP: {
        "url": f"{GH}/pacman100/LLM-Workshop/issues/5",
        "also": [f"{WS_C}/chat_assistant/training/run_fsdp.sh", f"{WS_C}/chat_assistant/training/configs/fsdp_config.yaml",
                 f"{WS_C}/chat_assistant/training/train.py", f"{WS_C}/chat_assistant/training/utils.py"],
        "setup": "LLM-Workshop's chat-assistant full fine-tune (run_fsdp.sh): Llama-2-7b-chat loaded in fp32 under "
                 "accelerate's FSDP FULL_SHARD (transformer-based wrap, forward prefetch, use_orig_params) with bf16 "
                 "mixed precision on 8 processes, packed 2,048-token sequences, batch 1, gradient checkpointing, "
                 "FlashAttention-2 through the repository's monkey patch, the Trainer's paged_adamw_32bit: '~60GB "
                 "GPU memory'",
        "versions": {"transformers": "git main of September 2023 (4.34.0.dev written)", "torch": "not stated (2.0.1 "
                     "written)", "accelerate": "git main (0.23.0.dev written)", "bitsandbytes": "not stated (0.41.1 "
                     "written)", "flash-attn": "2.x"},
        "date": "2023-09-28 (issue); scripts at 95acb4b",
        "project": "pacman100/LLM-Workshop (Sourab Mangrulkar)",
    },
    OPENRLHF: {
        "url": f"{GH}/OpenRLHF/OpenRLHF/issues/384",
        "also": [f"{OR_C}/openrlhf/cli/train_dpo.py", f"{OR_C}/openrlhf/trainer/dpo_trainer.py",
                 f"{OR_C}/requirements.txt"],
        "setup": "OpenRLHF DPO (openrlhf.cli.train_dpo at 6a13d95) of glm-4-9b-chat on 8 x A100 80GB: DeepSpeed ZeRO-3 "
                 "with bf16 for the policy and a second ZeRO-3 engine (inference only, not offloaded) for the "
                 "reference model, micro batch 1 (chosen and rejected concatenated: 2 sequences), max_len 2,048, "
                 "gradient checkpointing, without --flash_attn: out of memory after some dozens of steps (fixed by "
                 "turning FlashAttention on)",
        "versions": {"openrlhf": "git 6a13d95 (the issue's own)", "transformers": "4.42.4 (requirements.txt)",
                     "deepspeed": "0.14.4 (requirements.txt)", "flash-attn": "2.6.1 installed, not enabled",
                     "torch": "not stated (2.3.1 written: July 2024)"},
        "date": "2024-07-23 (issue); code at 6a13d95",
        "project": "OpenRLHF/OpenRLHF",
    },
}

# ------------------------------------------------------------------ 1. XTuner v1: FSDP2 logs (max_memory_allocated / reserved)
XT_V1_BASE = dict(mode="train", precision="amp-bf16", optimizer="adamw", foreach=False, micro_batch=1, grad_accum=1,
                  seq_len=4096, padding="packed", grad_ckpt=True, attention="flash", loss="chunked", fsdp="full",
                  fsdp_version=2, torch_version="2.6.0", transformers_version="4.56.0")
XT_V1_UNKNOWN = ("the GPU is not named (an A800 80GB written: the allocator's figures do not depend on it); XTuner v1 "
                 "runs its own Qwen3 implementation (not transformers'), written as the catalog's shapes",
                 "fp32 parameters sharded by fully_shard with a bf16 MixedPrecisionPolicy written as amp-bf16 under "
                 "FSDP version 2; reshard_after_forward on",
                 "'GB' in the log is bytes / 1024**3 (xtuner/v1/train/trainer.py): GiB",
                 "step 2 (after the first optimizer step created the AdamW states) written, the largest figure the "
                 "docs print; torch not stated (2.6.0 written, the pyproject floor)")
XT_V1_NOTE = "xtuner docs/en/get_started/sft.md: 'Step 2/100 ... max_memory: 18.02 GB reserved_memory: 22.20 GB'"
add(XT_V1, "qwen3-8b-sft-fsdp2-8gpu-pack4096-allocated", 18.02, "GiB", "max_memory_allocated", "A800-80GB",
    dict(XT_V1_BASE, model="Qwen3-8B", world_size=8), unknown=XT_V1_UNKNOWN,
    notes=XT_V1_NOTE + " on all eight ranks (step 1: 15.90 / 17.87)")
add(XT_V1, "qwen3-8b-sft-fsdp2-8gpu-pack4096-reserved", 22.20, "GiB", "memory_reserved", "A800-80GB",
    dict(XT_V1_BASE, model="Qwen3-8B", world_size=8), unknown=XT_V1_UNKNOWN,
    notes=XT_V1_NOTE + "; the same run's max_memory_reserved()")
QWEN3_TINY = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "hidden_size": 512,
              "intermediate_size": 12288, "num_hidden_layers": 3, "num_attention_heads": 32, "num_key_value_heads": 8,
              "head_dim": 128, "vocab_size": 151936, "max_position_embeddings": 40960, "rope_theta": 1000000.0,
              "rms_norm_eps": 1e-06, "tie_word_embeddings": False}
TINY_UNKNOWN = (*XT_V1_UNKNOWN[1:],
                "Qwen3Dense8BConfig(num_hidden_layers=3, hidden_size=512): the other fields are Qwen3-8B's (written "
                "inline: intermediate 12,288, 32 heads of 128, 8 KV heads, vocabulary 151,936, untied head); "
                "randomly initialised (no --load-from)",
                "the GPU is not named (an A800 80GB written)")
TINY_NOTE = ("xtuner docs/en/get_started/installation.md: 'torchrun xtuner/v1/train/cli/sft.py --model-cfg "
             "examples/v1/sft_qwen3_tiny.py ...'; 'Step 2/13 ... max_memory: 7.06 GB reserved_memory: 8.79 GB' "
             "(the same through step 5; step 1: 5.36 / 7.05)")
add(XT_V1, "qwen3-tiny-3l-h512-sft-fsdp2-1gpu-pack4096-allocated", 7.06, "GiB", "max_memory_allocated", "A800-80GB",
    dict(XT_V1_BASE, hf_config=QWEN3_TINY, model_name="Qwen3-8B cut to 3 layers, width 512", world_size=1),
    unknown=TINY_UNKNOWN, notes=TINY_NOTE)
add(XT_V1, "qwen3-tiny-3l-h512-sft-fsdp2-1gpu-pack4096-reserved", 8.79, "GiB", "memory_reserved", "A800-80GB",
    dict(XT_V1_BASE, hf_config=QWEN3_TINY, model_name="Qwen3-8B cut to 3 layers, width 512", world_size=1),
    unknown=TINY_UNKNOWN, notes=TINY_NOTE + "; the same run's max_memory_reserved()")

# ------------------------------------------------------------------ 2. XTuner v0 (mmengine) logs: QLoRA and a reward model
INTERNLM2_7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
                "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
                "num_key_value_heads": 8, "vocab_size": 92544, "max_position_embeddings": 32768,
                "rope_theta": 1000000.0, "rms_norm_eps": 1e-05, "tie_word_embeddings": False,
                # est50: the repository's config names its remote modeling code
                "auto_map": {"AutoModelForCausalLM": "modeling_internlm2.InternLM2ForCausalLM"}}
INTERNLM2_1_8B = dict(INTERNLM2_7B, hidden_size=2048, intermediate_size=8192, num_hidden_layers=24,
                      num_attention_heads=16)
MM_UNKNOWN = ("mmengine's memory column is torch.cuda.max_memory_allocated() // 2**20 since the previous log line "
              "(MiB); the largest printed value written",
              "InternLM2 (remote code, fused wqkv) written as a Llama-shaped config with its sizes: the fused "
              "projection has the same parameters as separate q/k/v")
add(XT_MM, "internlm2-chat-7b-qlora-r64-all-linear-pack2048-1gpu", 13969, "MiB", "max_memory_allocated", "A100-SXM-80GB",
    dict(mode="train", hf_config=INTERNLM2_7B, model_name="InternLM2-Chat-7B", precision="amp-fp16",
         optimizer="adamw", micro_batch=1, grad_accum=16, seq_len=2048, padding="packed", grad_ckpt=True,
         attention="flash", world_size=1, quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=True,
         lora_r=64, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
         lora_dropout=0.1, loss="standard", use_cache=False, torch_version="2.1.2", transformers_version="4.36.2"),
    unknown=(*MM_UNKNOWN,
             "the GPU is not named (an A100 80GB written); FlashAttention through XTuner's dispatch assumed (packed "
             "2,048-token samples, use_varlen_attn False)",
             "LoRA on every linear layer but the output head (find_all_linear_names: wqkv, wo, w1, w2, w3), rank 64, "
             "alpha 16, dropout 0.1; prepare_model_for_kbit_training called by SupervisedFinetune",
             "the versions are not stated (torch 2.1.2, transformers 4.36.2 written: January 2024)"),
    notes="xtuner quickstart.rst (InternLM2-Chat-7B, internlm2_7b_qlora_colorist_e5): '01/29 21:36:02 ... Iter(train) "
          "[ 20/720] ... memory: 13969' (10 iterations: 12762; 30 to 100: 13969)")
add(XT_MM, "internlm2-chat-1.8b-reward-full-ampfp16-b4pairs-s2048-a800", 42186, "MiB", "max_memory_allocated",
    "A800-80GB",
    dict(mode="train", hf_config=INTERNLM2_1_8B, model_name="InternLM2-Chat-1.8B-SFT (reward model)",
         task="sequence-classification", num_labels=1, precision="amp-fp16", optimizer="adamw", micro_batch=8,
         grad_accum=16, seq_len=2048, padding="dynamic", grad_ckpt=True, attention="flash", world_size=1,
         use_cache=False, torch_version="2.3.0", transformers_version="4.41.2"),
    unknown=(*MM_UNKNOWN,
             "4 preference pairs per step: preference_collate_fn splits each into chosen and rejected, 8 sequences "
             "padded to the longest (UltraFeedback answers, truncated at 2,048 tokens; the longest reaching 2,048 "
             "written)",
             "the reward head is a 1-output linear v_head on the backbone's hidden states (no LM head logits): "
             "written as a 1-label classification head",
             "fp16 AMP over fp32 weights (AmpOptimWrapper dtype float16, no torch_dtype in the config); "
             "FlashAttention through XTuner's dispatch assumed; the versions are not stated (torch 2.3.0, "
             "transformers 4.41.2 written: June 2024)"),
    notes="xtuner reward_model/quick_start.md ('在单卡 A800 上运行'): 'Iter(train) [ 10/15230] ... memory: 18021', "
          "'[ 20/15230] ... memory: 42180', '[ 40/15230] ... memory: 42186', '[ 70/15230] ... memory: 42186'")

# ------------------------------------------------------------------ 3. XTuner: Yi-34B-200K at 128k tokens under ZeRO-3
YI_34B_200K = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 7168,
               "intermediate_size": 20480, "num_hidden_layers": 60, "num_attention_heads": 56,
               "num_key_value_heads": 8, "vocab_size": 64000, "max_position_embeddings": 200000,
               "rope_theta": 5000000.0, "rms_norm_eps": 1e-05, "tie_word_embeddings": False}
YI_BASE = dict(mode="train", hf_config=YI_34B_200K, model_name="Yi-34B-200K", precision="fp16", optimizer="adamw",
               micro_batch=1, grad_accum=8, seq_len=131072, padding="packed", grad_ckpt=True, attention="flash",
               zero_stage=3, overlap_comm=True, loss="standard", use_cache=False, devices_per_node=8,
               torch_version="2.2.1", transformers_version="4.39.3", deepspeed_version="0.14.0")
YI_UNKNOWN = ("the table gives GPU counts and OOM only; the command is the sp8 benchmark config with "
              "sequence_parallel_size 1 (131,072-token packs, batch 1, accumulation 8, fp16 AMP mapped to DeepSpeed "
              "fp16 with fp32 master weights in the optimizer partition)",
              "A100-SXM4-80GB from the benchmark page of the same docs (not restated in the table); nodes of 8",
              "the model is loaded without torch_dtype (fp32) and DeepSpeed ZeRO-3 partitions it at init; "
              "deepspeed_zero3.json: stage 3, overlap_comm, default bucket sizes",
              "the versions are not stated (torch 2.2.1, transformers 4.39.3, DeepSpeed 0.14.0 written: spring 2024)")
YI_NOTE = ("xtuner train_extreme_long_sequence.rst, table 1 '不同序列长度时，使用 ZeRO-3 训练 128k 上下文 yi-34B 模型的训练情况': "
           "SP 1, yi-34B, ZeRO-3, ")
for gpus in (16, 32, 64):
    add_oom(XT_LONG, f"yi-34b-200k-full-ft-zero3-fp16-s131072-{gpus}xa100-80gb", "nvidia-smi", "A100-SXM-80GB",
            dict(YI_BASE, world_size=gpus), unknown=YI_UNKNOWN, notes=YI_NOTE + f"{gpus} GPUs: OOM")

# ------------------------------------------------------------------ 4. XTuner issue #526: LLaVA-1.5-13B QLoRA on an RTX 3090
add_oom(XT_LLAVA, "llava-v1.5-13b-qlora-r512-b16-s2048-rtx3090", "nvidia-smi", "RTX-3090-24GB",
        dict(mode="train", model="LLaVA-1.5-13B", precision="amp-fp16", optimizer="adamw", micro_batch=16,
             grad_accum=1, seq_len=2048, padding="dynamic", image_size=336, grad_ckpt=True, attention="sdpa",
             world_size=1, quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=True, lora_r=512,
             lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
             lora_dropout=0.05, loss="standard", use_cache=False, torch_version="2.2.1",
             transformers_version="4.38.2"),
        unknown=("the issue runs the gpu8 config on one RTX 3090 unchanged (batch 16 per device); conversations padded "
                 "to the longest, 1,472 text tokens + 576 image tokens at most (the longest reaching 2,048 written)",
                 "the CLIP tower also gets LoRA rank 64 (visual_encoder_lora): no field takes adapters on the tower; "
                 "the projector is loaded from the pretrain stage and trained",
                 "LoRA on every linear layer of the LLM (find_all_linear_names), rank 512, alpha 256; "
                 "prepare_model_for_kbit_training called; attention kernel not said (sdpa written)",
                 "the versions are not stated (torch 2.2.1, transformers 4.38.2 written: March 2024)"),
        notes="xtuner issue #526 (dongyang2011, 2024-03-29): 'I encountered a lack of GPU memory when attempting to "
              "fine-tune using the configuration of llava_vicuna_13b_v15_qlora_clip_vit_large_p14_336_lora_e1_gpu8_"
              "finetune on my 24GB RTX3090'; LZHgrla: '24GB is not enough for llava fine-tuning'")

# ------------------------------------------------------------------ 5. caikit-nlp: Llama-2-7B full fine-tunes on an A100 80GB
CK_BASE = dict(mode="train", model="Llama-2-7B", optimizer="adamw", grad_accum=16, padding="dynamic", grad_ckpt=False,
               attention="eager", world_size=1, loss="standard", torch_version="2.0.1", transformers_version="4.31.0")
CK_UNKNOWN = ("the Trainer's default optimizer of transformers 4.31 (torch AdamW states in the weights' dtype); no "
              "gradient checkpointing is set; transformers before 4.36 runs Llama's eager attention",
              "GLUE RTE premise+hypothesis with the label appended, padded to the longest in the batch: far below "
              "the length caps; 320 tokens written for the longest batch (an estimate from RTE's longest pairs)",
              "the versions are not stated (transformers 4.31.0, torch 2.0.1 written: the pyproject floor, 2023)")
add_oom(CAIKIT, "llama2-7b-full-ft-bf16-b7-rte-a100-80gb", "nvidia-smi", "A100-SXM-80GB",
        dict(CK_BASE, precision="bf16", micro_batch=7, seq_len=320),
        unknown=(*CK_UNKNOWN, "LLAMA_HOME is Llama-2-7B by issue #78 of the same tester; SXM or PCIe not said"),
        notes="caikit-nlp issue #139 (olson-ibm, 2023-08-23): 'The max batch size that was successfully tuned: 6 / "
              "First batch size that failed tuning with an out-of-memory error: 7' with --batch_size=$BATCH_SIZE "
              "--accumulate_steps 16 --max_source_length 1024 --max_target_length 256 --torch_dtype bfloat16")
add_oom(CAIKIT, "llama2-7b-full-ft-fp32-b1-rte-a100-80gb", "nvidia-smi", "A100-SXM-80GB",
        dict(CK_BASE, precision="fp32", micro_batch=1, seq_len=192, grad_accum=1, torch_version="2.1.0",
             transformers_version="4.34.1"),
        unknown=(*CK_UNKNOWN[:2],
                 "the GPU is not named in #256 (the team's A100 80GB of #78/#139 written); 'No executable batch size "
                 "found' is accelerate's find_executable_batch_size giving up after out-of-memory at batch 1; "
                 "source 128 + target 64 = 192 tokens written as the cap",
                 "the versions are not stated (transformers 4.34.1, torch 2.1.0 written: November 2023)"),
        notes="caikit-nlp issue #256 (Ssukriti, 2023-11-01): Llama-2-7b with torchDtype float32, batchSize 1, "
              "maxSourceLength 128, maxTargetLength 64: 'RuntimeError: No executable batch size found, reached zero.'; "
              "'Error seems to go away when switching from torch_dtype float32 to bfloat16'")

# ------------------------------------------------------------------ 6. NegCLIP: CLIP ViT-B/32 with hard negatives
NC_BASE = dict(mode="train", model="CLIP-ViT-B-32", precision="amp-fp16", optimizer="adamw", grad_accum=1,
               image_size=224, seq_len=77, padding="max_length", grad_ckpt=False, attention="sdpa", torch_mha=True,
               world_size=1, torch_version="2.0.1", transformers_version="4.30.2")
NC_UNKNOWN = ("'9GB' / '28GB' name no counter or unit base: the driver's figure (nvidia-smi) in GiB written",
              "NegCLIP's batch of B pairs is 2B images and 4B captions ('batch_size=256 would result in a matrix of "
              "size 512x1024'); one micro_batch field takes both towers: 3B written, the batch at which the two "
              "towers' activations (text 4B x 77 tokens x width 512, image 2B x 50 tokens x width 768) equal the "
              "same batch in both towers",
              "the fork's defaults assumed (fp16 AMP, AdamW, no gradient checkpointing, no torch.compile); "
              "transformers is not used by open_clip (4.30.2 written for the field)",
              # est55: the kernel follows the torch written (the row said eager next to torch 2.0.1)
              "attention: open_clip's ResidualAttentionBlock calls nn.MultiheadAttention with need_weights=False, "
              "and from torch 2.0 F.multi_head_attention_forward runs scaled_dot_product_attention on that path "
              "(preflight/estimate/terms.py mha_output_copied); the repository's own environment script (scripts/create_environment.sh at 42dbb5e; the training fork's requirements were not read) installs "
              "torch unpinned ('pip install torch>=1.13.1' unquoted: the shell takes '>=1.13.1' as a redirection), "
              "the PyPI release of mid-2023 (2.0.1), so sdpa is written (eager before est55)")
#: est65: what the README's setting (batch 256: 512 images and 1,024 captions per step, fp16 AMP, no checkpointing,
#: OpenAI weights, so QuickGELU: vinid/open_clip e680f8e ``build_model_from_openai_state_dict(..., quick_gelu=True)``)
#: must keep for backward, counted from the fork's ``ResidualAttentionBlock`` ops (tests/test_est65_negclip_floor.py)
NC_FLOOR_B256 = ("the stated setting cannot have produced 28 GiB: per layer and token the fork's ResidualAttentionBlock "
                 "keeps at least 20 x width + 6 x MLP width bytes (ln_1 and ln_2 inputs in fp32, the fp16 inputs of "
                 "in_proj, out_proj and c_fc, q/k/v, and QuickGELU's input, sigmoid output and product; "
                 "22,528 B text, 33,792 B image), x 12 layers x (1,024 captions x 77 + 512 images x 50 tokens) = "
                 "31.70 GB, plus 16 bytes per parameter (fp32 weights, gradients, AdamW) x 151.3M = 2.42 GB: 31.77 GiB "
                 "of tensors, above the reading and the 32 GB card's 31.75 GiB; with nn.GELU (two MLP tensors) the "
                 "same count is 26.4 GiB, so the run was likely not the README's QuickGELU setting "
                 "(docs/calibration.md, est65)")
add(NEGCLIP, "clip-vit-b32-negclip-b32-ampfp16-rtx3060", 9, "GiB", "nvidia-smi", "RTX-3060-12GB",
    dict(NC_BASE, micro_batch=96), unknown=(*NC_UNKNOWN, "torch not stated (2.0.1 written: July 2023)"),
    notes="vision-language-models-are-bows issue #30 (wangzehao0704, 2023-07-10): 'Although I used the same "
          "configuration and commands in your repository, I could only run at batch-size=32 (using 9GB of memory). "
          "My GPU is RTX 3060 with 12GB memory'")
add(NEGCLIP, "clip-vit-b32-negclip-b256-ampfp16-v100-32gb", 28, "GiB", "nvidia-smi", "V100-SXM2-32GB",
    dict(NC_BASE, micro_batch=768),
    unknown=(*NC_UNKNOWN, "SXM2 or PCIe not said (SXM2 written); torch not stated (2.0.1 written: August 2023)"),
    # est65: the stated setting's floor, counted by hand from the fork's code (vinid/open_clip e680f8e)
    not_scored=NC_FLOOR_B256,
    notes="vision-language-models-are-bows issue #30 (wujianP, 2023-08-22): 'when I use a batch size of 256 on a "
          "32GB V100, it consumes 28GB of GPU memory'")

# ------------------------------------------------------------------ 7. Ludwig: Llama-2-7B QLoRA example on a Colab T4
add_oom(LUDWIG, "llama2-7b-qlora-nf4-r8-b2-alpaca-t4", "nvidia-smi", "T4-16GB",
        dict(mode="train", model="Llama-2-7B", precision="amp-fp16", optimizer="adamw", micro_batch=2, grad_accum=8,
             seq_len=512, padding="dynamic", grad_ckpt=False, attention="eager", world_size=1, quant="4bit",
             quant_type="nf4", double_quant=True, kbit_prepared=False, lora_r=8, lora_targets=["q_proj", "v_proj"],
             lora_dropout=0.05, loss="standard", torch_version="2.0.1", transformers_version="4.33.0"),
        unknown=("the notebook's config is the example's llama2_7b_4bit.yaml (4-bit, lora, batch 2, accumulation 8); "
                 "Ludwig's defaults assumed for the rest: NF4 with double quantization and fp16 compute, LoRA rank "
                 "8 on q_proj/v_proj (peft's Llama default), no gradient checkpointing; eager attention "
                 "(transformers 4.33)",
                 "the failure came at step 1,935 of 10,920: a long batch; instruction + output written as 512 tokens "
                 "(Ludwig's text defaults cap each feature at 256 tokens), padded to the longest",
                 "the verdict is the allocator's ('13.37 GiB already allocated' of 14.75 GiB on a T4, no bf16)",
                 "the versions are not stated (Ludwig 0.8.2, torch 2.0.1, transformers 4.33.0 written: September 2023)"),
        notes="ludwig issue #3583 (charleslbryant, 2023-09-03): 'Running the Llama2-7b Fine-Tuning with 4bit "
              "Quantization example notebook in Colab fails': 'Training: 18%| 1935/10920 ... OutOfMemoryError: CUDA "
              "out of memory. Tried to allocate 86.00 MiB (GPU 0; 14.75 GiB total capacity; 13.37 GiB already "
              "allocated; 80.81 MiB free; 13.79 GiB reserved in total by PyTorch)'")


# ------------------------------------------------------------------ 8. FastChat: Vicuna-7B under FSDP on A100 40GB
FC_BASE = dict(mode="train", model="Llama-2-7B", precision="amp-bf16", optimizer="adamw", micro_batch=1,
               grad_accum=16, seq_len=2048, padding="max_length", grad_ckpt=True, attention="flash", fsdp="full",
               fsdp_version=1, loss="standard", use_cache=False, devices_per_node=8, torch_version="2.0.0",
               transformers_version="4.28.0")
FC_UNKNOWN = ("the README's command with per_device_train_batch_size lowered to 1 (both comments say so); every "
              "conversation is padded to 2,048 tokens by preprocess (padding='max_length')",
              "LLaMA-7B has Llama-2-7B's shapes (written); fp32 weights sharded by the Trainer's FSDP with a bf16 "
              "MixedPrecision policy, LlamaDecoderLayer units",
              "the versions are not stated (torch 2.0.0, transformers 4.28.0.dev written: April 2023); A100 SXM or "
              "PCIe not said (SXM written)")
add(FASTCHAT, "llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-8xa100-40gb", 30, "GiB", "nvidia-smi", "A100-SXM-40GB",
    dict(FC_BASE, world_size=8),
    unknown=(*FC_UNKNOWN, "'about 30G' names no counter or unit base: the driver's figure (nvidia-smi) in GiB written"),
    notes="FastChat issue #407 (yzxyzh, 2023-04-15): 'we have tried to train the 7b model on A100 40G * 8, with "
          "default settings. And all GPU memories are almost eaten up. If set batchsize to 1, the model still "
          "consumes about 30G on each card.'")
add_oom(FASTCHAT, "llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-4xa100-40gb", "nvidia-smi", "A100-SXM-40GB",
        dict(FC_BASE, world_size=4, devices_per_node=4), unknown=FC_UNKNOWN,
        notes="FastChat issue #407 (puppet101, 2023-04-13): 'I used the training script in the readme, and didn't "
              "change the data and parameters, but my gpu memory still run out' on 4xA100 40G; CiaoHe: 'Even "
              "downsize the --per_device_train_batch_size 1 # original 2 still OOM'")


# ------------------------------------------------------------------ 9. LLM-Workshop: Llama-2-7B FSDP full fine-tune, paged AdamW
add(WORKSHOP, "llama2-7b-chat-full-ft-fsdp-full-ampbf16-paged-adamw-b1-s2048-8gpu", 60, "GiB", "nvidia-smi",
    "A100-SXM-80GB",
    dict(mode="train", model="Llama-2-7B", precision="amp-bf16", optimizer="paged-adamw", micro_batch=1, grad_accum=2,
         seq_len=2048, padding="packed", grad_ckpt=True, attention="flash", world_size=8, devices_per_node=8,
         fsdp="full", fsdp_version=1, fsdp_by_accelerate=True, loss="standard", use_cache=False,
         torch_version="2.0.1", transformers_version="4.34.0"),
    unknown=("'~60GB' names no counter or unit base: the driver's figure (nvidia-smi) in GiB written",
             "the comment does not say how many GPUs or which: the config's num_processes 8 and an A100 80GB written "
             "(the script is the workshop's 8-GPU recipe)",
             "from_pretrained without torch_dtype: fp32 weights, sharded by FSDP with accelerate's bf16 mixed "
             "precision; the optimizer is TrainingArguments' paged_adamw_32bit (bitsandbytes, 32-bit states in "
             "paged memory)",
             "the versions are git mains of September 2023 (transformers 4.34.0.dev, torch 2.0.1 written)"),
    notes="LLM-Workshop issue #5 (yuanenming, 2023-09-28): 'when I run your 7B finetune script, it consumes ~60GB GPU "
          "memory using FSDP with batch size=1. Is this normal?'; run_fsdp.sh: --max_seq_len 2048 --packing True "
          "--per_device_train_batch_size 1 --use_gradient_checkpointing --use_flash_attn True --bf16 True. "
          "est37 doubt (label unchanged): with 8 processes every modelled term (fp32 shards, FSDP1 without the "
          "rate limiter holding every unit, the paged states resident) reaches about 40 GiB; fsdp_config.yaml "
          "also sets use_orig_params and forward_prefetch, which no field takes; the same job on 4 GPUs (which "
          "the comment does not rule out) is estimated at 52 GiB")


# ------------------------------------------------------------------ 10. OpenRLHF: DPO of GLM-4-9B under ZeRO-3 without FlashAttention
GLM4_9B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 13696, "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 2,
           "vocab_size": 151552, "max_position_embeddings": 131072, "rope_theta": 10000.0, "rms_norm_eps": 1.5625e-07,
           "tie_word_embeddings": False,
           # est50: the repository's config names its remote modeling code
           "auto_map": {"AutoModelForCausalLM": "modeling_chatglm.ChatGLMForConditionalGeneration"}}
add_oom(OPENRLHF, "glm4-9b-chat-dpo-zero3-bf16-pair-s2048-eager-8xa100-80gb", "nvidia-smi", "A100-SXM-80GB",
        dict(mode="train", hf_config=GLM4_9B, model_name="glm-4-9b-chat (DPO policy)", precision="bf16",
             optimizer="adamw", micro_batch=2, grad_accum=16, seq_len=2048, padding="dynamic", grad_ckpt=True,
             attention="eager", world_size=8, devices_per_node=8, zero_stage=3, loss="standard", use_cache=False,
             torch_version="2.3.1", transformers_version="4.42.4", deepspeed_version="0.14.4", frozen_models=1,
             # est67 (in-sample): RewardDataset (openrlhf/datasets/reward_dataset.py at 6a13d95, lines
             # 133-148) tokenizes chosen and rejected with max_length=self.max_length, truncation=True
             # (only a prompt of max_length - 2 or more is filtered, line 108)
             truncation="truncate"),
        unknown=("DPO's reference model is a second full copy under its own ZeRO-3 inference engine (bf16, sharded, "
                 "not offloaded): no field took it when the row was written, so the row described the policy "
                 "alone; est37 added frozen_models (1 here: train_dpo.py builds the reference with "
                 "get_ds_eval_config(offload=args.ref_offload), stage 3 kept, --ref_offload not given)",
                 "chosen and rejected of the one pair per GPU are concatenated into 2 sequences padded to the longer, "
                 "at most 2,048 tokens (the longest reaching 2,048 written); global batch 128 on 8 GPUs is "
                 "accumulation 16",
                 "glm-4-9b (remote code: fused QKV with 2 KV groups, SwiGLU of 13,696, 151,552-token vocabulary, "
                 "untied head) written as a Llama-shaped config with those sizes; without --flash_attn the remote "
                 "code's own attention runs (eager written)",
                 "the failure came after some dozens of steps with some GPUs near 80G and others at 40-60G: a long "
                 "batch; torch not stated (2.3.1 written)"),
        notes="OpenRLHF issue #384 (UbeCc, 2024-07-23): 'glm-4-9b-chat ... A100-80Gx8 ... (bsize=128, "
              "micro_train_bsize=1, bf16, zero3, gradient_checkpointing)，仍然会在训练几十步后报 OOM' with deepspeed "
              "--module openrlhf.cli.train_dpo --max_len 2048 --zero_stage 3 --beta 0.1 --gradient_checkpointing; "
              "'fixed 似乎是没开 flash_attn，会多占关键几 G 内存'")


def main():
    write_split("heldout18", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
