"""PF181 optimizer-before-xla-move: an optimizer built from a model's parameters before ``model.to(xla_device)``
(torch_xla replaces the parameters: the optimizer keeps the old CPU tensors)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples

_OPTIMIZER_ROOTS = ("torch.optim.", "torch_xla.", "bitsandbytes.", "apex.optimizers.", "transformers.")
_PARAM_METHODS = frozenset({"parameters", "named_parameters"})
# how a script names the XLA device
_XLA_DEVICE = ("xla_device(", "torch_xla.device(", "'xla'", '"xla"', "'xla:", '"xla:')


def _is_optimizer(qual: str) -> bool:
    last = qual.rsplit(".", 1)[-1]
    return qual.startswith(_OPTIMIZER_ROOTS) and last[:1].isupper() and "Scheduler" not in last and (
        not last.endswith("LR"))


def _is_xla(expr: ast.AST) -> bool:
    text = ast.unparse(expr)
    return any(w in text for w in _XLA_DEVICE)


def _xla_names(ctx: FileContext) -> set[str]:
    """Names (``device``, ``self.device``) bound anywhere in the file to the XLA device."""
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        if len(assign.targets) == 1 and _is_xla(assign.value):
            out.add(ast.unparse(assign.targets[0]))
    return out


def _params_of(call: ast.Call) -> Optional[str]:
    """``model`` when the optimizer's arguments read ``model.parameters()``/``model.named_parameters()``."""
    for arg in [*call.args[:1], *(k.value for k in call.keywords if k.arg == "params")]:
        for sub in ast.walk(arg):
            if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                    and sub.func.attr in _PARAM_METHODS and isinstance(sub.func.value, (ast.Name, ast.Attribute))):
                return ast.unparse(sub.func.value)
    return None


def _moves(scope: ast.AST, model: str, xla: set[str]) -> list[ast.Call]:
    """``model.to(<xla device>)`` calls in ``scope``."""
    return [c for c in ast.walk(scope) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
            and c.func.attr == "to" and ast.unparse(c.func.value) == model and c.args
            and (_is_xla(c.args[0]) or ast.unparse(c.args[0]) in xla)]


@register
class OptimizerBeforeXlaMove(Rule):
    code = "PF181"
    name = "optimizer-before-xla-move"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("An optimizer is built from `model.parameters()` before `model.to(xla_device)`: on XLA the moved "
               "parameters are new tensors and the optimizer steps the old CPU ones")
    frameworks = ("pytorch",)
    needs_text = ("xla",)
    explanation = """
## What it finds

In one function (or at module level), an optimizer (`torch.optim`, torch_xla, bitsandbytes,
apex or transformers optimizer class) built from `model.parameters()` /
`model.named_parameters()`, followed later in the same scope by `model.to(device)` where the
device is the XLA device (`xm.xla_device()`, `torch_xla.device()`, `torch.device("xla")`,
directly or through a name bound to it anywhere in the file).

## Why it matters

`Module.to` keeps the parameter objects when it can swap their storage in place (CPU to CUDA),
but an XLA tensor cannot share a CPU tensor's implementation, so `model.to(xla_device)`
replaces every parameter with a new tensor. The optimizer built first still holds the old CPU
parameters: they get no gradients, `optimizer.step()` updates nothing the model uses, and no
error is raised (pytorch/xla issue 1623, "Sending .to(device) after defining optimizer leads
to subtle bug"; the maintainers: the optimizer captures the parameters at construction, move
the model first).

## How to fix it

```python
device = xm.xla_device()
model = MNISTNet().to(device)
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
```

## When preflight stays silent

* The model is moved before the optimizer is built.
* The device is not the XLA device (`model.to("cuda")` after the optimizer keeps the parameter
  objects and is harmless).
* The optimizer is built again from the model's parameters after the move.
* The optimizer does not read the moved model's parameters (another model, a parameter list
  preflight cannot trace).
"""
    bad_examples = examples("preflight.rules.code._pf181_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf181_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        xla = _xla_names(ctx)
        optimizers = [c for c, q in calls(ctx) if _is_optimizer(q)]
        for call in optimizers:
            model = _params_of(call)
            if model is None:
                continue
            scope = ctx.enclosing_function(call) or ctx.tree
            moves = [m for m in _moves(scope, model, xla) if m.lineno > call.lineno]
            if not moves:
                continue
            move = min(moves, key=lambda m: m.lineno)
            rebuilt = any(o is not call and o.lineno > move.lineno and _params_of(o) == model
                          and (ctx.enclosing_function(o) or ctx.tree) is scope for o in optimizers)
            if rebuilt:
                continue
            yield ctx.finding(
                self, call,
                f"the optimizer is built from `{model}` parameters before `{ast.unparse(move)}` "
                f"(line {move.lineno}) moves the model to the XLA device: on XLA the moved parameters are new "
                "tensors, so the optimizer keeps stepping the old CPU ones and training silently does nothing; "
                "move the model first, then build the optimizer",
                evidence=[ctx.evidence(move, "the model is moved to the XLA device here")])
