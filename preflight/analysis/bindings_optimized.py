"""Optimizer recognition for :mod:`preflight.analysis.bindings`: which calls build a torch optimizer
and which imported project classes are models because an optimizer takes their parameters.

Part of the bindings analysis, split by concern."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Optional

from preflight.analysis import tensor_ops as tables
from preflight.analysis.binding_kinds import MODULE, Binding
from preflight.analysis.scopes import FunctionInfo

if TYPE_CHECKING:
    from preflight.analysis.bindings import Bindings


_OPTIMIZER_SUFFIXES = ("SGD", "Adam", "AdamW", "Adagrad", "Adadelta", "RMSprop", "Lamb", "LAMB", "Lion",
                       "Optimizer")


def optimizer_over_parameters(last: str, call: ast.Call) -> bool:
    """``AnalogSGD(model.parameters(), lr=0.1)``: a class whose name ends with a torch optimizer's
    (``SGD``, ``AdamW``, ... or ``Optimizer``), given ``<x>.parameters()`` (or
    ``named_parameters()``) as its first argument or ``params=``."""
    if not last[:1].isupper() or not last.endswith(_OPTIMIZER_SUFFIXES) or last == "Optimizer":
        return False
    params = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
    return isinstance(params, ast.Call) and isinstance(params.func, ast.Attribute) and (
        params.func.attr in ("parameters", "named_parameters"))


def torch_optimizer_class(qual: str) -> bool:
    """A class of ``torch.optim`` that is an optimizer: not a learning-rate scheduler
    (``torch.optim.lr_scheduler.*``) and not a stochastic-weight-averaging helper
    (``torch.optim.swa_utils.SWALR`` is a scheduler, ``AveragedModel`` a module: stepping an SWALR
    at the end of each epoch is no optimizer step; mosaicml/composer issue 624's SWA loop)."""
    last = qual.rsplit(".", 1)[-1]
    return (qual.startswith("torch.optim.") and last[:1].isupper() and ".lr_scheduler." not in qual
            and ".swa_utils." not in qual)


def optimizer_class_parameter(node: ast.AST, name: str, qualify: Callable[[ast.AST], Optional[str]]) -> bool:
    """``name`` is a parameter of the function ``node`` whose default is an optimizer class:
    ``optimizer_klass(self.byol.parameters(), lr=...)`` in ``def __init__(self, ..., optimizer_klass=Adam)``
    (lucidrains/byol-pytorch ``byol_pytorch/trainer.py``) builds an Adam unless a caller passes another."""
    args = getattr(node, "args", None)
    if not isinstance(args, ast.arguments):
        return False
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    for arg, default in pairs:
        if arg.arg == name and isinstance(default, (ast.Name, ast.Attribute)):
            qual = qualify(default) or ""
            last = qual.rsplit(".", 1)[-1]
            return last in tables.OPTIMIZERS or (torch_optimizer_class(qual) and last != "Optimizer")
    return False


def optimized_models(bindings: Bindings) -> None:
    """``model = DeepSpeech(...).cuda()``, a class imported from another module of the project,
    whose ``model.parameters()`` a torch optimizer takes in the same function: its use says it
    is a model (deepspeech.pytorch's train.py). Only a name bound once there, by a call of a
    capitalised imported name outside ``torch``."""
    optimized: set[tuple[FunctionInfo, str]] = set()
    for call, fn in bindings.call_functions:
        qual = bindings.imports.qualify(call.func) or ""
        if not torch_optimizer_class(qual):
            continue
        first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
        if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                and first.func.attr in ("parameters", "named_parameters") and isinstance(first.func.value, ast.Name):
            optimized.add((fn, first.func.value.id))
    if not optimized:
        return
    counts: dict[tuple[FunctionInfo, str], int] = {}
    for fn, _, target, _ in bindings._events:
        if isinstance(target, ast.Name):
            counts[(fn, target.id)] = counts.get((fn, target.id), 0) + 1
    for fn, class_body, target, value in bindings._events:
        if class_body is not None or not isinstance(target, ast.Name):
            continue
        key = (fn, target.id)
        if key not in optimized or counts.get(key) != 1 or key in bindings.names:
            continue
        made: ast.AST = value
        while isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) \
                and made.func.attr in tables.MODULE_CHAIN:
            made = made.func.value
        if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)
                and made.func.id[:1].isupper() and made.func.id in bindings.imports.aliases):
            continue
        if (bindings.imports.qualify(made.func) or "").startswith("torch."):
            continue
        bindings.names[key] = Binding(MODULE, made, f"`{target.id}.parameters()` are optimized")
