"""PF459 modules-in-plain-list: submodules kept in a Python list, never registered with the module."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.syntax import dotted_name, statement_walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_WRAPPERS = ("ModuleList", "Sequential", "ModuleDict", "ParameterList", "MetricCollection")
_REGISTERS = ("add_module", "register_module")


def _name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _from_nn(func: ast.AST) -> bool:
    text = ast.unparse(func)
    return text.startswith(("nn.", "torch.nn.")) and _name(func)[:1].isupper()


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _torch_module_names(ctx: FileContext) -> set[str]:
    """How the file spells torch's ``nn.Module`` (and Lightning's module) as a base: ``nn.Module``
    when ``nn`` is torch's (not MLX's, Flax's or Paddle's, whose modules register lists)."""
    names: set[str] = set()
    for node in ctx.nodes(ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch":
                    names.add(f"{alias.asname or 'torch'}.nn.Module")
                elif alias.name == "torch.nn":
                    names.add(f"{alias.asname}.Module" if alias.asname else "torch.nn.Module")
            continue
        module = node.module or ""
        for alias in node.names:
            bound = alias.asname or alias.name
            lightning = module.split(".")[0] in ("lightning", "pytorch_lightning")
            if module == "torch" and alias.name == "nn":
                names.add(f"{bound}.Module")
            elif (module == "torch.nn" and alias.name == "Module") or (lightning and alias.name == "LightningModule"):
                names.add(bound)
            elif lightning and alias.name in ("pytorch", "L"):
                names.add(f"{bound}.LightningModule")
    for node in ctx.nodes(ast.Import):
        for alias in node.names:
            if alias.name in ("lightning", "pytorch_lightning", "lightning.pytorch"):
                names.add(f"{alias.asname or alias.name}.LightningModule")
    return names


def _module_class(cls: ast.ClassDef, bases: set[str], local: set[str]) -> bool:
    for b in cls.bases:
        text = dotted_name(b) or ast.unparse(b)  # a chain's text is its dotted name
        if text in bases or text in local:
            return True
    return False


def _elements(value: ast.AST) -> Optional[list[ast.Call]]:
    """The constructor calls a list expression holds: ``[]`` (none yet), ``[A(...), B(...)]`` or
    ``[A(...) for _ in ...]``; None for anything else."""
    if isinstance(value, ast.List):
        calls = [e for e in value.elts if isinstance(e, ast.Call)]
        return calls if len(calls) == len(value.elts) else None
    if isinstance(value, ast.ListComp) and isinstance(value.elt, ast.Call):
        return [value.elt]
    if isinstance(value, ast.Dict) and value.values and None not in value.keys:
        calls = [e for e in value.values if isinstance(e, ast.Call)]
        return calls if len(calls) == len(value.values) else None
    if isinstance(value, ast.DictComp) and isinstance(value.value, ast.Call):
        return [value.value]
    return None


def _metrics(ctx: FileContext, elements: list[ast.Call]) -> bool:
    """Every element is a torchmetrics metric (``Accuracy(...)`` imported from torchmetrics)."""
    qualify = scope_index(ctx).imports.qualify
    return all((qualify(e.func) or "").startswith("torchmetrics") for e in elements)


@register
class ModulesInPlainList(Rule):
    code = "PF459"
    needs_text = ("Module",)
    name = "modules-in-plain-list"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning")
    summary = "Layers kept in a plain Python list are not registered: not trained, not moved, not saved"
    explanation = """
## What it finds

An `nn.Module` whose `__init__` keeps layers in a plain Python list
(`self.lstms = []` then `self.lstms.append(LSTMCell(...))`, or
`self.blocks = [nn.Linear(...) for _ in range(n)]`) that is never wrapped in
`nn.ModuleList`/`nn.Sequential` nor registered with `add_module`; and torchmetrics
metrics kept in a plain list or dict (`self.val_metrics = {"acc": MulticlassAccuracy(...)}`).

## Why it matters

`nn.Module` registers only attributes that are modules, `ModuleList`s or
parameters. Layers in a list are invisible: `model.parameters()` does not contain
them, so the optimizer never updates their weights; `.cuda()`/`.to()` and
`.train()`/`.eval()` do not reach them; `state_dict()` does not save them. The run
trains the rest of the network around frozen random layers (pytorch-meta-optimizer
issue 11: "the current version will not train the LSTM weights at all"), or fails
with a device mismatch. A torchmetrics `Metric` is an `nn.Module` whose states are
buffers: in a plain dict it stays on the CPU when Lightning moves the LightningModule
to the GPU, and `metric.update(preds, target)` with CUDA tensors fails (Lightning issue
17624, "dictionary of metrics are not moved to device"; the torchmetrics docs: metrics
in native Python lists and dicts are not registered, use `ModuleList`/`ModuleDict` or
`MetricCollection`).

## How to fix it

`self.lstms = nn.ModuleList()` (it has `append`), or
`self.blocks = nn.ModuleList([nn.Linear(...) for _ in range(n)])`.

## When preflight stays silent

* The list is wrapped later (`self.blocks = nn.ModuleList(self.blocks)`,
  `nn.Sequential(*self.blocks)`) or each element is registered with `add_module`.
* The list holds existing objects (`self._teacher = [teacher]`, a common way to keep a
  model out of `parameters()` on purpose), tensors or other values built by functions.
* An element class preflight cannot tell is a module (an imported class) and the
  module never calls the list's elements.
* A dict of layers that are not torchmetrics metrics (`{"ce": nn.CrossEntropyLoss()}`:
  mostly loss or activation modules without state), or a dict wrapped later in
  `nn.ModuleDict`/`MetricCollection`.
"""
    bad_examples = examples("preflight.rules.code._pf459_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf459_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        bases = _torch_module_names(ctx)
        if not bases:
            return
        modules: set[str] = set()
        for _ in range(3):  # subclasses of the file's own module classes too
            modules |= {c.name for c in ctx.nodes(ast.ClassDef) if _module_class(c, bases, modules)}
        for cls in ctx.nodes(ast.ClassDef):
            if cls.name not in modules:
                continue
            init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            if init is None:
                continue
            yield from self._check_class(ctx, cls, init, modules)

    def _check_class(self, ctx: FileContext, cls: ast.ClassDef, init: ast.FunctionDef,
                     modules: set[str]) -> Iterable[Finding]:
        lists: dict[str, tuple[ast.Assign, list[ast.Call]]] = {}
        for st in statement_walk(init):  # assignments are statements: ast.walk's order, no expressions
            if isinstance(st, ast.Assign) and len(st.targets) == 1:
                attr = _self_attr(st.targets[0])
                elements = _elements(st.value) if attr else None
                if attr and elements is not None and attr not in lists:
                    lists[attr] = (st, elements)
        if not lists:
            return
        for node in ast.walk(cls):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append":
                attr = _self_attr(node.func.value)
                if attr in lists and node.args and isinstance(node.args[0], ast.Call):
                    lists[attr][1].append(node.args[0])
        for attr, (assign, elements) in lists.items():
            if not elements or self._registered(cls, attr, assign):
                continue
            if not all(_name(e.func)[:1].isupper() for e in elements):
                continue  # a function's result (torch.zeros, a hook handle) is no layer
            names = sorted({_name(e.func) for e in elements})
            kind = "dict" if isinstance(assign.value, (ast.Dict, ast.DictComp)) else "list"
            if _metrics(ctx, elements):
                message = (f"`self.{attr}` keeps torchmetrics {', '.join(names)} in a plain Python {kind}: `nn.Module` "
                           "does not register them as child modules, so moving the model (Lightning's `.to(device)`) "
                           "leaves their states on the CPU and `update()` with CUDA tensors fails with a device "
                           "mismatch; nor are they part of the module's state. Use "
                           f"`nn.ModuleList`/`nn.ModuleDict` (or `torchmetrics.MetricCollection`) for `self.{attr}`")
                yield ctx.finding(self, assign, message,
                                  evidence=[ctx.evidence(elements[0], "a metric is put in the container here")])
                continue
            if kind == "dict":
                continue  # a dict of loss or activation modules is common and mostly harmless: metrics only
            known = all(_from_nn(e.func) or _name(e.func) in modules for e in elements)
            if not known and not self._called(cls, attr):
                continue
            message = (f"`self.{attr}` keeps {', '.join(names)} layers in a plain Python {kind}: `nn.Module` does "
                       f"not register them, so `parameters()` leaves them out (the optimizer never trains them), "
                       "`.to()`/`.cuda()` and `.train()`/`.eval()` do not reach them and `state_dict()` does not "
                       f"save them. Use `nn.ModuleList` for `self.{attr}`")
            yield ctx.finding(self, assign, message,
                              evidence=[ctx.evidence(elements[0], "a layer is put in the list here")])

    @staticmethod
    def _registered(cls: ast.ClassDef, attr: str, first: ast.Assign) -> bool:
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and node is not first and any(_self_attr(t) == attr for t in node.targets) \
                    and isinstance(node.value, ast.Call) and _name(node.value.func) in _WRAPPERS:
                return True
            if isinstance(node, ast.Call) and _name(node.func) in (*_WRAPPERS, *_REGISTERS):
                if any(_self_attr(a) == attr or (isinstance(a, ast.Starred) and _self_attr(a.value) == attr)
                       for a in node.args):
                    return True
                if _name(node.func) in _REGISTERS:
                    return True  # elements registered one by one (by name), as the class pleases
        return False

    @staticmethod
    def _called(cls: ast.ClassDef, attr: str) -> bool:
        """The module calls the list's elements: ``self.x[i](...)``, ``for layer in self.x: layer(...)``."""
        loop_vars: set[str] = set()
        for node in ast.walk(cls):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript) \
                    and _self_attr(node.func.value) == attr:
                return True
            if isinstance(node, (ast.For, ast.comprehension)):
                it = node.iter
                if isinstance(it, ast.Call) and _name(it.func) in ("enumerate", "zip", "reversed") and it.args:
                    it = it.args[0]
                if _self_attr(it) == attr:
                    target = node.target
                    if isinstance(target, ast.Tuple) and target.elts:
                        target = target.elts[-1]
                    if isinstance(target, ast.Name):
                        loop_vars.add(target.id)
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in loop_vars
                   for n in ast.walk(cls))
