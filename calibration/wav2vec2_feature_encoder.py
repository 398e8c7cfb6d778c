"""Live bytes of wav2vec 2.0's convolutional feature encoder in training, recorded on fake tensors.

transformers' ``Wav2Vec2FeatureEncoder`` (the seven Conv1d + norm + GELU layers that turn 16 kHz
waveforms into frames) runs on fake tensors (``FakeTensorMode``: no memory, no GPU) under CUDA's
bf16 autocast rules, applied by patched Conv1d/LayerNorm/GroupNorm forwards because this CPU build cannot make CUDA
tensors and CPU autocast keeps ``layer_norm`` in bf16: ``conv1d`` casts its floating inputs to
bf16 (CUDA's lower-precision list), ``layer_norm`` and ``group_norm`` to fp32 (CUDA's fp32
list, ``aten/src/ATen/autocast_mode.cpp``), GELU runs in its input's dtype; ``calibration.alloc_trace``'s recorder logs every storage's allocation and free
through forward and backward, with and without the per-conv-layer checkpointing that
``gradient_checkpointing_enable()`` turns on (``self._gradient_checkpointing_func(conv_layer.__call__,
hidden_states)``, reentrant as transformers' default). Reported: the bytes still allocated when
forward returns (what the encoder keeps for backward, beside the batch) and the peak during its
backward above the bytes kept at forward's end of the other layers (the transient at the end of
the model's backward, when the encoder's backward runs last).

Run: python calibration/wav2vec2_feature_encoder.py  (imports torch and transformers; calibration
only). Output: calibration/data/est48_wav2vec2_feature_encoder.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# facebook/wav2vec2-xls-r-300m's feature encoder (conv_dim, conv_kernel, conv_stride, layer norm, bias)
XLSR = dict(conv_dim=[512] * 7, conv_kernel=[10, 3, 3, 3, 3, 2, 2], conv_stride=[5, 2, 2, 2, 2, 2, 2],
            conv_bias=True, feat_extract_norm="layer", feat_extract_activation="gelu")


def _cuda_autocast(enc: Any) -> None:
    """Each Conv1d of ``enc`` casts its input, weight and bias to bf16, each LayerNorm/GroupNorm
    to fp32, as CUDA autocast does (patched forwards: they hold inside checkpoint's recomputation)."""
    import torch
    import torch.nn.functional as F

    def conv(m: Any) -> Any:
        def forward(x: Any) -> Any:
            b = m.bias.to(torch.bfloat16) if m.bias is not None else None
            return F.conv1d(x.to(torch.bfloat16), m.weight.to(torch.bfloat16), b, m.stride, m.padding,
                            m.dilation, m.groups)
        return forward

    def layer_norm(m: Any) -> Any:
        return lambda x: F.layer_norm(x.float(), m.normalized_shape, m.weight.float(), m.bias.float(), m.eps)

    def group_norm(m: Any) -> Any:
        return lambda x: F.group_norm(x.float(), m.num_groups, m.weight.float(), m.bias.float(), m.eps)

    for m in enc.modules():
        if isinstance(m, torch.nn.Conv1d):
            m.forward = conv(m)
        elif isinstance(m, torch.nn.LayerNorm):
            m.forward = layer_norm(m)
        elif isinstance(m, torch.nn.GroupNorm):
            m.forward = group_norm(m)


def run(batch: int, samples: int, ckpt: bool, norm: str = "layer") -> Dict[str, Any]:
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from transformers import Wav2Vec2Config
    from transformers.models.wav2vec2.modeling_wav2vec2 import Wav2Vec2FeatureEncoder

    from calibration.alloc_trace import _recorder_cls

    cfg = Wav2Vec2Config(**{**XLSR, "feat_extract_norm": norm})
    fake = FakeTensorMode()
    rec = _recorder_cls()()
    with fake:
        enc = Wav2Vec2FeatureEncoder(cfg)
        enc.train()
        _cuda_autocast(enc)
        if ckpt:
            from functools import partial

            import torch.utils.checkpoint as cp
            # transformers 4.x sets these on the encoder, 5.x on each conv layer
            # (GradientCheckpointingLayer): the same per-layer checkpoint either way
            for module in (enc, *enc.conv_layers):
                module.gradient_checkpointing = True
                module._gradient_checkpointing_func = partial(cp.checkpoint, use_reentrant=True)
        x = torch.zeros(batch, samples)
        with rec:
            for p in enc.parameters():
                rec.see(p)
            rec.see(x)
            base = list(rec.events)
            rec.events = []
            out = enc(x)
            fwd = list(rec.events)
            rec.events = []
            out.float().sum().backward()
            bwd = list(rec.events)
            del out
    sizes: Dict[int, int] = {k: n for kind, k, n in base + fwd + bwd if kind == "a"}
    live = sum(n for kind, k, n in base if kind == "a")
    setup = live
    for kind, k, n in fwd:
        live += n if kind == "a" else -sizes[k]
    kept = live - setup
    peak = live
    for kind, k, n in bwd:
        live += n if kind == "a" else -sizes[k]
        peak = max(peak, live)
    return {"batch": batch, "samples": samples, "grad_ckpt": ckpt, "feat_extract_norm": norm,
            "kept_after_forward": kept, "backward_peak_above_setup": peak - setup}


def main() -> None:
    import torch
    import transformers

    rows = [run(b, s, c, n) for b, s in ((8, 160_000), (2, 48_000)) for c in (True, False)
            for n in ("layer", "group")]
    out = {"torch": torch.__version__, "transformers": transformers.__version__, "device": "fake tensors, CUDA autocast rules emulated",
           "config": XLSR, "runs": rows}
    path = Path(__file__).resolve().parent / "data" / "est48_wav2vec2_feature_encoder.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
