"""PF347 layer-built-in-setup-under-ddp-spawn: a LightningModule that creates a layer in ``setup()``
trained with ``strategy="ddp_spawn"``: the main process never runs ``setup()``, so the trained layer
does not come back from the spawned workers."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples

_LAYERS = ("nn.", "torch.nn.")


def _spawn(ctx: FileContext) -> Optional[ast.AST]:
    for call in ctx.nodes(ast.Call):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else \
            call.func.id if isinstance(call.func, ast.Name) else ""
        if name != "Trainer":
            continue
        for key in ("strategy", "accelerator", "distributed_backend"):
            value = kwarg(call, key)
            text = const_str(value)
            if text is not None and text.startswith("ddp_spawn"):
                return value
    return None


def _layer(value: ast.AST, local_modules: set[str]) -> bool:
    if not isinstance(value, ast.Call):
        return False
    func = ast.unparse(value.func)
    return func.startswith(_LAYERS) or func in local_modules


@register
class LayerBuiltInSetupUnderDdpSpawn(Rule):
    code = "PF347"
    needs_text = ("ddp_spawn",)
    name = "layer-built-in-setup-under-ddp-spawn"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningModule creates a layer in `setup()` and trains with `strategy=\"ddp_spawn\"`: the main "
               "process never builds it, so the trained layer does not come back from the workers")
    explanation = """
## What it finds

In one file: a Lightning `Trainer(strategy="ddp_spawn")` (or `accelerator="ddp_spawn"`) and
a LightningModule whose `setup()` assigns a layer to `self` (`self.head = nn.Linear(...)`,
a module class of the file).

## Why it matters

Under `ddp_spawn` the training runs in spawned worker processes; `setup()` runs there,
not in the process that called `fit`. When `fit` ends, Lightning loads the workers'
weights back into the main process's model, which has no such layer: pytorch-lightning
1.8 fails the strict load on the unexpected keys after the whole run (lightning issue
14534), and from 1.9 the load is non-strict and the trained layer is dropped silently
(PR 16365). Whatever uses the model after `fit` (test, export) never sees the layer.

## How to fix it

Create the layer in `__init__` (its size from the constructor's arguments), or use
`strategy="ddp"`, which trains in the calling process as rank 0.

## When preflight stays silent

* The strategy is not a spawn strategy, or the file builds no Trainer.
* `setup()` only assigns data, tensors or non-module values.
"""
    bad_examples = examples("preflight.rules.code._pf347_examples", "PF347_BAD")
    good_examples = examples("preflight.rules.code._pf347_examples", "PF347_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        spawn = _spawn(ctx)
        if spawn is None:
            return
        classes = ctx.nodes(ast.ClassDef)
        local_modules = {c.name for c in classes if any("Module" in ast.unparse(b) for b in c.bases)}
        for cls in classes:
            if not any("LightningModule" in ast.unparse(b) for b in cls.bases):
                continue
            setup = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "setup"), None)
            if setup is None:
                continue
            for node in ast.walk(setup):
                if not (isinstance(node, ast.Assign) and _layer(node.value, local_modules)):
                    continue
                target = next((t for t in node.targets if isinstance(t, ast.Attribute)
                               and isinstance(t.value, ast.Name) and t.value.id == "self"), None)
                if target is None:
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{ast.unparse(target)}` is created in `{cls.name}.setup()`, and the Trainer runs "
                    f"`{ast.unparse(spawn)}`: setup() runs only in the spawned workers, so when fit ends the "
                    "main process's model has no such layer and the workers' weights cannot be loaded back "
                    "(a strict-load error after the whole run on pytorch-lightning 1.8, the layer dropped silently "
                    "from 1.9). Create the layer in `__init__`, or use `strategy=\"ddp\"`",
                    evidence=[ctx.evidence(spawn, "spawned workers")])
                break
