"""Activation checkpointing applied to each decoder layer's submodules rather than to the layer (est56).

NeMo AutoModel's FSDP2 parallelizer (``nemo_automodel/components/distributed/parallelizer.py`` at b4733bdc1, the
commit that added the gradient-checkpointing guide's memory table, ``DefaultParallelizationStrategy``, lines
148-170; Llama takes the default strategy, line 272) wraps, for
``activation_checkpointing: true``, four modules of every layer with torch's ``checkpoint_wrapper``:
``layers[i].mlp``, ``layers[i].self_attn``, ``layers[i].input_layernorm`` and
``layers[i].post_attention_layernorm``. Each wrapper keeps its module's input, so a layer keeps four tensors of
the hidden width (the layer input, the attention's normalised input, the residual sum after attention, the MLP's
normalised input) where a checkpointed layer keeps one; the residual additions between them save nothing. In
backward one wrapped module is recomputed at a time: the largest, for a decoder the MLP (its gate and up outputs
and the down projection's input), not the whole layer.

Input: ``EstimateInput.ckpt_submodules`` (with ``grad_ckpt``).
"""

from __future__ import annotations

from typing import Any

from preflight.estimate import activations as A

#: tensors of the hidden width each layer keeps: the inputs of the four wrapped modules
WRAPPED_INPUTS = 4


def applies(inp: Any, arch: Any) -> bool:
    return bool(inp.grad_ckpt and getattr(inp, "ckpt_submodules", False)
                and getattr(arch, "family", "") == "decoder" and not inp.activation_offload)


def mlp_recompute(inp: Any, arch: Any, d: Any, tokens: float) -> float:
    """Bytes the MLP keeps while it is recomputed (its input is the wrapper's, counted already)."""
    ec = d.comp
    width = arch.intermediate_size
    per = A._mlp(arch, width, ec, True, frozenset())
    if inp.liger_kernels and inp.model_impl == "transformers":
        per -= A.liger_mlp_saved_less(arch, width, ec)
    return tokens * per


def apply(acts: dict, inp: Any, arch: Any, d: Any, notes: list) -> dict:
    """``acts`` with the wrapped modules' inputs kept per layer and one MLP recomputed at a time."""
    if not applies(inp, arch):
        return acts
    tokens = float(inp.micro_batch * int(inp.seq_len or 0))
    layers = int(arch.num_layers)
    per_input = tokens * arch.hidden_size * d.res
    out = dict(acts)
    out["saved"] = acts["saved"] + layers * (WRAPPED_INPUTS - 1) * per_input
    mlp = mlp_recompute(inp, arch, d, tokens)
    # the recomputed unit: the MLP, or what the rest of the layer keeps when that is larger
    out["recompute"] = min(acts["recompute"], max(mlp, acts["recompute"] - mlp))
    notes.append("activation checkpointing per submodule (attention, MLP and both norms wrapped apart): each "
                 "layer keeps the inputs of its four wrapped modules, and one module is recomputed at a time")
    return out
