"""The estimator's signed error over every public split, grouped by what the rows share (est26).

Runs every row of ``bench/public_accuracy.py``'s splits (``fit``, ``held-out``, ``held-out-2`` ..
``held-out-14``) and prints, per group, the number of measured peaks, the mean and median signed
error, the share under-estimated and the mean absolute error. Groups: what was measured
(``nvidia-smi`` / ``memory_reserved`` / ``max_memory_allocated`` ...), the GPU generation, the
world size, the torch version the row states, the sharding and the training library (from the
row's source). Every split has been read by someone tuning the estimator by now, so these figures
are IN-SAMPLE: they say where the error sits, not how the estimator does on unseen jobs.

Usage::

    python bench/public_groups.py [--by kind,gpu,world,torch,sharding,library]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import public_accuracy as pa

SPLITS = ("fit", "held-out", *pa.SPLIT_FILES)
_GENERATIONS = (
    (r"^(v100|titan-v)", "Volta"),
    (r"^(t4|rtx-20|titan-rtx|quadro-rtx)", "Turing"),
    (r"^(a100|a800|a10|a30|a40|a2-|rtx[- ]30|rtx-a\d)", "Ampere"),
    (r"^(l4|l40|l20|rtx-40|rtx-\d000-ada)", "Ada"),
    (r"^(h100|h200|h800|h20-|gh200)", "Hopper"),
    (r"^(b200|gb200|rtx-50)", "Blackwell"),
)
_LIBRARIES = (
    ("litgpt", "litgpt"), ("torchtune", "torchtune"), ("ms-swift", "ms-swift"),
    ("llama-factory", "LLaMA-Factory"), ("liger", "HF Trainer"), ("peft", "HF Trainer"),
    ("hf-", "HF Trainer"), ("transformers", "HF Trainer"), ("fms-acceleration", "HF Trainer"),
    ("deepspeed", "DeepSpeed"), ("gpjt", "DeepSpeed"), ("colossalai", "Lightning"),
    ("rasbt", "Lightning"), ("fsdp-qlora", "fsdp_qlora"), ("philschmid", "HF Trainer"),
    ("llama-recipes", "llama-recipes"),
)


def generation(gpu: str) -> str:
    name = gpu.lower()
    for pattern, gen in _GENERATIONS:
        if re.match(pattern, name):
            return gen
    return "other"


def world(setup: Dict[str, Any]) -> str:
    ws = int(setup.get("world_size", 1))
    return "1" if ws == 1 else "2-4" if ws <= 4 else "8+"


def torch_minor(setup: Dict[str, Any]) -> str:
    v = setup.get("torch_version")
    if not v:
        return "unknown"
    parts = str(v).split(".")
    return ".".join(parts[:2])


def sharding(setup: Dict[str, Any]) -> str:
    if setup.get("zero_stage"):
        return f"ZeRO-{setup['zero_stage']}"
    if setup.get("fsdp"):
        return "FSDP"
    return "DDP" if int(setup.get("world_size", 1)) > 1 else "one GPU"


def library(source: str) -> str:
    for prefix, lib in _LIBRARIES:
        if prefix in source:
            return lib
    return "plain torch / other"


KEYS: Dict[str, Callable[[Dict[str, Any]], str]] = {
    "kind": lambda r: str(r["measured"]),
    "gpu": lambda r: generation(str(r["gpu"])),
    "world": lambda r: world(r["setup"]),
    "torch": lambda r: torch_minor(r["setup"]),
    "sharding": lambda r: sharding(r["setup"]),
    "library": lambda r: library(str(r["source"])),
}


def scored_rows(splits: Sequence[str] = SPLITS) -> List[Tuple[Dict[str, Any], Any]]:
    """(row, ``public_accuracy`` result) of every measured and estimated row of the splits."""
    out: List[Tuple[Dict[str, Any], Any]] = []
    for split in splits:
        doc = pa.load(pa.SPLIT_FILES.get(split, pa.DEVSET))
        for row in doc["rows"]:
            if row["split"] != split:
                continue
            res = pa.evaluate(row)
            if res.error is not None:
                out.append((row, res))
    return out


def measured_errors(splits: Sequence[str] = SPLITS) -> List[Tuple[Dict[str, Any], float]]:
    """(row, signed error) of every measured and estimated row of the splits."""
    return [(row, res.error) for row, res in scored_rows(splits)]


def group(errors: Sequence[Tuple[Dict[str, Any], float]], key: str) -> List[Dict[str, Any]]:
    """One line per value of ``key``: n, mean and median signed error, share under, mean |error|."""
    buckets: Dict[str, List[float]] = {}
    for row, err in errors:
        buckets.setdefault(KEYS[key](row), []).append(err)
    lines = []
    for value, errs in sorted(buckets.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append({"group": value, "n": len(errs), "mean": sum(errs) / len(errs),
                      "median": statistics.median(errs),
                      "under": sum(1 for e in errs if e < 0) / len(errs),
                      "mae": sum(abs(e) for e in errs) / len(errs)})
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--by", default=",".join(KEYS),
                        help="comma-separated groupings: " + ", ".join(KEYS))
    args = parser.parse_args(argv)
    keys = [k.strip() for k in args.by.split(",") if k.strip()]
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        parser.error("unknown grouping: " + ", ".join(unknown))
    errors = measured_errors()
    print(f"{len(errors)} measured peaks over {len(SPLITS)} splits (IN-SAMPLE: every split has "
          f"been read while tuning)")
    for key in keys:
        print(f"\nby {key}:")
        print(f"  {'group':24s} {'n':>4s} {'mean':>7s} {'median':>7s} {'under':>6s} {'|err|':>6s}")
        for line in group(errors, key):
            print(f"  {line['group'][:24]:24s} {line['n']:4d} {line['mean']:+7.1%} "
                  f"{line['median']:+7.1%} {line['under']:6.0%} {line['mae']:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
