"""Weight normalisation in the module counter: ``torch.nn.utils.weight_norm(layer)`` replaces the layer's
``weight`` by ``weight_v`` (the same size) and ``weight_g`` (one value per row of dimension 0, or one value with
``dim=None``), so the layer gains that many parameters; ``spectral_norm`` adds buffers only. Read, never run.

jaywalnut310/glow-tts @ 13e9976 ``attentions.py:63-65`` ``start = torch.nn.Conv1d(in_channels//2, hidden_channels,
1)``, ``start = torch.nn.utils.weight_norm(start)``, ``self.start = start``; ``modules.py`` ``WN``
``torch.nn.utils.weight_norm(in_layer, name='weight')``; the HiFi-GAN/BigVGAN/DAC/vocos family
``weight_norm(Conv1d(...))`` after ``from torch.nn.utils import weight_norm``; the newer
``torch.nn.utils.parametrizations.weight_norm`` (``original0``/``original1``: the same counts).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.module_params import _prod, _Unknown

_WEIGHT_NORMS = ("torch.nn.utils.weight_norm", "nn.utils.weight_norm", "torch.nn.utils.parametrizations.weight_norm",
                 "nn.utils.parametrizations.weight_norm")
_SPECTRAL_NORMS = ("torch.nn.utils.spectral_norm", "nn.utils.spectral_norm",
                   "torch.nn.utils.parametrizations.spectral_norm", "nn.utils.parametrizations.spectral_norm")
_MODULES = ("torch.nn.utils", "torch.nn.utils.parametrizations")


def weight_rows(name: str, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The size of a layer's weight along dimension 0, as a fact of the counted layer: ``Linear`` and
    ``Conv*d`` their output size, ``ConvTranspose*d`` their input size (its weight is ``(in, out / groups, *k)``)."""
    from preflight.adapters.module_params_torch import _bound

    if name == "Linear":
        key, order = "out_features", ["in_features", "out_features"]
    elif name in ("Conv1d", "Conv2d", "Conv3d"):
        key, order = "out_channels", ["in_channels", "out_channels"]
    elif name in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
        key, order = "in_channels", ["in_channels", "out_channels"]
    else:
        return {}
    try:
        rows = _prod(_bound(list(args[:2]), {k: v for k, v in kwargs.items() if k in order}, order, {})[key])
    except (_Unknown, KeyError, TypeError):
        return {}
    return {"__weight_rows__": rows} if isinstance(rows, int) and not isinstance(rows, bool) else {}


def imported_norms(tree: ast.Module) -> dict[str, str]:
    """``weight_norm``/``spectral_norm`` imported by name from ``torch.nn.utils`` (or its ``parametrizations``),
    under the names bound: name -> ``weight_norm``/``spectral_norm``."""
    return {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 0
            and n.module in _MODULES for a in n.names if a.name in ("weight_norm", "spectral_norm")}


def norm_call(frame: Any, node: ast.Call, name: str) -> Optional[Any]:
    """The module ``weight_norm(layer, ...)``/``spectral_norm(layer, ...)`` gives, or None when ``node`` is not one;
    ``_Unknown`` when it is one the counter cannot size (a layer of several weights, a name other than ``weight``)."""
    from preflight.adapters.module_params_values import _Mod

    by_name = getattr(frame.ctx, "norms", {}).get(name) if isinstance(node.func, ast.Name) \
        and name not in frame.env and name not in frame.ctx.functions and name not in frame.ctx.classes else None
    kind = "weight_norm" if name in _WEIGHT_NORMS or by_name == "weight_norm" else \
        "spectral_norm" if name in _SPECTRAL_NORMS or by_name == "spectral_norm" else None
    if kind is None:
        return None
    if not node.args or len(node.args) > 3 or any(k.arg not in ("name", "dim", "n_power_iterations", "eps")
                                                  for k in node.keywords):
        raise _Unknown(kind)
    layer = frame.ev(node.args[0])
    named = next((k.value for k in node.keywords if k.arg == "name"), node.args[1] if len(node.args) > 1 else None)
    if not isinstance(layer, _Mod) or (named is not None and frame.ev(named) != "weight"):
        raise _Unknown(kind)
    if kind == "spectral_norm":
        return layer  # ``weight_orig`` replaces ``weight``; ``u``/``v`` are buffers
    dim_node = next((k.value for k in node.keywords if k.arg == "dim"), node.args[2] if len(node.args) > 2 else None)
    dim = frame.ev(dim_node) if dim_node is not None else 0
    rows = layer.facts.get("__weight_rows__")
    if dim is None:
        extra = 1
    elif dim == 0 and isinstance(rows, int):
        extra = rows
    else:
        raise _Unknown("weight_norm dim")
    line = getattr(node, "lineno", 0)
    return _Mod(layer.n + extra, dict(layer.weights), [*layer.layers, f"weight_g@{line}={extra}"], dict(layer.facts))


_FILLS = ("normal_", "uniform_", "zero_", "fill_", "orthogonal_", "xavier_uniform_", "xavier_normal_")


def shaped_tensor(frame: Any, node: ast.Call, name: str) -> Optional[Any]:
    """A tensor whose shape the counter follows, for a ``Parameter`` built from a local later (jaywalnut310/glow-tts
    ``modules.py:200-203``: ``w_init = torch.qr(torch.FloatTensor(self.n_split, self.n_split).normal_())[0]``,
    ``self.weight = nn.Parameter(w_init)``): a size factory ``torch.FloatTensor(a, b)`` / ``torch.randn(a, b)``,
    an in-place fill of one (``.normal_()``), and ``torch.qr``/``torch.linalg.qr`` of a 2-D one (the reduced
    ``Q`` of ``(m, min(m, n))`` and ``R`` of ``(min(m, n), n)``). None when ``node`` is none of these."""
    from preflight.adapters.module_params_values import _SIZE_FACTORIES, _Tensor

    last = name.rsplit(".", 1)[-1]
    if name.startswith("torch.") and last in _SIZE_FACTORIES and node.args and not node.keywords:
        dims = frame.items(list(node.args))
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = list(dims[0])
        ok = all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims)
        return _Tensor(tuple(dims) if ok else None)
    if isinstance(node.func, ast.Attribute) and node.func.attr in _FILLS and isinstance(node.func.value, ast.Call):
        inner = frame.ev(node.func.value)
        return inner if isinstance(inner, _Tensor) else None
    if name in ("torch.qr", "torch.linalg.qr") and len(node.args) == 1 and not node.keywords:
        held = frame.ev(node.args[0])
        if not isinstance(held, _Tensor):
            return None
        if held.shape is None or len(held.shape) != 2:
            return (_Tensor(), _Tensor())
        m, n = held.shape
        k = min(m, n)
        return (_Tensor((m, k)), _Tensor((k, n)))
    return None
