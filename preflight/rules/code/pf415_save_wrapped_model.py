"""PF415 save-wrapped-model: saving the model ``accelerator.prepare`` returned, without unwrapping it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, target_text
from preflight.rules._pf414_support import assigned_names, call_last
from preflight.rules.base import Rule, examples


@register
class SaveWrappedModel(Rule):
    code = "PF415"
    needs_text = ('prepare',)
    name = "save-wrapped-model"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "The model returned by `accelerator.prepare` is saved without `accelerator.unwrap_model`"
    explanation = """
## What it finds

`model.save_pretrained(...)`, or `torch.save(model.state_dict(), ...)` /
`accelerator.save(model.state_dict(), ...)`, where `model` is the object
`accelerator.prepare(...)` returned and was not replaced by
`accelerator.unwrap_model(model)` first.

## Why it matters

Under multi-GPU training `prepare` wraps the model (DDP, FSDP, DeepSpeed, a
compiled module): its `state_dict` keys start with `module.` (or `_orig_mod.`),
so the checkpoint does not load into the plain model ("Unexpected key(s) in
state_dict: module."), and the wrapper has no `save_pretrained` at all.
Under FSDP or ZeRO-3 the parameters are sharded as well: save through
`accelerator.get_state_dict(model)`.

## How to fix it

`unwrapped = accelerator.unwrap_model(model)` and save `unwrapped`
(`unwrapped.save_pretrained(dir, state_dict=accelerator.get_state_dict(model))`
when the model is sharded), or `accelerator.save_model(model, dir)`.

## When preflight stays silent

* The name saved was re-bound by `accelerator.unwrap_model(...)` before the save.
* `save_pretrained` called by every rank in a file that asks for FSDP2 (`fsdp_version=2`):
  `fully_shard` keeps the model's class and transformers' `save_pretrained` gathers the
  sharded weights itself (accelerate's `nd_parallel.py` example).
* The saved object is the prepared optimizer or scheduler (`torch.save(optimizer.state_dict(), ...)`):
  its state has no `module.` prefix.
* The saved object was never returned by `accelerator.prepare` in this file (a helper's
  parameter counts when an in-file call hands it a prepared model).
"""
    bad_examples = examples("preflight.rules.code._pf415_examples", "PF415_BAD")
    good_examples = examples("preflight.rules.code._pf415_examples", "PF415_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepared: dict[str, ast.Call] = {}
        for call in accelerator_calls(ctx, "prepare"):
            for name in assigned_names(ctx, call):
                if "optim" not in name.lower() and "sched" not in name.lower():
                    prepared.setdefault(name, call)  # an optimizer's state has no `module.` prefix
        if not prepared:
            return
        unwrapped: dict[str, int] = {}
        unwrapping = not ctx.call_names().isdisjoint(("unwrap_model", "unwrap", "extract_model_from_parallel"))
        for call in ctx.nodes(ast.Call) if unwrapping else ():  # accelerator.unwrap_model(...) or a local helper
            if call_last(call) in ("unwrap_model", "unwrap", "extract_model_from_parallel"):
                for name in assigned_names(ctx, call):
                    unwrapped.setdefault(name, call.lineno)
        fsdp2 = any(k.arg == "fsdp_version" and isinstance(k.value, ast.Constant) and k.value.value == 2
                    for c in ctx.nodes(ast.Call) for k in c.keywords)
        for call in ctx.nodes(ast.Call):
            saved = self._saved_model(call)
            if saved is None:
                continue
            if fsdp2 and isinstance(call.func, ast.Attribute) and call.func.attr == "save_pretrained" \
                    and not _main_process_only(ctx, call):
                continue  # FSDP2 keeps the model's class; every rank's save_pretrained gathers the shards
            saved_name = target_text(saved)
            if saved_name not in prepared or call.lineno <= prepared[saved_name].lineno:
                passed = self._prepared_argument(ctx, call, saved_name, prepared, unwrapped) \
                    if saved_name is not None else None
                if passed is not None:
                    yield ctx.finding(
                        self, call,
                        f"`{saved_name}` is the wrapped model `accelerator.prepare` returned (passed in at line "
                        f"{passed.lineno}): its checkpoint carries the wrapper's `module.` key prefix (and only this "
                        "rank's shard under FSDP/ZeRO-3), so it will not load into the plain model. Save "
                        f"`accelerator.unwrap_model({saved_name})` (with `state_dict=accelerator.get_state_dict("
                        f"{saved_name})` when sharded)",
                        evidence=[ctx.evidence(passed, f"the prepared model is passed as `{saved_name}` here")])
                continue
            if saved_name in unwrapped and unwrapped[saved_name] < call.lineno:
                continue
            yield ctx.finding(
                self, call,
                f"`{saved_name}` is the wrapped model `accelerator.prepare` returned: its checkpoint carries the "
                "wrapper's `module.` key prefix (and only this rank's shard under FSDP/ZeRO-3), so it will not "
                f"load into the plain model. Save `accelerator.unwrap_model({saved_name})` (with "
                f"`state_dict=accelerator.get_state_dict({saved_name})` when sharded)",
                evidence=[ctx.evidence(prepared[saved_name], f"`{saved_name}` comes from `accelerator.prepare`")])

    @staticmethod
    def _prepared_argument(ctx: FileContext, save: ast.Call, saved_name: str, prepared: dict[str, ast.Call],
                           unwrapped: dict[str, int]) -> Optional[ast.Call]:
        """A save of a parameter of a helper (``def save_model(name, model, accelerator)``) that an
        in-file call hands a prepared model, after ``prepare`` and not unwrapped: that call."""
        fn = ctx.enclosing_function(save)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        if saved_name not in params:
            return None  # not a parameter
        rebound = any(isinstance(t, ast.Name) and t.id == saved_name for n in ast.walk(fn)
                      for t in (n.targets if isinstance(n, ast.Assign) else
                                [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []))
        if saved_name not in params or rebound:
            return None  # not a parameter, or re-bound (``model = accelerator.unwrap_model(model)``)
        index = params.index(saved_name)
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
                continue
            args = {k.arg: k.value for k in call.keywords if k.arg}
            arg = args.get(saved_name) if saved_name in args else (
                call.args[index] if index < len(call.args) else None)
            name = target_text(arg) if arg is not None else ""
            if name in prepared and prepared[name].lineno < call.lineno and not (
                    name in unwrapped and unwrapped[name] < call.lineno):
                return call
        return None

    @staticmethod
    def _saved_model(call: ast.Call) -> Optional[ast.AST]:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "save_pretrained":
            return func.value
        if isinstance(func, ast.Attribute) and func.attr == "save" and call.args:
            first = call.args[0]
            if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) \
                    and first.func.attr == "state_dict" and not first.args:
                return first.func.value
        return None


def _main_process_only(ctx: FileContext, node: ast.AST) -> bool:
    """Under an ``if ...is_main_process...:`` / ``if ...rank == 0:`` body."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.If):
            test = ast.unparse(anc.test)
            if "main_process" in test or "rank" in test:
                return True
    return False
