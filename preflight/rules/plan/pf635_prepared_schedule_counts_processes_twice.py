"""PF635 prepared-schedule-counts-processes-twice: a prepared LR schedule sized as ``num_processes`` times a
count taken from the loader's length before ``accelerator.prepare`` shards it."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import BUILDERS, PER_PROCESS_WORDS, processes


def _is_processes(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return any(w in text for w in PER_PROCESS_WORDS)


def _scaled_part(total: ast.expr) -> Optional[ast.expr]:
    """``count`` of ``count * accelerator.num_processes`` (either order); None for any other shape."""
    if isinstance(total, ast.BinOp) and isinstance(total.op, ast.Mult):
        if _is_processes(total.right) and not _is_processes(total.left):
            return total.left
        if _is_processes(total.left) and not _is_processes(total.right):
            return total.right
    return None


def _prepare_lines(scope: ast.AST) -> dict[str, list[int]]:
    """Names rebound by an ``x.prepare(...)`` call in ``scope``, with those lines; and the names prepared."""
    out: dict[str, list[int]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "prepare":
            target = node.targets[0]
            for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                if isinstance(t, (ast.Name, ast.Attribute)):
                    out.setdefault(ast.unparse(t), []).append(node.lineno)
    return out


def _unsharded_len(scope: ast.AST, count: ast.expr, before: int,
                   rebinds: dict[str, list[int]]) -> Optional[ast.Call]:
    """The ``len(loader)`` ``count`` is computed from (through the scope's assignments before line
    ``before``, names and ``args.x`` attributes), taken before ``prepare`` rebinds ``loader``; None when
    the way there divides by a process count or the loader's length is read after ``prepare``."""
    assigns = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], (ast.Name, ast.Attribute))]
    todo: list[tuple[ast.expr, int]] = [(count, before)]
    seen: set[str] = set()
    found: Optional[ast.Call] = None
    while todo:
        expr, at = todo.pop()
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                    and len(node.args) == 1 and isinstance(node.args[0], (ast.Name, ast.Attribute)):
                lines = rebinds.get(ast.unparse(node.args[0]), [])
                if not lines:
                    continue  # not a loader that is prepared
                if any(line < node.lineno for line in lines):
                    return None  # its per-process length
                found = node
            if isinstance(node, (ast.Name, ast.Attribute)):
                text = ast.unparse(node)
                if text in seen:
                    continue
                seen.add(text)
                earlier = [a for a in assigns if ast.unparse(a.targets[0]) == text and a.lineno < at]
                for a in earlier:
                    if _is_processes(a.value):
                        return None  # divided down to one process's share on the way
                    todo.append((a.value, a.lineno))
    return found


@register
class PreparedScheduleCountsProcessesTwice(PlanRule):
    code = "PF635"
    name = "prepared-schedule-counts-processes-twice"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A prepared LR schedule is sized `steps * accelerator.num_processes` with `steps` counted from the "
               "loader's length before `prepare` shards it: the processes are counted twice")
    explanation = """
## What it finds

In a job the launch runs on several processes (`accelerate launch --multi_gpu --num_processes 8`),
`lr_scheduler = get_scheduler(..., num_training_steps=max_train_steps * accelerator.num_processes)`
(or a `get_*_schedule_with_warmup`, `OneCycleLR(total_steps=...)`, `CosineAnnealingLR(T_max=...)`)
passed to `accelerator.prepare(...)`, where `max_train_steps` is computed from
`len(train_dataloader)` **before** that loader is rebound by `prepare`, with no division by the
number of processes on the way (the diffusers `train_text_to_image.py` shape:
`num_update_steps_per_epoch = math.ceil(len(train_dataloader) / accumulation)`,
`args.max_train_steps = args.num_train_epochs * num_update_steps_per_epoch`).

## Why it matters

A prepared scheduler is stepped `num_processes` times per optimizer step (`AcceleratedScheduler`),
which is why the examples multiply the per-process step count by `num_processes`. But the length of
the loader before `prepare` counts the batches of the **whole** dataset, already `num_processes`
times the steps each process runs. Multiplying it again makes the schedule `num_processes` times
longer than the run: on 8 GPUs a cosine schedule covers only its first eighth and the learning rate
stays near its peak for the whole training (diffusers issue 8236, fixed by dividing the loader
length by `num_processes` before `prepare`).

## How to fix it

Divide the loader length by `accelerator.num_processes` before `prepare`
(`len_after_sharding = math.ceil(len(train_dataloader) / accelerator.num_processes)`), or
recompute the step count from the prepared loader, then multiply by `num_processes`.

## When preflight stays silent

* One process, or the process count is not known from the launch.
* The count is given on the launch line (`--max_train_steps 200000`, so the
  `if args.max_train_steps is None:` branch that counts the loader is not taken): a per-process
  count, rightly multiplied.
* The count is taken from the loader after `prepare` (the per-process length), or divided by a
  process count / world size on the way, or comes from a value not computed in the file.
* The scheduler is not passed to `prepare` (PF208 covers the unprepared schedule sized before sharding).
* `Accelerator(split_batches=True)` or an `Accelerator(**kwargs)`.
"""
    bad_examples = examples("preflight.rules.plan._pf635_examples", "PF635_BAD")
    good_examples = examples("preflight.rules.plan._pf635_examples", "PF635_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "num_processes" not in text or "prepare" not in text:
                continue
            yield from self._script(pctx, script, world)

    def _script(self, pctx: PlanContext, script: Any, world: Any) -> Iterable[Finding]:
        ctx = pctx.file_context(script)
        ctors = accelerators(ctx)
        if not ctors or any(k.arg is None or k.arg in ("split_batches", "dataloader_config")
                            for c in ctors for k in c.keywords):
            return
        index = pctx.index(script)
        for call in ctx.nodes(ast.Call):
            found = BUILDERS.get(call_last(call))
            if found is None:
                continue
            key, pos = found
            total = kwarg(call, key)
            if total is None and len(call.args) > pos:
                total = call.args[pos]
            if total is None:
                continue
            count = _scaled_part(total)
            parent = ctx.parent(call)
            if count is None or not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                                     and isinstance(parent.targets[0], (ast.Name, ast.Attribute))):
                continue
            fn = ctx.enclosing_function(call)
            scope: ast.AST = fn if fn is not None else ast.Module(
                body=[s for s in getattr(ctx.tree, "body", [])
                      if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))],
                type_ignores=[])
            rebinds = _prepare_lines(scope)
            name = ast.unparse(parent.targets[0])
            if name not in rebinds or min(rebinds[name]) < call.lineno:
                continue
            given = index.resolve(count)
            if given is not None and given.kind == "cli":
                continue  # the launch line gives the count: the loader-counting branch is not taken
            length = _unsharded_len(scope, count, call.lineno, rebinds)
            if length is None:
                continue
            loader = ast.unparse(length.args[0])
            n = world.value
            yield pctx.code_finding(
                self, script, total,
                f"`{name}` is prepared, so it steps once per process at every optimizer step, and its length "
                f"`{ast.unparse(total)}` multiplies by the process count a step count taken from "
                f"`{ast.unparse(length)}` (line {length.lineno}) before `accelerator.prepare` shards `{loader}` "
                f"(line {min(rebinds[loader])}): that length already counts every process's batches, so the "
                f"schedule is {n} times longer than the run on {n} processes and covers only its first 1/{n}. "
                "Divide the loader length by `accelerator.num_processes` before `prepare` (or count after it)",
                evidence=[e for e in (pctx.fact_evidence(world, f"{n} processes"),) if e is not None])
