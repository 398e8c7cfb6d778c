"""Where the peak of a full fine-tune step with an LM head is, on CPU with torch's profiler,
and writes ``calibration/data/head_grad_peak.json``.

The step is held-out-4's DistilBERT benchmark loop (``model.zero_grad()``, forward,
``outputs.logits.sum().backward()``, the loop keeping ``outputs``) with transformers'
``DistilBertForMaskedLM`` in fp16, dropout 0 (so that CPU's SDPA kernel, not its math
fallback, runs), batch 4 and 8 x 256 tokens, two steps. For each size it records the peak of
allocated bytes (weights excluded: they exist before profiling starts) and the operator
running at that moment with its input shapes.

What it showed: the step peaks inside the LM head's ``AddmmBackward0`` (the first matmul
backward; ``mm`` of ``[vocab, tokens] x [tokens, dim]``), where the head's weight gradient (``vocab x dim``) is made while every
activation, the logits and their gradient are alive. ``terms.head_grad_at_backward_start``.

Run: ``python -m calibration.head_grad [--write]`` (transformers from the environment).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "head_grad_peak.json"
SIZES = ((4, 256), (8, 256))


def measure(batch: int, seq: int) -> Dict[str, Any]:
    import torch
    import transformers
    from torch.profiler import ProfilerActivity, profile
    from transformers import DistilBertConfig, DistilBertForMaskedLM

    torch.manual_seed(0)
    cfg = DistilBertConfig(attn_implementation="sdpa", dropout=0.0, attention_dropout=0.0)
    model = DistilBertForMaskedLM(cfg).to(torch.float16).train()
    ids = torch.randint(0, cfg.vocab_size, (batch, seq))
    outputs = None
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True) as prof:
        for _ in range(2):
            model.zero_grad()
            outputs = model(input_ids=ids)
            outputs.logits.sum().backward()
    del outputs
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        events = json.loads(path.read_text(encoding="utf-8"))["traceEvents"]
    mem = sorted((e for e in events if e.get("name") == "[memory]"), key=lambda e: e["ts"])
    base = mem[0]["args"]["Total Allocated"] - mem[0]["args"]["Bytes"]
    totals = [e["args"]["Total Allocated"] - base for e in mem]
    i = max(range(len(totals)), key=totals.__getitem__)
    at = mem[i]["ts"]
    ops = sorted((e for e in events if e.get("ph") == "X" and e["ts"] <= at <= e["ts"] + e.get("dur", 0)),
                 key=lambda e: e.get("dur", 0))
    return {"batch": batch, "seq": seq, "tokens": batch * seq, "peak_bytes": totals[i],
            "ops_at_peak": [o["name"] for o in ops[:3]],
            "mm_input_dims_at_peak": ops[0].get("args", {}).get("Input Dims"), "torch": torch.__version__,
            "transformers": transformers.__version__,
            "head_grad_bytes": cfg.vocab_size * cfg.dim * 2}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    rows = [measure(b, s) for b, s in SIZES]
    out = {"model": "DistilBertForMaskedLM (distilbert-base-uncased config), fp16, dropout 0",
           "loop": "zero_grad / forward / logits.sum().backward(), outputs kept, 2 steps",
           "rows": rows}
    print(json.dumps(out, indent=1))
    if args.write:
        OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
