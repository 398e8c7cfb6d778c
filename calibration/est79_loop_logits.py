"""Bytes per (token x vocabulary) alive in a causal-LM loss path, forward and backward, measured on CPU with torch's
profiler (``profile_memory=True``: every allocation and free of the c10 allocator with its running total); writes
``calibration/data/est79_loop_logits.json`` (est79, issue 17).

The head is a bf16 ``hidden @ weight.t()`` (``N`` tokens, vocabulary ``V``, a small hidden size so that the
``N x V`` tensors dominate); the figure of each moment is (peak allocated - allocated before the head) / (N x V), in
bytes, so 2 is one bf16 logits-sized tensor and 4 one fp32. Four loss paths:

- ``transformers_4_57``: transformers' ``ForCausalLMLoss`` from 4.49 on: ``logits = logits.float()`` (a copy of the
  16-bit head output), the labels padded and shifted instead of the logits, ``F.cross_entropy`` on the fp32 copy; the
  model's output object dropped before backward (the Trainer's ``compute_loss`` keeps only the loss). The estimator
  charges ``constants.LOGITS_FORWARD_FP32`` + 2 = 10 in forward and ``LOGITS_BACKWARD_FP32`` = 12 at the start of
  backward for it.
- ``transformers_4_57_kept``: the same in a loop that keeps the model's output object through backward
  (``outputs = model(**batch, labels=...)``; ``outputs.loss.backward()``; ``EstimateInput.keeps_outputs``): its 16-bit
  logits are alive at the start of backward beside the loss's 12 bytes (est79's ``held_outputs`` term).
- ``prime_rl``: PrimeIntellect-ai/prime-rl at b798a90, ``src/prime_rl/trainer/sft/train.py`` lines 246-274 and
  ``trainer/model.py`` ``forward`` / ``layers/lm_head.py`` ``cast_float_and_contiguous``: the model returns
  ``{"logits": bf16}``, ``forward`` returns ``{"logits": logits.float().contiguous()}`` (``out``), the loop takes
  ``logits = out["logits"]``, ``CrossEntropyLoss(reduction="none")(logits.view(-1, V), target.view(-1))``, the mean
  over the loss mask, ``del logits`` and ``backward()`` -- with ``out`` still bound, so the fp32 logits stay alive
  through backward (and, bound at loop level, until the next micro-step's ``forward`` returns).
- ``prime_rl_del_out``: the same with ``out`` dropped too (what ``del logits`` intends).

Run: ``python -m calibration.est79_loop_logits [--out PATH]`` (needs torch; not run by the tests, which read the
committed JSON). torch's autograd frees and keeps the same tensors on CPU and CUDA (the engine and the saved-tensor
logic are device-independent), so the counts carry to GPU jobs; the caching allocator's reserve above them does not
(it is not measured here).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

OUT = Path(__file__).resolve().parent / "data" / "est79_loop_logits.json"
TOKENS, VOCAB, HIDDEN = 1024, 16000, 16


def _memory(prof: Any) -> Tuple[int, List[int]]:
    """(allocated before the first event, the running total after each allocation or free)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        events = json.loads(path.read_text(encoding="utf-8"))["traceEvents"]
    mem = sorted((e for e in events if e.get("name") == "[memory]"), key=lambda e: e["ts"])
    base = int(mem[0]["args"]["Total Allocated"]) - int(mem[0]["args"]["Bytes"])
    return base, [int(e["args"]["Total Allocated"]) for e in mem]


def _paths() -> Dict[str, Callable[[Any, Any, Any, Any], Any]]:
    import torch
    import torch.nn.functional as F

    def head(hidden: Any, weight: Any) -> Any:
        return {"logits": (hidden @ weight.t()).unsqueeze(0)}          # bf16 (1, N, V)

    def transformers_4_57(hidden: Any, weight: Any, target: Any, mask: Any, keep: bool = False) -> Any:
        out = head(hidden, weight)
        logits = out["logits"].float()
        labels = F.pad(target.unsqueeze(0), (0, 1), value=-100)[..., 1:]
        loss = F.cross_entropy(logits.view(-1, VOCAB), labels.reshape(-1), ignore_index=-100)
        del logits
        return loss, (out if keep else None)

    def transformers_4_57_kept(hidden: Any, weight: Any, target: Any, mask: Any) -> Any:
        return transformers_4_57(hidden, weight, target, mask, keep=True)

    def prime_rl(hidden: Any, weight: Any, target: Any, mask: Any, keep: bool = True) -> Any:
        model_out = head(hidden, weight)
        out = {"logits": model_out["logits"].float().contiguous()}     # cast_float_and_contiguous
        del model_out                                                  # forward() returns
        logits = out["logits"]
        _, n, v = logits.shape
        loss = torch.nn.CrossEntropyLoss(reduction="none")(logits.view(-1, v), target.view(-1)).view(1, n)
        loss = loss[mask].mean()
        del logits
        return loss, (out if keep else None)

    def prime_rl_del_out(hidden: Any, weight: Any, target: Any, mask: Any) -> Any:
        return prime_rl(hidden, weight, target, mask, keep=False)

    return {"transformers_4_57": transformers_4_57, "transformers_4_57_kept": transformers_4_57_kept,
            "prime_rl": prime_rl, "prime_rl_del_out": prime_rl_del_out}


def measure(name: str) -> Dict[str, Any]:
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.manual_seed(0)
    hidden = torch.randn(TOKENS, HIDDEN, dtype=torch.bfloat16, requires_grad=True)
    weight = torch.randn(VOCAB, HIDDEN, dtype=torch.bfloat16, requires_grad=True)
    target = torch.randint(0, VOCAB, (1, TOKENS))
    mask = torch.ones(1, TOKENS, dtype=torch.bool)
    fn = _paths()[name]
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof_f:
        loss, kept = fn(hidden, weight, target, mask)
    base, fwd = _memory(prof_f)
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof_b:
        loss.backward()
    _, bwd = _memory(prof_b)
    del kept
    unit = TOKENS * VOCAB
    # (the running total is the allocator's, so both profiles share the base: what was allocated before the head)
    return {"path": name, "torch": torch.__version__, "tokens": TOKENS, "vocab": VOCAB, "hidden": HIDDEN,
            "forward_peak_per_tv": round((max(fwd) - base) / unit, 3),
            "backward_peak_per_tv": round((max(bwd) - base) / unit, 3),
            "after_backward_per_tv": round((bwd[-1] - base) / unit, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = [measure(name) for name in _paths()]
    for r in rows:
        print(f"{r['path']:18s} forward {r['forward_peak_per_tv']:6.2f}  backward {r['backward_peak_per_tv']:6.2f}  "
              f"after backward {r['after_backward_per_tv']:6.2f} bytes per token x vocab")
    args.out.write_text(json.dumps({"what": "peak allocated above the head's inputs / (tokens x vocab), bytes; "
                                            "calibration/est79_loop_logits.py", "rows": rows}, indent=1) + "\n",
                        encoding="utf-8")


if __name__ == "__main__":
    main()
