"""Measures the transient at the end of backward of a model whose LM head is tied to its input
embeddings, on CPU with torch's profiler (``profile_memory=True``: every allocation and free of
the c10 allocator, with the running total), and writes ``calibration/data/tied_embedding_grad.json``.

The model is transformers' ``GPT2LMHeadModel`` (one small layer, a large vocabulary so that the
``vocab x hidden`` gradient dominates), tied and untied, one forward and
``logits.sum().backward()``. The figure is (peak allocated during the step - the gradients that
remain) / (vocab x hidden x element size):

- untied: about 0, the embedding's dense gradient becomes its ``.grad`` and the head's was
  already stored;
- tied: about 2. The parameter's AccumulateGrad node has two incoming edges (the head and the
  embedding), so the autograd engine holds the head's gradient in the node's InputBuffer until
  the embedding's backward returns its own dense ``vocab x hidden`` gradient. The head's gradient
  is a view (``mm_mat2_backward`` returns ``(grad.t() @ mat1).t()`` for the column-major
  ``weight.t()``, and ``TBackward`` transposes it back), so ``InputBuffer`` cannot add in place
  and computes ``old + new``: three tables are alive at once, one of which stays as ``.grad``.

The engine's buffer logic does not depend on the device (CUDA runs the same InputBuffer), so the
count carries to GPU jobs. Run: ``python -m calibration.tied_grad [--out PATH]`` (needs torch and
transformers; not run by the tests, which read the committed JSON)."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "tied_embedding_grad.json"
VOCAB, HIDDEN = 30000, 256


def measure(tied: bool) -> Dict[str, Any]:
    import torch
    from torch.profiler import ProfilerActivity, profile
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=VOCAB, n_embd=HIDDEN, n_layer=1, n_head=4, n_positions=64,
                     tie_word_embeddings=tied, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    model = GPT2LMHeadModel(cfg).train()
    ids = torch.randint(0, VOCAB, (1, 16))
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        out = model(input_ids=ids)
        out.logits.sum().backward()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        events = json.loads(path.read_text(encoding="utf-8"))["traceEvents"]
    mem = sorted((e for e in events if e.get("name") == "[memory]"), key=lambda e: e["ts"])
    base = mem[0]["args"]["Total Allocated"] - mem[0]["args"]["Bytes"]
    totals = [e["args"]["Total Allocated"] - base for e in mem]
    grads = sum(p.grad.numel() * p.grad.element_size() for p in model.parameters() if p.grad is not None)
    table = VOCAB * HIDDEN * 4
    return {"tied": tied, "torch": torch.__version__, "peak_bytes": max(totals),
            "end_bytes": totals[-1], "grad_bytes": grads, "table_bytes": table,
            "transient_tables": round((max(totals) - grads) / table, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = [measure(False), measure(True)]
    for r in rows:
        print(f"tied={r['tied']}: peak - gradients = {r['transient_tables']} x (vocab x hidden)")
    args.out.write_text(json.dumps({"model": "GPT2LMHeadModel, 1 layer, vocab 30000, hidden 256, fp32, "
                                             "batch 1 x 16 tokens, logits.sum().backward()",
                                    "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
