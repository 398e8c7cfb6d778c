"""PF651 resume-restarts-step-counter: the optimizer (or accelerate) state is restored, then the step
counter of the training loop is set back to 0 and nothing restores it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Func = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _restore_call(node: ast.AST) -> Optional[ast.Call]:
    """``accelerator.load_state(...)``, or ``load_state_dict`` on an optimizer / scheduler: what a resume
    restores (a model's ``load_state_dict`` alone may be loading pretrained weights)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    owner = ast.unparse(node.func.value).lower()
    if node.func.attr == "load_state" and "accelerator" in owner:
        return node
    if node.func.attr == "load_state_dict" and ("opt" in owner.rsplit(".", 1)[-1]
                                                or "sched" in owner.rsplit(".", 1)[-1]):
        return node
    return None


def _restores(fn: ast.AST) -> Optional[ast.Call]:
    for node in ast.walk(fn):
        found = _restore_call(node)
        if found is not None:
            return found
    return None


def _counter_read_from_checkpoint(fn: ast.AST) -> bool:
    """A value read with a key that names a step or an epoch (``ckpt["train_steps"]``,
    ``meta.get("global_step")``, ``int(path.split("-")[1])`` after ``"checkpoint-"``): the resume restores
    some counter, preflight does not guess which."""
    for node in ast.walk(fn):
        key: Optional[ast.AST] = None
        if isinstance(node, ast.Subscript):
            key = node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "get", "pop", "split") and node.args:
            key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and (
                "step" in key.value.lower() or "epoch" in key.value.lower() or key.value == "-"):
            return True
    return False


@register
class ResumeRestartsStepCounter(Rule):
    code = "PF651"
    needs_text = ("load_state",)
    name = "resume-restarts-step-counter"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("The training state is restored from a checkpoint, then the loop's step counter is set back to 0: "
               "a resumed run trains its whole budget again")
    explanation = """
## What it finds

In one function, `accelerator.load_state(...)` or an optimizer's / scheduler's
`load_state_dict(...)` (directly, or through a function or method of the same file
that it calls), and **after** it, at the top level of the function, a step counter
set to `0` (`global_step = 0`, `train_steps = 0`) that a loop then increments
(`global_step += 1`), with no other assignment to the counter and no value read from
the checkpoint under a key naming a step or an epoch.

## Why it matters

The weights, the optimizer moments and the LR schedule continue from the checkpoint,
but the loop's bookkeeping starts over: the whole `--max_train_steps` / `--epochs`
budget is trained again on top of what was already trained, the restored scheduler
runs past the end of its schedule, a `DistributedSampler` replays the epochs already
seen, and checkpoints are numbered (and pruned) from step 0 again (SiT issue on resuming
train.py; musubi-tuner PR 110 and kohya-ss/musubi-tuner issue 776; held-out-34).

## How to fix it

Save the counters with the state (`{"train_steps": train_steps, "epoch": epoch}` in the
checkpoint, or a metadata file beside `accelerator.save_state`) and start from them
after loading: `train_steps = ckpt["train_steps"]`, `for epoch in range(start_epoch, ...)`.

## When preflight stays silent

* The counter is set to 0 **before** the restore (the usual `global_step = 0` followed by
  `if args.resume: ...; global_step = int(path.split("-")[1])`), or is assigned anything
  else anywhere in the function.
* The function reads a checkpoint value under a key naming a step or an epoch.
* Only a model's `load_state_dict` is called (loading pretrained or initial weights).
* The counter is zeroed inside an `if` or a loop (a per-epoch counter).
* A loop skips the batches already trained (`if global_step < continue_from_global_step:
  ... continue`, the fast-forward of the old `run_glue.py`).
* The epoch loop starts from something other than 0 (`range(self.start_epoch, ...)`): the
  resume restores the epoch and the counter is then at most a logging index.
"""
    bad_examples = examples("preflight.rules.code._pf651_examples", "PF651_BAD")
    good_examples = examples("preflight.rules.code._pf651_examples", "PF651_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        funcs = [f for f in ctx.nodes(ast.FunctionDef)] + [f for f in ctx.nodes(ast.AsyncFunctionDef)]
        by_name: dict[str, list[_Func]] = {}
        for f in funcs:
            by_name.setdefault(f.name, []).append(f)
        for fn in funcs:
            yield from self._check(ctx, fn, by_name)

    def _restore_in(self, fn: _Func, by_name: dict[str, list[_Func]]) -> Optional[tuple[ast.AST, ast.Call]]:
        """The first statement-level restore of ``fn`` (its own call or a call of a local function that
        restores), with the restoring call."""
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            direct = _restore_call(node)
            if direct is not None:
                return node, direct
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id == "self" else func.id if isinstance(func, ast.Name) else None
            targets = by_name.get(name or "", [])
            if len(targets) == 1 and targets[0] is not fn:
                inner = _restores(targets[0])
                if inner is not None and not _counter_read_from_checkpoint(targets[0]):
                    return node, inner
        return None

    def _check(self, ctx: FileContext, fn: _Func, by_name: dict[str, list[_Func]]) -> Iterable[Finding]:
        found = self._restore_in(fn, by_name)
        if found is None or _counter_read_from_checkpoint(fn):
            return
        call, restore = found
        after: int = getattr(call, "lineno", 0)
        for stmt in fn.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Constant) and stmt.value.value == 0
                    and not isinstance(stmt.value.value, bool)):
                continue
            name = stmt.targets[0].id
            if "step" not in name.lower() or stmt.lineno <= (getattr(call, "end_lineno", None) or after):
                continue
            if not self._counts_in_loop(fn, name) or self._assigned_elsewhere(fn, name, stmt) \
                    or self._fast_forwards(fn, name) or self._epoch_resumed(fn):
                continue
            yield ctx.finding(
                self, stmt,
                f"`{name} = 0` comes after the training state is restored (`{ast.unparse(restore.func)}(...)`): "
                "a resumed run continues the weights, optimizer and schedule but counts its steps from 0 again, "
                "so it trains the whole budget once more and numbers its checkpoints from 0. Save the step "
                f"(and epoch) with the state and set `{name}` from it after loading",
                evidence=[ctx.evidence(call, "the state is restored here")])

    @staticmethod
    def _fast_forwards(fn: _Func, name: str) -> bool:
        """``if global_step < continue_from_global_step: ...; continue`` in a loop: the counter restarts
        at 0 on purpose and the loop skips the batches already trained (pandallm, the old run_glue.py)."""
        for node in ast.walk(fn):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and any(
                    isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.test)) and any(
                    isinstance(n, ast.Continue) for n in ast.walk(node)):
                return True
        return False

    @staticmethod
    def _epoch_resumed(fn: _Func) -> bool:
        """A loop ``for epoch in range(start, ...)`` whose start is not a literal 0 (nor a name bound only
        to 0 in the function): the resume restores the epoch, and the step counter is then at most a
        logging index (taesunwhang/UMS-ResSel train.py)."""
        zeros: dict[str, bool] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        is_zero = isinstance(node.value, ast.Constant) and node.value.value == 0
                        zeros[t.id] = zeros.get(t.id, True) and is_zero
        for node in ast.walk(fn):
            if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.iter, ast.Call) \
                    and isinstance(node.iter.func, ast.Name) and node.iter.func.id == "range" and len(node.iter.args) >= 2:
                start = node.iter.args[0]
                if isinstance(start, ast.Constant) and start.value == 0:
                    continue
                if isinstance(start, ast.Name) and zeros.get(start.id, False):
                    continue
                return True
        return False

    @staticmethod
    def _counts_in_loop(fn: _Func, name: str) -> bool:
        for loop in ast.walk(fn):
            if isinstance(loop, _LOOPS):
                for node in ast.walk(loop):
                    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) \
                            and node.target.id == name and isinstance(node.op, ast.Add):
                        return True
        return False

    @staticmethod
    def _assigned_elsewhere(fn: _Func, name: str, zero: ast.Assign) -> bool:
        for node in ast.walk(fn):
            if node is zero:
                continue
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for sub in ast.walk(t):
                        if isinstance(sub, ast.Name) and sub.id == name:
                            return True
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                for sub in ast.walk(node.target):
                    if isinstance(sub, ast.Name) and sub.id == name:
                        return True
            elif isinstance(node, ast.Global) and name in node.names:
                return True
        return False
