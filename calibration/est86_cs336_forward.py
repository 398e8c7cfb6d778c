"""What Hyperion-shuo's 'Forward Only (FW)' figures of the CS336 'large' model measure (est86).

held-out-41's three rows ``cs336-hyperion-shuo-large-a10/large-fp32-b1-s{128,256,512}-forward-nograd`` copy the
writeup's table (Hyperion-shuo/assignment2-systems ``write_up/write_up.md`` at 3ec468a, 1.1.6 (b): 4.7 / 6.5 / 11.2
GB at context 128 / 256 / 512, batch 1, fp32) and were written as a forward pass under ``torch.no_grad()``, the
script's stage ``fw``. The estimate of that setup sits near the fp32 weights (3.64-3.75 GiB). Two checks, both run
from a local clone of the repository (read with ``git show``; nothing of it is stored here):

1. **The source's own snapshots.** The same commit holds the memory snapshots that
   ``cs336_systems/basic_lm_memory_profile.py`` dumped (``results/torch_memory_profiles/memory_snapshot_large_cl{ctx}_
   {stage}.pickle``) for the stages ``fw`` (forward and loss under ``torch.no_grad()``) and ``fw_with_grad``
   (``model.zero_grad()``, forward and loss with autograd on, no backward: each step's graph is kept by ``logits`` /
   ``loss`` until the next step rebinds them). Their active bytes are replayed from the ``alloc`` /
   ``free_completed`` events back from the blocks active at the dump (what memory_viz's "Active Memory Timeline"
   plots and what held-out-41's Cgfyufsygsm rows' ``summarize_memory_profiles.py`` computes).
2. **The model replayed on the CPU.** The course ``BasicsTransformerLM`` of the same commit
   (``cs336-basics/cs336_basics/model.py`` and ``nn_utils.py``), built on the meta device and run on fake tensors
   (no memory) under ``torch.distributed._tools.mem_tracker.MemTracker`` (``preflight.guard.tracking``, as
   ``calibration/est85_swin_saved.py`` does): the script's loop of two steps, the second step's peak kept (the
   snapshot records the sixth step, with the fifth's ``logits`` and ``loss`` still bound), in both modes; and one
   forward with autograd on from a clean start (one graph, held until the output is dropped).

    python -m calibration.est86_cs336_forward --repo PATH   # writes calibration/data/est86_cs336_forward.json

The snapshot part needs no torch; the replay needs torch (2.13.0+cpu was used) with einops, einx and jaxtyping,
which the course model imports.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import types
from pathlib import Path
from typing import Any, Dict, List

OUT = Path(__file__).resolve().parent / "data" / "est86_cs336_forward.json"
COMMIT = "3ec468a"
CONTEXTS = (128, 256, 512)
STAGES = ("fw", "fw_with_grad")
#: the writeup's 'Forward Only (FW)' column, 'GB' (write_up/write_up.md at 3ec468a, 1.1.6 (b))
PUBLISHED = {128: 4.7, 256: 6.5, 512: 11.2}
#: MODEL_CONFIGS['large'] in basic_lm_memory_profile.py; vocab 10,000 and rope_theta 10,000 (its defaults)
LARGE = dict(vocab_size=10000, d_model=1280, d_ff=5120, num_layers=36, num_heads=20, rope_theta=10000.0)


def _git_show(repo: str, path: str) -> bytes:
    from calibration.est85_swin_saved import git_show

    return git_show(repo, COMMIT, path)


def active_timeline(snapshot: Dict[str, Any]) -> List[int]:
    """Active bytes after every event of the snapshot's trace, oldest first: the blocks active at the dump, walked
    back through the trace (an ``alloc`` was not active before it, a ``free_completed`` block was)."""
    current = sum(b["size"] for seg in snapshot["segments"] for b in seg["blocks"]
                  if b["state"] == "active_allocated")
    series = [current]
    for event in reversed(snapshot["device_traces"][0]):
        if event["action"] == "alloc":
            current -= event["size"]
        elif event["action"] == "free_completed":
            current += event["size"]
        series.append(current)
    return series[::-1]


def snapshot_figures(repo: str) -> Dict[str, Dict[str, Any]]:
    """Per context and stage: the recorded step's peak active bytes, the active bytes when recording started and the
    largest single allocation."""
    out: Dict[str, Dict[str, Any]] = {}
    for ctx in CONTEXTS:
        for stage in STAGES:
            path = f"results/torch_memory_profiles/memory_snapshot_large_cl{ctx}_{stage}.pickle"
            snap = pickle.loads(_git_show(repo, path))  # the source's own dump: plain dicts, lists and numbers
            series = active_timeline(snap)
            allocs = [e["size"] for e in snap["device_traces"][0] if e["action"] == "alloc"]
            out[f"{stage}, context {ctx}"] = {"peak_active_bytes": max(series), "start_active_bytes": series[0],
                                               "largest_alloc_bytes": max(allocs), "events": len(series) - 1}
    return out


def course_model(repo: str) -> Any:
    """The course's cs336_basics package of the commit, as modules (model.py imports .nn_utils)."""
    from calibration.est85_swin_saved import exec_module

    pkg = types.ModuleType("cs336_basics")
    pkg.__path__ = []  # type: ignore[attr-defined]
    sys.modules["cs336_basics"] = pkg
    exec_module("cs336_basics.nn_utils", repo, COMMIT, "cs336-basics/cs336_basics/nn_utils.py", "cs336_basics")
    return exec_module("cs336_basics.model", repo, COMMIT, "cs336-basics/cs336_basics/model.py", "cs336_basics")


def replay(model_mod: Any, ctx: int, grad: bool, steps: int) -> Dict[str, int]:
    """Tensor bytes at the peak of the last of ``steps`` steps of the script's loop (batch 1, fp32), by MemTracker
    category, on fake tensors. ``grad`` False: stage ``fw`` (``torch.no_grad()``); True: ``fw_with_grad``
    (``model.zero_grad()``, autograd on, no backward; ``logits`` and ``loss`` stay bound until the next step)."""
    import torch
    import torch.nn.functional as F
    from torch._subclasses.fake_tensor import FakeTensorMode

    from preflight.guard.tracking import FakeSwap, FrozenAwareMemTracker, reset_peak, split

    cfg = dict(LARGE)
    d_ff = cfg.pop("d_ff")
    with torch.device("meta"):
        model = model_mod.BasicsTransformerLM(context_length=ctx, d_ff=d_ff, **cfg)
    fake = FakeTensorMode()
    peak: Dict[str, int] = {}
    with FakeSwap(model, fake, torch.device("cpu")), fake:
        x = torch.randint(0, LARGE["vocab_size"], (1, ctx))
        y = torch.randint(0, LARGE["vocab_size"], (1, ctx))
        mt = FrozenAwareMemTracker()
        mt.track_external(model, x, y)
        with mt:
            logits = loss = None
            for _ in range(steps):
                mt.reset_mod_stats()
                reset_peak(mt)
                if grad:
                    model.zero_grad()
                    logits = model(x)
                    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
                else:
                    with torch.no_grad():
                        logits = model(x)
                        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
                peak = split(mt.get_tracker_snapshot("peak"))
            del logits, loss
    return peak


def _write(result: Dict[str, Any]) -> None:
    from calibration.est85_swin_saved import write_json

    write_json(result, OUT)


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="a clone of Hyperion-shuo/assignment2-systems holding 3ec468a")
    ap.add_argument("--no-replay", action="store_true", help="the snapshots only (no torch)")
    args = ap.parse_args(argv)
    # a replay already in the file is kept (each takes minutes on two shared cores)
    done = json.loads(OUT.read_text()).get("replay_peak_bytes", {}) if OUT.exists() else {}
    result: Dict[str, Any] = {"source": f"Hyperion-shuo/assignment2-systems {COMMIT}",
                              "published_GB": {str(k): v for k, v in PUBLISHED.items()},
                              "snapshots": snapshot_figures(args.repo)}
    _write(result)
    if args.no_replay:
        return 0
    import torch

    mod = course_model(args.repo)
    result["torch"] = torch.__version__
    result["replay_peak_bytes"] = done
    for ctx in CONTEXTS:
        for key, grad, steps in (("fw (no_grad), loop of 2", False, 2),
                                 ("fw_with_grad (autograd on, no backward), loop of 2", True, 2),
                                 ("one forward with autograd on, graph held", True, 1)):
            if f"{key}, context {ctx}" not in done:
                result["replay_peak_bytes"][f"{key}, context {ctx}"] = replay(mod, ctx, grad, steps)
                _write(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
