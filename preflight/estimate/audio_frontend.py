"""wav2vec 2.0's convolutional feature encoder in training: what it keeps and its backward's peak.

transformers' ``Wav2Vec2FeatureEncoder`` turns the raw 16 kHz waveform into frames with a stack
of Conv1d layers (``conv_dim`` / ``conv_kernel`` / ``conv_stride``; XLS-R: 512 channels, strides
5, 2, 2, 2, 2, 2, 2: 31,999 positions per 10 s after the first layer, 64 times the 499 frames
the Transformer sees). Each layer (``modeling_wav2vec2.py``, 4.x and 5.x alike) is
``conv -> norm -> GELU`` (``Wav2Vec2LayerNormConvLayer``; with ``feat_extract_norm="group"``
only the first layer has a GroupNorm, the others ``Wav2Vec2NoLayerNormConvLayer``). The encoder
sets ``hidden_states.requires_grad = True`` in training unless ``freeze_feature_encoder()`` ran,
and with gradient checkpointing each conv layer is checkpointed alone
(``self._gradient_checkpointing_func(conv_layer.__call__, hidden_states)``).

Per layer, for ``n_in`` input and ``n`` output elements (bytes per element by dtype):

- the conv saves its input in the conv's dtype (under autocast a bf16/fp16 copy; CUDA's
  lower-precision list), the norm saves its input (under autocast an fp32 copy: ``layer_norm``
  and ``group_norm`` are on CUDA's fp32 list) and GELU saves its input (the norm's output, or
  the conv's when there is no norm); the layer's output has GELU's input dtype;
- with checkpointing only each layer's input and the last output are kept; the last layer to
  run backward, the first conv layer (the largest), recomputes its saved tensors and holds its
  output, the gradient arriving at it and GELU's input gradient: saved + 3 x its output;
- without checkpointing the saved tensors are kept; at the first layer's backward its saved
  tensors and two output-sized gradients are live.

A fake-tensor recording of transformers' encoder (``calibration/wav2vec2_feature_encoder.py``,
``calibration/data/est48_wav2vec2_feature_encoder.json``; CUDA's autocast rules) checks both:
``tests/test_audio_frontend.py`` pins these sums to it within 2%.

These tensors follow the clip's length: under dynamic padding they are length-dependent
transients (``length_cache.py``), the largest of the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class FrontendActs:
    kept: float   # bytes kept from forward to backward (beside the Transformer's activations)
    end: float    # bytes live at the first conv layer's backward (the end of the model's backward)


def _positions(samples: int, stack: list[dict[str, int]]) -> list[int]:
    out, length = [], samples
    for layer in stack:
        length = (length - int(layer["kernel"])) // max(int(layer["stride"]), 1) + 1
        out.append(max(length, 0))
    return out


def samples_for(frames: int, stack: list[dict[str, int]]) -> int:
    """Waveform samples of a batch whose Transformer sees ``frames`` frames (the stack's hop)."""
    hop = 1
    for layer in stack:
        hop *= max(int(layer["stride"]), 1)
    return int(frames) * hop


def feature_encoder(arch: Any, *, batch: int, frames: int, autocast: bool, comp: int,
                    grad_ckpt: bool, frozen: bool = False) -> Optional[FrontendActs]:
    """The feature encoder's training memory for ``batch`` clips of ``frames`` frames, or None
    when ``arch`` is not a wav2vec 2.0 layout. ``frozen`` (``freeze_feature_encoder()``): no
    parameter and no input requires grad, so only the last output, the feature projection's
    input, is kept."""
    x = getattr(arch, "extra", None) or {}
    stack = list(x.get("conv_stack") or [])
    if x.get("layout") != "wav2vec2" or not stack or batch <= 0 or frames <= 0:
        return None
    samples = samples_for(frames, stack)
    lengths = _positions(samples, stack)
    every = x.get("feat_extract_norm") == "layer"
    in_bytes = 4.0                      # the waveform batch is fp32 (Wav2Vec2FeatureExtractor)
    n_in = float(batch * samples)
    saved: list[float] = []
    outputs: list[float] = []
    out_bytes: list[float] = []
    for i, (layer, length) in enumerate(zip(stack, lengths)):
        n = float(batch * int(layer["channels"]) * length)
        conv_b = float(comp) if autocast else in_bytes
        norm = every or i == 0
        norm_b = 4.0 if autocast else conv_b
        gelu_b = norm_b if norm else conv_b
        saved.append(conv_b * n_in + (norm_b * n if norm else 0.0) + gelu_b * n)
        outputs.append(n)
        out_bytes.append(gelu_b)
        in_bytes, n_in = gelu_b, n
    last = out_bytes[-1] * outputs[-1]
    if frozen:
        return FrontendActs(kept=last, end=0.0)
    first_out = out_bytes[0] * outputs[0]
    if grad_ckpt:
        kept = sum(b * n for b, n in zip(out_bytes, outputs))
        end = saved[0] + 3 * first_out
    else:
        kept = sum(saved) + last
        end = max(kept, saved[0] + 2 * first_out)
    return FrontendActs(kept=kept, end=end)


__all__ = ["FrontendActs", "feature_encoder", "samples_for"]
