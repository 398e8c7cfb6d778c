"""PF598 hydra-job-id-used-as-number: ``HydraConfig.get().job.id`` (a string) used in arithmetic, where
``job.num`` (the integer) was meant."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_ARITH = (ast.Mult, ast.Add, ast.Sub, ast.Mod, ast.FloorDiv, ast.Div, ast.Pow)


def _hydra_config_names(fn: ast.AST) -> set[str]:
    """Names bound to ``HydraConfig.get()`` (``hc = HydraConfig.get()``)."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _is_hydra_config_get(node.value):
            out.add(node.targets[0].id)
    return out


def _is_hydra_config_get(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
        and ast.unparse(node.func.value).split(".")[-1] == "HydraConfig" and not node.args


def _is_job_id(node: ast.AST, holders: set[str]) -> bool:
    """``HydraConfig.get().job.id``, ``hc.job.id``, ``cfg.hydra.job.id`` is not a runtime value (skipped)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "id" and isinstance(node.value, ast.Attribute)
            and node.value.attr == "job"):
        return False
    owner = node.value.value
    return _is_hydra_config_get(owner) or (isinstance(owner, ast.Name) and owner.id in holders)


def _job_id_values(expr: ast.AST, holders: set[str]) -> bool:
    """The expression is the job id itself, or one branch of a conditional is."""
    if _is_job_id(expr, holders):
        return True
    if isinstance(expr, ast.IfExp):
        return _job_id_values(expr.body, holders) or _job_id_values(expr.orelse, holders)
    return False


def _numeric(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def _has_number(node: ast.AST) -> bool:
    return any(_numeric(n) for n in ast.walk(node))


def _has_string(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.JoinedStr,)) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
               for n in ast.walk(node))


def _arith_uses(fn: ast.AST, is_id: Callable[[ast.AST], bool]) -> Iterator[ast.AST]:
    """Job-id operands of arithmetic with numbers: the outermost BinOp chain holding the id holds a
    numeric constant and no string (``seed + job_id * 1000``; not ``"run_" + job_id``)."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(fn):
        if not is_id(node):
            continue
        parent = parents.get(id(node))
        if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, _ARITH)):
            continue
        top: ast.AST = parent
        while isinstance(parents.get(id(top)), ast.BinOp):
            top = parents[id(top)]
        if _has_number(top) and not _has_string(top):
            yield node


@register
class HydraJobIdUsedAsNumber(Rule):
    code = "PF598"
    name = "hydra-job-id-used-as-number"
    severity = Severity.ERROR
    category = Category.CONFIG
    summary = "`HydraConfig.get().job.id` is a string: arithmetic with it repeats or fails; `job.num` is the integer"
    frameworks = ("hydra",)
    needs_text = ("HydraConfig",)
    explanation = """
## What it finds

`HydraConfig.get().job.id` (directly, through a name bound to `HydraConfig.get()`, or a
name bound to it, also as a branch of a conditional: `job_id = hc.job.id if multirun
else 0`) used in arithmetic with a number: `seed + job_id * 1000 + repeat`.

## Why it matters

Hydra's schema declares `job.id` as a string (`JobConf.id: str` in hydra/conf): the basic
launcher assigns the job index (`sweep_config.hydra.job.id = idx`), which the typed field
stores as text, and submitit's launcher the SLURM job id; `"2" * 1000` is a 1,000
character string and `int + str` raises `TypeError` when the seeded sweep starts
(ABSESpy issue 168: "hydra.job.id is a str but used in arithmetic"). `job.num` is the
integer index of the job in the sweep.

## How to fix it

Use `HydraConfig.get().job.num`, or convert: `int(hc.job.id)` (only for launchers whose
ids are numbers).

## When preflight stays silent

* The id is converted (`int(...)`), used in string building (`"run_" + job_id`,
  f-strings), or compared.
* `job.num` is used.
"""
    bad_examples = examples("preflight.rules.code._pf598_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf598_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tree = ctx.tree
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            holders = _hydra_config_names(fn)
            names: set[str] = set()
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                        and _job_id_values(node.value, holders):
                    names.add(node.targets[0].id)
            rebound = {t.id for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign))
                       for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                       if isinstance(t, ast.Name) and t.id in names
                       and not (isinstance(n, ast.Assign) and _job_id_values(n.value, holders))}
            names -= rebound

            def is_id(node: ast.AST, holders: set[str] = holders, names: set[str] = names) -> bool:
                return _is_job_id(node, holders) or (isinstance(node, ast.Name) and node.id in names
                                                      and isinstance(node.ctx, ast.Load))

            seen: set[int] = set()
            for use in _arith_uses(fn, is_id):
                line = getattr(use, "lineno", 0)
                if line in seen:
                    continue
                seen.add(line)
                what = ast.unparse(use)
                yield ctx.finding(self, use, self._message(what))

    @staticmethod
    def _message(what: str) -> str:
        return (f"`{what}` is Hydra's `job.id`, a string (\"0\", \"1\", ... or a SLURM job id), used here in "
                "arithmetic with a number: `'2' * 1000` repeats the string and `int + str` raises TypeError when "
                "the sweep starts. Use `HydraConfig.get().job.num` (the job's integer index), or `int(...)`")


