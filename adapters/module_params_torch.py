"""The parameter counts of ``torch.nn`` layers from evaluated arguments, for the module counter
(``module_params_nested``): ``nn.Linear``/``Conv*d``/norms/``Embedding``/``MultiheadAttention``/RNNs by
their arguments bound as torch binds them, the bias part a tied weight does not share, and a layer (or an
``nn.Sequential``/``nn.ModuleList`` of modules) as a base class builds it."""

from __future__ import annotations

from typing import Any

from preflight.adapters.module_params import (
    _FREE,
    _LOSSES_OK,
    _kernel,
    _prod,
    _Unknown,
)
from preflight.adapters.module_params_values import _UNK, _Mod, _Tensor


def torch_layer(name: str, args: list[Any], kwargs: dict[str, Any], line: int) -> _Mod:
    """``nn.<name>(*args, **kwargs)`` from evaluated arguments, as a base class builds it: the counted
    layers, ``nn.Sequential``/``nn.ModuleList`` of modules."""
    if name in ("Sequential", "ModuleList"):
        parts = list(args[0]) if name == "ModuleList" and len(args) == 1 and isinstance(args[0], (tuple, list)) \
            else list(args)
        if kwargs or not all(isinstance(p, _Mod) for p in parts):
            raise _Unknown(name)
        return _merge(parts, {})
    if name in ("TransformerEncoder", "TransformerDecoder"):
        n = _stacked(name, args, kwargs)
        return _Mod(n, {}, [f"{name}@{line}={n}"] if n else [])
    n = _counted_layer(name, args, kwargs)
    return _Mod(n, {"": n - _bias_of(name, args, kwargs)}, [f"{name}@{line}={n}"] if n else [])


def _stacked(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """``nn.TransformerEncoder(layer, num_layers, norm=None)`` (and the decoder): ``num_layers`` deep copies of
    the layer (torch/nn/modules/transformer.py ``_get_clones``) and the optional final norm."""
    a = _bound(args, kwargs, ["layer", "num_layers", "norm"], {"norm": None, "enable_nested_tensor": True,
                                                              "mask_check": True},
               ("enable_nested_tensor", "mask_check"))
    layer = a["layer"]
    if set(a) - {"layer", "num_layers", "norm", "enable_nested_tensor", "mask_check"} \
            or not isinstance(layer, _Mod) or not isinstance(a["num_layers"], int) or isinstance(a["num_layers"], bool) \
            or not (a["norm"] is None or isinstance(a["norm"], _Mod)):
        raise _Unknown(f"nn.{name} arguments")
    return a["num_layers"] * layer.n + (a["norm"].n if isinstance(a["norm"], _Mod) else 0)


def _whole_transformer(args: list[Any], kwargs: dict[str, Any]) -> int:
    """``nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, ...)``: the two stacks
    of layers, each ended by a ``LayerNorm(d_model)``; 44,140,544 with the defaults, as torch counts it. Custom
    encoder or decoder modules are not counted here."""
    names = ["d_model", "nhead", "num_encoder_layers", "num_decoder_layers", "dim_feedforward", "dropout",
             "activation", "custom_encoder", "custom_decoder", "layer_norm_eps", "batch_first", "norm_first", "bias"]
    a = _bound(args, kwargs, names, {"d_model": 512, "nhead": 8, "num_encoder_layers": 6, "num_decoder_layers": 6,
                                     "dim_feedforward": 2048, "dropout": 0.1, "activation": "relu",
                                     "custom_encoder": None, "custom_decoder": None, "layer_norm_eps": 1e-5,
                                     "batch_first": False, "norm_first": False, "bias": True}, _LAYER_FREE)
    if set(kwargs) - set(names) or a["custom_encoder"] is not None or a["custom_decoder"] is not None \
            or not isinstance(a["bias"], bool):
        raise _Unknown("nn.Transformer options")
    layer = {k: a[k] for k in ("d_model", "nhead", "dim_feedforward", "bias")}
    d = _prod(a["d_model"])
    norm = 2 * d if a["bias"] else d
    return (_prod(a["num_encoder_layers"]) * _transformer_layer("TransformerEncoderLayer", [], layer)
            + _prod(a["num_decoder_layers"]) * _transformer_layer("TransformerDecoderLayer", [], layer) + 2 * norm)


# arguments of the transformer layers that size no parameter (an activation given as a name or a function)
_LAYER_FREE = ("dropout", "activation", "layer_norm_eps", "batch_first", "norm_first")


def _transformer_layer(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """``nn.TransformerEncoderLayer``/``nn.TransformerDecoderLayer`` (torch/nn/modules/transformer.py): one
    (encoder) or two (decoder: self and cross) ``MultiheadAttention(d_model, nhead, bias=bias)``, ``linear1``
    d_model -> dim_feedforward, ``linear2`` back, and two (three) ``LayerNorm(d_model, bias=bias)``. torch 2.1's
    ``bias=False`` drops every bias of the layer. 3,152,384 for (512, 8, 2048), as torch counts it."""
    a = _bound(args, kwargs, ["d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps",
                              "batch_first", "norm_first", "bias"],
               {"dim_feedforward": 2048, "dropout": 0.1, "activation": "relu", "layer_norm_eps": 1e-5,
                "batch_first": False, "norm_first": False, "bias": True}, _LAYER_FREE)
    if set(kwargs) - {"d_model", "nhead", "dim_feedforward", "dropout", "activation", "layer_norm_eps",
                      "batch_first", "norm_first", "bias"} or not isinstance(a["bias"], bool):
        raise _Unknown(f"nn.{name} options")
    d, ff, bias = _prod(a["d_model"]), _prod(a["dim_feedforward"]), a["bias"]
    attn = 4 * d * d + (4 * d if bias else 0)
    mlp = 2 * d * ff + ((ff + d) if bias else 0)
    norm = 2 * d if bias else d
    if name == "TransformerEncoderLayer":
        return attn + mlp + 2 * norm
    return 2 * attn + mlp + 3 * norm


def _merge(parts: list[_Mod], named: dict[str, Any]) -> _Mod:
    weights: dict[str, int] = {}
    for key, part in named.items():
        if isinstance(key, str) and isinstance(part, _Mod):
            for sub, size in part.weights.items():
                weights[f"{key}.{sub}" if sub else key] = size
    return _Mod(sum(p.n for p in parts), weights, [line for p in parts for line in p.layers])


def _bias_of(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """The bias part of a layer's count (what a tied weight does not share)."""
    if name in ("Linear",):
        a = _bound(args, kwargs, ["in_features", "out_features", "bias"], {"bias": True})
        return _prod(a["out_features"]) if a["bias"] else 0
    return 0


def _bound(args: list[Any], kwargs: dict[str, Any], names: list[str], defaults: dict[str, Any],
           free: tuple[str, ...] = ()) -> dict[str, Any]:
    """The layer's arguments by name; ``free``: ones no parameter shape depends on, which may be unknown
    (zhouhaoyi/Informer2020 models/embed.py:29-31 a ``Conv1d`` whose ``padding`` depends on torch's version)."""
    if len(args) > len(names):
        raise _Unknown("too many arguments")
    out = dict(defaults)
    out.update(zip(names, args))
    out.update(kwargs)
    if any(n not in out for n in names) or any(v is _UNK for k, v in out.items() if k not in free):
        raise _Unknown("arguments")
    return out


_NO_SHAPE = ("stride", "padding", "dilation", "output_padding", "padding_mode", "eps", "momentum")


def _counted_layer(name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """The parameter count of ``nn.<name>(*args, **kwargs)`` from evaluated arguments."""
    for key in ("device", "dtype"):
        kwargs = {k: v for k, v in kwargs.items() if k != key}
    if name in ("TransformerEncoderLayer", "TransformerDecoderLayer", "Transformer"):
        # an activation given as a module without parameters (``activation=nn.GELU()``) sizes nothing
        act = kwargs.get("activation")
        if isinstance(act, _Mod) and act.n == 0:
            kwargs = {**kwargs, "activation": "module"}
        if any(isinstance(v, (_Mod, _Tensor)) for v in list(args) + list(kwargs.values())):
            raise _Unknown(f"nn.{name} of a module")
        if name == "Transformer":
            return _whole_transformer(args, kwargs)
        return _transformer_layer(name, args, kwargs)
    if any(isinstance(v, (_Mod, _Tensor)) for v in list(args) + list(kwargs.values())):
        raise _Unknown(f"nn.{name} of a module")
    if name == "Linear":
        a = _bound(args, kwargs, ["in_features", "out_features", "bias"], {"bias": True})
        return _prod(a["in_features"]) * _prod(a["out_features"]) + (_prod(a["out_features"]) if a["bias"] else 0)
    if name in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
        dims = int(name[-2])
        order = (["in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "groups",
                  "bias", "dilation"] if "Transpose" in name else
                 ["in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias"])
        a = _bound(args, kwargs, order, {"bias": True, "groups": 1, "stride": 1, "padding": 0, "dilation": 1,
                                         "output_padding": 0, "padding_mode": "zeros"}, _NO_SHAPE)
        cin, cout, groups = _prod(a["in_channels"]), _prod(a["out_channels"]), _prod(a["groups"])
        return cout * (cin // groups) * _kernel(a["kernel_size"], dims) + (cout if a["bias"] else 0)
    if name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d"):
        a = _bound(args, kwargs, ["num_features", "eps", "momentum", "affine"],
                   {"affine": True, "eps": 1e-5, "momentum": 0.1, "track_running_stats": True}, _NO_SHAPE)
        return 2 * _prod(a["num_features"]) if a["affine"] else 0
    if name == "LayerNorm":
        a = _bound(args, kwargs, ["normalized_shape", "eps", "elementwise_affine", "bias"],
                   {"elementwise_affine": True, "bias": True, "eps": 1e-5})
        n = _prod(a["normalized_shape"])
        return (n + (n if a["bias"] else 0)) if a["elementwise_affine"] else 0
    if name == "RMSNorm":
        a = _bound(args, kwargs, ["normalized_shape", "eps", "elementwise_affine"],
                   {"elementwise_affine": True, "eps": None})
        return _prod(a["normalized_shape"]) if a["elementwise_affine"] else 0
    if name == "GroupNorm":
        a = _bound(args, kwargs, ["num_groups", "num_channels", "eps", "affine"], {"affine": True, "eps": 1e-5})
        return 2 * _prod(a["num_channels"]) if a["affine"] else 0
    if name == "Embedding":
        a = _bound(args, kwargs, ["num_embeddings", "embedding_dim", "padding_idx"], {"padding_idx": None})
        if set(kwargs) - {"num_embeddings", "embedding_dim", "padding_idx"}:
            raise _Unknown("Embedding options")
        return _prod(a["num_embeddings"]) * _prod(a["embedding_dim"])
    if name == "MultiheadAttention":
        a = _bound(args, kwargs, ["embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn",
                                  "kdim", "vdim", "batch_first"],
                   {"dropout": 0.0, "bias": True, "add_bias_kv": False, "add_zero_attn": False, "kdim": None,
                    "vdim": None, "batch_first": False})
        if a["kdim"] not in (None, a["embed_dim"]) or a["vdim"] not in (None, a["embed_dim"]) or a["add_bias_kv"]:
            raise _Unknown("MultiheadAttention options")
        e = _prod(a["embed_dim"])
        return 4 * e * e + (4 * e if a["bias"] else 0)
    if name in ("LSTM", "GRU", "RNN"):
        # torch/nn/modules/rnn.py ``RNNBase``: per layer and direction ``weight_ih`` (gates*h x input),
        # ``weight_hh`` (gates*h x h) and two biases; layers after the first read h * directions
        a = _bound(args, kwargs, ["input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                                  "bidirectional"],
                   {"num_layers": 1, "bias": True, "batch_first": False, "dropout": 0.0, "bidirectional": False,
                    "proj_size": 0, "nonlinearity": "tanh"})
        if a["proj_size"] or set(kwargs) - {"input_size", "hidden_size", "num_layers", "bias", "batch_first",
                                            "dropout", "bidirectional", "proj_size", "nonlinearity"}:
            raise _Unknown(f"{name} options")
        gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[name] * _prod(a["hidden_size"])
        h, dirs, n = _prod(a["hidden_size"]), 2 if a["bidirectional"] else 1, 0
        for layer in range(_prod(a["num_layers"])):
            width = _prod(a["input_size"]) if layer == 0 else h * dirs
            n += dirs * (gates * width + gates * h + (2 * gates if a["bias"] else 0))
        return n
    if name in ("LSTMCell", "GRUCell", "RNNCell"):
        a = _bound(args, kwargs, ["input_size", "hidden_size", "bias"], {"bias": True, "nonlinearity": "tanh"})
        gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[name] * _prod(a["hidden_size"])
        return gates * _prod(a["input_size"]) + gates * _prod(a["hidden_size"]) + (2 * gates if a["bias"] else 0)
    if name == "PReLU":  # torch/nn/modules/activation.py: ``weight`` of num_parameters (default 1) slopes
        a = _bound(args, kwargs, ["num_parameters", "init"], {"num_parameters": 1, "init": 0.25})
        if set(kwargs) - {"num_parameters", "init", "device", "dtype"}:
            raise _Unknown("PReLU options")
        return _prod(a["num_parameters"])
    if name in _FREE or name.endswith(_LOSSES_OK):
        return 0
    raise _Unknown(f"nn.{name}")
