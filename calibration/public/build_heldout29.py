"""The twenty-ninth held-out set (calibration/public/heldout29.json): 17 public rows (17 measured peaks) from six pages no
earlier split read, by three publishers: OFA-Sys/Chinese-CLIP's FlashAttention page (flash_attention_En.md at 7d661ef,
2023-05-08: CN-CLIP ViT-B/16, ViT-L/14, ViT-L/14@336px and ViT-H/14 fine-tuned under DDP on 8 A100-80GB with torch AMP
fp16, with and without FlashAttention, the per-GPU memory in GB; 8 rows), four README pages of
rasbt/LLMs-from-scratch at 28c65cd (2026-04-16) that print torch.cuda.max_memory_allocated() / 2**30 for bf16
generation with the book's own models (ch04/04_gqa: a 12-layer GPT with multi-head and grouped-query attention and a
KV cache over 32,768 new tokens; ch04/07_moe: a 12-layer 4,096-wide GPT with a dense SwiGLU FFN or 32 experts, 1,024 new
tokens; ch05/07_gpt_to_llama: Llama 3.2 1B Instruct, 150 new tokens without a KV cache, from-scratch attention and SDPA;
ch05/11_qwen3: Qwen3 0.6B, 150 new tokens, eager and compiled; 8 rows) and DeepSpeed's Muon blog (deepspeedai/DeepSpeed
blogs/muon-optimizer/README.md at de47309, PR #7962: Qwen2.5-3B full fine-tuning with AdamW under ZeRO-2 bf16 on 8
A100-40GB, 'Peak Memory per GPU' 34.5 GiB; 1 row). Every row sourced, the source's printed figure kept, and what the
source leaves open recorded as unknown. Publishers: OFA-Sys (new), rasbt (held-out-8 read other pages), deepspeedai
(the devset and held-out-9 read other pages).

Run: python calibration/public/build_heldout29.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model and GPU
names, how held-out-16 writes a CLIP row, held-out-11 a generation row and held-out-12 a ZeRO-2 bf16 row, and that the
architecture reader takes a 'clip' config with text_config / vision_config). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

1. OFA-Sys/Chinese-CLIP flash_attention_En.md at 7d661ef (2023-05-08): "Our experiments are conducted on an 8-card A100
   GPU (80GB memory) machine, FlashAttention 0.2.8, Pytorch 1.10.1. We present the comparison of the batch time and
   memory usage of FP16 precision finetune for each scale model." | Memory | Unit: GB | Batch size | w/o FlashAttention
   | w/ FlashAttention |: "CN-CLIP ViT-B/16 | 450*8 | 80 | 56", "CN-CLIP ViT-L/14 | 128*8 | 77 | 50", "CN-CLIP
   ViT-L/14@336px | 40*8 | 78 | 37", "CN-CLIP ViT-H/14 | 64*8 | 76 | 57". The code of the same commit states the rest:
   run_scripts/muge_finetune_vit-b-16_rbt-base_flashattn.sh (8 GPUs per node, context_length 52, no --precision: the
   default 'amp', no --grad-checkpointing, --use-flash-attention), cn_clip/training/main.py ('amp': the model kept in
   fp32, torch.cuda.amp autocast with a GradScaler; DistributedDataParallel; optim.AdamW) and train.py (image and text
   features all-gathered over the 8 ranks for the contrastive loss). The RN50 row (a ResNet image tower) is left out.
2. rasbt/LLMs-from-scratch ch04/04_gqa/README.md at 28c65cd: "uv run gpt_with_kv_mha.py --max_new_tokens 32768
   --n_heads 24 --n_layers 12 ... Max memory allocated: 1.54 GB" and "uv run gpt_with_kv_gqa.py --max_new_tokens 32768
   --n_heads 24 --n_layers 12 --n_kv_groups 4 ... Max memory allocated: 0.63 GB" (the scripts print
   torch.cuda.max_memory_allocated() / 1024**3 as 'GB'). ch04/05_mla and ch04/06_swa print the same MHA run again (1.54)
   and an MLA / sliding-window variant the estimator has no input for: left out.
3. rasbt/LLMs-from-scratch ch04/07_moe/README.md at 28c65cd: "uv run gpt_with_kv_ffn.py --max_new_tokens 1024 --n_heads
   16 --n_layers 12 --emb_dim 4096 --hidden_dim 32768 ... Max memory allocated: 11.47 GB" and "uv run gpt_with_kv_moe.py
   --max_new_tokens 1024 --n_heads 16 --n_layers 12 --emb_dim 4096 --hidden_dim 1024 --num_experts 32
   --num_experts_per_tok 2 ... Max memory allocated: 11.48 GB".
4. rasbt/LLMs-from-scratch ch05/07_gpt_to_llama/README.md at 28c65cd: Llama 3.2 1B Instruct ('llama3.2-1B-instruct.pth'),
   MAX_NEW_TOKENS 150, top_k 1, "Max memory allocated: 2.91 GB"; "The following table shows a performance comparison on
   an A100: | Llama3Model | 42 | 2.91 GB |", "| Llama3ModelFast | 54 | 2.91 GB |". The compiled table (3.12 / 3.61 GB
   "for consequent generate calls") is left out: which call's peak it is and what the compiled graphs hold is not stated.
5. rasbt/LLMs-from-scratch ch05/11_qwen3/README.md at 28c65cd: Qwen3 0.6B reasoning model, prompt "Give me a short
   introduction to large language models.", max_new_tokens 150, "this was run on an A100 ... Max memory allocated: 1.49
   GB"; "| Qwen3Model 0.6B | Nvidia A100 GPU | 25 | 1.49 GB |", "| Qwen3Model 0.6B compiled | Nvidia A100 GPU | 107 |
   1.99 GB |".
6. deepspeedai/DeepSpeed blogs/muon-optimizer/README.md: "We measured peak GPU memory during finetuning Qwen2.5-3B on
   tatsu-lab/alpaca using the same 8xA100 (40GB) configuration described above (batch size 32, ZeRO Stage 2, bf16)."
   "| AdamW | 34.5 GiB | — |". The code is delock/deepspeed_finetune_demo (the blog's [7]): finetune.sh, finetune_llama.py
   (bf16 weights, flash_attention_2, gradient_checkpointing_enable, padding to max_length 2,048, train_batch_size set to
   --batch_size), z2_muon.json. The Muon row (31.4 GiB) is left out: the estimator has no Muon optimizer.

Left out on purpose (decided before scoring): the CN-CLIP RN50 row; rasbt's MLA and sliding-window rows, the repeated MHA
runs, ch05/07's compiled table and ch05/10 (held-out-8 read it); nanochat's dev/LOG.md memory rows (Muon, a custom
GPT); the DeepSpeed Muon row; pytorch/ao's torchtitan float8 tutorial (selective activation checkpointing, float8);
teaching-on-testbeds/llm-chi (prints no figures); peft's LoRA-FA README (activation memory only, and a LoRA OOM whose
settings are not stated); torchtune PRs #389/#391/#527/#990 (the README rows the devset and held-out-22 read come from
the same runs); lightning-thunder / pytorch-lightning tensor-parallel READMEs (tensor parallel); minGPT PR #106 and peft
issues #1469/#1514 (the stored pages cut off before the setup or the table)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-29"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
CC = f"{GH}/OFA-Sys/Chinese-CLIP/blob/7d661ef90205e5084078f9dad4d5b1718d842c54"
RB = f"{GH}/rasbt/LLMs-from-scratch/blob/28c65cdfbc3338e2e040016eea4b7fdf556e4d57"
DS = f"{GH}/deepspeedai/DeepSpeed/blob/de4730918516d1f27bca1580640bf96836c74273/blogs/muon-optimizer/README.md"
DEMO = f"{GH}/delock/deepspeed_finetune_demo/blob"
CNCLIP = "chinese-clip-flash-attention-7d661ef"
GQA = "llms-from-scratch-ch04-gqa-28c65cd"
MOE = "llms-from-scratch-ch04-moe-28c65cd"
LLAMA = "llms-from-scratch-ch05-llama32-28c65cd"
QWEN = "llms-from-scratch-ch05-qwen3-28c65cd"
MUON = "deepspeed-muon-blog-qwen25-3b"

SOURCES = {
    CNCLIP: {
        "url": f"{CC}/flash_attention_En.md",
        "also": [f"{CC}/flash_attention.md (the Chinese page, the same table)",
                 f"{CC}/run_scripts/muge_finetune_vit-b-16_rbt-base_flashattn.sh",
                 f"{CC}/cn_clip/training/main.py", f"{CC}/cn_clip/training/train.py",
                 f"{CC}/cn_clip/training/params.py",
                 f"{CC}/cn_clip/clip/model_configs/ViT-B-16.json",
                 f"{CC}/cn_clip/clip/model_configs/RoBERTa-wwm-ext-base-chinese.json"],
        "setup": "Chinese-CLIP fine-tuning (cn_clip/training/main.py) on 8 A100-80GB in one node: "
                 "DistributedDataParallel, --precision amp (the default: fp32 weights, torch.cuda.amp autocast fp16, "
                 "GradScaler), torch.optim.AdamW, no gradient checkpointing, text context length 52, images 224 px "
                 "(336 px for ViT-L/14@336px), per-GPU batch as the table's 'Batch size' (450, 128, 40, 64 x 8 GPUs), "
                 "contrastive loss over features all-gathered from the 8 ranks; with or without --use-flash-attention "
                 "(FlashAttention 0.2.8); the table's per-GPU memory in GB",
        "versions": {"torch": "1.10.1 (stated)", "flash-attn": "0.2.8 (stated)",
                     "chinese-clip": "7d661ef (2023-05-08, the page's commit)"},
        "date": "2023-05-08 (the commit that added the FlashAttention pages)",
        "project": "OFA-Sys/Chinese-CLIP (Alibaba DAMO Academy)",
    },
    GQA: {
        "url": f"{RB}/ch04/04_gqa/README.md",
        "also": [f"{RB}/ch04/04_gqa/gpt_with_kv_mha.py", f"{RB}/ch04/04_gqa/gpt_with_kv_gqa.py"],
        "setup": "the book's GPT (learned positions, LayerNorm, GELU MLP of 4 x emb_dim, untied output head, vocabulary "
                 "50,257, context_length = max_new_tokens + 4) built with emb_dim 768, 24 heads, 12 layers, cast to "
                 "bf16, generating 32,768 tokens greedily after the 4-token prompt 'Hello, I am' with a KV cache that "
                 "grows by torch.cat each step; multi-head or grouped-query attention (4 key-value groups); "
                 "'Max memory allocated' = torch.cuda.max_memory_allocated() / 1024**3",
        "versions": {"torch": "not stated (the repository's requirements: torch >= 2.3; 2.6.0 written)",
                     "llms-from-scratch": "28c65cd (the README's last change 28a8408, 2025-11-17)"},
        "date": "2025-11-17 (the README's last change before the mirror's HEAD)",
        "project": "rasbt/LLMs-from-scratch (Sebastian Raschka)",
    },
    MOE: {
        "url": f"{RB}/ch04/07_moe/README.md",
        "also": [f"{RB}/ch04/07_moe/gpt_with_kv_ffn.py", f"{RB}/ch04/07_moe/gpt_with_kv_moe.py"],
        "setup": "the book's GPT with emb_dim 4,096, 16 heads, 12 layers, a SwiGLU FFN (fc1, fc2, fc3 without bias) of "
                 "hidden 32,768 (dense) or 32 SwiGLU experts of hidden 1,024 with a top-2 router (MoE), in bf16, "
                 "generating 1,024 tokens after 'Hello, I am' with a KV cache; 'Max memory allocated' = "
                 "torch.cuda.max_memory_allocated() / 1024**3",
        "versions": {"torch": "not stated (2.6.0 written)", "llms-from-scratch": "28c65cd"},
        "date": "2025-11 (the MoE bonus section)",
        "project": "rasbt/LLMs-from-scratch (Sebastian Raschka)",
    },
    LLAMA: {
        "url": f"{RB}/ch05/07_gpt_to_llama/README.md",
        "also": [f"{RB}/pkg/llms_from_scratch/llama3.py", f"{RB}/pkg/llms_from_scratch/ch05.py"],
        "setup": "llms_from_scratch.llama3.Llama3Model (LLAMA32_CONFIG_1B: emb 2,048, 32 heads in 8 key-value groups, "
                 "16 layers, SwiGLU 8,192, vocabulary 128,256, its own out_head, RoPE tables for 131,072 positions, "
                 "bf16) loaded from llama3.2-1B-instruct.pth, generating 150 tokens with ch05.generate (top_k 1, no KV "
                 "cache: every step runs the whole sequence) after the chat-formatted prompt 'What do llamas eat?'; "
                 "Llama3Model computes attention by hand, Llama3ModelFast with scaled_dot_product_attention; on an "
                 "A100; 'Max memory allocated' = torch.cuda.max_memory_allocated() / 1024**3",
        "versions": {"torch": "not stated (2.6.0 written)", "llms-from-scratch": "28c65cd"},
        "date": "2024-2025 (the Llama 3.2 bonus section)",
        "project": "rasbt/LLMs-from-scratch (Sebastian Raschka)",
    },
    QWEN: {
        "url": f"{RB}/ch05/11_qwen3/README.md",
        "also": [f"{RB}/pkg/llms_from_scratch/qwen3.py", f"{RB}/pkg/llms_from_scratch/ch05.py"],
        "setup": "llms_from_scratch.qwen3.Qwen3Model (QWEN_CONFIG_06_B: emb 1,024, 16 heads of 128 in 8 key-value "
                 "groups, QK norm, 28 layers, SwiGLU 3,072, vocabulary 151,936, output head tied to the embedding when "
                 "the checkpoint has no lm_head, RoPE tables for 40,960 positions, bf16), the reasoning model's chat "
                 "template, generating 150 tokens with ch05.generate (top_k 1, no KV cache) on an A100, eager or "
                 "torch.compile(model); 'Max memory allocated' = torch.cuda.max_memory_allocated() / 1024**3",
        "versions": {"torch": "not stated (2.6.0 written)", "llms-from-scratch": "28c65cd"},
        "date": "2025 (the Qwen3 bonus section)",
        "project": "rasbt/LLMs-from-scratch (Sebastian Raschka)",
    },
    MUON: {
        "url": DS,
        "also": [f"{DEMO}/48c46f97fa0453d75e285b954bb5e3880db1f208/finetune.sh",
                 f"{DEMO}/18f3df1d5fb3a53dfc03dde90c8076bec8e8dec3/finetune_llama.py",
                 f"{DEMO}/9a5e9d68ea699ee447bf76cf1ac8472af9c10177/z2_muon.json",
                 f"{DEMO}/38060d41416dd4effef926c26bd94d64458e09bf/z3_config.json"],
        "setup": "delock/deepspeed_finetune_demo's finetune_llama.py: Qwen2.5-3B from_pretrained in bf16 with "
                 "flash_attention_2, use_cache False, gradient_checkpointing_enable(), tatsu-lab/alpaca padded to "
                 "max_length 2,048, DeepSpeed ZeRO stage 2 with bf16 (fp32 master weights and AdamW states "
                 "partitioned), train_batch_size 32 over 8 GPUs (micro batch 4, no accumulation), 8 x A100-40GB; "
                 "'Peak Memory per GPU' 34.5 GiB",
        "versions": {"torch": "not stated (2.8.0 written)", "deepspeed": "with Muon support (0.18, not stated)",
                     "transformers": "not stated"},
        "date": "2026-05-21 (PR #7962, the blog's first version; the table unchanged at the mirror's HEAD)",
        "project": "deepspeedai/DeepSpeed (blog)",
    },
}


# ------------------------------------------------------------------ 1. Chinese-CLIP, 8 x A100-80GB, DDP, AMP fp16
def roberta(hidden: int, layers: int, heads: int, inter: int) -> dict:
    """Chinese RoBERTa-wwm-ext as a CLIP text tower (BERT layout, vocabulary 21,128, 512 positions).
    est63 (after the blind scoring, in-sample): ``hidden_act`` 'gelu_python', what Chinese-CLIP's own
    ``modeling_bert.py`` runs for the config's "gelu" (``ACT2FN["gelu"]``: ``x * 0.5 * (1.0 + torch.erf(x /
    math.sqrt(2.0)))``); the blind rows named no activation."""
    return {"hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
            "intermediate_size": inter, "vocab_size": 21128, "max_position_embeddings": 512,
            "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu_python"}


def vit(hidden: int, layers: int, heads: int, inter: int, patch: int, image: int) -> dict:
    """est63 (after the blind scoring, in-sample): ``hidden_act`` 'quick_gelu', Chinese-CLIP's
    ``ResidualAttentionBlock`` MLP (``QuickGELU``: ``x * torch.sigmoid(1.702 * x)``; also CLIPVisionConfig's
    default)."""
    return {"hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
            "intermediate_size": inter, "patch_size": patch, "image_size": image, "num_channels": 3,
            "hidden_act": "quick_gelu"}


def cnclip(text: dict, vision: dict, projection: int) -> dict:
    return {"model_type": "clip", "architectures": ["CLIPModel"], "projection_dim": projection,
            "text_config": text, "vision_config": vision}


RBT_BASE = roberta(768, 12, 12, 3072)
RBT_LARGE = roberta(1024, 24, 16, 4096)
CNCLIP_MODELS = {  # name -> (hf_config, image size, per-GPU batch, w/o, w/ FlashAttention GB, the table's cells)
    "ViT-B/16": (cnclip(RBT_BASE, vit(768, 12, 12, 3072, 16, 224), 512), 224, 450, 80, 56,
                 "CN-CLIP ViT-B/16 | 450*8 | 80 | 56"),
    "ViT-L/14": (cnclip(RBT_BASE, vit(1024, 24, 16, 4096, 14, 224), 768), 224, 128, 77, 50,
                 "CN-CLIP ViT-L/14 | 128*8 | 77 | 50"),
    "ViT-L/14@336px": (cnclip(RBT_BASE, vit(1024, 24, 16, 4096, 14, 336), 768), 336, 40, 78, 37,
                       "CN-CLIP ViT-L/14@336px | 40*8 | 78 | 37"),
    "ViT-H/14": (cnclip(RBT_LARGE, vit(1280, 32, 16, 5120, 14, 224), 1024), 224, 64, 76, 57,
                 "CN-CLIP ViT-H/14 | 64*8 | 76 | 57"),
}
CNCLIP_BASE = dict(mode="train", precision="amp-fp16", optimizer="adamw", grad_accum=1, seq_len=52,
                   padding="max_length", grad_ckpt=False, world_size=8, devices_per_node=8, torch_version="1.10.1")
CNCLIP_UNKNOWN = (
    "the figure: the table's 'Memory' in 'Unit: GB' per GPU; how it was read is not stated (nvidia-smi written: whole "
    "numbers near the card's 80 GB, as a driver reading of the caching allocator's pool shows them; GB written as the "
    "page's unit)",
    "precision: the page says 'FP16 precision finetune'; the sample script passes no --precision, so main.py's "
    "default 'amp' runs (convert_models_to_fp32, autocast fp16, GradScaler): amp-fp16 written",
    "the text towers: ViT-B/16, ViT-L/14 and ViT-L/14@336px pair with RoBERTa-wwm-ext-base-chinese, ViT-H/14 with "
    "RoBERTa-wwm-ext-large-chinese (the README's model list); written as a CLIP config with a BERT-sized text tower "
    "(vocabulary 21,128, 512 positions) and the OpenAI ViT vision tower; projection 512 / 768 / 1024",
    "the other runs' scripts are not printed: read as the ViT-B/16 sample script with the row's model and batch "
    "(context length 52, no checkpointing, DDP on 8 GPUs, AdamW)",
    "'A100 GPU (80GB memory)' written as the catalog's A100-SXM-80GB",
)
NO_FLASH = ("without FlashAttention: the ViT's nn.MultiheadAttention and the BERT text tower's own attention under torch "
            "1.10.1 (no fused kernel): attention 'eager', torch_mha written")
WITH_FLASH = ("with FlashAttention: --use-flash-attention swaps the attention of both towers for flash_attn 0.2.8's "
              "FlashMHA / flash kernels: attention 'flash'")
EST63_CNCLIP = ("est63 (after the blind scoring, in-sample): the MLP activations written into the configs "
                "(vision QuickGELU from cn_clip/clip/model.py, text 'gelu_python' from cn_clip/clip/modeling_bert.py "
                "ACT2FN['gelu']), and on the FlashAttention rows packed_qkv: FlashMHA projects q, k and v with one "
                "Wqkv linear (model.py: FlashMHA(d_model, n_head); modeling_bert.py BertAttention: FlashMHA(...)); "
                "heldout29_first_scoring.txt keeps the blind rows' scores")
for _name, (_cfg, _img, _mb, _without, _with, _cells) in CNCLIP_MODELS.items():
    _slug = _name.lower().replace("/", "").replace("@", "-").replace("vit-", "vit")
    for _flash, _gb in ((False, _without), (True, _with)):
        _setup = dict(CNCLIP_BASE, hf_config=_cfg, model_name=f"CN-CLIP {_name}", image_size=_img, micro_batch=_mb,
                      attention="flash" if _flash else "eager",
                      **({"packed_qkv": True} if _flash else {"torch_mha": True}))
        add(CNCLIP, f"cn-clip-{_slug}-ampfp16-ddp-b{_mb}-{'flash' if _flash else 'noflash'}-8xa100-80g", _gb, "GB",
            "nvidia-smi", "A100-SXM-80GB", _setup,
            unknown=(*CNCLIP_UNKNOWN, WITH_FLASH if _flash else NO_FLASH, EST63_CNCLIP),
            notes=f"Chinese-CLIP flash_attention_En.md at 7d661ef, | Memory | Unit: GB | Batch size | w/o FlashAttention "
                  f"| w/ FlashAttention |: '{_cells}'; this row: {'w/' if _flash else 'w/o'} FlashAttention {_gb}")

# ------------------------------------------------------------------ 2-5. LLMs-from-scratch generation in bf16
GEN_BASE = dict(mode="generate", precision="bf16", micro_batch=1, num_beams=1, world_size=1, torch_version="2.6.0",
                model_impl="transformers")
GEN_UNKNOWN = (
    "the figure is the script's 'Max memory allocated: {torch.cuda.max_memory_allocated() / (1024 ** 3):.2f} GB': GiB "
    "(unit GiB written)",
    "the torch release is not stated (2.6.0 written)",
    "model_impl: the book's own PyTorch modules, not transformers; written as the nearest Hugging Face layout "
    "(the estimator has no input for 'from scratch')",
)
CH04_GPU = ("the GPU is not named on the ch04 pages (the ch05 pages' runs are on an A100): A100-SXM-80GB written; the "
            "figure does not depend on it")


def gpt2(hidden: int, heads: int, layers: int, positions: int) -> dict:
    return {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": hidden, "n_head": heads,
            "n_layer": layers, "n_positions": positions, "n_inner": 4 * hidden, "vocab_size": 50257,
            "tie_word_embeddings": False, "activation_function": "gelu_new"}


def llama_like(hidden: int, heads: int, kv: int, inter: int, layers: int, vocab: int, positions: int,
               tie: bool, **extra) -> dict:
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": hidden,
            "num_attention_heads": heads, "num_key_value_heads": kv, "intermediate_size": inter,
            "num_hidden_layers": layers, "vocab_size": vocab, "max_position_embeddings": positions,
            "tie_word_embeddings": tie, **extra}


EST63_LEARNED = ("est63 (after the blind scoring, in-sample): position_table 'learned' written, the book GPT's "
                 "nn.Embedding(context_length, emb_dim) position table that the llama-shaped config lacks "
                 "(preflight/estimate/position_tables.py)")
EST63_ROPE = ("est63 (after the blind scoring, in-sample): position_table 'rope' written, the one fp32 cos / sin pair "
              "of context_length x head_dim the book model registers as buffers (pkg/llms_from_scratch/llama3.py lines "
              "68-75, qwen3.py lines 141-147; compute_rope_params(dtype=torch.float32)), which transformers' layout "
              "the rows use does not keep")
KV_CAT = ("KV cache: each layer's keys and values grow by torch.cat([cache, new], dim=1) every step (use_cache True): "
          "the old and the new cache are alive together during the cat")
PROMPT4 = "prompt 'Hello, I am': 4 GPT-2 tokens (seq_len 4), greedy argmax, batch 1"
add(GQA, "gpt-768-24h-12l-mha-bf16-kvcache-gen32768", 1.54, "GiB", "max_memory_allocated", "A100-SXM-80GB",
    dict(GEN_BASE, hf_config=gpt2(768, 24, 12, 32772), model_name="LLMs-from-scratch GPT (MHA, 768 x 12)",
         seq_len=4, max_new_tokens=32768, use_cache=True, attention="eager"),
    unknown=(*GEN_UNKNOWN, CH04_GPU, KV_CAT, PROMPT4,
             "the MHA model is GPT-2's layout (learned positions for 32,772 tokens, LayerNorm, GELU MLP 3,072, untied "
             "head): a gpt2 config written; attention computed by hand (scores materialised): 'eager'"),
    notes="LLMs-from-scratch ch04/04_gqa/README.md at 28c65cd: 'uv run gpt_with_kv_mha.py --max_new_tokens 32768 "
          "--n_heads 24 --n_layers 12 ... Time: 453.81 sec 72 tokens/sec Max memory allocated: 1.54 GB'")
add(GQA, "gpt-768-24h-12l-gqa4-bf16-kvcache-gen32768", 0.63, "GiB", "max_memory_allocated", "A100-SXM-80GB",
    dict(GEN_BASE, hf_config=llama_like(768, 24, 4, 2048, 12, 50257, 32772, False),
         model_name="LLMs-from-scratch GPT (GQA 4 groups, 768 x 12)", seq_len=4, max_new_tokens=32768, use_cache=True,
         attention="eager", position_table="learned"),
    unknown=(*GEN_UNKNOWN, CH04_GPU, KV_CAT, PROMPT4,
             "the GQA model keeps GPT-2's LayerNorm, learned positions and GELU MLP of 3,072; no GPT-2 config has "
             "key-value groups, so a llama config with 4 key-value heads is written, its SwiGLU width 2,048 chosen so "
             "the MLP holds the same 4.7 M weights per layer (3 x 768 x 2,048 = 2 x 768 x 3,072); the learned "
             "position table (32,772 x 768, 48 MiB in bf16) is not in a llama config",
             EST63_LEARNED),
    notes="LLMs-from-scratch ch04/04_gqa/README.md at 28c65cd: 'uv run gpt_with_kv_gqa.py --max_new_tokens 32768 "
          "--n_heads 24 --n_layers 12 --n_kv_groups 4 ... Time: 516.33 sec 63 tokens/sec Max memory allocated: "
          "0.63 GB'")
MOE_UNKNOWN = (*GEN_UNKNOWN, CH04_GPU, KV_CAT, PROMPT4,
               "the layout: LayerNorm and learned positions (1,028 x 4,096) as in GPT-2, attention computed by hand "
               "with 16 heads of 256 and no key-value groups, SwiGLU feed-forward layers without bias, an untied head "
               "over 50,257 tokens; written as a llama-shaped config ('eager' attention)")
add(MOE, "gpt-4096-16h-12l-dense-swiglu32768-bf16-kvcache-gen1024", 11.47, "GiB", "max_memory_allocated",
    "A100-SXM-80GB",
    dict(GEN_BASE, hf_config=llama_like(4096, 16, 16, 32768, 12, 50257, 1028, False),
         model_name="LLMs-from-scratch GPT (dense SwiGLU 32,768, 4,096 x 12)", seq_len=4, max_new_tokens=1024,
         use_cache=True, attention="eager", position_table="learned"),
    unknown=(*MOE_UNKNOWN, EST63_LEARNED),
    notes="LLMs-from-scratch ch04/07_moe/README.md at 28c65cd: 'uv run gpt_with_kv_ffn.py --max_new_tokens 1024 "
          "--n_heads 16 --n_layers 12 --emb_dim 4096 --hidden_dim 32768 ... 40 tokens/sec Max memory allocated: "
          "11.47 GB'")
add(MOE, "gpt-4096-16h-12l-moe32x1024-top2-bf16-kvcache-gen1024", 11.48, "GiB", "max_memory_allocated",
    "A100-SXM-80GB",
    dict(GEN_BASE, hf_config={"model_type": "mixtral", "architectures": ["MixtralForCausalLM"], "hidden_size": 4096,
                              "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 1024,
                              "num_hidden_layers": 12, "vocab_size": 50257, "max_position_embeddings": 1028,
                              "num_local_experts": 32, "num_experts_per_tok": 2, "tie_word_embeddings": False},
         model_name="LLMs-from-scratch GPT (MoE 32 x 1,024, top 2, 4,096 x 12)", seq_len=4, max_new_tokens=1024,
         use_cache=True, attention="eager", position_table="learned"),
    unknown=(*MOE_UNKNOWN, EST63_LEARNED, "the MoE: 32 SwiGLU experts of hidden 1,024 and a bias-free router per layer, top 2 with "
             "softmax over the chosen scores, tokens gathered per expert with index_select; written as a mixtral "
             "config (32 local experts, 2 per token)"),
    notes="LLMs-from-scratch ch04/07_moe/README.md at 28c65cd: 'uv run gpt_with_kv_moe.py --max_new_tokens 1024 "
          "--n_heads 16 --n_layers 12 --emb_dim 4096 --hidden_dim 1024 --num_experts 32 --num_experts_per_tok 2 ... 29 "
          "tokens/sec Max memory allocated: 11.48 GB'")

NO_CACHE = ("ch05.generate without a KV cache: every one of the 150 steps runs the model over the whole sequence so "
            "far (prompt + generated tokens, at most about 180), logits only for the last position used (use_cache "
            "False written)")
L32 = llama_like(2048, 32, 8, 8192, 16, 128256, 131072, False, rope_theta=500000.0)
LLAMA_UNKNOWN = (*GEN_UNKNOWN, NO_CACHE,
                 "the prompt: Llama 3's chat format around 'What do llamas eat?' (about 20 tokens; 20 written)",
                 "the head: Llama3Model has its own out_head (bias-free Linear) and the .pth file loaded with "
                 "load_state_dict carries it, so it is not tied to tok_emb on the GPU (tie False written)",
                 "RoPE: cos / sin tables for 131,072 positions x 64 in fp32 are registered buffers (64 MiB); the "
                 "causal mask is built per call for the current length",
                 "'an A100' written as A100-SXM-80GB")
for _impl, _attn, _cells in (("Llama3Model", "eager", "| Llama3Model     | 42         | 2.91 GB |"),
                             ("Llama3ModelFast", "sdpa", "| Llama3ModelFast | 54         | 2.91 GB |")):
    add(LLAMA, f"llama32-1b-instruct-{_impl.lower()}-bf16-nocache-gen150", 2.91, "GiB", "max_memory_allocated",
        "A100-SXM-80GB",
        dict(GEN_BASE, hf_config=L32, model_name=f"Llama 3.2 1B Instruct ({_impl}, LLMs-from-scratch)", seq_len=20,
             max_new_tokens=150, use_cache=False, attention=_attn, position_table="rope"),
        unknown=(*LLAMA_UNKNOWN, EST63_ROPE, "Llama3Model computes softmax(QK^T) by hand ('eager'); Llama3ModelFast calls "
                 "scaled_dot_product_attention ('sdpa')"),
        notes="LLMs-from-scratch ch05/07_gpt_to_llama/README.md at 28c65cd: 'Time: 3.17 sec 50 tokens/sec Max memory "
              f"allocated: 2.91 GB' and 'The following table shows a performance comparison on an A100: {_cells}'")
Q06 = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "hidden_size": 1024, "num_attention_heads": 16,
       "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 3072, "num_hidden_layers": 28,
       "vocab_size": 151936, "max_position_embeddings": 40960, "tie_word_embeddings": False, "rope_theta": 1000000.0}
QWEN_UNKNOWN = (*GEN_UNKNOWN, NO_CACHE,
                "the prompt: the Qwen3 chat template with a generation prompt around 'Give me a short introduction to "
                "large language models.' (about 20 tokens; 20 written)",
                "the head: Qwen3-0.6B's checkpoint has no lm_head, so load_weights_into_qwen sets out_head.weight = "
                "tok_emb.weight before the model moves to the GPU (tie True written)",
                "est63 (after the blind scoring, in-sample): tie False. The README's 0.6B path is its section 3a, "
                "not load_weights_into_qwen: model = Qwen3Model(QWEN_CONFIG_06_B); model.load_state_dict(torch.load("
                "'qwen3-0.6B.pth')) (README lines 103-106); Qwen3Model builds out_head as its own nn.Linear "
                "(pkg/llms_from_scratch/qwen3.py line 134) and load_state_dict copies into it, so the head is a "
                "second 151,936 x 1,024 bf16 matrix on the GPU; heldout29_first_scoring.txt keeps the blind score",
                "attention: Qwen3Model's GroupedQueryAttention computes the scores by hand ('eager')",
                "'Nvidia A100 GPU' written as A100-SXM-80GB")
for _compiled, _gib, _cells in ((False, 1.49, "| Qwen3Model 0.6B          | Nvidia A100 GPU | 25         | 1.49 GB  |"),
                               (True, 1.99, "| Qwen3Model 0.6B compiled | Nvidia A100 GPU | 107        | 1.99 GB  |")):
    add(QWEN, f"qwen3-0.6b-{'compiled' if _compiled else 'eager'}-bf16-nocache-gen150", _gib, "GiB",
        "max_memory_allocated", "A100-SXM-80GB",
        dict(GEN_BASE, hf_config=Q06, model_name="Qwen3 0.6B (LLMs-from-scratch)", seq_len=20, max_new_tokens=150,
             use_cache=False, attention="eager", compiled=_compiled, position_table="rope"),
        unknown=(*QWEN_UNKNOWN, EST63_ROPE, *(("compiled: model = torch.compile(model) after model.to(device); the table reads "
                                   "'consequent generate calls' after the first (the peak since the process "
                                   "started is what max_memory_allocated returns)",) if _compiled else ())),
        notes=f"LLMs-from-scratch ch05/11_qwen3/README.md at 28c65cd: '{_cells}'"
              + ("" if _compiled else "; the printed run: 'Time: 6.35 sec 25 tokens/sec Max memory allocated: 1.49 GB'"))

# ------------------------------------------------------------------ 6. DeepSpeed Muon blog: the AdamW baseline
add(MUON, "qwen25-3b-full-adamw-zero2-bf16-ckpt-fa2-b4-s2048-8xa100-40g", 34.5, "GiB", "nvidia-smi", "A100-SXM-40GB",
    dict(mode="train", model="Qwen2.5-3B", precision="bf16", optimizer="adamw", micro_batch=4, grad_accum=1,
         seq_len=2048, padding="max_length", attention="flash", grad_ckpt=True, zero_stage=2, world_size=8,
         devices_per_node=8, use_cache=False, torch_version="2.8.0"),
    unknown=("'Peak Memory per GPU' with no tool named: the demo logs to wandb, whose system panel reads the driver "
             "(NVML) per GPU; nvidia-smi written",
             "the blog states 'batch size 32, ZeRO Stage 2, bf16' on 8xA100 (40GB): finetune_llama.py sets "
             "train_batch_size to --batch_size, so 4 sequences per GPU and no accumulation",
             "the sequences: alpaca examples tokenized with padding='max_length' to max_length 2,048 (the default)",
             "the AdamW run's config file is not named and the demo's z2_config.json is not stored here; its "
             "z3_config.json and z2_muon.json show the pattern (bf16 enabled, the ZeRO stage, an 'AdamW' optimizer "
             "block, no offload, DeepSpeed's default buckets): AdamW under ZeRO stage 2 written as adamw",
             "the demo's code was read at the versions stored here (finetune.sh 48c46f9, finetune_llama.py 18f3df1); "
             "which version the blog ran is not pinned",
             "bf16 under DeepSpeed: 16-bit weights and gradients with fp32 master weights and AdamW states "
             "partitioned over the 8 ranks ('bf16' with zero_stage 2, as held-out-12 writes it)",
             "the model: Qwen2.5-3B from_pretrained(torch_dtype=bfloat16, attn_implementation='flash_attention_2'), "
             "use_cache False, gradient_checkpointing_enable() (transformers' default, reentrant)",
             "versions are not stated (torch 2.8.0 written for a 2026 DeepSpeed with Muon)",
             "'8xA100 (40GB)' written as A100-SXM-40GB"),
    notes="deepspeedai/DeepSpeed blogs/muon-optimizer/README.md, '### Measured GPU Memory: Qwen2.5-3B Finetuning': "
          "'We measured peak GPU memory during finetuning Qwen2.5-3B on tatsu-lab/alpaca using the same 8xA100 (40GB) "
          "configuration described above (batch size 32, ZeRO Stage 2, bf16).' | Optimizer | Peak Memory per GPU | "
          "Savings vs AdamW |: '| AdamW     | 34.5 GiB            | —                |'")


def main():
    write_split("heldout29", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
