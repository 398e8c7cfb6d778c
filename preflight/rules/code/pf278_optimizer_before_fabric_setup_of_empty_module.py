"""PF278 optimizer-before-fabric-setup-of-empty-module: an optimizer built from the parameters of
a model created under ``fabric.init_module(empty_init=True)`` before ``fabric.setup_module``
materialises it (FSDP)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import Rule, examples

_OPTIMIZER_ROOTS = ("torch.optim.", "bitsandbytes.optim.", "bitsandbytes.", "apex.optimizers.",
                    "transformers.optimization.", "transformers.")
_PARAM_METHODS = frozenset({"parameters", "named_parameters"})


def _is_optimizer(qual: str) -> bool:
    last = qual.rsplit(".", 1)[-1]
    return qual.startswith(_OPTIMIZER_ROOTS) and last[:1].isupper() and "Scheduler" not in last and (
        not last.endswith("LR"))


def _empty_init_models(ctx: FileContext) -> list[tuple[str, ast.With, ast.Call]]:
    """``with X.init_module(empty_init=True): model = ...``: (model name, the with, the call)."""
    out = []
    for node in ctx.nodes(ast.With):
        for item in node.items:
            call = item.context_expr
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "init_module"):
                continue
            flag = kwarg(call, "empty_init")
            if not (isinstance(flag, ast.Constant) and flag.value is True):
                continue
            for stmt in node.body:
                if isinstance(stmt, ast.Assign):
                    for target in stmt.targets:
                        if isinstance(target, ast.Name):
                            out.append((target.id, node, call))
    return out


def _fsdp(ctx: FileContext) -> Optional[ast.AST]:
    """Where the file asks Fabric for FSDP: ``FSDPStrategy(...)`` or ``strategy="fsdp..."``."""
    for call, qual in calls(ctx):
        if qual.rsplit(".", 1)[-1] == "FSDPStrategy" and qual.startswith(("lightning", "pytorch_lightning")):
            return call
        strategy = kwarg(call, "strategy")
        if isinstance(strategy, ast.Constant) and isinstance(strategy.value, str) and (
                strategy.value.lower().startswith("fsdp")) and qual.rsplit(".", 1)[-1] == "Fabric":
            return strategy
    return None


def _mentions_params(node: ast.AST, model: str, derived: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in _PARAM_METHODS and isinstance(sub.value, ast.Name) and (
                sub.value.id == model):
            return True
        if isinstance(sub, ast.Name) and sub.id in derived and isinstance(sub.ctx, ast.Load):
            return True
    return False


def _setup_line(ctx: FileContext, model: str, after: int) -> Optional[int]:
    """The first ``X.setup_module(model)`` / ``X.setup(model, ...)`` after line ``after``."""
    lines = [c.lineno for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute)
             and c.func.attr in ("setup_module", "setup") and c.args and isinstance(c.args[0], ast.Name)
             and c.args[0].id == model and c.lineno > after]
    return min(lines) if lines else None


@register
class OptimizerBeforeFabricSetupOfEmptyModule(Rule):
    code = "PF278"
    name = "optimizer-before-fabric-setup-of-empty-module"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("An optimizer is built from a model created under `fabric.init_module(empty_init=True)` "
               "before `fabric.setup_module` materialises it (FSDP): it holds the meta-device placeholders")
    frameworks = ("lightning",)
    needs_text = ("init_module", "empty_init")
    explanation = """
## What it finds

A Lightning Fabric script that asks for FSDP (`FSDPStrategy(...)` or `strategy="fsdp"`),
creates its model under `with fabric.init_module(empty_init=True):`, and builds an optimizer
(a `torch.optim`/bitsandbytes/apex/transformers optimizer class) from that model's
`parameters()`/`named_parameters()` (directly, or through names built from them: parameter
groups) before the first `fabric.setup_module(model)` / `fabric.setup(model, ...)`.

## Why it matters

Under FSDP, `init_module(empty_init=True)` creates the model on the meta device; the real,
sharded parameters only exist after `setup_module` wraps and materialises it. An optimizer
built before holds the placeholder tensors: `optimizer.step()` updates nothing that the model
uses (or fails on meta tensors), and `setup_optimizers` cannot repair references it never had.
Lightning's docs were changed to say so explicitly (Lightning-AI/pytorch-lightning PR 19067:
"If the user would do it before, the optimizer would reference meta-device parameters instead of
the real parameters"); Fabric's FSDP strategy refuses the joint `fabric.setup(model, optimizer)`
for the same reason.

## How to fix it

```python
with fabric.init_module(empty_init=True):
    model = GPT(config)
model = fabric.setup_module(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
optimizer = fabric.setup_optimizers(optimizer)
```

## When preflight stays silent

* The optimizer is built after `setup_module` (from the set-up model).
* `empty_init` is not the literal `True`, or the file does not ask for FSDP (DDP's empty
  init allocates real parameters on the device: an optimizer built first still holds them).
* The optimizer's arguments do not come from the model's parameters in the file.
"""
    bad_examples = examples("preflight.rules.code._pf278_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf278_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        models = _empty_init_models(ctx)
        if not models:
            return
        fsdp = _fsdp(ctx)
        if fsdp is None:
            return
        optimizers = [c for c, q in calls(ctx) if _is_optimizer(q)]
        assigns = list(ctx.nodes(ast.Assign))
        for model, block, init in models:
            end = block.end_lineno or block.lineno
            setup = _setup_line(ctx, model, end)
            if setup is None:
                continue
            derived: set[str] = set()
            for stmt in sorted(assigns, key=lambda a: a.lineno):
                if end < stmt.lineno < setup and _mentions_params(stmt.value, model, derived):
                    derived.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
            for opt in optimizers:
                if end < opt.lineno < setup and _mentions_params(opt, model, derived):
                    yield ctx.finding(
                        self, opt,
                        f"`{ast.unparse(opt.func)}` is built from `{model}`'s parameters, but `{model}` was "
                        f"created under `{ast.unparse(init)}` (line {init.lineno}) and is only set up by Fabric "
                        f"on line {setup}: under FSDP the model is still on the meta device here, so the optimizer "
                        "holds placeholder tensors and never updates the sharded weights the model trains. Call "
                        f"`fabric.setup_module({model})` first and build the optimizer from the set-up model",
                        evidence=[ctx.evidence(init, "the model is created with empty (meta) weights"),
                                  ctx.evidence(fsdp, "the strategy is FSDP")])
