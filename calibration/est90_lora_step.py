"""est90: held-out-43's Qwen2-0.5B LoRA step replayed, live bytes and the caching allocator's count.

bharathbattu/LoRA-vs-Full-Fine-Tuning (held-out-43) trains Qwen/Qwen2-0.5B under the HF Trainer on
a T4: fp16 weights (``from_pretrained(dtype=torch.float16)``), PEFT LoRA r=8 or r=64 on q_proj /
v_proj (alpha 2r, dropout 0.05, adapters in fp32: peft's ``autocast_adapter_dtype``), no
autocast, no checkpointing, batch 2 x 256 tokens padded to ``max_length`` (labels -100 on the
padding), 8 accumulation steps; the figure is ``torch.cuda.max_memory_allocated()`` over the run.

This records the run's allocations with ``calibration/alloc_trace.py``'s recorder under
``FakeTensorMode`` (no memory is used; every storage's birth and death in program order): the
weights, then micro-steps as the Trainer runs them (the batch moved to the device, forward with
labels, the outputs dropped, backward), the optimizer step after ``--accum`` of them, and more
micro-steps. It reports

- the peak of the live bytes above the weights (every storage's exact size), and what is live
  at that peak grouped by the op that made it;
- the same events replayed through ``calibration/caching_allocator.py`` (torch's CUDA caching
  allocator, native backend): ``max_memory_allocated`` counts whole blocks, so a request served
  from a cached block keeps the block's unsplit remainder (up to 1 MiB in the large pool) and
  every request is rounded up to 512 B.

CPU-vs-CUDA, handled: CPU ``F.dropout`` saves a noise tensor in the input's dtype; the CUDA
kernel (``native_dropout``) saves a 1-byte mask, so ``F.dropout`` is routed to
``aten.native_dropout`` here (the op CUDA runs). SDPA runs the CPU flash kernel, which saves what
CUDA's memory-efficient kernel saves on a T4 (query, key, value, output, logsumexp; the float mask
made from the boolean one). Not seen: a CUDA kernel's own workspace inside one op, cuBLAS's
workspace (the estimator charges it apart).

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.est90_lora_step --out calibration/data/est90_lora_step.json
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

GIB = 2 ** 30

#: Qwen/Qwen2-0.5B's config.json (the fields that size memory)
QWEN2_05B = dict(hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14,
                 num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True, attention_dropout=0.0,
                 max_position_embeddings=32768, rms_norm_eps=1e-6, rope_theta=1000000.0)


def _recorder() -> Any:
    """alloc_trace's recorder, also noting which op made each storage (for the breakdown)."""
    import torch
    from torch.utils._pytree import tree_leaves

    from calibration.alloc_trace import _recorder_cls

    base = _recorder_cls()

    class Named(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.made: Dict[int, Tuple[str, int]] = {}
            self.op = "setup"

        def see(self, t: Any) -> None:
            n = self._next
            super().see(t)
            if self._next > n and isinstance(t, torch.Tensor):
                self.made[n] = (self.op, int(t.untyped_storage().nbytes()))

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            self.op = str(func.overloadpacket.__name__)
            out = func(*args, **(kwargs or {}))
            for t in tree_leaves(out):
                self.see(t)
            return out

    return Named()


def record(rank: int, micro_steps: int, accum: int, seq: int = 256, batch: int = 2,
           pad_from: int = 200) -> Tuple[List[Tuple[str, int, int]], Dict[int, Tuple[str, int]], int, List[int]]:
    """Events of the load and the micro-steps (an optimizer step after every ``accum``)."""
    import torch
    import torch.nn.functional as F
    import transformers
    from peft import LoraConfig, get_peft_model
    from torch._subclasses.fake_tensor import FakeTensorMode

    from preflight.guard.tracking import FakeSwap, ScalarStub

    def cuda_dropout(x: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
        if not training or p == 0.0:
            return x
        return torch.ops.aten.native_dropout(x, p, True)[0]

    F.dropout = cuda_dropout  # type: ignore[assignment]
    torch.manual_seed(0)
    cfg = transformers.AutoConfig.for_model("qwen2", **QWEN2_05B)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float16, attn_implementation="sdpa")
    model = get_peft_model(model, LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.05,
                                             target_modules=["q_proj", "v_proj"], bias="none",
                                             task_type="CAUSAL_LM"))
    model.train()
    dev = torch.device("cpu")
    fake = FakeTensorMode()
    rec = _recorder()
    marks: List[int] = []
    with FakeSwap(model, fake, dev), fake, ScalarStub():
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.AdamW(params, lr=2e-5, foreach=True)
        with rec:
            for p in model.parameters():
                rec.see(p)
            for b in model.buffers():
                rec.see(b)
            weights = len(rec.events)
            for step in range(micro_steps):
                marks.append(len(rec.events))
                ids = torch.randint(0, cfg.vocab_size, (batch, seq), device=dev)
                mask = torch.ones(batch, seq, dtype=torch.long, device=dev)
                mask[:, pad_from:] = 0
                labels = ids.masked_fill(mask == 0, -100)
                out = model(input_ids=ids, attention_mask=mask, labels=labels)
                loss = out["loss"]
                del out
                loss.backward()
                del loss, ids, mask, labels
                if (step + 1) % accum == 0:
                    optimizer.step()
                    optimizer.zero_grad(set_to_none=True)
        rec.enabled = False
    return rec.events, rec.made, weights, marks


def analyse(events: List[Tuple[str, int, int]], made: Dict[int, Tuple[str, int]], weights: int) -> Dict[str, Any]:
    from calibration.caching_allocator import CachingAllocator, replay

    sizes: Dict[int, int] = {}
    live = peak = 0
    peak_at = 0
    for i, (kind, key, n) in enumerate(events):
        if kind == "a":
            sizes[key] = n
            live += n
        else:
            live -= sizes.pop(key)
        if live > peak:
            peak, peak_at = live, i
    w_bytes = sum(n for _, _, n in events[:weights])
    # what is live at the peak, by the op that made it (weights apart)
    alive: Dict[int, int] = {}
    for kind, key, n in events[:peak_at + 1]:
        if kind == "a":
            alive[key] = n
        else:
            alive.pop(key, None)
    by_op: Dict[str, int] = collections.Counter()
    for key, n in alive.items():
        if key >= weights:
            by_op[made.get(key, ("?", 0))[0]] += n
    alloc = CachingAllocator()
    replay(events, alloc)
    return {"weights_gib": w_bytes / GIB, "live_peak_gib": peak / GIB,
            "live_peak_above_weights_gib": (peak - w_bytes) / GIB,
            "allocator_max_allocated_gib": alloc.stats.peak_allocated / GIB,
            "allocator_over_live_gib": (alloc.stats.peak_allocated - peak) / GIB,
            "allocator_max_reserved_gib": alloc.stats.peak_reserved / GIB,
            "live_at_peak_by_op_bytes": {k: v for k, v in sorted(by_op.items(), key=lambda kv: -kv[1])
                                         if v >= 2 ** 20}}


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--micro-steps", type=int, default=6)
    ap.add_argument("--accum", type=int, default=4)
    args = ap.parse_args(argv)
    import peft
    import torch
    import transformers

    result: Dict[str, Any] = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                                           "peft": peft.__version__},
                              "setup": {"model": "Qwen2-0.5B", "batch": 2, "seq": 256, "pad_from": 200,
                                        "micro_steps": args.micro_steps, "accum": args.accum}, "cases": {}}
    for rank in (8, 64):
        events, made, weights, _ = record(rank, args.micro_steps, args.accum)
        result["cases"][f"lora-r{rank}"] = analyse(events, made, weights)
        print(f"r{rank}", json.dumps(result["cases"][f"lora-r{rank}"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
