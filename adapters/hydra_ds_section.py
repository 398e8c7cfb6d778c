"""A DeepSpeed config written as a section of a Hydra config and handed to the engine by the
script: ``deepspeed.initialize(model=model, config=ds_config)`` where ``ds_config =
OmegaConf.to_container(cfg.ds_cfg, resolve=True)`` (dandelionsllm/pandallm
trainer_base_ds_mul.py:156-173 @ 4a47ecd4, with ``ds_cfg:`` in
conf/llama/zh/llama_7b_zh_instruct_v1_0_ds.yaml:139-183: ``train_micro_batch_size_per_gpu:
${per_gpu_train_batch_size}``, ``bf16.enabled: ${fp16}``, ``zero_optimization.stage: 1``).

The section is read like a DeepSpeed JSON by the deepspeed adapter (one module owns DeepSpeed
semantics), its ``${...}`` interpolations resolved in the composed config; a value that cannot be
resolved statically is present but unknown (never read as absent). The call is traced through
simple assignments and ``OmegaConf.to_container``/``to_object``/``dict(...)`` to an attribute or
item path of a parameter of the enclosing function (the composed config). Nothing is imported or
executed.

A config one of whose sections is handed to ``deepspeed.initialize`` by the script itself is the
config of a hand-written DeepSpeed loop: its top-level keys (``fp16: True``,
``gradient_accumulation_steps``) are the project's own, not TrainingArguments; :func:`handed_ds_section`
lets the Hydra adapter tell."""

from __future__ import annotations

import ast
import re
from typing import Any, Callable, Optional

from preflight.loaders import LoadedConfig

_CONVERT = ("to_container", "to_object", "dict", "deepcopy", "copy")
_FLOAT = re.compile(r"^[-+]?(?:\d[\d_]*)(?:\.\d*)?[eE][-+]?\d+$")
_RUNTIME = "<set at run time>"
_MAX_DEPTH = 6


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _enclosing(tree: ast.AST, line: int) -> Optional[ast.FunctionDef | ast.AsyncFunctionDef]:
    best: Optional[ast.FunctionDef | ast.AsyncFunctionDef] = None
    for fn in _functions(tree):
        end = getattr(fn, "end_lineno", None) or fn.lineno
        if fn.lineno <= line <= end and (best is None or fn.lineno > best.lineno):
            best = fn
    return best


def _params(fn: Optional[ast.AST]) -> set[str]:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    a = fn.args
    return {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}


def _last_assign(scope: ast.AST, name: str, before: int) -> Optional[ast.Assign]:
    found: Optional[ast.Assign] = None
    for n in ast.walk(scope):
        if isinstance(n, ast.Assign) and n.lineno < before and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name \
                and (found is None or n.lineno > found.lineno):
            found = n
    return found


def _path(expr: ast.AST, scope: ast.AST, line: int, params: set[str], depth: int = 0) -> Optional[tuple[str, ...]]:
    """The key path (below the config) that ``expr`` reads, or None."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, ast.Call) and expr.args:
        callee = expr.func.attr if isinstance(expr.func, ast.Attribute) else \
            expr.func.id if isinstance(expr.func, ast.Name) else ""
        if callee in _CONVERT:
            return _path(expr.args[0], scope, line, params, depth + 1)
        if callee == "get" and isinstance(expr.func, ast.Attribute) and isinstance(expr.args[0], ast.Constant) \
                and isinstance(expr.args[0].value, str):
            base = _path(expr.func.value, scope, line, params, depth + 1)
            return None if base is None else (*base, expr.args[0].value)
        return None
    if isinstance(expr, ast.Attribute):
        base = _path(expr.value, scope, line, params, depth + 1)
        return None if base is None else (*base, expr.attr)
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        base = _path(expr.value, scope, line, params, depth + 1)
        return None if base is None else (*base, expr.slice.value)
    if isinstance(expr, ast.Name):
        assign = _last_assign(scope, expr.id, line)
        if assign is not None:
            return _path(assign.value, scope, assign.lineno, params, depth + 1)
        return () if expr.id in params else None
    return None


def handed_ds_section(tree: Optional[ast.AST], cfg: Any) -> Optional[tuple[tuple[str, ...], int]]:
    """(key path, line of the call) of the section of the composed config ``cfg`` that the script
    hands to ``deepspeed.initialize(config=...)``/``config_params=``; only a section that is a dict
    holding a DeepSpeed key (``zero_optimization``, ``train_micro_batch_size_per_gpu``, ...)."""
    from preflight.adapters.deepspeed import _STRONG_KEYS

    if tree is None or not isinstance(cfg, dict):
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "initialize" and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("deepspeed", "ds")):
            continue
        arg = next((k.value for k in node.keywords if k.arg in ("config", "config_params")), None)
        if arg is None:
            continue
        fn = _enclosing(tree, node.lineno)
        path = _path(arg, fn if fn is not None else tree, node.lineno, _params(fn))
        if not path:
            continue
        section: Any = cfg
        for part in path:
            section = section.get(part) if isinstance(section, dict) else None
        if isinstance(section, dict) and any(k in section for k in _STRONG_KEYS):
            return path, node.lineno
    return None


def _resolved(value_at: Callable[[tuple], Any], raw: Any, path: tuple[str, ...]) -> Any:
    from preflight.adapters.hydra_compose import Unknown

    if isinstance(raw, dict):
        return {k: _resolved(value_at, v, (*path, str(k))) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_RUNTIME if isinstance(v, (dict, list)) else v for v in raw]
    value = value_at(path)
    if isinstance(value, Unknown):
        return _RUNTIME  # present but not known: no DeepSpeed default applies
    if isinstance(value, str) and _FLOAT.match(value.strip()):
        return float(value.replace("_", ""))  # OmegaConf reads 5e8 as a float
    return value


def _set_keys(stmt: ast.AST, name: str) -> list[tuple[str, ast.AST]]:
    """(key, value expression) pairs that ``stmt`` writes into the dict held in ``name``:
    ``name.update({"k": v, ...})`` or ``name["k"] = v``; empty for any other statement."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name) \
                and func.value.id == name:
            pairs: list[tuple[str, ast.AST]] = []
            if len(call.args) == 1 and isinstance(call.args[0], ast.Dict):
                for k, v in zip(call.args[0].keys, call.args[0].values):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str):
                        pairs.append((k.value, v))
            pairs.extend((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)
            return pairs
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name \
                and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
            return [(target.slice.value, stmt.value)]
    return []


def script_sets(tree: Optional[ast.AST], line: int) -> list[tuple[str, ast.AST, int, bool]]:
    """The top-level keys the script writes into the converted section between its conversion and
    ``deepspeed.initialize(config=name)`` at ``line`` (cs336-a1 ``_train_model.py:53-58``:
    ``ds_config = OmegaConf.to_container(config.deepspeed, resolve=True)`` then
    ``ds_config.update({"train_batch_size": global_bsz, "train_micro_batch_size_per_gpu": local_bsz,
    "gradient_accumulation_steps": 1})``): (key, value expression, line, decided). A write under an
    ``if``/``for``/``with``/``try`` of the function is not decided: the key is present, its value unknown."""
    if tree is None:
        return []
    call = next((n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n, "lineno", 0) == line
                 and isinstance(n.func, ast.Attribute) and n.func.attr == "initialize"), None)
    if call is None:
        return []
    arg = next((k.value for k in call.keywords if k.arg in ("config", "config_params")), None)
    if not isinstance(arg, ast.Name):
        return []
    fn = _enclosing(tree, line)
    scope: ast.AST = fn if fn is not None else tree
    assign = _last_assign(scope, arg.id, line)
    if assign is None:
        return []
    body = getattr(scope, "body", [])
    found: list[tuple[str, ast.AST, int, bool]] = []
    for stmt in body:
        if stmt.lineno <= assign.lineno or stmt.lineno >= line:
            continue
        for key, value in _set_keys(stmt, arg.id):
            found.append((key, value, stmt.lineno, True))
        if not isinstance(stmt, (ast.Expr, ast.Assign)):
            for node in ast.walk(stmt):
                for key, value in _set_keys(node, arg.id):
                    found.append((key, value, getattr(node, "lineno", stmt.lineno), False))
    return found


def _script_value(facts: Any, expr: ast.AST, scope: ast.AST, line: int, params: set[str]) -> Any:
    """A value the script writes: a constant, or a value of the composed config reached through
    simple assignments (``global_bsz = config.training.batch_size``); else present but unknown."""
    from preflight.adapters.hydra_compose import Unknown

    if isinstance(expr, ast.Constant) and isinstance(expr.value, (bool, int, float, str)):
        return expr.value
    path = _path(expr, scope, line, params)
    if path:
        value = facts.value(path)
        if value is not None and not isinstance(value, (Unknown, dict, list)):
            return value
    return _RUNTIME


def read_section(facts: Any, handed: tuple[tuple[str, ...], int]) -> None:
    """Read the handed section as a DeepSpeed config; ``facts`` is the Hydra adapter's pass
    (its composed config, value resolver, project, plan and adapter)."""
    from preflight.adapters.deepspeed import DeepSpeedAdapter, _ConfigPass

    path, line = handed
    raw: Any = facts.cfg
    for part in path:
        raw = raw.get(part) if isinstance(raw, dict) else None
    if not isinstance(raw, dict):
        return
    block = _resolved(facts.value, raw, path)
    app = facts.composed.app
    tree = app.script.tree if app.script is not None else None
    where = f"{app.script.source.display}:{line}" if app.script is not None else "the script"
    written: set[str] = set()
    fn = _enclosing(tree, line) if tree is not None else None
    scope: Optional[ast.AST] = fn if fn is not None else tree
    for key, expr, at, decided in script_sets(tree, line):
        value = _script_value(facts, expr, scope, at, _params(fn)) if decided and scope is not None else _RUNTIME
        block[key] = value
        written.add(key)
        shown = "not known statically" if value == _RUNTIME else repr(value)
        script = app.script.source.display if app.script is not None else "the script"
        facts.adapter.note(facts.plan, f"{script}:{at}: the script sets {key} of the DeepSpeed config "
                                       f"before deepspeed.initialize: {shown}"
                                       + ("" if decided else " (under a branch or loop)"))
    origins = facts.composed.origins
    home = origins.get(path) or next((o for p, o in origins.items() if p[:len(path)] == path), None)
    if home is None:
        return
    file = home[0]
    lines = {p: o[1] for p, o in origins.items() if p[:len(path)] == path and o[0] == file and o[1] is not None
             and not (len(p) > len(path) and p[len(path)] in written)}  # a key the script sets has no YAML line
    data: Any = block
    for part in reversed(path):
        data = {part: data}
    loaded = LoadedConfig(path=str(file), kind="yaml", data=data, lines=lines)
    facts.adapter.note(facts.plan, f"{where}: deepspeed.initialize(config=cfg.{'.'.join(path)}): the DeepSpeed config "
                                   f"is the Hydra section {'.'.join(path)} ({file}), read with its interpolations "
                                   "resolved")
    _ConfigPass(DeepSpeedAdapter(), facts.project, facts.plan, loaded, path, block).run()
