"""PF524 prepared-scheduler-steps-per-process: a step schedule sized by the launch line's step
count and prepared by Accelerate in a multi-process job, which steps it once per process."""

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


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _top_level_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a module's top-level statements, the bodies of its functions and classes left out."""
    todo: list[ast.AST] = list(getattr(tree, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _per_process_length(ctx: FileContext, total: ast.expr, builder: ast.Call) -> Optional[ast.Call]:
    """The ``len(loader)`` the total is computed from (through the function's assignments before the
    builder), when ``loader`` was rebound by an ``accelerator.prepare(...)`` before that ``len``."""
    fn = ctx.enclosing_function(builder)
    # a script's top-level code is one scope too (accelerate issue 2142); not its functions' bodies
    scope = ast.walk(fn) if fn is not None else _top_level_nodes(ctx.tree)
    assigns = [n for n in scope if isinstance(n, ast.Assign) and len(n.targets) == 1]
    prepared: dict[str, int] = {}
    for a in assigns:
        if isinstance(a.value, ast.Call) and isinstance(a.value.func, ast.Attribute) \
                and a.value.func.attr == "prepare":
            target = a.targets[0]
            for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                if isinstance(t, ast.Name):
                    prepared[t.id] = min(prepared.get(t.id, a.lineno), a.lineno)
    if not prepared:
        return None
    todo: list[tuple[ast.expr, int]] = [(total, builder.lineno)]
    seen: set[str] = set()
    while todo:
        expr, before = todo.pop()
        for node in ast.walk(expr):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                    and node.args and isinstance(node.args[0], ast.Name) \
                    and prepared.get(node.args[0].id, 10 ** 9) < node.lineno:
                return node
            if isinstance(node, ast.Name) and node.id not in seen:
                seen.add(node.id)
                earlier = [a for a in assigns if isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id
                           and a.lineno < before]
                if earlier:
                    last = max(earlier, key=lambda a: a.lineno)
                    if any(w in ast.unparse(last.value) for w in PER_PROCESS_WORDS):
                        return None  # scaled back to whole-dataset steps on the way
                    todo.append((last.value, last.lineno))
    return None


def _loop_bound(ctx: FileContext, total: ast.expr) -> Optional[ast.expr]:
    """Where the same expression as the schedule's total bounds the training loop, counted in the
    loop's own (per-process) steps: ``while global_step < args.max_train_steps``, ``if step >=
    self.config.steps: break`` or ``for step in range(cfg.max_steps)``."""
    text = ast.unparse(total)
    if not isinstance(total, (ast.Attribute, ast.Name)):
        return None
    for assign in ctx.nodes(ast.Assign):
        if any(ast.unparse(t) == text for t in assign.targets):
            return None  # computed in the code (`args.max_train_steps = epochs * len(loader)`): not decided here
    for node in ctx.nodes(ast.Compare):
        if len(node.comparators) != 1 or text not in (ast.unparse(node.left), ast.unparse(node.comparators[0])):
            continue
        parent = ctx.parent(node)
        if isinstance(parent, ast.While) and parent.test is node:
            return node
        if isinstance(parent, ast.If) and parent.test is node and any(isinstance(s, ast.Break) for s in parent.body):
            return node
    for loop in ctx.nodes(ast.For):
        it = loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                and len(it.args) == 1 and ast.unparse(it.args[0]) == text:
            return it
    return None


def _linear_totals(ctx: FileContext) -> list[tuple[ast.Call, ast.expr]]:
    """``LinearLR(optimizer, ..., total_iters=N)``: a step schedule only when N bounds the loop too."""
    out = []
    for call in ctx.nodes(ast.Call):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if name != "LinearLR":
            continue
        total = next((k.value for k in call.keywords if k.arg == "total_iters"), None)
        if total is None and len(call.args) > 3:
            total = call.args[3]
        if total is not None:
            out.append((call, total))
    return out


@register
class PreparedSchedulerStepsPerProcess(PlanRule):
    code = "PF524"
    name = "prepared-scheduler-steps-per-process"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A step schedule sized by the launch line's step count is prepared by Accelerate in a "
               "multi-process job, which steps it once per process")
    explanation = """
## What it finds

`lr_scheduler = get_scheduler(..., num_training_steps=args.max_train_steps)` (or a
`get_*_schedule_with_warmup`) whose total comes from the launch line
(`--max_train_steps 200000`), handed to `accelerator.prepare(...)` in a job the
launch runs on several processes (`--num_processes 2`, `--multi_gpu`), with no
`num_processes`/`world_size` in the total.

## Why it matters

A prepared scheduler steps once per process at every optimizer step
(`AcceleratedScheduler`, unless `split_batches=True`), so the schedule advances
`num_processes` times faster than the run: with 2 processes the learning rate
reaches its end halfway through and warmup is half as long (transformers issue
26827, run_translation_no_trainer; the no_trainer examples now multiply by
`accelerator.num_processes`).

## How to fix it

`num_training_steps=args.max_train_steps * accelerator.num_processes` (and the
same for `num_warmup_steps`), or do not pass the scheduler to `prepare`.

The same when the total is computed in the code from the length of a loader that was
already passed to `accelerator.prepare` (`len(train_dataloader)` after `prepare`: the
batches of one process) and the scheduler is then prepared too (transformers PR 24088; in a
function or in a script's top-level code, accelerate issue 2142), and
for torch's `OneCycleLR(total_steps=...)` and `CosineAnnealingLR(T_max=...)` sized either way
(accelerate issue 2882: a OneCycleLR on 4 GPUs finishes its cycle after a quarter of the run,
then raises "Tried to step ... times").

The same when the total is read from an object preflight cannot resolve (the caller's
`args`, a project config) but the same expression also bounds the training loop
(`while global_step < args.max_train_steps`, `if step >= self.config.steps: break`,
`for step in range(cfg.max_steps)`): every process runs that many optimizer steps, so the
schedule is counted in one process's steps (diffusers issue 3954, the DreamBooth example's
cosine schedule reaching zero after a quarter of the run on 4 GPUs; LTX-Video-Trainer
issue 67, a `LinearLR(total_iters=steps)` ending at 2.5k of 10k steps).
`AcceleratedScheduler.step` calls the wrapped scheduler's `step()` `num_processes` times
per optimizer step unless `split_batches` (accelerate `scheduler.py`).

## When preflight stays silent

* The total of a loop-bounded schedule is assigned in the file (`if args.max_train_steps is
  None: args.max_train_steps = ...`, the no_trainer examples): it may be the whole-dataset count.
* The total is computed in the code from the loader's length before `prepare`
  (`num_processes` times the per-process length), or mentions `num_processes`/`world_size`.
* One process, `Accelerator(split_batches=True)` or `step_scheduler_with_optimizer=False`,
  or the scheduler is not passed to `accelerator.prepare`.
* The job runs under accelerate's DeepSpeed plugin (`--use_deepspeed`, a DeepSpeed config in
  the accelerate config, `DeepSpeedPlugin`): `prepare` hands the scheduler to
  `deepspeed.initialize` and returns a `DeepSpeedSchedulerWrapper` whose `step()` does nothing
  (accelerate `utils/deepspeed.py`); the engine steps the schedule once per optimizer step.
"""
    bad_examples = examples("preflight.rules.plan._pf524_examples", "PF524_BAD")
    good_examples = examples("preflight.rules.plan._pf524_examples", "PF524_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        from preflight.adapters.derive import uses_deepspeed

        if uses_deepspeed(pctx.plan):
            return  # DeepSpeedSchedulerWrapper.step() is a no-op: the engine steps the schedule per optimizer step
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "prepare" not in text or not any(b in text for b in (*BUILDERS, "LinearLR")):
                continue
            ctx = pctx.file_context(script)
            ctors = accelerators(ctx)
            if not ctors or any(k.arg is None or k.arg in ("split_batches", "step_scheduler_with_optimizer",
                                                           "dataloader_config") for c in ctors for k in c.keywords):
                continue
            index = pctx.index(script)
            prepared = self._prepared_names(ctx)
            linear = _linear_totals(ctx)
            for call, total in [*schedule_totals(ctx), *linear]:
                name = self._bound_to(ctx, call)
                if name is None or name not in prepared:
                    continue
                value = index.resolve(total)
                if value is None or value.kind != "cli" or not _int(value.value):
                    bound = _loop_bound(ctx, total)
                    if bound is not None:
                        yield pctx.code_finding(
                            self, script, total,
                            f"`{name}` is sized for `{ast.unparse(total)}` steps, the count that also bounds the "
                            f"training loop (line {bound.lineno}: each process runs that many optimizer steps), and "
                            f"is passed to `accelerator.prepare`, which steps it once per process: with "
                            f"{world.value} processes it advances {world.value} times per optimizer step and ends "
                            f"after 1/{world.value} of the run. Multiply the schedule's steps by "
                            "`accelerator.num_processes`, or do not prepare the scheduler",
                            evidence=[e for e in (pctx.fact_evidence(world, f"{world.value} processes"),)
                                      if e is not None])
                        continue
                    if (call, total) in linear:
                        continue
                    sharded = _per_process_length(ctx, total, call)
                    if sharded is not None:
                        yield pctx.code_finding(
                            self, script, total,
                            f"`{name}` is sized from `{ast.unparse(sharded)}`, the length of a loader already "
                            f"passed to `accelerator.prepare` (line {sharded.lineno}: its batches on one process), "
                            "and is then prepared too, which steps it once per process: with "
                            f"{world.value} processes it advances {world.value} times per optimizer step and ends "
                            f"after 1/{world.value} of the run. Count the steps before `prepare` (the full loader), "
                            "multiply by `accelerator.num_processes`, or do not prepare the scheduler",
                            evidence=[e for e in (pctx.fact_evidence(world, f"{world.value} processes"),)
                                      if e is not None])
                    continue
                yield pctx.code_finding(
                    self, script, total,
                    f"`{name}` is sized for {value.value} optimizer steps (`{value.key} {value.value}` on the launch "
                    f"line) and passed to `accelerator.prepare`, which steps it once per process: with "
                    f"{world.value} processes it advances {world.value} times per optimizer step and ends after "
                    f"1/{world.value} of the run. Multiply the steps by `accelerator.num_processes`",
                    evidence=[e for e in (pctx.fact_evidence(world, f"{world.value} processes"),) if e is not None])

    @staticmethod
    def _bound_to(ctx: FileContext, call: ast.Call) -> Optional[str]:
        parent = ctx.parent(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
                and isinstance(parent.targets[0], (ast.Name, ast.Attribute)):
            return ast.unparse(parent.targets[0])
        return None

    @staticmethod
    def _prepared_names(ctx: FileContext) -> set[str]:
        out: set[str] = set()
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "prepare":
                out.update(ast.unparse(a) for a in call.args if isinstance(a, (ast.Name, ast.Attribute)))
        return out
