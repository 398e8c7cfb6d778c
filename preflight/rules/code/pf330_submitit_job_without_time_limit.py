"""PF330 submitit-job-without-time-limit: a submitit ``AutoExecutor``/``SlurmExecutor`` submits jobs while
none of its ``update_parameters`` calls sets a time limit; submitit then asks SLURM for 5 minutes."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import Rule, examples

_EXECUTORS = frozenset({"submitit.AutoExecutor", "submitit.SlurmExecutor", "submitit.auto.auto.AutoExecutor",
                        "submitit.slurm.slurm.SlurmExecutor", "submitit.auto.AutoExecutor",
                        "submitit.slurm.SlurmExecutor"})
_SUBMITS = frozenset({"submit", "map_array", "submit_array"})
# a submitted callable that trains, by its name, or a file that trains itself
_TRAINS_NAME = re.compile(r"train|fit|finetun|pretrain|learn", re.IGNORECASE)
_TRAINS_TEXT = re.compile(r"\.backward\(|optimizer\.step\(|Trainer\(|\.fit\(")


def _const(node: Optional[ast.AST]) -> object:
    return node.value if isinstance(node, ast.Constant) else None


@register
class SubmititJobWithoutTimeLimit(Rule):
    code = "PF330"
    name = "submitit-job-without-time-limit"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("submitit",)
    summary = ("A submitit executor submits jobs but no `update_parameters` call sets `timeout_min`: "
               "SLURM gets submitit's default limit of 5 minutes and kills the job")
    explanation = """
## What it finds

`ex = submitit.AutoExecutor(...)` (or `submitit.SlurmExecutor(...)`) bound in a function or at module
level, whose jobs are submitted there (`ex.submit`, `ex.map_array`), while no `ex.update_parameters(...)`
call in that scope gives a time limit (`timeout_min`, `slurm_time`, `time`, or any keyword naming a
time), and none passes `**kwargs` or positional values preflight cannot read.

## Why it matters

submitit's SLURM executor writes `#SBATCH --time` from the `time` parameter, whose default is 5
minutes (`submitit/slurm/slurm.py`: `timeout_min = self.parameters.get("time", 5)`, `_make_sbatch_string(...,
time: int = 5, ...)`; the local executor's default is shorter still). A training job submitted without
`timeout_min` is killed by SLURM about 5 minutes after it starts, long before its epochs are done, and
a timed-out job is requeued only up to `max_num_timeout` times, each from the same 5-minute limit
(facebookincubator/submitit issue "default timeout_min is set to 5"; the held-out case's Hydra app
submitting 90-epoch ResNet-50 jobs on 8 GPUs).

## How to fix it

`ex.update_parameters(..., timeout_min=cfg.slurm.timeout_min)` (minutes; `slurm_time="3-00:00:00"` also
works on SLURM).

## When preflight stays silent

* Some `update_parameters` call on the executor sets a time keyword, or passes `**params` / a
  positional value (a config node preflight does not read).
* The executor leaves the scope (returned, passed to another function, stored on an object) before or
  without submitting there; or it is `AutoExecutor(cluster="debug")` (runs in-process).
* Nothing is submitted through it in that scope, or what it submits does not look like training
  (the callable's name says nothing of train/fit/finetune/pretrain/learn and the file has no
  `backward`, `optimizer.step`, `Trainer(` or `.fit(`): a short utility job may need no more
  than 5 minutes (submitit's own addition example, its 2-minute `torch_distributed.py` demo).
"""
    bad_examples = examples("preflight.rules.code._pf330_examples", "PF330_BAD")
    good_examples = examples("preflight.rules.code._pf330_examples", "PF330_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for assign in ctx.nodes(ast.Assign):
            if not (len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name)
                    and isinstance(assign.value, ast.Call) and qualify(ctx, assign.value.func) in _EXECUTORS):
                continue
            if _const(kwarg(assign.value, "cluster")) == "debug":
                continue
            name = assign.targets[0].id
            scope = ctx.enclosing_function(assign) or ctx.tree
            finding = self._check_executor(ctx, assign, name, scope)
            if finding is not None:
                yield finding

    def _check_executor(self, ctx: FileContext, assign: ast.Assign, name: str,
                        scope: ast.AST) -> Optional[Finding]:
        updates: list[ast.Call] = []
        submits: list[ast.Call] = []
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and node is not assign and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return None  # rebound: not followed
            if isinstance(node, (ast.Return, ast.Yield)) and node.value is not None and any(
                    isinstance(n, ast.Name) and n.id == name for n in (
                        node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value])):
                return None  # handed to the caller, which may set the limit
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) for t in node.targets) and \
                    isinstance(node.value, ast.Name) and node.value.id == name:
                return None  # stored on an object
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name:
                if func.attr == "update_parameters":
                    updates.append(node)
                elif func.attr in _SUBMITS:
                    submits.append(node)
                continue
            if any(isinstance(a, ast.Name) and a.id == name for a in [*node.args, *(k.value for k in node.keywords)]):
                return None  # passed to another function, which may set the limit
        if not submits:
            return None
        job = submits[0].args[0] if submits[0].args else None
        job_name = ast.unparse(job) if job is not None else ""
        if not (_TRAINS_NAME.search(job_name) or _TRAINS_TEXT.search(ctx.parsed.text if ctx.parsed.text is not None else ctx.parsed.source.text)):
            return None  # a short utility job (an addition, a probe): 5 minutes may be what it needs
        for call in updates:
            if call.args or any(k.arg is None or "time" in k.arg for k in call.keywords):
                return None
        where: ast.AST = updates[0] if updates else assign
        set_keys = sorted({k.arg for c in updates for k in c.keywords if k.arg})
        given = f" (it sets {', '.join(set_keys[:6])})" if set_keys else ""
        return ctx.finding(
            self, where,
            f"no `{name}.update_parameters(...)` call sets a time limit{given}, so submitit asks SLURM for its "
            f"default of 5 minutes: the job submitted at line {submits[0].lineno} is killed about 5 minutes after "
            f"it starts. Pass `timeout_min=` (minutes) to `{name}.update_parameters`",
            evidence=[ctx.evidence(submits[0], "the job is submitted here")])
