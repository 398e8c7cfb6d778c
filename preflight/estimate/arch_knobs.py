"""The layout facts that change a decoder's parameter count, by model type (split from
:mod:`preflight.estimate.arch`, whose readers call :func:`decoder_knobs`)."""

from __future__ import annotations

from typing import Any, Dict


def decoder_knobs(mt: str, cfg: Any) -> Dict[str, Any]:
    """The layout facts that change a decoder's parameter count, by model type.

    Keys: ``qkv_bias``, ``o_bias``, ``mlp_bias`` (Linear biases), ``norm`` ("rms" weight-only or
    "layer" weight+bias), ``norms_per_layer``, ``qk_norm`` (per-head-dim q/k RMSNorm),
    ``learned_positions`` (rows of a learned position table), ``router_bias`` (per-expert
    correction bias), ``shared_expert_intermediate`` and ``shared_expert_gate`` (Qwen-MoE),
    ``mla`` (DeepSeek multi-head latent attention ranks), ``remote_code`` (the config names an
    ``auto_map``).
    """
    k: Dict[str, Any] = {"layout": "decoder", "qkv_bias": False, "o_bias": False,
                         "mlp_bias": False, "norm": "rms", "norms_per_layer": 2,
                         "qk_norm": False, "learned_positions": 0}
    if mt in ("llama", "mistral", "mixtral", "granite", "olmo"):
        k["qkv_bias"] = k["o_bias"] = cfg.flag("attention_bias", False)
        k["mlp_bias"] = cfg.flag("mlp_bias", False)
    if mt == "chatglm":
        if cfg.raw("_glm") == "v1":
            # THUDM/chatglm-6b: biased query_key_value, dense and MLP Linears, LayerNorms, GELU MLP
            k.update(qkv_bias=True, o_bias=True, mlp_bias=True, norm="layer", mlp_act="gelu")
        else:
            k.update(qkv_bias=cfg.flag("add_qkv_bias", True), o_bias=cfg.flag("add_bias_linear", False),
                     mlp_bias=cfg.flag("add_bias_linear", False), norm="rms" if cfg.flag("rmsnorm", True) else "layer")
    if mt == "internlm2":
        # InternLM2Config's ``bias`` (default True) switches the wqkv and wo biases; the public configs set false
        k["qkv_bias"] = k["o_bias"] = cfg.flag("bias", True)
    if mt in ("qwen2", "qwen2_moe", "qwen2_vl_text", "qwen2_5_vl_text"):
        k["qkv_bias"] = True
    if mt in ("qwen3", "qwen3_moe", "gemma3_text", "olmo2"):
        k["qk_norm"] = True
        k["qkv_bias"] = k["o_bias"] = cfg.flag("attention_bias", False)
    if mt in ("gemma2", "gemma3_text"):
        k["norms_per_layer"] = 4
    if mt == "gemma2":
        # tanh soft-capping of the scores and logits (Gemma2Config's defaults 50.0 / 30.0, an
        # explicit null turns a cap off; softcap.py says who computes the attention by hand)
        data = getattr(cfg, "data", {}) or {}
        k["attn_softcap"] = data.get("attn_logit_softcapping", 50.0)
        k["final_softcap"] = data.get("final_logit_softcapping", 30.0)
    if mt == "olmo2":
        k["qk_norm"] = "full"  # q_norm over all heads, k_norm over all kv heads
    if mt == "olmo":
        k["norm"] = "none"  # non-parametric LayerNorm
    if mt == "starcoder2":
        k.update(norm="layer", qkv_bias=cfg.flag("use_bias", True), o_bias=cfg.flag("use_bias", True),
                 mlp_bias=cfg.flag("use_bias", True))
    if mt == "gpt2":
        k.update(qkv_bias=True, o_bias=True, mlp_bias=True, norm="layer",
                 learned_positions=cfg.integer("n_positions", "max_position_embeddings"))
    # the plain MLP's activation as the config names it (transformers' ACT2FN key); the config
    # classes' defaults: GPT2/GPTJ/CodeGen ``activation_function="gelu_new"``, GPTBigCode
    # ``"gelu_pytorch_tanh"``, Phi ``hidden_act="gelu_new"``
    act_key, act_default = {"gpt2": ("activation_function", "gelu_new"),
                            "gptj": ("activation_function", "gelu_new"),
                            "codegen": ("activation_function", "gelu_new"),
                            "moss": ("activation_function", "gelu_new"),
                            "gpt_bigcode": ("activation_function", "gelu_pytorch_tanh"),
                            "phi": ("hidden_act", "gelu_new")}.get(mt, ("", ""))
    if act_key:
        k["mlp_act"] = str(cfg.raw(act_key, default=act_default) or act_default).lower()
    if mt == "bloom":
        # fused query_key_value and every Linear with bias, two LayerNorms per block and one
        # after the word embeddings (word_embeddings_layernorm)
        k.update(qkv_bias=True, o_bias=True, mlp_bias=True, norm="layer", embed_norm=True)
    if mt == "phi":
        # Phi-1/1.5/2: parallel attention + MLP after one LayerNorm, biased q/k/v/dense,
        # fc1/fc2 and LM head
        k.update(qkv_bias=True, o_bias=True, mlp_bias=True, norm="layer", norms_per_layer=1,
                 lm_head_bias=True)
    if mt in ("gptj", "codegen", "moss"):
        # parallel block with one LayerNorm; attention projections without bias, MLP and
        # LM head with bias
        k.update(mlp_bias=True, norm="layer", norms_per_layer=1, lm_head_bias=True)
    if mt == "opt":
        bias = cfg.flag("enable_bias", True)
        # learned positions with OPT's offset of 2 rows
        k.update(qkv_bias=bias, o_bias=bias, mlp_bias=bias, norm="layer",
                 learned_positions=cfg.integer("max_position_embeddings") + 2)
        # OPT-350m embeds tokens in 512 dimensions and projects in/out of the 1024-wide
        # blocks (project_in/project_out, no bias); the tied LM head reads 512 dimensions
        k["embed_dim"] = cfg.integer("word_embed_proj_dim", default=cfg.integer("hidden_size"))
        # post-LN OPT (do_layer_norm_before=False: OPT-350m) has no final LayerNorm
        k["final_norm"] = cfg.flag("do_layer_norm_before", True)
        # fc1 -> activation -> dropout(activation_dropout) -> fc2 (what the MLP saves)
        k["mlp_act"] = str(cfg.raw("activation_function", default="relu") or "relu").lower()
        act_drop = cfg.raw("activation_dropout", default=0.0)
        k["mlp_act_dropout"] = float(act_drop) if isinstance(act_drop, (int, float)) else 0.0
        # two dropouts on the residual stream per layer (p = config.dropout, OPTConfig's
        # default 0.1), apart from the probabilities' (attention_dropout, default 0.0)
        for key, name, default in (("resid_dropout", "dropout", 0.1),
                                   ("dropout", "attention_dropout", 0.0)):
            value = cfg.raw(name, default=default)
            k[key] = float(value) if isinstance(value, (int, float)) else default
    if mt == "gpt_bigcode":
        k.update(qkv_bias=True, o_bias=True, mlp_bias=True, norm="layer",
                 learned_positions=cfg.integer("n_positions", "max_position_embeddings"))
    if mt == "mpt":
        bias = not cfg.flag("no_bias", True)
        # no_bias also drops the LayerNorm bias: a weight per channel
        k.update(qkv_bias=bias, o_bias=bias, mlp_bias=bias, norm="layer" if bias else "rms")
    if mt == "stablelm":
        k.update(qkv_bias=cfg.flag("use_qkv_bias", False), norm="layer")
    if mt == "gpt_neox":
        k.update(qkv_bias=cfg.flag("attention_bias", True), o_bias=cfg.flag("attention_bias", True),
                 mlp_bias=True, norm="layer")
        # share of each head rotated (sizes the per-layer rotary tables of transformers < 4.45)
        pct = cfg.raw("rotary_pct", default=0.25)
        k["rotary_pct"] = float(pct) if isinstance(pct, (int, float)) else 0.25
        # use_parallel_residual: input_layernorm and post_attention_layernorm both normalise
        # the block's input (one saved tensor for the two)
        k["parallel_norm_input"] = cfg.flag("use_parallel_residual", True)
    if mt == "falcon":
        bias = cfg.flag("bias", False)
        new = cfg.flag("new_decoder_architecture", False)
        parallel = cfg.flag("parallel_attn", True)
        two_norms = (new and cfg.integer("num_ln_in_parallel_attn", default=2) == 2) or not parallel
        k.update(qkv_bias=bias, o_bias=bias, mlp_bias=bias, norm="layer",
                 norms_per_layer=2 if two_norms else 1)
    if mt in ("qwen2_moe",):
        k["shared_expert_intermediate"] = cfg.integer("shared_expert_intermediate_size", default=0)
        k["shared_expert_gate"] = k["shared_expert_intermediate"] > 0
    if mt == "deepseek_v3":
        k["router_bias"] = True
    if mt in ("deepseek_v2", "deepseek_v3"):
        k["mla"] = {
            "q_lora_rank": cfg.opt_integer("q_lora_rank"),
            "kv_lora_rank": cfg.integer("kv_lora_rank"),
            "qk_rope_head_dim": cfg.integer("qk_rope_head_dim"),
            "qk_nope_head_dim": cfg.integer("qk_nope_head_dim"),
            "v_head_dim": cfg.integer("v_head_dim"),
        }
        k["qkv_bias"] = k["o_bias"] = cfg.flag("attention_bias", False)
    if cfg.raw("auto_map"):
        # remote code (trust_remote_code): the repository's own modeling file runs, not
        # transformers' class for this model_type (rotary_tables.py counts only the latter)
        k["remote_code"] = True
    return k
