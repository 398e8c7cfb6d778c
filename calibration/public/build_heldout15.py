"""The fifteenth held-out set (calibration/public/heldout15.json): public measured peaks from publishers no
earlier set uses (Unsloth's documentation: the longest context its "Hugging Face + FA2" baseline fits for a
QLoRA of Llama 3.1 8B on GPUs of 8 to 80 GB and of Llama 3.3 70B on 48 and 80 GB, with two out-of-memory
verdicts; axolotl's example READMEs: the VRAM its example configs use, from a 2023 Llama-2-7B LoRA/QLoRA on an
RTX 4090, the 2024 Llama-3 examples (full fine-tune of 8B, 8-bit LoRA of 7B, QLoRA of 70B under FSDP with
parameter offload on two GPUs) and the 2025 model guides (QLoRA of Ministral 8B, OLMo 3 7B and two Mistral
Small 24B derivatives, three with Cut Cross Entropy); xTuring's README: LLaMA-7B full and LoRA fine-tunes under
Lightning's DeepSpeed ZeRO-2 in fp16 with and without CPU offload on four A100 40GB), every row sourced, what
the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout15.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator
is fitted to them, and the builder was written without reading the estimator's code. Same row format as
devset.json (see build_devset.py); verdict-only rows (``outcome`` "oom", no ``peak_bytes``) count for false
fits only.

1. Unsloth's documentation, "Unsloth Benchmarks" (unsloth.ai/docs/basics/unsloth-benchmarks, also served at
   docs.unsloth.ai; the same tables are in the blog post "Llama 3.3" of December 2024), section "Context length
   benchmarks": "We tested Llama 3.1 (8B) Instruct and did 4bit QLoRA on all linear layers (Q, K, V, O, gate,
   up and down) with rank = 32 with a batch size of 1. We padded all sequences to a certain maximum sequence
   length to mimic long context finetuning workloads", a table of "GPU VRAM" (8, 12, 16, 24, 40, 48, 80 GB)
   against the longest context that fits with Unsloth and with "Hugging Face + FA2" (OOM, 932, 2,551, 5,789,
   12,264, 15,502, 28,454), and the same for Llama 3.3 (70B) Instruct "on a 80GB A100" (48 GB: OOM, 80 GB:
   6,916). Only the Hugging Face + FA2 column is taken (transformers + PEFT + bitsandbytes with
   FlashAttention-2; Unsloth's own kernels, checkpointing to CPU and Cut Cross Entropy are not a setting the
   estimator takes). Each row reads the longest context that fits as a job whose peak is the card's memory:
   the peak at that context is at most the card's memory and one step longer does not fit, so the figure
   is a bound, not a reading of a memory counter; the card's memory is taken as X GB (10^9 bytes), the lower
   of the two readings of "X GB". How the bound was found (which card, or a memory cap) is not said. The
   optimizer, the checkpointing and the library versions of the baseline are not stated: the rows assume
   Hugging Face gradient checkpointing on, 8-bit AdamW (Unsloth's notebooks' ``adamw_8bit``), NF4 with
   double quantization, peft's ``prepare_model_for_kbit_training``, LoRA dropout 0, transformers 4.47 and
   torch 2.5 (current in December 2024).
2. axolotl (axolotl-ai-cloud/axolotl) ``examples/llama-2/README.md`` at dc71d88 (2023-08-03, "feat/llama-2
   examples"): "The 7b variant fits on any 24GB VRAM GPU and will take up about 17 GB of VRAM during training if
   using qlora and 20 GB if using lora. On a RTX 4090 it trains 3 epochs of the default dataset in about 15
   minutes"; the job is ``qlora.yml`` / ``lora.yml`` at the same commit (Llama-2-7B, sequence length 4,096
   packed with ``max_packed_sequence_len``, micro batch 2, gradient accumulation 4, LoRA rank 32 on every linear
   layer, dropout 0.05, bf16, gradient checkpointing, xformers attention; QLoRA: 4-bit with
   ``paged_adamw_32bit``; LoRA: 8-bit base with ``adamw_bnb_8bit``).
3. axolotl ``examples/llama-3/README.md`` at 15f7910 (2024-04-18, "llama-3 examples"): "Full Fine Tune - Single
   GPU @ 48GB VRAM", "LoRA - Single GPU @ 11GB VRAM", "QLORA+FSDP - Dual GPU @ 21GB VRAM", with ``fft-8b.yaml``
   (Llama-3-8B, bf16, ``paged_adamw_8bit``, 8,192 tokens packed, micro batch 1, checkpointing,
   FlashAttention-2), ``lora-8b.yml`` (which at that commit loads NousResearch/Llama-2-7b-hf in 8 bits: 4,096
   tokens packed, micro batch 2, LoRA rank 32 on every linear layer, ``adamw_bnb_8bit``) and
   ``qlora-fsdp-70b.yaml`` (Llama-3-70B, 4-bit, LoRA rank 8, 512 tokens padded, micro batch 1, ``adamw_torch``,
   FSDP full shard with ``fsdp_offload_params: true``). The README does not say which GPUs nor how "@ N GB
   VRAM" was read; the rows read it as the memory the job used per GPU.
4. axolotl's 2025 model guides, each "This config uses about N VRAM" beside its QLoRA config (sequence length
   2,048 with sample packing, micro batch 2, LoRA rank 32 on every linear layer, checkpointing,
   FlashAttention-2, axolotl's NF4 with double quantization and ``prepare_model_for_kbit_training``):
   ``examples/magistral`` at eac4a61 (2025-06-12; Magistral-Small-2506, 24B, "about 24GB", no Cut Cross
   Entropy in that config), ``examples/devstral`` at 8c6a6ea (2025-07-08; Devstral-Small-2505, 24B, "about
   21GB", Cut Cross Entropy, ``adamw_torch``), ``examples/ministral`` at 2b66ee1 (2025-12-04;
   Ministral-8B-Instruct-2410, "about 8.76 GiB", Cut Cross Entropy) and ``examples/olmo3`` at 372f664
   (2025-12-25; Olmo-3-7B-Instruct-SFT, "about 11.3 GiB", Cut Cross Entropy, gradient accumulation 2). From
   2025-08-27 axolotl's trainer logs three figures per step, ``memory/max_active``, ``memory/max_allocated``
   and ``memory/device_reserved`` (GiB, ``src/axolotl/utils/bench.py``: the allocator's active and allocated
   peaks and ``torch.cuda.max_memory_reserved``); the two December guides (two decimals in GiB) are read as
   the reserved figure, the two earlier ones (whole GB, before that logging) as the driver's figure, both
   recorded as unknown. The GPU is not named in any guide.
5. stochasticai/xTuring ``README.md`` at e0a7983 (2023-03-25), "Performance": "a comparison for the performance
   of different fine-tuning techniques on the LLaMA 7B model. We use the Alpaca dataset ... Hardware: 4xA100 40GB
   GPU, 335GB CPU RAM. Fine-tuning parameters: 'maximum sequence length': 512, 'batch size': 1", GPU 33.5 GB
   ("DeepSpeed + CPU Offloading"), 23.7 GB ("LoRA + DeepSpeed"), 21.9 GB ("LoRA + DeepSpeed + CPU
   Offloading"). The job, read from the code at the same commit: ``trainers/lightning_trainer.py`` runs a
   Lightning ``Trainer(strategy="deepspeed_stage_2_offload" if optimizer_name == "cpu_adam" else
   "deepspeed_stage_2", precision=16)`` on every GPU of the node; ``models/llama.py``: the full fine-tune passes
   batch 1 and ``cpu_adam`` (DeepSpeedCPUAdam), the LoRA model ``adamw`` (and batch 4, where the README says
   1); ``engines/causal.py``: ``LoraConfig(r=8, lora_alpha=32, lora_dropout=0.1)`` on ``q_proj`` and ``v_proj``
   and xTuring's own ``CrossEntropyLoss`` on the logits (``utils/loss_fns.py``: no upcast);
   ``preprocessors/instruction_collator.py``: Alpaca samples cut at 512 tokens and padded to the longest in the
   batch; no gradient checkpointing is enabled. The versions are not pinned (``torch >= 1.9.0``).

Left out on purpose (decided before scoring, by what is known): the Unsloth columns of every table; Unsloth's
speed/VRAM-reduction table (percentages, no peaks); axolotl's guides for models whose architecture the
estimator is not given a reader for here (Seed-OSS, Apertus with xIELU, Hunyuan, Granite 4 hybrid, Arcee,
Jamba, the Llama 4 and Kimi mixtures of experts, vision and audio models), the guides that name a figure with
no config beside it, and axolotl's 13B remark in the Llama-2 README (a change of settings, no figure)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-15"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

UNSLOTH = "unsloth-docs-context-length-benchmarks"
AX_LLAMA2 = "axolotl-llama-2-example-2023"
AX_LLAMA3 = "axolotl-llama-3-examples-2024"
AX_GUIDES = "axolotl-model-guides-2025"
XTURING = "xturing-readme-llama-7b-deepspeed"
XT = "https://github.com/stochasticai/xTuring/blob/e0a79831919e5db59f8842d1dbf79be6c6f00908"
AX = "https://github.com/axolotl-ai-cloud/axolotl/blob"
AX_L2 = f"{AX}/dc71d8872a68e978d2ce272ff3e0085b156a1304/examples/llama-2"
AX_L3 = f"{AX}/15f7910d33b41282f8c4fc1c4ca374b1b5965f2b/examples/llama-3"
AX_MAG = f"{AX}/eac4a61f55a9d92dd7e4c1df05126208d86569f4/examples/magistral"
AX_DEV = f"{AX}/8c6a6ea6ebfe1666f9067c6f313f235fa3515c8f/examples/devstral"
AX_MIN = f"{AX}/2b66ee189c19a659e3aea24473388fd98b522b47/examples/ministral"
AX_OLMO = f"{AX}/372f664c635e9d794b4af9734ddd74dcb8eca45e/examples/olmo3"
SOURCES = {
    UNSLOTH: {
        "url": "https://unsloth.ai/docs/basics/unsloth-benchmarks",
        "also": ["https://docs.unsloth.ai/basics/unsloth-benchmarks (the same page on the earlier docs host)",
                 "https://unsloth.ai/blog/llama3-3 (December 2024: the same two context-length tables, with the "
                 "previous Unsloth version's column)"],
        "setup": "QLoRA (4-bit, LoRA rank 32 on q/k/v/o/gate/up/down) of Llama 3.1 8B Instruct and Llama 3.3 70B "
                 "Instruct, batch 1, every sequence padded to the length tried; the longest length that fits per "
                 "GPU memory size, 'Hugging Face + FA2' column (transformers + PEFT + bitsandbytes, "
                 "FlashAttention-2)",
        "versions": {"transformers": "not stated (4.47 written: December 2024)",
                     "torch": "not stated (2.5.1 written)",
                     "note": "the tables first appear in the Llama 3.3 blog post (December 2024)"},
        "date": "2024-12 (blog post); the docs page is not versioned",
        "project": "unslothai/unsloth (Unsloth AI)",
    },
    AX_LLAMA2: {
        "url": f"{AX_L2}/README.md",
        "also": [f"{AX_L2}/qlora.yml", f"{AX_L2}/lora.yml"],
        "setup": "Llama-2-7B QLoRA (4-bit, paged_adamw_32bit) and 8-bit LoRA (adamw_bnb_8bit), rank 32 on every "
                 "linear layer, 4,096 tokens packed, micro batch 2, gradient accumulation 4, bf16, gradient "
                 "checkpointing, xformers attention, one RTX 4090; 'about 17 GB' / '20 GB' of VRAM",
        "versions": {"transformers": "git main of 2023-08 (4.32.0.dev written)",
                     "torch": "not stated (README: 'Python 3.9 and Pytorch 2.0'; 2.0.1 written)",
                     "peft": "git main of 2023-08", "bitsandbytes": ">=0.39.0"},
        "date": "2023-08-03 (dc71d88)",
        "project": "axolotl-ai-cloud/axolotl (Axolotl AI), then OpenAccess-AI-Collective/axolotl",
    },
    AX_LLAMA3: {
        "url": f"{AX_L3}/README.md",
        "also": [f"{AX_L3}/fft-8b.yaml", f"{AX_L3}/lora-8b.yml", f"{AX_L3}/qlora-fsdp-70b.yaml"],
        "setup": "Llama-3-8B full fine-tune (bf16, paged_adamw_8bit, 8,192 tokens packed, micro batch 1) on one GPU; "
                 "Llama-2-7B 8-bit LoRA (4,096 tokens packed, micro batch 2) on one GPU; Llama-3-70B QLoRA (rank "
                 "8, 512 tokens, micro batch 1) under FSDP full shard with parameter offload on two GPUs; all "
                 "with gradient checkpointing and FlashAttention-2; 'Single GPU @ 48GB / 11GB VRAM', 'Dual GPU @ "
                 "21GB VRAM'",
        "versions": {"transformers": "git 43d17c18 (2024-04; 4.40.0.dev)", "peft": "0.10.0",
                     "bitsandbytes": "0.43.0", "accelerate": "0.28.0", "flash-attn": "2.5.5",
                     "torch": "not stated (README: 'Pytorch >=2.1.1'; 2.1.2 written)"},
        "date": "2024-04-18 (15f7910)",
        "project": "axolotl-ai-cloud/axolotl (Axolotl AI)",
    },
    AX_GUIDES: {
        "url": f"{AX_MIN}/README.md",
        "also": [f"{AX_MIN}/ministral-small-qlora.yaml",
                 f"{AX_OLMO}/README.md", f"{AX_OLMO}/olmo3-7b-qlora.yaml",
                 f"{AX_DEV}/README.md", f"{AX_DEV}/devstral-small-qlora.yml",
                 f"{AX_MAG}/README.md", f"{AX_MAG}/magistral-small-qlora.yaml",
                 f"{AX}/2b66ee189c19a659e3aea24473388fd98b522b47/src/axolotl/utils/bench.py",
                 f"{AX}/2b66ee189c19a659e3aea24473388fd98b522b47/src/axolotl/loaders/model.py"],
        "setup": "QLoRA (NF4 with double quantization, LoRA rank 32 on every linear layer) of Ministral 8B, OLMo 3 "
                 "7B, Devstral Small and Magistral Small (24B), 2,048 tokens with sample packing, micro batch 2, "
                 "gradient checkpointing, FlashAttention-2, Cut Cross Entropy in three; one GPU; 'This config "
                 "uses about N VRAM'",
        "versions": {"transformers": "4.52.3 (magistral), 4.53.1 (devstral), 4.57.1 (ministral, olmo3)",
                     "peft": "0.15.2 / >=0.18.0", "bitsandbytes": "0.45.4 / 0.46.0 / 0.48.2",
                     "torch": "not stated (guides: 'Pytorch 2.6.0 recommended' / '2.6.0+'; 2.6.0 written for June "
                              "and July 2025, 2.8.0 for December 2025)",
                     "note": "requirements.txt at each guide's commit"},
        "date": "2025-06-12 to 2025-12-25",
        "project": "axolotl-ai-cloud/axolotl (Axolotl AI)",
    },
    XTURING: {
        "url": f"{XT}/README.md",
        "also": [f"{XT}/src/xturing/trainers/lightning_trainer.py", f"{XT}/src/xturing/models/llama.py",
                 f"{XT}/src/xturing/engines/llama_engine.py", f"{XT}/src/xturing/engines/causal.py",
                 f"{XT}/src/xturing/utils/loss_fns.py", f"{XT}/src/xturing/config/config.yaml",
                 f"{XT}/src/xturing/preprocessors/instruction_collator.py"],
        "setup": "LLaMA-7B on Alpaca (52K instructions), 4 x A100 40GB, 'maximum sequence length': 512, 'batch size': "
                 "1; PyTorch Lightning with DeepSpeed ZeRO stage 2 in fp16: full fine-tune with CPU offload "
                 "(DeepSpeedCPUAdam), LoRA (rank 8 on q_proj/v_proj) with torch AdamW, LoRA with CPU offload; 'GPU' "
                 "33.5 / 23.7 / 21.9 GB",
        "versions": {"torch": "not pinned ('torch >= 1.9.0'; 1.13.1 written: March 2023)",
                     "pytorch-lightning": "not pinned (2.0.0 written)", "deepspeed": "not pinned (0.8.3 written)",
                     "transformers": "not pinned (4.27.1 written; LLaMA is xTuring's vendored copy, "
                                     "engines/llama_utils)",
                     "peft": "not pinned (0.2.0 written)"},
        "date": "2023-03-25 (e0a7983, 'fix: fix table in README.md')",
        "project": "stochasticai/xTuring (Stochastic)",
    },
}

# ------------------------------------------- 1. Unsloth docs: longest context of HF + FA2 per GPU size
UN_UNKNOWN = ("the figure is a bound, not a counter: the longest padded length that fits in the card's memory, "
              "read as a peak equal to that memory (X GB = 10^9 bytes written; X GiB would be 7% more)",
              "how the bound was found (which card of that size, or a cap on one larger card) is not said; the "
              "card written is one of that memory size that runs FlashAttention-2",
              "the baseline's optimizer, checkpointing and quantization settings are not stated: Hugging Face "
              "gradient checkpointing, 8-bit AdamW, NF4 with double quantization, prepare_model_for_kbit_training "
              "and LoRA dropout 0 written",
              "the library versions are not stated (transformers 4.47, torch 2.5.1 written: December 2024)")
UN_NOTE = ("Unsloth Benchmarks, 'Context length benchmarks': 4bit QLoRA on all linear layers with rank = 32, batch "
           "size 1, sequences padded to the length tried; 'Hugging Face + FA2' column; ")
UN_BASE = dict(mode="train", precision="amp-bf16", optimizer="adamw-8bit", micro_batch=1, grad_accum=1,
               grad_ckpt=True, attention="flash", world_size=1, quant="4bit", quant_type="nf4", double_quant=True,
               kbit_prepared=True, lora_r=32, lora_targets=["all-linear"], lora_dropout=0.0, loss="standard",
               padding="max_length", use_cache=False, torch_version="2.5.1", transformers_version="4.47.0")
for size, gpu, seq in ((12, "RTX-3060-12GB", 932), (16, "RTX-A4000-16GB", 2551), (24, "RTX-4090-24GB", 5789),
                       (40, "A100-SXM-40GB", 12264), (48, "RTX-A6000-48GB", 15502), (80, "A100-SXM-80GB", 28454)):
    add(UNSLOTH, f"llama3.1-8b-qlora-r32-hf-fa2-{size}gb-s{seq}", size, "GB", "nvidia-smi", gpu,
        dict(UN_BASE, model="Llama-3.1-8B", seq_len=seq), unknown=UN_UNKNOWN,
        notes=UN_NOTE + f"Llama 3.1 (8B) Instruct, GPU VRAM '{size} GB': longest context {seq:,}")
add_oom(UNSLOTH, "llama3.1-8b-qlora-r32-hf-fa2-8gb-s512", "nvidia-smi", "RTX-4060-8GB",
        dict(UN_BASE, model="Llama-3.1-8B", seq_len=512), unknown=UN_UNKNOWN,
        notes=UN_NOTE + "Llama 3.1 (8B) Instruct, GPU VRAM '8 GB': 'OOM' (no length fits; 512 tokens written, "
                        "the Unsloth column fits 2,972)")
add(UNSLOTH, "llama3.3-70b-qlora-r32-hf-fa2-80gb-s6916", 80, "GB", "nvidia-smi", "A100-SXM-80GB",
    dict(UN_BASE, model="Llama-3.1-70B", seq_len=6916), unknown=UN_UNKNOWN,
    notes=UN_NOTE + "Llama 3.3 (70B) Instruct 'on a 80GB A100' (the shapes of Llama 3.1 70B), GPU VRAM '80 GB': "
                    "longest context 6,916")
add_oom(UNSLOTH, "llama3.3-70b-qlora-r32-hf-fa2-48gb-s1024", "nvidia-smi", "RTX-A6000-48GB",
        dict(UN_BASE, model="Llama-3.1-70B", seq_len=1024), unknown=UN_UNKNOWN,
        notes=UN_NOTE + "Llama 3.3 (70B) Instruct, GPU VRAM '48 GB': 'OOM' (no length fits; 1,024 tokens written, "
                        "the Unsloth column fits 12,106)")

# --------------------------------------------- 2. axolotl 2023: Llama-2-7B QLoRA and LoRA on an RTX 4090
AX2_UNKNOWN = ("how 'about 17 GB' / '20 GB' was read is not said (the driver's figure, nvidia-smi written; GB "
               "read as GiB, the unit nvidia-smi prints)",
               "the versions: transformers, peft and accelerate from git main of August 2023, torch 2.0.1 "
               "written (README: 'Pytorch 2.0')",
               "xformers' memory-efficient attention written as attention 'flash' (no score matrix kept)",
               "max_packed_sequence_len 4096: every row of the micro batch packed to 4,096 tokens assumed",
               "axolotl of the time: NF4 with double quantization and prepare_model_for_kbit_training for the "
               "quantized base")
AX2_BASE = dict(mode="train", model="Llama-2-7B", precision="amp-bf16", micro_batch=2, grad_accum=4, seq_len=4096,
                padding="packed", grad_ckpt=True, attention="flash", world_size=1, kbit_prepared=True, lora_r=32,
                lora_targets=["all-linear"], lora_dropout=0.05, loss="standard", use_cache=False,
                torch_version="2.0.1", transformers_version="4.32.0")
AX2_NOTE = ("axolotl examples/llama-2/README.md at dc71d88: 'The 7b variant fits on any 24GB VRAM GPU and will take "
            "up about 17 GB of VRAM during training if using qlora and 20 GB if using lora. On a RTX 4090 it trains "
            "3 epochs ...'; ")
add(AX_LLAMA2, "llama2-7b-qlora-r32-s4096-packed-b2-rtx4090", 17, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(AX2_BASE, optimizer="paged-adamw", quant="4bit", quant_type="nf4", double_quant=True),
    unknown=AX2_UNKNOWN, notes=AX2_NOTE + "qlora.yml: load_in_4bit, adapter qlora, optimizer paged_adamw_32bit")
add(AX_LLAMA2, "llama2-7b-lora8bit-r32-s4096-packed-b2-rtx4090", 20, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(AX2_BASE, optimizer="adamw-8bit", quant="8bit", bitsandbytes_version="0.39.0"),
    unknown=(*AX2_UNKNOWN, "bitsandbytes: requirements.txt at dc71d88 asks bitsandbytes>=0.39.0 (est83): the lower "
                           "bound written; every release that meets it before 0.45 (2024-12) keeps the int8 "
                           "matmul's input for backward, as 0.39.0 does"),
    notes=AX2_NOTE + "lora.yml: load_in_8bit, adapter lora, optimizer adamw_bnb_8bit")

# ---------------------------------------------------------------- 3. axolotl 2024: the Llama-3 examples
AX3_UNKNOWN = ("which GPUs and how '@ N GB VRAM' was read are not said: read as the memory the job used per GPU "
               "(the driver's figure, nvidia-smi written; GB read as GiB)",
               "torch not stated (2.1.2 written; README: 'Pytorch >=2.1.1'); transformers from git 43d17c18 "
               "(4.40.0.dev)",
               "sample packing fills every row to the sequence length (pad_to_sequence_len true) assumed")
AX3_NOTE = "axolotl examples/llama-3/README.md at 15f7910: "
AX_CAST_BACK = ("est28 (after scoring, in-sample): prepare_model_for_kbit_training runs, but axolotl then casts the norms, embed_tokens and lm_head back to the torch dtype for LoRA/QLoRA without FSDP QLoRA (utils/models.py load_model at 15f7910: 'converting modules to %s for flash attention'; loaders/model.py _configure_embedding_dtypes in 2025, since axolotl #393 of 2023-08-21): kbit_prepared false (no fp32 embeddings, head or residual stream)")
add(AX_LLAMA3, "llama3-8b-fft-bf16-paged-adamw8bit-s8192-b1", 48, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(mode="train", model="Llama-3-8B", precision="bf16", optimizer="paged-adamw-8bit", micro_batch=1,
         grad_accum=8, seq_len=8192, padding="packed", grad_ckpt=True, attention="flash", world_size=1,
         loss="standard", use_cache=False, torch_version="2.1.2", transformers_version="4.40.0"),
    unknown=(*AX3_UNKNOWN, "the GPU is not named (an 80 GB A100 written: the job needs more than 48 GB cards "
                           "leave free)",
             "bf16: auto with the model loaded in bf16 (no fp32 master weights) assumed"),
    notes=AX3_NOTE + "'Full Fine Tune - Single GPU @ 48GB VRAM'; fft-8b.yaml: meta-llama/Meta-Llama-3-8B, "
                     "sequence_len 8192, sample_packing, micro_batch_size 1, gradient_accumulation_steps 8, "
                     "paged_adamw_8bit, bf16 auto, gradient_checkpointing (use_reentrant false), flash_attention")
add(AX_LLAMA3, "llama2-7b-lora8bit-r32-s4096-packed-b2", 11, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(mode="train", model="Llama-2-7B", precision="amp-bf16", optimizer="adamw-8bit", micro_batch=2,
         grad_accum=4, seq_len=4096, padding="packed", grad_ckpt=True, attention="flash", world_size=1,
         quant="8bit", kbit_prepared=False, lora_r=32, lora_targets=["all-linear"], lora_dropout=0.05,
         loss="standard", use_cache=False, torch_version="2.1.2", transformers_version="4.40.0",
         bitsandbytes_version="0.43.0"),
    unknown=(*AX3_UNKNOWN, "the GPU is not named (an 80 GB A100 written)", AX_CAST_BACK,
             "bitsandbytes: requirements.txt at 15f7910 pins bitsandbytes==0.43.0 (est83)",
             "the README's row is 'LoRA' of the 8B base model, but lora-8b.yml at that commit loads "
             "NousResearch/Llama-2-7b-hf in 8 bits: the config is taken"),
    notes=AX3_NOTE + "'LoRA - Single GPU @ 11GB VRAM'; lora-8b.yml: base_model NousResearch/Llama-2-7b-hf, "
                     "load_in_8bit, adapter lora, lora_r 32, lora_target_linear, sequence_len 4096, sample_packing, "
                     "micro_batch_size 2, gradient_accumulation_steps 4, adamw_bnb_8bit, flash_attention")
add(AX_LLAMA3, "llama3-70b-qlora-r8-fsdp2gpu-offload-s512-b1", 21, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(mode="train", model="Llama-3-70B", precision="amp-bf16", optimizer="adamw", micro_batch=1,
         grad_accum=4, seq_len=512, padding="max_length", grad_ckpt=True, attention="flash", world_size=2,
         fsdp="full", offload_params="cpu", fsdp_limit_all_gathers=True, quant="4bit", quant_type="nf4",
         double_quant=True, kbit_prepared=False, lora_r=8, lora_targets=["all-linear"], lora_dropout=0.05,
         loss="standard", use_cache=False, torch_version="2.1.2", transformers_version="4.40.0"),
    unknown=(*AX3_UNKNOWN, "the two GPUs are not named (24 GB RTX 4090s written: 21 GB fits them)",
             "Llama-3-70B (est50: was written as Llama 3.1 70B, the same shapes; its 131,072 positions, "
             "not Llama 3's 8,192, would size transformers 4.40's per-layer rotary tables)",
             "axolotl skips prepare_model_for_kbit_training under FSDP QLoRA (kbit_prepared false); "
             "axolotl sets bnb_4bit_quant_storage bf16 (utils/models.py at 15f7910) so FSDP can shard "
             "the 4-bit weights"),
    notes=AX3_NOTE + "'QLORA+FSDP - Dual GPU @ 21GB VRAM'; qlora-fsdp-70b.yaml: casperhansen/llama-3-70b-fp16, "
                     "load_in_4bit, adapter qlora, lora_r 8, lora_target_linear, sequence_len 512, "
                     "pad_to_sequence_len, micro_batch_size 1, gradient_accumulation_steps 4, adamw_torch, fsdp "
                     "full_shard auto_wrap, fsdp_offload_params true, fsdp_limit_all_gathers true, "
                     "fsdp_cpu_ram_efficient_loading true")

# ------------------------------------------------------ 4. axolotl 2025 model guides: QLoRA, one GPU
MINISTRAL_8B = {  # mistralai/Ministral-8B-Instruct-2410 config.json
    "model_type": "mistral", "architectures": ["MistralForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 36,
    "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 12288,
    "vocab_size": 131072, "hidden_act": "silu", "max_position_embeddings": 32768, "sliding_window": 32768,
    "tie_word_embeddings": False,
}
MISTRAL_SMALL_24B = {  # Mistral-Small-24B (2501) text config: Devstral-Small-2505 and Magistral-Small-2506
    "model_type": "mistral", "architectures": ["MistralForCausalLM"], "hidden_size": 5120, "num_hidden_layers": 40,
    "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 32768,
    "vocab_size": 131072, "hidden_act": "silu", "max_position_embeddings": 32768, "sliding_window": None,
    "tie_word_embeddings": False,
}
OLMO3_7B = {  # allenai Olmo-3-7B config.json, given as OLMo 2 (see the row's unknown)
    "model_type": "olmo2", "architectures": ["Olmo2ForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, "vocab_size": 100278,
    "hidden_act": "silu", "max_position_embeddings": 65536, "sliding_window": 4096, "tie_word_embeddings": False,
}
AXG_UNKNOWN = ("the GPU is not named in any guide (an 80 GB H100 written)",
               "torch not stated (2.6.0 written for June and July 2025, 2.8.0 for December 2025)",
               "sample packing fills every row of the micro batch to 2,048 tokens assumed (the 2k-sample data set "
               "fozziethebeat/alpaca_messages_2k_test)",
               "axolotl's defaults of the commit: NF4 with double quantization, prepare_model_for_kbit_training "
               "(single GPU, no FSDP)", AX_CAST_BACK)
OLMO3_UNKNOWN = ("OLMo 3 (model_type olmo3) is given as OLMo 2 (olmo2): the same blocks (post-norm, QK-norm) with "
                 "sliding-window attention of 4,096 on three of every four layers, which at 2,048 tokens attend "
                 "as full layers; vLLM's Olmo3Config maps Olmo3ForCausalLM to Olmo2ForCausalLM the same way")
AXG_BASE = dict(mode="train", precision="amp-bf16", micro_batch=2, grad_accum=4, seq_len=2048, padding="packed",
                grad_ckpt=True, attention="flash", world_size=1, quant="4bit", quant_type="nf4", double_quant=True,
                kbit_prepared=False, lora_r=32, lora_targets=["all-linear"], lora_dropout=0.05, use_cache=False)
RESERVED_UNKNOWN = ("which of the trainer's three logged figures the guide quotes (memory/max_active, "
                    "memory/max_allocated, memory/device_reserved) is not said: the reserved figure written")
SMI_UNKNOWN = ("how the figure was read is not said (before axolotl logged memory per step): the driver's figure, "
               "nvidia-smi written, GB read as GiB")
for rid, value, unit, measured, setup, extra, note in (
        ("magistral-small-2506-qlora-r32-s2048-packed-b2", 24, "GiB", "nvidia-smi",
         dict(hf_config=MISTRAL_SMALL_24B, model_name="mistralai/Magistral-Small-2506", optimizer="adamw-8bit",
              loss="standard", torch_version="2.6.0", transformers_version="4.52.3"),
         SMI_UNKNOWN, "examples/magistral at eac4a61 (2025-06-12): 'This config uses about 24GB VRAM.'; "
                      "magistral-small-qlora.yaml: no Cut Cross Entropy plugin, adamw_bnb_8bit, "
                      "pad_to_sequence_len"),
        ("devstral-small-2505-qlora-r32-s2048-packed-b2-cce", 21, "GiB", "nvidia-smi",
         dict(hf_config=MISTRAL_SMALL_24B, model_name="mistralai/Devstral-Small-2505", optimizer="adamw",
              loss="fused", lora_dropout=0.0, torch_version="2.6.0", transformers_version="4.53.1"),
         SMI_UNKNOWN, "examples/devstral at 8c6a6ea (2025-07-08): 'This config uses about 21GB VRAM.'; "
                      "devstral-small-qlora.yml: CutCrossEntropyPlugin, adamw_torch, lora_dropout 0, "
                      "pad_to_sequence_len"),
        ("ministral-8b-2410-qlora-r32-s2048-packed-b2-cce", 8.76, "GiB", "memory_reserved",
         dict(hf_config=MINISTRAL_8B, model_name="mistralai/Ministral-8B-Instruct-2410", optimizer="adamw-8bit",
              loss="fused", torch_version="2.8.0", transformers_version="4.57.1"),
         RESERVED_UNKNOWN, "examples/ministral at 2b66ee1 (2025-12-04): 'This config uses about 8.76 GiB VRAM.'; "
                           "ministral-small-qlora.yaml: CutCrossEntropyPlugin, adamw_bnb_8bit"),
        ("olmo3-7b-instruct-sft-qlora-r32-s2048-packed-b2-cce", 11.3, "GiB", "memory_reserved",
         dict(hf_config=OLMO3_7B, model_name="allenai/Olmo-3-7B-Instruct-SFT", optimizer="adamw-8bit",
              loss="fused", grad_accum=2, torch_version="2.8.0", transformers_version="4.57.1"),
         (RESERVED_UNKNOWN, OLMO3_UNKNOWN), "examples/olmo3 at 372f664 (2025-12-25): 'This uses about 11.3 GiB VRAM.'; "
                           "olmo3-7b-qlora.yaml: CutCrossEntropyPlugin, adamw_8bit (bitsandbytes), "
                           "gradient_accumulation_steps 2")):
    add(AX_GUIDES, rid, value, unit, measured, "H100-SXM-80GB", dict(AXG_BASE, **setup),
        unknown=(*((extra,) if isinstance(extra, str) else extra), *AXG_UNKNOWN),
        notes="axolotl " + note + "; sequence_len 2048, sample_packing, micro_batch_size 2, load_in_4bit, adapter "
                                  "qlora, lora_r 32, lora_target_linear, gradient_checkpointing, flash_attention")


# -------------------------------- 5. xTuring: LLaMA-7B under Lightning's DeepSpeed ZeRO-2 on 4 x A100 40GB
XT_UNKNOWN = ("how 'GPU' was read is not said (the driver's figure, nvidia-smi written; GB read as GiB) nor on which "
              "of the four GPUs",
              "the versions are not pinned (torch 1.13.1, Lightning 2.0.0, DeepSpeed 0.8.3, transformers 4.27.1 "
              "written: March 2023); LLaMA-7B (sallywww/Llama-7B) has the shapes of Llama-2-7B",
              "Lightning's DeepSpeedStrategy defaults assumed for stage 2 (overlap_comm, contiguous gradients, "
              "2e8-element reduce and all-gather buckets)",
              "Alpaca samples padded to the longest of the batch (padding=True) and cut at 512 tokens; with batch 1 "
              "each step is one sample's length, at most 512",
              "the LoRA columns: the README says batch size 1, LlamaLORA's trainer at the commit passes 4 (1 "
              "written, the README's figure); the offload column swaps AdamW for DeepSpeedCPUAdam",
              "no gradient checkpointing (the vendored LLaMA supports it; nothing enables it)")
XT_NOTE = ("xTuring README 'Performance' at e0a7983: 'LLaMA 7B ... Alpaca dataset ... Hardware: 4xA100 40GB GPU, 335GB "
           "CPU RAM ... maximum sequence length: 512, batch size: 1'; ")
XT_BASE = dict(mode="train", model="Llama-2-7B", precision="fp16", optimizer="adamw", micro_batch=1, grad_accum=1,
               seq_len=512, padding="dynamic", grad_ckpt=False, attention="eager", world_size=4, zero_stage=2,
               overlap_comm=True, contiguous_gradients=True, reduce_bucket_size=200_000_000,
               allgather_bucket_size=200_000_000, loss="standard", loss_in_logits_dtype=True,
               torch_version="1.13.1", transformers_version="4.27.1", deepspeed_version="0.8.3")
LORA_QV = dict(lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.1)
for rid, value, column, extra, how in (
        ("llama-7b-full-zero2-offload-4xa100-b1-s512", 33.5, "DeepSpeed + CPU Offloading",
         dict(offload_optimizer="cpu"), "Llama: cpu_adam -> strategy deepspeed_stage_2_offload, precision 16"),
        ("llama-7b-lora-r8-qv-zero2-4xa100-b1-s512", 23.7, "LoRA + DeepSpeed", LORA_QV,
         "LlamaLORA: adamw -> strategy deepspeed_stage_2, precision 16; LoraConfig r=8, lora_alpha 32, "
         "lora_dropout 0.1, target_modules q_proj, v_proj"),
        ("llama-7b-lora-r8-qv-zero2-offload-4xa100-b1-s512", 21.9, "LoRA + DeepSpeed + CPU Offloading",
         dict(LORA_QV, offload_optimizer="cpu"), "LlamaLORA with cpu_adam -> deepspeed_stage_2_offload")):
    add(XTURING, rid, value, "GiB", "nvidia-smi", "A100-SXM-40GB", dict(XT_BASE, **extra),
        unknown=(*XT_UNKNOWN, "A100 40GB SXM or PCIe not said (SXM written)"),
        notes=XT_NOTE + f"column '{column}': GPU '{value} GB'; {how}; the loss is xTuring's CrossEntropyLoss on the "
                        "fp16 logits of the answer tokens (no upcast)")


def main():
    write_split("heldout15", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
