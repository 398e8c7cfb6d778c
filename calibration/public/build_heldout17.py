"""The seventeenth held-out set (calibration/public/heldout17.json): public measured peaks and out-of-memory
verdicts from twelve publishers no earlier set uses, chosen so that most rows are not single-GPU LoRA of a decoder
LLM: Swin Transformer ImageNet training logs (microsoft/Swin-Transformer issues, torch.cuda.max_memory_allocated in
MiB), a Flan-T5-large encoder-decoder fine-tune in fp32 (lyutyuh/ASP), RoBERTa-base and DistilBERT multi-label
classifiers with simpletransformers' defaults on a 15 GB cloud GPU, an unsupervised SimCSE RoBERTa-large batch that
does not fit an RTX 3090 (princeton-nlp/SimCSE), LLaVA visual instruction tuning under DeepSpeed ZeRO-2/ZeRO-3 on
eight A100 40GB and under FSDP on one A100 80GB that runs out of memory (haotian-liu/LLaVA), a Llama-2-7B FSDP
full-shard pretraining run on sixteen A100 40GB that ran out of memory while the model kept its KV cache
(iwiwi/epochraft-hf-fsdp), ToolLLaMA-7B full (FSDP) and LoRA (ZeRO-2 with the optimizer on the CPU) fine-tunes at
8,192 tokens on four A100 80GB (OpenBMB/ToolBench), long-context fine-tunes
that run out of memory (LongLoRA's 32k LoRA SFT on eight A100 40GB under ZeRO-2, YaRN's 64k full fine-tune on two
A100 80GB), a StarCoder 8-bit LoRA at 8,192 tokens on one A100 80GB (bigcode-project/starcoder) and two 8-bit LoRA
reports of LLaMA-7B/13B on an RTX 4090 (tloen/alpaca-lora, lxe/simple-llm-finetuner); every row sourced, what the
source leaves open recorded as unknown.

Run: python calibration/public/build_heldout17.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names
that bench/public_accuracy.py passes through). Same row format as devset.json (see build_devset.py); verdict-only
rows (``outcome`` "oom", no ``peak_bytes``) count for false fits only. Every figure is the source's own words. The
measurement kind is written per row: the Swin rows are the training log's ``mem {torch.cuda.max_memory_allocated()
/ 2**20:.0f}MB`` (MiB, read from main.py); "25870MiB" is nvidia-smi's own format; every other figure ("17 gb",
"4,5 GB", "16-17GB") names no counter and no unit base, so the row writes the driver's figure (nvidia-smi) read in
GiB and records that as unknown.

1. microsoft/Swin-Transformer issue #192 (2022-05-13, "zipped ImageNet processing scripts"): a user training
   ``swin_small_patch4_window7_224`` with the repository's ``main.py`` "set 4GPUs with bs48. it work!" and pasted
   the log, ``Train: [16/300][860/6672] ... mem 7785MB`` (6,672 steps per epoch = 1,281,167 images / (4 x 48)).
   Issue #183 (2022-03-14, "Failed to reproduce the performance reported in the Table6 (Swin V2)"): a log of
   ``swin_v1_tiny_patch4_window7_224_WindowAttention`` with ``[14/300][510/1251] ... mem 14764MB`` (1,251 steps per
   epoch: a global batch of 1,024). ``main.py`` logs ``torch.cuda.max_memory_allocated() / (1024.0 * 1024.0)``;
   the configs train with AdamW, fp16 mixed precision (apex O1 at the time, PyTorch AMP later), 224 px, Mixup/CutMix
   and no gradient checkpointing unless ``--use-checkpoint``.
2. lyutyuh/ASP issue #7 (2023-06-04): "I've been able to start training t5_large based ere model with
   flant5_large_conll04 config (except use_amp, I changed it to false. V100 is not working with bf16). It requires
   25870MiB of GPU memory."; ``configs/ere.conf`` at 5ed9aed: batch_size 8, max_segment_len 256, AdamW,
   ``google/flan-t5-large``.
3. ThilinaRajapakse/simpletransformers issue #480 (2020-06-15): "I'm working on google cloud instance with a GPU with
   15 GB of available memory ... roberta-base uses 4,5 GB memory and distilbert uses only 2,5 GB" for multi-label
   text classification with the library's defaults (``model_args.py``: train_batch_size 8, max_seq_length 128,
   fp16 True with apex opt level O1, AdamW).
4. princeton-nlp/SimCSE issue #49 (2021-06-28): "I tried unsup-robert-large train with batch_size=512, resulting in
   OOM on a single 3090 GPU"; ``run_unsup_example.sh``: max_seq_length 32, ``--fp16``, cls pooler; unsupervised
   SimCSE encodes every sentence twice (two dropout views).
5. haotian-liu/LLaVA issues #655 (2023-10-24: LLaVA-v1.5-7B visual instruction tuning "2 nodes with 8xA100(40G)s
   ... still reports OOM" with ``--deepspeed ./scripts/zero2.json --per_device_train_batch_size 1
   --model_max_length 2048 --gradient_checkpointing True --bf16 True``), #569 (2023-10-14: LLaVA-v1.5-13B "on 8 A100
   GPUs (40GB each, two servers, each with 4 GPUs), I still encounter out-of-memory issues, even with a batch size of
   1"; ``scripts/v1_5/finetune.sh``: ZeRO-3) and #68 (2023-04-28: LLaVA 13B v0 on one 80GB A100 with ``--fsdp
   "full_shard auto_wrap"``, batch 1, ``--model_max_length 2048``: "CUDA out of memory in backwarding the very first
   iteration").
6. dvlab-research/LongLoRA issue #91 (2023-10-26): "I got CUDA out of memory when I was running with
   Llama-2-7b-chat-hf on a machine with GPU-A100 * 8, each with 40GB ... per_device_train_batch_size=1,
   low_rank_training=True and use_flash_attn=True" ("Tried to allocate 3.35 GiB ... 31.56 GiB already allocated");
   the README's supervised fine-tuning command at the time: ``--model_max_length 32768 --deepspeed
   ds_configs/stage2.json --bf16 True``, LongAlpaca-12k; ``supervised-fine-tune.py``: LoRA rank 8 on q/k/v/o with the
   embeddings and norms trainable, gradient checkpointing always on, bf16 weights, samples padded to the longest.
7. jquesnelle/yarn issue #23 (2024-04-24): "I ran finetune.py using 2x A100 GPUs, and both GPUs loaded up to
   14g/80g. After processing the first batch, the memory usage went up to 77g/80g, and then it ran OOM when starting
   the second batch." ``finetune.py``: Llama-2-7B in bf16, full fine-tune, batch 1, 64k-token chunks of
   ``emozilla/pg_books-tokenized-bos-eos-chunked-65536``, FlashAttention, gradient checkpointing, torch AdamW
   without ``--deepspeed``.
8. bigcode-project/starcoder issue #103 (2023-07-17): "Even with a NVIDIA A100 80 GB GPU, I am not able to fine tune
   the model on full sequence length of 8192 ... With 8 bit quantised model and applying LORA I could go only upto
   6000 sequence length ... the full capacity of 8192 is giving cuda OOM"; ``finetune/finetune.py``: 8-bit
   StarCoder, ``prepare_model_for_int8_training``, LoRA rank 16 on c_proj/c_attn/q_attn, batch 1, packed
   constant-length sequences, gradient checkpointing.
9. tloen/alpaca-lora issue #121 (2023-03-24): "For me, 7B takes about 8-10GB and 5-6 hours to fine-tune, and 13B
   model takes about 16-17GB and 10-12 hours to fine-tune on a 4090"; ``finetune.py``: 8-bit LLaMA with fp16
   autocast, LoRA rank 8 on q_proj/v_proj, micro batch 4, cutoff 256.
10. lxe/simple-llm-finetuner issue #7 (2023-03-24): "I was able to use 15 batch size with 200 max length on 4090
    ... only 17 gb was taken"; ``main.py``: decapoda LLaMA-7B in 8 bits, LoRA rank 8 on q_proj/v_proj, samples
    padded to the max length, fp16.
11. iwiwi/epochraft-hf-fsdp pull request #7 (2023-11-08, "Fix memory consumption issues"): "when training Llama-2 7B
    with 16 X 40GB GPUs, OoM errors occurred with a micro batchsize of 8 ... The key solution was to set
    ``use_cache=False`` in ``from_pretrained``. With this change, the aforementioned configuration worked
    successfully." with its config (FULL_SHARD, seq_len 4096, micro_batch_size 8, global 128); ``trainer.py``:
    bf16 weights with FlashAttention-2, FSDP bf16 mixed precision with ``limit_all_gathers``, non-reentrant
    activation checkpointing of every decoder layer, torch AdamW.
12. OpenBMB/ToolBench issue #84 (2023-08-22, "训练成本与训练时间"), a maintainer: "全参训练：batch size per device=2，
    gradient_accumulation_steps=2，num_train_epochs=2，gpus=4，显存占用60+g/gpu" and "LoRA训练：batch size per
    device=2，gradient_accumulation_steps=2，num_train_epochs=5，gpus=4，显存占用27+g/gpu"; the README's commands:
    LLaMA-7B, ``--model_max_length 8192`` (condensed RoPE, samples padded to the maximum by ``preprocess``),
    ``--gradient_checkpointing True --bf16 True``, the full fine-tune under ``--fsdp "full_shard auto_wrap"`` and
    the LoRA (rank 8 on q_proj/v_proj) under ``ds_configs/stage2.json`` (ZeRO-2 with the optimizer offloaded to
    the CPU), FlashAttention through FastChat's monkey patch, on A100 80GB.

Left out on purpose (decided before scoring, by what is known): diffusion LoRA/DreamBooth reports and YOLO /
DETR / Mask R-CNN detectors (the estimator's input cannot describe a UNet or a detection head), Mixtral QLoRA under
FastChat with ZeRO-3 (lm-sys/FastChat #1251: "24GB on each GPU" but the command is cut off: no batch or length),
Whisper-large-v3 on an A100 80GB (vasistalodagala/whisper-finetune #20: "only allocates 41GB", the batch and
length not said), "fits" claims with no figure (LLaVA's "8x A100 (40G) should work fine for 7B", Swin-T "batch-size
64" on a GTX 1080 Ti), claims whose model is custom (Swin3D, DeCLIP, LITv2) and every figure that is a rule of
thumb rather than a measurement."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-17"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

SWIN = "swin-transformer-training-logs"
ASP = "asp-flan-t5-large-ere"
STX = "simpletransformers-issue-480"
SIMCSE = "simcse-unsup-roberta-large-oom"
LLAVA = "llava-finetune-oom-issues"
LONGLORA = "longlora-sft-oom"
YARN = "yarn-64k-full-ft-oom"
STARCODER = "starcoder-8bit-lora-8k-oom"
ALPACA_LORA = "alpaca-lora-issue-121"
SLF = "simple-llm-finetuner-issue-7"
EPOCHRAFT = "epochraft-hf-fsdp-pr-7"
TOOLBENCH = "toolbench-issue-84"
GH = "https://github.com"
SW_C = f"{GH}/microsoft/Swin-Transformer/blob/00f28005ee4ee750d48a31de241cdfaf03252879"
ASP_C = f"{GH}/lyutyuh/ASP/blob/5ed9aedfa48d4fbb5879936f179f00543f5b2723"
STX_C = f"{GH}/ThilinaRajapakse/simpletransformers/blob/06146eba93e7071485c05034740640550a4b1c30"
SC_C = f"{GH}/princeton-nlp/SimCSE/blob/3ebee8f93d6eddb4b689ec22ebccecc9d8f832af"
SC_README = f"{GH}/princeton-nlp/SimCSE/blob/49fa580a853752ede55b8c76d9debf748e214d3f"
LV_C = f"{GH}/haotian-liu/LLaVA/blob/5a5bda8f584637c2db9d780ded986f11f40dd06f"
LV_Z3 = f"{GH}/haotian-liu/LLaVA/blob/defced79ea5c7820265f999affbde650a7e40b32"
LL_C = f"{GH}/dvlab-research/LongLoRA/blob/0cf0dfd085866bbdd2e7ef5e0e085eb0f1c0c501"
LL_README = f"{GH}/dvlab-research/LongLoRA/blob/26a6b691d71301bc03ff8748cbae24b2a426f7d8"
YA_C = f"{GH}/jquesnelle/yarn/blob/03156a9993bbd9cb169164d8a1fbe5e4e177e51a"
YA_SH = f"{GH}/jquesnelle/yarn/blob/5d06df9435856ee215c28d3ebec883e9b3a3ada2"
ST_C = f"{GH}/bigcode-project/starcoder/blob/49bbe5e7e299fadf9d654242b9a5b09d760f706f"
AL_C = f"{GH}/tloen/alpaca-lora/blob/65fb8225c09af81feb5edb1abb12560f02930703"
SLF_C = f"{GH}/lxe/simple-llm-finetuner/blob/2238d429d97946d9d013f4fb5724c20ea3430260"
EP_TR = f"{GH}/iwiwi/epochraft-hf-fsdp/blob/0f8f455d5e06574d08fad630a79384060fce4579"
EP_FS = f"{GH}/iwiwi/epochraft-hf-fsdp/blob/02fa56b640dc8445e54208066ddf400c247df9bb"
TB_README = f"{GH}/OpenBMB/ToolBench/blob/0d70838c84ac6a1312f8de737627b1d5ac701c2b"
TB_C = f"{GH}/OpenBMB/ToolBench/blob/3b13f36b3ade3bc03c3d1dbea05b0978d0008e80"
TB_DS = f"{GH}/OpenBMB/ToolBench/blob/d1bc62a0bd530425f5d0abd9e6b5de9edf2372a9"
SOURCES = {
    SWIN: {
        "url": f"{GH}/microsoft/Swin-Transformer/issues/192",
        "also": [f"{GH}/microsoft/Swin-Transformer/issues/183", f"{SW_C}/main.py"],
        "setup": "Swin Transformer ImageNet-1k training with the repository's main.py under DDP: Swin-S at 48 images "
                 "per GPU on 4 GPUs (issue #192) and Swin-T at a global batch of 1,024 (issue #183); 224 px, AdamW, "
                 "fp16 mixed precision, no gradient checkpointing; the log's 'mem' is "
                 "torch.cuda.max_memory_allocated() / 2**20",
        "versions": {"torch": "not stated (1.11.0 written for May 2022, 1.10.0 for March 2022)",
                     "timm": "not stated (0.4.12, the repository's get_started pin)", "apex": "O1 assumed"},
        "date": "2022-05-13 (#192), 2022-03-14 (#183); main.py at 00f2800",
        "project": "microsoft/Swin-Transformer (Microsoft Research Asia)",
    },
    ASP: {
        "url": f"{GH}/lyutyuh/ASP/issues/7",
        "also": [f"{ASP_C}/configs/ere.conf"],
        "setup": "ASP entity-relation extraction on CoNLL04 with google/flan-t5-large (the config "
                 "flant5_large_conll04) in fp32 ('use_amp' turned off), batch 8, 256-token segments, AdamW; one V100",
        "versions": {"torch": "not stated (1.13.1 written: June 2023)",
                     "transformers": "not stated (4.26.1 written)"},
        "date": "2023-06-04 (comment); configs at 5ed9aed",
        "project": "lyutyuh/ASP (Tianyu Liu, ETH Zurich)",
    },
    STX: {
        "url": f"{GH}/ThilinaRajapakse/simpletransformers/issues/480",
        "also": [f"{STX_C}/simpletransformers/config/model_args.py"],
        "setup": "simpletransformers MultiLabelClassificationModel with roberta-base and distilbert at the "
                 "library's defaults (batch 8, 128 tokens padded to the maximum, fp16 with apex O1, AdamW) on a "
                 "Google Cloud GPU with '15 GB of available memory' (a T4); read in nvidia-smi",
        "versions": {"simpletransformers": "not stated (0.40 written: June 2020)",
                     "transformers": "not stated (2.11.0 written)", "torch": "not stated (1.5.0 written)"},
        "date": "2020-06-15 (issue); model_args.py at 06146eb",
        "project": "ThilinaRajapakse/simpletransformers (Thilina Rajapakse)",
    },
    SIMCSE: {
        "url": f"{GH}/princeton-nlp/SimCSE/issues/49",
        "also": [f"{SC_C}/run_unsup_example.sh", f"{SC_README}/README.md"],
        "setup": "unsupervised SimCSE with roberta-large at batch 512 (every sentence encoded twice), 32-token "
                 "sentences, fp16 autocast, AdamW, on one RTX 3090: out of memory",
        "versions": {"torch": "1.7.1 (the README's install line)", "transformers": "4.2.1 (requirements.txt)"},
        "date": "2021-06-28 (issue); run_unsup_example.sh at 3ebee8f",
        "project": "princeton-nlp/SimCSE (Princeton NLP)",
    },
    LLAVA: {
        "url": f"{GH}/haotian-liu/LLaVA/issues/655",
        "also": [f"{GH}/haotian-liu/LLaVA/issues/569", f"{GH}/haotian-liu/LLaVA/issues/68",
                 f"{LV_C}/scripts/v1_5/finetune.sh", f"{LV_C}/scripts/zero2.json", f"{LV_Z3}/scripts/zero3.json"],
        "setup": "LLaVA visual instruction tuning (CLIP ViT-L/14 tower frozen, projector and Vicuna LLM trained in "
                 "full), bf16, 2,048-token cap, gradient checkpointing, batch 1: LLaVA-v1.5-7B under ZeRO-2 and "
                 "LLaVA-v1.5-13B under ZeRO-3 on 8 x A100 40GB (two nodes of four), LLaVA-13B v0 under FSDP full "
                 "shard on one A100 80GB; all out of memory",
        "versions": {"torch": "2.0.1 (pyproject pin of October 2023); 2.0.0 written for April 2023",
                     "transformers": "4.31.0 (pyproject pin, October 2023); 4.28.0.dev written for April 2023",
                     "deepspeed": "0.9.5 (pyproject pin, October 2023)", "flash-attn": "2.x (train_mem.py)"},
        "date": "2023-10-24 (#655), 2023-10-14 (#569), 2023-04-28 (#68); scripts at 5a5bda8",
        "project": "haotian-liu/LLaVA (Haotian Liu, UW-Madison)",
    },
    LONGLORA: {
        "url": f"{GH}/dvlab-research/LongLoRA/issues/91",
        "also": [f"{LL_C}/supervised-fine-tune.py", f"{LL_README}/README.md"],
        "setup": "LongLoRA supervised fine-tuning of Llama-2-7b-chat at 32,768 tokens: LoRA rank 8 on q/k/v/o plus "
                 "trainable embeddings and norms, bf16 weights, FlashAttention-2 with shifted sparse attention, "
                 "gradient checkpointing, DeepSpeed ZeRO-2, batch 1 on 8 x A100 40GB: out of memory",
        "versions": {"torch": "not stated (2.0.1 written: October 2023)",
                     "transformers": "not stated (4.34.0 written)", "flash-attn": "not stated (2.3.2 written)",
                     "deepspeed": "not stated (0.11.1 written)", "peft": "not stated (0.5.0 written)"},
        "date": "2023-10-26 (issue); supervised-fine-tune.py at 0cf0dfd",
        "project": "dvlab-research/LongLoRA (CUHK / MIT)",
    },
    YARN: {
        "url": f"{GH}/jquesnelle/yarn/issues/23",
        "also": [f"{YA_C}/finetune.py", f"{YA_SH}/train.sh"],
        "setup": "YaRN's finetune.py: full fine-tune of Llama-2-7B in bf16 (accelerate bf16 autocast, torch AdamW "
                 "over bf16 weights), FlashAttention, gradient checkpointing, batch 1 of 65,536 tokens, on 2 x A100 "
                 "80GB under plain accelerate data parallelism: out of memory at the second step",
        "versions": {"torch": "not stated (2.2.2 written: April 2024)", "transformers": "not stated (4.35.2 "
                     "written; the repository's requirements)", "flash-attn": "not stated (2.5.7 written)",
                     "accelerate": "not stated (0.29.3 written)"},
        "date": "2024-04-24 (comment); finetune.py at 03156a9",
        "project": "jquesnelle/yarn (Nous Research / EleutherAI)",
    },
    STARCODER: {
        "url": f"{GH}/bigcode-project/starcoder/issues/103",
        "also": [f"{ST_C}/finetune/finetune.py"],
        "setup": "StarCoder (15.5B) in 8 bits with prepare_model_for_int8_training and LoRA rank 16 on "
                 "c_proj/c_attn/q_attn, batch 1, packed 8,192-token sequences, gradient checkpointing, bf16 "
                 "autocast, one A100 80GB: out of memory (about 6,000 tokens fitted)",
        "versions": {"torch": "not stated (2.0.1 written: July 2023)", "transformers": "not stated (4.30.2 written)",
                     "peft": "not stated (0.3.0 written)", "bitsandbytes": "not stated (0.40.0 written)"},
        "date": "2023-07-17 (issue); finetune.py at 49bbe5e",
        "project": "bigcode-project/starcoder (BigCode)",
    },
    ALPACA_LORA: {
        "url": f"{GH}/tloen/alpaca-lora/issues/121",
        "also": [f"{AL_C}/finetune.py"],
        "setup": "alpaca-lora finetune.py: LLaMA-7B and LLaMA-13B in 8 bits (prepare_model_for_int8_training, "
                 "gradient checkpointing), LoRA rank 8 on q_proj/v_proj, micro batch 4, 256-token cutoff, fp16 "
                 "autocast, torch AdamW, on one RTX 4090: '7B takes about 8-10GB', '13B ... about 16-17GB'",
        "versions": {"transformers": "git main of March 2023 (4.27.0.dev written)", "peft": "git main (0.2.0 written)",
                     "bitsandbytes": "not stated (0.37.2 written)", "torch": "not stated (1.13.1 written)"},
        "date": "2023-03-24 (comment); finetune.py at 65fb822",
        "project": "tloen/alpaca-lora (Eric J. Wang)",
    },
    SLF: {
        "url": f"{GH}/lxe/simple-llm-finetuner/issues/7",
        "also": [f"{SLF_C}/main.py"],
        "setup": "simple-llm-finetuner's Gradio trainer: decapoda LLaMA-7B in 8 bits (prepare_model_for_int8_training), "
                 "LoRA rank 8 on q_proj/v_proj, batch 15, samples padded to a 200-token max length, fp16 autocast, "
                 "on one RTX 4090: 'only 17 gb was taken'",
        "versions": {"transformers": "git main of March 2023 (4.27.0.dev written)", "peft": "0.2.0 written",
                     "bitsandbytes": "not stated (0.37.2 written)", "torch": "not stated (1.13.1 written)"},
        "date": "2023-03-24 (comment); main.py at 2238d42",
        "project": "lxe/simple-llm-finetuner (Aleksey Smolenchuk)",
    },
    EPOCHRAFT: {
        "url": f"{GH}/iwiwi/epochraft-hf-fsdp/pull/7",
        "also": [f"{EP_TR}/src/epochraft_hf_fsdp/trainer.py", f"{EP_FS}/src/epochraft_hf_fsdp/fsdp.py"],
        "setup": "Llama-2-7B pretraining under PyTorch FSDP FULL_SHARD on 16 x 40GB GPUs: bf16 weights and bf16 mixed "
                 "precision, FlashAttention-2, activation checkpointing of every decoder layer, torch AdamW, packed "
                 "4,096-token sequences, micro batch 8; out of memory while the model's config kept use_cache on "
                 "(fitted after use_cache=False)",
        "versions": {"torch": "not stated (2.1.0 written: November 2023)",
                     "transformers": "not stated (4.35.0 written; use_flash_attention_2 is that API)",
                     "flash-attn": "not stated (2.3.3 written)"},
        "date": "2023-11-08 (PR); trainer.py at 0f8f455",
        "project": "iwiwi/epochraft-hf-fsdp (Takuya Akiba, Stability AI Japan)",
    },
    TOOLBENCH: {
        "url": f"{GH}/OpenBMB/ToolBench/issues/84",
        "also": [f"{TB_README}/README.md", f"{TB_C}/toolbench/train/train_lora.py", f"{TB_C}/toolbench/train/train.py",
                 f"{TB_DS}/ds_configs/stage2.json"],
        "setup": "ToolLLaMA: LLaMA-7B at 8,192 tokens (samples padded to the maximum), bf16, gradient checkpointing, "
                 "FlashAttention, batch 2 per GPU on 4 x A100 80GB: a full fine-tune under the Trainer's FSDP "
                 "full_shard ('60+g/gpu') and LoRA rank 8 on q_proj/v_proj under DeepSpeed ZeRO-2 with the optimizer "
                 "offloaded to the CPU ('27+g/gpu')",
        "versions": {"torch": "not stated (2.0.1 written: August 2023)",
                     "transformers": "not stated (4.31.0 written)", "deepspeed": "not stated (0.10.0 written)",
                     "flash-attn": "not stated (2.0.4 written)", "peft": "not stated (0.4.0 written)"},
        "date": "2023-08-22 (comment); README at 0d70838",
        "project": "OpenBMB/ToolBench (Tsinghua NLP / OpenBMB)",
    },
}

# ------------------------------------------------------------------ 1. Swin Transformer logs (max_memory_allocated)
# est59: microsoft/Swin-Transformer b05e621 (2021-12-21, main.py until #207 of 2022-05-14, after both issues):
# main.py:61 '--amp-opt-level' default 'O1', main.py:88-89 amp.initialize(model, optimizer, opt_level=...);
# models/swin_transformer.py:14-30 Mlp(act_layer=nn.GELU): nn.GELU.forward calls F.gelu when it runs, which
# apex O1 patches to fp32 (apex amp/lists/functional_overrides.py:40 at 59978d5e)
SWIN_BASE = dict(mode="train", precision="amp-fp16", optimizer="adamw", grad_accum=1, image_size=224, grad_ckpt=False,
                 attention="eager", amp_impl="apex", gelu_at_call=True,
                 # est83: WindowAttention projects q, k and v with one Linear (models/swin_transformer.py line 105 at
                 # b05e621 ``self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)``; swin_transformer_v2.py the same)
                 packed_qkv=True)
SWIN_UNKNOWN = ("the log's 'mem' is torch.cuda.max_memory_allocated() / 2**20 (main.py), printed with no decimals: "
                "MiB, tensors only (no cache, no CUDA context)",
                "mixed precision is apex O1 in the code of the time (the log has no loss_scale column, so it predates "
                "the PyTorch-AMP version); est59: written as apex (amp_impl), whose fp32 GELU reaches the reference "
                "Mlp's nn.GELU (gelu_at_call); apex's other casts read as autocast's",
                "the GPU model is not named: it does not change the allocator's peak (an A100 40GB written)")
add(SWIN, "swin-small-224-ampfp16-ddp4-b48", 7785, "MiB", "max_memory_allocated", "A100-SXM-40GB",
    dict(SWIN_BASE, model="Swin-small-patch4-window7-224", micro_batch=48, world_size=4, torch_version="1.11.0"),
    unknown=(*SWIN_UNKNOWN,
             "'i set 4GPUs with bs48. it work!' read as the run of the pasted log: 6,672 steps per epoch = ImageNet-1k "
             "/ (4 x 48) agrees",
             "torch not stated (1.11.0 written: May 2022)"),
    notes="Swin-Transformer issue #192 (OxInsky, 2022-05-13): '[swin_small_patch4_window7_224] ... Train: "
          "[16/300][860/6672] ... grad_norm 2.3225 (2.8221) mem 7785MB'")
add(SWIN, "swin-tiny-224-ampfp16-ddp8-b128", 14764, "MiB", "max_memory_allocated", "A100-SXM-40GB",
    dict(SWIN_BASE, model="Swin-tiny-patch4-window7-224", micro_batch=128, world_size=8, torch_version="1.10.0"),
    unknown=(*SWIN_UNKNOWN,
             "1,251 steps per epoch is a global batch of 1,024; the per-GPU batch is not said: the config's default "
             "128 on 8 GPUs written",
             "the model is the user's 'swin_v1_tiny ... WindowAttention' variant of the Swin V2 ablation code, read as "
             "Swin-T (same depths, widths and window)",
             "torch not stated (1.10.0 written: March 2022)"),
    notes="Swin-Transformer issue #183 (CheerM, 2022-03-14): '[swin_v1_tiny_patch4_window7_224_WindowAttention] ... "
          "Train: [14/300][510/1251] ... mem 14764MB'")

# ------------------------------------------------------------------ 2. ASP: Flan-T5-large in fp32 on a V100
add(ASP, "flan-t5-large-ere-fp32-b8-s256-v100", 25870, "MiB", "nvidia-smi", "V100-SXM2-32GB",
    dict(mode="train", model="Flan-T5-large", precision="fp32", optimizer="adamw", micro_batch=8, grad_accum=1,
         seq_len=256, target_len=256, padding="dynamic", grad_ckpt=False, attention="eager", world_size=1,
         dropout=0.3, torch_version="1.13.1", transformers_version="4.26.1"),
    unknown=("'25870MiB' is nvidia-smi's format (the driver's figure: allocator cache and CUDA context included); "
             "SXM2 or PCIe and 16 or 32 GB not said (a 32 GB V100 written: the figure exceeds 16 GB)",
             "ASP's decoder reads the input copied with structure actions interleaved: the target written as long "
             "as the 256-token segment; its entity/relation heads (hidden 1,500) are small beside the model",
             "segments padded to the longest in the batch, up to max_segment_len 256 (written at 256)",
             "the versions are not stated (torch 1.13.1, transformers 4.26.1 written: June 2023)"),
    notes="lyutyuh/ASP issue #7 (Niklss): 'I've been able to start training t5_large based ere model with "
          "flant5_large_conll04 config (except use_amp, I changed it to false ...). It requires 25870MiB of GPU "
          "memory.'; configs/ere.conf: batch_size 8, max_segment_len 256, optimizer adamw")

# ------------------------------------------------------------------ 3. simpletransformers: RoBERTa-base / DistilBERT
STX_BASE = dict(mode="train", task="sequence-classification", num_labels=6, precision="amp-fp16", optimizer="adamw",
                micro_batch=8, grad_accum=1, seq_len=128, padding="max_length", grad_ckpt=False, attention="eager",
                world_size=1, dropout=0.1, torch_version="1.5.0", transformers_version="2.11.0")
STX_UNKNOWN = ("'15 GB of available memory' on Google Cloud read as a T4 (nvidia-smi shows 15,109 MiB); the figure "
               "read from nvidia-smi in GiB ('4,5 GB' has no unit base)",
               "the library's defaults assumed (the user changed none in the post): batch 8, 128 tokens padded to "
               "the maximum, fp16 with apex O1",
               "the number of labels is not said (6 written; the head is small)",
               "the versions are not stated (simpletransformers 0.40, transformers 2.11.0, torch 1.5.0 written: June "
               "2020)")
STX_NOTE = "simpletransformers issue #480 (alexeyshanko): 'roberta-base uses 4,5 GB memory and distilbert uses only 2,5 GB'"
add(STX, "roberta-base-multilabel-ampfp16-b8-s128-t4", 4.5, "GiB", "nvidia-smi", "T4-16GB",
    dict(STX_BASE, model="RoBERTa-base"), unknown=STX_UNKNOWN, notes=STX_NOTE)
add(STX, "distilbert-multilabel-ampfp16-b8-s128-t4", 2.5, "GiB", "nvidia-smi", "T4-16GB",
    dict(STX_BASE, model="DistilBERT-base-uncased"), unknown=STX_UNKNOWN, notes=STX_NOTE)

# ------------------------------------------------------------------ 4. SimCSE: unsupervised RoBERTa-large at batch 512
add_oom(SIMCSE, "unsup-simcse-roberta-large-ampfp16-b512x2-s32-rtx3090", "nvidia-smi", "RTX-3090-24GB",
        dict(mode="train", model="RoBERTa-large", task="sequence-classification", num_labels=2, precision="amp-fp16",
             optimizer="adamw", micro_batch=1024, grad_accum=1, seq_len=32, padding="dynamic", grad_ckpt=False,
             attention="eager", world_size=1, dropout=0.1, torch_version="1.7.1", transformers_version="4.2.1"),
        unknown=("unsupervised SimCSE passes each of the 512 sentences twice (two dropout views): 1,024 sequences "
                 "per step written",
                 "SimCSE's head is an MLP pooler over [CLS] (no LM head: do_mlm off): written as the classification "
                 "head the input takes; the 512 x 512 similarity matrix is small",
                 "wiki1m sentences truncated at 32 tokens and padded to the longest in the batch (32 written)",
                 "fp16 from run_unsup_example.sh assumed kept; versions from the README's torch 1.7.1 and "
                 "requirements.txt's transformers 4.2.1"),
        notes="SimCSE issue #49 (1024er): 'I tried unsup-robert-large train with batch_size=512, resulting in OOM on "
              "a single 3090 GPU'; run_unsup_example.sh: --max_seq_length 32 --pooler_type cls --fp16")

# ------------------------------------------------------------------ 5. LLaVA: visual instruction tuning that ran out of memory
LV_BASE = dict(mode="train", precision="bf16", optimizer="adamw", micro_batch=1, seq_len=2048, padding="dynamic",
               image_size=336, grad_ckpt=True, attention="flash", loss="standard", use_cache=False,
               torch_version="2.0.1", transformers_version="4.31.0")
LV_ZERO = dict(world_size=8, devices_per_node=4, overlap_comm=True, contiguous_gradients=True, deepspeed_version="0.9.5",
               zero_client_optimizer=True)
LV_UNKNOWN = ("the CLIP ViT-L/14-336 tower is frozen and the projector and LLM are trained in full (no field says the "
              "tower is frozen); 576 image tokens sit inside the 2,048-token cap",
              "conversations padded to the longest in the batch (group_by_modality_length); the longest reaches 2,048 "
              "assumed",
              "train_mem.py runs FlashAttention-2 through its monkey patch; DeepSpeed keeps fp32 master weights and "
              "Adam states in the optimizer partition",
              "est45 (input corrected after scoring): scripts/zero2.json and scripts/zero3.json (6bfd907, October "
              "2023) have no 'optimizer' block, so DeepSpeed wraps the Trainer's own optimizer, llava/train/train.py's "
              "'optim: str = field(default=\"adamw_torch\")' (zero_client_optimizer written; it was left unset)")
add_oom(LLAVA, "llava-v1.5-7b-ft-zero2-bf16-8xa100-40gb-b1", "nvidia-smi", "A100-SXM-40GB",
        dict(LV_BASE, **LV_ZERO, model="LLaVA-1.5-7B", grad_accum=16, zero_stage=2),
        unknown=(*LV_UNKNOWN, "SXM or PCIe not said (SXM written); the pyproject pins of October 2023 written for the "
                              "versions"),
        notes="LLaVA issue #655 (CHENGY12, 2023-10-24): 'I tried to use 2 nodes with 8xA100(40G)s to finetune the 7B "
              "models. But it still reports OOM error.' with --deepspeed ./scripts/zero2.json "
              "--per_device_train_batch_size 1 --gradient_accumulation_steps 16 --bf16 True --model_max_length 2048 "
              "--gradient_checkpointing True")
add_oom(LLAVA, "llava-v1.5-13b-ft-zero3-bf16-8xa100-40gb-b1", "nvidia-smi", "A100-SXM-40GB",
        dict(LV_BASE, **LV_ZERO, model="LLaVA-1.5-13B", grad_accum=16, zero_stage=3,
             max_live_parameters=1_000_000_000, max_reuse_distance=1_000_000_000),
        unknown=(*LV_UNKNOWN,
                 "the command is not given: scripts/v1_5/finetune.sh (ZeRO-3, bf16, 2,048 tokens, checkpointing) with "
                 "the per-device batch lowered to 1 written; gradient accumulation 16 written to keep the global 128",
                 "SXM or PCIe not said (SXM written)"),
        notes="LLaVA issue #569 (July-zh, 2023-10-14): 'When I train with DeepSpeed on 8 A100 GPUs (40GB each, two "
              "servers, each with 4 GPUs), I still encounter out-of-memory issues, even with a batch size of 1.'; "
              "the author: 'Zero3-offload' or LoRA; finetune.sh: --deepspeed ./scripts/zero3.json")
add_oom(LLAVA, "llava-13b-v0-ft-fsdp-full-ampbf16-1xa100-80gb-b1", "nvidia-smi", "A100-SXM-80GB",
        dict(LV_BASE, model="LLaVA-1.5-13B", precision="amp-bf16", image_size=224, grad_accum=1, world_size=1,
             fsdp="full", torch_version="2.0.0", transformers_version="4.28.0"),
        unknown=("LLaVA 13B v0 (Vicuna-13B with CLIP ViT-L/14 at 224 px, 256 image tokens) given as the catalog's "
                 "LLaVA-1.5-13B with a 224 px image: the LLM's shapes are the same, the v1.5 MLP projector is larger "
                 "than v0's linear one",
                 "fp32 weights with FSDP's bf16 mixed precision (the Trainer's FSDP of April 2023), one GPU so nothing "
                 "is sharded",
                 "the command is cut after --model_max_length 2048; --gradient_checkpointing True and train_mem.py's "
                 "FlashAttention of the README of the time assumed",
                 "the versions are not stated (torch 2.0.0, transformers 4.28.0.dev written: April 2023)"),
        notes="LLaVA issue #68 (wangjiongw, 2023-04-28): 'I am trying to run experiments following your command on a "
              "slurm cluster with 80GB A100; But I got CUDA out of memory in backwarding the very first iteration' "
              "with torchrun --nproc_per_node=1 llava/train/train_mem.py --bf16 True --per_device_train_batch_size 1 "
              "--fsdp 'full_shard auto_wrap' --model_max_length 2048")

# ------------------------------------------------------------------ 6. LongLoRA: 32k LoRA SFT under ZeRO-2 on 8 x A100 40GB
add_oom(LONGLORA, "llama2-7b-chat-longlora-sft-32k-zero2-8xa100-40gb-b1", "nvidia-smi", "A100-SXM-40GB",
        dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=1, grad_accum=1,
             seq_len=32768, padding="dynamic", grad_ckpt=True, attention="flash", world_size=8, zero_stage=2,
             lora_r=8, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj"], lora_dropout=0.0, loss="standard",
             use_cache=False, torch_version="2.0.1", transformers_version="4.34.0", deepspeed_version="0.11.1"),
        unknown=("the README's supervised fine-tuning command of October 2023 assumed: --model_max_length 32768, "
                 "LongAlpaca-12k, ds_configs/stage2.json, --bf16 True; the failing sample is long (the 3.35 GiB "
                 "allocation matches fp32 logits of about 28k tokens over the 32,001-token vocabulary, our reading)",
                 "LongLoRA also trains the embeddings and norms (trainable_params 'embed,norm') beside the adapters: "
                 "no field takes them; shifted sparse attention (S2-Attn) runs FlashAttention-2 on quarter-length "
                 "groups: written as flash attention",
                 "SXM or PCIe not said (SXM written); the versions are not stated (torch 2.0.1, transformers 4.34.0, "
                 "DeepSpeed 0.11.1 written: October 2023)"),
        notes="LongLoRA issue #91 (weicheng113113, 2023-10-26): 'I got CUDA out of memory when I was running with "
              "Llama-2-7b-chat-hf on a machine with GPU-A100 * 8, each with 40GB ... per_device_train_batch_size=1, "
              "low_rank_training=True and use_flash_attn=True'; 'Tried to allocate 3.35 GiB (GPU 6; 39.59 GiB total "
              "capacity; 31.56 GiB already allocated; 3.09 GiB free; 33.93 GiB reserved in total by PyTorch)'")

# ------------------------------------------------------------------ 7. YaRN: 64k full fine-tune on 2 x A100 80GB
add_oom(YARN, "llama2-7b-yarn-64k-full-ft-bf16-2xa100-80gb-b1", "nvidia-smi", "A100-SXM-80GB",
        dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=1, grad_accum=8,
             seq_len=65536, padding="max_length", grad_ckpt=True, attention="flash", world_size=2, loss="standard",
             use_cache=False, torch_version="2.2.2", transformers_version="4.35.2"),
        unknown=("the accelerate config is not given: without --deepspeed (not in the comment) finetune.py prepares "
                 "a plain data-parallel model, each GPU holding bf16 weights, gradients and torch AdamW states "
                 "(written); '14g/80g' after loading agrees with a full bf16 copy per GPU",
                 "the default dataset chunks are 65,536 tokens (no --truncate said)",
                 "the 77g/80g after the first batch is not written as a peak (the run failed at the second); SXM or "
                 "PCIe not said (SXM written)",
                 "the versions are not stated (torch 2.2.2, transformers 4.35.2 written: April 2024)"),
        notes="yarn issue #23 (YL-9, 2024-04-24): 'I ran finetune.py using 2x A100 GPUs, and both GPUs loaded up to "
              "14g/80g. After processing the first batch, the memory usage went up to 77g/80g, and then it ran OOM "
              "when starting the second batch.'; finetune.py at 03156a9: torch_dtype bfloat16, "
              "gradient_checkpointing_enable() for full fine-tunes, batch 1, torch.optim.AdamW without --deepspeed")

# ------------------------------------------------------------------ 8. StarCoder: 8-bit LoRA at 8,192 tokens on an A100 80GB
add_oom(STARCODER, "starcoder-int8-lora-r16-s8192-a100-80gb-b1", "nvidia-smi", "A100-SXM-80GB",
        dict(mode="train", model="StarCoder", precision="amp-bf16", optimizer="adamw", micro_batch=1, grad_accum=16,
             seq_len=8192, padding="packed", grad_ckpt=True, attention="eager", world_size=1, quant="8bit",
             kbit_prepared=True, lora_r=16, lora_targets=["c_proj", "c_attn", "q_attn"], lora_dropout=0.05,
             loss="standard", torch_version="2.0.1", transformers_version="4.30.2"),
        unknown=("the issue names no script: bigcode-project/starcoder's finetune/finetune.py (8-bit, LoRA rank 16, "
                 "batch 1, constant-length packed sequences) with --seq_length 8192 assumed",
                 "finetune.py sets both fp16 (unless --no_fp16) and bf16; the Trainer accepts only one, so bf16 "
                 "autocast written (--no_fp16 assumed)",
                 "gpt_bigcode has no SDPA path in transformers 4.30: eager attention with multi-query keys",
                 "SXM or PCIe not said (SXM written); the versions are not stated (torch 2.0.1, transformers 4.30.2 "
                 "written: July 2023)"),
        notes="starcoder issue #103 (mathav95raj, 2023-07-17): 'With 8 bit quantised model and applying LORA I could "
              "go only upto 6000 sequence length (probably a little bit higher too but the full capacity of 8192 is "
              "giving cuda OOM).' on 'a NVIDIA A100 80 GB GPU'")

# ------------------------------------------------------------------ 9. alpaca-lora: 8-bit LoRA of LLaMA-7B/13B on an RTX 4090
AL_BASE = dict(mode="train", precision="amp-fp16", optimizer="adamw", micro_batch=4, grad_accum=32, seq_len=256,
               padding="max_length", grad_ckpt=True, attention="eager", world_size=1, quant="8bit", kbit_prepared=True,
               lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, loss="standard", use_cache=False,
               torch_version="1.13.1", transformers_version="4.27.0")
AL_UNKNOWN = ("a range ('about 8-10GB', 'about 16-17GB') with no counter or unit base: its middle written, read as the "
              "driver's figure (nvidia-smi) in GiB",
              "finetune.py's defaults assumed (micro batch 4, cutoff 256, rank 8 on q_proj/v_proj); the March 2023 "
              "script tokenized to the cutoff with padding='max_length' (later versions pad to the longest)",
              "prepare_model_for_int8_training of peft 0.2: fp32 norms and LM head, gradient checkpointing on",
              "LLaMA-7B/13B have Llama-2-7B/13B's shapes (written); the versions are git mains of March 2023 "
              "(transformers 4.27.0.dev, torch 1.13.1 written)")
AL_NOTE = "alpaca-lora issue #121 (widdakay, 2023-03-24): 'For me, 7B takes about 8-10GB ... and 13B model takes about 16-17GB ... on a 4090'"
add(ALPACA_LORA, "llama-7b-int8-lora-r8-qv-ampfp16-b4-s256-rtx4090", 9, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(AL_BASE, model="Llama-2-7B"), unknown=AL_UNKNOWN, notes=AL_NOTE)
add(ALPACA_LORA, "llama-13b-int8-lora-r8-qv-ampfp16-b4-s256-rtx4090", 16.5, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(AL_BASE, model="Llama-2-13B"), unknown=AL_UNKNOWN, notes=AL_NOTE)

# ------------------------------------------------------------------ 10. simple-llm-finetuner: LLaMA-7B 8-bit LoRA, batch 15
add(SLF, "llama-7b-int8-lora-r8-qv-ampfp16-b15-s200-rtx4090", 17, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(mode="train", model="Llama-2-7B", precision="amp-fp16", optimizer="adamw", micro_batch=15, grad_accum=1,
         seq_len=199, padding="max_length", grad_ckpt=True, attention="eager", world_size=1, quant="8bit",
         kbit_prepared=True, lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.01, loss="standard",
         use_cache=False, torch_version="1.13.1", transformers_version="4.27.0"),
    unknown=("'only 17 gb was taken' names no counter or unit base: the driver's figure (nvidia-smi) in GiB written",
             "main.py pads every sample to the max length (200) and drops the last token: 199 tokens",
             "the app's slider defaults assumed for what the comment does not say (rank 8, alpha 16, dropout 0.01, "
             "gradient accumulation 1); prepare_model_for_int8_training of peft 0.2 turns gradient checkpointing on",
             "decapoda LLaMA-7B has Llama-2-7B's shapes (written); the versions are git mains of March 2023 "
             "(transformers 4.27.0.dev, torch 1.13.1 written)"),
    notes="simple-llm-finetuner issue #7 (Shiro836, 2023-03-24): 'I was able to use 15 batch size with 200 max length "
          "on 4090 ... Couldn't get higher batch size for some reason, even though only 17 gb was taken, and 7 was "
          "available.'")

# ------------------------------------------------------------------ 11. epochraft-hf-fsdp: FSDP full shard with the KV cache kept
add_oom(EPOCHRAFT, "llama2-7b-fsdp-full-bf16-usecache-16xa100-40gb-b8-s4096", "nvidia-smi", "A100-SXM-40GB",
        dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=8, grad_accum=1,
             seq_len=4096, padding="packed", grad_ckpt=True, attention="flash", world_size=16, devices_per_node=8,
             fsdp="full", fsdp_limit_all_gathers=True, loss="standard", use_cache=True, torch_version="2.1.0",
             transformers_version="4.35.0"),
        unknown=("'16 X 40GB GPUs' read as two nodes of eight A100 40GB (SXM written)",
                 "use_cache on: activation checkpointing is FSDP's checkpoint_wrapper, not transformers' (which would "
                 "turn the cache off), so each layer returns its keys and values and the step's output keeps them",
                 "the PR also removed forward_prefetch=True (said to save 'slightly'); global batch 128 over 16 GPUs "
                 "at micro batch 8 is one micro-step per optimizer step",
                 "the versions are not stated (torch 2.1.0, transformers 4.35.0 written: November 2023)"),
        notes="epochraft-hf-fsdp PR #7 (iwiwi, 2023-11-08): 'when training Llama-2 7B with 16 X 40GB GPUs, OoM errors "
              "occurred with a micro batchsize of 8. However, in a similar codebase llama-recipes, the same setting "
              "does not cause an OoM error. The key solution was to set use_cache=False in from_pretrained.'; config: "
              "fsdp_sharding_strategy FULL_SHARD, seq_len 4096, global_batch_size 128, micro_batch_size 8")

# ------------------------------------------------------------------ 12. ToolBench: ToolLLaMA-7B at 8k tokens on four A100 80GB
TB_BASE = dict(mode="train", model="Llama-2-7B", optimizer="adamw", micro_batch=2, grad_accum=2, seq_len=8192,
               padding="max_length", grad_ckpt=True, attention="flash", world_size=4, loss="standard", use_cache=False,
               torch_version="2.0.1", transformers_version="4.31.0")
TB_UNKNOWN = ("'60+g' / '27+g' name no counter or unit base: the driver's figure (nvidia-smi) in GiB, the stated "
              "lower bound written",
              "the command of the answer is not given: the README's (model_max_length 8192, checkpointing, bf16) with "
              "the answer's batch 2 and accumulation 2 on 4 GPUs assumed; A100 80GB from the README (SXM written)",
              "preprocess pads every sample to model_max_length: 8,192 tokens per sample; condensed RoPE (ratio 4 "
              "from 2,048) changes no memory",
              "LLaMA-7B (huggyllama) has Llama-2-7B's shapes (written); the versions are not stated (torch 2.0.1, "
              "transformers 4.31.0 written: August 2023)")
TB_NOTE = "ToolBench issue #84 (pooruss, 2023-08-22): "
add(TOOLBENCH, "llama-7b-full-ft-fsdp-full-ampbf16-4xa100-80gb-b2-s8192", 60, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(TB_BASE, precision="amp-bf16", fsdp="full"),
    unknown=(*TB_UNKNOWN,
             "the Trainer's FSDP of the time: fp32 weights sharded with a bf16 MixedPrecision policy, LlamaDecoderLayer "
             "units"),
    notes=TB_NOTE + "'全参训练：batch size per device=2，gradient_accumulation_steps=2，num_train_epochs=2，gpus=4，"
                    "显存占用60+g/gpu，训练时长约15小时'; README: --fsdp 'full_shard auto_wrap' --model_max_length 8192 "
                    "--gradient_checkpointing True --bf16 True")
add(TOOLBENCH, "llama-7b-lora-r8-qv-zero2-offload-bf16-4xa100-80gb-b2-s8192", 27, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(TB_BASE, precision="bf16", zero_stage=2, offload_optimizer="cpu", overlap_comm=True,
         contiguous_gradients=True, reduce_bucket_size=200_000_000, allgather_bucket_size=200_000_000,
         lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, deepspeed_version="0.10.0"),
    unknown=(*TB_UNKNOWN,
             "train_lora.py loads the model in fp32 and DeepSpeed's bf16 mode runs it in bf16 (stage2.json spells the "
             "section 'bfloat16' with 'auto': bf16 on assumed), the LoRA weights' fp32 copies and Adam states in "
             "CPU memory"),
    notes=TB_NOTE + "'LoRA训练：batch size per device=2，gradient_accumulation_steps=2，num_train_epochs=5，gpus=4，"
                    "显存占用27+g/gpu，训练时长约30小时'; README: deepspeed train_long_seq_lora.py --deepspeed "
                    "ds_configs/stage2.json (offload_optimizer cpu) --model_max_length 8192 --gradient_checkpointing True")


def main():
    write_split("heldout17", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
