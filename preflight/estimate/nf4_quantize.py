"""GPU memory of quantizing one weight to torchao's NF4 (torchtune's 4-bit base), while the model loads (est62).

torchtune builds a QLoRA model with its frozen linear weights as torchao ``NF4Tensor`` and loads the checkpoint into
them through an in-place copy that quantizes each incoming 16-bit tensor on the GPU, one at a time
(``torchtune/utils/_register_nf4_dispatch_ops.py`` at ff594c23, ``inplace_copy``:
``ref_tensor = to_nf4(args[0][1].to(dest_tensor.device))``; the model is built under ``with self._device`` and the
whole 4-bit model is there before ``model.load_state_dict`` runs: ``recipes/lora_finetune_single_device.py``
``_setup_model``). What ``to_nf4`` holds beside the incoming tensor of ``n`` elements (``e`` bytes each) depends on
the torchao release:

- torchao 0.1 (the pin of torchtune 0.1.0 and 0.1.1: ``pyproject.toml`` ``"torchao==0.1"``):
  ``NF4Tensor.convert_to_norm_float_weight`` keeps the scaled blocks (``blocks / scales``, ``n x e``) and
  ``quantize_tensor_nearest`` compares every element with the 16 NF4 levels at once
  (``diff = (value - nf4).abs()`` with ``value`` of shape ``(n, 1)`` and ``nf4`` of 16 values in the input's dtype:
  the difference and its absolute value, ``2 x 16 x n x e``, exist together). Peak: ``n x (e + e + 32 e)``, 68 bytes
  an element for 16-bit weights.
- From torchao 0.2.0 (pytorch/ao#196, "perform in chunks", 2024-05-01; torchtune 0.2.0 pins torchao 0.3.1): the
  comparison runs over chunks of ``CHUNK_SIZE`` = 1024**2 elements into a preallocated ``uint8`` index buffer
  (``n`` bytes), then packs pairs (``quantized_blocks[::2] << 4 | quantized_blocks[1::2]``: two ``n / 2`` byte
  tensors). Peak: the larger of ``n x (e + e + 1) + 2 x 16 x CHUNK x e`` (a chunk's comparison) and
  ``n x (e + e + 1 + 1)`` (the packing).

Unknown torchtune release: the chunked code (the current one). Not torchtune (bitsandbytes through transformers,
Lightning, litgpt): its CUDA kernel quantizes in place of the 16-bit copy (``Params4bit._quantize``), ``n x e``.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate.torchtune_loop import torchtune_minor

#: torchtune's first release whose torchao pin quantizes in chunks (torchtune 0.1.x pins torchao 0.1; 0.2.0 pins
#: 0.3.1; torchao's chunking is in 0.2.0, 2024-05-20)
CHUNKED_FROM_TORCHTUNE = (0, 2)
#: torchao ``nf4tensor.CHUNK_SIZE`` (0.2.0 on): elements compared with the NF4 levels at once
CHUNK_SIZE = 1024 ** 2
#: NF4 levels every element is compared with (``NF4Tensor.from_tensor``'s ``nf4`` lookup table)
NF4_LEVELS = 16
#: bytes of each incoming checkpoint element (16-bit checkpoints)
INCOMING_BYTES = 2


def torchao_nf4(inp: Any) -> bool:
    """The job's 4-bit base is torchao's NF4 as torchtune builds it."""
    return getattr(inp, "model_impl", None) == "torchtune" and getattr(inp, "quant", None) == "4bit"


def unchunked(inp: Any) -> bool:
    """torchtune older than 0.2 (torchao 0.1): every element compared with the 16 levels at once."""
    version = torchtune_minor(inp)
    return version is not None and version < CHUNKED_FROM_TORCHTUNE


def quantize_transient(inp: Any, largest: float) -> float:
    """Bytes on the GPU, beside the model already loaded, while the largest weight (``largest`` elements) is
    quantized: the incoming 16-bit tensor plus what the quantizer holds (module docstring)."""
    e = INCOMING_BYTES
    if not torchao_nf4(inp):
        return largest * e
    if unchunked(inp):
        return largest * (e + e + 2 * NF4_LEVELS * e)
    return max(largest * (e + e + 1) + 2 * NF4_LEVELS * min(CHUNK_SIZE, largest) * e,
               largest * (e + e + 1 + 1))
