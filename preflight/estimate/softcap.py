"""Soft-capped attention and logits (Gemma 2): what a model that caps its scores with ``tanh``
keeps for backward (est54).

Gemma 2's config caps the attention scores (``attn_logit_softcapping``, Gemma2Config's default
50.0) and the final logits (``final_logit_softcapping``, default 30.0): ``cap * tanh(x / cap)``.
SDPA takes no soft cap, so a model that honours it writes the attention out by hand.

- litgpt (``litgpt/model.py`` at v0.4.11, ``CausalSelfAttention.scaled_dot_product_attention``,
  "# with softcapping we cannot use SDPA"): ``scores = q @ k.mT * scale``, ``torch.tanh(scores /
  cap) * cap``, ``scores + mask``, ``softmax(scores, dim=-1, dtype=torch.float).to(q.dtype)``,
  ``scores @ v``: the whole (heads x seq x seq) probabilities exist, as in eager attention, and
  ``tanh`` keeps its output (its backward reads it: ``tanh_backward(grad, result)``), one more
  score-sized tensor in the compute dtype. ``GPT.forward`` caps the logits the same way
  (``torch.tanh(x / cap) * cap``), so the tanh output, a logits-sized tensor, stays saved until the
  loss's backward reaches it.
- transformers: its Gemma 2 attention applies the cap in the eager path only; which attention
  runs follows the job's ``attention`` (not changed here).

``extra["attn_softcap"]`` / ``extra["final_softcap"]`` are read by ``arch_knobs.decoder_knobs``.
"""

from __future__ import annotations

from typing import Any


def attn_softcap(arch: Any) -> bool:
    """The config caps the attention scores."""
    return bool((getattr(arch, "extra", {}) or {}).get("attn_softcap"))


def final_softcap(arch: Any) -> bool:
    """The config caps the final logits."""
    return bool((getattr(arch, "extra", {}) or {}).get("final_softcap"))


def scores_by_hand(impl: str, arch: Any) -> bool:
    """The attention is computed by hand (scores materialised) because the implementation
    honours a soft cap SDPA cannot take: litgpt."""
    return impl == "litgpt" and attn_softcap(arch)


def softcap_logits_bytes(impl: str, arch: Any, tv: float, elem: float) -> float:
    """Bytes of the final soft-cap's saved ``tanh`` output: one logits-sized tensor in the
    logits' dtype (``tv`` = tokens x vocabulary), litgpt only."""
    return float(tv) * float(elem) if (impl == "litgpt" and final_softcap(arch)) else 0.0
