"""The sixteenth held-out set (calibration/public/heldout16.json): public measured peaks and out-of-memory
verdicts from publishers no earlier set uses, chosen so that half are not decoder-LLM fine-tunes: Whisper-large
LoRA fine-tunes (yeyupiaoling/Whisper-Finetune, 8 x A100 80GB under DDP and one A100 40GB; Vaibhavs10's
fast-whisper-finetuning, 8-bit LoRA and a full fine-tune that does not fit a T4), open_clip CLIP training
(ViT-B/16 on a V100 32GB, facebookresearch/MetaCLIP; ViT-B/32 on an RTX 3090, mlfoundations/open_clip; each a
peak and an out-of-memory verdict), full fine-tunes of LLaMA-7B and Llama-2-7B under FSDP full sharding that
run out of memory on 4 or 8 GPUs (tatsu-lab/stanford_alpaca), QLoRA of LLaMA-7B and 13B under DDP on two RTX
3090s (artidoro/qlora), a 16-bit LoRA of Llama-3.2-1B with and without checkpointing (hquzhuguofeng/LLM-RoadMap)
and an 8-bit LoRA of LLaMA-7B under ZeRO-2 with CPU offload on two P100s (git-cloner/llama-lora-fine-tuning);
every row sourced, what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout16.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator
is fitted to them, and the builder was written without reading the estimator's code. Same row format as
devset.json (see build_devset.py); verdict-only rows (``outcome`` "oom", no ``peak_bytes``) count for false
fits only. Every figure is the source's own words; none of the sources says which memory counter it read,
so each row writes the likeliest reading (the driver's figure, nvidia-smi) and records that as unknown.

1. yeyupiaoling/Whisper-Finetune, issue #30 (2023-10-18 to 2023-12-23, "训练过程占用显存过高的问题"): a user
   fine-tuning the Whisper "large" model with the repository's ``finetune.py`` on eight GPUs of an A100 80GB
   machine "只能设置batch_size=4 (63G)" and "batch_size设置成2的时候也需要37G左右（我是8卡并发训练的）" (with an
   nvidia-smi screenshot); the author answers "我batch size=2 时，显存应该是8，9g这样子" and that the user had not
   turned on 8-bit quantization (the README's environment: "GPU A100-PCIE-40GB*1"). The job, read from
   ``finetune.py`` at b872ec7 (2023-10-08, the commit before the issue): the model loaded in fp32 (no torch_dtype)
   or in 8 bits with ``--use_8bit``, ``prepare_model_for_kbit_training`` always called (it enables gradient
   checkpointing only for a k-bit model), AdaLoRA by default (``init_r=12``, ``target_r=4``) on ``k_proj``,
   ``q_proj``, ``v_proj``, ``out_proj``, ``fc1``, ``fc2``, ``Seq2SeqTrainingArguments(fp16=True,
   optim='adamw_torch')`` and ``torch.compile(model)`` on torch 2; 30 s of audio (1,500 encoder positions), the
   labels padded to the longest in the batch.
2. Vaibhavs10/fast-whisper-finetuning ``README.md`` at 0515e11 (2023-05-16): "benchmarks we ran on a free Google
   Colab T4 GPU": LoRA "Memory allocation 8GB", "Max. batch size 24"; "Full-fine-tuning ... OOM on T4"; the job in
   the same README: whisper-large-v2 loaded with ``load_in_8bit=True``, ``prepare_model_for_int8_training``
   (layer norms and ``proj_out`` in fp32, gradient checkpointing), ``LoraConfig(r=32, lora_alpha=64,
   target_modules=["q_proj", "v_proj"], lora_dropout=0.05)``, ``per_device_train_batch_size=8``, ``fp16=True``,
   ``bitsandbytes==0.37``, peft from git main.
3. facebookresearch/MetaCLIP, issue #47 (2024-03-21, "[CUDA OOM] reproduce ViT-B-16-quickgelu on V100 32G"):
   "why am I OOM when batch_size=512? At this point, memory usage is 26/32GB when batch_size=256", fixed "by
   using grad_checkpointing"; the job is MetaCLIP's open_clip trainer (``src/training/main.py``, configs.py at
   6b7afe2: ``precision="amp"``, AdamW, ``local_loss=True``, ``gather_with_grad=True``; the b16 configs ask for
   ``grad_checkpointing=True``, which the user evidently did not have), ViT-B-16-quickgelu (vision 12 x 768 at
   224 px, patch 16; text 12 x 512 over 77 tokens).
4. tatsu-lab/stanford_alpaca, issues #39 and #46 (2023-03-16) and #308 (2024-01-31): the README's FSDP command
   (``--bf16 True --per_device_train_batch_size 4 --gradient_accumulation_steps 8 --fsdp "full_shard
   auto_wrap"``, ``train.py`` at c8ea92b: ``model_max_length`` 512, ``optim`` adamw_torch, the model loaded in fp32,
   labels padded to the longest in the batch, no gradient checkpointing) "when I try 8 40G A100, it meets cuda oom
   error" (fixed by batch 2); "fine-tune the model on 4 A10 GPUs using a batch size of 1, but I still get an OOM
   error"; "When I use 4 A100 40G to train the alpaca [Llama-2-7B, per_device_train_batch_size 1] I encountered
   an oom error during training" (at step 8,402 of 39,003).
5. artidoro/qlora, issue #193 (2023-07-01, "7B not much lower VRAM compared to 13B"): QLoRA with ``qlora.py`` "on
   2x3090": 13B "per device batch size 2 ... each GPU is using 23.99 GB of VRAM"; 7B "batch size of 4 ... will
   OOM. Using batch size of 2, each GPU is using 17.3 GB of VRAM". The job, read as the repository's
   ``scripts/finetune_guanaco_7b.sh`` / ``13b.sh`` at 0fc40da ("Kept the same training arguments"): huggyllama
   LLaMA, 4-bit NF4 with double quantization, LoRA rank 64 on every linear layer, dropout 0.1, bf16,
   ``paged_adamw_32bit``, gradient checkpointing, oasst1 with ``source_max_len`` 16 and ``target_max_len`` 512,
   ``group_by_length``.
6. hquzhuguofeng/LLM-RoadMap ``04-Kbit_Training/README.md`` and ``02-llama2_lora_16bit.ipynb`` at 00c4408
   (2024-12-30): Llama-3.2-1B loaded in 16 bits, ``LoraConfig(task_type=CAUSAL_LM)`` (rank 8 on q_proj and v_proj),
   batch 2, ``MAX_LENGTH = 1024`` padded to the longest in the batch: "显存占用6.8G左右", and with
   ``gradient_checkpointing=True`` "显存占用到了6G左右" (PyTorch 2.1.1, transformers 4.47.1, peft 0.11.1).
7. git-cloner/llama-lora-fine-tuning ``README.md`` at 3a4e79f (2023-06-19), "Fine-tuning vicuna-7b on a single 16G
   GPU": "Fine-tuning on P100 (16G) occupies 13.5G of memory" with the README's command (``deepspeed --num_gpus=2
   fastchat/train/train_lora.py``, ``--fp16``, batch 14, ``--model_max_length 512``, checkpointing) and
   ``deepspeed-config.json`` (ZeRO stage 2 with the optimizer offloaded to the CPU): LLaMA-7B in 8 bits with LoRA
   rank 8 on q_proj/v_proj.
8. mlfoundations/open_clip pull request #85 ("Add gradient checkpointing support", merged as d441b92 on
   2022-05-08), review comment: "from testing on 1 RTX3090. For B/32 I was < 512 ... ~416 batch size w/o, and I
   pushed past 2048 (with 20GB of 24GB used)"; ``--precision`` defaults to ``amp`` at that commit.

Left out on purpose (decided before scoring, by what is known): diffusion LoRA/DreamBooth reports (the
estimator has no reader for a UNet or a DiT), NegCLIP's batches (an image and caption batch plus hard negatives,
a layout the estimator does not take), Google Cloud's Vertex AI LoRA/QLoRA page (batch sizes for openLLaMA-7B
with no sequence length or precision), the 8-bit rows' relative claims ("降了5~6倍") and every figure that is a
calculation rather than a measurement (QLoRA slides, README estimates such as "about 7x4=28GB")."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-16"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

WF = "whisper-finetune-issue-30"
FWF = "fast-whisper-finetuning-readme"
METACLIP = "metaclip-issue-47"
ALPACA = "stanford-alpaca-fsdp-oom-issues"
QLORA = "artidoro-qlora-issue-193"
ROADMAP = "llm-roadmap-kbit-training"
GITCLONER = "git-cloner-vicuna-lora-16g"
OPENCLIP = "open-clip-pr-85-grad-checkpointing"
GH = "https://github.com"
WF_C = f"{GH}/yeyupiaoling/Whisper-Finetune/blob/b872ec74cc344c5db41373fa495759e6f514a67f"
FWF_C = f"{GH}/Vaibhavs10/fast-whisper-finetuning/blob/0515e1129acf61830a50150ccf236a881f536bc8"
MC_C = f"{GH}/facebookresearch/MetaCLIP/blob/6b7afe2a4cf4fcd889d74f8683d3d9d14315853f"
AL_C = f"{GH}/tatsu-lab/stanford_alpaca/blob/c8ea92b1c360269f787036fb3746b9e2dea120e5"
AL_HEAD = f"{GH}/tatsu-lab/stanford_alpaca/blob/761dc5bfbdeeffa89b8bff5d038781a4055f796a"
QL_C = f"{GH}/artidoro/qlora/blob/0fc40da9dc50c8f27cc4e7b36be250375c8b0e0e"
RM_C = f"{GH}/hquzhuguofeng/LLM-RoadMap/blob/00c4408c8fadedac9cf7ccce655c6a9be366df05"
OC_C = f"{GH}/mlfoundations/open_clip/blob/d441b926740ea45569ef6f1d36383964f6b4d153"
GC_C = f"{GH}/git-cloner/llama-lora-fine-tuning/blob/3a4e79f998ea29b39bd6f7b481460e5ff1b9f689"
SOURCES = {
    WF: {
        "url": f"{GH}/yeyupiaoling/Whisper-Finetune/issues/30",
        "also": [f"{WF_C}/finetune.py", f"{WF_C}/README.md", f"{WF_C}/requirements.txt",
                 f"{WF_C}/utils/data_utils.py"],
        "setup": "Whisper large (1.55B) with AdaLoRA (init rank 12) on k/q/v/out_proj, fc1, fc2; fp32 weights (or "
                 "8-bit with --use_8bit), fp16 autocast, torch AdamW, torch.compile, 30 s audio; 8 x A100 80GB "
                 "under DDP (the user) and one A100 40GB (the author)",
        "versions": {"transformers": "not stated (>=4.31.0; 4.34.0 written: October 2023)",
                     "peft": "not stated (>=0.4.0; 0.5.0 written)", "torch": "not stated (2.0.1 written)",
                     "bitsandbytes": ">=0.41.0"},
        "date": "2023-10-18 to 2023-12-23 (issue thread); finetune.py at b872ec7 (2023-10-08)",
        "project": "yeyupiaoling/Whisper-Finetune",
    },
    FWF: {
        "url": f"{FWF_C}/README.md",
        "also": [f"{FWF_C}/Whisper_w_PEFT.ipynb"],
        "setup": "whisper-large-v2 in 8 bits (prepare_model_for_int8_training: fp32 norms and proj_out, gradient "
                 "checkpointing) with LoRA rank 32 on q_proj/v_proj, batch 8, fp16 autocast, one Colab T4; and a "
                 "full fine-tune that runs out of memory on the T4",
        "versions": {"bitsandbytes": "0.37 (pinned)", "peft": "git main of May 2023 (0.4.0.dev)",
                     "transformers": "not pinned (4.29.2 written: May 2023)",
                     "torch": "not stated (Colab, 2.0.1 written)"},
        "date": "2023-05-16 (0515e11)",
        "project": "Vaibhavs10/fast-whisper-finetuning (Vaibhav Srivastav)",
    },
    METACLIP: {
        "url": f"{GH}/facebookresearch/MetaCLIP/issues/47",
        "also": [f"{MC_C}/configs.py", f"{MC_C}/run_configs_400m.py", f"{MC_C}/run_configs_fullcc.py",
                 f"{MC_C}/src/open_clip/model_configs/ViT-B-16-quickgelu.json"],
        "setup": "open_clip CLIP ViT-B-16-quickgelu contrastive training (MetaCLIP's trainer), fp16 autocast "
                 "('amp'), AdamW, local loss with gathered features, no gradient checkpointing; V100 32GB; "
                 "batch 256 per GPU ran at '26/32GB', batch 512 ran out of memory",
        "versions": {"torch": "not stated (2.2.1 written: March 2024)",
                     "transformers": "not used (open_clip's own model; 4.38.2 written for the field)",
                     "open_clip": "MetaCLIP's vendored copy at 6b7afe2"},
        "date": "2024-03-21 to 2024-03-25 (issue); configs at 6b7afe2 (2024-03-06)",
        "project": "facebookresearch/MetaCLIP (Meta FAIR)",
    },
    ALPACA: {
        "url": f"{GH}/tatsu-lab/stanford_alpaca/issues/39",
        "also": [f"{GH}/tatsu-lab/stanford_alpaca/issues/46", f"{GH}/tatsu-lab/stanford_alpaca/issues/308",
                 f"{AL_C}/train.py", f"{AL_C}/README.md", f"{AL_HEAD}/train.py"],
        "setup": "full fine-tune of LLaMA-7B / Llama-2-7B with the Hugging Face Trainer under FSDP full_shard "
                 "auto_wrap, bf16 mixed precision over fp32 weights, torch AdamW, 512-token cap padded to the "
                 "longest in the batch, no gradient checkpointing; out-of-memory verdicts on 8 x A100 40GB "
                 "(batch 4), 4 x A10 (batch 1) and 4 x A100 40GB (batch 1, Llama-2-7B)",
        "versions": {"transformers": "the LLaMA PR branch of March 2023 (4.27.0.dev written); 4.36.2 written for "
                                     "the January 2024 report",
                     "torch": "not stated (1.13.1 written for March 2023, 2.1.2 for January 2024)"},
        "date": "2023-03-16 (#39, #46), 2024-01-31 (#308)",
        "project": "tatsu-lab/stanford_alpaca (Stanford CRFM)",
    },
    QLORA: {
        "url": f"{GH}/artidoro/qlora/issues/193",
        "also": [f"{QL_C}/qlora.py", f"{QL_C}/scripts/finetune_guanaco_7b.sh",
                 f"{QL_C}/scripts/finetune_guanaco_13b.sh", f"{QL_C}/requirements.txt"],
        "setup": "QLoRA (NF4, double quantization, LoRA rank 64 on every linear layer) of LLaMA-7B and LLaMA-13B with "
                 "qlora.py under DDP on 2 x RTX 3090, bf16, paged AdamW 32-bit, gradient checkpointing, oasst1 "
                 "(16 + 512 tokens at most, grouped by length)",
        "versions": {"transformers": "git main of June 2023 (4.31.0.dev written)", "peft": "git main (0.4.0.dev)",
                     "bitsandbytes": "0.39.0 (pinned)", "torch": "not stated (2.0.1 written)"},
        "date": "2023-07-01 (issue); qlora.py at 0fc40da (2023-06-22)",
        "project": "artidoro/qlora (Artidoro Pagnoni, UW NLP)",
    },
    ROADMAP: {
        "url": f"{RM_C}/04-Kbit_Training/README.md",
        "also": [f"{RM_C}/04-Kbit_Training/02-llama2_lora_16bit.ipynb"],
        "setup": "Llama-3.2-1B in 16 bits with the default LoraConfig (rank 8 on q_proj/v_proj), batch 2, 1,024-token "
                 "cap padded to the longest in the batch, Trainer defaults (torch AdamW, no autocast), with and "
                 "without gradient checkpointing; one local GPU",
        "versions": {"torch": "2.1.1+cu121", "transformers": "4.47.1", "peft": "0.11.1", "accelerate": "1.2.1"},
        "date": "2024-12-30 (00c4408)",
        "project": "hquzhuguofeng/LLM-RoadMap (GuoFeng)",
    },
    GITCLONER: {
        "url": f"{GC_C}/README.md",
        "also": [f"{GC_C}/fastchat/train/train_lora.py", f"{GC_C}/deepspeed-config.json", f"{GC_C}/requirements.txt"],
        "setup": "LLaMA-7B loaded in 8 bits (prepare_model_for_int8_training) with LoRA rank 8 on q_proj/v_proj under "
                 "DeepSpeed ZeRO-2 with the optimizer offloaded to the CPU, fp16, batch 14 per GPU, ShareGPT "
                 "conversations at 512 tokens, gradient checkpointing, two P100 16GB; 'occupies 13.5G'",
        "versions": {"bitsandbytes": "0.37.2 (pinned)", "fschat": "0.2.10 (pinned)",
                     "deepspeed": "not pinned (0.9.5 written: June 2023)", "peft": "not pinned (0.3.0 written)",
                     "transformers": "not pinned (4.30.2 written)", "torch": "not pinned (2.0.1 written)"},
        "date": "2023-06-19 (3a4e79f)",
        "project": "git-cloner/llama-lora-fine-tuning",
    },
    OPENCLIP: {
        "url": f"{GH}/mlfoundations/open_clip/pull/85",
        "also": [f"{OC_C}/src/training/params.py", f"{OC_C}/src/open_clip/model.py",
                 f"{OC_C}/src/open_clip/model_configs/ViT-B-32.json"],
        "setup": "open_clip CLIP ViT-B/32 contrastive training on one RTX 3090, fp16 autocast ('amp', the default), "
                 "AdamW: without gradient checkpointing the largest batch was about 416 (below 512); with it, a "
                 "batch past 2,048 used 20 GB of the 24 GB",
        "versions": {"torch": "not stated (1.11.0 written: May 2022)", "open_clip": "d441b92 (the PR's merge)",
                     "transformers": "not used (4.19.0 written for the field)"},
        "date": "2022-05-07 (review comment on the PR merged as d441b92, 2022-05-08)",
        "project": "mlfoundations/open_clip (LAION / ML Foundations)",
    },
}

# ----------------------------------------- 1. Whisper-Finetune: Whisper large, AdaLoRA, fp32 weights + fp16 AMP
WHISPER_SEQ = dict(seq_len=1500, target_len=64, padding="dynamic")
WF_BASE = dict(mode="train", model="Whisper-large-v2", precision="amp-fp16", optimizer="adamw", grad_accum=1,
               lora_r=12, lora_targets=["k_proj", "q_proj", "v_proj", "out_proj", "fc1", "fc2"], lora_dropout=0.1,
               compiled=True, loss="standard", torch_version="2.0.1", transformers_version="4.34.0", **WHISPER_SEQ)
WF_UNKNOWN = ("AdaLoRA (init_r 12, target_r 4, an SVD-form adapter with a singular-value vector) written as LoRA of "
              "rank 12 on the same modules",
              "'large' read as whisper-large-v2's shapes (large, large-v2 and the transformer of large-v3 share them)",
              "seq_len 1500 is the encoder's positions for 30 s of audio (3,000 mel frames after the stride-2 "
              "convolution); the labels are padded to the longest in the batch: 64 tokens written (the user's data "
              "is not described; AISHELL sentences are shorter)",
              "the versions are not stated (torch 2.0.1, transformers 4.34.0, peft 0.5.0 written: October 2023)")
WF_NOTE = ("Whisper-Finetune issue #30; finetune.py at b872ec7: use_adalora True, fp16 True, optim adamw_torch, "
           "prepare_model_for_kbit_training(model) always, torch.compile(model) on torch 2; ")
for rid, value, batch, world, note in (
        ("whisper-large-adalora-fp32w-ampfp16-ddp8-a100-80gb-b4", 63, 4, 8,
         "'只能设置batch_size=4 （63G）' on A100 80G"),
        ("whisper-large-adalora-fp32w-ampfp16-ddp8-a100-80gb-b2", 37, 2, 8,
         "'batch_size设置成2的时候也需要37G左右（我是8卡并发训练的）' with an nvidia-smi screenshot")):
    add(WF, rid, value, "GiB", "nvidia-smi", "A100-SXM-80GB",
        dict(WF_BASE, micro_batch=batch, world_size=world, grad_ckpt=False, kbit_prepared=False),
        unknown=(*WF_UNKNOWN,
                 "read from the driver (nvidia-smi, the user's screenshot for 37G), G read as GiB; the 63G run on "
                 "eight GPUs like the 37G one assumed",
                 "SXM or PCIe A100 80GB not said (SXM written)",
                 "prepare_model_for_kbit_training on an fp32 model freezes it and enables no checkpointing (peft 0.5: "
                 "only for a k-bit model): no gradient checkpointing, fp32 weights, kbit_prepared false"),
        notes=WF_NOTE + note)
add(WF, "whisper-large-adalora-int8-ampfp16-a100-40gb-b2", 8.5, "GiB", "nvidia-smi", "A100-PCIe-40GB",
    dict(WF_BASE, micro_batch=2, world_size=1, grad_ckpt=True, quant="8bit", kbit_prepared=True,
         bitsandbytes_version="0.41.0"),
    unknown=(*WF_UNKNOWN,
             "bitsandbytes: requirements.txt at b872ec7 asks >=0.41.0 (est83): the lower bound written; every "
             "release that meets it before 0.45 (2024-12) keeps the int8 matmul's input for backward",
             "the author's recollection, '显存应该是8，9g这样子' (should be about 8 or 9 G): 8.5 written, read as the "
             "driver's figure in GiB",
             "the 8-bit run (the author's reply: the user had not turned on 8-bit quantization) and the README's "
             "single A100-PCIE-40GB assumed",
             "prepare_model_for_kbit_training on the 8-bit model: fp32 norms and non-quantized weights, gradient "
             "checkpointing on"),
    notes=WF_NOTE + "the author: '我batch size=2 时，显存应该是8，9g这样子'; README: 'GPU A100-PCIE-40GB*1'")

# ------------------------------------ 2. fast-whisper-finetuning: whisper-large-v2 on a Colab T4 (8-bit LoRA, full FT)
FWF_UNKNOWN = ("how 'Memory allocation' was read is not said: the driver's figure (Colab's GPU RAM gauge, "
               "nvidia-smi written) in GiB",
               "seq_len 1500 encoder positions; Hindi Common Voice labels padded to the longest in the batch, 128 "
               "tokens written (generation_max_length 128)",
               "the versions are not pinned but bitsandbytes 0.37 (transformers 4.29.2, torch 2.0.1 written: May 2023)")
FWF_NOTE = ("fast-whisper-finetuning README at 0515e11, 'benchmarks we ran on a free Google Colab T4 GPU'; ")
FWF_SEQ = dict(WHISPER_SEQ, target_len=128)
add(FWF, "whisper-large-v2-lora-r32-qv-int8-ampfp16-t4-b8", 8, "GiB", "nvidia-smi", "T4-16GB",
    dict(mode="train", model="Whisper-large-v2", precision="amp-fp16", optimizer="adamw", micro_batch=8,
         grad_accum=1, world_size=1, quant="8bit", kbit_prepared=True, grad_ckpt=True, lora_r=32,
         lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, loss="standard", torch_version="2.0.1",
         transformers_version="4.29.2", bitsandbytes_version="0.37.0", **FWF_SEQ),
    unknown=(*FWF_UNKNOWN,
             "the table pairs 'Memory allocation 8GB' with 'Max. batch size 24'; the figure is read as the job of the "
             "same README (per_device_train_batch_size=8), not the largest batch"),
    notes=FWF_NOTE + "LoRA: 'Memory allocation 8GB', 'Max. batch size 24'; load_in_8bit=True, "
                     "prepare_model_for_int8_training(output_embedding_layer_name='proj_out'), LoraConfig(r=32, "
                     "lora_alpha=64, target_modules=['q_proj','v_proj'], lora_dropout=0.05), fp16=True")
add_oom(FWF, "whisper-large-v2-full-ft-ampfp16-t4-b1", "nvidia-smi", "T4-16GB",
        dict(mode="train", model="Whisper-large-v2", precision="amp-fp16", optimizer="adamw", micro_batch=1,
             grad_accum=1, world_size=1, grad_ckpt=True, loss="standard", torch_version="2.0.1",
             transformers_version="4.29.2", **FWF_SEQ),
        unknown=(*FWF_UNKNOWN,
                 "the full fine-tune's settings are not given: fp32 weights with fp16 autocast, AdamW, gradient "
                 "checkpointing on and batch 1 written ('Max. batch size: OOM on T4': no batch fits)"),
        notes=FWF_NOTE + "'Full-fine-tuning | 100% | OOM on T4 | OOM on T4'; README: 'a Whisper-large-v2 model "
                         "requires ~24GB of GPU VRAM for full fine-tuning'")

# ------------------------------------------------- 3. MetaCLIP: open_clip ViT-B-16-quickgelu on a V100 32GB
MC_BASE = dict(mode="train", model="CLIP-ViT-B-16", precision="amp-fp16", optimizer="adamw", grad_accum=1,
               image_size=224, seq_len=77, padding="max_length", grad_ckpt=False, world_size=8, attention="sdpa",
               torch_mha=True, torch_version="2.2.1", transformers_version="4.38.2")
MC_UNKNOWN = ("the number of V100s is not said (8 written: the configs run 4 or 8 per node); with local_loss each "
              "GPU holds a batch x (batch x world) logit matrix, small beside the towers",
              "open_clip's own CLIP (nn.MultiheadAttention with need_weights=False: torch's SDPA path; QuickGELU) "
              "given as the catalog's CLIP ViT-B/16",
              "gradient checkpointing off: the user 'fix[ed] this error by using grad_checkpointing', so the failing "
              "run had none (the b16 configs ask for it)",
              "the versions are not stated (torch 2.2.1 written: March 2024)")
MC_NOTE = ("MetaCLIP issue #47: 'reproduce ViT-B-16-quickgelu on V100 32G with the same configuration'; configs.py "
           "at 6b7afe2: precision 'amp', local_loss, gather_with_grad; ")
add(METACLIP, "clip-vit-b16-quickgelu-ampfp16-v100-32gb-b256", 26, "GiB", "nvidia-smi", "V100-SXM2-32GB",
    dict(MC_BASE, micro_batch=256),
    unknown=(*MC_UNKNOWN, "'memory usage is 26/32GB' read as the driver's figure (nvidia-smi) in GiB; SXM2 written"),
    notes=MC_NOTE + "'memory usage is 26/32GB when batch_size=256'")
add_oom(METACLIP, "clip-vit-b16-quickgelu-ampfp16-v100-32gb-b512", "nvidia-smi", "V100-SXM2-32GB",
        dict(MC_BASE, micro_batch=512), unknown=(*MC_UNKNOWN, "SXM2 written"),
        notes=MC_NOTE + "'why am I OOM when batch_size=512?'")

# ---------------------------------------------- 4. stanford_alpaca: FSDP full fine-tunes that ran out of memory
AL_BASE = dict(mode="train", model="Llama-2-7B", precision="amp-bf16", optimizer="adamw", grad_accum=8,
               seq_len=512, padding="dynamic", grad_ckpt=False, attention="eager", fsdp="full", loss="standard",
               use_cache=False, torch_version="1.13.1", transformers_version="4.27.0",
               # est67 (in-sample): train.py at c8ea92b (lines 104-106) and 761dc5b (94-96) tokenizes
               # with padding="longest", max_length=tokenizer.model_max_length, truncation=True: a
               # sample over the cap is cut to it
               truncation="truncate")
AL_UNKNOWN = ("LLaMA-7B (March 2023) has Llama-2-7B's shapes (written); the Trainer adds one [PAD] token",
              "the Trainer's FSDP wrapping of the time: fp32 sharded weights with a bf16 MixedPrecision policy, "
              "LlamaDecoderLayer units (LLaMADecoderLayer in the PR branch)",
              "samples padded to the longest in the batch under a 512-token cap: the longest batch reaches 512")
AL_NOTE = "stanford_alpaca train.py at c8ea92b (model_max_length 512, optim adamw_torch, fp32 load); "
add_oom(ALPACA, "llama-7b-fsdp-full-bf16-8xa100-40gb-b4", "nvidia-smi", "A100-SXM-40GB",
        dict(AL_BASE, micro_batch=4, world_size=8),
        unknown=(*AL_UNKNOWN, "the versions of the report are not stated (torch 1.13.1, transformers 4.27.0.dev "
                              "written); SXM or PCIe not said (SXM written)"),
        notes=AL_NOTE + "issue #39: 'In READM, you guys mention that 4 A100 80G can train this model, but when I try "
                        "8 40G A100, it meets cuda oom error' with the README's batch 4 (batch 2 then fitted)")
add_oom(ALPACA, "llama-7b-fsdp-full-bf16-4xa10-b1", "nvidia-smi", "A10-24GB",
        dict(AL_BASE, micro_batch=1, world_size=4),
        unknown=(*AL_UNKNOWN, "the versions of the report are not stated (torch 1.13.1, transformers 4.27.0.dev "
                              "written); gradient accumulation not said (the README's 8 written)"),
        notes=AL_NOTE + "issue #46: 'I am trying to fine-tune the model on 4 A10 GPUs using a batch size of 1, but I "
                        "still get an OOM error'")
add_oom(ALPACA, "llama2-7b-fsdp-full-bf16-4xa100-40gb-b1", "nvidia-smi", "A100-SXM-40GB",
        dict(AL_BASE, micro_batch=1, grad_accum=1, world_size=4, attention="sdpa", torch_version="2.1.2",
             transformers_version="4.36.2"),
        unknown=(*AL_UNKNOWN, "the versions are not stated (CUDA 11.8; torch 2.1.2 and transformers 4.36.2 written, "
                              "with transformers' default SDPA attention for Llama); SXM or PCIe not said (SXM written)",
                 "the run failed at step 8,402 of 39,003 ('Tried to allocate 208.00 MiB ... 183.50 MiB is free ... "
                 "this process has 39.23 GiB'): a long batch late in training, with the allocator's cache of "
                 "earlier lengths"),
        notes="stanford_alpaca issue #308: torchrun --nproc_per_node=4 train.py --model_name_or_path llama2 "
              "--per_device_train_batch_size 1 --gradient_accumulation_steps 1 --bf16 true --fsdp 'full_shard "
              "auto_wrap' --fsdp_transformer_layer_cls_to_wrap 'LlamaDecoderLayer'; train.py at 761dc5b")

# ------------------------------------------------ 5. artidoro/qlora: LLaMA-7B/13B QLoRA under DDP on 2 x RTX 3090
QL_BASE = dict(mode="train", precision="amp-bf16", optimizer="paged-adamw", grad_accum=16, seq_len=528,
               padding="dynamic", group_by_length=True, grad_ckpt=True, attention="eager", world_size=2,
               quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False, lora_r=64,
               lora_targets=["all-linear"], lora_dropout=0.1, loss="standard", use_cache=False,
               torch_version="2.0.1", transformers_version="4.31.0",
               # est51 (after scoring, so in-sample): qlora.py at 0fc40da trains the resized vocabulary
               # tables: train() calls get_accelerate_model (get_peft_model, line 331) at line 642, then
               # smart_tokenizer_and_embedding_resize (model.resize_token_embeddings, line 372) at line 659
               # for LLaMA's missing pad token; transformers before 4.35 builds the new tables with
               # requires_grad True. The maintainers froze them in 5111741 ("Temporary bug fix #214:
               # freeze embeddings") and answered this issue "This might be related to the issue we
               # found #214" (est33 traced the term and left the rows as scored)
               trained_embeddings="resized",
               # est67 (in-sample): DataCollatorForCausalLM (qlora.py at 0fc40da, lines 397-407) tokenizes
               # sources and targets with max_length=source_max_len / target_max_len, truncation=True
               truncation="truncate")
QL_UNKNOWN = ("'Kept the same training arguments' read as the repository's guanaco scripts (oasst1, source_max_len "
              "16 + target_max_len 512 = 528 tokens at most, grouped by length, bf16, rank 64 on every linear "
              "layer) with the per-device batch changed",
              "qlora.py runs prepare_model_for_kbit_training, then casts the LoRA layers, embed_tokens and lm_head "
              "to bf16 and keeps the norms in fp32: kbit_prepared false written (no fp32 embeddings or head)",
              "LLaMA-7B/13B (huggyllama) have Llama-2-7B/13B's shapes (written)",
              "read from the driver (nvidia-smi) in GiB; the versions are not stated (transformers git main of June "
              "2023, torch 2.0.1 written)")
QL_NOTE = "artidoro/qlora issue #193, 'Both are done on 2x3090 with the same dataset'; qlora.py at 0fc40da; "
add(QLORA, "llama-13b-qlora-r64-ddp2-rtx3090-b2", 23.99, "GiB", "nvidia-smi", "RTX-3090-24GB",
    dict(QL_BASE, model="Llama-2-13B", micro_batch=2), unknown=QL_UNKNOWN,
    notes=QL_NOTE + "'On the 13B, the largest per device batch size I could use was 2 before it OOM. Here each GPU is "
                    "using 23.99 GB of VRAM. Model takes up 8.0 GB on VRAM.'")
add(QLORA, "llama-7b-qlora-r64-ddp2-rtx3090-b2", 17.3, "GiB", "nvidia-smi", "RTX-3090-24GB",
    dict(QL_BASE, model="Llama-2-7B", micro_batch=2), unknown=QL_UNKNOWN,
    notes=QL_NOTE + "'Using batch size of 2, each GPU is using 17.3 GB of VRAM. Model takes up 4.6 GB on VRAM.'")
add_oom(QLORA, "llama-7b-qlora-r64-ddp2-rtx3090-b4", "nvidia-smi", "RTX-3090-24GB",
        dict(QL_BASE, model="Llama-2-7B", micro_batch=4), unknown=QL_UNKNOWN,
        notes=QL_NOTE + "'On the 7B, I will expect to be per device batch size of 4 but it will OOM.'")

# ------------------------------------------------- 6. LLM-RoadMap: Llama-3.2-1B 16-bit LoRA, with and without checkpointing
RM_BASE = dict(mode="train", model="Llama-3.2-1B", precision="fp16", optimizer="adamw", micro_batch=2, grad_accum=8,
               seq_len=1024, padding="dynamic", world_size=1, lora_r=8, lora_targets=["q_proj", "v_proj"],
               lora_dropout=0.0, loss="standard", torch_version="2.1.1", transformers_version="4.47.1",
               # est67 (in-sample): the notebook's process_func at 00c4408 (MAX_LENGTH = 1024): "if
               # len(input_ids) > MAX_LENGTH: input_ids = input_ids[:MAX_LENGTH]": cut, not dropped
               truncation="truncate")
RM_UNKNOWN = ("the GPU is not named (a Windows machine; a 24 GB RTX 4090 written) nor how the figure was read (the "
              "driver's figure, nvidia-smi written, G read as GiB); '左右' (about)",
              "the README says the model is loaded in bfloat16, the notebook in float16 (with adam_epsilon 1e-5): "
              "16-bit weights and adapters, no autocast, written",
              "Alpaca-zh samples padded to the longest in the batch under MAX_LENGTH 1024: the longest batch reaches "
              "1,024 assumed")
RM_NOTE = "LLM-RoadMap 04-Kbit_Training/README.md at 00c4408, '02-llama2_lora_16bit' (Llama-3.2-1B, batch_size 2): "
add(ROADMAP, "llama3.2-1b-lora-r8-qv-16bit-b2-s1024", 6.8, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(RM_BASE, grad_ckpt=False), unknown=RM_UNKNOWN, notes=RM_NOTE + "'显存占用6.8G左右'")
add(ROADMAP, "llama3.2-1b-lora-r8-qv-16bit-b2-s1024-ckpt", 6, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(RM_BASE, grad_ckpt=True, use_cache=False), unknown=RM_UNKNOWN,
    notes=RM_NOTE + "'打开gradient_checkpointing=True ... 显存占用到了6G左右'")

# ---------------------------------------------- 7. git-cloner: LLaMA-7B 8-bit LoRA under ZeRO-2 + CPU Adam on two P100s
add(GITCLONER, "llama-7b-lora-r8-qv-int8-zero2-offload-2xp100-b14-s512", 13.5, "GiB", "nvidia-smi", "P100-16GB",
    dict(mode="train", model="Llama-2-7B", precision="fp16", optimizer="adamw", micro_batch=14, grad_accum=1,
         seq_len=512, padding="max_length", grad_ckpt=True, attention="eager", world_size=2, zero_stage=2,
         offload_optimizer="cpu", overlap_comm=True, contiguous_gradients=True, quant="8bit", kbit_prepared=True,
         lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, loss="standard", use_cache=False,
         torch_version="2.0.1", transformers_version="4.30.2", deepspeed_version="0.9.5",
         bitsandbytes_version="0.37.2"),
    unknown=("how '13.5G' was read is not said (the driver's figure, nvidia-smi written, G read as GiB) nor on how many "
             "GPUs: the README's command runs two (CUDA_VISIBLE_DEVICES=0,1 deepspeed --num_gpus=2) and is written",
             "LLaMA-7B (pyllama weights converted) has Llama-2-7B's shapes (written)",
             "FastChat 0.2.10's preprocessing pads every conversation to model_max_length (512) assumed",
             "the DeepSpeed config's fp16 section runs the model in fp16 with fp32 master copies of the (LoRA) "
             "trainable weights; its activation_checkpointing block (partition_activations) only acts through "
             "deepspeed.checkpointing, which transformers' checkpointing does not use",
             "the versions are not pinned but bitsandbytes and fschat (torch 2.0.1, transformers 4.30.2, DeepSpeed "
             "0.9.5, peft 0.3.0 written: June 2023)"),
    notes="git-cloner/llama-lora-fine-tuning README at 3a4e79f, '3.4.2 Fine-tuning performance': 'Fine-tuning on P100 "
          "(16G) occupies 13.5G of memory'; command: deepspeed --num_gpus=2 fastchat/train/train_lora.py --deepspeed "
          "./deepspeed-config.json --lora_r 8 --fp16 True --per_device_train_batch_size 14 --model_max_length 512 "
          "--gradient_checkpointing True; train_lora.py: load_in_8bit=True, torch_dtype float16, "
          "prepare_model_for_int8_training; deepspeed-config.json: stage 2, offload_optimizer cpu, Adam")

# ------------------------------------------------- 8. open_clip PR #85: CLIP ViT-B/32 on one RTX 3090, with and without checkpointing
OC_BASE = dict(mode="train", model="CLIP-ViT-B-32", precision="amp-fp16", optimizer="adamw", grad_accum=1,
               image_size=224, seq_len=77, padding="max_length", world_size=1, attention="eager", torch_mha=True,
               torch_version="1.11.0", transformers_version="4.19.0")
OC_UNKNOWN = ("open_clip's ViT-B-32 (nn.GELU, nn.MultiheadAttention with need_weights=False, which on torch 1.11 runs "
              "the math path and keeps the attention probabilities) given as the catalog's CLIP ViT-B/32",
              "the versions are not stated (torch 1.11.0 written: May 2022); the data is not described (224 px "
              "images, 77-token captions, as the model config)")
OC_NOTE = ("open_clip PR #85 (gradient checkpointing), review comment by rwightman, 2022-05-07: 'it's pretty "
           "significant from testing on 1 RTX3090. For B/32 I was < 512 ... ~416 batch size w/o, and I pushed past "
           "2048 (with 20GB of 24GB used)'; params.py at d441b92: --precision default 'amp'; ")
add(OPENCLIP, "clip-vit-b32-ampfp16-ckpt-rtx3090-b2048", 20, "GiB", "nvidia-smi", "RTX-3090-24GB",
    dict(OC_BASE, micro_batch=2048, grad_ckpt=True),
    unknown=(*OC_UNKNOWN, "'pushed past 2048': the figure is read at a batch of 2,048 (the exact batch past it is not "
                          "said)", "'20GB of 24GB used' read as the driver's figure (nvidia-smi) in GiB"),
    notes=OC_NOTE + "with --grad-checkpointing")
add_oom(OPENCLIP, "clip-vit-b32-ampfp16-rtx3090-b512", "nvidia-smi", "RTX-3090-24GB",
        dict(OC_BASE, micro_batch=512, grad_ckpt=False),
        unknown=(*OC_UNKNOWN, "'< 512 ... ~416 batch size w/o': a batch of 512 without checkpointing did not fit "
                              "(written as an out-of-memory verdict at 512)"),
        notes=OC_NOTE + "without gradient checkpointing")


def main():
    write_split("heldout16", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
