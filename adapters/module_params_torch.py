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
    n = _counted_layer(name, args, kwargs)
    return _Mod(n, {"": n - _bias_of(name, args, kwargs)}, [f"{name}@{line}={n}"] if n else [])


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
    if any(isinstance(v, (_Mod, _Tensor)) for v in list(args) + list(kwargs.values())):
        raise _Unknown(f"nn.{name} of a module")
    for key in ("device", "dtype"):
        kwargs = {k: v for k, v in kwargs.items() if k != key}
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
