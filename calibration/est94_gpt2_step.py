"""est94: held-out-45's GPT-2 124M full fine-tune step replayed without memory, live bytes by op.

Shawlleyw/instructGPT2-colossal (held-out-45) fine-tunes GPT-2 124M (HF ``GPT2LMHeadModel``, eager
attention, dropout 0.1) in fp32 under ColossalAI's TorchDDPPlugin with HybridAdam, batch 4 padded to the
longest sample and truncated at 512 tokens, ``loss = model(**batch).loss``, ``booster.backward``,
``optimizer.step()``, ``optimizer.zero_grad()``; the figure is ``torch.cuda.max_memory_allocated()``
after the epoch (7.47 GiB).

This records a few steps with ``calibration/alloc_trace.py``'s recorder under ``FakeTensorMode`` (every
storage's birth and death in program order, no memory used): the weights, then steps of forward (the
outputs object kept through backward, as the loop keeps ``outputs``), backward and an fp32 AdamW step
(two fp32 states per parameter, as HybridAdam's GPU path keeps), with the gradients either kept as zeros
(``zero_grad(set_to_none=False)``, torch < 2.0's default) or freed. It reports the live peak above the
weights and what is live then, grouped by the op that made it. DDP's gradient buckets are NOT traced
(no process group here): torch's Reducer allocates one flat bucket copy of every trained parameter at
construction (``gradient_as_bucket_view=False``), at any world size, and the figure adds it apart.

CPU-vs-CUDA as est90_lora_step handles it: ``F.dropout`` is routed to ``aten.native_dropout`` (CUDA's
1-byte mask). The installed transformers' GPT-2 eager attention is used, not the 2023 release the job
ran (see docs/calibration.md "est94" for the difference).

Usage (imports torch and transformers; calibration only)::

    python -m calibration.est94_gpt2_step --out calibration/data/est94_gpt2_step.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

from calibration.est90_lora_step import _recorder, analyse

#: openai-community/gpt2's config.json (the fields that size memory)
GPT2_124M = dict(n_embd=768, n_layer=12, n_head=12, n_positions=1024, vocab_size=50257, n_inner=None,
                 resid_pdrop=0.1, embd_pdrop=0.1, attn_pdrop=0.1, activation_function="gelu_new",
                 tie_word_embeddings=True)


def record(batch: int, seq: int, keep_grads: bool, steps: int = 3) -> Tuple[List[Tuple[str, int, int]],
                                                                             Dict[int, Tuple[str, int]], int]:
    import torch
    import torch.nn.functional as F
    import transformers
    from torch._subclasses.fake_tensor import FakeTensorMode

    from preflight.guard.tracking import FakeSwap, ScalarStub

    def cuda_dropout(x: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
        if not training or p == 0.0:
            return x
        return torch.ops.aten.native_dropout(x, p, True)[0]

    F.dropout = cuda_dropout  # type: ignore[assignment]
    torch.manual_seed(0)
    cfg = transformers.AutoConfig.for_model("gpt2", **GPT2_124M)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float32,
                                                              attn_implementation="eager")
    model.train()
    dev = torch.device("cpu")
    fake = FakeTensorMode()
    rec = _recorder()
    with FakeSwap(model, fake, dev), fake, ScalarStub():
        optimizer = torch.optim.AdamW(model.parameters(), lr=2.4e-5, foreach=False)
        with rec:
            for p in model.parameters():
                rec.see(p)
            for b in model.buffers():
                rec.see(b)
            weights = len(rec.events)
            for _ in range(steps):
                ids = torch.randint(0, cfg.vocab_size, (batch, seq), device=dev)
                mask = torch.ones(batch, seq, dtype=torch.long, device=dev)
                labels = ids.clone()
                outputs = model(input_ids=ids, attention_mask=mask, labels=labels)
                loss = outputs.loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=not keep_grads)
                del outputs, loss, ids, mask, labels
        rec.enabled = False
    return rec.events, rec.made, weights


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=512)
    args = ap.parse_args(argv)
    import torch
    import transformers

    result: Dict[str, Any] = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__},
                              "setup": {"model": "GPT-2 124M", "batch": args.batch, "seq": args.seq,
                                        "precision": "fp32", "attention": "eager", "optimizer": "AdamW fp32"},
                              "cases": {}}
    for keep in (True, False):
        events, made, weights = record(args.batch, args.seq, keep)
        case = analyse(events, made, weights)
        case["ddp_bucket_gib"] = case["weights_gib"]   # one flat copy of every trained parameter
        case["live_peak_plus_ddp_bucket_gib"] = case["live_peak_gib"] + case["ddp_bucket_gib"]
        name = "grads-kept" if keep else "grads-freed"
        result["cases"][name] = case
        print(name, json.dumps(case, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
