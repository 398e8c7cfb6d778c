"""PF404 optimizer-calls-in-training-step: backward/step/zero_grad by hand under Lightning's automatic optimization."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.accumulation_manual import manual_optimization
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import (
    LIGHTNING_MODULES,
    ClassInfo,
    FunctionInfo,
    ScopeIndex,
    scope_index,
)
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import unparse
from preflight.rules.base import Rule, examples


def _optimizer_names(fn: FunctionInfo) -> set[str]:
    """Names bound in ``fn`` to ``self.optimizers()`` (or items of it)."""
    out: set[str] = set()
    for node in ast.walk(fn.node):
        if isinstance(node, ast.Assign) and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "optimizers"
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                for n in ast.walk(node.value)):
            for tgt in node.targets:
                out.update(n.id for n in ast.walk(tgt) if isinstance(n, ast.Name))
    return out


def _is_optimizer(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    text = ast.unparse(node)
    return text.startswith(("self.optimizers()", "self.trainer.optimizers"))


def _what(call: ast.Call, names: set[str]) -> Optional[str]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "manual_backward" and isinstance(func.value, ast.Name) and func.value.id == "self":
        return "self.manual_backward"
    if func.attr == "backward" and not call.args and not (
            isinstance(func.value, ast.Name) and func.value.id in ("self", "torch")):
        return "backward"
    if func.attr in ("step", "zero_grad") and _is_optimizer(func.value, names):
        return func.attr
    return None


def _bases_known(scopes: ScopeIndex, cls: ClassInfo) -> bool:
    """Every base is in this file or is ``LightningModule`` itself: a base from elsewhere
    (another module, Lightning's ``BoringModel``) may switch to manual optimization unseen."""
    for c in cls.mro():
        for base in c.bases:
            if base in scopes.classes_by_name or base in LIGHTNING_MODULES or base.endswith(".LightningModule"):
                continue
            return False
    return True


def _instance_manual(ctx: FileContext, cls: ClassInfo) -> bool:
    """``model = Cls(); model.automatic_optimization = False`` (or on an object preflight
    cannot trace back to a class: then any class of the file may be the one)."""
    for assign in ctx.nodes(ast.Assign):
        for tgt in assign.targets:
            if not (isinstance(tgt, ast.Attribute) and tgt.attr == "automatic_optimization"):
                continue
            if isinstance(assign.value, ast.Constant) and assign.value.value is True:
                continue
            owner = tgt.value
            if isinstance(owner, ast.Name) and owner.id == "self":
                continue
            if not isinstance(owner, ast.Name):
                return True
            built = [a.value for a in ctx.nodes(ast.Assign) if isinstance(a.value, ast.Call)
                     and any(isinstance(t, ast.Name) and t.id == owner.id for t in a.targets)]
            if not built or any(isinstance(b.func, ast.Name) and b.func.id == cls.name for b in built) or any(
                    not isinstance(b.func, ast.Name) for b in built):
                return True
    return False



def automatic_training_steps(ctx: FileContext) -> Iterator[FunctionInfo]:
    """The ``training_step`` methods of LightningModules of this file that run under automatic
    optimization (no manual switch on the class or on an instance, every base class known)."""
    scopes = scope_index(ctx)
    for fn in scopes.functions.values():
        if fn.hook != "lightning-train" or fn.name != "training_step":
            continue
        cls = fn.method_class()
        if cls is None or manual_optimization(ctx, scopes, cls) or not _bases_known(scopes, cls) \
                or _instance_manual(ctx, cls):
            continue
        yield fn

@register
class OptimizerCallsInTrainingStep(Rule):
    code = "PF404"
    needs_text = ('training_step',)
    name = "optimizer-calls-in-training-step"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`training_step` calls backward, step or zero_grad under Lightning's automatic optimization"
    explanation = """
## What it finds

A `LightningModule` with automatic optimization (the default:
`self.automatic_optimization` is never set to False) whose `training_step` calls
`loss.backward()`, `self.manual_backward(loss)`, or `step()` / `zero_grad()` on
an optimizer from `self.optimizers()`.

## Why it matters

With automatic optimization Lightning itself runs backward on the loss that
`training_step` returns, steps the optimizer and zeroes the gradients. Doing it
by hand as well back-propagates twice (gradients doubled, or "Trying to backward
through the graph a second time"), steps twice per batch, or zeroes gradients
that Lightning is accumulating over `accumulate_grad_batches`, so accumulation
silently does nothing.

## How to fix it

Return the loss from `training_step` and let Lightning do the rest; or switch to
manual optimization (`self.automatic_optimization = False` in `__init__`) and
then use `self.manual_backward(loss)`, `opt.step()` and `opt.zero_grad()`.

## When preflight stays silent

* Manual optimization (`self.automatic_optimization = False` in the class or a base of
  the file, or `model.automatic_optimization = False` on an instance).
* A base class from another module (its `__init__` may switch to manual optimization).
* Calls in other hooks (`on_before_optimizer_step`, `optimizer_step` overrides),
  `torch.autograd.grad`, `backward()` on something with arguments (a custom
  autograd API), `step()` on something that is not an optimizer from
  `self.optimizers()` (a scheduler, an EMA helper).
* Plain `torch.nn.Module` classes and Lightning Fabric.
"""
    bad_examples = examples("preflight.rules.code._pf40x_examples", "PF404_BAD")
    good_examples = examples("preflight.rules.code._pf40x_examples", "PF404_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes = scope_index(ctx)
        for fn in automatic_training_steps(ctx):
            names = _optimizer_names(fn)
            found: list[tuple[ast.Call, str]] = []
            for call in ast.walk(fn.node):
                if not isinstance(call, ast.Call) or scopes.function_of(call) is not fn:
                    continue
                what = _what(call, names)
                if what is not None:
                    found.append((call, what))
            if found:
                found.sort(key=lambda cw: (cw[0].lineno, cw[0].col_offset))
                yield self._report(ctx, fn, found)

    def _report(self, ctx: FileContext, fn: FunctionInfo, found: list[tuple[ast.Call, str]]) -> Finding:
        effects = {
            "backward": "Lightning runs backward again on the returned loss (gradients doubled, or an "
                        "error about backward through the graph a second time)",
            "self.manual_backward": "`manual_backward` is for manual optimization; Lightning also runs "
                                    "backward on the returned loss",
            "step": "Lightning steps the optimizer itself, so it steps twice per batch",
            "zero_grad": "Lightning zeroes the gradients itself; zeroing here wipes the gradients it "
                         "accumulates over `accumulate_grad_batches`",
        }
        call = found[0][0]
        calls = ", ".join(f"`{unparse(c, 40)}`" for c, _ in found)
        kinds = list(dict.fromkeys(w for _, w in found))
        message = (
            f"{calls} inside `training_step` of an automatic-optimization LightningModule: "
            + "; ".join(effects[w] for w in kinds)
            + ". Return the loss and let Lightning optimize, or set "
            "`self.automatic_optimization = False` and optimize by hand")
        evidence = [ctx.evidence(fn.node, "`training_step` under automatic optimization "
                                          "(`automatic_optimization` is never set to False)")]
        evidence.extend(ctx.evidence(c, "an optimization call Lightning also makes") for c, _ in found)
        return ctx.finding(self, call, message, evidence=evidence)
