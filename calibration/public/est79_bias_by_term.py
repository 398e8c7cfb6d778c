"""Where the pooled negative signed error sits: by split, by reading, by peak phase, by term and by setting (est79).

Every row of the given splits is scored exactly as ``bench/public_accuracy.py`` scores it (its ``evaluate``:
card-full readings and ``not_scored`` rows carry no error). Each table gives, per group, the scored rows, the mean
signed error, the mean absolute error, the share under-estimated and the group's **share of the pooled signed
error** (its summed signed error over all scored rows, so a column of disjoint groups adds up to the row-weighted
pooled signed error, which equals est62_pool.py's peak-weighted pool of the held-out splits).

Groupings:

- ``split``; ``kind`` (what was read: ``max_memory_allocated``, ``memory_reserved``, ``nvidia-smi`` ...);
- ``phase``: the phase the estimate peaks in (``Estimate.phase``);
- ``dominant``: the largest term of that phase;
- ``term>=15%``: every term that is at least 15% of the estimate (a row is in several groups; shares overlap);
- ``source``: the row's source (the most negative shares first, ``--top`` of them);
- settings: sharding (one GPU / DDP / FSDP / ZeRO-n), adapters (full / LoRA), weights (16/32-bit, 8-bit, 4-bit),
  checkpointing, torch.compile, mode (train / generate / forward).

It changes nothing and fits nothing. Every split it is run on has been read by earlier sessions, so every figure it
prints is IN-SAMPLE.

Usage::

    .venv/bin/python calibration/public/est79_bias_by_term.py fit held-out $(seq -f "held-out-%g" 2 37) \\
        [--by kind,phase,...] [--kind max_memory_allocated] [--top 25]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[2]
GIB = 2 ** 30
SHARE = 0.15


def scored(splits: Sequence[str]) -> List[Dict[str, Any]]:
    """One record per scored row: the row, its signed error and the terms of the phase it peaks in."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa
    from public_groups import scored_rows

    from preflight import hardware  # type: ignore[attr-defined]
    from preflight.estimate import estimate

    out = []
    for row, res in scored_rows(splits):
        inp, _ = pa.estimate_input(row["setup"], hardware.find(row["gpu"]))
        est = estimate(inp)
        terms = dict(est.phases.get(est.phase or "", {}))
        out.append({"row": row, "error": float(res.error), "phase": str(est.phase), "terms": terms,
                    "estimate": float(res.estimate or 0)})
    return out


def _sharding(s: Dict[str, Any]) -> str:
    if s.get("zero_stage"):
        return f"ZeRO-{s['zero_stage']}"
    if s.get("fsdp"):
        return f"FSDP{s.get('fsdp_version') or ''}"
    return "DDP" if int(s.get("world_size", 1) or 1) > 1 else "one GPU"


def _weights(s: Dict[str, Any]) -> str:
    q = s.get("quant")
    return {"4bit": "4-bit", "8bit": "8-bit"}.get(str(q), "16/32-bit") if q else "16/32-bit"


SETTINGS: Dict[str, Callable[[Dict[str, Any]], str]] = {
    "sharding": _sharding,
    "adapters": lambda s: "LoRA" if s.get("lora_r") else "full",
    "weights": _weights,
    "grad_ckpt": lambda s: "on" if s.get("grad_ckpt") else "off",
    "compiled": lambda s: "on" if s.get("compiled") else "off",
    "mode": lambda s: str(s.get("mode", "train")),
}


def _dominant(rec: Dict[str, Any]) -> str:
    terms = rec["terms"]
    return max(terms, key=lambda t: terms[t]) if terms else "-"


def groups(recs: Sequence[Dict[str, Any]], key: str) -> Dict[str, List[Dict[str, Any]]]:
    out: Dict[str, List[Dict[str, Any]]] = {}
    for rec in recs:
        setup = rec["row"]["setup"]
        if key == "term>=15%":
            names = [t for t, b in rec["terms"].items() if rec["estimate"] and b >= SHARE * rec["estimate"]]
        elif key == "split":
            names = [str(rec["row"]["split"])]
        elif key == "kind":
            names = [str(rec["row"]["measured"])]
        elif key == "source":
            names = [str(rec["row"]["source"])]
        elif key == "phase":
            names = [rec["phase"]]
        elif key == "dominant":
            names = [_dominant(rec)]
        else:
            names = [SETTINGS[key](setup)]
        for name in names:
            out.setdefault(name, []).append(rec)
    return out


def table(recs: Sequence[Dict[str, Any]], key: str, total: int) -> List[str]:
    lines = [f"by {key}:", f"  {'group':26s} {'n':>4s} {'signed':>7s} {'MAE':>6s} {'under':>6s} {'share':>7s}"]
    rows: List[Tuple[float, str]] = []
    for name, members in groups(recs, key).items():
        errs = [m["error"] for m in members]
        share = sum(errs) / total
        rows.append((share, f"  {name[:26]:26s} {len(errs):4d} {sum(errs) / len(errs):+7.1%} "
                            f"{sum(abs(e) for e in errs) / len(errs):6.1%} "
                            f"{sum(1 for e in errs if e < 0) / len(errs):6.0%} {share * 100:+6.2f}pt"))
    lines.extend(line for _, line in sorted(rows, key=lambda r: r[0]))
    return lines


def concentration(recs: Sequence[Dict[str, Any]], total: int) -> List[str]:
    """How much of the pooled signed error the most negative sources carry, and what the other rows show."""
    by: Dict[str, List[float]] = {}
    for rec in recs:
        by.setdefault(str(rec["row"]["source"]), []).append(rec["error"])
    ranked = sorted(by.values(), key=sum)
    errs = sorted(e for v in ranked for e in v)
    lines = [f"{len(by)} sources, {sum(1 for v in ranked if sum(v) < 0)} with a negative mean; median row "
             f"{errs[len(errs) // 2]:+.2%}" if errs else "no rows"]
    for k in (5, 10, 20):
        top, rest = ranked[:k], [e for v in ranked[k:] for e in v]
        if not rest:
            break
        lines.append(f"the {k} most negative sources: {sum(len(v) for v in top)} rows carry "
                     f"{sum(sum(v) for v in top) / total * 100:+.2f}pt; the other {len(rest)} rows: signed "
                     f"{sum(rest) / len(rest):+.2%}, MAE {sum(abs(e) for e in rest) / len(rest):.2%}, median "
                     f"{sorted(rest)[len(rest) // 2]:+.2%}")
    return lines


KEYS = ("split", "kind", "phase", "dominant", "term>=15%", *SETTINGS, "source")


def report(splits: Sequence[str], keys: Sequence[str], kind: str = "", top: int = 0) -> List[str]:
    recs = scored(splits)
    held = [r for r in recs if str(r["row"]["split"]).startswith("held-out")]
    n = len(held)
    if kind:
        held = [r for r in held if r["row"]["measured"] == kind]
    m = len(held) or 1
    lines = [f"{len(held)} of {n} scored held-out rows of {len(splits)} splits (the fitting half left out of the "
             f"pool): mean signed {sum(r['error'] for r in held) / m:+.2%}, MAE "
             f"{sum(abs(r['error']) for r in held) / m:.2%}, share of the pooled signed error "
             f"{sum(r['error'] for r in held) / n * 100:+.2f}pt (IN-SAMPLE: every split has been read)"]
    lines.extend(concentration(held, n))
    for key in keys:
        lines.append("")
        body = table(held, key, n)
        lines.extend(body[:top + 2] if top and key == "source" else body)
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("splits", nargs="+", help="split names as bench/public_accuracy.py --split takes them")
    parser.add_argument("--by", default=",".join(KEYS), help="comma-separated groupings: " + ", ".join(KEYS))
    parser.add_argument("--kind", default="", help="only rows of this reading (e.g. max_memory_allocated); shares "
                        "stay relative to every scored held-out row")
    parser.add_argument("--top", type=int, default=25, help="sources listed (most negative share first; 0: all)")
    args = parser.parse_args(argv)
    keys = [k.strip() for k in args.by.split(",") if k.strip()]
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        parser.error("unknown grouping: " + ", ".join(unknown))
    print("\n".join(report(args.splits, keys, args.kind, args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
