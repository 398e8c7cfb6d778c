"""``cfg.update({...})`` in a function that builds a DeepSpeed config dict, for
:class:`preflight.adapters.deepspeed_code._Eval`: a decided ``update`` merges the keys of a dict
literal into the dict held in the name; an ``update`` under an undecided branch marks each key it
would set as present but not known, never DeepSpeed's default. Real shapes: microsoft/unilm
@ 6996194 beit3/utils.py ``create_ds_config`` (``if args.zero_stage == 1:
ds_config.update({"zero_optimization": {"stage": args.zero_stage, "reduce_bucket_size": 5e8}})``
inside ``with open(...)``, then ``writer.write(json.dumps(ds_config, indent=2))``), and EVA-CLIP's
``training/distributed.py`` ``create_deepspeed_config`` (baaivision/EVA, copied in
aiLearnWJF/EVA_wjf EVA-CLIP/rei/training/distributed.py and microsoft/LLM2CLIP), the same shape
with stage 1/2/3 branches."""

from __future__ import annotations

import ast
from typing import Any, Optional


def update_target(stmt: ast.AST) -> Optional[tuple[str, ast.Dict]]:
    """``name.update({...})`` as a statement: the name and the dict literal, else None."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    call = stmt.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name)):
        return None
    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Dict):
        return None
    if any(k is None for k in call.args[0].keys):  # {**other}: keys not listed
        return None
    return func.value.id, call.args[0]


def apply_update(ev: Any, stmt: ast.stmt, env: dict[str, Any], options_type: type) -> bool:
    """Merge a decided ``name.update({...})`` into the dict held in ``name``; True when handled."""
    found = update_target(stmt)
    if found is None:
        return False
    name, literal = found
    held = env.get(name)
    if not isinstance(held, dict) or isinstance(held, options_type):
        return False
    value = ev.expr(literal, env)
    if not isinstance(value, dict):
        return False
    held.update(value)
    lines = ev.lines.setdefault(id(held), {})
    for key in value:
        lines[key] = stmt.lineno
    return True


def mark_undecided(ev: Any, stmt: ast.If, env: dict[str, Any], unknown: Any, options_type: type) -> None:
    """Every key an ``update`` under an undecided ``if`` would set: present, not known."""
    for node in ast.walk(stmt):
        found = update_target(node)
        if found is None:
            continue
        name, literal = found
        held = env.get(name)
        if not isinstance(held, dict) or isinstance(held, options_type):
            continue
        for key_node in literal.keys:
            key = ev.expr(key_node, env)
            if isinstance(key, str):
                held[key] = unknown
                ev.lines.setdefault(id(held), {})[key] = getattr(node, "lineno", stmt.lineno)


__all__ = ["apply_update", "mark_undecided", "update_target"]
