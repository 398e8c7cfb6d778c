"""PF143 torch-scheduler-around-zero-optimizer: a torch LR scheduler built on the optimizer
``deepspeed.initialize`` returned, while the DeepSpeed config enables ZeRO."""

from __future__ import annotations

import ast
import textwrap
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg
from preflight.rules.base import examples


def _zero_stage(block: dict[str, Any]) -> Optional[int]:
    """The ZeRO stage a block enables (``"zero_optimization": true`` is the early releases' stage 1)."""
    zero = block.get("zero_optimization")
    if zero is True:
        return 1
    stage = zero.get("stage") if isinstance(zero, dict) else None
    return stage if isinstance(stage, int) and not isinstance(stage, bool) and stage >= 1 else None


def _engine_optimizers(tree: ast.AST) -> dict[str, ast.Assign]:
    """``engine, optimizer, ... = deepspeed.initialize(...)``: the optimizer's name -> the assignment."""
    out: dict[str, ast.Assign] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1):
            continue
        func = ast.unparse(node.value.func)
        target = node.targets[0]
        if func.endswith("deepspeed.initialize") and isinstance(target, ast.Tuple) and len(target.elts) >= 2 \
                and isinstance(target.elts[1], ast.Name):
            out[target.elts[1].id] = node
    return out


def _rebound(tree: ast.AST, name: str, binding: ast.Assign, call: ast.Call) -> bool:
    """``name`` assigned again between the ``initialize`` and the scheduler (another branch's client optimizer)."""
    return any(isinstance(n, ast.Assign) and n is not binding and binding.lineno < n.lineno <= call.lineno
               and any(isinstance(t, ast.Name) and t.id == name for t in n.targets) for n in ast.walk(tree))


def _torch_scheduler(qual: str, call: ast.Call) -> bool:
    """A torch LR scheduler (or a transformers ``get_*schedule*`` helper, which builds a LambdaLR); not
    DeepSpeed's own schedules, which accept its optimizers."""
    last = qual.rsplit(".", 1)[-1] if qual else ast.unparse(call.func).rsplit(".", 1)[-1]
    if qual.startswith("deepspeed"):
        return False
    if qual.startswith("torch.optim.lr_scheduler"):
        return True
    if qual.startswith("transformers") and last.startswith("get_") and "schedule" in last:
        return True
    return last[:1].isupper() and (last.endswith("Scheduler") or last.endswith("LR"))


@register
class TorchSchedulerAroundZeroOptimizer(PlanRule):
    code = "PF143"
    name = "torch-scheduler-around-zero-optimizer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("A torch LR scheduler is built on the optimizer `deepspeed.initialize` returned while ZeRO is "
               "enabled: that object is DeepSpeed's ZeRO optimizer, not a torch Optimizer, and the scheduler raises")
    explanation = textwrap.dedent("""
    ## What it finds

    `model, optimizer, _, _ = deepspeed.initialize(...)` followed by a torch LR scheduler built on that
    `optimizer` (a `torch.optim.lr_scheduler` class, a transformers `get_*_schedule*` helper, or a
    project class named `...Scheduler`/`...LR`), in a job whose DeepSpeed config enables ZeRO
    (`zero_optimization.stage` 1 or more, or the early releases' `"zero_optimization": true`).

    ## Why it matters

    With ZeRO, `deepspeed.initialize` returns its ZeRO optimizer (a `DeepSpeedOptimizer`, which wraps the
    client optimizer but is not a `torch.optim.Optimizer`). A torch scheduler checks its argument:
    `LRScheduler.__init__` raises `TypeError: DeepSpeedZeroOptimizer is not an Optimizer` before the first
    step (DeepSpeed issue 122, BERT SQuAD fine-tuning with NVIDIA's `LinearWarmUpScheduler`).

    ## How to fix it

    Build the schedule on the client optimizer and pass it to DeepSpeed
    (`deepspeed.initialize(..., optimizer=optimizer, lr_scheduler=scheduler)`), or use a `scheduler`
    block in the DeepSpeed config.

    ## When preflight stays silent

    * No DeepSpeed config of the job enables ZeRO (fp16/bf16 without ZeRO is not charged here).
    * The scheduler is built on another optimizer (the client one, before `initialize`, or a name
      bound again after it, as in a branch without DeepSpeed), or is DeepSpeed's own
      (`deepspeed.runtime.lr_schedules`).
    """)
    bad_examples = examples("preflight.rules.plan._pf143_examples", "PF143_BAD")
    good_examples = examples("preflight.rules.plan._pf143_examples", "PF143_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero = [(cfg, stage) for cfg, block, _ in pctx.deepspeed_configs()
                for stage in (_zero_stage(block),) if stage is not None]
        if not zero:
            return
        cfg, stage = zero[0]
        for script in pctx.scripts:
            if "initialize" not in script.source.text:
                continue
            engines = _engine_optimizers(script.tree)
            if not engines:
                continue
            ctx = pctx.file_context(script)
            for call, qual in calls(ctx):
                arg = kwarg(call, "optimizer") or (call.args[0] if call.args else None)
                if not (isinstance(arg, ast.Name) and arg.id in engines) or not _torch_scheduler(qual, call):
                    continue
                binding = engines[arg.id]
                if call.lineno <= binding.lineno or _rebound(script.tree, arg.id, binding, call):
                    continue
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call.func)}` is built on `{arg.id}`, the optimizer `deepspeed.initialize` "
                    f"returned; with ZeRO stage {stage} enabled ({cfg.path}) that is DeepSpeed's ZeRO optimizer, "
                    "not a `torch.optim.Optimizer`, so the scheduler raises \"... is not an Optimizer\" before "
                    "training starts. Build the schedule on the client optimizer and pass it as "
                    "`deepspeed.initialize(..., lr_scheduler=...)`, or use a `scheduler` block in the config",
                    evidence=[pctx.code_evidence(script, binding, "the ZeRO optimizer is returned here")])
