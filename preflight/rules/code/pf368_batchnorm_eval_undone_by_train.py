"""PF368 batchnorm-eval-undone-by-train: BatchNorm layers put in eval mode once by a freezing helper, then the
training loop's ``model.train()`` puts them back in training mode."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.project_imports import imported_class, imported_function, sibling_modules
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_Loop = Union[ast.For, ast.AsyncFor, ast.While]


def _attr_call(node: ast.AST, attr: str) -> Optional[ast.Call]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
        return node
    return None


def _puts_bn_in_eval(ctx: FileContext, fn: _FunctionNode) -> Optional[ast.Call]:
    """The first ``m.eval()`` of ``fn`` under an ``if`` whose test names BatchNorm (``isinstance(m,
    nn.BatchNorm2d)``, ``classname.find('BatchNorm') != -1``, ``isinstance(m, _BatchNorm)``)."""
    for node in ast.walk(fn):
        call = _attr_call(node, "eval")
        if call is None or call.args or call.keywords:
            continue
        for anc in ctx.ancestors(call):
            if anc is fn:
                break
            if isinstance(anc, ast.If) and "batchnorm" in ast.unparse(anc.test).lower():
                return call
    return None


# the conventional names of a BatchNorm freezer defined in another module (RAFT's ``model.module.freeze_bn()``,
# detectron-style ``fix_bn``): read as freezers when the file does not define them
_FREEZER_NAMES = frozenset({"freeze_bn", "freeze_batchnorm", "freeze_bn_stats", "fix_bn", "set_bn_eval"})


def _freezers(ctx: FileContext) -> set[str]:
    """Name of every function or method (not an override of ``train``) that puts BatchNorm layers in eval mode,
    and the conventional names of one that the file calls without defining."""
    out: set[str] = set()
    defined: set[str] = set()
    for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        defined.add(fn.name)
        if fn.name != "train" and _puts_bn_in_eval(ctx, fn) is not None:
            out.add(fn.name)
    return out | (_FREEZER_NAMES - defined)


def _last(text: str) -> str:
    """The model's last name: ``self.model`` -> ``model``; a wrapper's ``model.module`` -> ``model``."""
    parts = text.split(".")
    while len(parts) > 1 and parts[-1] in ("module", "_orig_mod"):
        parts.pop()
    return parts[-1]


def _freeze_sites(ctx: FileContext, freezers: set[str]) -> list[tuple[str, ast.Call]]:
    """(the model frozen, by its last name; the call) for ``freeze_bn(model)``, ``model.freeze_bn()``,
    ``model.apply(set_bn_eval)``; ``self.freeze_bn()`` in a class's ``__init__`` freezes the names bound to
    instances of that class."""
    sites: list[tuple[str, ast.Call]] = []
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Name) and func.id in freezers and call.args:
            sites.append((_last(ast.unparse(call.args[0])), call))
        elif isinstance(func, ast.Attribute) and func.attr in freezers:
            owner = ast.unparse(func.value)
            if owner == "self":
                cls = ctx.enclosing(call, ast.ClassDef)
                if cls is not None:
                    sites.extend((name, call) for name in _instances(ctx, cls.name))
                continue
            sites.append((_last(owner), call))
        elif isinstance(func, ast.Attribute) and func.attr == "apply" and call.args \
                and isinstance(call.args[0], ast.Name) and call.args[0].id in freezers:
            sites.append((_last(ast.unparse(func.value)), call))
    return sites


def _instances(ctx: FileContext, cls: str) -> set[str]:
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        value = assign.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == cls:
            for target in assign.targets:
                if isinstance(target, (ast.Name, ast.Attribute)):
                    out.add(_last(ast.unparse(target)))
    return out


def _refreezes_in_train(ctx: FileContext, freezers: set[str]) -> bool:
    """A ``def train(self, mode=True)`` override that puts BatchNorm back in eval (or calls a freezer)."""
    for fn in ctx.nodes(ast.FunctionDef):
        if fn.name != "train" or ctx.enclosing(fn, ast.ClassDef) is None:
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and (_attr_call(node, "eval") is not None or (
                    isinstance(node.func, (ast.Name, ast.Attribute))
                    and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in freezers)):
                return True
    return False


def _refrozen_elsewhere(ctx: FileContext, freezers: set[str]) -> bool:
    """A module of the project that the file imports from (a class or a model-building function), or a
    ``.py`` beside it, overrides ``train()`` to put BatchNorm back in eval (TRI-ML/sdflabel PR 8's fix lives in
    the model's module, not in the training script)."""
    others = [other for other, _ in sibling_modules(ctx, "def train(")]
    for node in ctx.tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            name = alias.asname or alias.name
            found_class = imported_class(ctx, name)
            if found_class is not None:
                others.append(found_class[0])
            found_fn = imported_function(ctx, ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[], keywords=[]))
            if found_fn is not None:
                others.append(found_fn[0])
    return any(_refreezes_in_train(other, freezers) for other in others)


def _training_loop(ctx: FileContext, call: ast.Call) -> Optional[_Loop]:
    """The outermost loop of ``call``'s function that holds it and trains (a ``backward``/``step`` call, or a
    call of a function whose name says it trains)."""
    found: Optional[_Loop] = None
    for anc in ctx.ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            break
        if isinstance(anc, (ast.For, ast.AsyncFor, ast.While)) and _trains(anc):
            found = anc
    return found


def _trains(loop: _Loop) -> bool:
    for node in ast.walk(loop):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("backward", "step") or ("train" in name.lower() and name != "train"):
            return True
    return False


def _undone(ctx: FileContext, call: ast.Call, frozen: list[ast.Call]) -> bool:
    """``call`` (a ``train()``) runs in a training loop that never calls the freezer, or opens a function whose
    training loop follows it (``def training(self, epoch): self.model.train(); for batch in loader: ...``) and
    that calls no freezer after it."""
    loop = _training_loop(ctx, call)
    if loop is not None:
        return not any(any(sub is site for sub in ast.walk(loop)) for site in frozen)
    fn = ctx.enclosing_function(call)
    if fn is None or not any(isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.lineno > call.lineno
                             and _trains(node) for node in ast.walk(fn)):
        return False
    return not any(site.lineno > call.lineno and any(sub is site for sub in ast.walk(fn)) for site in frozen)


def _is_train_call(call: ast.Call) -> bool:
    if _attr_call(call, "train") is None or len(call.args) > 1:
        return False
    mode = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return mode is None or (isinstance(mode, ast.Constant) and mode.value is True)


@register
class BatchNormEvalUndoneByTrain(Rule):
    code = "PF368"
    needs_text = ("BatchNorm", "freeze_bn", "freeze_batchnorm", "fix_bn", "set_bn_eval")
    name = "batchnorm-eval-undone-by-train"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = ("BatchNorm layers are frozen with `.eval()` once, and the training loop's `model.train()` puts them "
               "back in training mode")
    explanation = """
## What it finds

A function or method that puts BatchNorm layers in eval mode (`for m in model.modules(): if
isinstance(m, nn.BatchNorm2d): m.eval()`, or a function handed to `model.apply`; one defined in
another module is read by its conventional name: `freeze_bn`, `freeze_batchnorm`,
`freeze_bn_stats`, `fix_bn`, `set_bn_eval`, as in RAFT's `model.module.freeze_bn()`) is called on a
model (`freeze_bn(model)`, `model.freeze_bn()`, `model.apply(set_bn_eval)`, `self.freeze_bn()`
in the model's `__init__`), and a training loop calls `model.train()` on the same model without
calling the freezing function again in that loop.

## Why it matters

`nn.Module.train()` sets the mode of every submodule, the BatchNorm layers included: the first
`model.train()` of the loop undoes the freeze, and from then on the "frozen" BatchNorm layers
normalise with each batch's statistics and overwrite their pretrained running mean and variance
with the fine-tuning data. Nothing warns: the freezing flag is still set and the checkpoint
says frozen (pgniewko/gt-pyg issue 112, "`freeze()` BatchNorm eval mode is reset by the next
model.train()"; poppinace/indexnet_matting issue 35, "freeze_bn seems to be an invalid
option"; jfzhang95/pytorch-deeplab-xception issue 140; TRI-ML/sdflabel PR 8; pytorch issue
66073 asks for a frozen mode in core for this reason).

## How to fix it

Call the freezing function after every `model.train()` (`model.train();
model.apply(set_bn_eval)`), or override `train(self, mode=True)` in the model class to call
`super().train(mode)` and then put the BatchNorm layers back in eval mode.

## When preflight stays silent

* The freezing function is called again inside the training loop, or a class overrides
  `train()` and puts BatchNorm layers in eval there: in the file, in a `.py` beside it, or in
  the project module a name the file imports comes from (the model's module).
* `train()` is called on another model than the one frozen (a student trained beside a frozen
  teacher), or with `False`.
* The BatchNorm layers are put in eval mode inline, without a function (a later loop's
  `train()` undoing them is not followed here), or the loop that calls `train()` does not train.
* Lightning modules (the trainer calls `train()` itself; freeze in `on_train_epoch_start`).
"""
    bad_examples = examples("preflight.rules.code._pf368_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf368_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        freezers = _freezers(ctx)
        if not freezers or ctx.mentions("LightningModule") or _refreezes_in_train(ctx, freezers):
            return
        sites = _freeze_sites(ctx, freezers)
        if not sites or _refrozen_elsewhere(ctx, freezers):
            return
        for call in ctx.nodes(ast.Call):
            if not _is_train_call(call):
                continue
            assert isinstance(call.func, ast.Attribute)
            model = _last(ast.unparse(call.func.value))
            frozen = [site for name, site in sites if name == model]
            if not frozen:
                continue
            if not _undone(ctx, call, frozen):
                continue
            site = frozen[0]
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)}` runs in the training loop and sets every submodule of `{model}` to "
                f"training mode, the BatchNorm layers that `{ast.unparse(site)}` (line {site.lineno}) put in "
                "eval mode included: from the first pass on, the 'frozen' BatchNorm layers normalise with each "
                "batch's statistics and overwrite their running mean and variance with the new data. Call the "
                "freezing function after every `train()`, or override `train()` in the model class to re-freeze",
                evidence=[ctx.evidence(site, "BatchNorm layers put in eval mode here, once")])
