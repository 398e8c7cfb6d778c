"""The thirty-fifth held-out set (calibration/public/heldout35.json): 32 public rows (31 measured peaks, 1
out-of-memory verdict) from three publishers no earlier split cites, all Stanford CS336 students answering assignment
2's memory problems with the course's own ``BasicsTransformerLM`` on their own GPU (ShibukiZero/assignment2-systems:
the 2.7B model, a no-grad forward pass and a course-AdamW training step at context 128 / 256 / 512 in fp32 and bf16
autocast, ``max_memory_allocated`` GiB on an H100; LINYUNLinYun/CS336-assignment2-systems: the xl model (2560 / 10240
/ 32 / 32), a no-grad forward pass at context 128 to 2048 and a ``torch.optim.AdamW`` training step at context 128 /
512, fp32 and bf16 autocast, ``max_memory_allocated`` GiB on a 96 GB RTX PRO 6000 the GPU catalog does not hold;
KevinZhou-cs336/assignment2-systems: the course's small / medium / large / xl widths with the script's default
feed-forward widths (2048 / 2752 / 3392 / 6848), course-AdamW training steps at context 512 in fp32, the xl also at
context 128 and in bf16 autocast, ``max_memory_allocated`` GiB on an A100 80GB PCIe, and out of memory at context
2048). 18 TRAINING rows. Every row sourced, the source's printed figure kept, and what the
source leaves open recorded as unknown.

Run: python calibration/public/build_heldout35.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's GPU names, and
how held-out-34 writes the course model as an inline ``hf_config``). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

Publishers. No file under calibration/public, bench or docs cites any of the three owners by URL
(tests/test_public_heldout35.py checks every URL). Said here so a reader can weigh it: (1) all three are, like four
of held-out-33's and three of held-out-34's publishers, students of Stanford CS336 answering the same memory questions
about the course's model (RMSNorm, RoPE, SwiGLU, untied embeddings, hand-written softmax attention, vocab 10,000), so
the split tests one model family under new GPUs, scripts and optimizers, not new architectures; (2) held-out-33's
builder names ShibukiZero among the CS336 students it fetched and left out ("no full-model peak printed"): its memory
sweep (artifacts/experiments/ch1/1_1_6_memory, commit 00f1480) was not in the copy read then, and no row of any split
comes from it; KevinZhou-cs336 and LINYUNLinYun appear nowhere in the repository; (3) LINYUNLinYun's 96 GB RTX PRO
6000 is not in the GPU catalog (hardware/gpus.json, which this split does not change): its 12 rows are peaks, scored
for their error and interval only (no fits / does-not-fit verdict), as held-out-4, -5 and -7's rows on uncatalogued
laptop and RTX 2060 cards were; tests/test_public_heldout_sets.py names that one card as the split's only
uncatalogued GPU.

1. ShibukiZero/assignment2-systems at 00f1480: artifacts/experiments/ch1/1_1_6_memory/summary.md ("model size:
   2.7b", "context lengths: 128, 256, 512", "modes: forward, train-step", "precisions: fp32, bf16"), written from
   cs336_systems/benchmark.py: the course ``BasicsTransformerLM`` with the 2.7b preset (2560 / 10240 / 32 / 32, vocab
   10,000, rope_theta 10,000), batch 4, random tokens; forward: ``model.eval()`` and the model alone under
   ``torch.no_grad()``; train-step: ``model.zero_grad(set_to_none=True)``, ``model.train()``, forward,
   ``F.cross_entropy`` on the logits, backward, the course ``AdamW`` step; bf16 is ``torch.autocast(cuda,
   bfloat16)`` around forward and loss; 5 warm-up steps, then ``reset_peak_memory_stats`` and the recorded step;
   ``max_allocated_bytes`` = ``torch.cuda.max_memory_allocated`` printed in GiB (two decimals).
2. LINYUNLinYun/CS336-assignment2-systems at c4ab1a5: cs336_systems/experiments.md section "answers for 2.1.6 memory
   profile" ("在pro6000(96GB)上运行"), written by run_memory_profiles.sh around benchmark_nvtx.py (5936545): the course
   ``BasicsTransformerLM`` xl (2560 / 10240 / 32 / 32, vocab 10,000), batch 4, random tokens, ``torch.optim.AdamW(lr
   1e-3)``; forward: the model under ``torch.no_grad()`` (no loss); full_step: ``optimizer.zero_grad(set_to_none=True)``,
   forward, ``F.cross_entropy(logits.float(), ...)``, backward, step; bf16 is ``torch.autocast(cuda, bfloat16)``
   around the forward; 5 warm-up steps, zero_grad, ``empty_cache``, ``reset_peak_memory_stats``, one recorded step,
   ``max_memory_allocated() / 1024**3`` ("Peak allocated memory: ... GiB").
3. KevinZhou-cs336/assignment2-systems at bffb910: writeup/writeup.md (problems benchmarking_script (b),
   benchmarking_mixed_precision (c) and
   memory_profiling (b), (c): "GPU: NVIDIA A100 80GB PCIe (RunPod cloud pod)", "Model: xl (d_model=2560, 32 layers,
   32 heads, d_ff=6848, vocab_size=10000, batch=4)"), from cs336_systems/benchmark.py (38ba44e): the course
   ``BasicsTransformerLM`` (d_ff defaults to the multiple of 64 nearest 8/3 d_model: 6848), the course ``AdamW(lr
   1e-3)``, the course ``cross_entropy``, ``zero_grad(set_to_none=True)`` after every step; warm-up steps, then
   ``reset_peak_memory_stats`` and the timed steps; ``max_memory_allocated / 1024**3`` printed as "GB" (GiB).

Left out on purpose (decided before scoring, by what is known): KevinZhou's forward-mode rows (18.324 / 25.080: the
forward runs with autograd on and the loss kept, so the saved activations stay: neither an inference pass nor a
training step, as held-out-33 decided for EnzoDing and held-out-34 for csdiywithme) and its per-block and
num_layers 1-4 figures (memory_allocated, not peaks), its '10B' row ('OOM on A100 80GB', the shapes not printed) and
its A40 Nsight runs (no peak); LINYUNLinYun's four out-of-memory full steps (context 1024 and
2048, fp32 and bf16: the RTX PRO 6000 is not in the GPU catalog, so no verdict can be scored), its stored logs of an
earlier run on an unnamed 23.52 GiB card, its Nsight per-block figures and its checkpointing medium-model trials;
ShibukiZero's forward-backward timing rows (no peak) and its attention-only sweep; CS336 repositories read this round
without a whole-model GPU peak (dengxiaosys: CPU RSS of the large model on a CPU host; sandyhu533: forward-backward
rows without an optimizer on a 24 GB card; bolongcheng: attention-only); a 2.7B A800 table whose repository could
not be identified; ljm565's GPU test tables and ai-learner-1429's notes (publishers earlier splits cite or left out);
the caikit-nlp batch-size bisection (a largest batch that fits, no peak, model path unnamed); blog pages whose
figures are estimates or calculators (theneuralbase, dev.to/tildalice)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-35"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
SZ = f"{GH}/ShibukiZero/assignment2-systems/blob/00f1480b91be4ebb18b7bb72f0c0854ebe055445"
SZW = f"{GH}/ShibukiZero/assignment2-systems/blob/9a8095b2d2694387091d6213cec6cfc71c492629"
LY = f"{GH}/LINYUNLinYun/CS336-assignment2-systems/blob/c4ab1a52247b5adf6a576c076946125354d43523"
LYB = f"{GH}/LINYUNLinYun/CS336-assignment2-systems/blob/5936545e334839f7bccddd75c9a5c1e88163a487"
LYR = f"{GH}/LINYUNLinYun/CS336-assignment2-systems/blob/677e2f9ef557194ea4c47314bc8adc3a2a12b7e1"
KZ = f"{GH}/KevinZhou-cs336/assignment2-systems/blob/bffb9102ec8a92ccf857fcfe03619a4ccee54fdd"
KZB = f"{GH}/KevinZhou-cs336/assignment2-systems/blob/38ba44e9a1fd4625b3d4f76cf5a310494b08a2a1"

SZKEY = "cs336-shibukizero-2p7b-h100"
LYKEY = "cs336-linyunlinyun-xl-rtxpro6000"
KZKEY = "cs336-kevinzhou-a100"

SOURCES = {
    SZKEY: {
        "url": f"{SZ}/artifacts/experiments/ch1/1_1_6_memory/summary.md",
        "also": [f"{SZ}/cs336_systems/benchmark.py", f"{SZ}/artifacts/experiments/ch1/1_1_6a/README.md",
                 f"{SZW}/writeup.md"],
        "setup": "the course's BasicsTransformerLM with the 2.7b preset (2560/10240/32 layers/32 heads, vocab 10,000), "
                 "batch 4, random tokens, context 128/256/512: the forward alone under no_grad in eval mode, or a "
                 "training step (zero_grad(set_to_none), forward, F.cross_entropy, backward, the course AdamW step), "
                 "fp32 or torch.autocast(bfloat16); 5 warm-up steps, reset, the recorded step, max_memory_allocated "
                 "in GiB",
        "versions": {"torch": "not stated (no pyproject or lock file in the stored copy)"},
        "date": "2026 (00f1480, read)",
        "project": "ShibukiZero/assignment2-systems (a Stanford CS336 assignment 2 solution with results)",
    },
    LYKEY: {
        "url": f"{LY}/cs336_systems/experiments.md",
        "also": [f"{LYB}/cs336_systems/benchmark_nvtx.py", f"{LYR}/cs336_systems/run_memory_profiles.sh"],
        "setup": "the course's BasicsTransformerLM xl (2560/10240/32 layers/32 heads, vocab 10,000), batch 4, random "
                 "tokens, context 128/512/1024/2048: the forward alone under no_grad, or a training step "
                 "(zero_grad(set_to_none), forward, F.cross_entropy(logits.float()), backward, torch.optim.AdamW "
                 "step), fp32 or torch.autocast(bfloat16) around the forward; 5 warm-up steps, zero_grad, empty_cache, "
                 "reset, one recorded step, max_memory_allocated in GiB, on a 96 GB 'pro6000'",
        "versions": {"torch": "not stated (a Python 3.13 venv in the stored tracebacks; no lock file stored)"},
        "date": "2026 (c4ab1a5, read)",
        "project": "LINYUNLinYun/CS336-assignment2-systems (a Stanford CS336 assignment 2 solution with notes)",
    },
    KZKEY: {
        "url": f"{KZ}/writeup/writeup.md",
        "also": [f"{KZB}/cs336_systems/benchmark.py"],
        "setup": "the course's BasicsTransformerLM at the small/medium/large/xl widths (768/12/12, 1024/24/16, "
                 "1280/36/20, 2560/32/32) with the script's default d_ff (2048/2752/3392/6848, vocab 10,000), batch 4, "
                 "random tokens, context 128/512/2048: a training step (forward, "
                 "the course cross_entropy, backward, the course AdamW step, zero_grad(set_to_none)), fp32 or "
                 "torch.autocast(bfloat16) around forward and loss; 5 warm-up steps, reset, 3 or 10 timed steps, "
                 "max_memory_allocated / 1024**3 printed as 'GB'",
        "versions": {"torch": "not stated (no pyproject or lock file in the stored copy)"},
        "date": "2026 (bffb910, read)",
        "project": "KevinZhou-cs336/assignment2-systems (a Stanford CS336 assignment 2 solution run on RunPod)",
    },
}


def basics_config(d_model: int, d_ff: int, layers: int, heads: int, ctx: int) -> dict:
    """The CS336 model as the Llama shapes it has (untied embeddings, RMSNorm, RoPE, SwiGLU), as held-out-33/34."""
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": d_model,
            "intermediate_size": d_ff, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": heads, "vocab_size": 10000, "max_position_embeddings": ctx,
            "tie_word_embeddings": False, "rms_norm_eps": 1e-5, "hidden_act": "silu", "rope_theta": 10000.0,
            "attention_bias": False, "mlp_bias": False}


XL = (2560, 10240, 32, 32)
XL6848 = (2560, 6848, 32, 32)
BASICS_UNKNOWN = (
    "the model: the course's cs336_basics.BasicsTransformerLM written as its Llama shapes (inline hf_config: untied "
    "token embedding and lm_head, pre-norm RMSNorm, RoPE, SwiGLU, no biases, vocab 10,000); it is course code, not "
    "transformers': model_impl 'transformers' written (the closest); its Linear multiplies with einsum(x, weight)",
    "attention: hand-written (einsum Q.K^T, a causal mask by torch.where, the course softmax written as x - max, exp, "
    "/ sum, then einsum with V): 'eager' with python_ops ['softmax', 'silu'] (the SwiGLU gate is x * sigmoid(x))",
    "the data: random token ids of exactly the context length (no padding): padding 'max_length'",
    "torch: no version in the stored copy; none written",
)


def basics(shape: tuple, name: str, ctx: int, **kw) -> dict:
    d, ff, n, h = shape
    return dict(dict(mode="train", hf_config=basics_config(d, ff, n, h, ctx), model_name=name,
                     optimizer="adamw", grad_accum=1, seq_len=ctx, micro_batch=4, padding="max_length",
                     attention="eager", loss="standard", grad_ckpt=False, world_size=1,
                     model_impl="transformers", python_ops=["softmax", "silu"]),
                **kw)


AUTOCAST = ("bf16: torch.autocast(device_type='cuda', dtype=torch.bfloat16) around the forward (and loss); fp32 "
            "weights, gradients and AdamW state")

# ------------------------------------------------------------------ 1. ShibukiZero (2.7B, H100)
SZ_GPU = "H100-SXM-80GB"
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


SZ_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the GPU: the memory summary names none; the same writeup's other runs name 'a single NVIDIA H100 80GB HBM3' "
    "(the SXM part) and 'the H100 80GB run': H100-SXM-80GB written",
    "benchmark.py (00f1480): 5 warm-up steps (default), then with --memory-profile reset_peak_memory_stats, "
    "_record_memory_history (no GPU allocation) and one profiled step; max_allocated_bytes = "
    "torch.cuda.max_memory_allocated(device); the tables print it / 1024**3 with two decimals (GiB)",
)
SZ_FWD = ("forward: model.eval() and the model alone under torch.no_grad() (no loss); no optimizer is built in this "
          "mode, so no AdamW state exists (mode 'infer')")
SZ_TRAIN = ("train-step: model.zero_grad(set_to_none=True), model.train(), forward, F.cross_entropy(logits.reshape(-1, "
            "V), targets.reshape(-1)), backward, the course AdamW(lr 1e-3, weight_decay 0.01) step (a per-parameter "
            "loop): 'adamw' with foreach False")
SZ_PRINTED = {("fp32", 128): (12.93, 51.44), ("fp32", 256): (13.02, 51.44), ("fp32", 512): (13.45, 65.52),
              ("bf16", 128): (19.16, 51.44), ("bf16", 256): (19.18, 52.11), ("bf16", 512): (19.41, 62.69)}
for (prec, ctx), (fwd, train) in SZ_PRINTED.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    table = "1.1.6(b) FP32 Peak Memory" if prec == "fp32" else "1.1.6(c) FP32 vs BF16 Peak Memory"
    add(SZKEY, f"2p7b-{prec}-b4-s{ctx}-forward-nograd", fwd, "GiB", "max_memory_allocated", SZ_GPU,
        basics(XL, "cs336-basics-2.7b", ctx, mode="infer", precision=precision),
        unknown=(*SZ_UNKNOWN, SZ_FWD, AUTOCAST if prec == "bf16" else "fp32: no autocast"),
        notes=f"ShibukiZero/assignment2-systems artifacts/experiments/ch1/1_1_6_memory/summary.md at 00f1480, "
              f"'{table}': context length {ctx}, forward, {prec}: {fwd:.2f} GiB")
    add(SZKEY, f"2p7b-{prec}-b4-s{ctx}-train", train, "GiB", "max_memory_allocated", SZ_GPU,
        basics(XL, "cs336-basics-2.7b", ctx, precision=precision, foreach=False, **STAFF_ADAMW),   # 00f1480
        unknown=(*SZ_UNKNOWN, SZ_TRAIN, STAFF_ADAMW_NOTE, AUTOCAST if prec == "bf16" else "fp32: no autocast"),
        notes=f"ShibukiZero/assignment2-systems artifacts/experiments/ch1/1_1_6_memory/summary.md at 00f1480, "
              f"'{table}': context length {ctx}, train-step, {prec}: {train:.2f} GiB")

# ------------------------------------------------------------------ 2. LINYUNLinYun (xl, RTX PRO 6000 96 GB)
LY_GPU = "RTX-PRO-6000-Blackwell-96GB"
LY_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the GPU: 'pro6000(96GB)' (experiments.md): an RTX PRO 6000 Blackwell with 96 GB, which the GPU catalog does "
    "not hold (no fits / does-not-fit verdict is scored for these rows)",
    "benchmark_nvtx.py (5936545) with run_memory_profiles.sh (--warmup-steps 5 --measurement-steps 1 --profile-memory): "
    "5 warm-up steps, optimizer.zero_grad(set_to_none=True), torch.cuda.empty_cache(), _record_memory_history (no "
    "GPU allocation), reset_peak_memory_stats, one step, 'Peak allocated memory: {max_memory_allocated / 1024**3:.2f} "
    "GiB'; the table prints two decimals (one for 15.6)",
    "model.train() for every mode (the course model has no dropout)",
)
LY_FWD = ("forward: the model alone under torch.no_grad() (no loss); the torch.optim.AdamW is built but never steps in "
          "this mode, so it holds no state (mode 'infer')")
LY_TRAIN = ("full_step: optimizer.zero_grad(set_to_none=True), forward, F.cross_entropy(logits.float().reshape(-1, V), "
            "targets.reshape(-1)) (an fp32 copy of the logits), backward, torch.optim.AdamW(lr 1e-3).step() "
            "(--optimizer pytorch, the default; foreach, torch's CUDA default)")
LY_FORWARD = {("fp32", 128): 12.91, ("fp32", 512): 13.44, ("fp32", 1024): 15.6, ("fp32", 2048): 21.30,
              ("bf16", 128): 19.14, ("bf16", 512): 19.40, ("bf16", 1024): 20.63, ("bf16", 2048): 25.35}
LY_TRAIN_PEAKS = {("fp32", 128): 63.13, ("fp32", 512): 65.54, ("bf16", 128): 63.31, ("bf16", 512): 63.72}
for (prec, ctx), value in LY_FORWARD.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    label = "以下都是全精度的" if prec == "fp32" else "以下都是bf16精度的"
    add(LYKEY, f"xl-{prec}-b4-s{ctx}-forward-nograd", value, "GiB", "max_memory_allocated", LY_GPU,
        basics(XL, "cs336-basics-xl", ctx, mode="infer", precision=precision),
        unknown=(*LY_UNKNOWN, LY_FWD, AUTOCAST if prec == "bf16" else "fp32: no autocast"),
        notes=f"LINYUNLinYun/CS336-assignment2-systems cs336_systems/experiments.md at c4ab1a5, 2.1.6 memory profile "
              f"('{label}'): '| {ctx}  | {value} | ...' (Forward-only peak memory (GiB))")
for (prec, ctx), value in LY_TRAIN_PEAKS.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    label = "以下都是全精度的" if prec == "fp32" else "以下都是bf16精度的"
    add(LYKEY, f"xl-{prec}-b4-s{ctx}-train", value, "GiB", "max_memory_allocated", LY_GPU,
        basics(XL, "cs336-basics-xl", ctx, precision=precision, foreach=True),
        unknown=(*LY_UNKNOWN, LY_TRAIN, AUTOCAST if prec == "bf16" else "fp32: no autocast"),
        notes=f"LINYUNLinYun/CS336-assignment2-systems cs336_systems/experiments.md at c4ab1a5, 2.1.6 memory profile "
              f"('{label}'): '| {ctx}  | ... | {value} |' (Full training step peak memory (GiB))")

# ------------------------------------------------------------------ 3. KevinZhou-cs336 (xl d_ff 6848, A100 PCIe)
KZ_GPU = "A100-PCIe-80GB"
KZ_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the feed-forward width: benchmark.py (38ba44e) defaults d_ff to int((8 * d_model / 3) / 64 + 0.5) * 64 = 6848 "
    "and the commands pass no --d-ff; the writeup says 'd_ff=6848'",
    "the GPU: 'NVIDIA A100 80GB PCIe (RunPod cloud pod)': A100-PCIe-80GB",
    "the step: forward and the course cross_entropy(logits, targets) (hand-written log-softmax in cs336_basics."
    "nn_utils) under the precision context, loss.backward(), the course AdamW(lr 1e-3) step (a per-parameter loop): "
    "'adamw' with foreach False, then model.zero_grad(set_to_none=True); warm-up steps, synchronize, "
    "reset_peak_memory_stats, the timed steps; 'Peak GPU memory: {max_memory_allocated / 1024 ** 3:.3f} GB' (GiB)",
)
KZ_128 = ("memory_profiling (b)/(c): 'python benchmark.py --d-model 2560 --num-layers 32 --num-heads 32 "
          "--context-length 128 --mode full [--mixed-precision] --num-warmup-steps 5 --num-steps 3'")
KZ_512 = ("benchmarking_mixed_precision (c): '--mode full --num-warmup-steps 5 --num-steps 10 [--mixed-precision]', "
          "batch 4, context length 512 ('same pattern for medium, large, xl'; the xl flags are not printed: the "
          "memory section's xl, 2560 / 32 / 32 with the default d_ff 6848, written)")
for prec, ctx, value, how, quoted in (
        ("fp32", 128, 39.048, KZ_128, "→ Peak GPU memory: 39.048 GB"),
        ("bf16", 128, 38.975, KZ_128, "→ Peak GPU memory: 38.975 GB   ← nearly identical to FP32"),
        ("fp32", 512, 52.142, KZ_512, "# FP32 run (no --mixed-precision): ... Peak GPU memory: 52.142 GB"),
        ("bf16", 512, 49.772, KZ_512, "# BF16 run (--mixed-precision): ... Peak GPU memory: 49.772 GB")):
    add(KZKEY, f"xl6848-{prec}-b4-s{ctx}-train", value, "GiB", "max_memory_allocated", KZ_GPU,
        basics(XL6848, "cs336-basics-xl-dff6848", ctx, precision="fp32" if prec == "fp32" else "amp-bf16",
               foreach=False, **STAFF_ADAMW),   # est96: KevinZhou-cs336 bffb910
        unknown=(*KZ_UNKNOWN, how, STAFF_ADAMW_NOTE, AUTOCAST if prec == "bf16" else "fp32: no autocast"),
        notes=f"KevinZhou-cs336/assignment2-systems writeup/writeup.md at bffb910: '{quoted}' (xl, batch 4, context "
              f"{ctx}, A100 80GB PCIe)")
KZ_SIZES = ("benchmarking_script (b): 'python benchmark.py --d-model {d} --num-layers {n} --num-heads {h} --mode full "
            "--num-warmup-steps 5 --num-steps 10', batch 4, context length 512 (the script's defaults); d_ff by the "
            "script's default rule: {ff}")
for name, (d, ff, n, h), value in (("small", (768, 2048, 12, 12), 4.25), ("medium", (1024, 2752, 24, 16), 11.40),
                                   ("large", (1280, 3392, 36, 20), 22.37)):
    add(KZKEY, f"{name}-dff{ff}-fp32-b4-s512-train", value, "GiB", "max_memory_allocated", KZ_GPU,
        basics((d, ff, n, h), f"cs336-basics-{name}-dff{ff}", 512, precision="fp32", foreach=False, **STAFF_ADAMW),
        unknown=(*KZ_UNKNOWN, KZ_SIZES.format(d=d, n=n, h=h, ff=ff), STAFF_ADAMW_NOTE, "fp32: no autocast"),
        notes=f"KevinZhou-cs336/assignment2-systems writeup/writeup.md at bffb910, benchmarking_script (b): '| {name} "
              f"| {d} | {n} | {h} | ... | {value:.2f} |' (Peak Mem (GB) = max_memory_allocated / 1024**3, A100 80GB "
              f"PCIe, batch 4, context 512)")
add_oom(KZKEY, "xl6848-fp32-b4-s2048-train-oom", "oom", KZ_GPU,
        basics(XL6848, "cs336-basics-xl-dff6848", 2048, precision="fp32", foreach=False, **STAFF_ADAMW),
        unknown=(*KZ_UNKNOWN, STAFF_ADAMW_NOTE, "the verdict: the writeup's table gives 'OOM' for the full training step at 2048; the "
                              "command it prints at 2048 is the forward mode (graph kept), which already fails "
                              "('Tried to allocate 2.00 GiB'), and a training step runs that same forward first",
                 "fp32: no autocast"),
        notes="KevinZhou-cs336/assignment2-systems writeup/writeup.md at bffb910, memory_profiling (b): '| 2048 | OOM "
              "(>80 GB) | OOM |' (Full training step peak memory) on the A100 80GB PCIe")


def main():
    write_split("heldout35", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
