"""A Transformers config class built in the script with its sizes as keywords, counted by the
layout its ``model_type`` names (read by :mod:`preflight.adapters.loop_shapes`).

MoonshotAI/Moonlight @ c2ad5b2 ``examples/toy_train.py:257-281``: ``Qwen2Config(hidden_size=
hidden_size, intermediate_size=4864, num_attention_heads=16, num_hidden_layers=12,
num_key_value_heads=16, tie_word_embeddings=True, vocab_size=151936, ...)`` then
``Qwen2ForCausalLM(config)``: a gated MLP of ``intermediate_size``, grouped-query attention with
the family's biases, rotary positions (``max_position_embeddings`` is no table), the head tied as
the config says: 331.6M, where the GPT formula (12 x L x d^2 + (V + positions) x d) gives 252M.

Only a class imported from ``transformers`` whose ``model_type`` (``Qwen2Config`` -> ``qwen2``) the
architecture reader knows, with every size keyword given and resolved (hidden size, layers, heads,
intermediate size, vocabulary); anything else leaves the caller's reading in place."""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

_NEEDED = ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size")
_OPTIONAL = ("num_key_value_heads", "head_dim", "tie_word_embeddings", "attention_bias", "mlp_bias",
             "max_position_embeddings", "num_experts", "num_local_experts", "moe_intermediate_size",
             "num_experts_per_tok", "hidden_act")


def hf_config_count(qualified: str, name: str, kw: dict[str, ast.expr],
                    resolve: Callable[[ast.expr], Any]) -> Optional[tuple[int, str]]:
    """``(parameters, detail)`` for ``transformers.<Family>Config(**sizes)``, or None."""
    if not qualified.startswith("transformers.") or not name.endswith("Config") or name == "Config":
        return None
    from preflight.estimate.arch import ArchitectureError, from_hf_config

    fields: dict[str, Any] = {}
    for key in (*_NEEDED, *_OPTIONAL):
        if key not in kw:
            if key in _NEEDED:
                return None
            continue
        got = resolve(kw[key])
        value = getattr(got, "value", None) if got is not None else None
        if value is None:
            if key in _NEEDED:
                return None
            continue
        fields[key] = value
    model_type = name[:-len("Config")].lower()
    try:
        arch = from_hf_config({**fields, "model_type": model_type}, name=name)
    except ArchitectureError:
        return None
    total = arch.params_total
    if not isinstance(total, int) or total <= 0:
        return None
    sizes = ", ".join(f"{k} {fields[k]}" for k in _NEEDED)
    return total, (f"{name}(...): {sizes}; {total:,} parameters counted as a {model_type} model of that shape "
                   "(the family's attention, gated MLP and head tying)")
