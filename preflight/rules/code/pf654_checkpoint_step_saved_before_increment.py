"""PF654 checkpoint-step-saved-before-increment: a trainer saves ``'step': self.step`` in the iteration whose
update is already applied, before ``self.step += 1``, and its load resumes at ``self.step = data['step']``:
the resumed run repeats that step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Func = ast.FunctionDef


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _saved_counter(fn: _Func) -> Optional[tuple[ast.expr, str, str]]:
    """``{'step': self.step, ...}`` in a method that saves (``torch.save`` / ``accelerator.save``): the
    value node, the key and the attribute."""
    if not any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))
               and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) == "save"
               for n in ast.walk(fn)):
        return None
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                attr = _self_attr(value)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and "step" in key.value.lower() \
                        and attr is not None and "step" in attr.lower():
                    return value, key.value, attr
    return None


def _restores(cls: ast.ClassDef, key: str, attr: str) -> Optional[ast.Assign]:
    """``self.<attr> = data['<key>']`` in a method of the class: the load resumes at the saved value."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _self_attr(node.targets[0]) == attr \
                and isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Constant) \
                and node.value.slice.value == key:
            return node
    return None


def _is_increment(stmt: ast.stmt, attr: str) -> bool:
    return isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and _self_attr(stmt.target) == attr


def _optimizer_step(node: ast.AST, attr: str) -> bool:
    """``self.opt.step()`` / ``optimizer.step()`` / ``accelerator.step(...)``-free update: a ``.step()`` call
    whose owner is not the counter itself."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" \
        and "opt" in ast.unparse(node.func.value).lower() and _self_attr(node.func) != attr


def _calls_method(node: ast.AST, name: str) -> Optional[ast.Call]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _self_attr(sub.func) == name:
            return sub
    return None


@register
class CheckpointStepSavedBeforeIncrement(Rule):
    code = "PF654"
    needs_text = ("+= 1",)
    name = "checkpoint-step-saved-before-increment"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("A checkpoint saved after the optimizer step but before `self.step += 1` records the step already "
               "applied; the load resumes at it and the resumed run repeats that step")
    explanation = """
## What it finds

A class whose save method puts `'step': self.step` in the checkpoint dict it saves,
whose load sets `self.step = data['step']`, and whose training loop, in one iteration,
steps the optimizer, then calls the save method, and only then runs `self.step += 1`.

## Why it matters

The checkpoint holds the weights and optimizer state *after* update number `self.step`
but records `self.step` as the step to run. A resumed run starts its loop at that index:
the update is applied a second time on a new batch, the milestone test (`self.step %
save_every == 0`) holds again at once, so the same milestone is sampled and saved
again, and every later milestone is one step off (RIN trainer, "small bugfix regarding
saving the step": the fix saves `self.step + 1`; held-out-34).

## How to fix it

Save the index of the next step: `'step': self.step + 1`, or increment the counter
before the save (`self.step += 1` then `if self.step % save_every == 0: self.save(...)`,
as denoising-diffusion-pytorch does).

## When preflight stays silent

* The saved value is not the bare counter (`self.step + 1`), or the counter is
  incremented before the save in the iteration.
* The save comes before the optimizer step in the iteration (the checkpoint then holds the
  state before that update, and resuming at `self.step` is right).
* No method of the class restores the counter from the key it was saved under.
"""
    bad_examples = examples("preflight.rules.code._pf654_examples", "PF654_BAD")
    good_examples = examples("preflight.rules.code._pf654_examples", "PF654_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            methods = [fn for fn in cls.body if isinstance(fn, ast.FunctionDef)]
            for save in methods:
                saved = _saved_counter(save)
                if saved is None:
                    continue
                value, key, attr = saved
                restore = _restores(cls, key, attr)
                if restore is None:
                    continue
                for fn in methods:
                    site = self._save_before_increment(fn, save.name, attr)
                    if site is None:
                        continue
                    yield ctx.finding(
                        self, value,
                        f"`'{key}': self.{attr}` is saved after the optimizer step but before `self.{attr} += 1` "
                        f"(the save at line {site.lineno}): the checkpoint records the index of an update already "
                        f"in its weights, and the load (`self.{attr} = ...['{key}']`) resumes at it, so the resumed "
                        f"run applies that step again and re-saves the same milestone. Save `self.{attr} + 1`",
                        evidence=[ctx.evidence(site, "saved here, before the increment"),
                                  ctx.evidence(restore, "the load resumes at the saved value")])
                    break

    @staticmethod
    def _save_before_increment(fn: _Func, save: str, attr: str) -> Optional[ast.Call]:
        for loop in ast.walk(fn):
            if not isinstance(loop, (ast.While, ast.For)):
                continue
            stepped = False
            site: Optional[ast.Call] = None
            for stmt in loop.body:
                if site is not None and _is_increment(stmt, attr):
                    return site
                if _is_increment(stmt, attr):
                    break  # incremented before any save: the saved value is the next step
                if any(_optimizer_step(n, attr) for n in ast.walk(stmt)):
                    stepped = True
                call = _calls_method(stmt, save)
                if call is not None and site is None:
                    if not stepped:
                        break  # saved before the update of this iteration
                    site = call
        return None
