"""Signed error of every scored public row, over all splits, by regime (issue 17, est53).

Every row of ``calibration/public/devset.json`` (fitting half and held-out) and of every
``heldoutN.json`` is estimated exactly as ``bench/public_accuracy.py`` scores it (same
``evaluate``: card-full readings and ``not_scored`` rows count for no error). Each scored row
then falls into every regime its setup states (a row is in several: a QLoRA row at 8k tokens
with checkpointing is in "QLoRA", "long sequence" and "checkpointing on"). For each regime the
table gives the scored rows, the sources they come from, mean signed and mean absolute error,
the median signed error and the share of rows under -10% / over +10%. A regime's error is
*systematic* when its sign holds over several sources, not one.

Every split's rows have been read by some session, so every figure this prints is **in-sample**.

Usage::

    python bench/regime_errors.py [--markdown] [--json FILE] [--regime NAME] [--by-measured] [--deficits]

``--regime NAME`` lists that regime's rows (id, split, signed error).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402

ENCODER_DECODER = ("t5", "mt5", "umt5", "bart", "mbart", "marian", "pegasus", "whisper")
ENCODERS = ("bert", "roberta", "xlm-roberta", "distilbert", "albert", "electra", "deberta",
            "deberta-v2", "camembert")


def _model_type(setup: Dict[str, Any]) -> str:
    try:
        config, _ = pa._config(setup)
    except Exception:
        return ""
    return str(config.get("model_type", ""))


def _arch_family(setup: Dict[str, Any]) -> str:
    try:
        return str(pa.architecture(setup).family)
    except Exception:
        return ""


Pred = Callable[[Dict[str, Any], Dict[str, str]], bool]


def _s(key: str) -> Callable[[Dict[str, Any]], Any]:
    return lambda s: s.get(key)


def _train(s: Dict[str, Any]) -> bool:
    return s.get("mode", "train") == "train"


def _lora(s: Dict[str, Any]) -> bool:
    return bool(s.get("lora_r"))


def _sharded(s: Dict[str, Any]) -> bool:
    return bool(s.get("zero_stage") or s.get("fsdp"))


#: (regime, predicate over the setup and the derived facts {type, family})
REGIMES: List[Tuple[str, Pred]] = [
    ("full fine-tune (train, no LoRA)", lambda s, d: _train(s) and not _lora(s)),
    ("LoRA, 16-bit base", lambda s, d: _train(s) and _lora(s) and not s.get("quant")),
    ("QLoRA (4-bit base)", lambda s, d: _train(s) and s.get("quant") == "4bit"),
    ("8-bit base (LLM.int8)", lambda s, d: _train(s) and s.get("quant") == "8bit"),
    ("DeepSpeed ZeRO-2", lambda s, d: s.get("zero_stage") == 2),
    ("DeepSpeed ZeRO-3", lambda s, d: s.get("zero_stage") == 3),
    ("FSDP", lambda s, d: bool(s.get("fsdp"))),
    ("CPU offload (params or optimizer)",
     lambda s, d: bool(s.get("offload_params") or s.get("offload_optimizer"))),
    ("DDP / single copy, world size > 1", lambda s, d: int(s.get("world_size", 1)) > 1
     and not _sharded(s)),
    ("one GPU", lambda s, d: int(s.get("world_size", 1)) == 1),
    ("inference / generation", lambda s, d: s.get("mode") == "generate"),
    ("vision (image input)", lambda s, d: bool(s.get("image_size"))),
    ("seq2seq (encoder-decoder)", lambda s, d: d["type"] in ENCODER_DECODER),
    ("encoder (BERT family)", lambda s, d: d["type"] in ENCODERS),
    ("decoder LM", lambda s, d: d["family"] == "decoder"),
    ("long sequence (>= 4k tokens)", lambda s, d: int(s.get("seq_len") or 0) >= 4096),
    ("short sequence (<= 512 tokens)", lambda s, d: 0 < int(s.get("seq_len") or 0) <= 512),
    ("micro-batch 1", lambda s, d: int(s.get("micro_batch", 1)) == 1),
    ("micro-batch >= 8", lambda s, d: int(s.get("micro_batch", 1)) >= 8),
    ("gradient checkpointing on", lambda s, d: _train(s) and bool(s.get("grad_ckpt"))),
    ("gradient checkpointing off", lambda s, d: _train(s) and not s.get("grad_ckpt")),
    ("pure fp16", lambda s, d: s.get("precision") == "fp16"),
    ("pure bf16", lambda s, d: s.get("precision") == "bf16"),
    ("AMP fp16", lambda s, d: s.get("precision") == "amp-fp16"),
    ("AMP bf16", lambda s, d: s.get("precision") == "amp-bf16"),
    ("fp32", lambda s, d: s.get("precision") == "fp32"),
    ("8-bit / paged optimizer", lambda s, d: "8bit" in str(s.get("optimizer", ""))
     or "paged" in str(s.get("optimizer", ""))),
    ("AdamW (any)", lambda s, d: _train(s) and "adam" in str(s.get("optimizer", "adamw"))),
    ("no optimizer state (sgd / no step)", lambda s, d: _train(s)
     and str(s.get("optimizer", "adamw")) == "sgd"),
    ("loss: standard (HF cross-entropy)", lambda s, d: _train(s)
     and s.get("loss", "standard") == "standard"),
    ("loss: logits.sum() harness", lambda s, d: s.get("loss") == "logits"),
    ("loss: chunked / fused", lambda s, d: s.get("loss") in ("chunked", "fused")),
    ("attention eager", lambda s, d: s.get("attention") == "eager"),
    ("attention SDPA", lambda s, d: s.get("attention", "sdpa") == "sdpa"),
    ("attention flash", lambda s, d: s.get("attention") == "flash"),
    ("torch < 2.0", lambda s, d: str(s.get("torch_version", "9")).startswith("1.")),
]

MEASURED = ("max_memory_allocated", "peak_memory_active", "allocated+context", "memory_reserved",
            "nvidia-smi")


def split_files() -> List[Tuple[str, Path]]:
    out = [("devset", pa.DEVSET)]
    out += [(name, path) for name, path in pa.SPLIT_FILES.items()]
    return out


def scored_rows() -> List[Dict[str, Any]]:
    """One record per scored row: id, split, source, setup, measured kind, error."""
    out: List[Dict[str, Any]] = []
    for _, path in split_files():
        for row in pa.load(path)["rows"]:
            res = pa.evaluate(row)
            if res.error is None:
                continue
            out.append({"id": row["id"], "split": row["split"], "source": row["source"],
                        "setup": row["setup"], "measured": row["measured"], "error": res.error,
                        "deficit": int(row["peak_bytes"]) - int(res.estimate or 0),
                        "inside": res.inside,
                        "facts": {"type": _model_type(row["setup"]),
                                  "family": _arch_family(row["setup"])}})
    return out


def _stats(recs: List[Dict[str, Any]]) -> Dict[str, Any]:
    errs = sorted(r["error"] for r in recs)
    n = len(errs)
    return {"rows": n, "sources": len({r["source"] for r in recs}),
            "signed": sum(errs) / n, "mae": sum(abs(e) for e in errs) / n,
            "median": errs[n // 2] if n % 2 else (errs[n // 2 - 1] + errs[n // 2]) / 2,
            "under10": sum(1 for e in errs if e < -0.10) / n,
            "over10": sum(1 for e in errs if e > 0.10) / n,
            "inside": sum(1 for r in recs if r["inside"]) / n,
            # signed error averaged per source first: one large source cannot carry the regime
            "by_source": _per_source_mean(recs)}


def _per_source_mean(recs: List[Dict[str, Any]]) -> float:
    by: Dict[str, List[float]] = {}
    for r in recs:
        by.setdefault(r["source"], []).append(r["error"])
    means = [sum(v) / len(v) for v in by.values()]
    return sum(means) / len(means)


def table(recs: List[Dict[str, Any]]) -> List[Tuple[str, Dict[str, Any]]]:
    rows: List[Tuple[str, Dict[str, Any]]] = [("all scored rows", _stats(recs))]
    for name, pred in REGIMES:
        got = [r for r in recs if pred(r["setup"], r["facts"])]
        if got:
            rows.append((name, _stats(got)))
    for kind in MEASURED:
        got = [r for r in recs if r["measured"] == kind]
        if got:
            rows.append((f"measured: {kind}", _stats(got)))
    return rows


#: the readings a regime is split by in ``by_measured``: tensors only, the allocator's reserve, the driver
READINGS = (("allocated", ("max_memory_allocated", "peak_memory_active", "allocated+context")),
            ("reserved", ("memory_reserved",)), ("nvidia-smi", ("nvidia-smi",)))


def by_measured(recs: List[Dict[str, Any]]) -> List[Tuple[str, List[Optional[Dict[str, Any]]]]]:
    """Each regime's rows split by what the row measured (``READINGS``): a regime whose tensor
    readings are right and whose reserved / driver readings are short misses memory beyond
    the tensors (the allocator's cache, memory outside PyTorch), not a tensor."""
    out: List[Tuple[str, List[Optional[Dict[str, Any]]]]] = []
    for name, pred in [("all scored rows", lambda s, d: True), *REGIMES]:
        cells: List[Optional[Dict[str, Any]]] = []
        for _, kinds in READINGS:
            got = [r for r in recs if r["measured"] in kinds and pred(r["setup"], r["facts"])]
            cells.append(_stats(got) if got else None)
        if any(cells):
            out.append((name, cells))
    return out


def markdown_by_measured(rows: List[Tuple[str, List[Optional[Dict[str, Any]]]]]) -> str:
    head = "| regime | " + " | ".join(f"{label}: rows (sources), median / mean signed"
                                      for label, _ in READINGS) + " |"
    lines = [head, "|---" * (1 + len(READINGS)) + "|"]
    for name, cells in rows:
        parts = [f"{c['rows']} ({c['sources']}), {c['median']:+.1%} / {c['signed']:+.1%}" if c else "-"
                 for c in cells]
        lines.append(f"| {name} | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def deficits(recs: List[Dict[str, Any]]) -> List[Tuple[str, str, int, float]]:
    """(reading, "one GPU" / "more than one GPU", rows, median GiB the estimate is short by):
    what each reading adds over the one below it is what the estimate misses beyond the
    tensors (reserved: the allocator's cache; nvidia-smi: memory outside PyTorch too)."""
    out: List[Tuple[str, str, int, float]] = []
    for label, kinds in READINGS:
        for where, multi in (("one GPU", False), ("more than one GPU", True)):
            got = sorted(r["deficit"] for r in recs if r["measured"] in kinds
                         and (int(r["setup"].get("world_size", 1)) > 1) == multi)
            if got:
                n = len(got)
                mid = got[n // 2] if n % 2 else (got[n // 2 - 1] + got[n // 2]) / 2
                out.append((label, where, n, mid / 2 ** 30))
    return out


def markdown(rows: List[Tuple[str, Dict[str, Any]]]) -> str:
    head = ("| regime | rows | sources | mean signed | per-source mean signed | median signed | MAE "
            "| < -10% | > +10% | inside |\n|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for name, s in rows:
        lines.append(f"| {name} | {s['rows']} | {s['sources']} | {s['signed']:+.1%} | "
                     f"{s['by_source']:+.1%} | {s['median']:+.1%} | {s['mae']:.1%} | "
                     f"{s['under10']:.0%} | {s['over10']:.0%} | {s['inside']:.0%} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--json", metavar="FILE", help="write every scored row's error as JSON")
    parser.add_argument("--regime", metavar="NAME", help="list the rows of one regime")
    parser.add_argument("--deficits", action="store_true",
                        help="median GiB short by reading (allocated / reserved / nvidia-smi) and GPU count")
    parser.add_argument("--by-measured", action="store_true",
                        help="split each regime by what its rows measured (allocated / reserved / nvidia-smi)")
    args = parser.parse_args(argv)
    recs = scored_rows()
    if args.regime:
        preds = dict(REGIMES)
        if args.regime not in preds:
            print(f"unknown regime {args.regime!r}; one of: " + "; ".join(preds), file=sys.stderr)
            return 2
        for r in sorted((r for r in recs if preds[args.regime](r["setup"], r["facts"])),
                        key=lambda r: r["error"]):
            print(f"{r['error']:+7.1%} {r['split']:12s} {r['measured'][:12]:12s} {r['id']}")
        return 0
    if args.by_measured:
        split = by_measured(recs)
        if args.markdown:
            print(markdown_by_measured(split))
        else:
            for name, cells in split:
                print(f"{name:40s} " + "  ".join(
                    f"{label}: {c['rows']:3d} ({c['sources']:2d} src) median {c['median']:+6.1%} mean {c['signed']:+6.1%}"
                    if c else f"{label}: -" for (label, _), c in zip(READINGS, cells)))
        return 0
    rows = table(recs)
    if args.deficits:
        print("| reading | GPUs | rows | median GiB short (measured - estimate) |\n|---|---|---|---|")
        for label, where, n, gib in deficits(recs):
            print(f"| {label} | {where} | {n} | {gib:+.2f} |")
        return 0
    if args.markdown:
        print(markdown(rows))
    else:
        for name, s in rows:
            print(f"{name:40s} {s['rows']:4d} rows {s['sources']:3d} src  signed {s['signed']:+6.1%}  "
                  f"per-src {s['by_source']:+6.1%}  median {s['median']:+6.1%}  MAE {s['mae']:5.1%}  "
                  f"<-10% {s['under10']:4.0%}  >+10% {s['over10']:4.0%}  inside {s['inside']:4.0%}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{k: r[k] for k in ("id", "split", "source", "measured", "error", "deficit")} for r in recs],
            indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
