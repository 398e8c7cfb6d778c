"""PF656 hydra-config-fails-job-assert: the composed Hydra config makes an ``assert`` of the job's own
config checks fail, so the run stops at startup."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_function

_MISSING = object()
_COMPARE = {
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
}


def _value(config: Any, path: tuple[str, ...]) -> Any:
    """The composed value at ``path``; ``_MISSING`` when absent, mandatory (``???``) or an interpolation."""
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return _MISSING
        config = config[part]
    if isinstance(config, str) and ("${" in config or config == "???"):
        return _MISSING
    return config


class _Reader:
    """Evaluates a test on the composed config: True, False, or None when it cannot be known."""

    def __init__(self, config: Any, root: str) -> None:
        self.config, self.root = config, root
        self.read: list[tuple[tuple[str, ...], Any]] = []

    def operand(self, node: ast.AST) -> Any:
        path = config_chain(node, self.root)
        if path is not None and len(path) >= 2:
            value = _value(self.config, path)
            if value is not _MISSING:
                self.read.append((path, value))
            return value
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return _MISSING

    def test(self, node: ast.AST) -> Optional[bool]:
        if isinstance(node, ast.BoolOp):
            parts = [self.test(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return False if False in parts else None if None in parts else True
            return True if True in parts else None if None in parts else False
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.test(node.operand)
            return None if inner is None else not inner
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            left, right = self.operand(node.left), self.operand(node.comparators[0])
            compound = isinstance(left, (dict, list)) and not isinstance(node.ops[0], (ast.Is, ast.IsNot))
            if left is _MISSING or right is _MISSING or compound:
                return None
            if config_chain(node.left, self.root) is None and config_chain(node.comparators[0], self.root) is None:
                return None
            try:
                return bool(_COMPARE[type(node.ops[0])](left, right))
            except TypeError:
                return None
        return None


def _checked_functions(project: Any, fn: ast.FunctionDef, root: str) -> Iterator[tuple[Any, ast.AST, str]]:
    """Functions of the job that receive the whole composed config: called from ``fn`` with ``root``."""
    names: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id == root:
                    func = node.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if name:
                        names.setdefault(name, i)
    if not names:
        return
    for script in project.scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.FunctionDef) and node.name in names and node is not fn:
                params = [*node.args.posonlyargs, *node.args.args]
                i = names[node.name]
                if i < len(params):
                    yield script, node, params[i].arg


def _apps(project: Any) -> Iterator[tuple[Any, Any, ast.FunctionDef, str]]:
    """(composition, script, function, config name): the ``@hydra.main`` function and its parameter, or the
    function that binds ``cfg = compose(...)`` and that name."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    for comp in compositions(project):
        if not isinstance(comp, Composed) or comp.app.script is None:
            continue
        script = comp.app.script
        if comp.app.how == "@hydra.main":
            fn = hydra_main_function(script, comp.app.line)
            if fn is not None:
                yield comp, script, fn, fn.args.args[0].arg
            continue
        for node in ast.walk(script.tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            for stmt in ast.walk(node):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id",
                                                                         getattr(stmt.value.func, "attr", "")) == "compose":
                    yield comp, script, node, stmt.targets[0].id
                    break


def _asserts(fn: ast.AST) -> Iterator[tuple[ast.Assert, list[tuple[ast.If, bool]]]]:
    """The function's own ``assert`` statements, each with the ``if`` tests it sits under (and which branch);
    none under a ``try``, a loop or a nested function."""
    def visit(body: list[ast.stmt], guards: list[tuple[ast.If, bool]]) -> Iterator[Any]:
        for stmt in body:
            if isinstance(stmt, ast.Assert):
                yield stmt, guards
            elif isinstance(stmt, ast.If):
                yield from visit(stmt.body, [*guards, (stmt, True)])
                yield from visit(stmt.orelse, [*guards, (stmt, False)])
            elif isinstance(stmt, ast.With):
                yield from visit(stmt.body, guards)

    yield from visit(getattr(fn, "body", []), [])


@register
class HydraConfigFailsJobAssert(PlanRule):
    code = "PF656"
    name = "hydra-config-fails-job-assert"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The composed Hydra config fails an `assert` of the job's own config checks: the run stops with "
               "AssertionError at startup")
    explanation = """
## What it finds

An `assert` in the `@hydra.main` function (or the function that binds `cfg = compose(...)`),
or in a function of the job it hands the whole config to (`cfg = check_config(cfg)`), that
tests config values
(`assert cfg.experiment.max_epochs is None`, `assert cfg.data.num_workers >= 0`,
`assert cfg.model.name in ("vit", "resnet")`) and that the composed config (defaults list,
config groups and the launch line's overrides) makes false. The `if` tests it sits under
are read the same way and must hold (`if cfg.experiment.max_steps is not None:`).

## Why it matters

Projects encode their own invariants as asserts on the config, often because two settings
conflict downstream: NOC (kakaobrain/noc issue 5) asserts that `max_epochs` is null when
`max_steps` is set, because the Lightning Trainer stops at whichever is reached first and
the run is sized in steps. A config edit that breaks one of these checks stops the job
with a bare `AssertionError` after the job was queued and its nodes allocated, with no
word about which setting is wrong.

## How to fix it

Change the config value the assert names (the finding points at it), or the override
on the launch line that set it.

## When preflight stays silent

* A value the assert reads is not in the composed config, is mandatory (`???`) or an
  interpolation, or a test compares something other than config values and literals.
* An `if` around the assert cannot be decided, the assert sits in a loop or a `try`
  (the error may be caught), or the function is not handed the composed config itself.
* The config was not composed (the Hydra app or its config folder was not found).
"""
    bad_examples = examples("preflight.rules.plan._pf656_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf656_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, int]] = set()
        for comp, script, fn, root in _apps(pctx.project):
            for where, func, name in [(script, fn, root), *_checked_functions(pctx.project, fn, root)]:
                for stmt, guards in _asserts(func):
                    reader = _Reader(comp.config, name)
                    if reader.test(stmt.test) is not False or not reader.read:
                        continue
                    if any(_Reader(comp.config, name).test(g.test) is not branch for g, branch in guards):
                        continue
                    key = (where.source.display, stmt.lineno)
                    if key in seen:
                        continue
                    seen.add(key)
                    yield self._finding(pctx, comp, where, stmt, reader.read)

    def _finding(self, pctx: PlanContext, comp: Any, script: Any, stmt: ast.Assert,
                 read: list[tuple[tuple[str, ...], Any]]) -> Finding:
        shown = ", ".join(f"`{'.'.join(p)}` = {v!r}" for p, v in read[:3])
        message = (f"The composed Hydra config fails the job's own check `assert {ast.unparse(stmt.test)[:90]}` "
                   f"({script.source.display}:{stmt.lineno}) with {shown}: the run stops with AssertionError at "
                   f"startup. Change the value in the config (or the override that sets it)")
        path, _value_read = read[0]
        origin = comp.origins.get(path)
        if path in comp.cli:
            evidence = [pctx.code_evidence(script, stmt, "the job's check that fails")]
            return pctx.location_finding(self, script.source.display, stmt.lineno,
                                         message + f" (set on the launch line: `{comp.cli[path]}`)",
                                         evidence=evidence)
        if origin is not None and origin[0] and origin[1]:
            evidence = [Evidence(line=stmt.lineno, path=script.source.display, message="the job's check that fails")]
            return pctx.location_finding(self, origin[0], origin[1], message, evidence=evidence)
        return pctx.code_finding(self, script, stmt, message)
