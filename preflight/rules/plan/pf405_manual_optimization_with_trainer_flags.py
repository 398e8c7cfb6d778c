"""PF405 manual-optimization-with-trainer-flags: manual optimization with Trainer accumulation or clipping."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.accumulation import LIGHTNING_TRAINERS
from preflight.analysis.accumulation_manual import manual_optimization
from preflight.analysis.scopes import ClassInfo, scope_index
from preflight.analysis.syntax import unpacked_key_path
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._trainer_blocks import lightning_target, trainer_blocks
from preflight.sources import ParsedPython

_FLAGS = ("accumulate_grad_batches", "gradient_clip_val")


def _active(key: str, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value > 1 if key == "accumulate_grad_batches" else value > 0


@register
class ManualOptimizationWithTrainerFlags(PlanRule):
    code = "PF405"
    name = "manual-optimization-with-trainer-flags"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("lightning",)
    summary = "A manual-optimization LightningModule is trained with `accumulate_grad_batches` or `gradient_clip_val`"
    explanation = """
## What it finds

A `LightningModule` with `self.automatic_optimization = False` and a Lightning
`Trainer` built with `accumulate_grad_batches` > 1 or `gradient_clip_val` > 0:
in the same script, in another script of the audit, in a Hydra/YAML config
whose `_target_` is Lightning's `Trainer`, or in the node of a config file of the run
that the Trainer call spreads (`Trainer(**cfg.trainer)` reads the file's `trainer:` mapping).

## Why it matters

Both flags belong to automatic optimization: under manual optimization
Lightning does not accumulate or clip for you, and its configuration validator
raises `MisconfigurationException` when `fit` starts ("Automatic gradient
accumulation/clipping is not supported for manual optimization"). The job
fails after it was queued and started, not when it was written.

## How to fix it

Remove the flag from the Trainer and do the work in `training_step`: step every
N batches for accumulation, `self.clip_gradients(opt, gradient_clip_val=...)`
before `opt.step()` for clipping.

## When preflight stays silent

* The module uses automatic optimization; the flag is 1 / 0 / None or not known
  statically.
* Several LightningModules, some automatic, and the one passed to
  `trainer.fit(...)` is not a manual one (or preflight cannot tell which one it is).
"""
    bad_examples = examples("preflight.rules.plan._pf405_examples", "PF405_BAD")
    good_examples = examples("preflight.rules.plan._pf405_examples", "PF405_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        manual: list[tuple[ParsedPython, ClassInfo]] = []
        automatic: list[ClassInfo] = []
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            scopes = scope_index(fctx)
            for cls in scopes.classes.values():
                if not cls.is_lightning or cls.method("training_step") is None:
                    continue
                if manual_optimization(fctx, scopes, cls):
                    manual.append((script, cls))
                else:
                    automatic.append(cls)
        if not manual:
            return
        manual_names = {cls.name for _, cls in manual}
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                if site.qualified not in LIGHTNING_TRAINERS:
                    continue
                if automatic and not self._fits_manual(pctx, script, site.target, manual_names):
                    continue
                for key in _FLAGS:
                    expr = site.kwarg(key)
                    if expr is None:
                        continue
                    found = idx.resolve(expr)
                    value = found.value if found is not None else _param_default(script.tree, site.call, expr)
                    if value is None or not _active(key, value):
                        continue
                    evidence = [pctx.code_evidence(s, _switch(c), f"`{c.name}` sets `automatic_optimization = False`")
                                for s, c in manual[:2]]
                    yield pctx.code_finding(self, script, expr, self._message(key, value),
                                            evidence=evidence)
                yield from self._spread_from_config(pctx, script, site, manual)
        if automatic:
            return
        for config in pctx.configs:
            for prefix, block in trainer_blocks(config.data):
                for key in _FLAGS:
                    value = block.get(key)
                    if not _active(key, value):
                        continue
                    evidence = [pctx.code_evidence(s, _switch(c), f"`{c.name}` sets `automatic_optimization = False`")
                                for s, c in manual[:2]]
                    yield pctx.config_finding(self, config, (*prefix, key), self._message(key, value),
                                              evidence=evidence)

    def _spread_from_config(self, pctx: PlanContext, script: ParsedPython, site: Any,
                            manual: list[tuple[ParsedPython, ClassInfo]]) -> Iterable[Finding]:
        """``Trainer(**cfg.trainer)`` / ``Trainer(**cfg["trainer"])``: the flags come from the
        ``trainer`` mapping of a config file of the run (the spread's key path below its root name)."""
        for kw in site.call.keywords:
            if kw.arg is not None:
                continue
            path = _key_path(kw.value)
            if not path:
                continue
            for config in pctx.configs:
                block: Any = config.data
                for part in path:
                    block = block.get(part) if isinstance(block, dict) else None
                if not isinstance(block, dict) or lightning_target(block.get("_target_")):
                    continue  # a `_target_: ...Trainer` node is read below, once
                for key in _FLAGS:
                    value = block.get(key)
                    if not _active(key, value) or any(k.arg == key for k in site.call.keywords):
                        continue
                    evidence = [pctx.code_evidence(s, _switch(c), f"`{c.name}` sets `automatic_optimization = False`")
                                for s, c in manual[:2]]
                    evidence.append(pctx.code_evidence(script, kw.value,
                                                       "the Trainer takes its options from this config node"))
                    yield pctx.config_finding(self, config, (*path, key), self._message(key, value),
                                              evidence=evidence)

    @staticmethod
    def _fits_manual(pctx: PlanContext, script: ParsedPython, trainer: Optional[str],
                     manual: set[str]) -> bool:
        """``trainer.fit(Module(...))`` / ``trainer.fit(model)`` with ``model = Module(...)``."""
        if trainer is None:
            return False
        idx = pctx.index(script)
        for site in idx.calls:
            func = site.call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "fit"
                    and ast.unparse(func.value) == trainer and site.call.args):
                continue
            arg = site.call.args[0]
            if isinstance(arg, ast.Name):
                bound = idx.assigns.get(arg.id, [])
                arg = bound[0] if len(bound) == 1 and bound[0] is not None else arg
            if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in manual:
                return True
        return False

    @staticmethod
    def _message(key: str, value: Any) -> str:
        what = "accumulation" if key == "accumulate_grad_batches" else "clipping"
        return (f"`{key}={value}` with manual optimization: Lightning does no automatic gradient {what} "
                "for a module with `automatic_optimization = False`, and `fit` fails with "
                "MisconfigurationException before the first step. Drop the flag and "
                + ("step every N batches in `training_step`" if what == "accumulation"
                   else "call `self.clip_gradients(...)` before `opt.step()`"))


def _key_path(expr: ast.AST) -> tuple[str, ...]:
    """``cfg.trainer`` -> ("trainer",); ``cfg["pl"]["trainer"]`` -> ("pl", "trainer"); else ()."""
    return unpacked_key_path(expr) or ()


def _switch(cls: ClassInfo) -> ast.AST:
    """Where a class turns automatic optimization off (the class itself when not found)."""
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Assign) and any(ast.unparse(t) == "self.automatic_optimization"
                                                for t in node.targets):
            return node
    return cls.node


def _param_default(tree: ast.AST, call: ast.Call, expr: ast.AST) -> Any:
    """``gradient_clip_val=cfg_clip`` where ``cfg_clip`` is a parameter of the enclosing function with
    a literal default (``def main(loader, cfg_clip=1.0)``) that no call in the file overrides."""
    if not isinstance(expr, ast.Name):
        return None
    line = getattr(call, "lineno", 0)
    fn = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.lineno <= line <= (node.end_lineno or node.lineno) \
                and (fn is None or node.lineno > fn.lineno):
            fn = node  # the innermost
    if fn is None:
        return None
    args = fn.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    default = next((d for a, d in pairs if a.arg == expr.id), None)
    if not isinstance(default, ast.Constant):
        return None
    if any(a.arg == expr.id for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)) and any(
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets)
            for node in ast.walk(fn)):
        return None  # rebound in the function
    index = next((i for i, a in enumerate(positional) if a.arg == expr.id), None)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == fn.name):
            continue
        if any(kw.arg == expr.id or kw.arg is None for kw in node.keywords) or (
                index is not None and len(node.args) > index) or any(
                isinstance(a, ast.Starred) for a in node.args):
            return None  # a caller may pass another value
    return default.value
