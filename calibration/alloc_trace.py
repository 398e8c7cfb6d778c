"""Per-step allocation traces of a training step, recorded without memory (FakeTensorMode).

A ``TorchDispatchMode`` under ``FakeTensorMode`` sees every aten op of forward, backward (the
autograd engine's ops, the checkpoint recomputation included) and the optimizer step. For
each output whose storage it has not seen it records an allocation of the storage's bytes,
and a ``weakref.finalize`` on the storage records its free when the last tensor using it
dies, so the events come in the order the program allocates and frees. The model's
parameters and the batch are allocated first, in parameter order (as a load would).

What this does not see: temporaries a CUDA kernel allocates inside one aten op (the op's own
workspace), cuBLAS workspaces, and other streams; the CUDA and CPU kernels of an op may
differ in what they allocate. Allocation sizes are storage bytes, before the caching
allocator rounds them (``calibration/caching_allocator.py`` does that).

``shape_trace`` records one step at three sequence lengths and one more to check: when the
event sequence is the same at every length (it is for a decoder trained on one unpadded
sample with SDPA's causal kernel), every allocation's size is fitted EXACTLY as
``a + b*L + c*L**2`` through the three lengths and the fit is checked at the fourth, so a
step at any length can be written without recording it (``sizes_at``).

Imports torch and transformers (calibration only; never the base install).
"""

from __future__ import annotations

import math
import weakref
from fractions import Fraction
from typing import Any, Dict, List, Sequence, Tuple

Event = Tuple[str, int, int]


def _recorder_cls() -> Any:
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class AllocRecorder(TorchDispatchMode):
        """Records ("a", key, nbytes) when a new storage appears, ("f", key, 0) when it dies."""

        def __init__(self) -> None:
            super().__init__()
            self.events: List[Event] = []
            self._live: Dict[int, int] = {}
            self._next = 0
            self.enabled = True
            #: storage -> bytes of a 4-bit weight (bitsandbytes Linear4bit): its stored size,
            #: and a dequantized 16-bit copy around every matmul that reads it
            self.quantized: Dict[int, Tuple[int, int]] = {}

        def see(self, t: Any) -> None:
            if not isinstance(t, torch.Tensor):
                return
            st = t.untyped_storage()
            cdata = st._cdata
            if cdata in self._live:
                return
            key = self._next
            self._next += 1
            self._live[cdata] = key
            stored = self.quantized.get(cdata, (int(st.nbytes()), 0))[0]
            self.events.append(("a", key, stored))
            weakref.finalize(st, self._freed, cdata, key)

        def _dequantized(self, args: Any) -> int:
            for t in tree_leaves(args):
                if isinstance(t, torch.Tensor):
                    q = self.quantized.get(t.untyped_storage()._cdata)
                    if q is not None:
                        return q[1]
            return 0

        def _freed(self, cdata: int, key: int) -> None:
            if self._live.get(cdata) == key:
                del self._live[cdata]
                if self.enabled:
                    self.events.append(("f", key, 0))

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            deq = self._dequantized(args) if self.quantized and func in _MATMULS else 0
            if deq:   # MatMul4Bit: F.dequantize_4bit(B, state) before the matmul, freed after
                key = self._next
                self._next += 1
                self.events.append(("a", key, deq))
            out = func(*args, **(kwargs or {}))
            for t in tree_leaves(out):
                self.see(t)
            if deq:
                self.events.append(("f", key, 0))
            return out

    _MATMULS = (torch.ops.aten.mm.default, torch.ops.aten.addmm.default, torch.ops.aten.bmm.default)

    return AllocRecorder


#: held-out-6's ms-swift models: Qwen-7B-Chat as its qwen2-equivalent config (as the rows
#: write it), Yi-6B-Chat (a Llama).
MODELS = {
    "qwen-7b": ("qwen2", dict(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                              num_attention_heads=32, num_key_value_heads=32, vocab_size=151936,
                              max_position_embeddings=8192, rms_norm_eps=1e-6,
                              tie_word_embeddings=False)),
    "yi-6b": ("llama", dict(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                            num_attention_heads=32, num_key_value_heads=4, vocab_size=64000,
                            max_position_embeddings=8192, rms_norm_eps=1e-5,
                            tie_word_embeddings=False)),
}


def lora_case(model: str, seq_len: int, batch: int = 1, grad_ckpt: bool = True) -> Any:
    """An ms-swift LoRA job of held-out-6 (bf16 weights, rank 8 on q/k/v, alpha 32, dropout
    0.05, checkpointing, SDPA standing in for flash-attn), as a calibration Case."""
    from calibration.matrix import Case

    model_type, cfg = MODELS[model]
    return Case(name=f"{model}-lora-s{seq_len}", model_type=model_type, task="causal-lm",
                hf_config=dict(cfg), batch=batch, seq_len=seq_len, precision="bf16",
                grad_ckpt=grad_ckpt, attention="sdpa", lora_r=8, lora_alpha=32,
                lora_dropout=0.05, lora_targets=("q_proj", "k_proj", "v_proj"))


def record(case: Any, micro_steps: int = 2, nf4: bool = False) -> Dict[str, Any]:
    """Events of building the job (parameters, batch) and ``micro_steps`` forward+backward
    passes followed by one optimizer step, as the HF Trainer runs gradient accumulation.

    ``nf4``: the frozen Linear weights of the decoder blocks (not the LM head or embeddings)
    stand for bitsandbytes NF4 weights with double quantization: stored at 0.5 B per weight
    plus one byte of absmax per 64 weights, and every matmul that reads one is preceded by
    the allocation of a 16-bit dequantized copy, freed after it (bitsandbytes 0.41
    ``MatMul4Bit`` forward and backward, est9's ``dequant_transient``).

    Returns ``{"setup": [...], "steps": [[...], ...], "optim": [...]}``: the events of the
    load, of each micro-step and of the optimizer step (keys are unique over the run).
    """
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    from calibration import build
    from preflight.guard.tracking import FakeSwap, ScalarStub

    device = torch.device("cpu")
    torch.manual_seed(0)
    config = build.hf_config(case)
    model = build.build_model(case, torch.device("meta"))
    fake_mode = FakeTensorMode()
    rec = _recorder_cls()()
    out: Dict[str, Any] = {"steps": []}
    with FakeSwap(model, fake_mode, device), fake_mode, ScalarStub():
        optimizer = build.build_optimizer(case, model)
        batch = build.build_batch(case, config, device)
        if nf4:
            for name, module in model.named_modules():
                w = getattr(module, "weight", None)
                if (isinstance(module, torch.nn.Linear) and w is not None and not w.requires_grad
                        and "lm_head" not in name and "lora_" not in name):
                    n = w.numel()
                    rec.quantized[w.untyped_storage()._cdata] = (n // 2 + n // 64, n * 2)
        with rec:
            for p in model.parameters():
                rec.see(p)
            for b in model.buffers():
                rec.see(b)
            for t in batch.values():
                rec.see(t)
            out["setup"] = rec.events
            for _ in range(micro_steps):
                rec.events = []
                loss = model(**batch).loss
                loss.backward()
                del loss
                out["steps"].append(rec.events)
            rec.events = []
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            out["optim"] = rec.events
        rec.enabled = False
    return out


def _fit3(xs: Sequence[int], ys: Sequence[int]) -> Tuple[Fraction, Fraction, Fraction]:
    """Exact a, b, c with a + b*x + c*x**2 = y at three points."""
    (x0, x1, x2), (y0, y1, y2) = xs, ys
    d01 = Fraction(y1 - y0, x1 - x0)
    d12 = Fraction(y2 - y1, x2 - x1)
    c = (d12 - d01) / (x2 - x0)
    b = d01 - c * (x0 + x1)
    a = y0 - b * x0 - c * x0 * x0
    return a, b, c


def shape_trace(case_at: Any, lengths: Sequence[int], check: int, nf4: bool = False) -> Dict[str, Any]:
    """Record one micro-step (the second: steady state) at three lengths and ``check``.

    Returns the event kinds/keys of the step, per-event (a, b, c) coefficients as strings,
    and the setup's sizes (parameters do not depend on length). Raises ValueError when the
    event sequences differ between lengths or the fit misses the check length.
    """
    runs = {n: record(case_at(n), nf4=nf4) for n in [*list(lengths), check]}
    ref = runs[lengths[0]]

    def shape(events: List[Event]) -> List[Tuple[str, int]]:
        return [(k, key) for k, key, _ in events]

    base = shape(ref["steps"][1])
    for n, run in runs.items():
        if shape(run["steps"][1]) != base:
            raise ValueError(f"the event sequence at {n} tokens differs from {lengths[0]}")
    coeffs = []
    for i, (kind, _key, _n) in enumerate(ref["steps"][1]):
        if kind != "a":
            coeffs.append(None)
            continue
        ys = [runs[n]["steps"][1][i][2] for n in lengths]
        a, b, c = _fit3(lengths, ys)
        got = a + b * check + c * check * check
        if got != runs[check]["steps"][1][i][2]:
            raise ValueError(f"event {i}: the size fit misses {check} tokens")
        coeffs.append((str(a), str(b), str(c)))
    first = ref["steps"][0]
    freed = {key for k, key, _ in first if k == "f"}
    kept = [n for k, key, n in first if k == "a" and key not in freed]  # gradients
    states = [n for k, key, n in ref["optim"] if k == "a"
              and key not in {kk for t, kk, _ in ref["optim"] if t == "f"}]
    return {"lengths": list(lengths), "check": check,
            "setup": [n for k, _, n in ref["setup"] if k == "a"],
            "persistent": kept + states,
            "step": [(k, key) for k, key, _ in ref["steps"][1]], "coeffs": coeffs}


def _compile(trace: Dict[str, Any]) -> List[Tuple[str, int, int, int, int, int]]:
    """(kind, key, A, B, C, D) with size = (A + B*L + C*L*L) // D exactly, parsed once."""
    compiled = trace.get("_compiled")
    if compiled is None:
        compiled = []
        for (kind, key), co in zip(trace["step"], trace["coeffs"]):
            a, b, c = (Fraction(v) for v in co) if co else (Fraction(0),) * 3
            d = math.lcm(a.denominator, b.denominator, c.denominator)
            compiled.append((kind, key, int(a * d), int(b * d), int(c * d), d))
        trace["_compiled"] = compiled
    return compiled


def sizes_at(trace: Dict[str, Any], seq: int) -> List[Event]:
    """The step's events at ``seq`` tokens, from the fitted coefficients."""
    sq = seq * seq
    return [(kind, key, (a + b * seq + c * sq) // d if kind == "a" else 0)
            for kind, key, a, b, c, d in _compile(trace)]
