"""Every held-out row (held-out, held-out-2 .. held-out-28) whose error is over 15%, grouped (est64, issue 17).

Reads a saved ``bench/public_accuracy.py --rows`` run over every split (the same file ``est62_pool.py`` reads), takes
the rows whose printed error is above ``--threshold`` (15%) in absolute value, drops the rows est62 traced and left
(``EST62_LEFT``), finds each row's setup in its split's JSON (ids are printed cut to 72 characters) and prints them
grouped by regime (the first of ``GROUPS`` whose predicate holds), with the measured quantity and the framework.
held-out-29 is never read (another session keeps it blind).

Usage::

    python calibration/public/est64_large_errors.py RUN.txt [--threshold 15]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

#: est62's docs/calibration.md section, "traced and left": id fragments
EST62_LEFT = ("artidoro-qlora-issue-193/", "transformers-electra-sdpa-pr-37106/",
              "ms-swift-3.0-train-examples/qwen2-7b-lora-ddp-2gpu", "chatglm-finetuning-full-table/",
              "liger-kernel-hf-trainer-example/llama-3-8b-fsdp4-b48", "stanford-alpaca-fsdp-oom-issues/",
              "openrlhf-issue-384")

ROW = re.compile(r"^(?P<id>\S.{0,71}?)\s+(?P<kind>\S+)\s+(?P<gib>[\d.]+)\s+(?P<est>[\d.]+)\s+"
                 r"(?P<err>[-+][\d.]+)%\s")
SPLIT = re.compile(r"^preflight, (?P<split>[^:(]+?)(?: \([^)]*\))?: ")

Pred = Callable[[Dict[str, Any]], bool]


def _offload(s: Dict[str, Any]) -> bool:
    return bool(s.get("offload_params") or s.get("offload_optimizer"))


#: first match wins
GROUPS: List[Tuple[str, Pred]] = [
    ("CPU offload (ZeRO / FSDP / Gemini)", _offload),
    ("LLM.int8 (8-bit base) LoRA", lambda s: s.get("quant") == "8bit"),
    ("dynamic padding under a cap", lambda s: s.get("padding") == "dynamic"),
    ("torchtune recipes", lambda s: s.get("model_impl") == "torchtune" or bool(s.get("torchtune_version"))),
    ("DeepSpeed ZeRO (no offload)", lambda s: bool(s.get("zero_stage"))),
    ("FSDP (no offload)", lambda s: bool(s.get("fsdp"))),
    ("QLoRA (4-bit base)", lambda s: s.get("quant") == "4bit"),
    ("inference / generation", lambda s: s.get("mode") in ("generate", "inference")),
    ("other single-copy training", lambda s: True),
]


def split_rows(split: str) -> Dict[str, Dict[str, Any]]:
    from public_splits import DEVSET, SPLIT_FILES

    path = DEVSET if split in ("held-out", "fit") else SPLIT_FILES[split]
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    rows = doc["rows"] if isinstance(doc, dict) else doc
    return {r["id"]: r for r in rows}


def large(text: str, threshold: float) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    pending: List[Dict[str, Any]] = []
    for line in text.splitlines():
        m = SPLIT.match(line)
        if m:
            split = m.group("split").replace("fitting half", "fit")
            if split != "fit" and split != "held-out-29":
                out += [dict(p, split=split) for p in pending]
            pending = []
            continue
        r = ROW.match(line)
        if r and abs(float(r.group("err"))) > threshold:
            pending.append({"id": r.group("id").strip(), "kind": r.group("kind"), "gib": float(r.group("gib")),
                            "est": float(r.group("est")), "err": float(r.group("err"))})
    return out


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--threshold", type=float, default=15.0)
    args = ap.parse_args(argv)
    rows = large(Path(args.run).read_text(encoding="utf-8"), args.threshold)
    cache: Dict[str, Dict[str, Dict[str, Any]]] = {}
    grouped: Dict[str, List[Dict[str, Any]]] = {name: [] for name, _ in GROUPS}
    left = 0
    for r in rows:
        if any(f in r["id"] for f in EST62_LEFT):
            left += 1
            continue
        table = cache.setdefault(r["split"], split_rows(r["split"]))
        match = [v for k, v in table.items() if k.startswith(r["id"])]
        setup = match[0]["setup"] if match else {}
        r["setup"] = setup
        name = next(n for n, p in GROUPS if p(setup))
        grouped[name].append(r)
    print(f"rows over {args.threshold:.0f}%: {len(rows)} ({left} of them in est62's traced-and-left list, dropped)")
    for name, members in sorted(grouped.items(), key=lambda kv: -sum(abs(m["err"]) for m in kv[1])):
        if not members:
            continue
        mean = sum(m["err"] for m in members) / len(members)
        mae = sum(abs(m["err"]) for m in members) / len(members)
        kinds = sorted({m["kind"] for m in members})
        print(f"\n## {name}: {len(members)} rows, mean |error| {mae:.1f}%, mean signed {mean:+.1f}%, "
              f"sum |error| {sum(abs(m['err']) for m in members):.0f} points; measured: {', '.join(kinds)}")
        for m in members:
            s = m["setup"]
            tags = [str(s.get(k)) for k in ("precision", "quant", "zero_stage", "fsdp", "world_size", "torch_version")
                    if s.get(k) not in (None, False)]
            print(f"  {m['split']:12s} {m['id']:72s} {m['kind']:10s} {m['gib']:7.2f} {m['est']:7.2f} "
                  f"{m['err']:+7.1f}%  {' '.join(tags)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
