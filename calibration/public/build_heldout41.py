"""The forty-first held-out set (calibration/public/heldout41.json): 15 public measured peaks from three publishers that
no estimator source cites (by est36b's rule: tests/public_split_helpers.py ``estimator_sources_cited`` /
``author_cited``): two Stanford CS336 students answering assignment 2's memory-profiling problem with the course's own
``BasicsTransformerLM`` (Cgfyufsygsm/CS336-assignment2-systems: the 2.7B model, batch 4, a full training step with the
course AdamW at context 128 / 256 / 512 in fp32 and bf16 autocast, peak active memory replayed from memory snapshots,
GiB, on an H800 PCIe; Hyperion-shuo/assignment2-systems: the 'large' model (1280 / 5120 / 36 / 20), batch 1, a no-grad
forward pass and a full training step at context 128 / 256 / 512 in fp32, read off memory_viz timelines, on a 24 GB
A10) and Andrew Gu's (awgu) three peak-active figures of llama-recipes' FSDP LoRA fine-tune of Llama 2 7B in pure bf16
on four 40 GB A100 (meta-llama/llama-cookbook#41: FSDP's rate limiter off / on, and on with the logits no longer kept
alive). 12 TRAINING rows and 3 inference rows. Every row sourced, the source's printed figure kept, and what the source
leaves open recorded as unknown.

Run: python calibration/public/build_heldout41.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog names in
architectures/*.json and hardware/gpus.json, how held-out-36 writes the course model (its ``basics`` helper, imported)
and how earlier splits write FSDP LoRA rows (``fsdp="full"``)). Same row format as devset.json (see build_devset.py).
Every figure is the source's own.

Publishers (the est36b rule: the publisher of a file in a repository is its owner, of a pull request its author; a
split must be independent of the estimator's sources, every file under calibration/public and bench/public_*.py). None
of Cgfyufsygsm, Hyperion-shuo and awgu is a publisher or a word in those files, and no page below is cited by them
(tests/test_public_heldout41.py checks it with ``estimator_sources_cited(41)``). Said here so a reader can weigh it:
(1) two of the three publishers are, like held-out-33's to -36's, CS336 students measuring the course model (RMSNorm,
RoPE, SwiGLU, untied embeddings, hand-written softmax attention), so 12 of the 15 rows test one model family under new
shapes, GPUs and scripts; (2) the brief asked for at least four publishers; only three with pinnable setups were found
in the time given (docs/calibration.md, held-out-41, lists the leads dropped and why). The repository of
meta-llama/llama-cookbook (then facebookresearch/llama-recipes) is cited as configuration only, at the pull request's
parent commit 1e0f8a1 and at its own commit 71fdc49.

1. Cgfyufsygsm/CS336-assignment2-systems at 7732001: 'Assignment 2 writeup.md', memory_profiling (b) 'FP32 下 2.7B 的峰值内存'
   and (c) 'BF16 mixed precision 下峰值' (GiB, 'NVIDIA H800 PCIe', 'batch_size=4', 'warm-up=5', 'measure=10', 'context_length
   in {128, 256, 512}', peaks 'from ... memory snapshot (torch.cuda.memory._dump_snapshot), 单位统一为 GiB'), written by
   benchmark.py at b4dd1fd (BasicsTransformerLM '2.7b' 2560 / 10240 / 32 / 32, vocab 10,000, rope_theta 10,000, random
   ids and labels of the context length, model.train(); train-step: optimizer.zero_grad(set_to_none=True), forward and
   F.cross_entropy under the precision context, backward, the course AdamW step; 5 warm-up steps, then
   _record_memory_history over 10 measured steps) and scripts/summarize_memory_profiles.py (peak active bytes replayed
   from the snapshot's alloc / free_completed events, / 1024**3).
2. Hyperion-shuo/assignment2-systems at 3ec468a: write_up/write_up.md, 1.1.6 (b) ('A10 with 24 Gb ... only run up to large
   model, with context length 128, 256 and 512, batch size 1'; 'Forward Only (FW)' and 'Full Train (Train)' in GB), from
   cs336_systems/basic_lm_memory_profile.py at ee486a4 (BasicsTransformerLM 'large' 1280 / 5120 / 36 / 20, vocab 10,000,
   rope_theta 10,000, batch 1, get_batch ids of the context length; 'fw': forward and F.cross_entropy under
   torch.no_grad(); 'full_train': model.zero_grad(), forward, F.cross_entropy, backward, the course AdamW step; 5 warm-up
   steps, torch.cuda.empty_cache(), _record_memory_history, one recorded step (steps 6), _dump_snapshot; the figures
   read off the snapshots' memory_viz timelines).
3. awgu, meta-llama/llama-cookbook#41 ('Improve FSDP LoRA Memory Usage', 2023-07-25, the description): 'torchrun
   --nnodes 1 --nproc_per_node 4 llama_finetuning.py --enable_fsdp --use_peft --peft_method lora --model_name
   llama-2-7b-hf/ --pure_bf16 --output_dir output_dir', 'For my AWS setup with 4 40 GB A100 GPUs': 'With
   limit_all_gathers=False: Peak active: 25.86 GB', 'With limit_all_gathers=True: Peak active: 20.20 GB', and with the
   logits no longer kept alive ('loss = model(*batch).loss') 'only uses 15.22 GB peak active memory'. The recipe at the
   pull request's parent 1e0f8a1: configs/training.py (batch_size_training 4 = micro_batch_size 4, samsum_dataset),
   configs/fsdp.py (FULL_SHARD, fsdp_activation_checkpointing True, pure_bf16 True: model.to(torch.bfloat16), FSDP
   mixed_precision None), configs/peft.py (LoRA r 8, alpha 32, q_proj / v_proj, dropout 0.05), llama_finetuning.py
   (torch.optim.AdamW, weight_decay 0; FSDP(auto_wrap_policy=fsdp_auto_wrap_policy, limit_all_gathers=False)),
   ft_datasets/samsum_dataset.py and utils.py (Concatenator, chunks of exactly 2048 tokens), requirements.txt
   (torch==2.0.1+cu118, transformers>=4.31.0); the pull request's commit 71fdc49 sets limit_all_gathers=True and
   writes loss = model(**batch).loss.

Left out on purpose (decided before scoring, by what is known): Cgfyufsygsm's 'forward' rows (benchmark.py's forward
mode calls model(input_ids) with autograd on, no loss, no backward: neither an inference pass nor a training step, as
held-out-35 left EnzoDing's out); Hyperion-shuo's mixed-precision breakdown table ('~14.8 GiB' / '~15.1 GiB', an
estimate built from parameter counts, not a reading); awgu's reserved figures (the same runs, one reading per row
kept: peak active, the figure the description leads with); and the leads in docs/calibration.md's held-out-41 section."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_heldout36 import AUTOCAST, BASICS_UNKNOWN, basics
from heldout_rows import RowBook, write_split

SPLIT = "held-out-41"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
CG = f"{GH}/Cgfyufsygsm/CS336-assignment2-systems/blob"
CG_WRITEUP = f"{CG}/7732001fc030618c60d6dece93c0172c2c74d8a1/Assignment%202%20writeup.md"
CG_CODE = f"{CG}/b4dd1fd0c4bb88d8454c7814cc6fc3efc8f2917a"
HY = f"{GH}/Hyperion-shuo/assignment2-systems/blob"
HY_WRITEUP = f"{HY}/3ec468a4b830b00aa9c3ad65583b526861d8ee52/write_up/write_up.md"
HY_CODE = f"{HY}/ee486a414f3fcef04139597c79113a5cefe8d5cc/cs336_systems/basic_lm_memory_profile.py"
LR = f"{GH}/meta-llama/llama-cookbook/blob"
LR_BASE = f"{LR}/1e0f8a1fb77b9ddccf649970f632dd606a22bd06"
LR_PR = f"{LR}/71fdc4920ad4a3a9f462072ee5fa4e3218fd6d6a"

CGKEY = "cs336-cgfyufsygsm-2p7b-h800"
HYKEY = "cs336-hyperion-shuo-large-a10"
AGKEY = "awgu-llama-cookbook41-llama2-7b-fsdp-lora"
#: who measured and published each source's figures (est36b's measurement_publisher: a repository's owner, a pull
#: request's author)
MEASURED_BY = {CGKEY: "Cgfyufsygsm", HYKEY: "Hyperion-shuo", AGKEY: "awgu"}

SOURCES = {
    CGKEY: {
        "url": CG_WRITEUP,
        "also": [f"{CG_CODE}/benchmark.py", f"{CG_CODE}/scripts/summarize_memory_profiles.py"],
        "setup": "CS336 assignment 2 memory_profiling: the course BasicsTransformerLM '2.7b' (2560 / 10240 / 32 / 32, "
                 "vocab 10,000), batch 4, a full training step (course AdamW) at context 128 / 256 / 512, fp32 and "
                 "bf16 autocast, peak active memory replayed from memory snapshots over 10 measured steps, GiB, "
                 "NVIDIA H800 PCIe",
        "versions": {"torch": "not stated", "cs336_basics": "the course's, in the repository"},
        "date": "2026 (the writeup at 7732001)",
        "project": "Cgfyufsygsm/CS336-assignment2-systems (a Stanford CS336 assignment 2 solution with a writeup)",
        "measured_by": MEASURED_BY[CGKEY],
    },
    HYKEY: {
        "url": HY_WRITEUP,
        "also": [HY_CODE],
        "setup": "CS336 assignment 2 1.1.6: the course BasicsTransformerLM 'large' (1280 / 5120 / 36 / 20, vocab "
                 "10,000), batch 1, a no-grad forward pass and a full training step (course AdamW) at context 128 / "
                 "256 / 512 in fp32, figures read off memory_viz timelines of one recorded step, GB, NVIDIA A10 24 GB",
        "versions": {"torch": "not stated", "cs336_basics": "the course's, in the repository"},
        "date": "2026 (the writeup at 3ec468a)",
        "project": "Hyperion-shuo/assignment2-systems (a Stanford CS336 assignment 2 solution with a writeup)",
        "measured_by": MEASURED_BY[HYKEY],
    },
    AGKEY: {
        "url": f"{GH}/meta-llama/llama-cookbook/pull/41",
        "also": [f"{LR_BASE}/llama_finetuning.py", f"{LR_BASE}/configs/training.py", f"{LR_BASE}/configs/fsdp.py",
                 f"{LR_BASE}/configs/peft.py", f"{LR_BASE}/ft_datasets/samsum_dataset.py",
                 f"{LR_BASE}/ft_datasets/utils.py", f"{LR_BASE}/utils/fsdp_utils.py", f"{LR_BASE}/requirements.txt",
                 f"{LR_PR}/llama_finetuning.py", f"{LR_PR}/utils/train_utils.py"],
        "setup": "llama-recipes' llama_finetuning.py --enable_fsdp --use_peft --peft_method lora --pure_bf16 on "
                 "Llama 2 7B, 4 x A100 40 GB (AWS), batch 4 of 2048 concatenated samsum tokens per GPU, FSDP full "
                 "shard with activation checkpointing, LoRA r 8 on q_proj / v_proj, torch AdamW on bf16 weights; "
                 "peak active memory with limit_all_gathers False / True, and True with the logits no longer kept "
                 "alive",
        "versions": {"torch": "2.0.1+cu118 (requirements.txt)", "transformers": ">=4.31.0 (requirements.txt)",
                     "peft": "git main of 2023-07"},
        "date": "2023-07-25 (the pull request's description)",
        "project": "meta-llama/llama-cookbook, then facebookresearch/llama-recipes (a pull request: the measurements "
                   "are its author's)",
        "measured_by": MEASURED_BY[AGKEY],
    },
}

# ------------------------------------------------------------------ 1. Cgfyufsygsm (2.7B, H800 PCIe)
CG_SHAPE = (2560, 10240, 32, 32)
#: est96 (ROW INPUT correction, cited; written after every figure of this split was read): the course AdamW this
#: job steps is the staff ``cs336-basics/cs336_basics/optimizer.py`` that the assignment-2 repository ships (read at
#: the commit the row cites; both staff versions, md5 51ed572f / dc9259d0, compute ``m_t = beta_1 * prev_m_t +
#: ((1 - beta_1) * grad)``, ``v_t = beta_2 * prev_v_t + ((1 - beta_2) * torch.square(grad))`` and ``p.data -=
#: alpha_t * m_t / (torch.sqrt(v_t) + eps)`` out of place, storing m_t / v_t only after the update): five tensors
#: the size of the parameter are alive at once (m_t, v_t, alpha_t * m_t, sqrt(v_t), sqrt(v_t) + eps) beside the
#: kept states, against torch's for-loop AdamW's two (``EstimateInput.optimizer_loop_temps``)
STAFF_ADAMW = {"optimizer_loop_temps": 5}
STAFF_ADAMW_NOTE = ("est96: the staff cs336_basics AdamW holds 5 parameter-sized temporaries at its step's peak "
                    "(m_t, v_t, alpha_t * m_t, sqrt(v_t), sqrt(v_t) + eps; out of place, states stored after the "
                    "update): optimizer_loop_temps 5")


CG_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the GPU: 'NVIDIA H800 PCIe' (80 GB): H800-80GB written",
    "torch: not stated; none written",
    "benchmark.py (b4dd1fd) train-step: model.train(), optimizer.zero_grad(set_to_none=True), forward and "
    "F.cross_entropy(logits.view(-1, V), labels.view(-1)) under the precision context, loss.backward(), the course "
    "AdamW step (cs336_basics.optimizer, a per-parameter loop): 'adamw' with foreach False; random ids of the "
    "context length fed whole",
    "the reading: 5 warm-up steps, then _record_memory_history over 10 measured steps and _dump_snapshot; "
    "scripts/summarize_memory_profiles.py replays the snapshot's alloc / free_completed events from the active bytes "
    "at the end and prints the peak / 1024**3 ('Peak Active (GiB)'): torch's active memory, peak_memory_active "
    "written",
)
CG_PEAKS = {("fp32", 128): 51.44, ("fp32", 256): 51.44, ("fp32", 512): 65.52,
            ("bf16", 128): 51.44, ("bf16", 256): 52.09, ("bf16", 512): 62.69}
for (cg_prec, cg_ctx), cg_value in CG_PEAKS.items():
    add(CGKEY, f"2p7b-{cg_prec}-b4-s{cg_ctx}-train-step", cg_value, "GiB", "peak_memory_active", "H800-80GB",
        basics(CG_SHAPE, 10000, "cs336-basics-2p7b", cg_ctx, cg_ctx, 4,
               precision="fp32" if cg_prec == "fp32" else "amp-bf16", foreach=False, **STAFF_ADAMW),  # 7732001
        unknown=(*CG_UNKNOWN, AUTOCAST if cg_prec == "bf16" else "fp32: nullcontext(), no autocast", STAFF_ADAMW_NOTE),
        notes=f"Cgfyufsygsm/CS336-assignment2-systems 'Assignment 2 writeup.md' at 7732001, memory_profiling "
              f"({'b' if cg_prec == 'fp32' else 'c'}): Context Length {cg_ctx}, 'Train-step Peak (GiB)' {cg_value:.2f}")

# ------------------------------------------------------------------ 2. Hyperion-shuo ('large', A10 24 GB)
HY_SHAPE = (1280, 5120, 36, 20)
HY_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the GPU: 'A10 with 24 Gb': A10-24GB written",
    "torch: not stated; none written",
    "the reading: basic_lm_memory_profile.py (ee486a4) runs 5 warm-up steps, torch.cuda.empty_cache(), then "
    "_record_memory_history over one recorded step (--steps 6) and _dump_snapshot; the writeup's table gives the "
    "figures in 'GB' read off the snapshots' memory_viz timelines (which plot active memory in binary units): "
    "peak_memory_active written, 'GB' read as GiB",
    "batch 1 ('batch size 1'; the script's default) and the context lengths 128 / 256 / 512 from the writeup; "
    "get_batch draws ids of the context length: seq_len written so",
)
HY_FWD = ("'fw': model(x) and F.cross_entropy on the logits under torch.no_grad(), no optimizer built (mode 'infer'); "
          "the module's default (training) mode; the course model has no dropout")
HY_TRAIN = ("'full_train': model.zero_grad() (torch's default, set_to_none), forward, "
            "F.cross_entropy(logits.view(-1, V), y.view(-1)), loss.backward(), the course AdamW step "
            "(cs336_basics.optimizer, a per-parameter loop): 'adamw' with foreach False")
HY_PEAKS = {128: (4.7, 14.6), 256: (6.5, 14.6), 512: (11.2, 14.9)}
#: est86 (after scoring, in-sample; calibration/est86_cs336_forward.py, calibration/data/est86_cs336_forward.json)
HY_FW_NOT_NOGRAD = (
    "est86 (after scoring, in-sample): the 'Forward Only (FW)' figures are not of the no-grad stage. The repository "
    "at 3ec468a holds the script's own memory snapshots (results/torch_memory_profiles/memory_snapshot_large_cl"
    "{128,256,512}_{fw,fw_with_grad}.pickle): replayed, stage 'fw' (torch.no_grad()) peaks at 3.74 / 3.76 / 3.84 GiB "
    "active, flat at the weights (the writeup's own words for its no-grad plot: 'constant memory for model "
    "paramters only'), while stage 'fw_with_grad' (model.zero_grad(), forward and loss with autograd on, no "
    "backward; each step's graph kept by logits / loss until the next step rebinds them, so two graphs exist at the "
    "end of a forward) peaks at 5.25 / 7.12 / 11.93 GiB, growing with the context as the table does; the fake-tensor "
    "replay of the course model under MemTracker gives the same (no-grad 3.63 / 3.65 / 3.72 GiB; autograd on, the "
    "loop's two graphs, 5.13 / 7.01 GiB at context 128 / 256). "
    "The table's 4.7 / 6.5 / 11.2 lie 6-10% under those peaks: memory_viz y-axis tick labels (5e9, 7e9, 12e9 bytes "
    "printed in GiB) below the peaks, a by-eye reading. The stated setup (no-grad forward) cannot have produced the "
    "figures, and the stage that did (a forward that keeps its graph, no backward) is no estimator mode (train, "
    "infer, generate): not scored"
)
for hy_ctx, (hy_fwd, hy_train) in HY_PEAKS.items():
    hy_note = (f"Hyperion-shuo/assignment2-systems write_up/write_up.md at 3ec468a, 1.1.6 (b): Context Length "
               f"{hy_ctx}, 'Forward Only (FW)' {hy_fwd} GB, 'Full Train (Train)' {hy_train} GB")
    add(HYKEY, f"large-fp32-b1-s{hy_ctx}-forward-nograd", hy_fwd, "GiB", "peak_memory_active", "A10-24GB",
        basics(HY_SHAPE, 10000, "cs336-basics-large", hy_ctx, hy_ctx, 1, mode="infer", precision="fp32"),
        unknown=(*HY_UNKNOWN, HY_FWD, "fp32: nullcontext(), no autocast"), notes=hy_note,
        not_scored=HY_FW_NOT_NOGRAD)
    add(HYKEY, f"large-fp32-b1-s{hy_ctx}-train", hy_train, "GiB", "peak_memory_active", "A10-24GB",
        basics(HY_SHAPE, 10000, "cs336-basics-large", hy_ctx, hy_ctx, 1, precision="fp32", foreach=False,
               **STAFF_ADAMW),   # est96: Hyperion-shuo 3ec468a
        unknown=(*HY_UNKNOWN, HY_TRAIN, "fp32: nullcontext(), no autocast", STAFF_ADAMW_NOTE), notes=hy_note)

# ------------------------------------------------------------------ 3. awgu (llama-recipes FSDP LoRA, 4 x A100 40 GB)
AG_SETUP = dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", lora_r=8,
                lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, micro_batch=4, grad_accum=1, seq_len=2048,
                padding="max_length", grad_ckpt=True, attention="eager", loss="standard", fsdp="full", world_size=4,
                fsdp_version=1, fsdp_frozen_grads=False, load_placement="host", torch_version="2.0.1")
AG_UNKNOWN = (
    "the GPU: 'my AWS setup with 4 40 GB A100 GPUs' (p4d: A100 SXM4 40 GB): A100-SXM-40GB written",
    "the reading: 'Peak active' in GB, the tool not named (llama-recipes' MemoryTrace of the day printed whole GiB, "
    "so the two decimals are the author's own reading of torch's active_bytes peak); which rank not stated; "
    "peak_memory_active written, the unit as printed ('GB', 1e9 bytes)",
    "precision: --pure_bf16: model.to(torch.bfloat16) before FSDP, FSDP mixed_precision None: bf16 weights, "
    "gradients and torch AdamW state (weight_decay 0.0): 'bf16' written",
    "the data: samsum through the Concatenator (chunk_size 2048): every sample exactly 2048 tokens: seq_len 2048, "
    "max_length padding written; batch_size_training 4 = micro_batch_size 4 (no accumulation)",
    "FSDP: FULL_SHARD, device_id the current GPU, the model loaded on the CPU by from_pretrained and moved unit by "
    "unit (load_placement 'host'); auto_wrap_policy fsdp_auto_wrap_policy: LlamaDecoderLayer units plus every leaf "
    "with a trainable weight (the LoRA A / B linears) its own unit, so the decoder-layer units hold frozen weights "
    "only (fsdp_frozen_grads False); use_orig_params False (FSDP1)",
    "activation checkpointing: fsdp_activation_checkpointing True, non-reentrant checkpoint_wrapper on each "
    "LlamaDecoderLayer",
    "attention: transformers 4.31's LlamaAttention (no SDPA path): eager written",
    "torch: requirements.txt pins torch==2.0.1+cu118; the run's own versions not stated",
)
#: est86 (after scoring, in-sample): what the estimator's inputs say of the loop and the cache, read in the code
AG_CACHE = ("est86 (after scoring, in-sample): use_cache True written: transformers 4.31's LlamaConfig defaults "
            "use_cache to True, and llama-recipes' checkpointing is torch's apply_activation_checkpointing "
            "(policies/activation_checkpointing_functions.py), which leaves model.gradient_checkpointing False, so "
            "every layer returns its key and value (past_key_values) in the training forward")
AG_KEPT_EST86 = ("est86 (after scoring, in-sample): keeps_outputs True written: utils/train_utils.py at 1e0f8a1 "
                 "lines 88-89 bind 'outputs = model(**batch)' at loop level (no del), so each step's output object "
                 "(fp32 logits and the returned cache) lives through its backward and the next step's forward; the "
                 "estimator's input for it was missed when the row was written")
AG_FREED_EST86 = ("est86 (after scoring, in-sample): keeps_outputs False (the default) kept: 'loss = "
                  "model(**batch).loss' drops the output object after the forward")
AG_DUPLICATE = ("est86 (after scoring): the same pull request and figures as held-out-7's llama-recipes-fsdp-lora "
                "rows (meta-llama/llama-recipes#41: the repository was renamed llama-cookbook, so the URL check of "
                "the split's independence did not match it); held-out-7's limit-on rows hold 20.20 and 15.22 GB "
                "too, so this row is not a blind row")
AG_KEPT = ("the logits: this run's train loop wrote outputs = model(**batch); loss = outputs.loss (utils/train_utils.py "
           "at 1e0f8a1), keeping the model output (logits) alive through backward; no estimator input says so")
AG_FREED = ("the logits: loss = model(**batch).loss (the pull request's utils/train_utils.py at 71fdc49): nothing "
            "outside the loss keeps the model output alive through backward")
add(AGKEY, "llama2-7b-lora-fsdp-bf16-b4-s2048-4x-a100-40gb-limit-off", 25.86, "GB", "peak_memory_active",
    "A100-SXM-40GB", dict(AG_SETUP, fsdp_limit_all_gathers=False, keeps_outputs=True, use_cache=True),
    unknown=(*AG_UNKNOWN, "FSDP(limit_all_gathers=False) as llama_finetuning.py at 1e0f8a1 writes it", AG_KEPT,
             AG_KEPT_EST86, AG_CACHE),
    notes="meta-llama/llama-cookbook#41, awgu 2023-07-25: 'With limit_all_gathers=False: Peak active: 25.86 GB' "
          "(peak reserved 32.67 GB)")
add(AGKEY, "llama2-7b-lora-fsdp-bf16-b4-s2048-4x-a100-40gb-limit-on", 20.20, "GB", "peak_memory_active",
    "A100-SXM-40GB", dict(AG_SETUP, fsdp_limit_all_gathers=True, keeps_outputs=True, use_cache=True),
    unknown=(*AG_UNKNOWN, "FSDP(limit_all_gathers=True): the pull request's change to llama_finetuning.py", AG_KEPT,
             AG_KEPT_EST86, AG_CACHE, AG_DUPLICATE),
    notes="meta-llama/llama-cookbook#41, awgu 2023-07-25: 'With limit_all_gathers=True: Peak active: 20.20 GB' "
          "(peak reserved 27.36 GB)")
add(AGKEY, "llama2-7b-lora-fsdp-bf16-b4-s2048-4x-a100-40gb-limit-on-logits-freed", 15.22, "GB",
    "peak_memory_active", "A100-SXM-40GB", dict(AG_SETUP, fsdp_limit_all_gathers=True, use_cache=True),
    unknown=(*AG_UNKNOWN, "FSDP(limit_all_gathers=True) as llama_finetuning.py at 71fdc49 writes it", AG_FREED,
             AG_FREED_EST86, AG_CACHE, AG_DUPLICATE),
    notes="meta-llama/llama-cookbook#41, awgu 2023-07-25: 'In the end, this only uses 15.22 GB peak active memory "
          "and 19.36 GB peak reserved memory' (rate limiter on and the logits not kept alive)")

for _row in rows:
    _row["measured_by"] = MEASURED_BY[_row["source"]]


def main():
    write_split("heldout41", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
