"""A DeepSpeed JSON the script reads itself and hands to ``deepspeed.initialize``.

ChatGLM-Finetuning's ``train.py`` (and many scripts like it)::

    with open(args.ds_file, "r", encoding="utf-8") as fh:
        ds_config = json.load(fh)
    ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
    ds_config["optimizer"]["params"]["lr"] = args.learning_rate
    model, optimizer, _, _ = deepspeed.initialize(model=model, args=args, config=ds_config)

with ``--ds_file ds_zero3_offload.json`` on the launch line. The path is evaluated like the other
option-built paths (:mod:`preflight.adapters.deepspeed_code`: the launch line's value, else the
option's declared default), the file is read (found beside the script or under the project root),
and the assignments into the dict between the load and the call are applied: a known value
replaces the file's, an unknown one (``torch.distributed.get_world_size()``) becomes "set at run
time" so that no file value (a ``"auto"``, a batch size the script overrides) is read as what runs.
Nothing is executed.
"""

from __future__ import annotations

import ast
import copy
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project
from preflight.loaders import LoadedConfig
from preflight.local_trees import nodes_of
from preflight.plan import TrainingPlan
from preflight.sources import ParsedPython


def _is_json_load(node: ast.AST) -> Optional[ast.AST]:
    """The argument of ``json.load(x)``, or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "json" and len(node.args) == 1:
        return node.args[0]
    return None


def _open_path(node: ast.AST) -> Optional[ast.AST]:
    """The path argument of ``open(path, ...)``, or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open" and node.args:
        return node.args[0]
    return None


def _opened_path(stmts: list[ast.stmt], assign: ast.Assign) -> Optional[ast.AST]:
    """The path a ``json.load`` reads: ``json.load(open(path))``, or ``json.load(fh)`` inside
    ``with open(path) as fh:``."""
    arg = _is_json_load(assign.value)
    if arg is None:
        return None
    direct = _open_path(arg)
    if direct is not None:
        return direct
    if not isinstance(arg, ast.Name):
        return None
    for stmt in stmts:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.With) or not any(s is assign for b in node.body for s in ast.walk(b)):
                continue
            for item in node.items:
                path = _open_path(item.context_expr)
                if path is not None and isinstance(item.optional_vars, ast.Name) \
                        and item.optional_vars.id == arg.id:
                    return path
    return None


def _key_chain(target: ast.AST, name: str, ev: Any, env: dict) -> Optional[list[str]]:
    """``cfg["a"]["b"]`` -> ["a", "b"] when rooted at ``name`` with every key known."""
    keys: list[str] = []
    node = target
    while isinstance(node, ast.Subscript):
        key = ev.expr(node.slice, env)
        if not isinstance(key, str):
            return None
        keys.append(key)
        node = node.value
    if not (isinstance(node, ast.Name) and node.id == name):
        return None
    return keys[::-1]


def _apply_assignments(stmts: list[ast.stmt], name: str, after: int, before: int, data: dict,
                       ev: Any, env: dict) -> set[tuple[str, ...]]:
    """Apply ``name[k1][k2]... = value`` between two lines (known values, else UNKNOWN); the key
    paths set."""
    from preflight.adapters.deepspeed_code import UNKNOWN

    changed: set[tuple[str, ...]] = set()
    for stmt in stmts:
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Assign) and after < node.lineno < before and len(node.targets) == 1):
                continue
            keys = _key_chain(node.targets[0], name, ev, env)
            if not keys:
                continue
            held: Any = data
            for key in keys[:-1]:
                held = held.get(key) if isinstance(held, dict) else None
            if not isinstance(held, dict):
                continue
            value = ev.expr(node.value, env)
            held[keys[-1]] = UNKNOWN if isinstance(value, (dict, list)) else value
            changed.add(tuple(keys))
    return changed


def read_json_beside(project: Project, plan: TrainingPlan, script: ParsedPython, value: str) \
        -> Optional[LoadedConfig]:
    """The DeepSpeed JSON ``value`` names, looked up beside the script then at the project root, read
    (and recorded as a plan input) when it is a readable DeepSpeed config; else None."""
    from preflight.adapters.deepspeed import deepspeed_block

    from preflight.diagnostics import FileError
    from preflight.loaders import load_config
    from preflight.sources import read_source

    here = Path(str(script.source.path)).resolve().parent
    for base in (here, project.root.resolve()):
        path = base / value
        if not path.is_file() or not project.may_read(path):
            continue
        try:
            shown = os.path.relpath(path, project.root.resolve())
        except ValueError:
            shown = str(path)
        source = read_source(path, shown, "json")
        if isinstance(source, FileError):
            return None
        loaded = load_config(source)
        if not isinstance(loaded, LoadedConfig) or deepspeed_block(loaded) is None \
                or not isinstance(loaded.data, dict):
            return None
        plan.add_input(source.display, source.kind, source.digest)
        return loaded
    return None


def json_loaded_config(adapter: Any, project: Project, plan: TrainingPlan, script: ParsedPython) \
        -> Optional[tuple[LoadedConfig, dict]]:
    """(config, data) of ``deepspeed.initialize(config=name)`` where ``name = json.load(...)`` of a
    JSON file whose path the script takes from its options; None when any step is not known."""
    from preflight.adapters.deepspeed_code import _enclosing, _Eval

    option = adapter._option_resolver(project, plan, script)
    for node in nodes_of(script.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "initialize"):
            continue
        cfg = next((k.value for k in node.keywords if k.arg in ("config", "config_params")), None)
        if not isinstance(cfg, ast.Name):
            continue
        fn = _enclosing(script.tree, node.lineno)
        stmts = fn.body if fn is not None else script.tree.body
        assign = adapter.last_assign(stmts, cfg.id, node.lineno)
        if assign is None:
            continue
        path_node = _opened_path(stmts, assign)
        if path_node is None:
            continue
        ev = _Eval(option, {})
        env: dict[str, Any] = {}
        if fn is not None:
            adapter.bind_params(ev, fn, env, option)
        value = ev.expr(path_node, env)
        if not isinstance(value, str) or not value.lower().endswith(".json"):
            continue
        loaded = read_json_beside(project, plan, script, value)
        if loaded is None:
            continue
        data = copy.deepcopy(loaded.data)
        env[cfg.id] = data
        changed = _apply_assignments(stmts, cfg.id, assign.lineno, node.lineno, data, ev, env)
        clean, _ = adapter.clean(data, {}, (), {})
        # a key the script sets is not the file's line any more
        lines = {k: v for k, v in loaded.lines.items()
                 if not any(tuple(k[:len(c)]) == c for c in changed)}
        adapter.note(plan, f"{script.source.display}:{node.lineno}: the DeepSpeed config is {loaded.path} "
                           f"({ast.unparse(path_node)} = {value!r}, read by json.load at line {assign.lineno}); "
                           f"read, with the {len(changed)} value(s) the script sets before the call")
        return LoadedConfig(path=loaded.path, kind=loaded.kind, data=clean, lines=lines), clean
    return None
