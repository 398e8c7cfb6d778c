"""The nineteenth held-out set (calibration/public/heldout19.json): public measured peaks and out-of-memory
verdicts from four publishers no earlier set uses, with half the rows not single-GPU LoRA of a decoder LLM: Zhipu
AI / Tsinghua KEG's own fine-tuning demos and their issue threads (THUDM/GLM-4 and THUDM/ChatGLM3: a GLM-4-9B-Chat
LoRA on one A100 80GB and its full fine-tune under DeepSpeed ZeRO-3 on eight, a ChatGLM3-6B LoRA on one GPU and its
full fine-tune under ZeRO-3 on four, each from the README's per-GPU memory table, and three LoRA runs users report
out of memory: GLM-4-9B at 6,145 tokens under ZeRO-3 on four RTX 3090s, GLM-4-9B with the demo's defaults on one RTX
3090 Ti, ChatGLM3-6B at 2,561 tokens on one RTX 4090), usamec/lowmem_finetuning (full fine-tunes of Llama-3.2-1B
with fp32 Adam and with Adafactor, and bf16 Adafactor applied inside backward with a fused linear cross-entropy for
Llama-3.2-1B and Llama-3.1-8B, read from the script's own torch.cuda.mem_get_info log), s1 (simplescaling/s1:
Qwen2.5-32B full fine-tunes under the Trainer's FSDP at 32k tokens that run out of memory on 8 and 16 H100s) and
vasistalodagala/whisper-finetune (a Whisper-large-v3 full fine-tune with 8-bit AdamW on an A100 80GB); every row
sourced, what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout19.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names that
bench/public_accuracy.py passes through). Same row format as devset.json (see build_devset.py); verdict-only rows
(``outcome`` "oom", no ``peak_bytes``) count for false fits only. Every figure is the source's own words. The
measurement kind is written per row: the GLM-4 and ChatGLM3 tables print "MiB" per GPU (the driver's figure, as
nvidia-smi prints it, is assumed: the README names no counter); lowmem_finetuning prints ``(total-free)/1024**3``
from ``torch.cuda.mem_get_info()`` (device-wide memory in use, the quantity nvidia-smi shows) with the label "GB",
which is GiB; the Whisper issue's "41GB" names no counter or unit base (nvidia-smi in GiB written).

1. THUDM/GLM-4 ``finetune_demo/README_en.md`` at a2e501f (2024-06-17), "tested in the following hardware
   environment ... GPU: NVIDIA A100-SXM4-80GB * 8": "lora (PEFT) | 21531MiB" and "SFT (Zero3 method) | 80935MiB (Each
   GPU, 8 GPUs are required)" for GLM-4-9B-Chat; ``configs/lora.yaml`` (max_input_length 512, max_output_length 512,
   batch 1, LoRA rank 8, alpha 32, dropout 0.1, evaluation every 500 steps with generation of 512 new tokens at
   batch 4), ``configs/sft.yaml`` (input 256, output 512, batch 1, ``deepspeed: configs/ds_zero_3.json``),
   ``finetune.py`` (``torch_dtype=torch.bfloat16``, gradient checkpointing, padding to the longest);
   ``basic_demo/requirements.txt``: transformers 4.40.0, torch>=2.3.0.
2. THUDM/ChatGLM3 ``finetune_demo/README_en.md`` (table from 9484f82, 2024-01-27): "SFT full fine-tuning: evenly
   distributed among 4 graphics cards, each graphics card occupies ``48346MiB``"; "LORA fine-tuning: 1 graphics card,
   occupying ``14082MiB``"; ``configs/lora.yaml`` / ``sft.yaml`` (input 128, output 256, batch 1, LoRA rank 8; SFT
   with ``ds_zero_3.json``); ``finetune_hf.py`` casts every trainable parameter to fp32
   (``_prepare_model_for_training``) and enables gradient checkpointing.
3. THUDM/GLM-4 issues #375 (2024-07-22: LoRA with ``deepspeed: configs/ds_zero_3.json`` on four RTX 3090s,
   max_input_length 4096, max_output_length 2048, batch 1: "OutOfMemoryError: CUDA out of memory. Tried to allocate
   214.00 MiB") and #228 (2024-06-24: the demo's lora.yaml on one RTX 3090 Ti, evaluation batch 2: "OutOfMemoryError:
   CUDA out of memory. Tried to allocate 12.00 MiB. GPU 0 has a total capacty of 23.99 GiB of which 0 bytes is
   free"); THUDM/ChatGLM3 issue #806 (2024-01-31: LoRA rank 4 on one RTX 4090, max_input_length 2048,
   max_output_length 512, batch 1, "显存一直暴涨直到OOM"; the maintainer: "我记得只能512 512 24G显存").
4. usamec/lowmem_finetuning ``README.md``: "We finetune Llama-3.2-1B. | FP32 Adam | 54.2 | 29.2 GB | FP32 Adafactor |
   54.5 | 14.4 GB | Lowmemory BF16 Adafactor | 53.6 | 3.9 GB |" and "We can also fine-tune Llama-3.1-8B using only
   18.6 GB of memory!"; ``finetune_base.py`` (fp32 weights, bf16 autocast, torch.compile, gradient checkpointing,
   HellaSwag padded to 160 tokens, batch 32 for Adam and 8 for Adafactor, the optimizer over the decoder layers only)
   and ``finetune_lowmem.py`` (bf16 weights, Adafactor stepped in a post-accumulate-grad hook that frees each
   gradient, embeddings and LM head frozen, cut-cross-entropy's ``linear_cross_entropy``, batch 8).
5. simplescaling/s1 issue #13 (2025-02-06..13): ``train/sft_multinode.sh`` (Qwen2.5-32B-Instruct, ``--fsdp
   "full_shard auto_wrap"``, bf16, micro batch 1, ``--block_size=32768``, gradient checkpointing) out of memory on 8 x
   H100 (the maintainer: "We used 16 H100 and got OOM with 8"), and with the s1.1 data at a 32,000-token cutoff on 16
   x H100 ("s1.1 dataset with cutoff len=32000 cause oom with 16 * h100"; the maintainer: "we set it to 20K for
   s1.1"); issue #61 (2025-02-16): the same script on 2 nodes of 8 H100 with ``--block_size=32768`` out of memory
   ("Of the allocated memory 76.77 GiB is allocated by PyTorch").
6. vasistalodagala/whisper-finetune issue #20 (2024-08-25): "I'm fine-tuning Whisper-Large-V3 on an A100-80G ... the
   process only allocates 41GB of GPU RAM"; ``train/fine-tune_on_hf_dataset.py`` (fp16 AMP, gradient checkpointing,
   ``optim="adamw_bnb_8bit"``, per-device batch 48 by default, nothing frozen).

Left out on purpose (decided before scoring, by what is known): the P-tuning v2 rows of both tables (no field takes
prefix tuning), GLM-4V-9B's LoRA row (an EVA2-CLIP tower no catalog entry has), TinyZero / verl PPO reports (actor, critic, reference
and vLLM rollout share GPUs), s1 issue #56 (single-process DataParallel over four GPUs), ChatBLOOM's ColossalAI
strategies, and every "fits in N GB" claim with no figure or no configuration."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-19"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GLM4 = "glm4-finetune-demo-table"
CHATGLM3 = "chatglm3-finetune-demo-table"
GLM_OOM = "glm-issues-lora-oom"
LOWMEM = "lowmem-finetuning-readme"
S1 = "s1-qwen32b-fsdp-32k-oom"
WHISPER = "whisper-finetune-issue-20"
GH = "https://github.com"
G4_C = f"{GH}/THUDM/GLM-4/blob/a2e501f43e2f18e7c8b5e0200430e3ef061c254c"
G4_L = f"{GH}/THUDM/GLM-4/blob/b5683f2f052f90533ed4ec8cf8d4c07e33f5313d"
C3_T = f"{GH}/THUDM/ChatGLM3/blob/9484f8204f1536e338a5557138a65e31d2a3984d"
C3_C = f"{GH}/THUDM/ChatGLM3/blob/0f1ce7f0ce1f8c7dcbb8ac3a16da1549c4e00df2"
LM_C = f"{GH}/usamec/lowmem_finetuning/blob/6d8dc10f15d72218ddf4f2dd8f77e87f7edf0f0a"
S1_C = f"{GH}/simplescaling/s1/blob/0a6864fdece6029f2013aafcb4db3dc3889fbb31"
WF_C = f"{GH}/vasistalodagala/whisper-finetune/blob/718ad18b669d7ed5290a4c1c3577b0b141621555"
SOURCES = {
    GLM4: {
        "url": f"{G4_C}/finetune_demo/README_en.md",
        "also": [f"{G4_C}/finetune_demo/configs/lora.yaml", f"{G4_C}/finetune_demo/configs/sft.yaml",
                 f"{G4_C}/finetune_demo/configs/ds_zero_3.json", f"{G4_C}/finetune_demo/finetune.py",
                 f"{G4_C}/basic_demo/requirements.txt", f"{G4_C}/finetune_demo/requirements.txt"],
        "setup": "GLM-4-9B-Chat fine-tuning demo (finetune.py, Seq2SeqTrainer) on A100-SXM4-80GB: LoRA rank 8 on "
                 "query_key_value with bf16 weights on one GPU (input 512 + output 512 tokens, batch 1), and a full "
                 "fine-tune under DeepSpeed ZeRO-3 on eight GPUs (input 256 + output 512, batch 1, DeepSpeed AdamW); "
                 "gradient checkpointing, padding to the longest; per-GPU 'GPU memory usage' in MiB",
        "versions": {"transformers": "4.40.0 (basic_demo/requirements.txt)", "torch": ">=2.3.0 (2.3.0 written)",
                     "deepspeed": ">=0.14.3 (0.14.3 written)", "peft": ">=0.11.1"},
        "date": "2024-06-17 (README table at a2e501f)",
        "project": "THUDM/GLM-4 (Zhipu AI / Tsinghua KEG)",
    },
    CHATGLM3: {
        "url": f"{C3_T}/finetune_demo/README_en.md",
        "also": [f"{C3_C}/finetune_demo/configs/lora.yaml", f"{C3_C}/finetune_demo/configs/sft.yaml",
                 f"{C3_C}/finetune_demo/configs/ds_zero_3.json", f"{C3_C}/finetune_demo/finetune_hf.py",
                 f"{C3_C}/finetune_demo/requirements.txt"],
        "setup": "ChatGLM3-6B fine-tuning demo (finetune_hf.py): LoRA rank 8 on one GPU and a full fine-tune under "
                 "DeepSpeed ZeRO-3 on four GPUs, input 128 + output 256 tokens, batch 1, trainable parameters cast "
                 "to fp32, gradient checkpointing; per-GPU memory in MiB ('48346MiB' each of four, '14082MiB')",
        "versions": {"transformers": "not stated for the table (January 2024: 4.37.1 written; >=4.38.1 "
                                     "pinned a month later)", "torch": "not stated (2.1.2 written)",
                     "deepspeed": ">=0.13.3", "peft": "0.7.1"},
        "date": "2024-01-27 (table at 9484f82); configs at 0f1ce7f (2024-02-24)",
        "project": "THUDM/ChatGLM3 (Zhipu AI / Tsinghua KEG)",
    },
    GLM_OOM: {
        "url": f"{GH}/THUDM/GLM-4/issues/375",
        "also": [f"{GH}/THUDM/GLM-4/issues/228", f"{GH}/THUDM/ChatGLM3/issues/806",
                 f"{G4_L}/finetune_demo/finetune.py", f"{G4_L}/finetune_demo/configs/lora.yaml"],
        "setup": "LoRA runs of the GLM-4 / ChatGLM3 demos that users report out of memory: GLM-4-9B-Chat under "
                 "ZeRO-3 on 4 x RTX 3090 at 4,096 + 2,048 tokens; GLM-4-9B-Chat with the demo's lora.yaml on one "
                 "RTX 3090 Ti; ChatGLM3-6B LoRA rank 4 at 2,048 + 512 tokens on one RTX 4090",
        "versions": {"transformers": "4.42.2 (#375), 4.37.1 (#806), not stated (#228: 4.40.0 written)",
                     "torch": "2.1.0 (#228), 2.1.2 (#806), not stated (#375: 2.3.1 written)"},
        "date": "2024-07-22 (#375), 2024-06-24 (#228), 2024-01-31 (#806)",
        "project": "THUDM/GLM-4 and THUDM/ChatGLM3 issue threads",
    },
    LOWMEM: {
        "url": f"{LM_C}/README.md",
        "also": [f"{GH}/usamec/lowmem_finetuning/blob/8253858a3d5e9523874b300377ee702d729a8d79/finetune_base.py",
                 f"{GH}/usamec/lowmem_finetuning/blob/5ec882e54276f907852977ac9224b5c6ddb13d0e/finetune_lowmem.py",
                 f"{GH}/usamec/lowmem_finetuning/blob/e69c435ba8e211fff01edbb65f25c5efb1c4557b/utils.py"],
        "setup": "Full fine-tunes on HellaSwag padded to 160 tokens, torch.compile(dynamic=True), gradient "
                 "checkpointing: Llama-3.2-1B in fp32 with bf16 autocast and torch Adam (batch 32) or the "
                 "repository's Adafactor (batch 8) over the decoder layers; Llama-3.2-1B and Llama-3.1-8B in bf16 "
                 "with Adafactor applied per parameter in a post-accumulate-grad hook that frees the gradient, "
                 "embeddings and LM head frozen, cut-cross-entropy's linear_cross_entropy (batch 8); memory = "
                 "(total - free) of torch.cuda.mem_get_info() / 1024**3 at the logging steps",
        "versions": {"torch": "not stated (2.6.0 written: cut-cross-entropy and a 2025 paper cited)",
                     "transformers": "not stated (4.53.0 written)"},
        "date": "2025 (README cites arXiv 2507.07101)",
        "project": "usamec/lowmem_finetuning (Vladimír Boža)",
    },
    S1: {
        "url": f"{GH}/simplescaling/s1/issues/13",
        "also": [f"{GH}/simplescaling/s1/issues/61", f"{S1_C}/train/sft_multinode.sh", f"{S1_C}/train/sft.py",
                 f"{S1_C}/train/fsdp_config_qwen.json", f"{S1_C}/requirements.txt"],
        "setup": "s1 SFT of Qwen2.5-32B-Instruct (train/sft.py, trl SFTTrainer): fp32 weights sharded by the "
                 "Trainer's FSDP 'full_shard auto_wrap' of Qwen2DecoderLayer with bf16 mixed precision, AdamW "
                 "(adamw_torch), micro batch 1, block_size 32,768 (s1.1: cutoff 32,000), gradient checkpointing: "
                 "out of memory on 8 and 16 H100 80GB",
        "versions": {"torch": "2.5.1 (requirements.txt)", "transformers": "4.46.1", "trl": "0.12.0",
                     "accelerate": "1.0.1"},
        "date": "2025-02-06..13 (#13), 2025-02-16 (#61); scripts at 0a6864f",
        "project": "simplescaling/s1 (Stanford)",
    },
    WHISPER: {
        "url": f"{GH}/vasistalodagala/whisper-finetune/issues/20",
        "also": [f"{WF_C}/train/fine-tune_on_hf_dataset.py", f"{WF_C}/README.md"],
        "setup": "Whisper-large-v3 full fine-tune with the repository's Seq2SeqTrainer script: fp16 AMP over fp32 "
                 "weights, gradient checkpointing, bitsandbytes 8-bit AdamW (adamw_bnb_8bit), 30 s inputs, default "
                 "per-device batch 48, one A100 80GB: '41GB'",
        "versions": {"transformers": "not stated (>=4.36 needed for large-v3; 4.44.0 written)",
                     "torch": "not stated (2.3.1 written)", "bitsandbytes": "not stated"},
        "date": "2024-08-25 (issue); script at 718ad18",
        "project": "vasistalodagala/whisper-finetune",
    },
}

# ------------------------------------------------------------------ model shapes (remote-code GLM models, Llama-shaped)
GLM4_9B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 13696, "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 2,
           "vocab_size": 151552, "max_position_embeddings": 131072, "rope_theta": 10000.0, "rms_norm_eps": 1.5625e-07,
           "tie_word_embeddings": False,
           # est50: the repository's config names its remote modeling code
           "auto_map": {"AutoModelForCausalLM": "modeling_chatglm.ChatGLMForConditionalGeneration"}}
CHATGLM3_6B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
               "intermediate_size": 13696, "num_hidden_layers": 28, "num_attention_heads": 32,
               "num_key_value_heads": 2, "vocab_size": 65024, "max_position_embeddings": 8192, "rope_theta": 10000.0,
               "rms_norm_eps": 1e-05, "tie_word_embeddings": False,
               # est50: the repository's config names its remote modeling code
               "auto_map": {"AutoModelForCausalLM": "modeling_chatglm.ChatGLMForConditionalGeneration"}}
GLM_SHAPE = ("GLM remote code (ChatGLMForConditionalGeneration: fused query_key_value with 2 KV groups, SwiGLU of "
             "13,696, untied output layer) written as a Llama-shaped config with its sizes; LoRA on query_key_value "
             "written as q/k/v (peft's default target for chatglm)")
QKV = ["q_proj", "k_proj", "v_proj"]
ZERO3_DEMO = dict(zero_stage=3, overlap_comm=True, contiguous_gradients=True, max_live_parameters=1000000000,
                  max_reuse_distance=1000000000, reduce_bucket_size=16777216, prefetch_bucket_size=15099494)

# ------------------------------------------------------------------ 1. GLM-4-9B-Chat demo table (MiB per GPU)
G4_BASE = dict(mode="train", hf_config=GLM4_9B, model_name="GLM-4-9B-Chat", precision="bf16", optimizer="adamw",
               micro_batch=1, grad_accum=1, padding="dynamic", grad_ckpt=True, attention="sdpa", loss="standard",
               use_cache=False, torch_version="2.3.0", transformers_version="4.40.0")
G4_UNKNOWN = (GLM_SHAPE,
              "'GPU memory usage' names no counter: the driver's figure (nvidia-smi) in MiB written; the step it was "
              "read at is not said (evaluation every 500 steps generates with predict_with_generate)",
              "AdvertiseGen samples are far shorter than the caps; the cap (input + output + 1) written as seq_len",
              "torch not stated (>=2.3.0: 2.3.0 written); the remote code's attention uses torch SDPA (sdpa written)")
add(GLM4, "glm-4-9b-chat-lora-r8-bf16-s1025-1xa100-80gb", 21531, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(G4_BASE, seq_len=1025, world_size=1, lora_r=8, lora_targets=QKV, lora_dropout=0.1),
    unknown=(*G4_UNKNOWN, "bf16 weights (torch_dtype=torch.bfloat16), no AMP flag in lora.yaml: LoRA weights in "
             "bf16, the Trainer's AdamW over them"),
    notes="GLM-4 finetune_demo/README_en.md: '| lora (PEFT) | 21531MiB | 17M |' (GPU: NVIDIA A100-SXM4-80GB * 8; "
          "'python finetune.py data/AdvertiseGen/ THUDM/glm-4-9b-chat configs/lora.yaml' runs on one GPU)")
add(GLM4, "glm-4-9b-chat-full-ft-zero3-bf16-s769-8xa100-80gb", 80935, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(G4_BASE, seq_len=769, world_size=8, devices_per_node=8, deepspeed_version="0.14.3", **ZERO3_DEMO),
    unknown=(*G4_UNKNOWN, "bf16 weights loaded, sft.yaml sets no bf16 flag: DeepSpeed's bf16 'auto' resolves to "
             "off, so the ZeRO-3 engine keeps the bf16 parameters with DeepSpeed's AdamW over fp32 partitions "
             "(written as bf16 with zero_stage 3); 'auto' buckets resolved for hidden 4,096",
             "80,935 MiB of an 80 GB card: the allocator caches up to the card's capacity"),
    notes="GLM-4 finetune_demo/README_en.md: '| SFT (Zero3 method) | 80935MiB<br/>(Each GPU, 8 GPUs are required) "
          "| 20G |'")

# ------------------------------------------------------------------ 2. ChatGLM3-6B demo table (MiB per GPU)
# est51 (after scoring, so in-sample): no gradient checkpointing. finetune_demo/finetune_hf.py at 9484f82 (the
# table's commit, 2024-01-27) and at b564f40 (2024-01-28, the demo issue #806 ran on 2024-01-31) never calls
# gradient_checkpointing_enable, and configs/lora.yaml / sft.yaml set no gradient_checkpointing; the call came
# with b74bab7 (2024-02-06, "transformers>=4.37.2 for finetuning": "+    model.gradient_checkpointing_enable()").
# (Its LoRA branch also left use_cache at the config's True; ChatGLM3's 2-group KV cache is kept for
# backward anyway, so use_cache stays as written.)
C3_BASE = dict(mode="train", hf_config=CHATGLM3_6B, model_name="ChatGLM3-6B", optimizer="adamw", micro_batch=1,
               grad_accum=1, seq_len=385, padding="dynamic", grad_ckpt=False, attention="sdpa", loss="standard",
               use_cache=False, torch_version="2.1.2", transformers_version="4.37.1")
C3_UNKNOWN = (GLM_SHAPE,
              "'occupying 14082MiB' / 'occupies 48346MiB' name no counter: the driver's figure (nvidia-smi) written; "
              "GPU not named ('tested using ... H100 ... A100': an A100 80GB written)",
              "AdvertiseGen samples padded to the longest; the cap 128 + 256 + 1 written as seq_len",
              "versions not stated for the table (January 2024: torch 2.1.2, transformers 4.37.1 written)")
add(CHATGLM3, "chatglm3-6b-lora-r8-fp16-s385-1gpu", 14082, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(C3_BASE, precision="fp16", world_size=1, lora_r=8, lora_targets=QKV, lora_dropout=0.1),
    unknown=(*C3_UNKNOWN, "from_pretrained without torch_dtype; the remote code builds its layers in the config's "
             "float16 (the figure fits 16-bit weights, not fp32), and _prepare_model_for_training casts the LoRA "
             "weights to fp32; no AMP flag"),
    notes="ChatGLM3 finetune_demo/README_en.md: '+ LORA fine-tuning: 1 graphics card, occupying `14082MiB` memory.'")
add(CHATGLM3, "chatglm3-6b-full-ft-zero3-fp32-s385-4gpu", 48346, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(C3_BASE, precision="fp32", world_size=4, devices_per_node=4, deepspeed_version="0.13.3", **ZERO3_DEMO),
    unknown=(*C3_UNKNOWN, "every parameter is trainable, so _prepare_model_for_training casts all of them to fp32; "
             "no bf16 flag (DeepSpeed bf16 'auto' off): fp32 training under ZeRO-3 on four GPUs"),
    notes="ChatGLM3 finetune_demo/README_en.md: '+ SFT full fine-tuning: evenly distributed among 4 graphics cards, "
          "each graphics card occupies `48346MiB` of video memory.'")

# ------------------------------------------------------------------ 3. GLM-4 / ChatGLM3 LoRA runs reported out of memory
add_oom(GLM_OOM, "glm-4-9b-chat-lora-zero3-bf16-s6145-4xrtx3090", "nvidia-smi", "RTX-3090-24GB",
        dict(G4_BASE, seq_len=6145, grad_accum=8, world_size=4, devices_per_node=4, lora_r=8, lora_targets=QKV,
             lora_dropout=0.1, torch_version="2.3.1", transformers_version="4.42.2", deepspeed_version="0.14.4",
             **ZERO3_DEMO),
        unknown=(GLM_SHAPE,
                 "the issue's peft_config is cut off: the demo's rank 8, dropout 0.1 written; max_input_length 4096 "
                 "+ max_output_length 2048 + 1 written as the longest sample",
                 "under ZeRO-3 the frozen bf16 base is partitioned too (stage 3 partitions every parameter); the "
                 "evaluation step generates up to 2,048 new tokens at batch 1",
                 "torch and DeepSpeed not stated (torch 2.3.1, DeepSpeed 0.14.4 written: July 2024)"),
        notes="GLM-4 issue #375 (ShepherdX, 2024-07-22): '4张3090 lora微调时报错 OutOfMemoryError: CUDA out of memory. "
              "Tried to allocate 214.00 MiB'; 'batch size设置为1，max_input_length: 4096, max_output_length: 2048'; "
              "'deepspeed: configs/ds_zero_3.json'")
add_oom(GLM_OOM, "glm-4-9b-chat-lora-r8-bf16-s1025-rtx3090ti", "nvidia-smi", "RTX-3090-Ti-24GB",
        dict(G4_BASE, seq_len=1025, world_size=1, lora_r=8, lora_targets=QKV, lora_dropout=0.1,
             torch_version="2.1.0"),
        unknown=(GLM_SHAPE,
                 "the issue shows training_args and peft_config of the demo's lora.yaml; its max_input_length / "
                 "max_output_length are not shown (the demo's 512 / 512 written)",
                 "when the failure came is not said (9,000 samples, evaluation batch 2 with 512 new tokens every "
                 "500 steps); transformers not stated (4.40.0 written)"),
        notes="GLM-4 issue #228 (RyanCcc114, 2024-06-24): '单卡3090ti进行lora微调，遇到了OOM问题' ... 'OutOfMemoryError: "
              "CUDA out of memory. Tried to allocate 12.00 MiB. GPU 0 has a total capacty of 23.99 GiB of which 0 "
              "bytes is free'")
add_oom(GLM_OOM, "chatglm3-6b-lora-r4-fp16-s2561-rtx4090", "nvidia-smi", "RTX-4090-24GB",
        dict(C3_BASE, precision="fp16", seq_len=2561, world_size=1, lora_r=4, lora_targets=QKV, lora_dropout=0.1),
        unknown=(GLM_SHAPE,
                 "'My own modified scripts' is ticked: the demo's finetune_hf.py assumed otherwise unchanged (16-bit "
                 "base, LoRA weights cast to fp32; est51: no gradient checkpointing before b74bab7)",
                 "max_input_length 2048 + max_output_length 512 + 1 written as the longest sample"),
        notes="ChatGLM3 issue #806 (luzhongqiu, 2024-01-31): transformers==4.37.1, torch-2.1.2, '4090 24G显存', "
              "'max_input_length: 2048 max_output_length: 512 per_device_train_batch_size: 1' LoRA r 4: '显存一直暴涨"
              "直到OOM'; zRzRzRzRzRzRzR: '我记得只能512 512 24G显存'")

# ------------------------------------------------------------------ 4. lowmem_finetuning (mem_get_info, GiB)
LM_BASE = dict(mode="train", micro_batch=8, grad_accum=1, seq_len=160, padding="max_length", grad_ckpt=True,
               attention="sdpa", compiled=True, world_size=1, use_cache=False, torch_version="2.6.0",
               transformers_version="4.53.0")
LM_UNKNOWN = ("the figure is torch.cuda.mem_get_info()'s total - free divided by 1024**3 ('GB' is GiB): "
              "device-wide memory in use, as nvidia-smi shows it, read at the logging steps (after optimizer.step / "
              "zero_grad), not a peak counter",
              "the GPU is not named (its total is printed, not quoted): an A100 80GB written",
              "torch and transformers are not pinned (torch 2.6.0, transformers 4.53.0 written); HellaSwag "
              "context + gold ending padded to max_length 160")
BASE_NOTE = "lowmem_finetuning README: 'We finetune Llama-3.2-1B.' "
add(LOWMEM, "llama-3.2-1b-full-ft-fp32-adam-ampbf16-b32-s160", 29.2, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(LM_BASE, model="Llama-3.2-1B", precision="amp-bf16", optimizer="adamw", micro_batch=32, loss="standard"),
    unknown=(*LM_UNKNOWN,
             "torch.optim.Adam (foreach) over model.model.layers only: the tied embedding / LM head still gets a "
             "gradient (never zeroed by the optimizer) but no Adam state; the loss is CrossEntropyLoss on the "
             "shifted bf16 logits, taken outside the autocast block"),
    notes=BASE_NOTE + "'| FP32 Adam | 54.2 | 29.2 GB |'; 'python finetune_base.py --run-name BaselineAdam' (batch 32)")
add(LOWMEM, "llama-3.2-1b-full-ft-fp32-adafactor-ampbf16-b8-s160", 14.4, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(LM_BASE, model="Llama-3.2-1B", precision="amp-bf16", optimizer="adafactor", loss="standard"),
    unknown=(*LM_UNKNOWN,
             "the repository's own Adafactor (factored second moment only, no first moment) over the decoder "
             "layers; the tied embedding keeps an unzeroed gradient"),
    notes=BASE_NOTE + "'| FP32 Adafactor | 54.5 | 14.4 GB |'; 'python finetune_base.py --run-name Adafactor --lr "
                      "1e-4 --optimizer Adafactor --batch_size 8 --log_every 400'")
LOW_UNKNOWN = ("bf16 weights; Adafactor (factored, bf16 states, stochastic rounding) applied in each parameter's "
               "post-accumulate-grad hook, which then frees the gradient: optimizer_in_backward; embeddings and LM "
               "head frozen (requires_grad False): no field took it when the row was written; est38 added "
               "frozen_embeddings (true here)",
               "the loss is cut-cross-entropy's linear_cross_entropy on the last hidden states (no logits tensor): "
               "loss 'fused'")
add(LOWMEM, "llama-3.2-1b-full-ft-bf16-adafactor-in-backward-fused-ce-b8-s160", 3.9, "GiB", "nvidia-smi",
    "A100-SXM-80GB",
    dict(LM_BASE, model="Llama-3.2-1B", precision="bf16", optimizer="adafactor", optimizer_in_backward=True,
         loss="fused", frozen_embeddings=True),
    unknown=(*LM_UNKNOWN, *LOW_UNKNOWN),
    notes=BASE_NOTE + "'| Lowmemory BF16 Adafactor | 53.6 | 3.9 GB |'; 'python finetune_lowmem.py --run-name "
                      "LowMem' (batch 8 by default)")
add(LOWMEM, "llama-3.1-8b-full-ft-bf16-adafactor-in-backward-fused-ce-b8-s160", 18.6, "GiB", "nvidia-smi",
    "A100-SXM-80GB",
    dict(LM_BASE, model="Llama-3.1-8B", precision="bf16", optimizer="adafactor", optimizer_in_backward=True,
         loss="fused", frozen_embeddings=True),
    unknown=(*LM_UNKNOWN, *LOW_UNKNOWN,
             "the 8B run's command is not given: finetune_lowmem.py with --model meta-llama/Llama-3.1-8B and its "
             "defaults (batch 8) assumed"),
    notes="lowmem_finetuning README: 'We can also fine-tune Llama-3.1-8B using only 18.6 GB of memory!'")

# ------------------------------------------------------------------ 5. s1: Qwen2.5-32B under FSDP at 32k tokens
S1_BASE = dict(mode="train", model="Qwen2.5-32B", precision="amp-bf16", optimizer="adamw", micro_batch=1,
               grad_accum=1, padding="dynamic", grad_ckpt=True, attention="sdpa", fsdp="full", fsdp_version=1,
               loss="standard", use_cache=False, devices_per_node=8, torch_version="2.5.1",
               transformers_version="4.46.1")
S1_UNKNOWN = ("from_pretrained without torch_dtype (fp32 weights) sharded by the Trainer's FSDP (full_shard "
              "auto_wrap, Qwen2DecoderLayer units) with bf16 mixed precision; no attn_implementation: transformers "
              "4.46's default SDPA",
              "batch 1 is padded to its own length; block_size (max_seq_length) truncates: the cap written as "
              "seq_len, the longest samples reaching it assumed",
              "H100 SXM 80GB assumed (the comments say 'H100')")
add_oom(S1, "qwen2.5-32b-full-ft-fsdp-ampbf16-b1-s32768-8xh100", "nvidia-smi", "H100-SXM-80GB",
        dict(S1_BASE, seq_len=32768, world_size=8), unknown=S1_UNKNOWN,
        notes="s1 issue #13 (SachinG007, 2025-02-06): 'I was trying to finetune Qwen-32B model, and I get OOM when "
              "using the train/sft_multinode.sh script. I used the same mini batch size of 1'; Muennighoff: 'We "
              "used 16 H100 and got OOM with 8 afaik'; sboesen: 'Also getting OOMs on 8xH100'")
add_oom(S1, "qwen2.5-32b-full-ft-fsdp-ampbf16-b1-s32000-s1.1-16xh100", "nvidia-smi", "H100-SXM-80GB",
        dict(S1_BASE, seq_len=32000, world_size=16),
        unknown=(*S1_UNKNOWN, "the s1.1 data (DeepSeek-R1 traces) has samples past 20k tokens (the maintainers cut "
                 "s1.1 at 20k for this reason); 32,000 written"),
        notes="s1 issue #13 (NonvolatileMemory, 2025-02-13): 's1.1 dataset with cutoff len=32000 cause oom with 16 "
              "* h100'; Muennighoff: 'Yeah we set it to 20K for s1.1'")
add_oom(S1, "qwen2.5-32b-instruct-full-ft-fsdp-ampbf16-b1-s32768-2x8xh100", "nvidia-smi", "H100-SXM-80GB",
        dict(S1_BASE, seq_len=32768, world_size=16),
        unknown=(*S1_UNKNOWN, "the maintainers report this setup (s1K, 32,768, 16 H100) running for their own "
                 "training; the reporter's run ran out of memory: the row keeps the reporter's verdict"),
        notes="s1 issue #61 (hiennguyennq, 2025-02-16): 'I trained qwen2.5-32b-instruct with 2 nodes 8H100 and have "
              "the issue OOM: ... GPU 2 has a total capacity of 79.10 GiB of which 67.88 MiB is free ... Of the "
              "allocated memory 76.77 GiB is allocated by PyTorch'; --block_size=32768, micro_batch_size=1")

# ------------------------------------------------------------------ 6. whisper-finetune: Whisper-large-v3 with 8-bit AdamW
add(WHISPER, "whisper-large-v3-full-ft-ampfp16-adamw8bit-b48-a100-80gb", 41, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(mode="train", model="Whisper-large-v3", precision="amp-fp16", optimizer="adamw-8bit", micro_batch=48,
         grad_accum=1, seq_len=1500, target_len=128, padding="dynamic", grad_ckpt=True, world_size=1,
         loss="standard", use_cache=False, torch_version="2.3.1", transformers_version="4.44.0"),
    unknown=("'allocates 41GB' names no counter or unit base: the driver's figure (nvidia-smi) in GiB written",
             "the batch is not said: the script's default per-device batch 48 written; labels padded per batch "
             "(128 tokens written for the longest transcript)",
             "versions not stated (large-v3 needs transformers >= 4.36: 4.44.0 and torch 2.3.1 written)"),
    notes="whisper-finetune issue #20 (cod3r0k, 2024-08-25): 'I'm fine-tuning Whisper-Large-V3 on an A100-80G ... "
          "When I run the training, the process only allocates 41GB of GPU RAM'")


def main():
    write_split("heldout19", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
