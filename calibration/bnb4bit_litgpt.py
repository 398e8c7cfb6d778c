"""Counts what a 4-bit (bitsandbytes NF4) base adds to the peak of lit-gpt's LoRA fine-tune, on
CPU with torch's profiler, and writes ``calibration/data/bnb4bit_litgpt_peak.json``.

What the devset's litgpt NF4 rows run (lit-gpt 8641822, Oct 2023, ``finetune/lora.py
--quantize bnb.nf4[-dq]``): Lightning's ``BitsandbytesPrecision`` (lightning 71aed751, the
commit lit-gpt's requirements pin) builds the model inside ``fabric.init_module()``, whose
``_ClassReplacementContextManager({"torch.nn.Linear": _NF4Linear})`` turns EVERY ``nn.Linear``
into bitsandbytes' ``Linear4bit``, the LM head included (``ignore_modules`` is not passed);
``_Linear4bit._quantize_weight`` quantizes ``weight.to(device="cuda", dtype=torch.half)``, so
the quant state records **float16** although the model computes in bfloat16.

bitsandbytes 0.41.1's ``MatMul4Bit`` then runs, forward and backward,
``F.dequantize_4bit(B, state).to(A.dtype)``: ``dequantize_4bit`` allocates
``torch.empty(shape, dtype=state_dtype)`` (fp16) and ``.to(bfloat16)`` a second copy, so the
weight exists twice (4 bytes per element) for a moment; it keeps ``ctx.tensors = (A, B)``
(the input, though the weight is frozen).

bitsandbytes' CUDA kernels do not run on CPU. This script runs lit-gpt's own model (the source
is not committed: ``git --git-dir=<litgpt mirror> archive 8641822 lit_gpt | tar -x -C DIR``)
with every ``nn.Linear`` replaced, as Lightning does, by a module that follows MatMul4Bit
0.41.1 line for line and replaces only the dequantize kernel by the allocation it makes
(``torch.empty(shape, dtype=state_dtype)``, then filled). Allocations are what is counted; the
packed storage (``numel / 2`` uint8 + one fp32 absmax per 64) is the format's.

Three variants of one small Llama-shaped model (2 layers, ``lm_head_chunk_size=128`` and
``chunked_cross_entropy`` as the script calls them):

- ``bf16``: no quantization (the bf16 rows);
- ``nf4_fp16_state``: what Lightning does (every Linear 4-bit, fp16 state);
- ``nf4_bf16_state``: the same with the state in the compute dtype (no ``.to`` copy).

The peak of a training step minus the step's start (weights excluded) is compared with the
estimator's accounting: the difference between the variants is the dequantized LM head
(``vocab x dim``) in the state dtype plus its compute-dtype copy.

Run: ``python -m calibration.bnb4bit_litgpt DIR``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict

OUT = Path(__file__).resolve().parent / "data" / "bnb4bit_litgpt_peak.json"
TOKENS = 512
CFG = dict(n_layer=2, n_embd=512, n_head=8, intermediate_size=1376, padded_vocab_size=32000,
           vocab_size=32000)


def _emulated_linear(state_dtype: Any) -> Any:
    import torch

    class MatMul4BitEmu(torch.autograd.Function):
        """bitsandbytes 0.41.1 ``MatMul4Bit`` (autograd/_functions.py), dequantize emulated."""

        @staticmethod
        def forward(ctx: Any, A: Any, B: Any, shape: Any) -> Any:  # type: ignore[override]
            output = torch.nn.functional.linear(A, _dequant(B, shape).to(A.dtype))
            ctx.shape = shape
            ctx.tensors = (A, B)          # a strong reference, not save_for_backward
            return output

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:  # type: ignore[override]
            _A, B = ctx.tensors
            grad_A = torch.matmul(grad_output, _dequant(B, ctx.shape).to(grad_output.dtype))
            return grad_A, None, None

    def _dequant(B: Any, shape: Any) -> Any:
        # functional.dequantize_4bit: ``out = torch.empty(shape, dtype=dtype, device=A.device)``
        # then the kernel writes every element
        out = torch.empty(shape, dtype=state_dtype)
        out.uniform_(-0.02, 0.02)
        return out

    class Linear4bitEmu(torch.nn.Module):
        def __init__(self, in_features: int, out_features: int, bias: bool = True,
                     device: Any = None, dtype: Any = None) -> None:
            super().__init__()
            assert not bias
            n = in_features * out_features
            self.in_features, self.out_features = in_features, out_features
            # packed NF4 codes (two per byte) and one fp32 absmax per block of 64
            self.register_buffer("weight", torch.zeros(n // 2, 1, dtype=torch.uint8))
            self.register_buffer("absmax", torch.zeros(n // 64, dtype=torch.float32))

        def forward(self, x: Any) -> Any:
            return MatMul4BitEmu.apply(x, self.weight, (self.out_features, self.in_features))

    return Linear4bitEmu


def measure(src: str, variant: str) -> Dict[str, Any]:
    sys.path.insert(0, src)
    import torch
    from lit_gpt.lora import GPT, Config, mark_only_lora_as_trainable
    from lit_gpt.utils import chunked_cross_entropy
    from torch.profiler import ProfilerActivity, profile

    torch.manual_seed(0)
    cfg = Config.from_name("Llama-2-7b-hf", r=8, alpha=16, dropout=0.05, to_query=True,
                           to_value=True, **CFG)
    real_linear = torch.nn.Linear
    if variant != "bf16":
        state = torch.float16 if variant == "nf4_fp16_state" else torch.bfloat16
        torch.nn.Linear = _emulated_linear(state)  # type: ignore[misc]
    torch.set_default_dtype(torch.bfloat16)
    try:
        model = GPT(cfg)
    finally:
        torch.set_default_dtype(torch.float32)
        torch.nn.Linear = real_linear  # type: ignore[misc]
    mark_only_lora_as_trainable(model)
    model.max_seq_length = TOKENS
    ids = torch.randint(0, cfg.vocab_size, (1, TOKENS))
    targets = torch.randint(0, cfg.vocab_size, (1, TOKENS))
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        logits = model(ids, lm_head_chunk_size=128)
        logits[-1] = logits[-1][..., :-1, :]
        loss = chunked_cross_entropy(logits, targets[..., 1:])
        loss.backward()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        events = json.loads(path.read_text(encoding="utf-8"))["traceEvents"]
    mem = sorted((e for e in events if e.get("name") == "[memory]"), key=lambda e: e["ts"])
    base = mem[0]["args"]["Total Allocated"] - mem[0]["args"]["Bytes"]
    totals = [e["args"]["Total Allocated"] - base for e in mem]
    return {"variant": variant, "peak_bytes": max(totals)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src", help="a directory holding lit-gpt 8641822's lit_gpt package")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    import torch

    rows = [measure(args.src, v) for v in ("bf16", "nf4_fp16_state", "nf4_bf16_state")]
    head = CFG["padded_vocab_size"] * CFG["n_embd"]
    by = {r["variant"]: r["peak_bytes"] for r in rows}
    out = {"torch": torch.__version__, "litgpt": "8641822", "bitsandbytes_read": "0.41.1",
           "tokens": TOKENS, "config": CFG, "head_elements": head, "peaks": rows,
           "fp16_minus_bf16_state_in_head_elements":
               round((by["nf4_fp16_state"] - by["nf4_bf16_state"]) / head, 3)}
    print(json.dumps(out, indent=1))
    if args.write:
        OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
