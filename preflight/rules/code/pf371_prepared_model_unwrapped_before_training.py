"""PF371 prepared-model-unwrapped-before-training: ``model = accelerator.unwrap_model(model)`` right after
``accelerator.prepare``, before the loop that trains it, so every training step runs the bare module."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.project_imports import imported_function
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_names,
    is_accelerator_receiver,
    prepared_names,
    target_text,
)
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.While, ast.AsyncFor)
_NO_GRAD = ("no_grad", "inference_mode")


def _calls_backward(loop: ast.AST) -> bool:
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
               for c in ast.walk(loop))


def _unwrapped(ctx: FileContext, assign: ast.Assign, accelerators: set[str]) -> list[tuple[str, str]]:
    """(name, how) for each name ``assign`` re-binds to its own bare module: ``x = accelerator.unwrap_model(x)``,
    ``x = x.module``, or ``a, b = helper(a, b)`` with a project helper that returns ``<arg>.module``."""
    if len(assign.targets) != 1:
        return []
    target, value = assign.targets[0], assign.value
    name = target_text(target)
    if isinstance(value, ast.Attribute) and value.attr == "module" and name is not None \
            and target_text(value.value) == name:
        return [(name, f"`{name} = {name}.module`")]
    if not isinstance(value, ast.Call):
        return []
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "unwrap_model" \
            and is_accelerator_receiver(func.value, accelerators):
        if name is not None and len(value.args) == 1 and target_text(value.args[0]) == name:
            return [(name, "`accelerator.unwrap_model`")]
        return []
    names = [target_text(e) for e in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])]
    args = {target_text(a) for a in value.args}
    rebound = [n for n in names if n is not None and n in args]
    if not rebound or not _unwrapping_helper(ctx, value):
        return []
    return [(n, f"`{ast.unparse(func)}` returns `.module`") for n in rebound]


def _unwrapping_helper(ctx: FileContext, call: ast.Call) -> bool:
    """``call`` runs a function of the file or an imported project module whose return value takes
    ``.module`` (a DDP unwrapping helper)."""
    fn: Optional[ast.AST] = None
    if isinstance(call.func, ast.Name):
        fn = next((n for n in ctx.tree.body if isinstance(n, ast.FunctionDef) and n.name == call.func.id), None)
    if fn is None:
        got = imported_function(ctx, call)
        fn = got[1] if got is not None else None
    if fn is None:
        return False
    return any(isinstance(r, ast.Return) and r.value is not None and any(
        isinstance(n, ast.Attribute) and n.attr == "module" for n in ast.walk(r.value)) for r in ast.walk(fn))


@register
class PreparedModelUnwrappedBeforeTraining(Rule):
    code = "PF371"
    needs_text = ("prepare",)
    name = "prepared-model-unwrapped-before-training"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A prepared model re-bound to its bare module (`accelerator.unwrap_model`, `.module`) before the "
               "training loop: every step trains it without the DDP gradient synchronisation")
    explanation = """
## What it finds

In one function, a name bound by `accelerator.prepare(...)` that is re-bound to its bare module
outside any loop: `model = accelerator.unwrap_model(model)`, `model = model.module`, or
`text_encoder, unet = helper(text_encoder, unet)` where `helper` is a function of the file or of
an imported project module that returns `<arg>.module`; followed by a loop that calls
`backward` and runs the model's forward (`model(...)`, not under `torch.no_grad()`), with no
new `accelerator.prepare` of the name in between.

## Why it matters

`unwrap_model` returns the module underneath the `DistributedDataParallel` (or FSDP,
DeepSpeed) wrapper that `prepare` added. Every forward of the training loop then runs the bare
network: DDP's reducer is never armed, the gradients are not averaged, and on more than one
process each replica trains on its own shard and drifts apart, without an error
(kohya-ss/sd-scripts#924, fine_tune.py:247 `text_encoder, unet =
train_util.transform_if_model_is_DDP(text_encoder, unet)` right after `prepare`, fixed by
sd-scripts#989; hkproj/pytorch-transformer-distributed#3; accelerate documents `unwrap_model`
for saving and inference). On one process nothing changes, which is
why the script looks right in a single-GPU test.

## How to fix it

Train the prepared name and bind the bare module to another name where it is needed
(`unwrapped = accelerator.unwrap_model(model)` for `save_pretrained`, custom methods, or
inference). To call a method of the bare module in the training step, route it through
`forward`.

## When preflight stays silent

* The unwrapped module gets a new name, or the re-binding comes after the last training loop
  (the usual save at the end), or the name is prepared again before the loop.
* The re-binding is inside the training loop: PF229 reports that shape.
* The loop only runs the model under `torch.no_grad()`/`torch.inference_mode()` (a frozen
  encoder used for features), or the loop calls no `backward`.
* The name is re-bound once more between the unwrap and the loop (not decided), or the helper
  is a library function (its body is not read).
"""
    bad_examples = examples("preflight.rules.code._pf371_examples", "PF371_BAD")
    good_examples = examples("preflight.rules.code._pf371_examples", "PF371_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepared = prepared_names(ctx)
        if not prepared:
            return
        accelerators = accelerator_names(ctx)
        for assign in ctx.nodes(ast.Assign):
            for name, how in _unwrapped(ctx, assign, accelerators):
                prepare = prepared.get(name)
                if prepare is None or assign.lineno <= prepare.lineno:
                    continue
                fn = ctx.enclosing_function(assign)
                if ctx.enclosing_function(prepare) is not fn or self._in_loop(ctx, assign, fn):
                    continue
                forward = self._trained_after(ctx, assign, fn, name)
                if forward is None:
                    continue
                yield ctx.finding(
                    self, assign,
                    f"`{name}` is unwrapped ({how}) right after `accelerator.prepare` (line {prepare.lineno}) and then "
                    f"trained (`{ast.unparse(forward)[:60]}` in the loop at line {forward.lineno}): every forward runs "
                    "the bare module under the DistributedDataParallel/FSDP wrapper, so on more than one process the "
                    f"gradients are never averaged and the replicas drift apart. Train `{name}` as prepared and bind "
                    f"the bare module to a new name (`unwrapped = accelerator.unwrap_model({name})`) where it is needed",
                    evidence=[ctx.evidence(prepare, f"`{name}` comes from `accelerator.prepare` here"),
                              ctx.evidence(forward, "the training loop's forward of the unwrapped module")])
                break  # one finding per re-binding (``text_encoder, unet = ...``)

    @staticmethod
    def _in_loop(ctx: FileContext, node: ast.AST, fn: Optional[ast.AST]) -> bool:
        for parent in ctx.ancestors(node):
            if parent is fn:
                return False
            if isinstance(parent, _LOOPS):
                return True
        return False

    @staticmethod
    def _trained_after(ctx: FileContext, assign: ast.Assign, fn: Optional[ast.AST], name: str) -> Optional[ast.Call]:
        """The first forward ``name(...)`` after ``assign`` in a loop of ``fn`` that calls ``backward``, not
        under no_grad; None when ``name`` is re-bound or prepared again first."""
        scope = fn if fn is not None else ctx.tree
        later = sorted((n for n in ast.walk(scope) if getattr(n, "lineno", 0) > (assign.end_lineno or assign.lineno)),
                       key=lambda n: (n.lineno, n.col_offset))  # type: ignore[attr-defined]
        for node in later:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(target_text(e) == name for t in targets
                       for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])):
                    return None
            if not isinstance(node, ast.Call):
                continue
            if call_last(node) == "prepare" and any(target_text(a) == name for a in node.args):
                return None
            if target_text(node.func) != name:
                continue
            loop = None
            for parent in ctx.ancestors(node):
                if parent is scope:
                    break
                if isinstance(parent, (ast.With, ast.AsyncWith)) and any(
                        isinstance(i.context_expr, ast.Call) and call_last(i.context_expr) in _NO_GRAD
                        for i in parent.items):
                    loop = None
                    break
                if isinstance(parent, _LOOPS) and _calls_backward(parent):
                    loop = parent
            if loop is not None:
                return node
        return None
