"""The parameter count of a small local ``nn.Module`` built from literal or config-given sizes,
read from its source (never imported or executed).

A class counts when its ``__init__`` builds only layers whose parameter shapes follow from
their arguments (``nn.Linear``, ``nn.Conv1d/2d/3d``, ``nn.BatchNorm1d/2d/3d``, ``nn.LayerNorm``,
``nn.Embedding``, ``nn.GroupNorm``) plus parameter-free ones (activations, dropout, pooling,
``nn.Sequential`` / ``nn.ModuleList`` of such layers), with sizes that are integer literals,
constructor arguments (their defaults, overridden by the config's keyword arguments) or simple
arithmetic of these. Anything else (a layer built in a loop or comprehension, another module
class, an ``nn.Parameter``, a size read from data) makes the count unknown: nothing is guessed.
"""

from __future__ import annotations

import ast
import contextlib
import re
from pathlib import Path
from typing import Any, Optional

from preflight.local_trees import parse_file
from preflight.sources import read_text_limited

_FREE = {"ReLU", "GELU", "SiLU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "Softmax", "LogSoftmax", "Dropout",
         "Dropout1d", "Dropout2d", "Dropout3d", "Identity", "Flatten", "MaxPool1d", "MaxPool2d", "MaxPool3d",
         "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
         "AdaptiveMaxPool2d", "Sequential", "ModuleList", "Mish", "Hardswish", "Softplus", "Unflatten",
         # padding, resampling and the other activations of torch.nn that hold no parameter (facebookresearch/swav
         # ``src/resnet50.py:158`` ``self.padding = nn.ConstantPad2d(1, 0.0)``); PReLU holds one, so it is not here
         *(f"{kind}Pad{d}d" for kind in ("Constant", "Zero", "Reflection", "Replication", "Circular") for d in (1, 2, 3)),
         "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
         "ChannelShuffle", "ReLU6", "Hardtanh", "Hardsigmoid", "SELU", "CELU", "GLU", "LogSigmoid", "Softsign",
         "Softmin", "Tanhshrink", "AlphaDropout", "FeatureAlphaDropout", "AdaptiveMaxPool1d", "AdaptiveMaxPool3d",
         "LPPool1d", "LPPool2d"}
_LOSSES_OK = ("Loss",)  # nn.CrossEntropyLoss() and friends hold no parameters
_MAX_BYTES = 300_000


class _Unknown(Exception):
    pass


def _eval(node: ast.AST, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, type(None))):
        return node.value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e, env) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        a, b = _eval(node.left, env), _eval(node.right, env)
        if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool):
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if b:
                return a // b
    raise _Unknown(ast.dump(node)[:60])


def _layer_name(func: ast.AST) -> Optional[str]:
    """``nn.Linear`` / ``torch.nn.Linear`` -> ``Linear``; anything else None."""
    if isinstance(func, ast.Attribute):
        base = func.value
        if (isinstance(base, ast.Name) and base.id == "nn") or (
                isinstance(base, ast.Attribute) and base.attr == "nn"):
            return func.attr
    return None


def _bind(call: ast.Call, names: list[str], defaults: dict[str, Any], env: dict[str, Any]) -> dict[str, Any]:
    out = dict(defaults)
    for name, arg in zip(names, call.args):
        out[name] = _eval(arg, env)
    if len(call.args) > len(names):
        raise _Unknown("too many arguments")
    for kw in call.keywords:
        if kw.arg is None:
            raise _Unknown("**kwargs")
        out[kw.arg] = _eval(kw.value, env)
    missing = [n for n in names if n not in out]
    if missing:
        raise _Unknown(f"missing {missing}")
    return out


def _prod(size: Any) -> int:
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    if isinstance(size, tuple) and all(isinstance(s, int) for s in size):
        n = 1
        for s in size:
            n *= s
        return n
    raise _Unknown("size")


def _kernel(size: Any, dims: int) -> int:
    if isinstance(size, int) and not isinstance(size, bool):
        return size ** dims
    return _prod(size)


def _layer_params(name: str, call: ast.Call, env: dict[str, Any]) -> int:
    if name == "Linear":
        a = _bind(call, ["in_features", "out_features", "bias"], {"bias": True}, env)
        return _prod(a["in_features"]) * _prod(a["out_features"]) + (_prod(a["out_features"]) if a["bias"] else 0)
    if name in ("Conv1d", "Conv2d", "Conv3d"):
        dims = int(name[4])
        a = _bind(call, ["in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups",
                         "bias"], {"bias": True, "groups": 1, "stride": 1, "padding": 0, "dilation": 1}, env)
        cin, cout, groups = _prod(a["in_channels"]), _prod(a["out_channels"]), _prod(a["groups"])
        return cout * (cin // groups) * _kernel(a["kernel_size"], dims) + (cout if a["bias"] else 0)
    if name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d"):
        a = _bind(call, ["num_features"], {"affine": True}, env)
        return 2 * _prod(a["num_features"]) if a["affine"] else 0
    if name == "LayerNorm":
        a = _bind(call, ["normalized_shape"], {"elementwise_affine": True, "bias": True}, env)
        n = _prod(a["normalized_shape"])
        return (n + (n if a["bias"] else 0)) if a["elementwise_affine"] else 0
    if name == "GroupNorm":
        a = _bind(call, ["num_groups", "num_channels"], {"affine": True}, env)
        return 2 * _prod(a["num_channels"]) if a["affine"] else 0
    if name == "Embedding":
        a = _bind(call, ["num_embeddings", "embedding_dim"], {}, env)
        return _prod(a["num_embeddings"]) * _prod(a["embedding_dim"])
    if name in _FREE or name.endswith(_LOSSES_OK):
        return 0
    raise _Unknown(f"nn.{name}")


def _init_env(init: ast.FunctionDef, kwargs: dict[str, Any]) -> dict[str, Any]:
    args = init.args
    positional = [a.arg for a in args.posonlyargs + args.args][1:]
    env: dict[str, Any] = {}
    for name, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
        with contextlib.suppress(_Unknown):
            env[name] = _eval(default, {})
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        if kw_default is not None:
            with contextlib.suppress(_Unknown):
                env[arg.arg] = _eval(kw_default, {})
    for key, value in kwargs.items():
        if isinstance(value, (int, float, bool, tuple)) or value is None:
            env[key] = value
    return env


def count_class(tree: ast.Module, name: str, kwargs: dict[str, Any]) -> Optional[tuple[int, list[str]]]:
    """(parameter count, layer descriptions) of class ``name`` built with ``kwargs``, or None."""
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
    if cls is None or not any(isinstance(b, (ast.Attribute, ast.Name)) and
                              (getattr(b, "attr", None) or getattr(b, "id", "")) == "Module" for b in cls.bases):
        return None
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    env = _init_env(init, kwargs)
    total, layers = 0, []
    try:
        for node in ast.walk(init):
            if isinstance(node, (ast.For, ast.While, ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.Lambda)):
                raise _Unknown("a loop")
            if not isinstance(node, ast.Call):
                continue
            layer = _layer_name(node.func)
            if layer is None:
                func = node.func
                if (isinstance(func, ast.Attribute) and func.attr == "__init__") or (
                        isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "super"):
                    continue
                if isinstance(func, ast.Name) and func.id == "super":
                    continue
                if isinstance(func, ast.Attribute) and func.attr in ("save_hyperparameters",):
                    continue
                raise _Unknown(ast.dump(func)[:60])
            n = _layer_params(layer, node, env)
            if n:
                total += n
                layers.append(f"{layer}@{node.lineno}={n}")
    except _Unknown:
        return None
    return (total, layers) if layers else None


def local_file(root: Path, target: str) -> Optional[Path]:
    """The source file of ``module.path.Class`` under ``root`` (or ``root/src``), or None."""
    module, _, _name = target.rpartition(".")
    if not module:
        return None
    rel = Path(*module.split("."))
    for base in (root, root / "src"):
        for path in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if path.is_file() and path.stat().st_size <= _MAX_BYTES:
                return path
    return None


#: a class that compiles its network under its ``compile`` argument (lightning-hydra-template)
COMPILES = re.compile(r"if\s+(self\.hparams\.|self\.)?compile\b[^\n]*:\s*\n[^\n]*torch\.compile\(")
#: a DataModule that divides the configured batch by the trainer's world size
DIVIDES = re.compile(r"batch_size\s*//\s*self\.trainer\.world_size")


def source_says(root: Path, target: object, pattern: re.Pattern) -> str:
    """``file:line`` (relative to ``root``) where the source of the local ``_target_`` class
    matches ``pattern``; '' when not local or no match."""
    file = local_file(root, target) if isinstance(target, str) else None
    if file is None:
        return ""
    try:
        text = read_text_limited(file, errors="replace")
    except OSError:
        return ""
    m = pattern.search(text)
    if not m:
        return ""
    try:
        shown = file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        shown = file.name
    return f"{shown}:{text.count(chr(10), 0, m.start()) + 1}"


def count_target(root: Path, target: str, kwargs: dict[str, Any]) -> Optional[tuple[int, str, int, list[str]]]:
    """Count ``module.path.Class`` found under ``root`` (or ``root/src``): (count, file, class line, layers)."""
    module, _, name = target.rpartition(".")
    if not module:
        return None
    rel = Path(*module.split("."))
    for base in (root, root / "src"):
        for path in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if not path.is_file() or path.stat().st_size > _MAX_BYTES:
                continue
            try:
                tree = parse_file(path)
            except (SyntaxError, ValueError):
                return None
            got = count_class(tree, name, kwargs)
            if got is None:
                return None
            line = next(n.lineno for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
            return got[0], str(path), line, got[1]
    return None
