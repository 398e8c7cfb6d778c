"""PF234 persistent-workers-without-workers: ``DataLoader(persistent_workers=True)`` whose worker
count is 0 in this job (absent, a literal, or a command-line default followed into the class or
function that builds the loader): PyTorch refuses to build the loader."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import examples

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _zero(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == 0


def _param_index(fn: ast.AST, name: str) -> Optional[tuple[int, bool]]:
    """(position among the positional parameters, is a method) of parameter ``name`` of ``fn``."""
    if not isinstance(fn, _FUNCS):
        return None
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if name in params:
        return params.index(name), bool(params) and params[0] in ("self", "cls")
    if name in [a.arg for a in fn.args.kwonlyargs]:
        return -1, False
    return None


def _self_source(cls: ast.ClassDef, attr: str) -> Optional[tuple[ast.AST, str]]:
    """The ``__init__`` and its parameter that ``self.attr`` is set from (``self.a = a``, or a tuple
    assignment ``self.a, self.b = a, b``)."""
    for fn in cls.body:
        if not (isinstance(fn, _FUNCS) and fn.name == "__init__"):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                pairs: list[tuple[ast.AST, ast.AST]] = []
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(target.elts) == len(node.value.elts):
                    pairs = list(zip(target.elts, node.value.elts))
                else:
                    pairs = [(target, node.value)]
                for t, v in pairs:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                            and t.attr == attr and isinstance(v, ast.Name) and _param_index(fn, v.id) is not None:
                        return fn, v.id
    return None


def _argument(call: ast.Call, name: str, position: int, method: bool) -> Optional[ast.expr]:
    found = kwarg(call, name)
    if found is not None:
        return found
    index = position - (1 if method else 0)
    if 0 <= index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


@register
class PersistentWorkersWithoutWorkers(PlanRule):
    code = "PF234"
    name = "persistent-workers-without-workers"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("pytorch",)
    summary = ("`DataLoader(persistent_workers=True)` with `num_workers` 0 in this job: PyTorch raises "
               "\"persistent_workers option needs num_workers > 0\" when the loader is built")
    explanation = """
## What it finds

A `torch.utils.data.DataLoader(..., persistent_workers=True)` whose `num_workers` is 0 for
the job being checked: absent (the default is 0), a literal 0, a value that resolves to 0
(a command-line option whose default is 0 and which the launch line does not set), or a
parameter of the function or class that builds the loader (`self.num_workers` set from an
`__init__` parameter) that a call elsewhere in the project passes such a value.

## Why it matters

`DataLoader.__init__` checks `if persistent_workers and num_workers == 0: raise
ValueError("persistent_workers option needs num_workers > 0")`
(`torch/utils/data/dataloader.py`). The job stops before the first step. It is a classic of
configurable loaders: the worker count comes from a flag whose default (0) is the one used for
local debugging, CPU-only runs, CI and Windows, while `persistent_workers=True` is hard-coded
(mllam/neural-lam issue 234).

## How to fix it

Tie the flag to the worker count: `persistent_workers=num_workers > 0`.

## When preflight stays silent

* `persistent_workers` is not the literal `True` (for example `num_workers > 0`).
* The worker count is positive or cannot be read (a config value, an environment variable, a
  call preflight does not follow).
"""
    bad_examples = examples("preflight.rules.plan._pf234_examples", "PF234_BAD")
    good_examples = examples("preflight.rules.plan._pf234_examples", "PF234_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            ctx = pctx.file_context(script)
            if "persistent_workers" not in script.source.text:
                continue
            for call in ctx.nodes(ast.Call):
                qual = qualify(ctx, call.func)
                if not (qual.startswith("torch.utils.data") and qual.rsplit(".", 1)[-1] == "DataLoader"):
                    continue
                persistent = kwarg(call, "persistent_workers")
                if not (isinstance(persistent, ast.Constant) and persistent.value is True):
                    continue
                if any(kw.arg is None for kw in call.keywords) or len(call.args) >= 6:
                    continue  # `**loader_kwargs` or num_workers passed positionally
                workers = kwarg(call, "num_workers")
                if workers is None:
                    yield pctx.code_finding(
                        self, script, persistent,
                        "`persistent_workers=True` on a DataLoader without `num_workers` (default 0): PyTorch "
                        "raises \"ValueError: persistent_workers option needs num_workers > 0\" when the loader is "
                        "built. Give it workers or pass `persistent_workers=num_workers > 0`")
                    continue
                evidence = self._zero_evidence(pctx, script, ctx, call, workers)
                if evidence is None:
                    continue
                yield pctx.code_finding(
                    self, script, persistent,
                    f"`persistent_workers=True` with `num_workers={ast.unparse(workers)}`, which is 0 in this job: "
                    "PyTorch raises \"ValueError: persistent_workers option needs num_workers > 0\" when the loader "
                    "is built, before the first step. Pass `persistent_workers=<workers> > 0`",
                    evidence=[evidence])

    def _zero_evidence(self, pctx: PlanContext, script: Any, ctx: Any, call: ast.Call,
                       workers: ast.expr) -> Optional[Evidence]:
        found = pctx.index(script).resolve(workers)
        if found is not None:
            if not _zero(found.value):
                return None
            where = f" (`{found.key}` default)" if found.key else ""
            return pctx.code_evidence(script, workers, f"`{ast.unparse(workers)}` is 0{where}")
        # a parameter of the builder, followed to the project's calls of it
        owner: Optional[tuple[str, ast.AST, str]] = None  # (callee name, def, parameter)
        if isinstance(workers, ast.Attribute) and isinstance(workers.value, ast.Name) and workers.value.id == "self":
            cls = ctx.enclosing(call, ast.ClassDef)
            source = _self_source(cls, workers.attr) if cls is not None else None
            if source is not None:
                owner = (cls.name, source[0], source[1])
        elif isinstance(workers, ast.Name):
            fn = ctx.enclosing_function(call)
            if fn is not None and _param_index(fn, workers.id) is not None and fn.name != "__init__":
                owner = (fn.name, fn, workers.id)
        if owner is None:
            return None
        callee, fn, param = owner
        index = _param_index(fn, param)
        if index is None:
            return None
        for other, site in self._calls_of(pctx, callee):
            arg = _argument(site, param, index[0], index[1])
            if arg is None:
                continue
            value = pctx.index(other).resolve(arg)
            if value is not None and _zero(value.value):
                where = f" (`{value.key}` default)" if value.key else ""
                return pctx.code_evidence(other, arg, f"`{ast.unparse(arg)}` is 0{where} here, and becomes "
                                                      f"`{ast.unparse(workers)}`")
        return None

    @staticmethod
    def _calls_of(pctx: PlanContext, name: str) -> Iterator[tuple[Any, ast.Call]]:
        for other in pctx.scripts:
            if name not in other.source.text:
                continue
            for node in pctx.file_context(other).nodes(ast.Call):
                func = node.func
                last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if last == name:
                    yield other, node
