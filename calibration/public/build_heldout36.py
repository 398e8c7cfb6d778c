"""The thirty-sixth held-out set (calibration/public/heldout36.json): 14 public measured peaks from two publishers
that no estimator source cites (by est36b's rule: tests/public_split_helpers.py ``estimator_sources_cited`` /
``author_cited``), both Stanford CS336 students answering assignment 2's memory-profiling problem (2.1.6) with the
course's own ``BasicsTransformerLM``, every figure in a file of their repository read whole
(Luoluoluo0110/assignment2-systems: the xl model with vocab 32,000 (2560 / 10240 / 32 / 32, 3.52B parameters),
batch 1, a no-grad forward pass and a course-AdamW training step at context 128 / 2048 (the input sliced to 127 /
2047 tokens), fp32 and bf16 autocast, ``max_memory_allocated`` MiB over three steps on a 96 GB RTX PRO 6000 Blackwell
the GPU catalog does not hold, torch 2.11; wangjianbin8/assignment2-systems: the script's 'XL' (2560 / 10240 with 8
layers and 8 heads, vocab 10,000), batch 4, a no-grad forward pass at context 128 / 2048 and a
``torch.optim.AdamW`` step on ``logits.float().mean()`` at context 128, fp32 and bf16 autocast,
``max_memory_allocated`` GiB of one step on a GPU the notes do not name). 4 TRAINING rows. Every row sourced, the
source's printed figure kept, and what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout36.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, and how held-out-35 writes
the course model as an inline ``hf_config``). Same row format as devset.json (see build_devset.py). Every figure is
the source's own.

Publishers (the est36b rule: the publisher of a file in a repository is its owner; a split must be independent of
the estimator's sources, every file under calibration/public and bench/public_*.py). Neither owner is a publisher
or a word in those files, and neither page is cited by them (tests/test_public_heldout36.py checks it with
``estimator_sources_cited(36)``). Said here so a reader can weigh it: (1) both are, like held-out-33's, -34's and
-35's publishers, students of Stanford CS336 answering the same memory questions about the course's model (RMSNorm,
RoPE, SwiGLU, untied embeddings, hand-written softmax attention), so the split tests one model family under new
shapes, GPUs and scripts, not new architectures; the brief asked for at least three publishers and twenty rows, and
only two publishers with pinnable figures were found in the time given (see docs/calibration.md, held-out-36); (2)
neither GPU is in the catalog (hardware/gpus.json, unchanged): Luoluoluo0110's 96 GB RTX PRO 6000 Blackwell, and
wangjianbin8's card, which no note names ('unstated-GPU' written); all 14 rows are peaks, scored for their error and
interval only (no fits / does-not-fit verdict), and tests/test_public_heldout_sets.py names those two cards as the
split's only uncatalogued GPUs.

1. Luoluoluo0110/assignment2-systems at 39a51d0: writeup/memory_profiling_results.md ("硬件: NVIDIA RTX PRO 6000
   Blackwell, 96 GB", "torch 2.11.0+cu130", "模型: xl (d_model=2560, d_ff=10240, num_layers=32, num_heads=32,
   vocab=32000, 3.52B params)", "设置: batch=1, profile_step=3, warmup=5"), written by
   cs336_systems/benchmark/mem_sweep.py around benchmark_script.py: the course ``BasicsTransformerLM`` (rope_theta
   10,000), random tokens of the context length, the model fed ``[:, :-1]`` (context - 1 tokens); forward:
   ``model.eval()``, the model under ``torch.no_grad()``, no optimizer built; full_train: ``model.train()``, the
   course ``AdamW`` (a per-parameter loop), ``optimizer.zero_grad()``, forward, the course ``cross_entropy`` on the
   logits under the precision context, backward, step; bf16 is ``torch.autocast(cuda, bfloat16)``; 5 warm-up steps,
   ``empty_cache``, ``reset_peak_memory_stats``, 3 steps, ``max_memory_allocated() / 1024**2`` ("peak=... MiB").
2. wangjianbin8/assignment2-systems at d307e1f: cs336_systems/hw1/note/CS336_Systems_Problem_2.1.6_Memory_Profiling.md
   (tables (b) and (c), GiB), from cs336_systems/hw1/benchmark_memory.py at the same commit: ``XL_CONFIG`` d_model
   2560, d_ff 10240, num_layers 8, num_heads 8 (the comment says 32 / 32; the code builds 8 / 8, and the note's
   3.3 GiB forward plateau is the 0.89B parameters of 8 layers in fp32), vocab 10,000, batch 4, random tokens of the
   context length; forward: the model under ``torch.no_grad()`` (and autocast), no optimizer; train:
   ``torch.optim.AdamW(lr 1e-4)``, forward and ``loss = logits.float().mean()`` under the precision context,
   backward, step, ``zero_grad(set_to_none=True)``; 1 warm-up step, ``reset_peak_memory_stats``, one step,
   ``max_memory_allocated() / 1024**3`` ("Peak memory: ... GiB").

Left out on purpose (decided before scoring, by what is known): Luoluoluo0110's gradient-checkpointing table
(writeup/gradient_checkpointing.md: forward and backward without an optimizer step, which no estimator input
expresses, and checkpoint groups of 2 to 16 blocks) and its '40GB card' forward-backward reference ('≈ 27326 MiB',
rounded, no optimizer); wangjianbin8's two out-of-memory training steps at context 2048 (no GPU named, so no verdict
can be scored) and its mixed-precision benchmark's 7.08 / 5.40 GB (the model and the way the peak was read are not
stated in the note); Wedsonlin/assignment2-systems' sharded-optimizer JSON (a two-rank DDP run whose phase peaks are
read on the first step, before warm-up, so the optimizer state is created inside the measured phase); the CS336
writeups whose owners the estimator's sources cite (damek, TianqGuo, danzzzlll, MarkMrLi) and a small-model writeup
(0.516 / 2.188 GiB) whose repository could not be identified; the non-CS336 leads of docs/calibration.md's held-out-36
section."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-36"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
LU = f"{GH}/Luoluoluo0110/assignment2-systems/blob/39a51d010ed02c9b854ec0ff740ea9f2f75b8e70"
WJ = f"{GH}/wangjianbin8/assignment2-systems/blob/d307e1fb2f01ee6c5cbdaa21f6e0be1b2f1aa044"

LUKEY = "cs336-luoluoluo0110-xl-v32k-rtxpro6000"
WJKEY = "cs336-wangjianbin8-xl8layer"
#: who measured and published each source's figures (est36b's measurement_publisher: the repository's owner)
MEASURED_BY = {LUKEY: "Luoluoluo0110", WJKEY: "wangjianbin8"}

SOURCES = {
    LUKEY: {
        "url": f"{LU}/writeup/memory_profiling_results.md",
        "also": [f"{LU}/cs336_systems/benchmark/benchmark_script.py", f"{LU}/cs336_systems/benchmark/mem_sweep.py",
                 f"{LU}/cs336-basics/cs336_basics/model.py", f"{LU}/cs336-basics/cs336_basics/optimizer.py"],
        "setup": "the course's BasicsTransformerLM xl with vocab 32,000 (2560/10240/32 layers/32 heads, 3.52B "
                 "parameters), batch 1, random tokens, context 128/2048 (the model fed context - 1 tokens): the "
                 "forward under no_grad in eval mode, or a training step (zero_grad, forward, the course "
                 "cross_entropy, backward, the course AdamW step), fp32 or torch.autocast(bfloat16); 5 warm-up steps, "
                 "empty_cache, reset, 3 steps, max_memory_allocated in MiB, on a 96 GB RTX PRO 6000 Blackwell",
        "versions": {"torch": "2.11.0+cu130 (the writeup; pyproject 'torch~=2.11.0')"},
        "date": "2026-06-17 (39a51d0)",
        "project": "Luoluoluo0110/assignment2-systems (a Stanford CS336 assignment 2 solution with writeups)",
        "measured_by": MEASURED_BY[LUKEY],
    },
    WJKEY: {
        "url": f"{WJ}/cs336_systems/hw1/note/CS336_Systems_Problem_2.1.6_Memory_Profiling.md",
        "also": [f"{WJ}/cs336_systems/hw1/benchmark_memory.py", f"{WJ}/cs336-basics/cs336_basics/model.py"],
        "setup": "the course's BasicsTransformerLM as the script's XL_CONFIG builds it (2560/10240, 8 layers, 8 "
                 "heads, vocab 10,000), batch 4, random tokens, context 128/2048: the forward under no_grad, or a "
                 "training step (forward, logits.float().mean(), backward, torch.optim.AdamW step, "
                 "zero_grad(set_to_none)), fp32 or torch.autocast(bfloat16); 1 warm-up step, reset, one step, "
                 "max_memory_allocated in GiB; the GPU is not named",
        "versions": {"torch": "not stated in the stored copy"},
        "date": "2026 (d307e1f, read)",
        "project": "wangjianbin8/assignment2-systems (a Stanford CS336 assignment 2 solution with notes)",
        "measured_by": MEASURED_BY[WJKEY],
    },
}


def basics_config(d_model: int, d_ff: int, layers: int, heads: int, vocab: int, ctx: int) -> dict:
    """The CS336 model as the Llama shapes it has (untied embeddings, RMSNorm, RoPE, SwiGLU), as held-out-35."""
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": d_model,
            "intermediate_size": d_ff, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": heads, "vocab_size": vocab, "max_position_embeddings": ctx,
            "tie_word_embeddings": False, "rms_norm_eps": 1e-5, "hidden_act": "silu", "rope_theta": 10000.0,
            "attention_bias": False, "mlp_bias": False}


def basics(shape: tuple, vocab: int, name: str, ctx: int, seq: int, batch: int, **kw) -> dict:
    d, ff, n, h = shape
    return dict(dict(mode="train", hf_config=basics_config(d, ff, n, h, vocab, ctx), model_name=name,
                     optimizer="adamw", grad_accum=1, seq_len=seq, micro_batch=batch, padding="max_length",
                     attention="eager", loss="standard", grad_ckpt=False, world_size=1,
                     model_impl="transformers", python_ops=["softmax", "silu"]),
                **kw)


BASICS_UNKNOWN = (
    "the model: the course's cs336_basics.BasicsTransformerLM written as its Llama shapes (inline hf_config: untied "
    "token embedding and lm_head, pre-norm RMSNorm, RoPE theta 10,000, SwiGLU, no biases); it is course code, not "
    "transformers': model_impl 'transformers' written (the closest); its Linear multiplies with einsum(x, weight)",
    "attention: hand-written (einsum Q.K^T / sqrt(d_k), a causal mask by torch.where, the course softmax, then einsum "
    "with V): 'eager' with python_ops ['softmax', 'silu'] (the SwiGLU gate is x * sigmoid(x))",
    "the data: random token ids (no padding): padding 'max_length'",
)
AUTOCAST = ("bf16: torch.autocast(device_type='cuda', dtype=torch.bfloat16) around the forward (and loss); fp32 "
            "weights, gradients and AdamW state")

# ------------------------------------------------------------------ 1. Luoluoluo0110 (xl vocab 32k, RTX PRO 6000)
LU_GPU = "RTX-PRO-6000-Blackwell-96GB"
LU_SHAPE = (2560, 10240, 32, 32)
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


LU_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the GPU: 'NVIDIA RTX PRO 6000 Blackwell, 96 GB' (the writeup), which the GPU catalog does not hold (no fits / "
    "does-not-fit verdict is scored for these rows)",
    "torch: '2.11.0+cu130' (the writeup): torch_version '2.11.0' written",
    "benchmark_script.py (39a51d0), run by mem_sweep.py with --memory_profile --profile_step 3: batch_size = 1, "
    "random ids of the context length, the model fed dummy_input[:, :-1] (context - 1 tokens: seq_len written so); "
    "5 warm-up steps, torch.cuda.empty_cache(), reset_peak_memory_stats, _record_memory_history (no GPU allocation), "
    "3 steps, 'peak={max_memory_allocated / 1024**2:.1f} MiB'; the writeup's table prints whole MiB",
)
LU_FWD = ("forward: model.eval() and the model under torch.no_grad() (no loss); no optimizer is built in this mode "
          "(mode 'infer')")
LU_TRAIN = ("full_train: model.train(), optimizer.zero_grad() (torch's Optimizer default, set_to_none), forward, the "
            "course cross_entropy(logits.reshape(-1, V), targets.reshape(-1)) under the precision context, backward, "
            "the course AdamW step (cs336_basics.optimizer: a per-parameter loop): 'adamw' with foreach False")
LU_PRINTED = {("fp32", 128): (13600, 55428), ("bf16", 128): (20137, 55418),
              ("fp32", 2048): (15984, 94847), ("bf16", 2048): (21576, 86045)}
for (prec, ctx), (fwd, train) in LU_PRINTED.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    prec_note = AUTOCAST if prec == "bf16" else "fp32: nullcontext(), no autocast"
    add(LUKEY, f"xl-v32k-{prec}-b1-s{ctx}-forward-nograd", fwd, "MiB", "max_memory_allocated", LU_GPU,
        basics(LU_SHAPE, 32000, "cs336-basics-xl-v32k", ctx, ctx - 1, 1, mode="infer", precision=precision,
               torch_version="2.11.0"),
        unknown=(*LU_UNKNOWN, LU_FWD, prec_note),
        notes=f"Luoluoluo0110/assignment2-systems writeup/memory_profiling_results.md at 39a51d0, '(b) 峰值显存表 (MiB, "
              f"batch=1)': context length {ctx}, forward, {prec} {fwd} MiB")
    extra = ()
    if prec == "fp32" and ctx == 2048:
        extra = ("the allocator: the writeup says this run goes out of memory by default (fragmentation, 'slightly "
                 "over 96GB') and 94847 MiB was measured with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; "
                 "max_memory_allocated counts live tensors, which the setting does not change",)
    add(LUKEY, f"xl-v32k-{prec}-b1-s{ctx}-train", train, "MiB", "max_memory_allocated", LU_GPU,
        basics(LU_SHAPE, 32000, "cs336-basics-xl-v32k", ctx, ctx - 1, 1, precision=precision, foreach=False,
               torch_version="2.11.0", **STAFF_ADAMW),   # est96: Luoluoluo0110 39a51d0
        unknown=(*LU_UNKNOWN, LU_TRAIN, prec_note, *extra, STAFF_ADAMW_NOTE),
        notes=f"Luoluoluo0110/assignment2-systems writeup/memory_profiling_results.md at 39a51d0, '(b) 峰值显存表 (MiB, "
              f"batch=1)': context length {ctx}, full training step, {prec} {train} MiB")

# ------------------------------------------------------------------ 2. wangjianbin8 (2560/10240 x 8 layers)
WJ_GPU = "unstated-GPU"
WJ_SHAPE = (2560, 10240, 8, 8)
WJ_UNKNOWN = (
    *BASICS_UNKNOWN,
    "the shape: benchmark_memory.py's XL_CONFIG builds num_layers 8 and num_heads 8 (its comment says the handout's "
    "32 / 32); the note's forward plateau of ~3.3 GiB is 8 layers' 0.89B fp32 parameters, not 32 layers' 2.7B",
    "the GPU: no note of the repository names it; 'unstated-GPU' written (no fits / does-not-fit verdict is scored)",
    "torch: no version in the stored copy; none written",
    "benchmark_memory.py (d307e1f): batch 4, random ids of the context length fed whole; 1 warm-up step (default "
    "--warmup-steps 1), synchronize, reset_peak_memory_stats, _record_memory_history (no GPU allocation), one step, "
    "'Peak memory: {max_memory_allocated / 1024**3:.3f} GiB'",
    "model.train() is never called nor model.eval(): the module's default (training) mode; the course model has no "
    "dropout",
)
WJ_FWD = ("forward: the model under torch.no_grad() (and the precision context), no loss; no optimizer is built in "
          "this mode (mode 'infer')")
WJ_TRAIN = ("train: forward and loss = logits.float().mean() under the precision context (a reduction of the logits, "
            "no cross-entropy: loss 'logits'), loss.backward(), torch.optim.AdamW(lr 1e-4).step() (foreach, torch's "
            "CUDA default), optimizer.zero_grad(set_to_none=True)")
WJ_FORWARD = {("fp32", 128): 3.439, ("fp32", 2048): 5.831, ("bf16", 128): 4.988, ("bf16", 2048): 6.697}
WJ_TRAIN_PEAKS = {("fp32", 128): 16.740, ("bf16", 128): 16.713}
for (prec, ctx), value in WJ_FORWARD.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    table = "(b) Peak Memory Usage" if prec == "fp32" else "(c) Mixed-Precision Peak Memory"
    add(WJKEY, f"xl8-{prec}-b4-s{ctx}-forward-nograd", value, "GiB", "max_memory_allocated", WJ_GPU,
        basics(WJ_SHAPE, 10000, "cs336-basics-2560x8", ctx, ctx, 4, mode="infer", precision=precision),
        unknown=(*WJ_UNKNOWN, WJ_FWD, AUTOCAST if prec == "bf16" else "fp32: nullcontext(), no autocast"),
        notes=f"wangjianbin8/assignment2-systems CS336_Systems_Problem_2.1.6_Memory_Profiling.md at d307e1f, "
              f"'{table}': context length {ctx}, forward, {prec} {value:.3f} GiB")
for (prec, ctx), value in WJ_TRAIN_PEAKS.items():
    precision = "fp32" if prec == "fp32" else "amp-bf16"
    table = "(b) Peak Memory Usage" if prec == "fp32" else "(c) Mixed-Precision Peak Memory"
    add(WJKEY, f"xl8-{prec}-b4-s{ctx}-train", value, "GiB", "max_memory_allocated", WJ_GPU,
        basics(WJ_SHAPE, 10000, "cs336-basics-2560x8", ctx, ctx, 4, precision=precision, loss="logits",
               foreach=True),
        unknown=(*WJ_UNKNOWN, WJ_TRAIN, AUTOCAST if prec == "bf16" else "fp32: nullcontext(), no autocast"),
        notes=f"wangjianbin8/assignment2-systems CS336_Systems_Problem_2.1.6_Memory_Profiling.md at d307e1f, "
              f"'{table}': context length {ctx}, full training step, {prec} {value:.3f} GiB")

for _row in rows:
    _row["measured_by"] = MEASURED_BY[_row["source"]]


def main():
    write_split("heldout36", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
