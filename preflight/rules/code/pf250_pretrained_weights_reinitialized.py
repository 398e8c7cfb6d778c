"""PF250 pretrained-weights-reinitialized: a model is loaded with pretrained weights (``from_pretrained``,
``resnet50(pretrained=True)``, ``load_state_dict``) and then re-initialised as a whole (``model.apply(init_fn)``,
``for m in model.modules(): nn.init...``): the loaded weights are overwritten by random ones."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_INIT_METHODS = frozenset({"normal_", "uniform_", "zero_", "fill_", "constant_", "xavier_uniform_", "xavier_normal_",
                           "kaiming_uniform_", "kaiming_normal_", "trunc_normal_", "orthogonal_", "ones_",
                           "zeros_", "eye_", "dirac_", "sparse_"})
_MODULE_WALKS = frozenset({"modules", "named_modules", "children", "named_children", "parameters",
                           "named_parameters"})


def _dotted(node: ast.AST) -> str:
    return ast.unparse(node)


def _ref(node: ast.AST) -> Optional[str]:
    """``model``, ``self.backbone``, ``self.model.encoder``: names and attribute chains of a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _ref(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _pretrained_load(value: ast.AST) -> Optional[str]:
    """How a call loads pretrained weights: ``X.from_pretrained(...)``, a model factory given
    ``pretrained=True`` or ``weights=<not None>``."""
    if not isinstance(value, ast.Call):
        return None
    if isinstance(value.func, ast.Attribute) and value.func.attr == "from_pretrained":
        return f"`{_dotted(value.func)}(...)`"
    func = _dotted(value.func)
    for kw in value.keywords:
        if kw.arg == "pretrained" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
            return f"`{func}(pretrained=True)`"
        if (kw.arg == "weights" and not (isinstance(kw.value, ast.Constant) and kw.value.value is None)
                and ("models" in func or "timm" in func or "Weights" in _dotted(kw.value))):
            return f"`{func}(weights={_dotted(kw.value)[:40]})`"
    return None


def _is_init_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = _dotted(node.func)
    if func.startswith(("nn.init.", "torch.nn.init.", "init.")) and func.endswith("_"):
        return True
    if isinstance(node.func, ast.Attribute):
        if node.func.attr == "reset_parameters":
            return True
        if node.func.attr in _INIT_METHODS:
            receiver = _dotted(node.func.value)
            return receiver.endswith((".weight", ".bias", ".weight.data", ".bias.data"))
    return isinstance(node.func, ast.Name) and node.func.id in {"trunc_normal_", "normal_init", "constant_init",
                                                                 "xavier_init", "kaiming_init"}


def _initialises(body: ast.AST) -> bool:
    return any(_is_init_call(n) for n in ast.walk(body))


def _function_named(ctx: FileContext, name: str, near: ast.AST) -> Optional[ast.AST]:
    """A function (or, for ``self.x``, a method of the enclosing class) of that name in this file."""
    cls = ctx.enclosing(near, ast.ClassDef)
    candidates = [f for f in ctx.nodes(ast.FunctionDef) if f.name == name]
    if cls is not None:
        own = [f for f in candidates if ctx.parent(f) is cls]
        if own:
            return own[0]
    return candidates[0] if candidates else None


def _initializer(ctx: FileContext, fn: ast.AST, near: ast.AST) -> bool:
    """The function handed to ``.apply`` re-initialises weights."""
    if isinstance(fn, ast.Lambda):
        return _initialises(fn.body)
    if isinstance(fn, ast.Call) and _dotted(fn.func) in {"partial", "functools.partial"} and fn.args:
        return _initializer(ctx, fn.args[0], near)
    name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
    if not name:
        return False
    found = _function_named(ctx, name, near)
    if found is not None:
        text = ast.unparse(found).lower()
        return _initialises(found) and "pretrain" not in text
    lowered = name.lower()
    return "init" in lowered and not any(word in lowered for word in ("freeze", "lora", "merge", "adapter"))


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


@register
class PretrainedWeightsReinitialized(Rule):
    code = "PF250"
    name = "pretrained-weights-reinitialized"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("pretrained", "load_state_dict", "weights")
    summary = ("a model loaded with pretrained weights is then re-initialised as a whole (`model.apply(init_fn)`): "
               "the pretrained weights are overwritten")
    explanation = """
## What it finds

In one function (or at module level): a model that receives pretrained weights
(`X.from_pretrained(...)`, a torchvision / timm factory with `pretrained=True` or
`weights=...`, or `model.load_state_dict(...)`), and after that an initialiser run over the
whole model or over a module that contains it: `model.apply(init_fn)` where `init_fn`
calls `nn.init.*`, `.weight.data.normal_()`, `reset_parameters()` (or, when it is not
defined in the file, is named like an initialiser), or a
`for m in model.modules(): nn.init...` loop. A class that builds
`self.backbone = resnet18(pretrained=True)` and then calls `self.apply(self._init_weights)`
in the same method is the same bug.

## Why it matters

`apply` visits every sub-module, so the loaded convolution and linear weights are drawn
again from the initialiser's distribution: the job fine-tunes a randomly initialised model
while the log says it loaded ImageNet or a checkpoint. Nothing fails; accuracy starts at
chance and ends far below what the pretrained model would reach. Reports: AdaInt PR 12
(`init_weights` of the whole model "will override the loaded pretrained weights" of a
`resnet18(pretrained=True)` backbone), huggingface/picotron issue 32
(`init_model_parameters` called after `load_state_dict` "will overwrite weights from
checkpoint"), open-mmlab/mmpretrain PR 318 (a backbone `init_weights` overwrote the
pretrained weights), and the TensorFlow twin of the bug (DeepHash issue 54,
learned-correspondence-release issue 13: an initialiser run after the weights were loaded).

## How to fix it

Initialise before loading, or initialise only the new parts
(`model.fc.apply(init_fn)`, `self.head.apply(self._init_weights)`).

## When preflight stays silent

* The initialiser runs before the weights are loaded, or on a sub-module that was not
  loaded (`model.fc.apply(...)`, `self.head.apply(...)`).
* The function given to `apply` does not initialise (it freezes, sets batch norm to eval),
  or mentions `pretrained` (it skips the pretrained part itself); an imported function
  whose name speaks of LoRA, adapters or merging (ReLoRA's `merge_and_reinit`
  re-initialises only the adapters, on purpose).
* The model is built without weights (`pretrained=False`, `weights=None`,
  `Model(config)`), or the name is bound to a new model in between.
"""
    bad_examples = examples("preflight.rules.code._pf250_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf250_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for scope in [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]:
            yield from self._check_scope(ctx, scope)

    def _check_scope(self, ctx: FileContext, scope: ast.AST) -> Iterable[Finding]:
        nodes = sorted(own_nodes(scope), key=_pos)
        loads: list[tuple[str, ast.AST, str]] = []
        binds: dict[str, list[tuple[int, int]]] = {}
        inits: list[tuple[str, ast.AST, str]] = []
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                ref = _ref(node.targets[0])
                if ref is not None:
                    binds.setdefault(ref, []).append(_pos(node))
                    how = _pretrained_load(node.value)
                    if how is not None:
                        loads.append((ref, node, how))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                receiver = _ref(node.func.value)
                if receiver is None:
                    continue
                if node.func.attr == "load_state_dict":
                    loads.append((receiver, node, f"`{receiver}.load_state_dict(...)`"))
                elif node.func.attr == "apply" and len(node.args) == 1 and _initializer(ctx, node.args[0], node):
                    inits.append((receiver, node, f"`{_dotted(node)[:80]}`"))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                it = node.iter
                if (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _MODULE_WALKS
                        and _ref(it.func.value) is not None and any(_initialises(stmt) for stmt in node.body)):
                    inits.append((str(_ref(it.func.value)), node, f"the loop over `{_dotted(it)}`"))
        if not loads or not inits:
            return
        for receiver, init, what in inits:
            for target, load, how in loads:
                if not (target == receiver or target.startswith(receiver + ".")):
                    continue
                if _pos(load) >= _pos(init):
                    continue
                if any(_pos(load) < pos < _pos(init) for pos in binds.get(receiver, [])):
                    continue
                yield ctx.finding(
                    self, init,
                    f"{what} re-initialises every sub-module of `{receiver}`, which already holds pretrained "
                    f"weights from {how} (line {_pos(load)[0]}): they are overwritten with random values and "
                    "training starts from scratch. Initialise before loading, or only the new layers "
                    "(e.g. the head)",
                    evidence=[ctx.evidence(load, "the pretrained weights")])
                break
