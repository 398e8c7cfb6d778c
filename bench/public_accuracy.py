"""The estimator against public GPU measurements (``calibration/public/devset.json``).

Every row is a job as a paper, README or doc published it, with the peak it measured and
how (``max_memory_allocated``, torch's ``peak_memory_active``, ``memory_reserved`` or
``nvidia-smi``). The estimate is compared with the same quantity:

- ``max_memory_allocated`` / ``peak_memory_active``: tensors only (``Estimate.tensor_peak``);
- ``memory_reserved``: tensors plus the allocator's rounding and cached blocks (no context);
- ``nvidia-smi``: the whole per-process figure (context included).

Rows whose job ran out of memory have no peak; they count for the verdicts only. A row with a
``not_scored`` reason (est51: the setup its source states cannot have produced its figure) counts
for no figure; it is estimated and printed with the reason. For each
half of the split (``fit`` / ``held-out``, by source, see the file's ``split_rule``) it prints
mean absolute error, mean signed error, the worst row, the share of measured peaks inside
the estimate's interval, false fits (said fits, the job ran out of memory) and false OOMs
(said it does not fit, the job ran on that GPU). With ``--torch-preflight PATH`` the rows
torch-preflight can express (no LoRA, quantization, FSDP or offload) are estimated by it
too (the model given as an entry point built on the meta device from the same config) and
both tools' figures are printed side by side on those rows.

The splits, which file each ``--split`` scores and where its rows come from: ``bench/public_splits.py``.

Usage::

    python bench/public_accuracy.py [--split held-out|fit|all|held-out-2|...|held-out-45] [--rows] \\
        [--torch-preflight /tmp/estimator/tpvenv/bin/torch-preflight]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from public_splits import (  # noqa: F401  (the split registry, re-exported for tests and bench scripts)
    DEVSET,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    HELDOUT22,
    HELDOUT23,
    HELDOUT24,
    HELDOUT25,
    HELDOUT26,
    HELDOUT27,
    HELDOUT28,
    HELDOUT29,
    HELDOUT30,
    HELDOUT31,
    HELDOUT32,
    HELDOUT33,
    HELDOUT34,
    HELDOUT35,
    REPO,
    SPLIT_FILES,
)

GIB = 2 ** 30
TENSOR_KINDS = ("max_memory_allocated", "peak_memory_active")
SETUP_ONLY = ("model", "hf_config", "model_name", "task", "num_labels", "torch")
WITH_CONTEXT = "allocated+context"
#: memory the process holds outside PyTorch's caching allocator (in nvidia-smi, not reserved)
OUTSIDE_ALLOCATOR = ("cuda_context", "nccl_buffers")
_TASK_HEAD = {"sequence-classification": "ForSequenceClassification"}
#: est39: a reserved or driver reading this close to what the card gives a process is the card's
#: capacity, not the job's need (the caching allocator grows into whatever the card has; see
#: card_full). A scoring rule fixed before re-scoring, not an estimator constant: torch's "total
#: capacity" is the catalog's memory_bytes (+/-5 MiB) and published figures are rounded to
#: whole GiB or GB (0.5 GiB is 0.6% of an 80 GB card).
CARD_FULL_SHARE = 0.99


def load(path: Path = DEVSET) -> Dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _config(setup: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    """(HF config dict, name) of a row's model: its inline config or the catalog's."""
    if "hf_config" in setup:
        return dict(setup["hf_config"]), str(setup.get("model_name", "inline"))
    from preflight import architectures  # type: ignore[attr-defined]

    for entry in architectures.entries():
        if entry["name"] == setup["model"]:
            return dict(entry["config"]), entry["name"]
    raise KeyError(setup["model"])


def architecture(setup: Dict[str, Any]) -> Any:
    from preflight.estimate.arch import from_hf_config

    config, name = _config(setup)
    head = _TASK_HEAD.get(str(setup.get("task")))
    if head:
        base = str((config.get("architectures") or ["Model"])[0])
        stem = base.split("For")[0] if "For" in base else base
        config["architectures"] = [stem + head]
        config["num_labels"] = int(setup.get("num_labels", 2))
    return from_hf_config(config, name=name, source="devset")


def estimate_input(setup: Dict[str, Any], gpu: Any = None) -> Any:
    from preflight.estimate.inputs import EstimateInput

    fields = {k: v for k, v in setup.items() if k not in SETUP_ONLY}
    if "lora_targets" in fields:
        fields["lora_targets"] = tuple(fields["lora_targets"])
    if "python_ops" in fields:   # est73: ops the model writes in Python (python_ops.py)
        fields["python_ops"] = tuple(fields["python_ops"])
    if "datasets" in fields:   # est47: what the job trains on (sample_lengths.py looks them up)
        fields["datasets"] = tuple(fields["datasets"])
    known = set(EstimateInput.__dataclass_fields__)
    unknown = sorted(set(fields) - known)
    fields = {k: v for k, v in fields.items() if k in known}
    inp = EstimateInput(arch=architecture(setup), **fields)
    inp.sources = {name: "devset" for name in fields}
    if gpu is not None and inp.gpu_bf16 is None:
        inp.gpu_bf16 = bool(gpu.bf16)   # what `preflight estimate --gpu` knows of the target
    if gpu is not None and inp.gpu_hopper is None:
        from preflight.estimate.gpu_facts import hopper_or_later

        inp.gpu_hopper = hopper_or_later(gpu)
    if gpu is not None and inp.gpu_blackwell is None:
        from preflight.estimate.gpu_facts import blackwell

        inp.gpu_blackwell = blackwell(gpu)
    if gpu is not None and inp.gpu_link is None:
        from preflight.estimate import nccl

        inp.gpu_link = nccl.link(gpu)
    if gpu is not None and inp.gpu_threads is None:
        from preflight.estimate.gpu_facts import resident_threads

        inp.gpu_threads = resident_threads(gpu)
    return inp, unknown


def comparable(est: Any, kind: str, memory: Optional[int] = None) -> Tuple[int, int, int]:
    """(estimate, low, high) of the quantity ``kind`` measures. ``memory``: the GPU's memory;
    reserved memory's cached blocks of other lengths stop there (``length_cache``)."""
    from preflight.estimate import constants as C
    from preflight.estimate.model import OVERHEAD_TERMS

    peak = est.peak_bytes
    lo, hi = est.interval_bytes
    phase = est.phases[est.phase]
    # what is outside the caching allocator (context, NCCL) leaves each end of the interval
    # with its own low and high (the high end carries the unmodelled band, as the top does)
    point_out = sum(phase.get(t, 0) for t in OUTSIDE_ALLOCATOR)
    lo_out, _, hi_out = getattr(est, "outside_allocator", (0, 0, 0))
    if not (lo_out or hi_out):
        lo_out = hi_out = point_out
    hi_out = int(hi_out * (1 + C.UNMODELLED_HI))
    if kind in TENSOR_KINDS:
        # the allocator's peak: tensors plus, from torch 2.0, the cuBLAS workspaces; active
        # bytes also hold the blocks freed with stream events pending (pending_frees.py)
        value, where = est.active_peak() if kind == "peak_memory_active" else est.allocated_peak()
        drop = sum(v for t, v in est.phases[where].items() if t in OVERHEAD_TERMS)
        drop -= value - sum(v for t, v in est.phases[where].items() if t not in OVERHEAD_TERMS)
        drop -= sum(est.phases[where].get(t, 0) for t in OUTSIDE_ALLOCATOR)
        return value, max(lo - drop - lo_out, 0), max(hi - drop - hi_out, value)
    if kind == WITH_CONTEXT:
        tensors, lo_t, hi_t = comparable(est, TENSOR_KINDS[0])
        _, where = est.allocated_peak()
        ctx = sum(est.phases[where].get(t, 0) for t in OUTSIDE_ALLOCATOR)
        return tensors + ctx, lo_t + lo_out, hi_t + hi_out
    if kind == "memory_reserved":
        return _capped(est, (peak - point_out, max(lo - lo_out, 0), max(hi - hi_out, peak - point_out)),
                       None if memory is None else memory - point_out)
    if kind == "nvidia-smi":
        # a paged optimizer's states are prefetched to the GPU every step and stay resident
        # while there is room: the driver's figure holds them (paged_resident.py)
        from preflight.estimate.paged_resident import resident_paged_bytes

        peak = peak + int(resident_paged_bytes(peak, getattr(est, "paged_bytes", 0), memory))
    return _capped(est, (peak, lo, max(hi, peak)), memory)


def card_full(row: Dict[str, Any], gpu: Any, context_bytes: int = 0) -> bool:
    """Whether a measured row's reading is the card's capacity: an nvidia-smi figure (context
    included), or a reserved figure plus the CUDA context the estimate charges (reserved leaves it
    out), at or above ``CARD_FULL_SHARE`` of the memory the card gives a process. The job ran, so
    such a row says only "it fits": it counts for the verdicts (a false OOM) and is left out of the
    error figures, whose rows measure what a job holds."""
    peak = row.get("peak_bytes")
    if not peak or gpu is None or row.get("measured") not in ("nvidia-smi", "memory_reserved"):
        return False
    reading = peak + (context_bytes if row["measured"] == "memory_reserved" else 0)
    return reading >= CARD_FULL_SHARE * int(gpu.memory_bytes)


def _capped(est: Any, values: Tuple[int, int, int], capacity: Optional[int]) -> Tuple[int, int, int]:
    from preflight.estimate.length_cache import within_capacity

    if capacity is None:
        return values
    r_lo, r_point, r_hi = est.reclaimable
    return (int(within_capacity(values[0], r_point, capacity)),
            int(within_capacity(values[1], r_lo, capacity)),
            int(within_capacity(values[2], r_hi, capacity)))


@dataclass
class Result:
    row: Dict[str, Any]
    estimate: Optional[int] = None
    low: Optional[int] = None
    high: Optional[int] = None
    verdict: Optional[str] = None
    error: Optional[float] = None
    problem: str = ""
    #: the reading is the card's capacity (card_full): verdict only, no error
    full_card: bool = False
    #: est51: the row's ``not_scored`` reason: its stated setup cannot have produced its figure,
    #: so neither its error nor its verdict is scored (estimated and printed only)
    not_scored: str = ""

    @property
    def inside(self) -> bool:
        m = self.row.get("peak_bytes")
        return m is not None and self.low is not None and self.low <= m <= (self.high or 0)


def evaluate(row: Dict[str, Any]) -> Result:
    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import estimate, verdict

    res = Result(row)
    try:
        inp, unknown = estimate_input(row["setup"], hardware.find(row["gpu"]))
    except Exception as exc:
        res.problem = f"cannot build the input: {exc}"
        return res
    est = estimate(inp)
    if not est.ok:
        res.problem = "; ".join(est.missing)
        return res
    gpu = hardware.find(row["gpu"])
    res.estimate, res.low, res.high = comparable(est, row["measured"],
                                                 int(gpu.memory_bytes) if gpu is not None else None)
    res.verdict = verdict(est, gpu) if gpu is not None else None
    context = sum(est.phases[est.phase].get(t, 0) for t in OUTSIDE_ALLOCATOR)
    res.full_card = card_full(row, gpu, context)
    res.not_scored = str(row.get("not_scored") or "")
    if row.get("peak_bytes") and not res.full_card and not res.not_scored:
        res.error = (res.estimate - row["peak_bytes"]) / row["peak_bytes"]
    if unknown:
        res.problem = "not read: " + ", ".join(unknown)
    return res


def summary(results: List[Result], label: str) -> Dict[str, Any]:
    measured = [r for r in results if r.error is not None]
    errs = [r.error for r in measured]
    out: Dict[str, Any] = {"label": label, "rows": len(results), "measured": len(measured)}
    if errs:
        worst = max(measured, key=lambda r: abs(r.error or 0))
        out.update(mae=sum(abs(e) for e in errs) / len(errs), mse=sum(errs) / len(errs),
                   worst=(worst.row["id"], worst.error),
                   inside=sum(1 for r in measured if r.inside) / len(measured))
        widths = sorted((r.high - r.low) / r.estimate for r in measured
                        if r.estimate and r.low is not None and r.high is not None)
        if widths:
            out["median_width"] = widths[len(widths) // 2]
    out["false_fits"] = [r.row["id"] for r in results if not r.not_scored
                         and r.row.get("outcome") == "oom" and r.verdict == "fits"]
    out["false_ooms"] = [r.row["id"] for r in results if not r.not_scored
                         and r.row.get("outcome") == "ran" and r.verdict in ("oom", "likely-oom")]
    out["unestimated"] = [r.row["id"] for r in results if r.estimate is None]
    out["full_card"] = [r.row["id"] for r in results if r.full_card]
    out["not_scored"] = [r.row["id"] for r in results if r.not_scored]
    return out


def format_summary(s: Dict[str, Any]) -> str:
    if "mae" not in s:
        return f"{s['label']}: {s['rows']} rows, none measured and estimated"
    inside = "n/a (no interval)" if s.get("inside") is None else f"{s['inside']:.0%}"
    if s.get("median_width") is not None:
        inside += f" (median width {s['median_width']:.0%} of the estimate)"
    return (f"{s['label']}: {s['measured']} measured peaks ({s['rows']} rows) | mean |error| "
            f"{s['mae']:.1%} | mean signed {s['mse']:+.1%} | worst {s['worst'][1]:+.1%} "
            f"({s['worst'][0]}) | inside interval {inside} | false fits "
            f"{len(s['false_fits'])} | false OOMs {len(s['false_ooms'])}"
            + (f" | not estimated {len(s['unestimated'])}" if s["unestimated"] else "")
            + (f" | card-full readings {len(s['full_card'])} (verdict only)" if s.get("full_card") else "")
            + (f" | not scored {len(s['not_scored'])}" if s.get("not_scored") else ""))


# --------------------------------------------------------------------------- torch-preflight

_TP_DTYPE = {"fp32": "fp32", "amp-bf16": "amp", "amp-fp16": "amp", "bf16": "pure-bf16",
             "fp16": "pure-fp16"}
_TP_OPT = {"adamw": "adamw", "adamw-fused": "adamw", "adamw-8bit": "adamw-8bit",
           "paged-adamw-8bit": "adamw-8bit", "adafactor": "adafactor", "sgd": "sgd",
           "sgd-momentum": "sgd-momentum", "lion": "lion"}


def tp_expressible(setup: Dict[str, Any]) -> bool:
    return not (setup.get("lora_r") or setup.get("quant") or setup.get("fsdp")
                or setup.get("offload_params") or setup.get("offload_optimizer"))


def torch_preflight(exe: str, row: Dict[str, Any]) -> Optional[Tuple[int, Optional[bool]]]:
    """(comparable bytes, fits on the row's GPU) from torch-preflight, None if it cannot."""
    s = row["setup"]
    if not tp_expressible(s) or s.get("precision") not in _TP_DTYPE:
        return None
    mode = s.get("mode", "train")
    if mode == "train" and s.get("optimizer", "adamw") not in _TP_OPT:
        return None
    from preflight import hardware  # type: ignore[attr-defined]

    gpu = hardware.find(row["gpu"])
    if s.get("image_size"):
        shape = ["--image-size", str(s["image_size"])]
    elif s.get("seq_len"):
        shape = ["--seq-len", str(s["seq_len"])]
    else:
        return None
    # a GPU the catalog lacks: no --gpu-memory, and no fits/does-not-fit verdict
    memory = ["--gpu-memory", f"{gpu.memory_bytes // 2 ** 20}MiB"] if gpu is not None else []
    cmd = [exe, "estimate", "--model", f"{Path(__file__).resolve().parent / 'tp_models.py'}:devset_model",
           "--model-args", f"row={row['id']}", "--batch-size", str(s.get("micro_batch", 1)),
           "--dtype", _TP_DTYPE[s["precision"]], *shape, *memory, "-f", "json"]
    if mode == "train":
        cmd += ["--optimizer", _TP_OPT[s.get("optimizer", "adamw")]]
        if s.get("grad_ckpt"):
            cmd.append("--checkpointing")
    elif mode == "generate":
        cmd += ["--generate", "--max-context", str(s["seq_len"] + s.get("max_new_tokens", 0))]
    else:
        cmd.append("--inference")
    if s.get("attention", "sdpa") in ("sdpa", "flash"):
        cmd.append("--flash")
    ws = int(s.get("world_size", 1))
    if ws > 1:
        cmd += ["--world-size", str(ws)]
        if s.get("zero_stage"):
            cmd += ["--sharding", f"zero-{s['zero_stage']}"]
        else:
            cmd += ["--sharding", "ddp"]
    # this interpreter's torch and transformers (some arrive through a .pth file)
    paths = [str(REPO), *[p for p in sys.path if p.endswith("site-packages")]]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None
    if not doc.get("resolved") or not doc.get("total_bytes"):
        return None   # it could not build or size the model: not expressible
    total = int(doc["total_bytes"])
    bd = doc.get("breakdown", {})
    ctx = int(bd.get("CUDA_context", 0))
    frag = int(bd.get("fragmentation", 0))
    if row["measured"] in TENSOR_KINDS:
        value = total - ctx - frag
    elif row["measured"] == WITH_CONTEXT:
        value = total - frag
    elif row["measured"] == "memory_reserved":
        value = total - ctx
    else:
        value = total
    return value, (total <= gpu.memory_bytes if gpu is not None else None)


def tp_summary(pairs: List[Tuple[Dict[str, Any], int, Optional[bool]]], label: str,
               full_card: Optional[set] = None) -> Dict[str, Any]:
    """torch-preflight's figures on the same rows; ``full_card``: ids of card-full readings, left
    out of the error figures as they are for preflight (verdicts only)."""
    out: Dict[str, Any] = {"label": label, "rows": len(pairs)}
    skip = full_card or set()
    measured = [(r, (v - r["peak_bytes"]) / r["peak_bytes"]) for r, v, _ in pairs
                if r.get("peak_bytes") and r["id"] not in skip]
    if measured:
        errs = [e for _, e in measured]
        worst = max(measured, key=lambda x: abs(x[1]))
        out.update(measured=len(measured), mae=sum(abs(e) for e in errs) / len(errs),
                   mse=sum(errs) / len(errs), worst=(worst[0]["id"], worst[1]), inside=None)
    out["false_fits"] = [r["id"] for r, _, fits in pairs if r.get("outcome") == "oom" and fits is True]
    out["false_ooms"] = [r["id"] for r, _, fits in pairs if r.get("outcome") == "ran" and fits is False]
    out["unestimated"] = []
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="held-out",
                        choices=("held-out", "fit", "all", "held-out-2", "held-out-3", "held-out-4",
                                 "held-out-5", "held-out-6", "held-out-7", "held-out-8",
                                 "held-out-9", "held-out-10", "held-out-11", "held-out-12",
                                 "held-out-13", "held-out-14", "held-out-15", "held-out-16",
                                 "held-out-17", "held-out-18", "held-out-19", "held-out-20",
                                 "held-out-21", "held-out-22", "held-out-23",
                                 "held-out-24", "held-out-25", "held-out-26",
                                 "held-out-27", "held-out-28", "held-out-29",
                                 "held-out-30", "held-out-31", "held-out-32",
                                 "held-out-33", "held-out-34", "held-out-35",
                                 "held-out-36", "held-out-37",
                                 "held-out-38", "held-out-39",
                                 "held-out-40", "held-out-41", "held-out-42",
                                 "held-out-43", "held-out-44", "held-out-45"))
    parser.add_argument("--rows", action="store_true", help="print every row")
    parser.add_argument("--torch-preflight", metavar="PATH",
                        help="torch-preflight console script (a separate venv) to compare")
    parser.add_argument("--json", metavar="FILE", help="write the summaries as JSON")
    parser.add_argument("--fit-interval", action="store_true",
                        help="print the fitting half's measured/interval-top 90th percentile "
                             "(preflight.estimate.constants.UNMODELLED_HI is fitted from it)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    doc = load(SPLIT_FILES.get(args.split, DEVSET))
    if args.fit_interval:
        doc = load(DEVSET)
        from preflight.estimate import constants as C

        fit = [evaluate(r) for r in doc["rows"] if r["split"] == "fit"]
        ratios = sorted(r.row["peak_bytes"] / (r.high / (1 + C.UNMODELLED_HI)) for r in fit
                        if r.row.get("peak_bytes") and r.high)
        below = sum(1 for r in fit if r.row.get("peak_bytes") and r.low and r.row["peak_bytes"] < r.low)
        q90 = ratios[int(0.9 * len(ratios) + 0.999999) - 1]
        print(f"fitting half: {len(ratios)} measured peaks, {below} below the interval's bottom; "
              f"measured / top (without the band), 90th percentile {q90:.3f}")
        return 0
    rows = [r for r in doc["rows"] if args.split == "all" or r["split"] == args.split]
    results = [evaluate(r) for r in rows]
    tp_pairs: List[Tuple[Dict[str, Any], int, Optional[bool]]] = []
    tp_by_id: Dict[str, Tuple[int, Optional[bool]]] = {}
    if args.torch_preflight:
        for r in rows:
            got = None if r.get("not_scored") else torch_preflight(args.torch_preflight, r)
            if got is not None:
                tp_by_id[r["id"]] = got
                tp_pairs.append((r, got[0], got[1]))
    if args.rows:
        print(f"{'row':72s} {'kind':>10s} {'GiB':>7s} {'est':>7s} {'err':>7s} in {'verdict':10s}"
              + (f" {'tp':>7s} {'err':>7s}" if args.torch_preflight else ""))
        for res in results:
            r = res.row
            m = r.get("peak_bytes")
            line = (f"{r['id'][:72]:72s} {r['measured'][:10]:>10s} "
                    f"{(m / GIB if m else 0):7.2f} "
                    + (f"{res.estimate / GIB:7.2f} " if res.estimate else f"{'-':>7s} ")
                    + (f"{res.error:+7.1%} " if res.error is not None else
                       f"{'full' if res.full_card else 'n/s' if res.not_scored else r['outcome']:>7s} ")
                    + ("- " if res.full_card or res.not_scored else "y " if res.inside else "n " if m and res.estimate else "- ")
                    + f"{res.verdict!s:10s}")
            if args.torch_preflight:
                tp = tp_by_id.get(r["id"])
                if tp is None:
                    line += f" {'-':>7s} {'-':>7s}"
                else:
                    err = (tp[0] - m) / m if m else None
                    line += f" {tp[0] / GIB:7.2f} " + (f"{err:+7.1%}" if err is not None else
                                                       ("fits" if tp[1] else "-" if tp[1] is None else "oom"))
            if res.full_card:
                line += "  [card-full reading: verdict only]"
            if res.not_scored:
                line += f"  [not scored: {res.not_scored}]"
            if res.problem:
                line += f"  [{res.problem}]"
            print(line)
        print()
    label = {"held-out": "held-out", "fit": "fitting half (in-sample)",
             "all": "all rows (includes the fitting half)",
             "held-out-2": "held-out-2 (second held-out set)",
             "held-out-3": "held-out-3 (third held-out set)",
             "held-out-4": "held-out-4 (fourth held-out set)",
             "held-out-5": "held-out-5 (fifth held-out set)",
             "held-out-6": "held-out-6 (sixth held-out set)",
             "held-out-7": "held-out-7 (seventh held-out set)",
             "held-out-8": "held-out-8 (eighth held-out set)",
             "held-out-9": "held-out-9 (ninth held-out set)",
             "held-out-10": "held-out-10 (tenth held-out set)",
             "held-out-11": "held-out-11 (eleventh held-out set)",
             "held-out-12": "held-out-12 (twelfth held-out set)",
             "held-out-13": "held-out-13 (thirteenth held-out set)",
             "held-out-14": "held-out-14 (fourteenth held-out set)",
             "held-out-15": "held-out-15 (fifteenth held-out set)",
             "held-out-16": "held-out-16 (sixteenth held-out set)",
             "held-out-17": "held-out-17 (seventeenth held-out set)",
             "held-out-18": "held-out-18 (eighteenth held-out set)",
             "held-out-19": "held-out-19 (nineteenth held-out set)",
             "held-out-20": "held-out-20 (twentieth held-out set)",
             "held-out-21": "held-out-21 (twenty-first held-out set)",
             "held-out-22": "held-out-22 (twenty-second held-out set)",
             "held-out-23": "held-out-23 (twenty-third held-out set)",
             "held-out-24": "held-out-24 (twenty-fourth held-out set)",
             "held-out-25": "held-out-25 (twenty-fifth held-out set)",
             "held-out-26": "held-out-26 (twenty-sixth held-out set)",
             "held-out-27": "held-out-27 (twenty-seventh held-out set)",
             "held-out-28": "held-out-28 (twenty-eighth held-out set)",
             "held-out-29": "held-out-29 (twenty-ninth held-out set)",
             "held-out-30": "held-out-30 (thirtieth held-out set)",
             "held-out-31": "held-out-31 (thirty-first held-out set)",
             "held-out-32": "held-out-32 (thirty-second held-out set)",
             "held-out-33": "held-out-33 (thirty-third held-out set)",
             "held-out-34": "held-out-34 (thirty-fourth held-out set)",
             "held-out-35": "held-out-35 (thirty-fifth held-out set)",
             "held-out-36": "held-out-36 (thirty-sixth held-out set)",
             "held-out-37": "held-out-37 (thirty-seventh held-out set)",
             "held-out-38": "held-out-38 (thirty-eighth held-out set)",
             "held-out-39": "held-out-39 (thirty-ninth held-out set)",
             "held-out-40": "held-out-40 (fortieth held-out set)",
             "held-out-41": "held-out-41 (forty-first held-out set)",
             "held-out-42": "held-out-42 (forty-second held-out set)",
             "held-out-43": "held-out-43 (forty-third held-out set)",
             "held-out-44": "held-out-44 (forty-fourth held-out set)",
             "held-out-45": "held-out-45 (forty-fifth held-out set)"}[args.split]
    ours = summary(results, f"preflight, {label}")
    print(format_summary(ours))
    out = {"split": args.split, "preflight": ours}
    if args.torch_preflight:
        ids = set(tp_by_id)
        both = [res for res in results if res.row["id"] in ids and res.estimate is not None]
        ids &= {res.row["id"] for res in both}
        mine = summary(both, f"preflight on the {len(both)} rows torch-preflight expresses")
        theirs = tp_summary([p for p in tp_pairs if p[0]["id"] in ids],
                            f"torch-preflight on the same {len(ids)} rows",
                            {res.row["id"] for res in both if res.full_card})
        print(format_summary(mine))
        print(format_summary(theirs))
        out.update(preflight_common=mine, torch_preflight=theirs)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
