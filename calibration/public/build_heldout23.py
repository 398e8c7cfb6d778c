"""The twenty-third held-out set (calibration/public/heldout23.json): 17 public rows (14 measured peaks, 3 out-of-memory
verdicts) from four pages no earlier split read, chosen for regimes the data has few of: long-context generation of
Mistral-7B with FlashAttention-2 at 11K-token prompts and padded batches (transformers PR #26464, torch's max allocated
bytes), BERT with a causal LM head trained in fp32 (est49; written fp16 when scored blind) under eager and SDPA
attention on an A100 80GB (transformers PR #28802, fxmarty's training benchmark), FLAN-T5-XL / XXL full
fine-tunes under DeepSpeed ZeRO-3 in fp32 on V100s that
ran out of memory with and without CPU offload (Philipp Schmid's FLAN-T5 DeepSpeed notebook, an encoder-decoder in
ZeRO-3), and MiniCPM-2B full and LoRA fine-tunes under ZeRO-3 with parameter and optimizer offload (OpenBMB/MiniCPM's
finetune README); every row sourced, the source's printed figure kept, and what the source leaves open recorded as
unknown. No publisher is new (transformers' SDPA pull requests: held-out-4/5/7; philschmid: held-out-12; OpenBMB's
ToolBench: held-out-17); every page is.

Run: python calibration/public/build_heldout23.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names and
their comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model
and GPU names, and how earlier splits encoded the same benchmark script). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

1. huggingface/transformers PR #26464 ("[Mistral] Add Flash Attention-2 support for mistral", younesbelkada,
   comment of 2023-10-02): "Sharing some results here vs mistral official implementation that uses
   xformers.memory_efficient_attention" with, for "HF transformers + FA-2", "Context length = 12 / max_new_tokens=512
   / bs=1 ... Max allocated memory: 15218032640", "Context length = 11K / max_new_tokens=512 / bs=1 ... 18673463808",
   "Context length = 11K / max_new_tokens=512 / bs=2 with 11K padding tokens on the second batch ... 22320273408" and
   "... bs=4 with 11K padding tokens on the second, third and fourth batch ... 29610738688"; the PR description loads
   "mistralai/Mistral-7B-v0.1" with use_flash_attention_2=True, torch_dtype=torch.float16, .to(0) and calls
   model.generate(..., use_cache=True). The "Mistral + mem efficient" figures (Mistral's own code) are left out.
2. huggingface/transformers PR #28802 ("[BERT] Add support for sdpa", hackyon, description of 2024-01-31):
   "Benchmarking Results on A100-80GB, CPUx12, RAM 96.6GB, OS Ubuntu 22.04, using BertLMHeadModel", "Training benchmark
   based on fxmarty's script": num_training_steps 1000, (batch, seq_len) = (1, 256), (1, 512), (2, 256), (2, 512) with
   "Eager peak mem (MB)" 1128.190 / 1345.791 / 1175.685 / 2123.874 and "sdpa peak mem (MB)" 1065.286 / 1093.933 /
   1093.933 / 1370.097. Held-out-4 left the BERT model page out ("its head is not stated"); the PR states the head,
   and its table (batch 1 and 2) is not the page's (batch 4 to 16). Only the rows this transcription could read in
   full are taken (the description's table continues with batch 4; those rows were not readable here).
3. philschmid/deep-learning-pytorch-huggingface ``training/deepseed-flan-t5-summarization.ipynb`` at 395ca34
   (2023-03-14), "Results" table: "| FLAN-T5-XL (3B) | No | 4x V100 16GB | OOM | fp32 |", "| FLAN-T5-XXL (11B) | Yes | 4x
   V100 16GB | OOM | fp32 |", "| FLAN-T5-XXL (11B) | Yes | 8x V100 16GB | OOM | fp32 |" (columns: Model, DS offload,
   Hardware, batch size per GPU, precision); ``scripts/run_seq2seq_deepspeed.py`` (Seq2SeqTrainer, gradient
   checkpointing on by default, fp16 off, bf16 off on V100, predict_with_generate), ``configs/ds_flan_t5_z3_config.json``
   and ``ds_flan_t5_z3_offload.json`` (ZeRO-3, DeepSpeed AdamW, stage3_max_live_parameters 1e9, with or without CPU
   offload of optimizer and parameters); inputs padded to the tokenizer's 512, labels to the notebook's printed "Max
   target length: 129".
4. OpenBMB/MiniCPM ``finetune/README.md`` at a250c20 (2024-02-01, "Add README and update finetune scripts"): "本仓库中的
   默认配置文件中，我们记录了显存的占用情况：SFT 全量微调: 4张显卡平均分配，每张显卡占用 30245MiB 显存。LORA 微调: 1张显卡，占用
   10619MiB 显存。"; the default scripts at that commit, ``sft_finetune.sh`` (deepspeed on 4 GPUs, batch 1, accumulation
   8, --bf16, configs/ds_config_zero3_offload.json) and ``lora_finetune.sh`` (1 GPU, batch 1, --fp16 --use_lora, the
   same ZeRO-3 offload config), ``finetune.py`` (model_max_length 512, every sample padded to it, LoRA r 8 on q_proj and
   v_proj, dropout 0.1) and ``configs/ds_config_zero3_offload.json``.

Left out on purpose (decided before scoring, by what is known): the MiniCPM README's later "qlora 微调+cpu+offload: 1张显卡，
占用 5500MiB 显存" (96af309: no script or batch for it is given, and the default LoRA script at that commit, batch 32 at
384 tokens, cannot be it), the FLAN-T5 table's rows that ran (the table prints the largest batch that fitted, not a
peak), PEFT's LoRA-FA README sentence on LoRA running out of memory on "an 80GB accelerator" (precision and GPU not
stated), torchtitan's benchmark tables (selective activation checkpointing and Float8 training, as held-out-3, -9 and
-11 decided), the MiniCPM-V and Qwen-VL tables (vision-language models the catalog does not hold)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-23"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
MISTRAL = "transformers-mistral-fa2-pr-26464"
BERT = "transformers-bert-sdpa-pr-28802"
FLANT5 = "philschmid-flan-t5-deepspeed-notebook"
MINICPM = "minicpm-finetune-readme"
PS = f"{GH}/philschmid/deep-learning-pytorch-huggingface/blob/395ca34fde276fb26f54e0aece086155566caf6d/training"
MC = f"{GH}/OpenBMB/MiniCPM/blob/a250c200ed41f485611a23ed74d35209075b55a5/finetune"

SOURCES = {
    MISTRAL: {
        "url": f"{GH}/huggingface/transformers/pull/26464",
        "also": [],
        "setup": "Mistral-7B-v0.1 loaded in float16 with FlashAttention-2 (use_flash_attention_2=True) on one GPU, "
                 "model.generate with the KV cache, 512 new tokens after a prompt of 12 or about 11K tokens, batch "
                 "1, 2 or 4 (the extra sequences all padding); 'Max allocated memory' in bytes",
        "versions": {"torch": "2.0.1 (September 2023; not stated)",
                     "transformers": "4.34.0.dev0 (the PR's branch, merged 2023-10; not stated)",
                     "flash_attn": "2.x (sliding-window support was being added; not stated)"},
        "date": "2023-10-02 (benchmark comment on the PR)",
        "project": "huggingface/transformers (Hugging Face)",
    },
    BERT: {
        "url": f"{GH}/huggingface/transformers/pull/28802",
        "also": [],
        "setup": "BertLMHeadModel (bert-base shapes) on one A100-80GB, fxmarty's SDPA training benchmark (gist "
                 "7e75cc39: from_pretrained(..., torch_dtype=torch.float16 if args.use_half else None, "
                 "attn_implementation=...), fp32 unless --use-half is passed (est49), model.train(), random "
                 "input_ids of (batch, seq_len), warm-up, then "
                 "reset_peak_memory_stats and N steps of zero_grad / outputs = model(**inputs) / "
                 "outputs.logits.sum().backward(); no optimizer step, no cross-entropy), eager and sdpa attention; "
                 "'peak mem (MB)' = torch.cuda.max_memory_allocated() * 1e-6",
        "versions": {"torch": "2.2.0 (the BERT page's later benchmark names PyTorch 2.2.0; the PR does not)",
                     "transformers": "4.38.0.dev0 (the PR's branch, January 2024; not stated)"},
        "date": "2024-01-31 (PR description)",
        "project": "huggingface/transformers (contributor hackyon)",
    },
    FLANT5: {
        "url": f"{PS}/deepseed-flan-t5-summarization.ipynb",
        "also": [f"{PS}/scripts/run_seq2seq_deepspeed.py", f"{PS}/configs/ds_flan_t5_z3_config.json",
                 f"{PS}/configs/ds_flan_t5_z3_offload.json"],
        "setup": "google/flan-t5-xl and flan-t5-xxl full fine-tunes on CNN/DailyMail with the Seq2SeqTrainer under "
                 "DeepSpeed ZeRO-3 (DeepSpeed AdamW, max live parameters 1e9) in fp32 on AWS p3 instances (V100 "
                 "SXM2 16GB), with or without CPU offload of optimizer and parameters, gradient checkpointing, inputs "
                 "padded to 512 and labels to 129 tokens; the table prints 'OOM' as the batch size per GPU",
        "versions": {"torch": "1.13.1 (March 2023; not stated)", "transformers": "4.26.1 (not stated)",
                     "deepspeed": "0.8.x (not stated)"},
        "date": "2023-03-14 (notebook at 395ca34)",
        "project": "philschmid/deep-learning-pytorch-huggingface (Philipp Schmid, Hugging Face)",
    },
    MINICPM: {
        "url": f"{MC}/README.md",
        "also": [f"{MC}/sft_finetune.sh", f"{MC}/lora_finetune.sh", f"{MC}/finetune.py",
                 f"{MC}/configs/ds_config_zero3_offload.json", f"{MC}/requirements.txt"],
        "setup": "MiniCPM-2B fine-tuned with the repository's finetune.py (HF Trainer under DeepSpeed ZeRO-3 with "
                 "optimizer and parameter offload to the CPU): full SFT in bf16 on 4 GPUs and LoRA (r 8, q_proj and "
                 "v_proj) in fp16 on 1 GPU, batch 1, every sample padded to 512 tokens; '显存' per GPU in MiB",
        "versions": {"torch": "2.1.2 (February 2024; not stated)", "transformers": "4.37.2 (not pinned)",
                     "deepspeed": "0.13.1 (requirements.txt: deepspeed>=0.13.1)", "peft": ">=0.7.1"},
        "date": "2024-02-01 (README at a250c20)",
        "project": "OpenBMB/MiniCPM (OpenBMB / ModelBest)",
    },
}

# ------------------------------------------------------------------ 1. Mistral-7B generation with FlashAttention-2
MISTRAL_BASE = dict(mode="generate", model="Mistral-7B-v0.1", precision="fp16", attention="flash", max_new_tokens=512,
                    num_beams=1, world_size=1, torch_version="2.0.1", transformers_version="4.34.0")
MISTRAL_UNKNOWN = (
    "GPU not stated (Hugging Face's A100 80GB written; max_memory_allocated does not depend on it)",
    "'Max allocated memory' read as torch.cuda.max_memory_allocated in bytes, over the whole generate call",
    "'Context length = 11K' written as 11,000 prompt tokens (the exact count is not printed)",
    "the benchmark script is not in the thread; the description's snippet (float16, FA-2, .to(0), "
    "generate(use_cache=True)) written; sampling or greedy not stated (one sequence per prompt either way)",
    "Mistral-7B-v0.1's sliding window is 4,096 tokens: whether the branch's KV cache was cut to the window at "
    "11K tokens when this was measured is not stated (the cache is written unbounded: prompt plus new tokens)",
    "torch and transformers versions not stated (2.0.1 and the PR's 4.34 branch written)",
)
MISTRAL_ROWS = (  # (context, batch, bytes, the source's heading)
    (12, 1, 15218032640, "Context length = 12 / max_new_tokens=512 / bs=1"),
    (11000, 1, 18673463808, "Context length = 11K / max_new_tokens=512 / bs=1"),
    (11000, 2, 22320273408, "Context length = 11K / max_new_tokens=512 / bs=2 with 11K padding tokens on the "
                            "second batch"),
    (11000, 4, 29610738688, "Context length = 11K / max_new_tokens=512 / bs=4 with 11K padding tokens on the "
                            "second, third and fourth batch"),
)
for _ctx, _bs, _bytes, _heading in MISTRAL_ROWS:
    _extra = ()
    if _bs > 1:
        _extra = (f"the other {_bs - 1} sequence(s) of the batch are all padding, {_ctx} tokens like the first "
                  "(FlashAttention-2 unpads them; the KV cache holds every position)",)
    add(MISTRAL, f"mistral-7b-v0.1-fa2-fp16-generate-ctx{_ctx}-new512-b{_bs}", _bytes / 1e9, "GB",
        "max_memory_allocated", "A100-SXM-80GB", dict(MISTRAL_BASE, seq_len=_ctx, micro_batch=_bs),
        unknown=(*MISTRAL_UNKNOWN, *_extra),
        notes=f"transformers PR #26464, younesbelkada 2023-10-02, 'HF transformers + FA-2': '{_heading}' ... "
              f"'Max allocated memory: {_bytes}'")

# ------------------------------------------------------------------ 2. BERT LM head, fxmarty's SDPA training benchmark
# the same script encoded as held-out-4 encodes it (no optimizer step, the loss is the fp16 logits' sum, the output
# object kept at loop level across steps)
BERT_BASE = dict(model="BERT-base-uncased", mode="train", precision="fp32",
                 optimizer="sgd", loss="logits", keeps_outputs=True,
                 grad_ckpt=False, world_size=1, torch_version="2.2.0", transformers_version="4.38")
BERT_UNKNOWN = (
    "the checkpoint is not named ('using BertLMHeadModel'): the catalog's BERT-base-uncased written (hidden 768, "
    "12 layers, vocabulary 30,522); BertLMHeadModel carries the same head as BertForMaskedLM (BertOnlyMLMHead: "
    "dense + GELU + LayerNorm transform, decoder tied to the word embeddings) and runs as a decoder (causal mask)",
    "fxmarty's training script: no optimizer step (written sgd, which keeps no state), the loss is "
    "outputs.logits.sum() (loss 'logits', as held-out-4's rows now write it), the output object kept at loop "
    "level (keeps_outputs)",
    "est49 (after the first scoring, in-sample): fp32 weights, not fp16. The PR names the script (gist "
    "fxmarty/7e75cc39) and no flag; the script declares parser.add_argument('--use-half', action='store_true') "
    "and loads from_pretrained(args.model_name, torch_dtype=torch.float16 if args.use_half else None) (its "
    "ancestor huggingface/optimum tests/benchmark/benchmark_bettertransformer_training_minimal.py at da4ec73, "
    "lines 33-36 and 93-95; ALBERT PR #32092's adaptation the same): fp32 unless --use-half is passed, and the "
    "PR's description names neither --use-half nor a dtype (its training CSV has no is_half column). The blind "
    "transcription's fp16 came from held-out-4's PRs, each of which states float16; the row ids keep the blind "
    "'fp16'",
    "'A100-80GB' without SXM or PCIe: SXM written; torch not stated in the PR (2.2.0 from the docs' later run)",
    "'peak mem (MB)' = torch.cuda.max_memory_allocated() * 1e-6 (MB of 10^6 bytes)",
)
BERT_TABLE = {  # (batch, seq_len) -> (eager MB, sdpa MB), PR #28802's description
    (1, 256): (1128.190, 1065.286),
    (1, 512): (1345.791, 1093.933),
    (2, 256): (1175.685, 1093.933),
    (2, 512): (2123.874, 1370.097),
}
for (_bs, _seq), (_eager, _sdpa) in BERT_TABLE.items():
    for _attn, _mb in (("eager", _eager), ("sdpa", _sdpa)):
        add(BERT, f"bert-base-lmhead-{_attn}-fp16-b{_bs}-s{_seq}-a100-80gb", _mb, "MB", "max_memory_allocated",
            "A100-SXM-80GB", dict(BERT_BASE, micro_batch=_bs, seq_len=_seq, attention=_attn,
                                  padding="max_length"),
            unknown=BERT_UNKNOWN,
            notes=f"transformers PR #28802 description: '|1000 |{_bs} |{_seq} |...| {_eager:.3f} | {_sdpa:.3f} |' "
                  f"(Eager / sdpa peak mem (MB)); this row: {_attn} {_mb:.3f} MB")

# ------------------------------------------------------------------ 3. FLAN-T5 under ZeRO-3, out of memory on V100s
T5_BASE = dict(mode="train", precision="fp32", optimizer="adamw", micro_batch=1, seq_len=512, target_len=129,
               padding="max_length", grad_ckpt=True, use_cache=False, attention="eager", zero_stage=3,
               max_live_parameters=1_000_000_000, max_reuse_distance=1_000_000_000, overlap_comm=True,
               contiguous_gradients=True, zero_client_optimizer=False, load_placement="gpu",
               torch_version="1.13.1", transformers_version="4.26.1", deepspeed_version="0.8.2")
T5_UNKNOWN = (
    "'OOM' in the 'batch size per GPU' column read as: no batch fits, batch 1 written",
    "fp32 weights and states (V100: the bf16 configs are not used; fp16 is off in the script because 'T5 overflows "
    "with fp16')",
    "DeepSpeed's own AdamW from the config's optimizer block; reduce/prefetch buckets 'auto' (d_model^2 and 0.9 x "
    "d_model^2) not written",
    "the script loads the model before building the training arguments (no zero.Init): the whole fp32 model is "
    "materialised before ZeRO-3 partitions it (load_placement 'gpu' written)",
    "inputs padded to the tokenizer's model_max_length 512 (preprocess_function padding='max_length'), labels to the "
    "notebook's printed 'Max target length: 129'; the collator pads to a multiple of 8 (already met)",
    "versions not stated (March 2023: torch 1.13.1, transformers 4.26.1, deepspeed 0.8.2 written); p3 instances carry "
    "V100 SXM2 16GB",
    "evaluation with predict_with_generate runs at the end of each epoch: the out-of-memory is taken as the training "
    "step's",
)
T5_OFFLOAD = dict(offload_optimizer="cpu", offload_params="cpu")
add_oom(FLANT5, "flan-t5-xl-full-zero3-fp32-b1-s512-4xv100-16gb", "nvidia-smi", "V100-SXM2-16GB",
        dict(T5_BASE, model="Flan-T5-XL", world_size=4), unknown=T5_UNKNOWN,
        notes="deepseed-flan-t5-summarization.ipynb 'Results': '| FLAN-T5-XL (3B) | No | 4x V100 16GB | OOM | fp32 "
              "| - | - |' (ds_flan_t5_z3_config.json)")
add_oom(FLANT5, "flan-t5-xxl-full-zero3-offload-fp32-b1-s512-4xv100-16gb", "nvidia-smi", "V100-SXM2-16GB",
        dict(T5_BASE, **T5_OFFLOAD, model="Flan-T5-XXL", world_size=4), unknown=T5_UNKNOWN,
        notes="deepseed-flan-t5-summarization.ipynb 'Results': '| FLAN-T5-XXL (11B) | Yes | 4x V100 16GB | OOM | "
              "fp32 | - | - |' (ds_flan_t5_z3_offload.json)")
add_oom(FLANT5, "flan-t5-xxl-full-zero3-offload-fp32-b1-s512-8xv100-16gb", "nvidia-smi", "V100-SXM2-16GB",
        dict(T5_BASE, **T5_OFFLOAD, model="Flan-T5-XXL", world_size=8), unknown=T5_UNKNOWN,
        notes="deepseed-flan-t5-summarization.ipynb 'Results': '| FLAN-T5-XXL (11B) | Yes | 8x V100 16GB | OOM | "
              "fp32 | - | - |' (ds_flan_t5_z3_offload.json)")

# ------------------------------------------------------------------ 4. MiniCPM-2B under ZeRO-3 with offload
# MiniCPM-2B's remote code is a Llama layout with muP scaling and tied embeddings; the same shape held-out-20 writes
MINICPM_2B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2304,
              "intermediate_size": 5760, "num_hidden_layers": 40, "num_attention_heads": 36,
              "num_key_value_heads": 36, "vocab_size": 122753, "max_position_embeddings": 4096,
              "rope_theta": 10000.0, "rms_norm_eps": 1e-05, "tie_word_embeddings": True,
              # est50: the repository's config names its remote modeling code
              "auto_map": {"AutoModelForCausalLM": "modeling_minicpm.MiniCPMForCausalLM"}}
MC_BASE = dict(hf_config=MINICPM_2B, model_name="MiniCPM-2B", mode="train", optimizer="adamw", micro_batch=1,
               seq_len=512, padding="max_length", grad_ckpt=False, attention="sdpa", zero_stage=3,
               offload_optimizer="cpu", offload_params="cpu", allgather_bucket_size=500_000_000,
               reduce_bucket_size=2304 * 2304, prefetch_bucket_size=int(0.9 * 2304 * 2304), overlap_comm=True,
               contiguous_gradients=True, torch_version="2.1.2", transformers_version="4.37.2",
               deepspeed_version="0.13.1")
MC_UNKNOWN = (
    "GPU not stated (30,245 MiB per GPU needs a 32 GB or larger card): A100 80GB written",
    "'显存' read as the driver's per-GPU figure (nvidia-smi)",
    "MiniCPM-2B's remote code (Llama layout with muP scaling, tied embeddings) written as a Llama-shaped config "
    "with its sizes (hidden 2,304, 40 layers, 36 heads, FFN 5,760, vocabulary 122,753), as held-out-20 does",
    "the README says the figures come from the repository's default configuration; the scripts of the same commit "
    "are written (both use configs/ds_config_zero3_offload.json); whether the figures were measured with these or "
    "with the scripts of the previous commit (ZeRO-2, 2 GPUs) is not stated",
    "model_max_length not passed by the scripts: the TrainingArguments default 512 written, every sample padded to "
    "it (finetune.py pads input_ids and labels to model_max_length)",
    "the HF Trainer's adamw_torch with no optimizer block in the DeepSpeed config: which optimizer DeepSpeed steps on "
    "the CPU partitions is not stated; reduce/prefetch buckets 'auto' written as hidden^2 and 0.9 x hidden^2; "
    "stage3_max_live_parameters and max_reuse_distance at DeepSpeed's defaults",
    "attention implementation not stated (flash_attn>=2.5.1 in requirements.txt, none requested): sdpa written",
    "versions not pinned (February 2024: torch 2.1.2, transformers 4.37.2, deepspeed 0.13.1 written)",
)
add(MINICPM, "minicpm-2b-full-sft-zero3-offload-bf16-b1-s512-4gpu", 30245, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(MC_BASE, precision="bf16", grad_accum=8, world_size=4),
    unknown=(*MC_UNKNOWN, "model loaded in bfloat16 with --bf16: DeepSpeed's bf16 mode, fp32 master partitions "
                          "and Adam states on the CPU"),
    notes="MiniCPM finetune/README.md at a250c20: 'SFT 全量微调: 4张显卡平均分配，每张显卡占用 `30245MiB` 显存。'; "
          "sft_finetune.sh: deepspeed --include localhost:1,2,4,5 finetune.py --per_device_train_batch_size 1 --bf16 "
          "--gradient_accumulation_steps 8 --deepspeed configs/ds_config_zero3_offload.json")
add(MINICPM, "minicpm-2b-lora-r8-qv-zero3-offload-fp16-b1-s512-1gpu", 10619, "MiB", "nvidia-smi", "A100-SXM-80GB",
    dict(MC_BASE, precision="fp16", grad_accum=1, world_size=1, lora_r=8, lora_targets=["q_proj", "v_proj"],
         lora_dropout=0.1),
    unknown=(*MC_UNKNOWN, "model loaded in float16 with --fp16: DeepSpeed's fp16 mode with a dynamic loss scale; "
                          "LoRA (init gaussian, alpha 32) on q_proj and v_proj, enable_input_require_grads commented "
                          "out at this commit (no checkpointing, so not needed)"),
    notes="MiniCPM finetune/README.md at a250c20: 'LORA 微调: 1张显卡，占用 `10619MiB` 显存。'; lora_finetune.sh: "
          "deepspeed --include localhost:0 finetune.py --per_device_train_batch_size 1 --fp16 --use_lora "
          "--gradient_accumulation_steps 1 --deepspeed configs/ds_config_zero3_offload.json")


def main():
    write_split("heldout23", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
