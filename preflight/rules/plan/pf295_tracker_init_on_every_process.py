"""PF295 tracker-init-on-every-process: ``wandb.init(...)`` (or ``accelerator.init_trackers`` on accelerate
before 0.13) reached by every process of a multi-process launch, with no rank guard."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_MAIN_ONLY = (0, 13, 0)  # accelerate PR 642: init_trackers decorated with on_main_process, first in 0.13.0
_RANK_WORDS = ("main_process", "rank", "master", "process_zero", "is_main", "global_zero", "is_first", "primary")
_DISTRIBUTED = ("Accelerator(", "init_process_group", "deepspeed.initialize", "DistributedDataParallel",
                "Trainer(", "PartialState(")


def _rank_test(expr: ast.AST) -> bool:
    text = ast.unparse(expr).lower()
    return any(w in text for w in _RANK_WORDS)


def _rank_names(ctx: FileContext, scope: ast.AST) -> set[str]:
    """Names the module or ``scope`` binds from a rank test (``use_dummy = not master_process``)."""
    out: set[str] = set()
    for root in {id(ctx.tree): ctx.tree, id(scope): scope}.values():
        for node in ast.walk(root):
            if isinstance(node, ast.Assign) and _rank_test(node.value):
                out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def _tests_rank(expr: ast.AST, names: set[str]) -> bool:
    return _rank_test(expr) or any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def _guarded(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` runs on some ranks only: under an ``if``/``IfExp`` that tests the rank (or a name bound from such a
    test), in a function decorated as main-process-only, or after an ``if`` on the rank earlier in the same
    function (an early return)."""
    names = _rank_names(ctx, ctx.enclosing_function(node) or ctx.tree)
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.If, ast.IfExp, ast.While)) and _tests_rank(anc.test, names):
            return True
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _rank_test(d) or "main_process" in ast.unparse(d) for d in anc.decorator_list):
            return True
    scope = ctx.enclosing_function(node) or ctx.tree
    line = getattr(node, "lineno", 0)
    for stmt in ast.walk(scope):
        if isinstance(stmt, ast.If) and stmt.lineno < line and _tests_rank(stmt.test, names) and any(
                isinstance(s, (ast.Return, ast.Raise)) or (isinstance(s, ast.Expr) and "exit" in ast.unparse(s))
                for s in stmt.body):
            return True
    return False


def _callers_guarded(ctx: FileContext, fn: Any) -> bool:
    """Every call of the module-level function ``fn`` in the file is guarded (or there is none to see)."""
    calls = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == fn.name]
    return not calls or all(_guarded(ctx, c) for c in calls)


def _per_rank_on_purpose(call: ast.Call) -> bool:
    """``group=`` (one run per rank, grouped: W&B's documented distributed mode) or a computed ``mode=``."""
    for kw in call.keywords:
        if kw.arg == "group" or kw.arg is None:
            return True
        if kw.arg == "mode" and not (isinstance(kw.value, ast.Constant) and kw.value.value == "online"):
            return True
    return False


def _unguarded(ctx: FileContext, call: ast.Call) -> bool:
    if _guarded(ctx, call):
        return False
    fn = ctx.enclosing_function(call)
    if fn is not None and ctx.parent(fn) is ctx.tree and _callers_guarded(ctx, fn):
        return False
    return fn is None or ctx.parent(fn) is ctx.tree


@register
class TrackerInitOnEveryProcess(PlanRule):
    code = "PF295"
    name = "tracker-init-on-every-process"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = ("`wandb.init(...)` (or `init_trackers` on accelerate < 0.13) runs in every process of a "
               "multi-process launch: one W&B run per rank")
    explanation = """
## What it finds

In a job launched with more than one process (`accelerate launch --num_processes 4`,
`torchrun --nproc_per_node 8`, `deepspeed --num_gpus 2`, ...), a distributed training script
(it builds an `Accelerator`, a process group, a DeepSpeed engine, a DDP model or a Trainer)
that calls:

* `wandb.init(...)` with no rank guard: not under `if accelerator.is_main_process:` /
  `if rank == 0:` (or any test of the rank), not after an early return on such a test, not in
  a function decorated as main-process-only, not in a function whose every call is guarded;
* `accelerator.init_trackers(...)` with no rank guard, on an accelerate release pinned below
  0.13.

## Why it matters

Each process runs the script: an unguarded `wandb.init` creates one W&B run per rank, so one
training shows up as N runs, N-1 of them holding only system metrics, and metrics logged from
every rank are split among them (ManifoldRG/NEKO issue 33). `init_trackers` runs only on the
main process since accelerate 0.13 (PR 642); on 0.12 and earlier it started one run per
process (accelerate issue 644).

## How to fix it

`Accelerator(log_with="wandb")` with `accelerator.init_trackers(...)` and `accelerator.log(...)`
(accelerate >= 0.13), or call `wandb.init` under `if accelerator.is_main_process:` (and log
there only).

## When preflight stays silent

* The launch starts one process, or the world size is not known.
* `wandb.init` passes `group=` (one run per rank, grouped on purpose: W&B's documented
  distributed mode), a computed `mode=` (`"disabled"` off the main rank), or `**kwargs`.
* `init_trackers` on accelerate 0.13 or later, or with no pinned version.
* The call sits in a method, a nested function, or a module function the file never calls by
  name (`fire.Fire(main)`, an entry point): who calls it is not seen.
* The guard goes through a name bound from a rank test (`use_dummy_wandb = not master_process`,
  then `DummyWandb() if use_dummy_wandb else wandb.init(...)`, as nanochat does).
"""
    bad_examples = examples("preflight.rules.plan._pf295_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf295_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = pctx.plan.resolve("dist.world_size")
        if world is None or not isinstance(world.value, int) or world.value <= 1:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or ("wandb" not in text and "init_trackers" not in text) or \
                    not any(d in text for d in _DISTRIBUTED):
                continue
            ctx = pctx.file_context(script)
            for call in ctx.nodes(ast.Call):
                finding = self._judge(pctx, script, ctx, call, world)
                if finding is not None:
                    yield finding

    def _judge(self, pctx: PlanContext, script: Any, ctx: FileContext, call: ast.Call,
               world: Any) -> Optional[Finding]:
        func = call.func
        text = ast.unparse(func)
        evidence = [e for e in (pctx.fact_evidence(world, f"{world.value} processes"),) if e is not None]
        if text == "wandb.init":
            if _per_rank_on_purpose(call) or not _unguarded(ctx, call):
                return None
            return pctx.code_finding(
                self, script, call,
                f"`wandb.init(...)` runs in every one of the {world.value} processes, with no rank guard: each rank "
                f"creates its own W&B run, so one training shows up as {world.value} runs ({world.value - 1} of them "
                "empty apart from system metrics). Call it under `if accelerator.is_main_process:` (or rank 0), or "
                "use `Accelerator(log_with=\"wandb\")` with `init_trackers`", evidence=evidence)
        if isinstance(func, ast.Attribute) and func.attr == "init_trackers" and \
                "accelerator" in ast.unparse(func.value).lower():
            version = pctx.version("accelerate", script)
            if version is None or version.how != "pinned" or version.at_least(*_MAIN_ONLY):
                return None
            if not _unguarded(ctx, call):
                return None
            return pctx.code_finding(
                self, script, call,
                f"`init_trackers(...)` runs in every one of the {world.value} processes on {version.describe()}: "
                "before 0.13 it was not limited to the main process, so each rank starts its own tracker run. Call "
                "it under `if accelerator.is_main_process:`, or upgrade accelerate to 0.13 or later",
                evidence=evidence)
        return None
