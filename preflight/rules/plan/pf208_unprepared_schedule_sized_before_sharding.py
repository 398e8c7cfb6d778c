"""PF208 unprepared-schedule-sized-before-sharding: a step schedule counted from a loader's length
before ``accelerator.prepare`` shards it, and not prepared itself, in a multi-process job."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import accelerators
from preflight.rules.base import examples
from preflight.rules.plan._schedule_support import (
    BUILDERS,
    PER_PROCESS_WORDS,
    processes,
    schedule_totals,
)


def _prepare_rebinds(fn: ast.AST) -> dict[str, list[int]]:
    """Names rebound from an ``<x>.prepare(...)`` call in ``fn``, with the lines where that happens."""
    out: dict[str, list[int]] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "prepare"):
            continue
        target = node.targets[0]
        for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
            if isinstance(t, ast.Name):
                out.setdefault(t.id, []).append(node.lineno)
    return out


def _prepared_args(tree: ast.AST) -> set[str]:
    """Names (and ``self.x`` texts) handed to any ``.prepare(...)`` call of the file."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "prepare":
            for arg in node.args:
                if isinstance(arg, (ast.Name, ast.Attribute)):
                    out.add(ast.unparse(arg))
                elif isinstance(arg, ast.Starred):
                    out.add("*")  # a spread: anything may be in it
    return out


def _unsharded_length(ctx: FileContext, total: ast.expr, builder: ast.Call) -> Optional[tuple[ast.Call, int]]:
    """The ``len(loader)`` the total is computed from (through the function's assignments before the
    builder), when ``loader`` is rebound by ``accelerator.prepare(...)`` only after that ``len``:
    the length of the whole dataset's batches. With the line of that ``prepare``."""
    fn: Optional[ast.AST] = ctx.enclosing_function(builder)
    if fn is None:
        # a script written at module level (transformers PR 17046's rebuilt no_trainer loop): its
        # top-level statements, without the bodies of the functions and classes it defines
        fn = ast.Module(body=[s for s in getattr(ctx.tree, "body", [])
                              if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))],
                        type_ignores=[])
    rebinds = _prepare_rebinds(fn)
    if not rebinds:
        return None
    assigns = [n for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1]
    todo: list[tuple[ast.expr, int]] = [(total, builder.lineno)]
    seen: set[str] = set()
    while todo:
        expr, before = todo.pop()
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                    and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
                lines = rebinds.get(node.args[0].id, [])
                if lines and all(line > node.lineno for line in lines):
                    return node, min(lines)
            if isinstance(node, ast.Name) and node.id not in seen:
                seen.add(node.id)
                earlier = [a for a in assigns if isinstance(a.targets[0], ast.Name)
                           and a.targets[0].id == node.id and a.lineno < before]
                if earlier:
                    last = max(earlier, key=lambda a: a.lineno)
                    if any(w in ast.unparse(last.value) for w in PER_PROCESS_WORDS):
                        return None  # divided down to one process's steps on the way
                    todo.append((last.value, last.lineno))
    return None


def _stepped(tree: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "step"
               and ast.unparse(n.func.value) == name for n in ast.walk(tree))


@register
class UnpreparedScheduleSizedBeforeSharding(PlanRule):
    code = "PF208"
    name = "unprepared-schedule-sized-before-sharding"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A step schedule is sized from a loader's length before `accelerator.prepare` shards it, and "
               "is not prepared itself: on N processes it covers 1/N of its length")
    explanation = """
## What it finds

In a job the launch runs on several processes (`accelerate launch --multi_gpu --num_processes 4`),
an LR schedule sized in optimizer steps (`get_scheduler(..., num_training_steps=...)`, a
`get_*_schedule_with_warmup`, torch's `OneCycleLR(total_steps=...)`, `CosineAnnealingLR(T_max=...)`)
whose total is computed from `len(train_dataloader)` **before** that loader is rebound by
`accelerator.prepare(...)`, while the scheduler itself is never passed to `prepare`.

## Why it matters

`prepare` shards the loader: each process iterates its own 1/N of the batches
(accelerate `data_loader.py`, `BatchSamplerShard`: "each process gets ... `len(batch_sampler) //
num_processes`"), so the loop runs `len(train_dataloader) / N` optimizer steps per epoch. A
scheduler that is not prepared steps once per optimizer step, so it walks only 1/N of the
schedule it was sized for: a linear decay on 4 processes stops at 75% of the peak learning rate,
a OneCycleLR never anneals. The maintainers' answer in accelerate issue 341 ("Place lr_scheduler
after prepare"): a scheduler not sent to `prepare` must be built after the dataloader is prepared.
(A *prepared* scheduler is stepped `num_processes` times per step by `AcceleratedScheduler`, which
is why counting before `prepare` is right when the scheduler is prepared too; see PF524.)

## How to fix it

Build the scheduler after `prepare`, from the prepared loader's length, or pass the scheduler to
`accelerator.prepare(model, optimizer, train_dataloader, lr_scheduler)`.

## When preflight stays silent

* One process, or the process count is not known from the launch.
* The scheduler is passed to `accelerator.prepare` (anywhere in the file, or through a `*spread`).
* The total is counted after `prepare` (the per-process length), mentions `num_processes` /
  `world_size`, or comes from somewhere other than a loader's `len` (`args.max_train_steps`).
* `Accelerator(split_batches=True)` (the prepared loader keeps its number of batches), or the
  `Accelerator(...)` takes options through `**kwargs`.
* The scheduler is never stepped in the file.
"""
    bad_examples = examples("preflight.rules.plan._pf208_examples", "PF208_BAD")
    good_examples = examples("preflight.rules.plan._pf208_examples", "PF208_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "prepare" not in text or not any(b in text for b in BUILDERS):
                continue
            ctx = pctx.file_context(script)
            ctors = accelerators(ctx)
            if not ctors or any(k.arg is None or k.arg in ("split_batches", "dataloader_config")
                                for c in ctors for k in c.keywords):
                continue
            prepared = _prepared_args(ctx.tree)
            if "*" in prepared:
                continue
            for call, total in schedule_totals(ctx):
                parent = ctx.parent(call)
                if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                        and isinstance(parent.targets[0], (ast.Name, ast.Attribute))):
                    continue
                name = ast.unparse(parent.targets[0])
                if name in prepared or not _stepped(ctx.tree, name):
                    continue
                hit = _unsharded_length(ctx, total, call)
                if hit is None:
                    continue
                length, prepare_line = hit
                n = world.value
                yield pctx.code_finding(
                    self, script, total,
                    f"`{name}` is sized from `{ast.unparse(length)}` (line {length.lineno}), counted before "
                    f"`accelerator.prepare` shards that loader (line {prepare_line}), and `{name}` is not "
                    f"passed to `prepare`: each of the {n} processes runs 1/{n} of those batches and steps the "
                    f"schedule once per optimizer step, so it covers only 1/{n} of its length (a linear decay "
                    f"ends near {100 - 100 // n}% of the peak LR). Build it after `prepare` from the prepared "
                    "loader's length, or pass it to `accelerator.prepare`",
                    evidence=[e for e in (pctx.fact_evidence(world, f"{n} processes"),) if e is not None])
