"""PF586 zero3-load-into-partitioned-module: ``load_state_dict`` on a submodule of a model built
under ZeRO-3's ``zero.Init``, outside ``GatheredParameters``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._zero3_config_order import creates_config
from preflight.sources import ParsedPython

_NOT_MODEL = ("Tokenizer", "Config", "Processor", "FeatureExtractor", "ImageProcessor")


def _gathered(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.With, ast.AsyncWith)) and any(
                "GatheredParameters" in ast.unparse(item.context_expr) for item in cur.items):
            return True
        if isinstance(cur, (ast.If, ast.IfExp)) and "zero" in ast.unparse(cur.test).lower():
            return True
        cur = parents.get(id(cur))
    return False


def _assigned_attrs(fn: ast.AST) -> set[str]:
    """``self.x`` names a function assigns (``self.x = ...``)."""
    return {ast.unparse(t) for n in ast.walk(fn) if isinstance(n, ast.Assign) for t in n.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}


def _loads_into_self(cdef: ast.ClassDef, method: ast.AST) -> Optional[ast.Call]:
    """The first ``self.<sub>.load_state_dict(...)`` of a method, outside ``GatheredParameters``,
    on a submodule the class's ``__init__`` creates (under ``zero.Init``) and the method does not
    re-create (LLaVA builds its projector in the method itself, after ``zero.Init`` has ended)."""
    init = next((n for n in cdef.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    created, rebuilt = _assigned_attrs(init), _assigned_attrs(method)
    parents = {id(c): n for n in ast.walk(method) for c in ast.iter_child_nodes(n)}
    for node in ast.walk(method):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "load_state_dict" and isinstance(node.func.value, ast.Attribute) \
                and ast.unparse(node.func.value) in created - rebuilt and not _gathered(node, parents):
            return node
    return None


def _class_of(pctx: PlanContext, script: ParsedPython, name: str) -> Optional[tuple[ast.ClassDef, str]]:
    for node in ast.walk(script.tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node, script.source.display
    from preflight.analysis.project_imports import imported_class

    got = imported_class(pctx.file_context(script), name)
    return (got[1], got[2]) if got is not None else None


@register
class Zero3LoadIntoPartitionedModule(PlanRule):
    code = "PF586"
    name = "zero3-load-into-partitioned-module"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "transformers")
    summary = ("`load_state_dict` into a submodule of a model built under ZeRO-3 `zero.Init`, outside "
               "`GatheredParameters`: its parameters are empty placeholders")
    explanation = """
## What it finds

A ZeRO-3 job whose script registers the DeepSpeed config (`TrainingArguments`,
`HfArgumentParser(...).parse_args_into_dataclasses()`, `HfDeepSpeedConfig`) before
`model = Cls.from_pretrained(...)`, and then loads weights into a part of that model with a
plain `load_state_dict`: `model.proj.load_state_dict(sd)` in the script, or a method of
`Cls` the script calls (`model.initialize_modules(args)`, the class in the script or imported
from a module of the project) that runs `self.<sub>.load_state_dict(...)` on a submodule
its `__init__` creates, not inside `with deepspeed.zero.GatheredParameters(...)`.

## Why it matters

With a ZeRO-3 config registered, transformers builds the model inside
`deepspeed.zero.Init`: every parameter is partitioned as its module is created and holds
an empty placeholder of shape `torch.Size([0])` on each rank. `from_pretrained` loads its
own checkpoint through gathered parameters, but a later plain `load_state_dict` into a
submodule compares against the placeholders and fails with "size mismatch ... copying a
param with shape torch.Size([768, 768]) from checkpoint, the shape in current model is
torch.Size([0])" (DeepSpeed issue 5326, training LLaMA-VID with zero3.json), or, with `strict=False` on some paths, loads nothing.

## How to fix it

Gather the parameters for the load and let rank 0 write them:
`with deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=0):
module.load_state_dict(sd)`.

## When preflight stays silent

* The load runs inside `GatheredParameters` (or a branch on ZeRO), or the model is loaded
  before the config is registered (then it is not partitioned yet; PF413 covers that order).
* ZeRO stage 0-2, or a method preflight cannot see.
* The method creates the submodule itself before loading it (LLaVA's
  `initialize_vision_modules` builds `mm_projector` after `from_pretrained`, outside
  `zero.Init`, so it is whole).
"""
    bad_examples = examples("preflight.rules.plan._pf586_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf586_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind == "config" and f.adapter == "deepspeed"), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "from_pretrained" not in text:
                continue
            fctx = pctx.file_context(script)
            creators = [s for s in pctx.index(script).calls if creates_config(s)]
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)):
                    continue
                func = node.value.func
                if not (isinstance(func, ast.Attribute) and func.attr == "from_pretrained"
                        and isinstance(func.value, ast.Name) and func.value.id[:1].isupper()
                        and not func.value.id.endswith(_NOT_MODEL)):
                    continue
                scope = fctx.enclosing_function(node)
                if not any(fctx.enclosing_function(c.call) is scope and c.line < node.lineno for c in creators):
                    continue
                yield from self._loads(pctx, script, scope, node, func.value.id, zero3)

    def _loads(self, pctx: PlanContext, script: ParsedPython, scope: Optional[ast.AST], load: ast.Assign,
               cls_name: str, zero3: object) -> Iterable[Finding]:
        model = load.targets[0].id  # type: ignore[attr-defined]
        body = scope if scope is not None else script.tree
        parents = {id(c): n for n in ast.walk(body) for c in ast.iter_child_nodes(n)}
        found = None
        for node in ast.walk(body):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and getattr(node, "lineno", 0) > load.lineno):
                continue
            owner = node.func.value
            if node.func.attr == "load_state_dict" and isinstance(owner, ast.Attribute) \
                    and ast.unparse(owner).startswith(model + ".") and not _gathered(node, parents):
                message = (f"`{ast.unparse(node.func)}(...)` loads into a part of `{model}`, which "
                           f"`{cls_name}.from_pretrained` built under ZeRO-3's `zero.Init` (the DeepSpeed config "
                           "is registered before it): its parameters are empty placeholders (`torch.Size([0])`), "
                           "so the load fails with a size mismatch or loads nothing. Wrap it in "
                           "`deepspeed.zero.GatheredParameters(list(<module>.parameters()), modifier_rank=0)`")
                yield pctx.code_finding(self, script, node, message, evidence=self._evidence(pctx, zero3))
                return
            if isinstance(owner, ast.Name) and owner.id == model and found is None:
                found = node
        if found is None:
            return
        cls = _class_of(pctx, script, cls_name)
        if cls is None:
            return
        cdef, display = cls
        method = next((n for n in cdef.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and n.name == found.func.attr), None)  # type: ignore[attr-defined]
        if method is None:
            return
        inner = _loads_into_self(cdef, method)
        if inner is None:
            return
        message = (f"`{ast.unparse(found.func)}(...)` runs `{ast.unparse(inner.func)}(...)` ({display}:"
                   f"{inner.lineno}) on `{model}`, which `{cls_name}.from_pretrained` built under ZeRO-3's "
                   "`zero.Init` (the DeepSpeed config is registered before it): the submodule's parameters are "
                   "empty placeholders (`torch.Size([0])`), so the load fails with a size mismatch or loads "
                   "nothing. Wrap the load in `deepspeed.zero.GatheredParameters(list(<module>.parameters()), "
                   "modifier_rank=0)`")
        yield pctx.code_finding(self, script, found, message, evidence=self._evidence(pctx, zero3))

    @staticmethod
    def _evidence(pctx: PlanContext, zero3: object) -> list:
        ev = pctx.fact_evidence(zero3, "ZeRO stage 3")  # type: ignore[arg-type]
        return [ev] if ev is not None else []
