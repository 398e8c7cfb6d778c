"""What a softmax over fp16 scores keeps as its input before torch 1.11 (est63).

Before pytorch/pytorch#65242 (torch 1.11) autograd's ``SoftmaxBackward`` saved the softmax's input
``self`` beside its output (``terms.softmax_saves_input``). Which tensor that input is depends on how
the fp32 softmax is reached:

- ``torch.autocast`` on CUDA lists ``softmax.int`` under the ``fp32_set_opt_dtype`` policy
  (``aten/src/ATen/autocast_mode.cpp``: "if the output type is already set, don't touch it,
  otherwise, set it to at::kFloat"), so an fp16 ``softmax(x, dim)`` becomes ``softmax(x, dim,
  dtype=torch.float32)`` on the fp16 tensor itself: nothing is cast first. An explicit
  ``softmax(x, dim=-1, dtype=torch.float32)`` (transformers' Llama family) is the same call.
- ``at::softmax(input, dim, dtype)`` (``aten/src/ATen/native/SoftMax.cpp``, the same in every release
  read): ``if (input_.is_cuda() && input_.scalar_type() == ScalarType::Half && dtype ==
  ScalarType::Float) return at::_softmax(input_, dim_, true);`` -- the ``half_to_float`` kernel reads
  the fp16 scores and writes fp32 probabilities. Only otherwise (bf16, CPU) is the input converted
  (``input_.toType(dtype)``) and the fp32 copy is what ``_softmax`` receives and saves.

So on CUDA with fp16 scores the saved input is the fp16 scores, 2 bytes per element, not an fp32
copy: per score element torch 1.10's ``nn.MultiheadAttention`` under autocast keeps the fp16 scores
(2), the fp32 probabilities (4) and their fp16 cast for the probability matmul (2) = 8 bytes, not 10.

The scores stay fp16 up to the softmax only where nothing fp32 is added to them out of place:

- vision encoders without a mask or bias (ViT/DeiT, timm's ``Attention``, CLIP's and Chinese-CLIP's
  vision towers): fp16 ``q @ k^T`` times a Python scale;
- ``torch.nn.MultiheadAttention`` before torch 2.0 adds a float mask in place (``attn += attn_mask`` in
  ``_scaled_dot_product_attention``): the fp16 tensor stays fp16;
- DistilBERT masks with ``masked_fill`` (same dtype).

transformers' text models add an additive mask built in the model's parameter dtype (BERT's
``get_extended_attention_mask(...).to(dtype=self.dtype)``, GPT-2's and Llama's causal masks): fp32 under
autocast, so ``scores + mask`` is promoted to an fp32 tensor and that is the saved input (4 bytes); Swin
adds its fp32 relative-position bias the same way. Those keep 4, as do bf16 (no ``half_to_float`` path),
CPU, an explicit ``.float()`` before the softmax (T5's ``softmax(scores.float(), dim=-1)``) and apex AMP
O1, whose patched ``softmax`` receives ``x.float()`` (``apex/amp/utils.py`` ``maybe_float``; apex_amp.py).
"""

from __future__ import annotations

from typing import Any, Optional

#: model types whose scores reach the softmax in fp16: vision encoders without a mask or a position bias
#: (transformers' ViT / DeiT layout, which timm's rows use too; DINOv2) and DistilBERT's ``masked_fill``
_FP16_SCORES = frozenset({"vit", "deit", "dinov2", "distilbert"})


def softmax_input_bytes(inp: Any, arch: Any, vision_tower: bool = False) -> Optional[int]:
    """Bytes per score element of the softmax input saved before torch 1.11 when it is not the
    softmax output's own element size: 2 (the fp16 scores) where a CUDA fp16 softmax reaches fp32
    through the ``dtype`` argument (autocast fp16, or fp16 weights with an explicit
    ``dtype=torch.float32``) on scores nothing fp32 was added to (module docstring: a mask- and
    bias-free vision encoder, ``vision_tower`` of a CLIP model, ``torch.nn.MultiheadAttention``,
    DistilBERT); None otherwise (the input has the output's size)."""
    if str(getattr(inp, "device", "cuda")) != "cuda":
        return None
    if inp.precision not in ("amp-fp16", "fp16"):
        return None
    if str(getattr(inp, "amp_impl", "torch")) == "apex":
        return None
    if vision_tower or getattr(inp, "torch_mha", False):
        return 2
    return 2 if str(getattr(arch, "model_type", "")) in _FP16_SCORES else None
