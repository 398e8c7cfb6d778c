"""Support of PF386/PF387: which module names a model family has, and what a LoRA config's
``target_modules`` list matches in it.

The names are the submodule attribute names of the transformers implementation of each
``model_type`` (``modeling_<type>.py``: every ``self.<name> = nn.Module(...)`` of the model, its
layers, attention, MLP, norms and heads), read from the transformers sources; a few families also
carry the names of the remote-code implementation their Hub repositories shipped before transformers
had one (``mpt``, ``phi`` 1.5/2, ``falcon``'s RefinedWeb), so that a job loading either passes.
PEFT matches a list entry against a module's dotted name: equal, or the name ends with
``"." + entry`` (``peft.tuners.tuners_utils.check_target_module_exists``), so an entry matches
when its last dotted component is one of these names (and, for a dotted entry, its earlier
components are also names of the family). A family not in this table is unknown: the rules stay
silent. Mixture-of-experts families are left out on purpose (their expert layout changed between
transformers releases).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from preflight.diagnostics import Evidence
from preflight.plan import Fact, TrainingPlan

if TYPE_CHECKING:
    from preflight.plan_rules import PlanContext

# heads the task classes add on top of any decoder/encoder (AutoModelFor{SequenceClassification,
# TokenClassification,QuestionAnswering,CausalLM}) and the wrappers' container names
_HEADS = frozenset({"lm_head", "score", "classifier", "qa_outputs", "model", "base_model"})

_LLAMA = frozenset({
    "embed_tokens", "layers", "self_attn", "q_proj", "k_proj", "v_proj", "o_proj", "mlp", "gate_proj",
    "up_proj", "down_proj", "act_fn", "input_layernorm", "post_attention_layernorm", "norm", "rotary_emb",
})
_GPT2 = frozenset({
    "transformer", "wte", "wpe", "drop", "h", "ln_1", "attn", "c_attn", "q_attn", "c_proj", "attn_dropout",
    "resid_dropout", "ln_2", "mlp", "c_fc", "act", "dropout", "ln_f", "crossattention", "ln_cross_attn",
})
_BERT = frozenset({
    "bert", "roberta", "embeddings", "word_embeddings", "position_embeddings", "token_type_embeddings",
    "LayerNorm", "dropout", "encoder", "layer", "attention", "self", "query", "key", "value", "output", "dense",
    "intermediate", "intermediate_act_fn", "pooler", "activation", "cls", "predictions", "transform",
    "transform_act_fn", "decoder", "layer_norm", "out_proj", "crossattention",
})
_T5 = frozenset({
    "shared", "encoder", "decoder", "embed_tokens", "block", "layer", "SelfAttention", "EncDecAttention", "q", "k",
    "v", "o", "relative_attention_bias", "layer_norm", "DenseReluDense", "wi", "wo", "wi_0", "wi_1", "dropout",
    "act", "final_layer_norm",
})

MODULE_NAMES: dict[str, frozenset[str]] = {
    "llama": _LLAMA,
    "mistral": _LLAMA,
    "qwen2": _LLAMA,
    "qwen3": _LLAMA | {"q_norm", "k_norm"},
    "olmo": _LLAMA,
    "gemma": _LLAMA,
    "gemma2": _LLAMA | {"pre_feedforward_layernorm", "post_feedforward_layernorm"},
    "gemma3_text": _LLAMA | {"pre_feedforward_layernorm", "post_feedforward_layernorm", "q_norm", "k_norm"},
    "phi3": frozenset({
        "embed_tokens", "layers", "self_attn", "qkv_proj", "o_proj", "mlp", "gate_up_proj", "down_proj",
        "activation_fn", "input_layernorm", "post_attention_layernorm", "resid_attn_dropout", "resid_mlp_dropout",
        "norm", "rotary_emb",
    }),
    "phi": frozenset({
        "embed_tokens", "embed_dropout", "layers", "self_attn", "q_proj", "k_proj", "v_proj", "dense", "mlp", "fc1",
        "fc2", "activation_fn", "input_layernorm", "resid_dropout", "final_layernorm", "rotary_emb",
        # the remote code of phi-1.5/phi-2 before transformers 4.37 (modeling_phi.py of the Hub repository)
        "transformer", "embd", "wte", "h", "ln", "mixer", "Wqkv", "out_proj", "inner_attn", "inner_cross_attn", "act",
        "linear",
    }),
    "starcoder2": frozenset({
        "embed_tokens", "layers", "self_attn", "q_proj", "k_proj", "v_proj", "o_proj", "mlp", "c_fc", "c_proj", "act",
        "input_layernorm", "post_attention_layernorm", "norm", "rotary_emb",
    }),
    "gpt2": _GPT2,
    "gpt_bigcode": _GPT2,
    "gpt_neox": frozenset({
        "gpt_neox", "embed_in", "emb_dropout", "layers", "input_layernorm", "post_attention_layernorm",
        "post_attention_dropout", "post_mlp_dropout", "attention", "query_key_value", "dense", "attention_dropout",
        "rotary_emb", "mlp", "dense_h_to_4h", "dense_4h_to_h", "act", "final_layer_norm", "embed_out",
    }),
    "bloom": frozenset({
        "transformer", "word_embeddings", "word_embeddings_layernorm", "h", "input_layernorm", "self_attention",
        "query_key_value", "dense", "attention_dropout", "post_attention_layernorm", "mlp", "dense_h_to_4h",
        "gelu_impl", "dense_4h_to_h", "ln_f",
    }),
    "falcon": frozenset({
        "transformer", "word_embeddings", "h", "ln_attn", "ln_mlp", "input_layernorm", "post_attention_layernorm",
        "self_attention", "query_key_value", "dense", "attention_dropout", "rotary_emb", "maybe_rotary", "mlp",
        "dense_h_to_4h", "act", "dense_4h_to_h", "ln_f",
    }),
    "gptj": frozenset({
        "transformer", "wte", "drop", "h", "ln_1", "attn", "q_proj", "k_proj", "v_proj", "out_proj", "attn_dropout",
        "resid_dropout", "mlp", "fc_in", "fc_out", "act", "dropout", "ln_f",
    }),
    "opt": frozenset({
        "decoder", "embed_tokens", "embed_positions", "project_in", "project_out", "final_layer_norm", "layers",
        "self_attn", "q_proj", "k_proj", "v_proj", "out_proj", "activation_fn", "self_attn_layer_norm", "fc1", "fc2",
    }),
    "mpt": frozenset({
        "transformer", "wte", "emb_drop", "blocks", "norm_1", "attn", "Wqkv", "out_proj", "norm_2", "ffn", "up_proj",
        "down_proj", "act", "resid_attn_dropout", "resid_ffn_dropout", "norm_f",
    }),
    "t5": _T5,
    "mt5": _T5,
    "bart": frozenset({
        "shared", "encoder", "decoder", "embed_tokens", "embed_positions", "layers", "self_attn", "encoder_attn",
        "q_proj", "k_proj", "v_proj", "out_proj", "self_attn_layer_norm", "encoder_attn_layer_norm", "activation_fn",
        "fc1", "fc2", "final_layer_norm", "layernorm_embedding", "classification_head", "dense",
    }),
    "bert": _BERT,
    "roberta": _BERT,
    "xlm-roberta": _BERT,
    "distilbert": frozenset({
        "distilbert", "embeddings", "word_embeddings", "position_embeddings", "LayerNorm", "dropout", "transformer",
        "layer", "attention", "q_lin", "k_lin", "v_lin", "out_lin", "sa_layer_norm", "ffn", "lin1", "lin2",
        "activation", "output_layer_norm", "pre_classifier", "vocab_transform", "vocab_layer_norm",
        "vocab_projector",
    }),
    "deberta-v2": frozenset({
        "deberta", "embeddings", "word_embeddings", "position_embeddings", "LayerNorm", "dropout", "encoder", "layer",
        "attention", "self", "query_proj", "key_proj", "value_proj", "pos_dropout", "pos_key_proj",
        "pos_query_proj", "output", "dense", "intermediate", "rel_embeddings", "conv", "pooler", "lm_predictions",
        "transform_act_fn",
    }),
}


# module names of families the rules do not judge (remote-code LLMs, mixture-of-experts, vision towers,
# diffusers UNets/transformers, projectors): a list entry that names one of them was written for such a
# model (a list shared by several families), not misspelled
OTHER_NAMES = frozenset({
    "W_pack", "wqkv", "wo", "w1", "w2", "w3", "gate", "experts", "shared_experts", "router", "in_proj",
    "x_proj", "dt_proj", "qkv", "proj", "query_key_value", "c_attn", "c_proj", "dense_h_to_4h", "dense_4h_to_h",
    "to_q", "to_k", "to_v", "to_out", "to_qkv", "conv1", "conv2", "conv_shortcut", "conv_in", "conv_out",
    "proj_in", "proj_out", "attn1", "attn2", "ff", "net", "linear", "linear_1", "linear_2", "fc", "mm_projector",
    "multi_modal_projector", "q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "gate_up_proj",
    "qkv_proj", "out_proj", "fc1", "fc2", "query", "key", "value", "self_attention", "language_model",
    "vision_model", "vision_tower", "lm_head", "embed_tokens",
})


def family_names(model_type: str) -> Optional[frozenset[str]]:
    """Every module name of a family (with the task heads), or None for a family not in the table."""
    names = MODULE_NAMES.get(model_type)
    return None if names is None else names | _HEADS


def entry_matches(entry: str, names: frozenset[str]) -> bool:
    """Whether a ``target_modules`` list entry can match a module of a family with these names: its
    last dotted component is a module name, and so is every earlier component that is not a layer
    index (``layers.0.self_attn.q_proj``)."""
    parts = [p for p in entry.split(".") if p]
    if not parts:
        return True  # nothing to judge
    return all(p in names or p.isdigit() for p in parts)


def job_model_type(plan: TrainingPlan) -> Optional[tuple[str, Fact]]:
    """The one catalog model family of the job (model_type, the model fact that names it), or None
    when the job names no model, a model the catalog does not hold, or several families."""
    try:
        from preflight import architectures
    except ImportError:  # pragma: no cover - the catalog ships with preflight
        return None
    found: Optional[tuple[str, Fact]] = None
    for fact in plan.facts("model.ref"):
        if not isinstance(fact.value, str) or fact.source.kind == "default":
            continue
        arch = architectures.lookup(fact.value)
        model_type = getattr(arch, "model_type", None) if arch is not None else None
        if not isinstance(model_type, str) or not model_type:
            return None  # a model the catalog does not hold: the family is not known
        if found is not None and found[0] != model_type:
            return None  # two families in one job: which one the adapter wraps is not known
        if found is None:
            found = (model_type, fact)
    return found


def missing_entries(targets: Sequence[object], names: frozenset[str]) -> Optional[list[str]]:
    """The list entries that match no module of the family, or None when the list cannot be judged
    (an entry that is not a plain string)."""
    if not all(isinstance(t, str) for t in targets):
        return None
    return [t for t in targets if isinstance(t, str) and not entry_matches(t, names)]


def model_evidence(pctx: PlanContext, fact: Fact, model_type: str) -> Optional[Evidence]:
    """Evidence at the place the model comes from: its file line, or, for a model named on the
    command line, the launch script's launch line."""
    message = f"the model: {fact.value} ({model_type})"
    found = pctx.fact_evidence(fact, message)
    if found is not None:
        return found
    launch = getattr(pctx.project, "launch_at", None) if pctx.project is not None else None
    if fact.source.kind == "cli" and launch:
        path, line = launch
        return Evidence(line=line, message=f"{message}, from `{fact.source.key}` on the launch line", path=path)
    return None


def judged_target_lists(plan: TrainingPlan) -> Iterator[tuple[str, Fact, Fact, Sequence[str], list[str]]]:
    """Each LoRA target list of the job that can be judged against the job's one catalog model family:
    (model_type, the model fact, the ``peft.target_modules`` fact, its entries, the entries that match
    no module of the family). Nothing when the job names no catalog model or several families."""
    family = job_model_type(plan)
    if family is None:
        return
    model_type, model_fact = family
    names = family_names(model_type)
    if names is None:
        return
    for fact in plan.facts("peft.target_modules"):
        targets = fact.value
        if not isinstance(targets, (list, tuple)) or not targets:
            continue
        missing = missing_entries(targets, names)
        if missing is not None:
            yield model_type, model_fact, fact, targets, missing
