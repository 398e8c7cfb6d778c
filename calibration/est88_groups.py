"""Group the estimator's per-row signed error by what the rows share, over a chosen range of
public splits (issue 17, est88).

Every row of the chosen splits is scored exactly as ``bench/public_accuracy.py --rows`` scores it
(``evaluate``: card-full readings and ``not_scored`` rows carry no error). The rows are then
grouped by split, source, framework (``model_impl`` / library), precision, optimizer, sharding,
model family (``model_type``), mode, attention, measured reading, and a few setup switches; each
group prints its scored peaks, sources, mean signed error, mean |error| and its *deficit share*:
the group's part of the pool's total signed error (sum of the group's signed errors over the
pool's), so the groups that move the pooled signed error most come first.

The range matters for honesty: a term is chosen on ``--upto 30`` (held-out, held-out-2 ..
held-out-30) and checked on ``--from 31 --upto 42``. held-out-43 was not read then (est90: it is in-sample
now and the cap is :data:`LAST`; a split still being built blind stays above it). As
``calibration/public/est62_pool.py`` pools, the fitting half is left out unless ``--from -1``; the
figures here are per peak (every peak weighs the same), so ``--from 1 --upto 42`` gives the pool's
peaks, MAE and signed error (771 peaks, 6.98% / -3.24% at stop 60).

Usage::

    python calibration/est88_groups.py --upto 30 [--by source,precision] [--rows GROUP=VALUE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402

#: the last split these groups read (est90: held-out-43, in-sample since stop 61)
LAST = 43


def _split_no(name: str) -> int:
    if name == "fit":
        return -1
    if name == "held-out":
        return 1
    return int(name.rsplit("-", 1)[1])


def _files(lo: int, hi: int) -> List[Path]:
    out = [pa.DEVSET] if lo <= 1 else []
    for name, path in pa.SPLIT_FILES.items():
        if lo <= _split_no(name) <= hi and _split_no(name) <= LAST:
            out.append(path)
    return out


def _sharding(s: Dict[str, Any]) -> str:
    if s.get("zero_stage"):
        off = "+offload" if s.get("offload_params") or s.get("offload_optimizer") else ""
        return f"zero{s['zero_stage']}{off}"
    if s.get("fsdp"):
        return "fsdp" + ("+offload" if s.get("offload_params") else "")
    return "ddp" if int(s.get("world_size", 1)) > 1 else "one-gpu"


def _family(s: Dict[str, Any]) -> str:
    try:
        return str(pa._config(s)[0].get("model_type", "")) or "?"
    except Exception:
        return "?"


KEYS: Dict[str, Callable[[Dict[str, Any]], str]] = {
    "split": lambda r: r["split"],
    "source": lambda r: r["source"],
    "framework": lambda r: str(r["setup"].get("model_impl") or "hf"),
    "precision": lambda r: str(r["setup"].get("precision")),
    "optimizer": lambda r: str(r["setup"].get("optimizer", "adamw")),
    "sharding": lambda r: _sharding(r["setup"]),
    "family": lambda r: _family(r["setup"]),
    "mode": lambda r: str(r["setup"].get("mode", "train")),
    "attention": lambda r: str(r["setup"].get("attention", "sdpa")),
    "measured": lambda r: r["measured"],
    "quant": lambda r: str(r["setup"].get("quant") or "none"),
    "lora": lambda r: "lora" if r["setup"].get("lora_r") else "full",
    "ckpt": lambda r: "ckpt" if r["setup"].get("grad_ckpt") else "no-ckpt",
    "loss": lambda r: str(r["setup"].get("loss", "standard")),
}


def scored(lo: int, hi: int) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for path in _files(lo, hi):
        for row in pa.load(path)["rows"]:
            if not lo <= _split_no(row["split"]) <= hi:
                continue
            res = pa.evaluate(row)
            if res.error is None:
                continue
            out.append({"id": row["id"], "split": row["split"], "source": row["source"],
                        "setup": row["setup"], "measured": row["measured"],
                        "error": res.error, "inside": res.inside})
    return out


def groups(recs: List[Dict[str, Any]], key: str) -> List[Tuple[str, Dict[str, Any]]]:
    by: Dict[str, List[Dict[str, Any]]] = {}
    for r in recs:
        by.setdefault(KEYS[key](r), []).append(r)
    total = sum(r["error"] for r in recs) or 1.0
    out = []
    for name, got in by.items():
        errs = [r["error"] for r in got]
        out.append((name, {"n": len(got), "sources": len({r["source"] for r in got}),
                           "signed": sum(errs) / len(errs),
                           "mae": sum(abs(e) for e in errs) / len(errs),
                           "share": sum(errs) / total}))
    return sorted(out, key=lambda kv: -kv[1]["share"])


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="lo", type=int, default=1,
                    help="first split number (held-out = 1; -1 adds the fitting half, which the pool leaves out)")
    ap.add_argument("--upto", type=int, default=30, help="last split number (at most LAST)")
    ap.add_argument("--by", default=",".join(KEYS), help="comma-separated group keys")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--rows", metavar="KEY=VALUE", help="list one group's rows")
    args = ap.parse_args(argv)
    recs = scored(args.lo, min(args.upto, LAST))
    n = len(recs)
    print(f"splits {args.lo}..{min(args.upto, LAST)}: {n} scored peaks, signed "
          f"{sum(r['error'] for r in recs) / n:+.2%}, MAE {sum(abs(r['error']) for r in recs) / n:.2%}")
    if args.rows:
        key, value = args.rows.split("=", 1)
        for r in sorted((r for r in recs if KEYS[key](r) == value), key=lambda r: r["error"]):
            print(f"  {r['error']:+7.1%}  {r['split']:12s} {r['id']}")
        return 0
    for key in args.by.split(","):
        print(f"\n== by {key} (group, peaks, sources, signed, MAE, share of the pool's signed sum)")
        for name, st in groups(recs, key)[:args.top]:
            print(f"  {name[:60]:60s} {st['n']:4d} {st['sources']:3d} {st['signed']:+7.1%} "
                  f"{st['mae']:6.1%} {st['share']:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
