"""Position tables a hand-written model keeps on the GPU that its nearest Hugging Face layout lacks (est63).

Rows that run a model written from scratch are estimated through the nearest transformers config
(``model_impl`` stays "transformers"). Two position tables of such code are not in that layout:

- ``"rope"``: one fp32 ``cos`` / ``sin`` pair of ``context_length x head_dim`` registered as buffers and
  moved to the GPU with the model (LLMs-from-scratch 28c65cd ``pkg/llms_from_scratch/llama3.py`` lines
  68-75 and ``qwen3.py`` lines 141-147: ``cos, sin = compute_rope_params(..., context_length=
  cfg["context_length"])``, ``self.register_buffer("cos", cos, persistent=False)``; ``compute_rope_params``
  builds them with ``dtype=torch.float32``). transformers' own Llama keeps only ``inv_freq`` from 4.41 (the
  per-layer tables of older releases: ``rotary_tables.py``).
- ``"rope_local_global"`` (est66): two such fp32 pairs, Gemma 3's local and global RoPE bases. The book's
  Gemma3Model (LLMs-from-scratch 28c65cd ``ch05/12_gemma3/standalone-gemma3.ipynb``, also at f571b5e)
  calls ``compute_rope_params(..., theta_base=cfg["rope_local_base"], context_length=cfg["context_length"],
  dtype=torch.float32)`` and again with ``theta_base=cfg["rope_base"]``, and registers ``cos_local``,
  ``sin_local``, ``cos_global`` and ``sin_global`` as buffers: 4 x 32,768 x 256 x 4 bytes = 128 MiB for
  Gemma 3 270M.
- ``"learned"``: a learned absolute position embedding (``nn.Embedding(context_length, emb_dim)``, the
  book's GPT in ``ch04/04_gqa/gpt_with_kv_gqa.py`` and ``ch04/07_moe``) on a config type without one (a
  llama config written for grouped-query attention): ``max_position_embeddings x hidden`` weights in the
  model's dtype. Counted in inference and generation only: a trained table would also take gradients and
  optimizer states, which this term does not add.
"""

from __future__ import annotations

from typing import Any

POSITION_TABLES = ("rope", "rope_local_global", "learned")


def position_table_bytes(inp: Any, arch: Any) -> int:
    """Bytes of the table ``inp.position_table`` names (module docstring); 0 without one."""
    kind = getattr(inp, "position_table", None)
    if not kind or arch is None:
        return 0
    positions = int(arch.max_position or 0)
    if kind == "rope":
        return 2 * positions * int(arch.head_dim) * 4          # fp32 cos + sin
    if kind == "rope_local_global":
        return 2 * 2 * positions * int(arch.head_dim) * 4      # two fp32 cos + sin pairs
    if kind == "learned" and getattr(inp, "mode", "train") != "train":
        precision = str(getattr(inp, "precision", ""))
        element = 4 if precision == "fp32" or (precision.startswith("amp") and inp.weights_bits != 16) else 2
        return positions * int(arch.hidden_size) * element
    return 0
