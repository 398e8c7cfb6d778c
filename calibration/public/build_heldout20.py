"""The twentieth held-out set (calibration/public/heldout20.json): 20 public measured peaks from three publishers no
earlier set uses, chosen for what the earlier sets have few of: a per-GPU memory table of one project's DeepSpeed
runs of the GLM family on A40s under fp16 (liucongg/ChatGLM-Finetuning: ChatGLM-6B and ChatGLM2-6B LoRA under ZeRO-2
on 1 and 4 GPUs with and without gradient checkpointing, eager attention on torch 1.13, and full fine-tunes under
ZeRO-3 with and without CPU offload on 4), Datawhale's self-llm tutorials from 2024-2025 (a Phi-4 LoRA whose target
names miss the fused projections, a Qwen3-30B-A3B MoE LoRA on every expert on one H20, a Qwen3-1.7B bf16 full
fine-tune, and MiniCPM-2B LoRA and full fine-tunes under ZeRO-2 with the optimizer offloaded to the CPU on one RTX
3090), and Chinese-Vicuna's LLaMA-7B/13B LoRA notes of 2023 (LLM.int8 bases at 256 and 2,048 tokens on a 2080 Ti, a
4090 and a 3090; an fp16 base at 512 tokens); every row sourced, what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout20.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names of
EstimateInput that bench/public_accuracy.py passes through, and the catalog's model and GPU names). Same row
format as devset.json (see build_devset.py). Every figure is the source's own words. No source names its counter:
each is taken as the driver's per-GPU figure (nvidia-smi, or SwanLab's GPU-memory chart, which reads the driver)
and every bare "G"/"GB" as GiB, as the earlier sets did; most figures are rounded ("about", "约", "大概").

1. liucongg/ChatGLM-Finetuning ``README.md`` at 79bdc89 (2023-08-06), the LoRA table ("| Model | DeepSpeed-Stage |
   Offload | Gradient Checkpointing | Batch Size | Max Length | GPU-A40 Number | 所耗显存 |": ChatGLM / ChatGLM2, zero2,
   no offload, batch 1, max length 1560, 1 or 4 A40s: 20G / 45G / 20G / 45G and 20G / 43G / 19G / 42G) and the
   full-parameter table (ChatGLM zero3 with offload on 4: 33G; ChatGLM2 zero3 without offload 44G, with offload
   26G); ``train.py`` (fp32 ``from_pretrained``, DeepSpeed fp16, LoRA rank 16 / alpha 64 / dropout 0.1 on
   ``query_key_value`` for ChatGLM and ``query_key_value,dense_h_to_4h,dense_4h_to_h,dense`` for ChatGLM2, the
   model called with ``use_cache=False``), ``utils.py`` (each batch padded to its longest sample), the
   ``ds_zero2_no_offload.json`` / ``ds_zero3_no_offload.json`` / ``ds_zero3_offload.json`` configs and
   ``requirements.txt`` (torch 1.13.1, transformers 4.27.1, deepspeed 0.9.0, peft 0.3.0).
2. datawhalechina/self-llm at 0932a89: ``models/phi4/05-Phi-4-Lora 微调 命名实体识别.md`` (2025-01-20: "显存需求：约33GB";
   bf16 Phi-4, LoRA rank 64 on q/k/v/o/gate/up/down names, batch 4, 384 tokens, gradient checkpointing, pytorch
   2.3.0, transformers 4.48.0, peft 0.14.0), ``models/Qwen3/06-Qwen3-30B-A3B 微调及 SwanLab 可视化记录.md``
   (2025-05-01: "显存需求：约 85GB ... 笔者采用一张 H20 进行训练"; bf16, LoRA rank 8, batch 16, 384 tokens, gradient
   checkpointing, pytorch 2.5.1, transformers 4.51.3, peft 0.15.2), ``models/Qwen3/09-Qwen3-1.7B-医学推理式对话微调 及
   SwanLab 可视化记录.md`` (2025-05-08: "全参数微调需要大约32GB显存"; bf16 weights, batch 1, 2,048 tokens, gradient
   checkpointing, transformers 4.51.3) and ``models/MiniCPM/MiniCPM-2B-chat Lora && Full 微调.md`` with ``train.py``,
   ``train.sh``, ``ds_config.json`` (one RTX 3090: "lora 训练大概需要14G显存左右，因为没有开梯度检查" and "全量训练，大概需要22G
   显存左右，因为开启了deepspeed zero2 的 cpu offload"; fp16 weights, batch 4, 512 tokens, ZeRO-2 with the optimizer
   on the CPU).
3. Facico/Chinese-Vicuna ``README.md`` ("Training: A 2080Ti is sufficient. Since the data length is within 256, it
   takes about 9G of video memory.") and ``docs/notes.md`` at abc7226 (2023-05-10; the table "| LLaMA-7B | 4090 |
   0.3h/w | 20G | ... | 3.5h/w | 20G |" for lora+fp16+512 and lora+int8+2048, "| LLaMA-13B | 3090 | ... | 7.5h/w |
   24G |" for lora+int8+2048; "mirco batch size设置为1，24G的3090Ti可以训练2048长度的"; "lora+8bit+256（长度）（256的时候mirco
   batch size是4）"), ``finetune.py`` / ``finetune_fp16.py`` (LoRA rank 8 on q/v, padding to max_length, Trainer
   fp16, ``prepare_model_for_int8_training``) and ``requirements.txt`` (torch 1.13.1, transformers at 0dcb46e).

Left out on purpose (decided before scoring, by what is known): ChatGLM-Finetuning's Freeze and P-tuning tables (no
field takes partly frozen layers or prefix encoders), self-llm's vision-language LoRA rows (Qwen2-VL-2B spread over
four A100s with device_map="auto", MiniCPM-o), its embedding fine-tune (BGE-M3) and GRPO tutorials, the Tianji
InternLM2 full fine-tune (XTuner, no full setup in the text), Chinese-Vicuna's "13B need about 18G" (no GPU or
batch), and every "a 24 GB card is enough" sentence with no figure."""

import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-20"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

CG_LORA = "chatglm-finetuning-lora-table"
CG_FULL = "chatglm-finetuning-full-table"
SL_PHI4 = "self-llm-phi4-lora"
SL_QWEN3_MOE = "self-llm-qwen3-30b-a3b-lora"
SL_QWEN3_FULL = "self-llm-qwen3-1.7b-full"
SL_MINICPM = "self-llm-minicpm-2b"
VICUNA = "chinese-vicuna-notes"
GH = "https://github.com"
CG = f"{GH}/liucongg/ChatGLM-Finetuning/blob/79bdc89f40de35e90e0b4fa479031176cb3cd8d2"
SL = f"{GH}/datawhalechina/self-llm/blob/0932a89b0fd8e7a9844874eceb8ec993d6570d78"
CV = f"{GH}/Facico/Chinese-Vicuna/blob/bd1658d70f66113eeb41e05e91f0754fa9dc845a"
CV_NOTES = f"{GH}/Facico/Chinese-Vicuna/blob/abc722699d0bfcf9726e41930d8d459e54e538f6"


def sl(path):
    return f"{SL}/{quote(path)}"


SOURCES = {
    CG_LORA: {
        "url": f"{CG}/README.md",
        "also": [f"{CG}/train.py", f"{CG}/utils.py", f"{CG}/ds_zero2_no_offload.json", f"{CG}/requirements.txt",
                 f"{CG}/data/spo_0.json"],
        "setup": "ChatGLM-6B (LoRA rank 16 on query_key_value) and ChatGLM2-6B (LoRA rank 16 on every linear) "
                 "fine-tuned with the repository's train.py under DeepSpeed ZeRO-2 (fp16, no offload, "
                 "DeepSpeed AdamW) on 1 or 4 A40 48GB, batch 1, max length 1,560 (padding to the longest of each "
                 "batch), with and without gradient checkpointing; per-GPU '所耗显存' in G",
        "versions": {"torch": "1.13.1+cu116 (requirements.txt at 79bdc89)", "transformers": "4.27.1",
                     "deepspeed": "0.9.0", "peft": "0.3.0"},
        "date": "2023-08-06 (README table and requirements at 79bdc89)",
        "project": "liucongg/ChatGLM-Finetuning (刘聪NLP)",
    },
    CG_FULL: {
        "url": f"{CG}/README.md",
        "also": [f"{CG}/train.py", f"{CG}/ds_zero3_no_offload.json", f"{CG}/ds_zero3_offload.json",
                 f"{CG}/requirements.txt"],
        "setup": "ChatGLM-6B and ChatGLM2-6B full-parameter fine-tunes with train.py under DeepSpeed ZeRO-3 (fp16, "
                 "DeepSpeed AdamW), parameters and optimizer offloaded to the CPU or not, on 4 A40 48GB, batch 1, "
                 "max length 1,560, gradient checkpointing; per-GPU '所耗显存' in G",
        "versions": {"torch": "1.13.1+cu116 (requirements.txt at 79bdc89)", "transformers": "4.27.1",
                     "deepspeed": "0.9.0"},
        "date": "2023-08-06 (README table at 79bdc89)",
        "project": "liucongg/ChatGLM-Finetuning (刘聪NLP)",
    },
    SL_PHI4: {
        "url": sl("models/phi4/05-Phi-4-Lora 微调 命名实体识别.md"),
        "also": [],
        "setup": "Phi-4 LoRA (rank 64, alpha 16, dropout 0.1, target names q_proj/k_proj/v_proj/o_proj/gate_proj/"
                 "up_proj/down_proj) with the HF Trainer on bf16 weights, batch 4, 384 tokens at most (padded to "
                 "the longest), gradient checkpointing, default AdamW; '显存需求：约33GB'",
        "versions": {"torch": "2.3.0 (the tutorial's environment)", "transformers": "4.48.0", "peft": "0.14.0",
                     "accelerate": "1.3.0"},
        "date": "2025-01-20",
        "project": "datawhalechina/self-llm (Datawhale)",
    },
    SL_QWEN3_MOE: {
        "url": sl("models/Qwen3/06-Qwen3-30B-A3B 微调及 SwanLab 可视化记录.md"),
        "also": [],
        "setup": "Qwen3-30B-A3B LoRA (rank 8, alpha 32, dropout 0.1 on q/k/v/o and every expert's gate/up/down) "
                 "with the HF Trainer on bf16 weights, batch 16, 384 tokens at most (padded to the longest), "
                 "gradient checkpointing, one H20 96GB; '显存需求：约 85GB'",
        "versions": {"torch": "2.5.1 (the tutorial's environment)", "transformers": "4.51.3", "peft": "0.15.2",
                     "accelerate": "1.6.0"},
        "date": "2025-05-01",
        "project": "datawhalechina/self-llm (Datawhale)",
    },
    SL_QWEN3_FULL: {
        "url": sl("models/Qwen3/09-Qwen3-1.7B-医学推理式对话微调 及 SwanLab 可视化记录.md"),
        "also": [],
        "setup": "Qwen3-1.7B full fine-tune with the HF Trainer on bf16 weights (AdamW over them), batch 1, 2,048 "
                 "tokens at most (padded to the longest), gradient checkpointing, evaluation every 100 steps; "
                 "'全参数微调需要大约32GB显存'",
        "versions": {"transformers": "4.51.3 (tested with)", "torch": "not stated (2.5.1 written)",
                     "accelerate": "1.6.0"},
        "date": "2025-05-08",
        "project": "datawhalechina/self-llm (Datawhale)",
    },
    SL_MINICPM: {
        "url": sl("models/MiniCPM/MiniCPM-2B-chat Lora && Full 微调.md"),
        "also": [sl("models/MiniCPM/train.py"), sl("models/MiniCPM/train.sh"), sl("models/MiniCPM/ds_config.json")],
        "setup": "MiniCPM-2B (fp32 checkpoint loaded as torch.half) fine-tuned with the HF Trainer under DeepSpeed "
                 "ZeRO-2 with the optimizer offloaded to the CPU (ds_config.json), batch 4, 512 tokens at most "
                 "(padded to the longest), no gradient checkpointing, one RTX 3090: LoRA rank 8 on q_proj/v_proj "
                 "'大概需要14G显存左右' and the full fine-tune '大概需要22G显存左右'",
        "versions": {"torch": "2.1.0 (the autodl image)", "transformers": "not stated (4.37.2 written)",
                     "deepspeed": "not stated (0.13.1 written)", "peft": "not stated"},
        "date": "2024-02 (tutorial; file history from 2024-07-21)",
        "project": "datawhalechina/self-llm (Datawhale)",
    },
    VICUNA: {
        "url": f"{CV}/README.md",
        "also": [f"{CV_NOTES}/docs/notes.md", f"{CV}/finetune.py", f"{CV}/finetune_fp16.py", f"{CV}/requirements.txt"],
        "setup": "LLaMA-7B / LLaMA-13B LoRA (rank 8, alpha 16, dropout 0.05 on q_proj/v_proj) with the HF Trainer "
                 "(fp16 AMP), every sample padded to cutoff + 1 tokens: LLM.int8 bases prepared by "
                 "prepare_model_for_int8_training (finetune.py) at 256 and 2,048 tokens, and an fp16 base "
                 "(finetune_fp16.py) at 512; per-GPU 'size' / 'video memory' in G",
        "versions": {"torch": "1.13.1", "transformers": "git 0dcb46e (4.28.0.dev0)", "peft": "git 13e53fc",
                     "bitsandbytes": "0.37.2 (the README's advice)"},
        "date": "2023-03-23 (README figure), 2023-05-10 (notes table)",
        "project": "Facico/Chinese-Vicuna",
    },
}

# ------------------------------------------------------------------ model shapes (remote-code GLM / MiniCPM models)
CHATGLM_6B = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 4096,
              "intermediate_size": 16384, "num_hidden_layers": 28, "num_attention_heads": 32, "vocab_size": 130528,
              "max_position_embeddings": 2048, "rotary_pct": 0.5, "hidden_act": "gelu", "layer_norm_eps": 1e-05,
              "use_parallel_residual": False, "tie_word_embeddings": True,
              # est71 (in-sample): the checkpoint's config names its remote modeling code, as
              # ChatGLM2-6B's does (est50); the job runs the repository's glm1/modeling_chatglm.py
              # (model.py:14 at 79bdc89), not transformers' GPT-NeoX
              "auto_map": {"AutoModel": "modeling_chatglm.ChatGLMForConditionalGeneration"}}
CHATGLM2_6B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
               "intermediate_size": 13696, "num_hidden_layers": 28, "num_attention_heads": 32,
               "num_key_value_heads": 2, "vocab_size": 65024, "max_position_embeddings": 32768,
               "rope_theta": 10000.0, "rms_norm_eps": 1e-05, "tie_word_embeddings": False,
               # est50: the repository's config names its remote modeling code
               "auto_map": {"AutoModelForCausalLM": "modeling_chatglm.ChatGLMForConditionalGeneration"}}
MINICPM_2B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2304,
              "intermediate_size": 5760, "num_hidden_layers": 40, "num_attention_heads": 36,
              "num_key_value_heads": 36, "vocab_size": 122753, "max_position_embeddings": 4096,
              "rope_theta": 10000.0, "rms_norm_eps": 1e-05, "tie_word_embeddings": True,
              # est50: the repository's config names its remote modeling code
              "auto_map": {"AutoModelForCausalLM": "modeling_minicpm.MiniCPMForCausalLM"}}
GLM1_SHAPE = ("ChatGLM-6B's remote code (GLM blocks: multi-head attention with a fused query_key_value, a GELU "
              "MLP of 16,384, LayerNorm, 2D rotary, vocabulary 130,528; its config sets no tie_word_embeddings, so "
              "transformers ties lm_head to the word embeddings: 6.17B parameters) written as a GPT-NeoX-shaped "
              "config with its sizes (the same layout of tensors)")
GLM2_SHAPE = ("ChatGLM2-6B's remote code (multi-query attention with 2 groups and a fused query_key_value, SwiGLU "
              "of 13,696, RMSNorm, untied output layer) written as a Llama-shaped config with its sizes; LoRA on "
              "query_key_value, dense_h_to_4h, dense_4h_to_h and dense written as every linear")
ALL_LINEAR = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

# ------------------------------------------------------------------ 1. ChatGLM-Finetuning (A40, per-GPU G)
# est69 (in-sample, after scoring): utils.py at 79bdc89, the DataCollator train.py uses (train.py:21, :140), pads each
# batch to `batch_max_len = max(max(lengths), 1560)` (utils.py:122-123) and the datasets keep every sample within
# max_len (data_set.py:54 `assert len(input_ids) <= max_len`; the README's commands pass --max_len 1560): every batch
# is 1,560 tokens long, so padding "max_length" (it was written "dynamic", "padded to its own length")
CG_BASE = dict(mode="train", precision="fp16", optimizer="adamw", micro_batch=1, grad_accum=4, seq_len=1560,
               padding="max_length", attention="eager", loss="standard", use_cache=False,
               # est71 (in-sample): requirements.txt pins torch==1.13.1+cu116 (a CUDA 11.6 build: no lazy
               # loading); train.py:191 binds `outputs = model(**batch, use_cache=False)` at loop level and
               # never drops it (the step's fp16 logits live through backward and the next forward)
               torch_version="1.13.1+cu116", keeps_outputs=True,
               transformers_version="4.27.1", deepspeed_version="0.9.0", reduce_bucket_size=500000000,
               allgather_bucket_size=500000000)
CG_UNKNOWN = ("'所耗显存' names no counter: the driver's per-GPU figure (nvidia-smi) in GiB written",
              "est69: utils.DataCollator pads every batch to max(its longest, 1560) (utils.py:122-123 at 79bdc89): "
              "every batch 1,560 tokens, padding max_length written (the blind transcription wrote 'batch 1 is "
              "padded to its own length', dynamic)",
              "train.py loads the fp32 checkpoint; DeepSpeed's fp16 mode casts the module to fp16 and keeps fp32 "
              "master copies of the trainable parameters in its optimizer (precision fp16 written)",
              "torch 1.13 has no SDPA: the remote code's own attention (scores materialised, softmax in fp32) is "
              "eager",
              "the 'no_offload' configs say offload device 'auto', which DeepSpeed 0.9 reads as none; the table "
              "says 'Offload: No'",
              "est71: ChatGLM-6B written with its checkpoint's auto_map (the repository's own modeling file, "
              "which upcasts the logits to fp32 for its loss, glm1/modeling_chatglm.py:1208); torch "
              "1.13.1+cu116 as requirements.txt pins it (was 1.13.1); keeps_outputs (train.py:191)")
CG_NOTE = ("ChatGLM-Finetuning README (LoRA): '| Model | DeepSpeed-Stage | Offload | Gradient Checkpointing | "
           "Batch Size | Max Length | GPU-A40 Number | 所耗显存 |' row ")
for model, shape, targets, cfg, ckpt, gpus, value in (
        ("ChatGLM-6B", CHATGLM_6B, ["query_key_value"], "ChaGLM", True, 1, 20),
        ("ChatGLM-6B", CHATGLM_6B, ["query_key_value"], "ChaGLM", False, 1, 45),
        ("ChatGLM-6B", CHATGLM_6B, ["query_key_value"], "ChaGLM", True, 4, 20),
        ("ChatGLM-6B", CHATGLM_6B, ["query_key_value"], "ChaGLM", False, 4, 45),
        ("ChatGLM2-6B", CHATGLM2_6B, ALL_LINEAR, "ChaGLM2", True, 1, 20),
        ("ChatGLM2-6B", CHATGLM2_6B, ALL_LINEAR, "ChaGLM2", False, 1, 43),
        ("ChatGLM2-6B", CHATGLM2_6B, ALL_LINEAR, "ChaGLM2", True, 4, 19),
        ("ChatGLM2-6B", CHATGLM2_6B, ALL_LINEAR, "ChaGLM2", False, 4, 42)):
    extra = dict(devices_per_node=4) if gpus > 1 else {}
    add(CG_LORA, f"{model.lower()}-lora-r16-zero2-fp16-s1560-{'ckpt' if ckpt else 'nockpt'}-{gpus}xa40", value,
        "GiB", "nvidia-smi", "A40-48GB",
        dict(CG_BASE, hf_config=shape, model_name=model, zero_stage=2, world_size=gpus, grad_ckpt=ckpt, lora_r=16,
             lora_targets=targets, lora_dropout=0.1, **extra),
        unknown=(GLM1_SHAPE if model == "ChatGLM-6B" else GLM2_SHAPE, *CG_UNKNOWN),
        notes=CG_NOTE + f"'| {cfg} | zero2 | No | {'Yes' if ckpt else 'No'} | 1 | 1560  | {gpus} | {value}G |'; "
              f"train.py --train_type lora --lora_dim 16 --lora_module_name '{','.join(targets) if model == 'ChatGLM-6B' else 'query_key_value,dense_h_to_4h,dense_4h_to_h,dense'}'")

CG_FULL_NOTE = "ChatGLM-Finetuning README (全参方法): row "
CG_LOAD = ("est40 (after scoring, in-sample): train.py builds the model with from_pretrained and hands it to "
           "deepspeed.initialize (line 178) with no deepspeed.zero.Init and no HfDeepSpeedConfig, so DeepSpeed "
           "0.9.0 casts the module to fp16 and moves it whole to each GPU before ZeRO-3 partitions it (engine.py "
           "_configure_distributed_model, lines 1037-1051); `preflight audit` on that train.py reads "
           "model.load_placement 'gpu' (train.py:178): load_placement 'gpu' written (the field existed; the "
           "blind transcription left it unset)")
for model, shape, offload, value in (("ChatGLM-6B", CHATGLM_6B, True, 33), ("ChatGLM2-6B", CHATGLM2_6B, False, 44),
                                     ("ChatGLM2-6B", CHATGLM2_6B, True, 26)):
    cfg = "ChaGLM" if model == "ChatGLM-6B" else "ChaGLM2"
    extra = dict(offload_optimizer="cpu", offload_params="cpu") if offload else {}
    add(CG_FULL, f"{model.lower()}-full-ft-zero3{'-offload' if offload else ''}-fp16-s1560-4xa40", value, "GiB",
        "nvidia-smi", "A40-48GB",
        dict(CG_BASE, hf_config=shape, model_name=model, zero_stage=3, world_size=4, devices_per_node=4,
             grad_ckpt=True, prefetch_bucket_size=50000000, max_live_parameters=1000000000,
             max_reuse_distance=1000000000, load_placement="gpu", **extra),
        unknown=(GLM1_SHAPE if model == "ChatGLM-6B" else GLM2_SHAPE, *CG_UNKNOWN,
                 "ZeRO-3 buckets at DeepSpeed's defaults (the configs set none)", CG_LOAD),
        notes=CG_FULL_NOTE + f"'| {cfg} | zero3 | {'Yes' if offload else 'No'} | Yes | 1 | 1560  | 4 | {value}G |'; "
              f"train.py --train_type all --ds_file {'ds_zero3_offload.json' if offload else 'ds_zero3_no_offload.json'}")

# ------------------------------------------------------------------ 2. self-llm tutorials (SwanLab / nvidia-smi, GiB)
SL_UNKNOWN = ("the tutorial's 显存需求 names no counter: the driver's figure (SwanLab's GPU-memory chart reads the "
              "driver) in GiB written; '约' / '大概': a rounded figure",
              "padded to the longest of each batch: the MAX_LENGTH cap written as seq_len, the longest samples "
              "assumed to reach it")
SL_TRAINER = dict(mode="train", optimizer="adamw", padding="dynamic", attention="sdpa", loss="standard",
                  world_size=1)
add(SL_PHI4, "phi-4-lora-r64-o-down-bf16-b4-s384", 33, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(SL_TRAINER, model="Phi-4", precision="bf16", micro_batch=4, grad_accum=4, seq_len=384, grad_ckpt=True,
         lora_r=64, lora_targets=["o_proj", "down_proj"], lora_dropout=0.1, torch_version="2.3.0",
         transformers_version="4.48.0"),
    unknown=(*SL_UNKNOWN,
             "the GPU is not named (a card over 33 GB): an A100 80GB written",
             "Phi-4 (Phi3ForCausalLM) has fused qkv_proj and gate_up_proj: of the seven target names only o_proj "
             "and down_proj match a module (peft matches whole name suffixes), so LoRA is written on those two",
             "bf16 weights and no bf16/fp16 flag: the base runs in bf16; peft 0.14 keeps the adapters in fp32 "
             "(autocast_adapter_dtype); the Trainer's AdamW over them"),
    notes="self-llm Phi-4 LoRA NER tutorial: '显存需求：约33GB，如显存不足，请调低per_device_train_batch_size'; "
          "per_device_train_batch_size=4, gradient_accumulation_steps=4, gradient_checkpointing=True, MAX_LENGTH = 384, "
          "r=64")
add(SL_QWEN3_MOE, "qwen3-30b-a3b-lora-r8-experts-bf16-b16-s384-h20", 85, "GiB", "nvidia-smi", "H20-96GB",
    dict(SL_TRAINER, model="Qwen3-30B-A3B", precision="bf16", micro_batch=16, grad_accum=1, seq_len=384,
         grad_ckpt=True, lora_r=8, lora_targets=ALL_LINEAR, lora_dropout=0.1, torch_version="2.5.1",
         transformers_version="4.51.3"),
    unknown=(*SL_UNKNOWN,
             "gate_proj/up_proj/down_proj match every expert's projections (128 experts per layer), not the "
             "router ('gate'); the huanhuan dialogue samples are short, so most batches are far below 384",
             "bf16 weights with no bf16 flag; adapters in fp32 (peft 0.15 autocast_adapter_dtype)"),
    notes="self-llm Qwen3-30B-A3B LoRA tutorial: '显存需求：约 85GB，如显存不足，请调低 per_device_train_batch_size。"
          "（模型本身占 60GB 左右，对显存要求较高，笔者采用一张 H20 进行训练）'; per_device_train_batch_size=16, "
          "gradient_checkpointing=True, MAX_LENGTH = 384, r=8")
add(SL_QWEN3_FULL, "qwen3-1.7b-full-ft-bf16-b1-s2048", 32, "GiB", "nvidia-smi", "A100-SXM-80GB",
    dict(SL_TRAINER, model="Qwen3-1.7B", precision="bf16", micro_batch=1, grad_accum=4, seq_len=2048,
         grad_ckpt=True, torch_version="2.5.1", transformers_version="4.51.3"),
    unknown=(*SL_UNKNOWN,
             "the GPU is not named ('显存要求大概32GB左右可以跑'): an A100 80GB written; torch not stated (2.5.1 "
             "written)",
             "bf16 weights with no bf16 flag: the Trainer's AdamW keeps bf16 states beside the bf16 weights; "
             "evaluation every 100 steps (batch 1, no generation inside the Trainer)"),
    notes="self-llm Qwen3-1.7B full fine-tune tutorial: '全参数微调需要大约32GB显存' and '显存要求大概32GB左右可以跑'; "
          "per_device_train_batch_size=1, gradient_accumulation_steps=4, gradient_checkpointing=True, MAX_LENGTH = 2048")
MC_BASE = dict(SL_TRAINER, hf_config=MINICPM_2B, model_name="MiniCPM-2B", precision="fp16", micro_batch=4,
               grad_accum=4, seq_len=512, grad_ckpt=False, zero_stage=2, offload_optimizer="cpu",
               overlap_comm=True, reduce_bucket_size=500000000, allgather_bucket_size=500000000,
               torch_version="2.1.0", transformers_version="4.37.2", deepspeed_version="0.13.1")
MC_UNKNOWN = ("MiniCPM's remote code (Llama layout with muP scaling, tied embeddings) written as a Llama-shaped "
              "config with its sizes (hidden 2,304, 40 layers, 36 heads, FFN 5,760, vocabulary 122,753)",
              "loaded with torch_dtype=torch.half and no --fp16 flag: ds_config's fp16 'auto' resolves to off, "
              "so ZeRO-2 runs the fp16 module with fp32 master partitions and Adam states on the CPU "
              "(offload_optimizer cpu; offload_param is ignored at stage 2)",
              "attention implementation not stated (flash-attn installed, none requested): sdpa written",
              "versions not pinned (February 2024: transformers 4.37.2, deepspeed 0.13.1 written)")
add(SL_MINICPM, "minicpm-2b-lora-r8-qv-zero2-offload-fp16-b4-s512-rtx3090", 14, "GiB", "nvidia-smi",
    "RTX-3090-24GB",
    dict(MC_BASE, lora_r=8, lora_targets=["q_proj", "v_proj"], lora_dropout=0.1),
    unknown=(*SL_UNKNOWN, *MC_UNKNOWN,
             "the LoRA run uncomments get_peft_model in train.py: its config targets q_proj and v_proj (the "
             "tutorial's text shows q/k/v/o; the script is what runs)"),
    notes="self-llm MiniCPM-2B tutorial: 'lora 训练大概需要14G显存左右，因为没有开梯度检查所以显存占用会多一点。'; "
          "train.sh: deepspeed --num_gpus 1 train.py --deepspeed ./ds_config.json --per_device_train_batch_size=4")
add(SL_MINICPM, "minicpm-2b-full-ft-zero2-offload-fp16-b4-s512-rtx3090", 22, "GiB", "nvidia-smi", "RTX-3090-24GB",
    MC_BASE,
    unknown=(*SL_UNKNOWN, *MC_UNKNOWN),
    notes="self-llm MiniCPM-2B tutorial: '全量训练，大概需要22G显存左右，因为开启了deepspeed zero2 的 cpu offload 功能，"
          "优化器参数会加载到cpu上进行计算，所以降低了显存。'; ds_config.json: zero_optimization stage 2, "
          "offload_optimizer cpu")

# ------------------------------------------------------------------ 3. Chinese-Vicuna (per-GPU G)
CV_BASE = dict(mode="train", optimizer="adamw", padding="max_length", attention="eager",
               loss="standard", use_cache=False, world_size=1, lora_r=8, lora_targets=["q_proj", "v_proj"],
               lora_dropout=0.05, torch_version="1.13.1", transformers_version="4.28.0")
CV_UNKNOWN = ("no counter named: the driver's figure (nvidia-smi) in GiB written",
              "transformers at git 0dcb46e (4.28.0.dev0, March 2023): LLaMA's eager attention; every sample padded "
              "to cutoff + 1 (padding='max_length')")
CV_INT8 = dict(CV_BASE, precision="amp-fp16", quant="8bit", kbit_prepared=True, grad_ckpt=True)
CV_INT8_UNKNOWN = ("load_in_8bit (LLM.int8) and prepare_model_for_int8_training of peft 13e53fc: norms and the "
                   "head's output in fp32, gradient checkpointing enabled (its default); LoRA weights fp32 under "
                   "the Trainer's fp16 AMP",)
add(VICUNA, "llama-7b-int8-lora-r8-qv-ampfp16-b4-s257-2080ti", 9, "GiB", "nvidia-smi", "RTX-2080-Ti-11GB",
    dict(CV_INT8, model="LLaMA-7B", micro_batch=4, grad_accum=32, seq_len=257),
    unknown=(*CV_UNKNOWN, *CV_INT8_UNKNOWN,
             "the README's 'about 9G'; notes.md says '序列长度256显存占用不超过11G' and its table lists 11G for "
             "2080Ti lora+int8+256: the measured 'about 9G' kept, 11G read as the card's bound",
             "the run used three 2080 Ti under DDP (notes.md); the figure is per GPU"),
    notes="Chinese-Vicuna README: 'Training: A 2080Ti is sufficient. Since the data length is within 256, it takes "
          "about 9G of video memory.'; notes.md: '我们的配置是：lora+8bit+256（长度）（256的时候mirco batch size是4）'")
add(VICUNA, "llama-7b-int8-lora-r8-qv-ampfp16-b1-s2049-rtx4090", 20, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(CV_INT8, model="LLaMA-7B", micro_batch=1, grad_accum=128, seq_len=2049),
    unknown=(*CV_UNKNOWN, *CV_INT8_UNKNOWN,
             "the micro batch is not in the table: notes.md's 'mirco batch size设置为1，24G的3090Ti可以训练2048长度的' "
             "(batch 1 at 2,048) written"),
    notes="Chinese-Vicuna docs/notes.md table: '| LLaMA-7B | 4090 | 0.3h/w | 20G | ... | 3.5h/w | 20G |' (the last "
          "pair is lora+int8+2048); '序列长度如果是2048，则显存占用会骤增到20G，就要上3090或者4090才能微调7B了'")
add(VICUNA, "llama-13b-int8-lora-r8-qv-ampfp16-b1-s2049-rtx3090", 24, "GiB", "nvidia-smi", "RTX-3090-24GB",
    dict(CV_INT8, model="LLaMA-13B", micro_batch=1, grad_accum=128, seq_len=2049),
    unknown=(*CV_UNKNOWN, *CV_INT8_UNKNOWN,
             "24G is the whole card: the allocator may hold all it can; the run completed ('7.5h/w')",
             "micro batch 1 from '2048的时候microbatch降到1也是可以跑的'"),
    notes="Chinese-Vicuna docs/notes.md table: '| LLaMA-13B | 3090 | | | 0.9h/w | | | | 7.5h/w | 24G |' "
          "(lora+int8+2048); '13B在3090/4090上是可以微调的，2048的时候microbatch降到1也是可以跑的'")
add(VICUNA, "llama-7b-fp16-lora-r8-qv-ampfp16-b2-s513-rtx4090", 20, "GiB", "nvidia-smi", "RTX-4090-24GB",
    dict(CV_BASE, model="LLaMA-7B", precision="amp-fp16", weights_bits=16, micro_batch=2, grad_accum=64, seq_len=513,
         grad_ckpt=False),
    unknown=(*CV_UNKNOWN,
             "finetune_fp16.py: from_pretrained(torch_dtype=torch.float16).half(), no gradient checkpointing, "
             "Trainer fp16=True over the fp16 base (weights_bits 16, amp-fp16 written); the table's cutoff 512 "
             "set in place of the script's 256",
             "the micro batch is not in the table: finetune_fp16.py's MICRO_BATCH_SIZE = 2 written"),
    notes="Chinese-Vicuna docs/notes.md table: '| LLaMA-7B | 4090 | 0.3h/w | 20G |' under 'lora+fp16+512'")


def main():
    write_split("heldout20", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
