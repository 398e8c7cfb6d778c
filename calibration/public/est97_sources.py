"""est97: the 4-/8-bit-base and sharded/offloaded regimes' peaks split by SOURCE into a choose and a check half (issue 17).

est96 found the pool's negative bias in three regimes the held-out-31..45 halves hardly hold: (a) 4-/8-bit bases
(a training job whose ``setup.quant`` is ``4bit`` or ``8bit``), (b) sharded or offloaded jobs (ZeRO-2/3, or any
parameter / optimizer offload, or FSDP). A term for them cannot be chosen on one split half and checked on the
other, so the regime's peaks are split by their PUBLISHER instead, with a rule fixed (and committed) before any
error was looked at:

- a peak's publisher is ``tests/public_split_helpers.measurement_publisher(url, measured_by)`` of its row's source
  (the GitHub owner of a file, the poster of an issue / PR / discussion, else the host); a thread row that does
  not record its poster (``measured_by``) counts under the thread's repository owner (``publisher(url)``);
- the regime's publishers are sorted by name; the 1st, 3rd, 5th ... are the CHOOSE half, the 2nd, 4th ... the
  CHECK half. Every peak of a publisher goes to its publisher's half.

A term is chosen (or, when derived from a library's source with no fitted constant, only inspected) on the choose
half; the check half is the figure reported as 'held-out by source'. Every row has been read by someone tuning the
estimator, so the pool figures are **in-sample**; the check half is held out only from this branch's choice.

Usage::

    python3 calibration/public/est97_sources.py                 # the assignment only (no error is computed)
    .venv/bin/python calibration/public/est97_sources.py --errors [--rows]   # figures per half (needs the venv)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "calibration" / "public"))

from public_split_helpers import measurement_publisher, publisher  # noqa: E402

PUBLIC = REPO / "calibration" / "public"


def regime(setup: Dict[str, Any]) -> Optional[str]:
    """'a' (4-/8-bit base, training), 'b' (sharded or offloaded), or None. A job in both is counted in (a)."""
    if setup.get("mode", "train") != "train":
        return None
    if setup.get("quant") in ("4bit", "8bit"):
        return "a"
    if (setup.get("fsdp") or int(setup.get("zero_stage") or 0) >= 2 or setup.get("offload_params")
            or setup.get("offload_optimizer")):
        return "b"
    return None


def _docs() -> List[Dict[str, Any]]:
    """devset.json (its rows of split 'held-out') and every heldoutN.json up to 45 (never 46 on)."""
    out = [json.loads((PUBLIC / "devset.json").read_text(encoding="utf-8"))]
    for n in range(2, 46):
        path = PUBLIC / f"heldout{n}.json"
        if path.exists():
            out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def regime_rows() -> List[Dict[str, Any]]:
    """id, split, source, publisher and regime of every row of the 45 held-out splits in regime (a) or (b)."""
    out = []
    for doc in _docs():
        for row in doc["rows"]:
            if not str(row.get("split", "")).startswith("held-out"):
                continue
            reg = regime(row.get("setup", {}))
            if reg is None:
                continue
            src = doc["sources"].get(row["source"], {})
            url = str(src.get("url", "https://unknown/" + row["source"]))
            pub = measurement_publisher(url, str(row.get("measured_by", ""))) or publisher(url)
            out.append({"id": row["id"], "split": row["split"], "source": row["source"], "publisher": pub,
                        "regime": reg})
    return out


def halves(rows: List[Dict[str, Any]], reg: str) -> Tuple[List[str], List[str]]:
    """The fixed rule: the regime's publishers sorted by name, alternately choose / check."""
    pubs = sorted({r["publisher"] for r in rows if r["regime"] == reg})
    return pubs[0::2], pubs[1::2]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--errors", action="store_true", help="score each half (imports the estimator; needs the venv)")
    ap.add_argument("--rows", action="store_true", help="with --errors: every peak of the regime")
    ap.add_argument("--regime", default="a", choices=("a", "b"))
    ap.add_argument("--torch-preflight", dest="tp", help="with --errors: torch-preflight's error on the rows it can "
                    "express (bench/public_accuracy.torch_preflight), beside preflight's")
    ap.add_argument("--half", choices=("choose", "check"), help="with --rows: list one half's peaks only")
    args = ap.parse_args(argv)
    rows = regime_rows()
    choose, check = halves(rows, args.regime)
    half_of = {p: "choose" for p in choose}
    half_of.update({p: "check" for p in check})
    sel = [r for r in rows if r["regime"] == args.regime]
    print(f"regime ({args.regime}): {len(sel)} rows, {len(choose) + len(check)} publishers")
    for name, pubs in (("choose", choose), ("check", check)):
        n = sum(1 for r in sel if half_of[r["publisher"]] == name)
        print(f"  {name:6s} {len(pubs):3d} publishers {n:4d} rows: {', '.join(pubs)}")
    if not args.errors:
        return 0
    import est96_groups as g  # imports the estimator

    pub_of = {r["id"]: r["publisher"] for r in sel}
    recs = [r for r in g.pool_rows() if r["id"] in pub_of]
    for name in ("choose", "check", "both"):
        part = [r for r in recs if name == "both" or half_of[pub_of[r["id"]]] == name]
        if not part:
            continue
        errs = [r["error"] for r in part]
        n = len(part)
        by_pub: Dict[str, List[float]] = {}
        for r in part:
            by_pub.setdefault(pub_of[r["id"]], []).append(r["error"])
        per_pub = sum(sum(v) / len(v) for v in by_pub.values()) / len(by_pub)
        print(f"  {name:6s} {n:4d} peaks {len(by_pub):3d} publishers | MAE {100 * sum(abs(e) for e in errs) / n:5.2f}% "
              f"| signed {100 * sum(errs) / n:+6.2f}% | by-publisher {100 * per_pub:+6.2f}% "
              f"| inside {100 * sum(r['inside'] for r in part) / n:5.1f}%")
    if args.tp:
        import public_accuracy as pa

        raw = {row["id"]: row for doc in _docs() for row in doc["rows"] if row["id"] in pub_of}
        pairs = []
        for r in recs:
            if not pa.tp_expressible(r["setup"]):
                continue
            got = pa.torch_preflight(args.tp, raw[r["id"]])
            if got is None:
                continue
            tp_err = (got[0] - raw[r["id"]]["peak_bytes"]) / raw[r["id"]]["peak_bytes"]
            pairs.append((r, tp_err))
            print(f"  tp {half_of[pub_of[r['id']]]:6s} {r['id'][:70]:70s} preflight {100 * r['error']:+6.1f}% "
                  f"torch-preflight {100 * tp_err:+6.1f}%")
        expressible = sum(1 for r in recs if pa.tp_expressible(r["setup"]))
        print(f"  torch-preflight: {len(recs)} scored peaks, {expressible} expressible (no LoRA, quantization, FSDP "
              f"or offload), {len(pairs)} estimated")
        if pairs:
            n = len(pairs)
            print(f"  on those {n}: preflight MAE {100 * sum(abs(r['error']) for r, _ in pairs) / n:.2f}% signed "
                  f"{100 * sum(r['error'] for r, _ in pairs) / n:+.2f}% | torch-preflight MAE "
                  f"{100 * sum(abs(e) for _, e in pairs) / n:.2f}% signed {100 * sum(e for _, e in pairs) / n:+.2f}%")
    if args.rows:
        listed = [r for r in recs if args.half in (None, half_of[pub_of[r["id"]]])]
        for r in sorted(listed, key=lambda r: (half_of[pub_of[r["id"]]], pub_of[r["id"]], r["id"])):
            print(f"  {half_of[pub_of[r['id']]]:6s} {pub_of[r['id']][:22]:22s} {r['split']:12s} {r['id'][:70]:70s} "
                  f"{r['measured'][:12]:12s} {r['gib']:6.2f} GiB {100 * r['error']:+6.1f}% {r['deficit']:+6.2f} GiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
