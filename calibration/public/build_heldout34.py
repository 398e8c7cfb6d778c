"""The thirty-fourth held-out set (calibration/public/heldout34.json): 27 public rows (23 measured peaks, 4
out-of-memory verdicts) from four publishers no earlier split read: three more Stanford CS336 students' answers to
assignment 2's memory problems, each with its own code, logs and GPU (TianqGuo/MachineLearningNotes: the 2.7B model,
a no-grad forward pass and a full AdamW training step at context 128 / 256 / 512 in fp32 and bf16 autocast,
``torch.cuda.max_memory_allocated`` in MiB on an H100; TobinZuo/assignment2-systems: the xl model (2560 / 10240 / 32
/ 32) through the student's own assignment-1 functions, no-grad forward and training step at context 128 and 2048,
fp32 and bf16, ``max_memory_allocated`` bytes on an H100 80GB HBM3, the ctx-2048 training steps out of memory;
csdiywithme/cs336-assignment2-systems: the course's xl model trained with the course AdamW on a B200 at context 128,
GiB, and out of memory at context 2048) and one framework author's memory experiment (jdinalt/forgather: a 1.6B
ALiBi DeepNet decoder pre-trained from scratch with Adafactor at batch 4 x 768 on an RTX 4090, fp32 or bf16 weights,
per-layer activation checkpointing, the optimizer fused into the backward, torch.compile; peak allocated GiB). 19
TRAINING rows. Every row sourced, the source's printed figure kept, and what the source leaves open recorded as
unknown.

Run: python calibration/public/build_heldout34.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's GPU names, and
how held-out-33 writes the course model as an inline ``hf_config``). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

Publishers. No earlier split cites any of the four owners, and no file under calibration/public or bench names them at
all (tests/test_public_heldout34.py checks every URL). Said here so a reader can weigh it: three of the four are, like
three of held-out-33's, students of Stanford CS336 answering the same memory questions about the course's model
(RMSNorm, RoPE, SwiGLU, untied embeddings, hand-written softmax attention, vocab 10,000); none of them is a student
held-out-33 read or left out, each ran their own scripts on their own GPU (H100, H100, B200), and TianqGuo and TobinZuo
ran their own assignment-1 implementations of the model, not the course's. csdiywithme's xl training peaks (51.415 /
51.405 GiB) repeat held-out-33's duoan and EnzoDing figures at the same setting (51.42 / 51.41); they are kept because
they are another publisher's measurement on another GPU and torch, and the estimator was changed on held-out-33 (est73):
these two rows are therefore not a blind test of that setting, and the split's summary is also given without them
(docs/calibration.md). The fourth publisher, a framework author's experiment, is a different model family (ALiBi,
post-norm DeepNet, ReLU-GLU) written as the closest Llama shapes.

1. TianqGuo/MachineLearningNotes at 6706ff6 (2025-11-07): stanford-cs336/assignment2-systems/results/memory_profiling/
   peak_memory_summary.txt and mixed_precision_memory_summary.txt, written by profile_part_b.sh / profile_part_c.sh
   around cs336_systems/memory_profiling/profile_memory.py: the spring 2025 2.7B model (2560 / 10240 / 32 layers / 32
   heads, vocab 10,000) as the student's own assignment-1 ``TransformerLM`` (stanford-cs336/assignment1-basics/
   cs336_basics/transformer_training/model: untied ``Embedding`` and ``lm_head``, RMSNorm with an fp32 upcast, RoPE,
   SwiGLU with ``x * torch.sigmoid(x)``, softmax written as max / exp / sum / divide), batch 4, random tokens; forward:
   ``model.eval()``, 5 warm-up passes and 10 measured passes under ``torch.no_grad()`` (no loss), training: 5 warm-up
   and 10 measured steps of ``optimizer.zero_grad()``, forward, ``loss = logits.sum()``, backward, ``torch.optim.AdamW``
   step; ``reset_peak_memory_stats`` after the warm-up and ``max_memory_allocated() / 1024**2`` ("MB"); bf16 is
   ``torch.autocast(bfloat16)`` around forward and loss. GPU: the repository's workflow runs these on "Lightning AI H100
   instance" (a 24 GB RTX 4090 laptop cannot hold the 65-69 GiB training peaks).
2. TobinZuo/assignment2-systems at 6cc259c (2026-07-05; results from 71a7f59, 2026-07-03): memory_profile_report.md
   and memory_profile_results.csv (scripts/run_h100_memory_profile.sh, scripts/benchmark_transformer.py): "NVIDIA H100
   80GB HBM3, PyTorch 2.5.1+cu121, basics_impl=user-adapters, batch size 4, one warmup step and one measured step.
   PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"; the spring 2026 xl model (2560 / 10240 / 32 / 32, vocab 10,000)
   built as a ParameterList whose forward is the student's assignment-1 ``run_transformer_lm`` (TobinZuo/assignment1-
   basics tests/adapters.py: RMSNorm without an upcast, RoPE computed per call, SwiGLU with ``w * torch.sigmoid(w)``,
   ``run_softmax`` as max / exp / sum / divide, a per-parameter AdamW); forward mode: forward and ``F.cross_entropy``
   under ``torch.no_grad()``; train_step: ``zero_grad(set_to_none=True)``, forward, cross-entropy, backward, step;
   bf16: autocast around forward and loss; ``peak_allocated_bytes`` = ``torch.cuda.max_memory_allocated()``.
3. csdiywithme/cs336-assignment2-systems at bb85bbf (2026-09-14): output/tables/EXPERIMENT_TABLES.md section 7 ("XL
   显存快照实验") and output/REPORT.md ("GPU: Modal NVIDIA B200", "PyTorch 2.11.0 + CUDA 12.8", "staff cs336-basics
   Transformer 与 AdamW"); cs336_systems/experiments.py (the copy under runs/cloud/.../source): the course's
   ``BasicsTransformerLM`` xl (2560 / 10240 / 32 / 32) built on the GPU, the course AdamW, TF32 off, batch 4, random
   tokens, ``F.cross_entropy(logits.float(), y)``; 2 warm-up steps, 2 timed steps, ``zero_grad(set_to_none=True)``,
   ``reset_peak_memory_stats``, one recorded step; "峰值 GiB" = ``max_memory_allocated`` / 2**30 (three decimals).
4. jdinalt/forgather at a0ce917 (2025-08-16): examples/tiny_experiments/peak_memory/README.md and its templates: "Deep
   One" (templatelib/examples/models/deepone.yaml: hidden 2048, 16 heads, 32 layers, feed-forward 5400 as a ReLU GLU,
   ALiBi attention through ``F.scaled_dot_product_attention`` with a float bias, post-norm DeepNet residuals, RMSNorm)
   with the TinyStories 8K tokenizer (vocab 8,000), TinyStories padded and truncated to 768 tokens, batch 4, 100 steps,
   forgather's own Adafactor (factored row / column second moment, no first moment), SDPA backend "efficient";
   ``fuse_optim_with_backward`` steps each parameter in its gradient hook; checkpointing wraps each layer
   (``checkpoint_stride: 1``); ``torch_compile: True``; bf16 runs convert the model with ``module_to_dtype(bfloat16)``;
   the PeakMemory callback reads ``torch.cuda.max_memory_allocated()``. "GPU: 1 x RTX 4090", "PyTorch v2.8.0".

Left out on purpose (decided before scoring, by what is known): forgather's four memory-budget rows (0.05, 0.60,
fused 0.05, bf16 0.60: a compile partitioner knob no input expresses); csdiywithme's forward rows (run with autograd on:
the saved activations stay, neither an inference pass nor a training step), its checkpoint table (forward + backward
without any optimizer step) and its distributed rows; TobinZuo's A10 timing sweeps (no peak recorded, only OOM
messages of forward+backward runs without a step) and its staff-model xl OOMs on a 44.53 GiB card (the GPU is not
named); TianqGuo's activation-size and largest-allocation notes (not peaks); the other CS336 repositories read this
round (yyin-dev: "13G" / "37G" whole-GB readings of a viewer; GAOYUEtianc: reserved memory after the run, not a peak;
MarkMrLi, danzzzlll, dfrumkin, sandyhu533, yzctzl, ymao-otter: no whole-model peak printed; an RTX 5090 student whose
repository could not be identified); sagarsrc-style LoRA notebooks measuring CPU RSS (Vasilisa-Blyudova/fine-tuning-
gpt2) or reserved memory (JadeAnt); ellisbrown/BDML25SP (a max-batch search whose reported 28% use contradicts its OOM
bound); web pages whose figures are estimates, calculators or truncated (dev.to/tildalice, spheron, gigagpu,
theneuralbase, coldfusion-example); discuss.huggingface.co, discourse.allennlp.org and issue threads of owners earlier
splits cite."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-34"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
TG = f"{GH}/TianqGuo/MachineLearningNotes/blob/6706ff63033b8bc4990a353cb2bda056d2b1704a"
TGA2 = f"{TG}/stanford-cs336/assignment2-systems"
TGA1 = f"{TG}/stanford-cs336/assignment1-basics/cs336_basics/transformer_training/model"
TZ = f"{GH}/TobinZuo/assignment2-systems/blob/6cc259c2bd2473c92485aaff4e01186c6932910f"
TZA1 = f"{GH}/TobinZuo/assignment1-basics/blob/6212e1d2bb189206eb26f1f80e6d0a1484be7bbb"
CD = f"{GH}/csdiywithme/cs336-assignment2-systems/blob/bb85bbf8d82808f9638481aad0fe9376f8cfdc1a"
FG = f"{GH}/jdinalt/forgather/blob/a0ce9176c7a35026af961b32e8cdeea5c4a248ab"
FGP = f"{FG}/examples/tiny_experiments/peak_memory"

TGKEY = "cs336-tianqguo-2p7b-h100"
TZKEY = "cs336-tobinzuo-xl-user-adapters-h100"
CDKEY = "cs336-csdiywithme-xl-b200"
FGKEY = "forgather-deepone-1p6b-rtx4090"

SOURCES = {
    TGKEY: {
        "url": f"{TGA2}/results/memory_profiling/peak_memory_summary.txt",
        "also": [f"{TGA2}/results/memory_profiling/mixed_precision_memory_summary.txt",
                 f"{TGA2}/cs336_systems/memory_profiling/profile_memory.py",
                 f"{TGA2}/cs336_systems/memory_profiling/profile_part_b.sh",
                 f"{TGA2}/cs336_systems/memory_profiling/profile_part_c.sh",
                 f"{TGA2}/cs336_systems/profiling_benchmarking/benchmark.py",
                 f"{TGA2}/CODING_PREFERENCES.md", f"{TGA2}/pyproject.toml",
                 f"{TGA1}/transformer_lm.py", f"{TGA1}/attention.py", f"{TGA1}/softmax.py",
                 f"{TGA1}/swiglu.py", f"{TGA1}/activations.py", f"{TGA1}/rmsnorm.py"],
        "setup": "the CS336 spring 2025 2.7B model (2560/10240/32 layers/32 heads, vocab 10,000) as the student's own "
                 "assignment-1 TransformerLM, batch 4, random tokens, context 128/256/512: the forward alone under "
                 "no_grad in eval mode, or a training step (zero_grad, forward, logits.sum(), backward, "
                 "torch.optim.AdamW step), fp32 or torch.autocast(bfloat16); 5 warm-up and 10 measured passes, "
                 "max_memory_allocated / 1024**2 after a reset",
        "versions": {"torch": "~=2.6.0 (pyproject: 2.6.0 written)"},
        "date": "2025-11-07 (6706ff6, read)",
        "project": "TianqGuo/MachineLearningNotes (a Stanford CS336 spring 2025 assignment 2 solution with results)",
    },
    TZKEY: {
        "url": f"{TZ}/memory_profile_report.md",
        "also": [f"{TZ}/memory_profile_results.csv", f"{TZ}/scripts/benchmark_transformer.py",
                 f"{TZ}/scripts/run_h100_memory_profile.sh", f"{TZ}/scripts/run_memory_profile_sweep.py",
                 f"{TZ}/mixed_precision_report.md", f"{TZA1}/tests/adapters.py"],
        "setup": "the CS336 spring 2026 xl model (2560/10240/32 layers/32 heads, vocab 10,000) as a ParameterList run "
                 "through the student's assignment-1 run_transformer_lm, batch 4, random tokens, context 128 or 2048: "
                 "forward + cross_entropy under no_grad, or a training step (zero_grad(set_to_none), forward, "
                 "cross_entropy, backward, the student's AdamW step), fp32 or torch.autocast(bfloat16); 1 warm-up, "
                 "reset, 1 measured step, max_memory_allocated bytes; expandable_segments",
        "versions": {"torch": "2.5.1+cu121 (run_h100_memory_profile.sh installs it; the report says so)"},
        "date": "2026-07-03 (results commit 71a7f59; 6cc259c read)",
        "project": "TobinZuo/assignment2-systems (a Stanford CS336 assignment 2 solution with results)",
    },
    CDKEY: {
        "url": f"{CD}/output/tables/EXPERIMENT_TABLES.md",
        "also": [f"{CD}/output/REPORT.md", f"{CD}/benchmark.py",
                 f"{CD}/runs/cloud/20260914T084725Z-probe-leaf-fix/20260914T085436Z-rpc/source/experiments.py"],
        "setup": "the course's BasicsTransformerLM xl (2560/10240/32 layers/32 heads, vocab 10,000) trained with the "
                 "course AdamW, batch 4, random tokens, context 128 or 2048, fp32 (TF32 off) or torch.autocast("
                 "bfloat16), cross_entropy on logits.float(); 2 warm-up and 2 timed steps, reset, one recorded step, "
                 "max_memory_allocated in GiB",
        "versions": {"torch": "2.11.0 + CUDA 12.8 (output/REPORT.md)"},
        "date": "2026-09-14 (bb85bbf, read)",
        "project": "csdiywithme/cs336-assignment2-systems (a CS336 assignment 2 solution run on Modal B200s)",
    },
    FGKEY: {
        "url": f"{FGP}/README.md",
        "also": [f"{FGP}/templates/project.yaml", f"{FGP}/templates/experiments/control.yaml",
                 f"{FGP}/templates/experiments/bfloat16.yaml", f"{FGP}/templates/experiments/checkpoint.yaml",
                 f"{FGP}/templates/experiments/compile.yaml", f"{FGP}/templates/experiments/fused.yaml",
                 f"{FGP}/templates/experiments/fused_checkpoint.yaml",
                 f"{FGP}/templates/experiments/bf16_fused_chkpt.yaml",
                 f"{FG}/examples/tiny_experiments/forgather_workspace/models/full_deepone.yaml",
                 f"{FG}/templatelib/examples/models/deepone.yaml",
                 f"{FG}/examples/tokenizers/tiny_stories_bpe/templates/configs/8k.yaml",
                 f"{FG}/modelsrc/transformer/causal_alibi_attn.py", f"{FG}/modelsrc/transformer/glu_feedforward.py",
                 f"{FG}/modelsrc/transformer/deepnet.py", f"{FG}/modelsrc/transformer/causal_loss.py",
                 f"{FG}/src/forgather/ml/optim/adafactor.py", f"{FG}/src/forgather/ml/peak_memory.py"],
        "setup": "Deep One, a 1.6B decoder (hidden 2048, 16 heads, 32 layers, ReLU-GLU feed-forward 5400, ALiBi, "
                 "post-norm DeepNet, vocab 8,000) pre-trained from scratch on TinyStories padded to 768 tokens, "
                 "batch 4, forgather's Adafactor, 100 steps; fp32 or bf16 weights, per-layer activation "
                 "checkpointing, optimizer fused into the backward, torch.compile; peak max_memory_allocated GiB",
        "versions": {"torch": "2.8.0 ('PyTorch v2.8.0', CUDA 12.4)"},
        "date": "2025-08-16 (a0ce917, read)",
        "project": "jdinalt/forgather (Jason dinAlt's training framework; its peak-memory experiment)",
    },
}


def basics_config(d_model: int, d_ff: int, layers: int, heads: int, ctx: int) -> dict:
    """The CS336 model as the Llama shapes it has (untied embeddings, RMSNorm, RoPE, SwiGLU), as held-out-33."""
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": d_model,
            "intermediate_size": d_ff, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": heads, "vocab_size": 10000, "max_position_embeddings": ctx,
            "tie_word_embeddings": False, "rms_norm_eps": 1e-5, "hidden_act": "silu", "rope_theta": 10000.0,
            "attention_bias": False, "mlp_bias": False}


XL = (2560, 10240, 32, 32)
BASICS_UNKNOWN = (
    "the model: a CS336 Transformer LM written as its Llama shapes (inline hf_config: untied token embedding and "
    "lm_head, pre-norm RMSNorm, RoPE, SwiGLU, no biases, vocab 10,000); it is course / student code, not "
    "transformers': model_impl 'transformers' written (the closest)",
    "attention: hand-written (Q.K^T, a causal mask, a softmax written as x - max, exp, / sum, then @ V): 'eager' "
    "with python_ops ['softmax', 'silu'] (the SwiGLU gate is x * torch.sigmoid(x))",
    "the data: random token ids of exactly the context length (no padding): padding 'max_length'",
)


def basics(name: str, ctx: int, **kw) -> dict:
    d, ff, n, h = XL
    return dict(dict(mode="train", hf_config=basics_config(d, ff, n, h, ctx), model_name=name,
                     optimizer="adamw", grad_accum=1, seq_len=ctx, micro_batch=4, padding="max_length",
                     attention="eager", loss="standard", grad_ckpt=False, world_size=1,
                     model_impl="transformers", python_ops=["softmax", "silu"]),
                **kw)


# ------------------------------------------------------------------ 1. TianqGuo (2.7B, H100)
TG_GPU = "H100-SXM-80GB"
TG_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the student's assignment-1 TransformerLM (transformer_lm.py, attention.py, softmax.py, swiglu.py, "
    "activations.py, rmsnorm.py at 6706ff6): RMSNorm upcasts to fp32 and casts back; RoPE tables precomputed for "
    "the context",
    "the GPU: 'Lightning AI H100 instance' (CODING_PREFERENCES.md, the repository's workflow for full runs; no GPU is "
    "printed beside the tables): H100-SXM-80GB written",
    "torch '~=2.6.0' (pyproject): 2.6.0 written",
    "profile_memory.py: 5 warm-up passes, reset_peak_memory_stats, then _record_memory_history and 10 measured passes "
    "(recording does not allocate on the GPU); the figure is max_memory_allocated() / (1024 ** 2), printed as 'MB': "
    "MiB",
)
TG_FWD = ("forward: model.eval(), the forward alone (no loss) under torch.no_grad(); no optimizer is built, so no "
          "AdamW state exists (mode 'infer')")
TG_TRAIN = ("training: optimizer.zero_grad() (set_to_none, torch's default), forward, loss = logits.sum() (no "
            "cross-entropy: loss 'logits'), backward, torch.optim.AdamW(lr=1e-4).step() (foreach, torch's default "
            "on CUDA)")
for ctx, fwd, train in ((128, 13287.89, 65577.08), (256, 13457.46, 65408.06), (512, 14010.65, 69459.53)):
    add(TGKEY, f"2p7b-fp32-b4-s{ctx}-forward-nograd", fwd, "MiB", "max_memory_allocated", TG_GPU,
        basics("cs336-basics-2.7b", ctx, mode="infer", precision="fp32", torch_version="2.6.0"),
        unknown=(*TG_UNKNOWN, TG_FWD, "fp32: no autocast"),
        notes=f"TianqGuo/MachineLearningNotes results/memory_profiling/peak_memory_summary.txt at 6706ff6: "
              f"'{ctx:<15}| {fwd:<18}| {train}' (Forward Pass (MB)), Model: 2.7B, Batch size: 4")
    add(TGKEY, f"2p7b-fp32-b4-s{ctx}-train", train, "MiB", "max_memory_allocated", TG_GPU,
        basics("cs336-basics-2.7b", ctx, precision="fp32", loss="logits", foreach=True, torch_version="2.6.0"),
        unknown=(*TG_UNKNOWN, TG_TRAIN, "fp32: no autocast"),
        notes=f"TianqGuo/MachineLearningNotes results/memory_profiling/peak_memory_summary.txt at 6706ff6: "
              f"'{ctx:<15}| {fwd:<18}| {train}' (Full Training Step (MB)), Model: 2.7B, Batch size: 4")
TG_BF16 = "bf16: torch.autocast(device_type='cuda', dtype=torch.bfloat16) around forward (and loss); fp32 weights"
add(TGKEY, "2p7b-bf16-b4-s512-forward-nograd", 19973.40, "MiB", "max_memory_allocated", TG_GPU,
    basics("cs336-basics-2.7b", 512, mode="infer", precision="amp-bf16", torch_version="2.6.0"),
    unknown=(*TG_UNKNOWN, TG_FWD, TG_BF16),
    notes="TianqGuo/MachineLearningNotes results/memory_profiling/mixed_precision_memory_summary.txt at 6706ff6: "
          "'BF16 Forward         | 19973.40         | -42.6%' (Peak Memory (MB)), context length 512, batch 4")
add(TGKEY, "2p7b-bf16-b4-s512-train", 66524.90, "MiB", "max_memory_allocated", TG_GPU,
    basics("cs336-basics-2.7b", 512, precision="amp-bf16", loss="logits", foreach=True, torch_version="2.6.0"),
    unknown=(*TG_UNKNOWN, TG_TRAIN, TG_BF16),
    notes="TianqGuo/MachineLearningNotes results/memory_profiling/mixed_precision_memory_summary.txt at 6706ff6: "
          "'BF16 Training        | 66524.90         | 4.2%' (Peak Memory (MB)), context length 512, batch 4")

# ------------------------------------------------------------------ 2. TobinZuo (xl, user adapters, H100)
TZ_GPU = "H100-SXM-80GB"
TZ_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the student's assignment-1 functions (TobinZuo/assignment1-basics tests/adapters.py, the stored version "
    "6212e1d; the run imports the copy at ASSIGNMENT1_PATH): weights in a ParameterList (fp32), run_rmsnorm "
    "without an upcast, RoPE cos/sin computed on every call (no table), a bool causal mask per layer, "
    "run_softmax as max / exp / sum / divide (the report's largest allocations: 'adapters.py:733 run_softmax'), "
    "SwiGLU with w1 * torch.sigmoid(w1)",
    "the GPU: 'NVIDIA H100 80GB HBM3' (the SXM part): H100-SXM-80GB; 'GPU 0 has a total capacity of 79.11 GiB'",
    "memory_profile_report.md: 'one warmup step and one measured step', reset_peak_memory_stats before the "
    "measured step, PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (expandable_segments True)",
    "torch 2.5.1+cu121 (run_h100_memory_profile.sh; the report)",
)
TZ_FWD = ("forward mode: torch.no_grad() around the model and F.cross_entropy(logits.flatten(0, 1), targets) "
          "(benchmark_transformer.py run_one_step); no optimizer step (mode 'infer')")
TZ_TRAIN = ("train_step: optimizer.zero_grad(set_to_none=True), forward, F.cross_entropy, backward, the student's "
            "AdamW (get_adamw_cls: a torch.optim.Optimizer looping over the parameters, exp_avg / exp_avg_sq fp32, "
            "non-in-place sqrt temporaries): 'adamw' with foreach False")
TZ_BF16 = "bf16: torch.autocast(device_type='cuda', dtype=torch.bfloat16) around forward and loss; fp32 weights"
for ctx, prec, mode, nbytes, mib in ((128, "fp32", "forward", 13770901504, 13132.955078125),
                                     (128, "bf16", "forward", 13776144384, 13137.955078125),
                                     (128, "fp32", "train_step", 54785786368, 52247.79736328125),
                                     (128, "bf16", "train_step", 54785786368, 52247.79736328125),
                                     (2048, "fp32", "forward", 22675548160, 21625.087890625),
                                     (2048, "bf16", "forward", 20402235392, 19457.087890625)):
    # weight_views (est75, after the blind scoring; heldout34_first_scoring.txt keeps the rows without it): the
    # student's run_linear / run_swiglu multiply by a view, 'in_features @ weights.T' (adapters.py lines 39, 96-102)
    kw = dict(precision="fp32" if prec == "fp32" else "amp-bf16", torch_version="2.5.1", expandable_segments=True,
              weight_views=True)
    if mode == "forward":
        kw["mode"] = "infer"
    else:
        kw["foreach"] = False
    rid = f"xl-{prec}-b4-s{ctx}-{'forward-nograd' if mode == 'forward' else 'train'}"
    add(TZKEY, rid, mib, "MiB", "max_memory_allocated", TZ_GPU, basics("cs336-user-xl", ctx, **kw),
        unknown=(*TZ_UNKNOWN, TZ_FWD if mode == "forward" else TZ_TRAIN,
                 TZ_BF16 if prec == "bf16" else "fp32: no autocast"),
        notes=f"TobinZuo/assignment2-systems memory_profile_results.csv at 6cc259c: 'xl,{mode},4,{ctx},1,1,...,cuda,"
              f"{prec},user-adapters,{nbytes},...,{mib},...'; memory_profile_report.md: '| {ctx} | ... {mib:.1f} MiB'")
for prec, allocated, free in (("fp32", "76.53", "1.69 GiB"), ("bf16", "66.45", "157.00 MiB")):
    add_oom(TZKEY, f"xl-{prec}-b4-s2048-train-oom", "oom", TZ_GPU,
            basics("cs336-user-xl", 2048, precision="fp32" if prec == "fp32" else "amp-bf16", foreach=False,
                   torch_version="2.5.1", expandable_segments=True, weight_views=True),
            unknown=(*TZ_UNKNOWN, TZ_TRAIN, TZ_BF16 if prec == "bf16" else "fp32: no autocast"),
            notes=f"TobinZuo/assignment2-systems memory_profile_report.md at 6cc259c, OOM cases: 'ctx2048 train_step "
                  f"{prec}: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                  f"capacity of 79.11 GiB of which {free} is free. ... Of the allocated memory {allocated} GiB is "
                  f"allocated by PyTorch'")

# ------------------------------------------------------------------ 3. csdiywithme (xl, course code, B200)
CD_GPU = "B200-180GB"
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


CD_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the course's cs336_basics.BasicsTransformerLM built under torch.device('cuda') (the staff package this "
    "assignment ships; 'staff cs336-basics Transformer 与 AdamW' in output/REPORT.md)",
    "the optimizer: the course's AdamW (cs336_basics.optimizer, a per-parameter loop): 'adamw' with foreach False",
    "the loss: F.cross_entropy(logits.flatten(0, 1).float(), y.flatten()) (an fp32 copy of the logits under bf16)",
    "experiments.py model_benchmark (the copy stored with an earlier run of 2026-09-14; the memory runs' own copy "
    "was not read): 2 warm-up steps, 2 timed steps, zero_grad(set_to_none=True), reset_peak_memory_stats, one "
    "recorded step (forward, loss, backward, step); the table's '峰值 GiB' is that step's max_memory_allocated",
    "the GPU: 'Modal NVIDIA B200' (output/REPORT.md): B200-180GB; torch 2.11.0 (CUDA 12.8); TF32 off "
    "(allow_tf32 = False, no memory effect written)",
)
CD_BF16 = "bf16: torch.autocast('cuda', dtype=torch.bfloat16) around forward and loss; fp32 weights and AdamW state"
for prec, value in (("fp32", 51.415), ("bf16", 51.405)):
    add(CDKEY, f"xl-{prec}-b4-s128-train", value, "GiB", "max_memory_allocated", CD_GPU,
        basics("cs336-basics-xl", 128, precision="fp32" if prec == "fp32" else "amp-bf16", foreach=False,
               torch_version="2.11.0", **STAFF_ADAMW),   # est96: output/REPORT.md names the staff AdamW
        unknown=(*CD_UNKNOWN, CD_BF16 if prec == "bf16" else "fp32: no autocast", STAFF_ADAMW_NOTE),
        notes=f"csdiywithme/cs336-assignment2-systems output/tables/EXPERIMENT_TABLES.md at bb85bbf, section 7: "
              f"'| 128/{prec} | F+CE+B+AdamW | ... | {value:.3f} | ... | ok |'")
for prec in ("fp32", "bf16"):
    add_oom(CDKEY, f"xl-{prec}-b4-s2048-train-oom", "oom", CD_GPU,
            basics("cs336-basics-xl", 2048, precision="fp32" if prec == "fp32" else "amp-bf16", foreach=False,
                   torch_version="2.11.0", **STAFF_ADAMW),
            unknown=(*CD_UNKNOWN, CD_BF16 if prec == "bf16" else "fp32: no autocast", STAFF_ADAMW_NOTE),
            notes=f"csdiywithme/cs336-assignment2-systems output/tables/EXPERIMENT_TABLES.md at bb85bbf, section 7: "
                  f"'| 2048/{prec} | F+CE+B+AdamW | — | — | — | oom | 无 |'")

# ------------------------------------------------------------------ 4. jdinalt/forgather (Deep One 1.6B, RTX 4090)
FG_GPU = "RTX-4090-24GB"
DEEPONE = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
           "intermediate_size": 5400, "num_hidden_layers": 32, "num_attention_heads": 16, "num_key_value_heads": 16,
           "vocab_size": 8000, "max_position_embeddings": 2048, "tie_word_embeddings": False, "rms_norm_eps": 1e-6,
           "hidden_act": "relu", "attention_bias": False, "mlp_bias": False}
FG_UNKNOWN = (
    "the model: forgather's Deep One (deepone.yaml at a0ce917: hidden 2048, 16 heads, 32 layers, dim_feedforward "
    "5400 as a GLU with ReLU, post-norm DeepNet layers norm(alpha * residual + x), RMSNorm, ALiBi instead of RoPE, no "
    "biases) written as the closest Llama shapes (inline hf_config, hidden_act 'relu'); ~1.6B parameters as the "
    "README says",
    "attention: CausalAlibiAttn calls F.scaled_dot_product_attention with a float bias built each layer from "
    "trainable ALiBi slopes ([16, 768, 768] fp32 or bf16, its gradient computed too) under the 'efficient' SDPA "
    "backend: 'sdpa' written; the bias and its gradient are not an input",
    "the vocabulary: the TinyStories 8K tokenizer (vocab_size 8000; model_max_length 2048); tie_word_embeddings is "
    "not set in the model config of that commit: untied written (a separate output_decoder Linear)",
    "the data: TinyStories (abridged) with DataCollatorForCausalLM(padding='max_length', truncation, max_length=768): "
    "every batch 4 x 768",
    "the optimizer: forgather.ml.optim.adafactor.Adafactor(lr 2e-4, weight_decay 0.01): factored second moment (a "
    "row and a column vector per matrix, a full vector for 1-D), no first moment: 'adafactor' written; its step "
    "loops over the parameters one at a time (adafactor.py, Adafactor.step: 'for p in group[\"params\"]: ... "
    "_adafactor(*args)'): foreach False (est75, after the blind scoring, which ran with the default foreach)",
    "the loss: CausalLoss (shift_logits = logits[..., :-1, :].contiguous(), F.cross_entropy) on the model-dtype "
    "logits, no fp32 upcast: loss_in_logits_dtype True",
    "the figure: the PeakMemory callback's torch.cuda.max_memory_allocated() (reset at each log step), the largest "
    "of the run ('peak allocated CUDA memory during training'); 100 steps, evaluation at step 100 with batch 8 "
    "under no_grad",
    "torch 2.8.0 ('PyTorch v2.8.0', CUDA 12.4), 'GPU: 1 x RTX 4090', float32_matmul_precision 'highest'",
)
FG_FUSED = ("fuse_optim_with_backward: True: each parameter is stepped and its gradient freed in a gradient hook "
            "during backward (optimizer_in_backward True); the author notes the saving does not show without "
            "checkpointing ('something in the backward pass is holding references to the gradients')")
FG_CKPT = ("checkpoint: enable_activation_checkpoint True with checkpoint_stride 1 (every layer wrapped by the "
           "LayerStack's torch.utils.checkpoint) and the trainer's gradient_checkpointing: grad_ckpt True")
FG_BF16 = ("bf16: model_preprocessor module_to_dtype(model, 'bfloat16'): weights, gradients and Adafactor state in "
           "bf16, no autocast (precision 'bf16')")
FG_BASE = dict(mode="train", hf_config=DEEPONE, model_name="forgather-deep-one", optimizer="adafactor",
               micro_batch=4, seq_len=768, grad_accum=1, padding="max_length", attention="sdpa",
               loss="standard", loss_in_logits_dtype=True, grad_ckpt=False, world_size=1, precision="fp32",
               torch_version="2.8.0", model_impl="transformers", foreach=False)
for rid, label, value, kw, extra in (
        ("control-fp32", "**Control** (FP32 baseline)", 21.165, {}, ("control.yaml: the project as is",)),
        ("checkpoint-fp32", "**Activation Checkpoint**", 12.529, {"grad_ckpt": True}, (FG_CKPT,)),
        ("compile-fp32", "**Torch Compile**", 19.712, {"compiled": True},
         ("compile.yaml: torch_compile True, torch_compile_dynamic False (the model compiled; the loss computed "
          "outside it: compiled_loss unknown)",)),
        ("fused-fp32", "**Optimizer Fusion**", 21.164, {"optimizer_in_backward": True}, (FG_FUSED,)),
        ("fused-checkpoint-fp32", "**Fused Checkpoint**", 7.425, {"grad_ckpt": True, "optimizer_in_backward": True},
         (FG_FUSED, FG_CKPT)),
        ("bf16-fused", "**BFloat16**", 12.418, {"precision": "bf16", "optimizer_in_backward": True},
         (FG_BF16, FG_FUSED, "bfloat16.yaml at a0ce917 also sets fuse_optim_with_backward: True (the README's "
                             "table calls the row 'BFloat16')")),
        ("bf16-fused-checkpoint", "**BF16 + Fused + Checkpoint**", 3.975,
         {"precision": "bf16", "grad_ckpt": True, "optimizer_in_backward": True}, (FG_BF16, FG_FUSED, FG_CKPT)),
):
    add(FGKEY, f"deepone-1p6b-b4-s768-{rid}", value, "GiB", "max_memory_allocated", FG_GPU, dict(FG_BASE, **kw),
        unknown=(*FG_UNKNOWN, *extra),
        notes=f"jdinalt/forgather examples/tiny_experiments/peak_memory/README.md at a0ce917: '| {label} | "
              f"{value:.3f} | ...' (Peak Memory (GiB)); 'batch size 4, 100 steps', '1 x RTX 4090'")


def main():
    write_split("heldout34", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
