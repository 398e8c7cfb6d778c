"""timm's layers and ``VisionTransformer`` as the module counter (``module_params_nested``) reads
them: their parameter counts from the arguments, never imported."""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters.module_params import _prod, _Unknown
from preflight.adapters.module_params_values import _UNK, _Factory, _Mod, _Tensor

# timm layers: (positional order, size-relevant defaults, arguments that change no size)
_TIMM_LAYERS: dict[str, tuple[list[str], dict[str, Any], set[str]]] = {
    "PatchEmbed": (["img_size", "patch_size", "in_chans", "embed_dim", "norm_layer", "flatten"],
                   {"img_size": 224, "patch_size": 16, "in_chans": 3, "embed_dim": 768, "norm_layer": None,
                    "bias": True}, {"flatten", "output_fmt", "strict_img_size", "dynamic_img_pad"}),
    "Attention": (["dim", "num_heads", "qkv_bias"],
                  {"dim": None, "num_heads": 8, "qkv_bias": False, "qk_norm": False, "scale_norm": False,
                   "proj_bias": True}, {"num_heads", "attn_drop", "proj_drop", "norm_layer", "fused_attn"}),
    "Mlp": (["in_features", "hidden_features", "out_features"],
            {"in_features": None, "hidden_features": None, "out_features": None, "norm_layer": None, "bias": True,
             "use_conv": False}, {"act_layer", "drop"}),
    # the pre-norm transformer block (``timm/models/vision_transformer.py`` ``Block``, huggingface/pytorch-image-models
    # @ 85b473d lines 128-203; the same layers in 0.9.12, the version LTH14/mar pins): norm1, Attention, optional
    # LayerScale, norm2, Mlp(dim, int(dim * mlp_ratio)). Only the first four positions agree across versions.
    "Block": (["dim", "num_heads", "mlp_ratio", "qkv_bias"],
              {"dim": None, "num_heads": None, "mlp_ratio": 4.0, "qkv_bias": False, "qk_norm": False,
               "scale_attn_norm": False, "scale_mlp_norm": False, "proj_bias": True, "init_values": None,
               "norm_layer": None}, {"num_heads", "proj_drop", "attn_drop", "drop", "drop_path", "act_layer", "depth"}),
}

# timm's ``VisionTransformer`` (``timm/models/vision_transformer.py``; the same count in 0.3.2, the
# version DeiT and MAE pin, and in 1.0): the arguments that set sizes with their defaults, and those
# that change no size. An argument outside both (``representation_size``, ``init_values``,
# ``reg_tokens``, ``block_fn``...) adds or changes layers: the count is not followed.
_TIMM_VIT: dict[str, Any] = {"img_size": 224, "patch_size": 16, "in_chans": 3, "num_classes": 1000, "embed_dim": 768,
                             "depth": 12, "num_heads": 12, "mlp_ratio": 4.0, "qkv_bias": True, "class_token": True,
                             "global_pool": "token", "norm_layer": None, "representation_size": None,
                             "distilled": False, "hybrid_backbone": None, "fc_norm": None}
_TIMM_VIT_FREE = {"qk_scale", "drop_rate", "attn_drop_rate", "drop_path_rate", "proj_drop_rate", "pos_drop_rate",
                  "patch_drop_rate", "weight_init", "act_layer", "dynamic_img_size", "dynamic_img_pad", "fix_init",
                  "num_heads"}


def _vit_count(a: dict[str, Any]) -> tuple[int, int]:
    """(parameters, embed_dim) of timm's ``VisionTransformer`` with these arguments: patch
    embedding (a conv with bias), the class token, the learnt position table (patches + 1 rows),
    ``depth`` blocks (two LayerNorms, qkv and proj, the MLP), the final norm (``fc_norm`` instead
    with average pooling: the same size) and the head."""
    for key in ("representation_size", "hybrid_backbone", "fc_norm"):
        if a[key] is not None:
            raise _Unknown(f"VisionTransformer {key}")
    if a["distilled"] or a["class_token"] is not True or a["global_pool"] not in ("token", "avg", ""):
        raise _Unknown("VisionTransformer pooling")
    norm = a["norm_layer"]
    if norm is not None and not (isinstance(norm, _Factory) and norm.layer() == "LayerNorm"
                                 and all(k.arg in ("eps",) for k in norm.keywords)):
        raise _Unknown("VisionTransformer norm_layer")
    img, patch = a["img_size"], a["patch_size"]
    if not (isinstance(img, int) and isinstance(patch, int) and patch > 0) or isinstance(img, bool):
        raise _Unknown("VisionTransformer img_size")
    d, depth, c, chans = a["embed_dim"], a["depth"], a["num_classes"], a["in_chans"]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (d, depth, c, chans)) \
            or not isinstance(a["mlp_ratio"], (int, float)) or not isinstance(a["qkv_bias"], bool):
        raise _Unknown("VisionTransformer sizes")
    hidden = int(d * a["mlp_ratio"])
    tokens = (img // patch) ** 2 + 1
    block = 4 * d + 3 * d * d + (3 * d if a["qkv_bias"] else 0) + d * d + d + d * hidden + hidden + hidden * d + d
    n = chans * d * patch * patch + d + d + tokens * d + depth * block + 2 * d + (d * c + c if c > 0 else 0)
    return n, d


# timm layers without parameters (``timm/layers/drop.py`` ``DropPath``: stochastic depth)
_TIMM_FREE = {"DropPath"}


def timm_layer(frame: Any, name: str, node: ast.Call) -> _Mod:
    """timm's ``PatchEmbed``, ``Attention`` and ``Mlp`` (``timm/models/vision_transformer.py``,
    ``timm/layers/{patch_embed,attention,mlp}.py``), the blocks project ViTs and DiTs build from:
    their parameters from the arguments, the ones that change no size (activations, dropouts)
    not evaluated; an option that adds layers (a norm, ``qk_norm``) or one not listed: unknown."""
    order, defaults, ignored = _TIMM_LAYERS[name]
    if len(node.args) > len(order) or any(isinstance(a, ast.Starred) for a in node.args):
        raise _Unknown(name)
    a: dict[str, Any] = dict(defaults)
    for key, arg in zip(order, node.args):
        a[key] = frame.ev(arg)
    for kw in node.keywords:
        if kw.arg is None:
            extra = frame.ev(kw.value)
            if not isinstance(extra, dict) or any(k not in defaults and k not in ignored for k in extra):
                raise _Unknown("**kwargs")
            a.update({k: v for k, v in extra.items() if k not in ignored})
        elif kw.arg in ignored:
            continue
        elif kw.arg in defaults:
            a[kw.arg] = frame.ev(kw.value)
        else:
            raise _Unknown(f"{name}({kw.arg}=...)")
    if any(isinstance(v, (_Mod, _Tensor)) or v is _UNK for v in a.values()):
        raise _Unknown(name)
    if name == "PatchEmbed":
        if a["norm_layer"] is not None:
            raise _Unknown("PatchEmbed norm_layer")
        img, patch = a["img_size"], a["patch_size"]
        img = (img, img) if isinstance(img, int) else tuple(img)
        patch = (patch, patch) if isinstance(patch, int) else tuple(patch)
        dim = _prod(a["embed_dim"])
        n = _prod(a["in_chans"]) * dim * patch[0] * patch[1] + (dim if a["bias"] else 0)
        grid = (img[0] // patch[0]) * (img[1] // patch[1])
        return _Mod(n, {"": n}, [f"timm.PatchEmbed@{node.lineno}={n}"], {"num_patches": grid})
    if name == "Block":
        return _block(a, node.lineno)
    if name == "Attention":
        if a["qk_norm"] or a["scale_norm"]:
            raise _Unknown("Attention norms")
        dim = _prod(a["dim"])
        n = dim * 3 * dim + (3 * dim if a["qkv_bias"] else 0) + dim * dim + (dim if a["proj_bias"] else 0)
        return _Mod(n, {"": n}, [f"timm.Attention@{node.lineno}={n}"])
    # Mlp
    if a["norm_layer"] is not None or a["use_conv"]:
        raise _Unknown("Mlp norm_layer")
    d_in = _prod(a["in_features"])
    hidden = _prod(a["hidden_features"]) if a["hidden_features"] else d_in
    d_out = _prod(a["out_features"]) if a["out_features"] else d_in
    bias = a["bias"]
    b1, b2 = (bias, bias) if isinstance(bias, bool) else tuple(bias)
    n = d_in * hidden + (hidden if b1 else 0) + hidden * d_out + (d_out if b2 else 0)
    return _Mod(n, {"": n}, [f"timm.Mlp@{node.lineno}={n}"])


def vit(args: list[Any], kwargs: dict[str, Any], line: int) -> _Mod:
    """timm's ``VisionTransformer`` built with these arguments, its ``norm`` kept as a fact."""
    if args or any(k not in _TIMM_VIT and k not in _TIMM_VIT_FREE for k in kwargs):
        raise _Unknown("VisionTransformer arguments")
    a = dict(_TIMM_VIT)
    a.update({k: v for k, v in kwargs.items() if k in _TIMM_VIT})
    if any(v is _UNK or isinstance(v, (_Mod, _Tensor)) for v in a.values()):
        raise _Unknown("VisionTransformer argument not known")
    n, d = _vit_count(a)
    norm = _Mod(2 * d, {"weight": d}, [f"timm.VisionTransformer.norm@{line}={2 * d}"])
    return _Mod(n, {}, [f"timm.VisionTransformer@{line}={n}"], {"attrs": {"norm": norm}})


def _block(a: dict[str, Any], line: int) -> _Mod:
    """timm's ``Block`` from its bound arguments: two norms (``nn.LayerNorm`` by default, or a
    ``partial(nn.LayerNorm, eps=...)``/``nn.RMSNorm`` factory), the attention (qkv, proj), a
    ``LayerScale`` of ``dim`` each side when ``init_values`` is set, the MLP (``bias=proj_bias``).
    A norm inside the attention or the MLP, or another norm class: unknown."""
    from preflight.adapters.module_params_torch import _counted_layer

    if a["qk_norm"] or a["scale_attn_norm"] or a["scale_mlp_norm"]:
        raise _Unknown("Block norms")
    d, ratio = a["dim"], a["mlp_ratio"]
    if not (isinstance(d, int) and not isinstance(d, bool) and d > 0 and isinstance(ratio, (int, float))
            and isinstance(a["qkv_bias"], bool) and isinstance(a["proj_bias"], bool)):
        raise _Unknown("Block sizes")
    norm = a["norm_layer"]
    if norm is None:
        one_norm = 2 * d
    elif isinstance(norm, _Factory) and norm.layer() in ("LayerNorm", "RMSNorm"):
        kwargs: dict[str, Any] = {}
        for k in norm.keywords:
            if k.arg not in ("eps", "elementwise_affine", "bias") or not isinstance(k.value, ast.Constant):
                raise _Unknown("Block norm_layer")
            kwargs[str(k.arg)] = k.value.value
        one_norm = _counted_layer(str(norm.layer()), [d], kwargs)
    else:
        raise _Unknown("Block norm_layer")
    hidden = int(d * ratio)
    pb = a["proj_bias"]
    attn = 3 * d * d + (3 * d if a["qkv_bias"] else 0) + d * d + (d if pb else 0)
    mlp = d * hidden + (hidden if pb else 0) + hidden * d + (d if pb else 0)
    scale = 2 * d if a["init_values"] else 0
    n = 2 * one_norm + attn + mlp + scale
    return _Mod(n, {"": n}, [f"timm.Block@{line}={n}"])
