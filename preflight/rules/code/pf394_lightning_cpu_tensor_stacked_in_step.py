"""PF394 lightning-cpu-tensor-stacked-in-step: a tensor created without a device in a LightningModule's
step (or a helper the step calls) is stacked or concatenated with the step's tensors."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules._pf414_support import self_attr
from preflight.rules.base import Rule, examples

_STEPS = ("training_step", "validation_step", "test_step", "predict_step")
_FACTORIES = frozenset({"torch.tensor", "torch.zeros", "torch.ones", "torch.full", "torch.empty",
                        "torch.as_tensor", "torch.arange", "torch.linspace", "torch.logspace", "torch.eye",
                        "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.from_numpy",
                        "torch.Tensor", "torch.FloatTensor", "torch.LongTensor"})
_JOINS = frozenset({"torch.stack", "torch.cat", "torch.concat", "torch.concatenate", "torch.hstack",
                    "torch.vstack"})


def _lightning_modules(ctx: FileContext) -> list[ast.ClassDef]:
    return [c for c in ctx.nodes(ast.ClassDef)
            if any(ast.unparse(b).rsplit(".", 1)[-1] == "LightningModule" for b in c.bases)]


def _step_methods(cls: ast.ClassDef) -> list[ast.FunctionDef]:
    """The step methods and the methods of the class they call (through ``self.<name>(...)``)."""
    methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
    todo = [methods[s] for s in _STEPS if s in methods]
    seen: dict[str, ast.FunctionDef] = {}
    while todo:
        fn = todo.pop()
        if fn.name in seen:
            continue
        seen[fn.name] = fn
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                attr = self_attr(node.func)
                if attr in methods:
                    todo.append(methods[attr])
    return list(seen.values())


def _cpu_tensors(fn: ast.FunctionDef, quals: dict[ast.Call, str]) -> dict[str, ast.Assign]:
    """Names bound in ``fn`` to a tensor factory with no ``device`` (nor a ``like`` source)."""
    out: dict[str, ast.Assign] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and quals.get(node.value) in _FACTORIES \
                and kwarg(node.value, "device") is None and not has_unpacking(node.value):
            out[node.targets[0].id] = node
    return out


def _rebound_unconditionally(fn: ast.FunctionDef, name: str, after: int, before: int) -> bool:
    for st in fn.body:
        if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and after < st.lineno < before:
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _joined(join: ast.Call, cpu: dict[str, ast.Assign], quals: dict[ast.Call, str]) -> Optional[str]:
    """The CPU name ``join`` stacks with at least one element that is neither a CPU name nor a factory
    call without a device."""
    if not join.args or not isinstance(join.args[0], (ast.List, ast.Tuple)):
        return None
    elts = join.args[0].elts
    names = [e.id for e in elts if isinstance(e, ast.Name) and e.id in cpu]
    others = [e for e in elts if not (isinstance(e, ast.Name) and e.id in cpu)
              and not (isinstance(e, ast.Call) and quals.get(e) in _FACTORIES and kwarg(e, "device") is None)
              and not isinstance(e, ast.Constant)]
    return names[0] if names and others else None


@register
class LightningCpuTensorStackedInStep(Rule):
    code = "PF394"
    name = "lightning-cpu-tensor-stacked-in-step"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("LightningModule",)
    summary = ("a tensor created without `device=` in a LightningModule step (or a helper it calls) is stacked "
               "or concatenated with the step's tensors: on a GPU the CPU tensor meets CUDA tensors and the step fails")
    explanation = """
## What it finds

In a `LightningModule`'s `training_step`/`validation_step`/`test_step`/`predict_step`, or a
method of the class they call, a name bound to `torch.tensor(...)`, `torch.zeros(...)` or
another factory with no `device=` argument is passed to `torch.stack`/`torch.cat` (or
`hstack`/`vstack`) together with other tensors of the step.

## Why it matters

Lightning moves the module and the batch to the accelerator; a tensor a step creates itself
stays on the CPU unless it is given a device. Arithmetic with a 0-dimensional CPU tensor is
allowed, which is why such code often works while a branch replaces the value, but `torch.stack`
and `torch.cat` require every input on one device: on a GPU the step fails with `RuntimeError:
All input tensors must be on the same device. Received cpu and cuda:0` (lightning issue 7023, a
KL term started as `torch.tensor(0)` and kept during the KL warm-up).

## How to fix it

Create the tensor on the step's device: `torch.zeros((), device=self.device)`,
`torch.zeros_like(loss)`, or `torch.tensor(0.0, device=self.device)`.

## When preflight stays silent

* The factory is given a `device=` (or `**kwargs`), or the value is moved (`.to(...)`, `.cuda()`,
  `.type_as(...)`) where it is bound.
* The name is rebound by a plain statement of the method's body before it is stacked.
* Every stacked element is such a CPU tensor, or the join is not a literal list or tuple.
"""
    bad_examples = examples("preflight.rules.code._pf394_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf394_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        quals = {c: q for c, q in calls(ctx) if q in _FACTORIES or q in _JOINS}
        if not quals:
            return
        for cls in _lightning_modules(ctx):
            for fn in _step_methods(cls):
                cpu = _cpu_tensors(fn, quals)
                if not cpu:
                    continue
                for join in ast.walk(fn):
                    if not (isinstance(join, ast.Call) and quals.get(join) in _JOINS):
                        continue
                    name = _joined(join, cpu, quals)
                    if name is None:
                        continue
                    made = cpu[name]
                    if made.lineno > join.lineno or _rebound_unconditionally(fn, name, made.lineno, join.lineno):
                        continue
                    yield ctx.finding(
                        self, made,
                        f"`{ast.unparse(made)}` creates `{name}` on the CPU inside `{cls.name}.{fn.name}`, and "
                        f"`{ast.unparse(join)[:80]}` (line {join.lineno}) joins it with the step's tensors: on a GPU "
                        "this fails with `RuntimeError: All input tensors must be on the same device. Received cpu "
                        "and cuda:0`. Create it with `device=self.device` (or `torch.zeros_like(...)`)",
                        evidence=[ctx.evidence(join, "the CPU tensor is stacked with the step's tensors here")])
                    break
