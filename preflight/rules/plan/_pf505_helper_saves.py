"""PF505, the engine handed to a save helper: ``save_hf_format(model, tokenizer, args)`` on rank 0
(DeepSpeed-Chat's ``utils.py``), whose body writes ``model.module.state_dict()`` (or the state dict
of a name bound to the parameter) with ``torch.save``. Under ZeRO-3 that state dict holds this
rank's empty partitions. Split out of :mod:`pf505_zero3_save_without_gather` by concern."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.syntax import own_nodes
from preflight.plan_rules import PlanContext, PlanRule
from preflight.rules.plan._zero3_saves import (
    engine_scripts,
    function_bodies,
    guarded,
    parent_map,
    saved,
)

_GATHERS = ("GatheredParameters", "zero3_consolidated_16bit_state_dict", "save_16bit_model", "zero_to_fp32")


def _resolve(pctx: PlanContext, script: Any, call: ast.Call) -> Optional[tuple[ast.FunctionDef, Optional[str]]]:
    """The ``def`` a call of a plain name runs: a top-level function of the script (display None), else
    one the script imports from a project module, read from that module (its display path)."""
    name = call.func.id  # type: ignore[attr-defined]
    for node in getattr(script.tree, "body", []):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node, None
    from preflight.analysis.project_imports import imported_function

    found = imported_function(pctx.file_context(script), call)
    return (found[1], found[2]) if found is not None else None


def _aliases(fn: ast.FunctionDef, param: str) -> set[str]:
    """``param`` and the names bound to an expression of it alone (``model_to_save = model.module if
    hasattr(model, "module") else model``)."""
    names = {param}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)} - {"hasattr", "getattr"}
            if used and used <= names:
                names.add(node.targets[0].id)
    return names


def _gathers(fn: ast.FunctionDef) -> bool:
    return any(w in ast.unparse(fn) for w in _GATHERS)


def helper_saves(rule: PlanRule, pctx: PlanContext, evidence: list) -> Iterable[Any]:
    from preflight.diagnostics import Evidence

    for script, engines, _ in engine_scripts(pctx, "initialize", "deepspeed"):
        parents = parent_map(script.tree)
        for fn, own in function_bodies(script.tree):
            calls = [n for n in own if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
            for call in calls:
                positions = [i for i, a in enumerate(call.args)
                             if isinstance(a, ast.Name) and ((id(fn), a.id) in engines or (0, a.id) in engines)]
                if not positions or guarded(call, parents, fn):
                    continue
                found = _resolve(pctx, script, call)
                if found is None or _gathers(found[0]):
                    continue
                helper, display = found
                params = [a.arg for a in helper.args.args]
                write = _partitioned_write(helper, [params[i] for i in positions if i < len(params)])
                if write is None or _gathered_later(pctx, script, call, calls):
                    continue
                where = display or script.source.display
                engine = ast.unparse(call.args[positions[0]])
                message = (f"ZeRO stage 3: `{ast.unparse(call)}` hands the engine `{engine}` to "
                           f"`{helper.name}`, which writes `{ast.unparse(write)}` to a file (line {write.lineno} of "
                           f"{where}): under ZeRO-3 that state dict holds this rank's partitions, "
                           "empty placeholders, so the saved weights are empty. Gather first "
                           "(`deepspeed.zero.GatheredParameters` on every rank, `engine.save_16bit_model(dir)` with "
                           "`stage3_gather_16bit_weights_on_model_save`), or convert a checkpoint with "
                           "`zero_to_fp32.py`")
                written = "the module's own state dict, written to a file"
                ev = [*evidence, pctx.code_evidence(script, write, written, same_file=True) if display is None
                      else Evidence(line=write.lineno, column=write.col_offset + 1, message=written, path=display)]
                yield pctx.code_finding(rule, script, call, message, evidence=ev)


def _partitioned_write(helper: ast.FunctionDef, params: list[str]) -> Optional[ast.Call]:
    """The ``X.state_dict()`` (``X`` the parameter, a name bound to it, or its ``.module``) that the helper
    writes to a file outside a ZeRO guard."""
    own = list(own_nodes(helper))
    parents = parent_map(helper)
    for param in params:
        names = _aliases(helper, param)
        for node in own:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "state_dict" and not node.args and not node.keywords):
                continue
            owner = node.func.value
            if isinstance(owner, ast.Attribute) and owner.attr == "module":
                owner = owner.value
            if isinstance(owner, ast.Name) and owner.id in names and not guarded(node, parents, helper) \
                    and saved(own, node):
                return node
    return None


def _gathered_later(pctx: PlanContext, script: Any, call: ast.Call, calls: list[ast.Call]) -> bool:
    """A later call of the same function to a helper that gathers the ZeRO-3 parameters (DeepSpeed-Chat's
    ``save_zero_three_model`` after ``save_hf_format``, overwriting the file with the gathered weights)."""
    for other in calls:
        if (other.lineno, other.col_offset) <= (call.lineno, call.col_offset):
            continue
        found = _resolve(pctx, script, other)
        if found is not None and _gathers(found[0]):
            return True
    return False
