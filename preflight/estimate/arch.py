"""Model architectures as numbers: read a Hugging Face ``config.json`` into an :class:`Architecture`.

Pure Python (no torch, no transformers): the estimator, the Hub fit and the catalogs all read
configs through :func:`from_hf_config` and count with :func:`count_params`, which lives in
:mod:`preflight.estimate.params` (what it counts is described there) and stays importable from
here.

What each architecture-specific knob means is kept in ``Architecture.extra`` (see
``arch_knobs.decoder_knobs``) so that ``count_params`` works on an ``Architecture`` alone; an
``Architecture`` built by hand without ``extra`` is counted with the family's plain layout
(decoder: Llama; encoder: BERT; encoder-decoder: T5; vision: ViT).

The records (:class:`Architecture`, :class:`ParamCount`, :class:`ArchitectureError`) and the
config access the readers share live in :mod:`preflight.estimate.arch_config` and stay
importable from here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, List, Mapping

from preflight.estimate import arch_more
from preflight.estimate.arch_config import (
    Architecture,
    ArchitectureError,
    Cfg,
    ParamCount,
    config_object,
    encoder_head,
    num_labels,
)
from preflight.estimate.arch_knobs import decoder_knobs
from preflight.estimate.dropout_probs import DropoutConfigError, with_config_dropouts

if TYPE_CHECKING:
    from preflight.estimate.params import count_params

__all__ = [
    "Architecture",
    "ArchitectureError",
    "ParamCount",
    "count_params",  # re-exported from preflight.estimate.params (see __getattr__ at the end)
    "from_hf_config",
    "supported_model_types",
]


# --------------------------------------------------------------------------------------------
# Readers, one per layout
# --------------------------------------------------------------------------------------------

_DECODER_TYPES = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2",
    "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3", "gpt2", "gpt_neox", "falcon",
    "qwen2_vl_text", "qwen2_5_vl_text", "starcoder2", "olmo", "olmo2", "granite",
    "phi", "bloom", "opt", "gptj", "codegen", "gpt_bigcode", "mpt", "stablelm",
    # Baichuan (remote code, ``trust_remote_code``): Baichuan-7B ``modeling_baichuan.py``
    # (baichuan-inc/Baichuan-7B @ 6f3ef46, lines 164-166, 189-190, 293-294, 387-389, 558): one
    # packed ``W_pack`` Linear(h, 3h, bias=False) (= q, k, v without bias), ``o_proj``, a SwiGLU
    # MLP, two RMSNorms per layer, an untied ``lm_head``: Llama's parameter layout. Baichuan 2
    # keeps it (its ``NormHead`` has the same weight shape; ALiBi in the 13B models has no
    # parameters). Remote-code configs list every key, so no class defaults are assumed.
    "baichuan",
    # InternLM2 (remote code): internlm/internlm2-chat-7b ``modeling_internlm2.py`` — a fused
    # ``wqkv`` Linear(h, (heads + 2 kv) x head_dim, bias=config.bias), ``wo``, SwiGLU w1/w3/w2
    # without bias, two RMSNorms per layer, untied ``output``: Llama's layout (its bias switch is
    # read in arch_knobs.decoder_knobs)
    "internlm2",
    # ChatGLM (remote code, model_type "chatglm" for two layouts, read through _chatglm_config):
    # THUDM/chatglm-6b ``modeling_chatglm.py`` — biased query_key_value/dense, a GELU MLP
    # dense_h_to_4h/dense_4h_to_h with bias, two LayerNorms per layer, the LM head tied to the
    # word embeddings; THUDM/chatglm2-6b, chatglm3-6b and glm-4-9b — multi-query groups
    # (``multi_query_group_num``), ``add_qkv_bias``/``add_bias_linear``, a SwiGLU MLP (dense_h_to_4h
    # twice ffn_hidden_size wide), RMSNorm, an untied ``output_layer``
    "chatglm",
    # MOSS (remote code, OpenLMLab/MOSS ``models/modeling_moss.py``): CodeGen's layout — qkv_proj
    # and out_proj without bias, fc_in/fc_out with bias, one LayerNorm per parallel block, a biased
    # untied lm_head; GPT-2 style keys (n_embd / n_layer / n_head)
    "moss",
}
#: decoders whose config uses GPT-2 style keys (n_embd / n_layer / n_head, n_inner, n_positions)
_GPT2_KEYS = ("gpt2", "gptj", "codegen", "gpt_bigcode", "moss")
_ENCODER_TYPES = {"bert", "roberta", "xlm-roberta", "distilbert", "electra", "albert"}


def supported_model_types() -> List[str]:
    """Every ``model_type`` :func:`from_hf_config` reads (multimodal wrappers included)."""
    return sorted(_DECODER_TYPES | _ENCODER_TYPES | {
        "t5", "mt5", "umt5", "bart", "mbart", "marian", "pegasus", "whisper", "vit", "deit",
        "dinov2", "clip", "resnet", "convnext",
        "llava", "llava_next", "gemma3", "qwen2_vl", "qwen2_5_vl", "paligemma",
        *arch_more.MODEL_TYPES})


def _moe_layer_count(mt: str, cfg: Cfg, layers: int) -> int:
    if mt in ("mixtral",):
        return layers
    if mt in ("qwen2_moe", "qwen3_moe"):
        step = cfg.integer("decoder_sparse_step", default=1)
        only_dense = set(cfg.raw("mlp_only_layers", default=[]) or [])
        if step <= 0:
            return 0
        return sum(1 for i in range(layers) if i not in only_dense and (i + 1) % step == 0)
    if mt in ("deepseek_v2", "deepseek_v3"):
        first_dense = cfg.integer("first_k_dense_replace", default=0)
        freq = cfg.integer("moe_layer_freq", default=1) or 1
        return sum(1 for i in range(layers) if i >= first_dense and i % freq == 0)
    return 0


def _read_decoder(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    if mt in _GPT2_KEYS:
        hidden = cfg.integer("n_embd", "hidden_size")
        layers = cfg.integer("n_layer", "num_hidden_layers")
        heads = cfg.integer("n_head", "num_attention_heads")
        inter = cfg.integer("n_inner", default=4 * hidden)
        kv_heads = 1 if mt == "gpt_bigcode" and cfg.flag("multi_query", True) else heads
        max_pos = cfg.integer("n_positions", "max_position_embeddings", default=0)
        tie = cfg.flag("tie_word_embeddings", mt in ("gpt2", "gpt_bigcode"))
        gated = False
    elif mt in ("bloom", "mpt"):
        # BLOOM: hidden_size / n_layer / n_head, MLP 4 x hidden; MPT: d_model / n_layers /
        # n_heads, MLP expansion_ratio x d_model; both ALiBi (no position table), tied
        hidden = cfg.integer("hidden_size", "n_embed", "d_model")
        layers = cfg.integer("n_layer", "num_hidden_layers", "n_layers")
        heads = cfg.integer("n_head", "num_attention_heads", "n_heads")
        ratio = cfg.integer("expansion_ratio", default=4) if mt == "mpt" else 4
        inter = ratio * hidden
        kv_heads = heads
        max_pos = cfg.integer("max_seq_len", default=0)
        tie = cfg.flag("tie_word_embeddings", True)
        gated = False
    else:
        hidden = cfg.integer("hidden_size", "n_embd", "d_model")
        layers = cfg.integer("num_hidden_layers", "n_layer", "num_layers")
        heads = cfg.integer("num_attention_heads", "n_head")
        if mt == "falcon":
            if cfg.flag("new_decoder_architecture", False):
                kv_heads = cfg.integer("num_kv_heads", default=heads)
            else:
                kv_heads = 1 if cfg.flag("multi_query", True) else heads
            inter = cfg.integer("ffn_hidden_size", default=4 * hidden)
        else:
            kv_heads = cfg.integer("num_key_value_heads", default=heads)
            inter = cfg.integer("intermediate_size", "ffn_dim", default=4 * hidden)
        max_pos = cfg.integer("max_position_embeddings", "n_positions", "max_seq_len", default=0)
        tie_default = mt in ("gemma", "gemma2", "gemma3_text", "falcon", "starcoder2", "opt")
        tie = cfg.flag("tie_word_embeddings", tie_default)
        gated = mt not in ("gpt_neox", "falcon", "starcoder2", "phi", "opt")
        if mt == "chatglm":
            gated = cfg.flag("swiglu", False)
    if heads == 0 or hidden == 0:
        raise ArchitectureError(f"{name}: hidden size and head count must be positive")
    if mt in ("deepseek_v2", "deepseek_v3"):
        # MLA: the query/key head width (nope + rope part); values use v_head_dim (extra["mla"]).
        head_dim = cfg.integer("qk_nope_head_dim") + cfg.integer("qk_rope_head_dim")
    elif mt in _GPT2_KEYS or mt in ("bloom", "mpt", "opt"):
        head_dim = hidden // heads
    else:
        head_dim = cfg.integer("head_dim", default=hidden // heads)
    experts = per_token = shared = moe_inter = moe_layers = 0
    if mt == "mixtral":
        experts = cfg.integer("num_local_experts")
        per_token = cfg.integer("num_experts_per_tok")
        moe_inter = inter
    elif mt in ("qwen2_moe", "qwen3_moe"):
        experts = cfg.integer("num_experts")
        per_token = cfg.integer("num_experts_per_tok")
        moe_inter = cfg.integer("moe_intermediate_size")
        shared = 1 if mt == "qwen2_moe" and cfg.integer("shared_expert_intermediate_size", default=0) else 0
    elif mt in ("deepseek_v2", "deepseek_v3"):
        experts = cfg.integer("n_routed_experts")
        per_token = cfg.integer("num_experts_per_tok")
        moe_inter = cfg.integer("moe_intermediate_size")
        shared = cfg.integer("n_shared_experts", default=0)
    if experts:
        if per_token > experts:
            raise ArchitectureError(f"{cfg.where}: {per_token} experts per token but only {experts} "
                                    "experts per layer")
        moe_layers = _moe_layer_count(mt, cfg, layers)
    knobs = decoder_knobs(mt, cfg)
    # a classification / QA head instead of the LM head (``*ForSequenceClassification``: a
    # ``score`` Linear(hidden, num_labels) over every position, no vocabulary logits; est73)
    if encoder_head(cfg) != "lm":
        knobs = dict(knobs, task_head=encoder_head(cfg), num_labels=num_labels(cfg))
    # an explicit null (Mistral v0.2/v0.3, Mixtral) means no window: not the class default
    window = cfg.data["sliding_window"] if "sliding_window" in cfg.data else cfg.raw("sliding_window")
    if mt in ("mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe") and not cfg.flag(
            "use_sliding_window", mt in ("mistral", "mixtral")):
        window = None
    return Architecture(
        name=name, model_type=mt, family="decoder", hidden_size=hidden, num_layers=layers,
        num_heads=heads, num_kv_heads=kv_heads, head_dim=head_dim, intermediate_size=inter,
        vocab_size=cfg.integer("vocab_size"), tie_embeddings=tie, gated_mlp=gated,
        num_experts=experts, experts_per_token=per_token, shared_experts=shared,
        moe_intermediate_size=moe_inter, moe_layers=moe_layers, max_position=max_pos,
        sliding_window=int(window) if isinstance(window, int) and window > 0 else None,
        source=source, extra=knobs)


def _read_encoder(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    if mt == "distilbert":
        hidden = cfg.integer("dim", default=768)
        layers = cfg.integer("n_layers", default=6)
        heads = cfg.integer("n_heads", default=12)
        inter = cfg.integer("hidden_dim", default=3072)
        max_pos = cfg.integer("max_position_embeddings", default=512)
        positions = 0 if cfg.flag("sinusoidal_pos_embds", False) else max_pos
        type_vocab = 0
        pooler = False
        vocab = cfg.integer("vocab_size", default=30522)
    else:
        hidden = cfg.integer("hidden_size")
        layers = cfg.integer("num_hidden_layers")
        heads = cfg.integer("num_attention_heads")
        inter = cfg.integer("intermediate_size")
        max_pos = cfg.integer("max_position_embeddings")
        positions = max_pos
        type_vocab = cfg.integer("type_vocab_size", default=2)
        # Counted as BertModel / RobertaModel with the pooler: the published totals (e.g.
        # bert-base-uncased 109,482,240) are for that module, whatever head the checkpoint has.
        pooler = mt != "electra"   # ElectraModel has no pooler
        vocab = cfg.integer("vocab_size")
    return Architecture(
        name=name, model_type=mt, family="encoder", hidden_size=hidden, num_layers=layers,
        num_heads=heads, num_kv_heads=heads, head_dim=hidden // max(heads, 1),
        intermediate_size=inter, vocab_size=vocab, tie_embeddings=True, gated_mlp=False,
        max_position=max_pos, source=source,
        extra={"layout": "encoder", "positions": positions, "type_vocab": type_vocab,
               "pooler": pooler, "task_head": encoder_head(cfg),
               # ELECTRA / ALBERT: embeddings of embedding_size, projected to hidden_size;
               # ALBERT shares one layer's weights across num_hidden_groups groups
               "embedding_size": cfg.integer("embedding_size", default=hidden)
               if mt in ("electra", "albert") else hidden,
               "weight_groups": cfg.integer("num_hidden_groups", default=1) if mt == "albert" else 0,
               # the intermediate activation by name: ``gelu_new`` (ALBERT's default) is
               # transformers' NewGELUActivation, the tanh formula in Python ops
               "mlp_act": str(cfg.raw("activation" if mt == "distilbert" else "hidden_act",
                                      default="gelu") or "gelu").lower()})


def _read_t5(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    d_model = cfg.integer("d_model")
    d_kv = cfg.integer("d_kv")
    heads = cfg.integer("num_heads")
    ff_proj = str(cfg.raw("feed_forward_proj", default="relu"))
    gated = ff_proj.startswith("gated-")
    enc = cfg.integer("num_layers")
    dec = cfg.integer("num_decoder_layers", default=enc)
    return Architecture(
        name=name, model_type=mt, family="encoder-decoder", hidden_size=d_model, num_layers=dec,
        num_heads=heads, num_kv_heads=heads, head_dim=d_kv, intermediate_size=cfg.integer("d_ff"),
        vocab_size=cfg.integer("vocab_size"), tie_embeddings=cfg.flag("tie_word_embeddings", True),
        gated_mlp=gated, num_encoder_layers=enc, max_position=cfg.integer("n_positions", default=512),
        source=source,
        extra={"layout": "t5", "relative_buckets": cfg.integer("relative_attention_num_buckets", default=32),
               # T5Config maps "gated-gelu" to gelu_new, transformers' tanh formula in Python ops
               # (activations.gated_act_extra, est80); a plain T5 names no activation here
               **({"mlp_act": "gelu_new" if ff_proj == "gated-gelu" else ff_proj.split("-")[-1].lower()}
                  if gated else {})})


def _read_bart(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    d_model = cfg.integer("d_model")
    heads = cfg.integer("decoder_attention_heads", "encoder_attention_heads")
    max_pos = cfg.integer("max_position_embeddings")
    return Architecture(
        name=name, model_type=mt, family="encoder-decoder", hidden_size=d_model,
        num_layers=cfg.integer("decoder_layers"), num_heads=heads, num_kv_heads=heads,
        head_dim=d_model // max(heads, 1),
        intermediate_size=cfg.integer("decoder_ffn_dim", "encoder_ffn_dim"),
        vocab_size=cfg.integer("vocab_size"), tie_embeddings=cfg.flag("tie_word_embeddings", True),
        gated_mlp=False, num_encoder_layers=cfg.integer("encoder_layers"), max_position=max_pos,
        source=source,
        extra={"layout": "bart", "encoder_ffn": cfg.integer("encoder_ffn_dim"),
               # BART/mBART: learned positions with an offset of 2; Marian/Pegasus: a
               # sinusoidal table of max_position rows (a frozen parameter in transformers)
               "positions": max_pos + 2 if mt in ("bart", "mbart") else max_pos,
               # layernorm_embedding (BART, mBART) and the encoder/decoder final LayerNorms
               # (mBART, Pegasus; BART only with add_final_layer_norm)
               "embed_norms": mt in ("bart", "mbart"),
               "final_norms": mt in ("mbart", "pegasus") or cfg.flag("add_final_layer_norm", False)})


def _read_whisper(mt: str, cfg: Cfg, name: str, source: str) -> Architecture:
    d_model = cfg.integer("d_model")
    heads = cfg.integer("decoder_attention_heads")
    return Architecture(
        name=name, model_type=mt, family="encoder-decoder", hidden_size=d_model,
        num_layers=cfg.integer("decoder_layers"), num_heads=heads, num_kv_heads=heads,
        head_dim=d_model // max(heads, 1), intermediate_size=cfg.integer("decoder_ffn_dim"),
        vocab_size=cfg.integer("vocab_size"), tie_embeddings=True, gated_mlp=False,
        num_encoder_layers=cfg.integer("encoder_layers"),
        max_position=cfg.integer("max_target_positions", default=448), source=source,
        extra={"layout": "whisper", "encoder_ffn": cfg.integer("encoder_ffn_dim"),
               "mel_bins": cfg.integer("num_mel_bins", default=80),
               "source_positions": cfg.integer("max_source_positions", default=1500),
               "target_positions": cfg.integer("max_target_positions", default=448)})


_TEXT_DEFAULT_TYPE = {"llava": "llama", "llava_next": "llama", "gemma3": "gemma3_text",
                      "paligemma": "gemma", "qwen2_vl": "qwen2",
                      "qwen2_5_vl": "qwen2"}
_VISION_DEFAULT_TYPE = {"llava": "clip_vision_model", "llava_next": "clip_vision_model",
                        "gemma3": "siglip_vision_model", "paligemma": "siglip_vision_model"}


def _read_multimodal(mt: str, config: Mapping[str, Any], name: str, source: str) -> Architecture:
    from preflight.estimate import arch_vision  # imports this module: loaded on first use

    text_raw = config_object(config.get("text_config"), name, "text_config")
    text_mt = str(text_raw.get("model_type") or _TEXT_DEFAULT_TYPE.get(mt, "")).lower()
    if mt in ("qwen2_vl", "qwen2_5_vl") and not text_raw.get("hidden_size"):
        # Qwen2-VL keeps the language model's numbers at the top level.
        text_raw = {**{k: v for k, v in config.items() if k not in ("vision_config", "text_config")},
                    **text_raw}
    if text_mt in ("qwen2_vl_text", "qwen2_5_vl_text"):
        text_mt = "qwen2"
    if not text_mt:
        raise ArchitectureError(f"{name}: text_config has no model_type")
    inner = _read_one(text_mt, dict(text_raw), name, source)
    vision_raw = config.get("vision_config")
    vision_params, projector = 0, 0
    info: Dict[str, Any] = {}
    vision_read = False
    if isinstance(vision_raw, Mapping):
        vision_mt = str(vision_raw.get("model_type") or _VISION_DEFAULT_TYPE.get(mt, "")).lower()
        vcfg = Cfg(vision_raw, vision_mt, f"{name} vision_config")
        vision_params, info = arch_vision._vision_tower(vision_mt, vcfg)
        if mt in ("qwen2_vl", "qwen2_5_vl"):
            vision_params, projector, info = arch_vision._qwen_vl_tower(mt, vcfg, inner.hidden_size)
        vision_read = vision_params > 0
        if vision_read and mt not in ("qwen2_vl", "qwen2_5_vl"):
            vd, td = info["hidden_size"], inner.hidden_size
            if mt in ("llava", "llava_next"):
                projector = (vd * td + td) + (td * td + td)
                if mt == "llava_next":
                    projector += td  # image_newline
            elif mt == "gemma3":
                projector = vd * td + vd  # mm_input_projection_weight, mm_soft_emb_norm
            elif mt == "paligemma":
                projector = vd * config.get("projection_dim", td) + config.get("projection_dim", td)
    extra = dict(inner.extra)
    extra.update({"text_layout": extra.get("layout"), "layout": "multimodal",
                  "text_model_type": inner.model_type, "vision_params": vision_params,
                  "projector_params": projector, "vision": info,
                  "vision_counted": vision_read or not isinstance(vision_raw, Mapping)})
    return replace(inner, model_type=mt, family="multimodal",
                   image_size=int(info.get("image_size", 0)), patch_size=int(info.get("patch_size", 0)),
                   num_channels=int(info.get("num_channels", 0)), extra=extra)


def _chatglm_config(config: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A ChatGLM config in the decoder reader's keys. The first generation (THUDM/chatglm-6b:
    ``inner_hidden_size``, ``position_encoding_2d``, ``max_sequence_length``) ties its LM head and
    biases every Linear; the second layout (chatglm2/3-6b, glm-4-9b: ``ffn_hidden_size``,
    ``padded_vocab_size``, ``kv_channels``) follows its switches, whose remote-code defaults are
    those of ``configuration_chatglm.py`` (multi-query off, 2 groups, qkv bias on, linear bias
    off, RMSNorm on). A config naming neither size key is refused, not guessed."""
    data = dict(config)
    out: dict[str, Any] = {k: data[k] for k in ("model_type", "hidden_size", "num_attention_heads", "auto_map",
                                               "architectures", "torch_dtype") if k in data}
    layers = data.get("num_layers", data.get("num_hidden_layers"))
    if layers is not None:
        out["num_hidden_layers"] = layers
    if "inner_hidden_size" in data or "position_encoding_2d" in data:
        out.update(intermediate_size=data.get("inner_hidden_size", 4 * int(data.get("hidden_size") or 0)),
                   vocab_size=data.get("vocab_size"), tie_word_embeddings=True, swiglu=False, _glm="v1",
                   max_position_embeddings=data.get("max_sequence_length", 0))
    elif "ffn_hidden_size" in data:
        heads = data.get("num_attention_heads")
        groups = data.get("multi_query_group_num", 1) if data.get("multi_query_attention", False) else heads
        out.update(intermediate_size=data["ffn_hidden_size"],
                   vocab_size=data.get("padded_vocab_size", data.get("vocab_size")),
                   num_key_value_heads=groups, tie_word_embeddings=bool(data.get("tie_word_embeddings", False)),
                   swiglu=True, _glm="v2", max_position_embeddings=data.get("seq_length", 0),
                   add_qkv_bias=data.get("add_qkv_bias", True), add_bias_linear=data.get("add_bias_linear", False),
                   rmsnorm=data.get("rmsnorm", True))
        if "kv_channels" in data:
            out["head_dim"] = data["kv_channels"]
    else:
        raise ArchitectureError(f"{name}: a chatglm config without inner_hidden_size or ffn_hidden_size "
                                "(which ChatGLM layout it is) is not read")
    return out


def _read_one(mt: str, config: Mapping[str, Any], name: str, source: str) -> Architecture:
    from preflight.estimate import arch_vision  # imports this module: loaded on first use

    if mt == "chatglm":
        config = _chatglm_config(config, name)
    cfg = Cfg(config, mt, name)
    if mt in _DECODER_TYPES:
        return _read_decoder(mt, cfg, name, source)
    if mt in _ENCODER_TYPES:
        return _read_encoder(mt, cfg, name, source)
    if mt == "t5":
        return _read_t5(mt, Cfg(config, "t5", name), name, source)
    if mt in ("mt5", "umt5"):
        # mT5 / umT5: the T5 v1.1 layout (gated-gelu, untied head) with a 250k vocabulary
        data = dict(config)
        data.setdefault("tie_word_embeddings", False)
        data.setdefault("feed_forward_proj", "gated-gelu")
        return _read_t5(mt, Cfg(data, "t5", name), name, source)
    if mt in ("bart", "mbart", "marian", "pegasus"):
        return _read_bart(mt, cfg, name, source)
    if mt == "whisper":
        return _read_whisper(mt, cfg, name, source)
    if mt in ("vit", "deit", "dinov2"):
        return arch_vision._read_vit(mt, cfg, name, source)
    if mt == "clip":
        return arch_vision._read_clip(mt, cfg, name, source)
    if mt in ("resnet", "convnext"):
        return arch_vision._read_resnet(mt, cfg, name, source)
    if mt == "deberta-v2":
        return arch_more.read_deberta(mt, cfg, name, source)
    if mt == "swin":
        return arch_more.read_swin(mt, cfg, name, source)
    if mt == "wav2vec2":
        return arch_more.read_wav2vec2(mt, cfg, name, source)
    raise ArchitectureError(
        f"{name}: model_type {mt!r} is not supported (supported: {', '.join(supported_model_types())})")


def from_hf_config(config: Mapping[str, Any], *, name: str, source: str = "") -> Architecture:
    """Read a Hugging Face ``config.json`` (as a dict) into an :class:`Architecture`.

    ``params_total``/``params_active`` are filled from :func:`count_params` (``params_source``
    "formula"); callers that know an exact total (catalog, safetensors) replace them.
    Raises :class:`ArchitectureError` with one readable sentence on configs it cannot read.
    """
    from preflight.estimate.params import count_params  # params imports this module

    if not isinstance(config, Mapping):
        raise ArchitectureError(f"{name}: a config must be a JSON object, got {type(config).__name__}")
    mt = str(config.get("model_type") or "").strip().lower()
    if not mt:
        raise ArchitectureError(f"{name}: the config has no 'model_type'")
    try:
        if mt == "mllama":
            arch = arch_more.read_mllama(mt, config, name, source)
        elif mt != "clip" and (isinstance(config.get("text_config"), Mapping)
                             or mt in _TEXT_DEFAULT_TYPE):
            if not isinstance(config.get("text_config"), Mapping):
                if mt in ("qwen2_vl", "qwen2_5_vl"):
                    config = {**config, "text_config": {}}
                else:
                    raise ArchitectureError(f"{name}: model_type {mt!r} needs a 'text_config' object")
            arch = _read_multimodal(mt, config, name, source)
        else:
            arch = _read_one(mt, config, name, source)
            # the dropout probabilities the config states (dropout_probs.py)
            arch = with_config_dropouts(arch, config, name)
        counted = count_params(arch)
    except ArchitectureError:
        raise
    except DropoutConfigError as exc:
        raise ArchitectureError(str(exc)) from exc
    except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError, OverflowError) as exc:
        raise ArchitectureError(f"{name}: unreadable {mt} config ({type(exc).__name__}: {exc})") from exc
    return replace(arch, params_total=counted.total, params_active=counted.active,
                   params_source="formula")


def __getattr__(name: str) -> Any:
    """``count_params`` (and only it) from :mod:`preflight.estimate.params`, on first use.

    ``from preflight.estimate.arch import count_params`` is a documented contract (docs,
    catalog notes); ``params`` imports the records from this module, so a load-time import
    here would be a cycle (PEP 562 module attribute).
    """
    if name == "count_params":
        from preflight.estimate.params import count_params

        return count_params
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
