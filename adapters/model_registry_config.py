"""Values of a registry model call read from the one config file given to the audit
(``model_registry``).

A project that builds its model through a registry table often reads the key and the sizes from a
YAML config loaded by a helper and handed to a training function (hustvl/LightningDiT @ 2b2a7c7
``train.py:38,78-88,336-344``: ``train_config = load_config(args.config)`` then ``do_train(train_config,
accelerator)``, whose ``LightningDiT_models[train_config['model']['model_type']](input_size=latent_size,
use_swiglu=train_config['model']['use_swiglu'] if 'use_swiglu' in train_config['model'] else False,
...)`` with ``--config configs/lightningdit_xl_vavae_f16d32.yaml`` on the launch line). ``config_value``
reads such an expression, never importing or running anything:

- anything the script index resolves (launch line, declared default, code);
- ``root['a']['b']`` / ``root.a.b`` (two keys at least) whose root the script binds only by a call
  (a loader helper, ``yaml.safe_load``) or as a function parameter: the value at that key path in the
  one config given to the audit that has it (none, or two that disagree: unknown);
- ``x if 'k' in root['a'] else y`` and ``x if root['a']['k'] else y``: the branch the config decides;
- a name the function binds once to such an expression, and integer arithmetic of known values.

Anything else is ``UNKNOWN``.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.adapters_api import Project

_MAX_DEPTH = 8


def _configs_at(project: Project, path: tuple[str, ...]) -> list[Any]:
    from preflight.analysis.syntax import config_at

    found = []
    for _, cfg in project.configs:
        holder = config_at(cfg.data, path[:-1]) if len(path) > 1 else cfg.data
        if isinstance(holder, dict) and path[-1] in holder:
            found.append(holder[path[-1]])
    return found


def _loaded_root(idx: Any, name: str) -> bool:
    """``name`` bound only by calls with arguments (a loader) and as a function parameter: a config
    object whose keys a config file may hold, never a literal the script builds."""
    bound = idx.assigns.get(name, [])
    params = idx.param_count.get(name, 0)
    calls = [b for b in bound if isinstance(b, ast.Call) and b.args]
    return bool(bound) and len(calls) <= 1 and bound.count(None) == params and len(calls) + params == len(bound)


def _key_path(expr: ast.AST) -> tuple[str, tuple[str, ...]] | None:
    from preflight.analysis.syntax import unpacked_key_path

    path = unpacked_key_path(expr)
    root = expr
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if not path or not isinstance(root, ast.Name):
        return None
    return root.id, path


def config_value(idx: Any, project: Project, expr: ast.AST, depth: int = 0) -> Any:
    """The value of ``expr`` (see the module comment), else ``UNKNOWN``."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if depth > _MAX_DEPTH:
        return UNKNOWN
    got = idx.resolve(expr)
    if got is not None:
        return got.value
    keyed = _key_path(expr)
    if keyed is not None and len(keyed[1]) >= 2 and _loaded_root(idx, keyed[0]):
        found = _configs_at(project, keyed[1])
        if found and all(f == found[0] for f in found):
            return found[0]
        return UNKNOWN
    if isinstance(expr, ast.IfExp):
        test = _test(idx, project, expr.test, depth + 1)
        if test is None:
            return UNKNOWN
        return config_value(idx, project, expr.body if test else expr.orelse, depth + 1)
    if isinstance(expr, ast.Name):
        bound = idx.assigns.get(expr.id, [])
        if len(bound) == 1 and bound[0] is not None:
            return config_value(idx, project, bound[0], depth + 1)
        return UNKNOWN
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        a = config_value(idx, project, expr.left, depth + 1)
        b = config_value(idx, project, expr.right, depth + 1)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
            return UNKNOWN
        if isinstance(expr.op, ast.FloorDiv):
            return a // b if b else UNKNOWN
        return a + b if isinstance(expr.op, ast.Add) else a - b if isinstance(expr.op, ast.Sub) else a * b
    return UNKNOWN


def _test(idx: Any, project: Project, test: ast.AST, depth: int) -> bool | None:
    """``'k' in root['a']`` (the mapping at that path in the config) or a plain config value; None when
    the config does not decide it."""
    from preflight.adapters.module_params_nested import UNKNOWN

    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)) \
            and isinstance(test.left, ast.Constant) and isinstance(test.left.value, str):
        keyed = _key_path(test.comparators[0])
        if keyed is None or not keyed[1] or not _loaded_root(idx, keyed[0]):
            return None
        found = [f for f in _configs_at(project, keyed[1]) if isinstance(f, dict)]
        if len(found) != 1:
            return None
        inside = test.left.value in found[0]
        return inside if isinstance(test.ops[0], ast.In) else not inside
    value = config_value(idx, project, test, depth)
    if value is UNKNOWN or not isinstance(value, (bool, int, str, type(None))):
        return None
    return bool(value)
