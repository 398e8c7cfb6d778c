"""The twenty-first held-out set (calibration/public/heldout21.json): public measured peaks from the profiling table
of the Qwen-1 repository (QwenLM/Qwen ``README.md`` at e8e1596, 2023-11-30, "Profiling of Memory and Speed"): Qwen-1.8B,
Qwen-7B, Qwen-14B and Qwen-72B fine-tuned with the repository's own ``finetune.py`` on A100-SXM4-80G GPUs at batch 1
and 256 to 8,192 tokens padded to the full length: LoRA on every linear layer (rank 64) with and without trainable
embedding and output tables (PEFT ``modules_to_save`` copies), Q-LoRA on the GPTQ Int4 chat models under DeepSpeed
ZeRO-2 in fp16 on one GPU, full fine-tunes under ZeRO-3 on one and two GPUs, and a 72B LoRA under ZeRO-3 on four;
remote-code models whose loss is computed on bf16 logits; every row sourced, what the source leaves open recorded as
unknown.

Run: python calibration/public/build_heldout21.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names and
their comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, and the catalog's
GPU names). Same row format as devset.json (see build_devset.py). Every figure is the source's own. The source names
no counter: each figure is taken as the driver's per-GPU figure (nvidia-smi) and every bare "G" as GiB, as the
earlier sets did; the multi-GPU figures are the table's totals over the GPUs (the 7B full fine-tune on 2 GPUs reads
139.2G, more than one 80 GB card), divided here by the GPU count.

Publisher: QwenLM. Held-out-11 used one page of the same organisation (the Qwen2.5 speed benchmark, inference rows of
Qwen2.5 models with vLLM and transformers); no earlier set uses the QwenLM/Qwen repository, its fine-tuning script or
its profiling table, and no earlier row is a Qwen-1 fine-tune measured by its authors (held-out-6 holds Qwen-7B-Chat
LoRA rows measured by ms-swift's benchmark with ms-swift's own trainer).

Source: QwenLM/Qwen at e8e1596 (2023-11-30, the commit that added the 1.8B and 72B rows and the multinode and ZeRO-3
notes to the table): ``README.md`` "Profiling of Memory and Speed" ("we experiment on a single A100-SXM4-80G GPU, and
we use CUDA 11.8 and Pytorch 2.0. Flash attention 2 is applied. We uniformly use a batch size of 1 and gradient
accumulation of 8. We profile the memory (GB) and speed (s/iter) of inputs of different lengths, namely 256, 512,
1024, 2048, 4096, and 8192"; the full fine-tune of 7B "on 2 A100 GPUs"; "For Qwen-72B ... 1) Lora fintuning +
DeepSpeed ZeRO 3 on 4 A100-SXM4-80G GPUs and 2) QLora (int4) fine-tuning on a single A100-SXM4-80G GPU"),
``finetune.py`` (LoRA r 64 / alpha 16 / dropout 0.05 on ``c_attn``, ``c_proj``, ``w1``, ``w2``; ``modules_to_save``
``wte`` and ``lm_head`` for a base model, none for a chat or Q-LoRA model; ``prepare_model_for_kbit_training`` for
Q-LoRA; GPTQConfig(bits=4); ``config.use_cache = False``; every sample padded to ``model_max_length``),
``finetune/finetune_lora_single_gpu.sh`` (bf16, gradient checkpointing, no DeepSpeed),
``finetune/finetune_qlora_single_gpu.sh`` (fp16, gradient checkpointing, ``ds_config_zero2.json``),
``finetune/finetune_ds.sh`` (full fine-tune, bf16, gradient checkpointing, ``ds_config_zero3.json``),
``finetune/finetune_lora_ds.sh`` (``--deepspeed`` for the 72B ZeRO-3 run), the two DeepSpeed configs and
``requirements.txt`` (transformers 4.32.0).

Left out on purpose (decided before scoring, by what is known): the "LoRA (multinode)" row (2 nodes x 2 GPUs; whether
its model is the base (trainable tables) or the chat model is not said), the 512 / 1024 / 4096 columns (kept to
the two ends and one middle length of the sweeps so the set stays within 20 rows), the 1.8B LoRA 2,048 column and
Q-LoRA 256 column, the 14B LoRA (emb) row and Q-LoRA 256 column, the 7B full fine-tune's 512 and 1,024 columns
(1,024 reads 162.0G over 2 GPUs, 81 GB each: the card's capacity), and the inference tables (generation, not
training)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-21"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

QWEN_LORA = "qwen1-readme-profiling-lora"
QWEN_QLORA = "qwen1-readme-profiling-qlora"
QWEN_FULL = "qwen1-readme-profiling-full"
GH = "https://github.com"
Q = f"{GH}/QwenLM/Qwen/blob/e8e15962d897714944773cca57fa2e460a3655e8"
README = f"{Q}/README.md"
TABLE = "README.md 'Profiling of Memory and Speed' table at e8e1596"

SOURCES = {
    QWEN_LORA: {
        "url": README,
        "also": [f"{Q}/finetune.py", f"{Q}/finetune/finetune_lora_single_gpu.sh", f"{Q}/finetune/finetune_lora_ds.sh",
                 f"{Q}/finetune/ds_config_zero3.json", f"{Q}/requirements.txt"],
        "setup": "Qwen-1.8B / 7B / 14B LoRA (rank 64, alpha 16, dropout 0.05 on c_attn, c_proj, w1, w2: every linear "
                 "layer) with the repository's finetune.py (HF Trainer, --bf16, gradient checkpointing, adamw_torch) "
                 "on one A100-SXM4-80G, batch 1, gradient accumulation 8, every sample padded to 256-8,192 tokens, "
                 "flash attention 2; 'LoRA' trains no embedding or output table, 'LoRA (emb)' trains copies of both "
                 "(PEFT modules_to_save); Qwen-72B LoRA under DeepSpeed ZeRO-3 on 4 A100-SXM4-80G; 'memory (GB)'",
        "versions": {"torch": "2.0 (README: 'Pytorch 2.0'; 2.0.1 in its inference profiling)", "cuda": "11.8",
                     "transformers": "4.32.0 (requirements.txt)", "peft": "not stated",
                     "deepspeed": "not stated", "flash-attn": "2 (version not stated)"},
        "date": "2023-11-30 (README table at e8e1596; 7B / 14B rows from 2023-10-11, e6f2a7a)",
        "project": "QwenLM/Qwen (Alibaba Qwen team)",
    },
    QWEN_QLORA: {
        "url": README,
        "also": [f"{Q}/finetune.py", f"{Q}/finetune/finetune_qlora_single_gpu.sh",
                 f"{Q}/finetune/ds_config_zero2.json", f"{Q}/requirements.txt"],
        "setup": "Q-LoRA of the GPTQ Int4 chat models (Qwen-1_8B-Chat-Int4, Qwen-7B-Chat-Int4, Qwen-72B-Chat-Int4; "
                 "LoRA rank 64 on every linear layer) with finetune.py under DeepSpeed ZeRO-2 (--fp16, DeepSpeed's "
                 "AdamW) on one A100-SXM4-80G, batch 1, gradient accumulation 8, padded to 256-8,192 tokens, "
                 "gradient checkpointing, flash attention 2; 'memory (GB)'",
        "versions": {"torch": "2.0", "cuda": "11.8", "transformers": "4.32.0 (requirements.txt)",
                     "auto-gptq / optimum": "not stated", "peft": "not stated", "deepspeed": "not stated"},
        "date": "2023-11-30 (README table at e8e1596)",
        "project": "QwenLM/Qwen (Alibaba Qwen team)",
    },
    QWEN_FULL: {
        "url": README,
        "also": [f"{Q}/finetune.py", f"{Q}/finetune/finetune_ds.sh", f"{Q}/finetune/ds_config_zero3.json",
                 f"{Q}/requirements.txt"],
        "setup": "Full-parameter fine-tunes with finetune/finetune_ds.sh (torchrun, DeepSpeed ZeRO-3, --bf16, "
                 "DeepSpeed's AdamW, gradient checkpointing): Qwen-1.8B on one A100-SXM4-80G and Qwen-7B on two, "
                 "batch 1 per GPU, padded to 256-8,192 tokens, flash attention 2; 'memory (GB)', the 2-GPU figure "
                 "over both GPUs",
        "versions": {"torch": "2.0", "cuda": "11.8", "transformers": "4.32.0 (requirements.txt)",
                     "deepspeed": "not stated"},
        "date": "2023-11-30 (1.8B row, e8e1596); 2023-10-11 (7B row, e6f2a7a)",
        "project": "QwenLM/Qwen (Alibaba Qwen team)",
    },
}


# ------------------------------------------------------------------ model shapes (remote code QWenLMHeadModel)
def qwen1(hidden, layers, heads, ffn, vocab):
    """Qwen-1's block written as the qwen2 config of the same layout (RMSNorm, RoPE, SwiGLU, bias on the fused
    q/k/v projection only, multi-head attention, untied output layer); Qwen-1's intermediate_size is the sum of its
    two SwiGLU branches (w1, w2), so ``ffn`` is half of it."""
    return {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": hidden,
            "intermediate_size": ffn, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": heads, "vocab_size": vocab, "max_position_embeddings": 8192,
            "rms_norm_eps": 1e-06, "tie_word_embeddings": False}


MODELS = {  # Qwen/Qwen-*(-Chat) config.json: hidden, layers, heads, intermediate_size / 2, vocabulary
    "1.8B": ("Qwen-1.8B", qwen1(2048, 24, 16, 5504, 151936)),
    "7B": ("Qwen-7B", qwen1(4096, 32, 32, 11008, 151936)),
    "14B": ("Qwen-14B", qwen1(5120, 40, 40, 13696, 152064)),
    "72B": ("Qwen-72B", qwen1(8192, 80, 64, 24576, 152064)),
}
SHAPE = ("Qwen-1 is remote code (QWenLMHeadModel: fused c_attn with bias, c_proj, SwiGLU w1/w2 and mlp.c_proj, "
         "RMSNorm, rotary, untied lm_head) written as the qwen2-shaped config of the same block; its sizes are the "
         "Qwen-1 config.json values (the model names are the Hugging Face repositories Qwen/Qwen-1_8B, Qwen-7B, "
         "Qwen-14B, Qwen-72B and their -Chat / -Chat-Int4 versions)")
ALL_LINEAR = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
COMMON_UNKNOWN = (
    "'memory (GB)' names no counter: the driver's per-GPU figure (nvidia-smi) in GiB written, as for every bare "
    "'G' in the earlier sets",
    SHAPE,
    "LoRA targets c_attn, c_proj, w1, w2: c_proj matches both attn.c_proj and mlp.c_proj, so every linear layer "
    "carries an adapter; written as the seven qwen2 names. Qwen-1 fuses q/k/v into c_attn, so the job has ONE "
    "rank-64 adapter on the fused projection (r x (h + 3h)) where the qwen2 names describe three (r x 6h): a "
    "mapping gap recorded, not corrected",
    "Qwen-1's remote code computes its loss itself on the logits lm_head returns (shift, .contiguous(), "
    "CrossEntropyLoss; no .float()): loss_in_logits_dtype written",
    "versions beyond torch 2.0 / CUDA 11.8 / transformers 4.32.0 are not stated (peft and DeepSpeed of late 2023)",
    "flash attention 2 through the flash_attn package the remote code imports (use_flash_attn 'auto'): flash "
    "written",
)
LORA_BASE = dict(mode="train", optimizer="adamw", micro_batch=1, grad_accum=8, grad_ckpt=True, attention="flash",
                 padding="max_length", loss="standard", loss_in_logits_dtype=True, use_cache=False,
                 lora_r=64, lora_targets=ALL_LINEAR, lora_dropout=0.05, torch_version="2.0.1",
                 transformers_version="4.32.0")
LORA_UNKNOWN = (
    "finetune.py loads the model with no torch_dtype; Qwen-1's remote code casts itself to bf16 on a GPU that "
    "supports it when config.json sets none of bf16/fp16/fp32 (automatic precision), and the Trainer's --bf16 runs "
    "autocast over it: amp-bf16 with 16-bit weights written",
    "the profiling used the single-GPU LoRA script's setup (no DeepSpeed; the script's batch 2 and max length 512 "
    "replaced by the table's batch 1 and lengths)",
)


def lora_row(size, value, seq, *, emb=False, zero3_gpus=0):
    name, shape = MODELS[size]
    kind = "LoRA (emb)" if emb else "LoRA"
    setup = dict(LORA_BASE, hf_config=shape, model_name=name + ("" if emb else "-Chat"), precision="amp-bf16",
                 weights_bits=16, seq_len=seq, world_size=max(zero3_gpus, 1))
    unknown = [*COMMON_UNKNOWN, *LORA_UNKNOWN]
    rid = f"{name.lower()}-{'lora-emb' if emb else 'lora'}-r64-all-bf16-b1-s{seq}"
    measured = value
    if emb:
        setup["trained_embeddings"] = "copy"
        unknown.append("'LoRA (emb)' is a base model: finetune.py sets modules_to_save=['wte', 'lm_head'], so PEFT "
                       "keeps the frozen tables and trains a copy of each (trained_embeddings 'copy' written)")
    else:
        unknown.append("'LoRA' trains no table: a chat model (finetune.py sets no modules_to_save when the path "
                       "names a chat model)")
    if zero3_gpus:
        h = shape["hidden_size"]
        setup.update(zero_stage=3, devices_per_node=zero3_gpus, reduce_bucket_size=h * h,
                     prefetch_bucket_size=int(0.9 * h * h), max_live_parameters=1_000_000_000,
                     max_reuse_distance=1_000_000_000, overlap_comm=True, contiguous_gradients=True,
                     zero_client_optimizer=False)
        measured = round(value / zero3_gpus, 2)
        rid = f"{name.lower()}-chat-lora-r64-all-zero3-bf16-b1-s{seq}-{zero3_gpus}xa100"
        unknown.append(f"the table's {value}G is the total over the {zero3_gpus} GPUs (the 7B full fine-tune's "
                       f"figures exceed one card); {value} / {zero3_gpus} = {measured} per GPU written")
        unknown.append("finetune_lora_ds.sh with --deepspeed finetune/ds_config_zero3.json (the README's advice); "
                       "'auto' buckets resolved as the HF Trainer does (reduce h*h, prefetch 0.9*h*h); the model "
                       "is the chat one ('LoRA (emb)' ran out of memory and cannot run under ZeRO-3)")
    cells = {256: 0, 512: 1, 1024: 2, 2048: 3, 4096: 4, 8192: 5}
    add(QWEN_LORA, rid, measured, "GiB", "nvidia-smi", "A100-SXM-80GB", setup, unknown=unknown,
        notes=f"{TABLE}: row '{size}' / '{kind if not zero3_gpus else 'LoRA + Deepspeed Zero3'}' "
              f"({'1 node, ' + str(zero3_gpus) + ' GPUs' if zero3_gpus else '1 node, 1 GPU'}), column {seq} "
              f"(cell {cells[seq] + 1} of 6): '{value}G'")


# ------------------------------------------------------------------ 1. LoRA / LoRA (emb), one A100 (bf16)
lora_row("1.8B", 6.7, 256)
lora_row("1.8B", 21.8, 8192)
lora_row("1.8B", 13.7, 256, emb=True)
lora_row("1.8B", 27.7, 8192, emb=True)
lora_row("7B", 20.1, 256)
lora_row("7B", 23.8, 2048)
lora_row("7B", 36.6, 8192)
lora_row("7B", 33.7, 256, emb=True)
lora_row("7B", 48.5, 8192, emb=True)
lora_row("14B", 34.6, 256)
lora_row("14B", 55.2, 8192)
lora_row("72B", 289.2, 8192, zero3_gpus=4)

# ------------------------------------------------------------------ 2. Q-LoRA, GPTQ Int4, ZeRO-2 fp16, one A100
QLORA_UNKNOWN = (
    "the base is the GPTQ Int4 chat model (GPTQConfig(bits=4, disable_exllama=True); group size 128): 4-bit "
    "weights written (quant '4bit'); the field's quant types are bitsandbytes' (nf4 / fp4), GPTQ's int4 with "
    "per-group fp16 scales and zeros is close to nf4 without double quantization in size",
    "prepare_model_for_kbit_training casts the non-quantized parameters (wte, lm_head, norms) to fp32, but the "
    "single-GPU script runs DeepSpeed with fp16 enabled, and DeepSpeed's engine calls module.half() at "
    "initialize: the tables and norms are fp16 again during training, so kbit_prepared is written False "
    "(gradient checkpointing is on, as the script asks); a reading of the libraries, not of a trace",
    "DeepSpeed ZeRO-2 on one process (ds_config_zero2.json: fp16 'auto' -> on, DeepSpeed's AdamW, buckets 2e8, "
    "overlap_comm, contiguous_gradients): fp32 master copies of the LoRA weights in the optimizer",
)


def qlora_row(size, value, seq):
    name, shape = MODELS[size]
    setup = dict(LORA_BASE, hf_config=shape, model_name=f"{name}-Chat-Int4", precision="fp16", seq_len=seq,
                 world_size=1, quant="4bit", double_quant=False, kbit_prepared=False, zero_stage=2,
                 reduce_bucket_size=200_000_000, allgather_bucket_size=200_000_000, overlap_comm=True,
                 contiguous_gradients=True, zero_client_optimizer=False)
    add(QWEN_QLORA, f"{name.lower()}-chat-int4-qlora-r64-all-zero2-fp16-b1-s{seq}", value, "GiB", "nvidia-smi",
        "A100-SXM-80GB", setup, unknown=(*COMMON_UNKNOWN, *QLORA_UNKNOWN),
        notes=f"{TABLE}: row '{size}' / 'Q-LoRA' (1 node, 1 GPU), column {seq}: '{value}G'; "
              "finetune_qlora_single_gpu.sh: --fp16 True --use_lora --q_lora --deepspeed finetune/ds_config_zero2.json")


qlora_row("1.8B", 15.8, 8192)
qlora_row("7B", 11.5, 256)
qlora_row("7B", 23.5, 8192)
qlora_row("14B", 27.9, 8192)
qlora_row("72B", 61.4, 256)

# ------------------------------------------------------------------ 3. full fine-tunes, ZeRO-3 bf16
FULL_UNKNOWN = (
    "finetune_ds.sh: torchrun over the node's GPUs, DeepSpeed ZeRO-3 (ds_config_zero3.json: no offload, "
    "DeepSpeed's AdamW, overlap_comm, contiguous_gradients, stage3_max_live_parameters and max_reuse_distance "
    "1e9, 'auto' buckets resolved as the HF Trainer does: reduce h*h, prefetch 0.9*h*h), --bf16: bf16 module "
    "with fp32 master partitions",
    "the script's batch 1 and gradient accumulation 16 under the table's batch 1 and accumulation 8",
)


def full_row(size, value, seq, gpus):
    name, shape = MODELS[size]
    h = shape["hidden_size"]
    setup = dict(mode="train", hf_config=shape, model_name=name, precision="bf16", optimizer="adamw", micro_batch=1,
                 grad_accum=8, seq_len=seq, grad_ckpt=True, attention="flash", padding="max_length",
                 loss="standard", loss_in_logits_dtype=True, use_cache=False, world_size=gpus, zero_stage=3,
                 reduce_bucket_size=h * h, prefetch_bucket_size=int(0.9 * h * h), max_live_parameters=1_000_000_000,
                 max_reuse_distance=1_000_000_000, overlap_comm=True, contiguous_gradients=True,
                 zero_client_optimizer=False, torch_version="2.0.1", transformers_version="4.32.0")
    unknown = [*COMMON_UNKNOWN, *FULL_UNKNOWN]
    measured = value
    if gpus > 1:
        setup["devices_per_node"] = gpus
        measured = round(value / gpus, 2)
        unknown.append(f"the table's {value}G is the total over {gpus} GPUs (more than one 80 GB card holds); "
                       f"{value} / {gpus} = {measured} per GPU written")
    else:
        unknown.append("the 1.8B row's GPU count column says 1: finetune_ds.sh on one GPU (ZeRO-3 in one process)")
    add(QWEN_FULL, f"{name.lower()}-full-ft-zero3-bf16-b1-s{seq}-{gpus}xa100", measured, "GiB", "nvidia-smi",
        "A100-SXM-80GB", setup, unknown=unknown,
        notes=f"{TABLE}: row '{size}' / 'Full-parameter' (1 node, {gpus} GPU{'s' if gpus > 1 else ''}), column "
              f"{seq}: '{value}G'")


full_row("1.8B", 43.5, 256, 1)
full_row("1.8B", 48.3, 8192, 1)
full_row("7B", 139.2, 256, 2)


def main():
    write_split("heldout21", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
