"""PF138 structured-config-tuple-field: a dataclass stored as a Hydra structured config declares a bare
``tuple`` field, which the pinned OmegaConf 2.1 rejects ("Unexpected object type: tuple")."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.syntax import keyword, last_attr
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version, released_between
from preflight.sources import ParsedPython


def _stored_names(pctx: PlanContext) -> set[str]:
    """Classes given as ``node=`` (or the ``node`` argument) to a ``ConfigStore.store(...)`` or to
    ``OmegaConf.structured(...)`` in any script of the job."""
    names: set[str] = set()
    for script in pctx.scripts:
        for call in ast.walk(script.tree):
            if not isinstance(call, ast.Call) or last_attr(call.func) not in ("store", "structured"):
                continue
            node = keyword(call, "node") if last_attr(call.func) == "store" else (call.args[0] if call.args else None)
            name = last_attr(node) if node is not None else None
            if name:
                names.add(name)
    return names


def _pinned_21(pctx: PlanContext, script: ParsedPython) -> Optional[str]:
    found = pinned_version(pctx, "omegaconf", script)
    if found is not None:
        return found.describe() if released_between(found, (2, 1), (2, 2)) else None
    hydra = pinned_version(pctx, "hydra-core", script)
    if hydra is not None and released_between(hydra, (1, 1), (1, 2)):
        return f"{hydra.describe()}, which requires omegaconf 2.1"
    return None


@register
class StructuredConfigTupleField(PlanRule):
    code = "PF138"
    name = "structured-config-tuple-field"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A dataclass stored as a Hydra/OmegaConf structured config declares a bare `tuple` field: the pinned "
               "OmegaConf 2.1 raises ValidationError (\"Unexpected object type: tuple\") when it is stored")
    explanation = """
## What it finds

A `@dataclass` given to `ConfigStore.store(node=...)` or `OmegaConf.structured(...)` in the job
that declares a field annotated with the bare `tuple` type (`betas: tuple = (0.9, 0.999)`),
in a project that pins an OmegaConf 2.1 release (`omegaconf==2.1.x`, or `hydra-core==1.1.x`,
which requires it).

## Why it matters

OmegaConf 2.1 builds a node for every field from its annotation; a bare `tuple` is neither a
primitive type, a `List[...]` nor a `Tuple[...]` annotation (its `is_tuple_annotation` looks
for `__origin__ is tuple`, which the bare class lacks), so building the config raises
`ValidationError: Unexpected object type: tuple ... full_key: betas object_type=AdamConfig`
at the `cs.store(...)` call, before training starts (SeanNaren/deepspeech.pytorch#683: the
reporter could only run again by downgrading hydra-core).

## How to fix it

Declare the field as a list: `betas: List[float] = field(default_factory=lambda: [0.9, 0.999])`
(instantiate with `_convert_="all"` where a plain list is needed).

## When preflight stays silent

* The annotation is `List[...]`, `Tuple[...]` (parameterised) or anything else.
* The class is not stored as a structured config in the job.
* The project does not pin an OmegaConf 2.1 release (a lower bound, another release or no pin).
"""
    bad_examples = examples("preflight.rules.plan._pf138_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf138_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        stored = _stored_names(pctx)
        if not stored:
            return
        for script in pctx.scripts:
            for cls in ast.walk(script.tree):
                if not (isinstance(cls, ast.ClassDef) and cls.name in stored
                        and any(last_attr(d.func if isinstance(d, ast.Call) else d) == "dataclass"
                                for d in cls.decorator_list)):
                    continue
                for stmt in cls.body:
                    if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                            and isinstance(stmt.annotation, ast.Name) and stmt.annotation.id in ("tuple", "Tuple")):
                        continue
                    pinned = _pinned_21(pctx, script)
                    if pinned is None:
                        return
                    yield pctx.code_finding(self, script, stmt, (
                        f"`{stmt.target.id}: {stmt.annotation.id}` in the structured config `{cls.name}`, with the "
                        f"project pinning {pinned}: OmegaConf 2.1 does not support a bare tuple annotation and "
                        "raises ValidationError (\"Unexpected object type: tuple\") when the config is stored, "
                        f"before training starts. Declare `{stmt.target.id}: List[float] = "
                        "field(default_factory=lambda: [...])`"))
