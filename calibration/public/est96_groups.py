"""est96: where the pooled signed error lives, the held-out pool's measured peaks grouped by regime (issue 17).

Evaluates every measured row of the 45 held-out splits (``held-out`` .. ``held-out-45``; the fitting half is
left out, as ``est62_pool.py`` leaves it out of the pool) exactly as ``bench/public_accuracy.py`` scores it
(``evaluate``: only rows with a signed error count) and groups the peaks by:

- ``size``: the model's parameter count (``preflight.estimate.params.count_params``): < 1B, 1-10B, > 10B;
- ``tuning``: full (train, no adapter), LoRA on a 16-bit base, QLoRA (4-bit base), 8-bit base (LLM.int8),
  or not training (generation / inference);
- ``precision``: fp32, AMP (``amp-fp16`` / ``amp-bf16``), pure 16-bit (``fp16`` / ``bf16``);
- ``measured``: tensors only (``max_memory_allocated``, ``peak_memory_active``), ``allocated+context``,
  ``memory_reserved``, ``nvidia-smi``;
- ``sharding``: one GPU, DDP, ZeRO-1/2/3, FSDP (``+ offload`` when parameters or optimizer state are offloaded);
- ``framework``: the training library the source names (``bench/public_groups.library``);
- ``halves``: held-out-31..45 even / odd (est96's choice / check halves) and the earlier splits.

Each group line gives peaks, sources, MAE, mean signed error, the share of rows inside the interval and the group's
share of the pool's signed error, with the median and the signed error averaged per source first (``by-src``: one large
source cannot carry a group) (``contrib``: the group's summed signed error over all the pool's peaks, so the
contributions of one grouping add up to the pooled signed figure). ``--cross A,B`` crosses two groupings.
``--worst N`` lists the N most negative rows of a group (``--group KEY=VALUE``); ``--smi`` gives the nvidia-smi
peaks' shortfall in GiB for one-GPU 16-bit, one-GPU 4-/8-bit and several-GPU jobs; ``--bands`` each measured
quantity by the reading's size.

Every split has been read by someone tuning the estimator, so every figure this prints is **in-sample**.

Usage::

    .venv/bin/python calibration/public/est96_groups.py [--cross size,precision] [--smi] [--bands] [--group precision=fp32 --worst 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402
import public_groups as pg  # noqa: E402

from preflight.estimate.params import count_params  # noqa: E402


def _size(rec: Dict[str, Any]) -> str:
    n = rec["params"]
    return "< 1B" if n < 1e9 else "1-10B" if n <= 10e9 else "> 10B"


def _tuning(rec: Dict[str, Any]) -> str:
    s = rec["setup"]
    if s.get("mode", "train") != "train":
        return "no training"
    if s.get("quant") == "4bit":
        return "QLoRA (4-bit)"
    if s.get("quant") == "8bit":
        return "8-bit base"
    return "LoRA (16-bit base)" if s.get("lora_r") else "full"


def _precision(rec: Dict[str, Any]) -> str:
    p = str(rec["setup"].get("precision", ""))
    if p == "fp32":
        return "fp32"
    if p.startswith("amp"):
        return "AMP (" + p[4:] + ")"
    return "pure " + p if p else "unstated"


def _measured(rec: Dict[str, Any]) -> str:
    m = rec["measured"]
    return "allocated" if m in ("max_memory_allocated", "peak_memory_active") else str(m)


def _half(rec: Dict[str, Any]) -> str:
    split = rec["split"]
    num = int(split.rsplit("-", 1)[1]) if split[-1].isdigit() else 1
    if num < 31:
        return "held-out .. held-out-30"
    return "held-out-31..45 even (choose)" if num % 2 == 0 else "held-out-31..45 odd (check)"


def _sharding(rec: Dict[str, Any]) -> str:
    s = rec["setup"]
    if s.get("fsdp"):
        return "FSDP" + (" + offload" if s.get("offload_params") or s.get("offload_optimizer") else "")
    if s.get("zero_stage"):
        return f"ZeRO-{s['zero_stage']}" + (" + offload" if s.get("offload_params") or s.get("offload_optimizer")
                                             else "")
    return "DDP" if int(s.get("world_size", 1)) > 1 else "one GPU"


KEYS: Dict[str, Callable[[Dict[str, Any]], str]] = {
    "size": _size,
    "tuning": _tuning,
    "precision": _precision,
    "measured": _measured,
    "sharding": _sharding,
    "framework": lambda r: pg.library(str(r["source"])),
    "halves": _half,
}


def pool_rows() -> List[Dict[str, Any]]:
    """One record per measured, scored peak of the 45 held-out splits."""
    rows = [r for r in pa.load(pa.DEVSET)["rows"] if r["split"] == "held-out"]
    for path in pa.SPLIT_FILES.values():
        rows += json.loads(Path(path).read_text(encoding="utf-8"))["rows"]
    out = []
    for row in rows:
        res = pa.evaluate(row)
        if res.error is None:
            continue
        inp, _ = pa.estimate_input(row["setup"], None)
        out.append({"id": row["id"], "split": row["split"], "source": row["source"], "setup": row["setup"],
                    "measured": row["measured"], "error": float(res.error), "inside": bool(res.inside),
                    "params": count_params(inp.arch).total,
                    "deficit": (int(row["peak_bytes"]) - int(res.estimate or 0)) / 2 ** 30,
                    "gib": int(row["peak_bytes"]) / 2 ** 30})
    return out


def _by_source(recs: List[Dict[str, Any]]) -> float:
    """Signed error averaged per source first: one large source cannot carry a group."""
    by: Dict[str, List[float]] = {}
    for r in recs:
        by.setdefault(r["source"], []).append(r["error"])
    return statistics.mean(statistics.mean(v) for v in by.values())


def _line(name: str, recs: List[Dict[str, Any]], total: int) -> str:
    n = len(recs)
    errs = [r["error"] for r in recs]
    return (f"  {name:44s} {n:4d} {len({r['source'] for r in recs}):4d} {100 * sum(abs(e) for e in errs) / n:6.2f}% "
            f"{100 * sum(errs) / n:+7.2f}% {100 * statistics.median(errs):+7.2f}% {100 * _by_source(recs):+7.2f}% "
            f"{100 * sum(r['inside'] for r in recs) / n:5.1f}% {100 * sum(errs) / total:+7.2f}%")


HEADER = (f"  {'group':44s} {'n':>4s} {'src':>4s} {'MAE':>7s} {'signed':>8s} {'median':>8s} {'by-src':>8s} "
          f"{'in':>6s} {'contrib':>8s}")


def grouped(recs: List[Dict[str, Any]], keys: List[str]) -> Dict[str, List[Dict[str, Any]]]:
    out: Dict[str, List[Dict[str, Any]]] = {}
    for r in recs:
        out.setdefault(" | ".join(KEYS[k](r) for k in keys), []).append(r)
    return dict(sorted(out.items(), key=lambda kv: sum(r["error"] for r in kv[1])))


def smi_deficits(recs: List[Dict[str, Any]]) -> None:
    """The nvidia-smi peaks' shortfall in GiB (measured - estimated), the median per source first, for three
    kinds of job: one GPU with a 16-bit base and no sharding (what the CUDA context and the allocator's cache
    charge is tested here alone), one GPU with a 4-/8-bit base, and several GPUs."""
    kinds = (("one GPU, 16-bit base, unsharded",
              lambda r: _sharding(r) == "one GPU" and not r["setup"].get("quant")),
             ("one GPU, 4-/8-bit base", lambda r: _sharding(r) == "one GPU" and bool(r["setup"].get("quant"))),
             ("several GPUs", lambda r: _sharding(r) != "one GPU"))
    print("\nnvidia-smi peaks: shortfall (measured - estimated), median per source, then over sources")
    for name, pred in kinds:
        sel = [r for r in recs if r["measured"] == "nvidia-smi" and pred(r)]
        by: Dict[str, List[float]] = {}
        for r in sel:
            by.setdefault(r["source"], []).append(r["deficit"])
        med = statistics.median(statistics.median(v) for v in by.values())
        print(f"  {name:34s} {len(sel):3d} peaks {len(by):3d} sources | median shortfall {med:+.2f} GiB | "
              f"median error {100 * statistics.median(r['error'] for r in sel):+.1f}%")


def size_bands(recs: List[Dict[str, Any]]) -> None:
    """Each measured quantity's peaks by the reading's size: median error and median shortfall in MiB (a constant
    missing term shows as a shortfall that stays put while the error shrinks with size; a proportional one as an
    error that stays put)."""
    print("\nby measured quantity and reading size: median error, median shortfall (measured - estimated)")
    for kind in ("allocated", "memory_reserved", "nvidia-smi"):
        for lo, hi in ((0, 2), (2, 5), (5, 10), (10, 20), (20, 40), (40, 1000)):
            sel = [r for r in recs if _measured(r) == kind and lo <= r["gib"] < hi]
            if sel:
                print(f"  {kind:16s} {lo:3d}-{hi:<4d} GiB {len(sel):4d} peaks {len({r['source'] for r in sel}):3d} "
                      f"sources | median error {100 * statistics.median(r['error'] for r in sel):+5.1f}% | median "
                      f"shortfall {1024 * statistics.median(r['deficit'] for r in sel):+6.0f} MiB")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cross", action="append", default=[], help="two groupings crossed, e.g. size,precision")
    ap.add_argument("--group", help="KEY=VALUE: list the rows of one group (with --worst)")
    ap.add_argument("--worst", type=int, default=0)
    ap.add_argument("--smi", action="store_true", help="the nvidia-smi peaks' shortfall in GiB by kind of job")
    ap.add_argument("--bands", action="store_true", help="each measured quantity by the reading's size")
    args = ap.parse_args(argv)
    recs = pool_rows()
    total = len(recs)
    errs = [r["error"] for r in recs]
    print(f"pool of the held-out splits (IN-SAMPLE): {total} peaks | MAE {100 * sum(abs(e) for e in errs) / total:.2f}% "
          f"| signed {100 * sum(errs) / total:+.2f}% | inside {100 * sum(r['inside'] for r in recs) / total:.1f}%")
    print("groups sorted by their contribution to the pooled signed error (most negative first)")
    for key in list(KEYS) if not args.group else []:
        print(f"\nby {key}:\n{HEADER}")
        for name, sel in grouped(recs, [key]).items():
            print(_line(name, sel, total))
    for cross in args.cross:
        keys = [k.strip() for k in cross.split(",")]
        print(f"\nby {' x '.join(keys)}:\n{HEADER}")
        for name, sel in grouped(recs, keys).items():
            print(_line(name, sel, total))
    if args.smi:
        smi_deficits(recs)
    if args.bands:
        size_bands(recs)
    if args.group:
        key, value = args.group.split("=", 1)
        sel = sorted((r for r in recs if KEYS[key](r) == value), key=lambda r: r["error"])
        print(f"\n{key} = {value}: {len(sel)} peaks, most negative first")
        for r in sel[: args.worst or len(sel)]:
            print(f"  {r['split']:12s} {r['id'][:78]:78s} {r['measured'][:12]:12s} {r['params'] / 1e9:6.2f}B "
                  f"{100 * r['error']:+6.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
