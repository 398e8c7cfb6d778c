"""PF530 prepare-data-sets-state: ``prepare_data`` assigns an attribute another hook reads; under
more than one process it runs on one process per node only."""

from __future__ import annotations

import ast
from typing import Iterable, Mapping, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_BASES = frozenset({"LightningDataModule", "LightningModule"})


def _lightning_class(cls: ast.ClassDef) -> bool:
    return any(ast.unparse(b).rsplit(".", 1)[-1] in _BASES for b in cls.bases)


def _self_attr(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _assigned(fn: ast.AST) -> dict[str, ast.AST]:
    """``self.<name>`` targets bound in ``fn`` (first binding statement per name), with the value
    bound (``None`` for a ``None`` literal)."""
    out: dict[str, ast.AST] = {}
    for node in ast.walk(fn):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for tgt in targets:
            for sub in ast.walk(tgt):
                name = _self_attr(sub)
                if name is not None and isinstance(sub.ctx, ast.Store):  # type: ignore[attr-defined]
                    out.setdefault(name, node)
    return out


def _reads(fn: ast.AST, name: str) -> Optional[ast.AST]:
    for node in ast.walk(fn):
        if _self_attr(node) == name and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            return node
    return None


def _none_only(init: ast.AST, name: str) -> bool:
    """Every binding of ``self.<name>`` in ``__init__`` is ``None``."""
    values = [n.value for n in ast.walk(init) if isinstance(n, (ast.Assign, ast.AnnAssign))
              and any(_self_attr(t) == name for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    return all(isinstance(v, ast.Constant) and v.value is None for v in values)


def _called_by_class(methods: Mapping[str, ast.AST], prepare: ast.AST) -> bool:
    """``self.prepare_data()`` is called from another method (``__init__``, ``setup``): then every
    process that builds the object runs it."""
    for m in methods.values():
        if m is prepare:
            continue
        for node in ast.walk(m):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "prepare_data" and isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
                return True
    return False


@register
class PrepareDataSetsState(PlanRule):
    code = "PF530"
    name = "prepare-data-sets-state"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("lightning",)
    summary = ("`prepare_data` assigns `self.<attr>` that another hook reads: with more than one process it runs "
               "on one process per node only, the others never get the attribute")
    explanation = """
## What it finds

A `LightningDataModule` (or `LightningModule`) whose `prepare_data` assigns `self.<attr>`
that another method (`setup`, a `*_dataloader`, a step) reads, where no other method binds
it (`__init__` may only set it to `None`), in a job on more than one process (the
Trainer's `devices`/`gpus`/`num_nodes`, or a launcher; unknown counts as more than one).

## Why it matters

Lightning calls `prepare_data` on one process per node (`LOCAL_RANK` 0; on one process
in all with `prepare_data_per_node=False`) and `setup` on every process
(`lightning/pytorch/core/hooks.py`, 2.x: "DO NOT set state to the model (use `setup`
instead) since this is NOT called on every device"). On the other ranks the attribute
does not exist (`AttributeError` in `setup`) or keeps its `__init__` value `None`.
Reported in Lightning-AI/pytorch-lightning#11220 (a GLUE DataModule assigning
`self.raw = load_dataset(...)` in `prepare_data`, failing under `strategy="ddp"`; the
maintainers: "Do not assign instance variables inside of prepare_data").

## How to fix it

Download/cache in `prepare_data` without keeping the result, and load it (from the cache)
into `self.<attr>` in `setup`.

## When preflight stays silent

* The job runs on one process (the plan's world size is 1).
* The class calls `self.prepare_data()` itself (from `__init__` or `setup`): every process
  runs it then.
* The attribute is also bound in `setup` or another hook (or to a value other than `None`
  in `__init__`), or it is never read outside `prepare_data`.
"""
    bad_examples = examples("preflight.rules.plan._pf530_examples", "PF530_BAD")
    good_examples = examples("preflight.rules.plan._pf530_examples", "PF530_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = pctx.plan.resolve("dist.world_size")
        if world is not None and isinstance(world.value, int) and world.value <= 1:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "prepare_data" not in (text or ""):
                continue
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef) or not _lightning_class(cls):
                    continue
                methods = {f.name: f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
                prepare = methods.get("prepare_data")
                if prepare is None or _called_by_class(methods, prepare):
                    continue
                for name, node in _assigned(prepare).items():
                    if any(name in _assigned(m) and (m.name != "__init__" or not _none_only(m, name))
                           for m in methods.values() if m is not prepare):
                        continue
                    read = next(((m, r) for m in methods.values() if m is not prepare
                                 for r in [_reads(m, name)] if r is not None), None)
                    if read is None:
                        continue
                    where = (f" on {world.value} processes" if world is not None and isinstance(world.value, int)
                             else "")
                    message = (f"`prepare_data` assigns `self.{name}`, read in `{read[0].name}` (line "
                               f"{read[1].lineno}){where}: Lightning runs `prepare_data` on one process per node "  # type: ignore[attr-defined]
                               f"only and `setup` on every process, so the other ranks never get `self.{name}` "
                               "(AttributeError or None). Download in `prepare_data`, assign in `setup`")
                    evidence = [pctx.code_evidence(script, read[1], f"`self.{name}` read here on every process")]
                    if world is not None:
                        fact = pctx.fact_evidence(world, "more than one process")
                        if fact is not None:
                            evidence.append(fact)
                    yield pctx.code_finding(self, script, node, message, evidence=evidence)
