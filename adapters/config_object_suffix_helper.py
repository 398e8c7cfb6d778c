"""A config-loading helper that picks its loader by the path's suffix, for
:func:`preflight.adapters.config_object_files.helper_path`:

    def load_config(config_path):
        if config_path.endswith(".yaml"):
            return OmegaConf.load(config_path)
        if config_path.endswith(".py"):
            return import_filename(config_path).cfg
        raise ValueError("Unsupported format for config file")

(sihunc-flwls/hallo @ 7dc5e3a ``scripts/train_stage1_hallo.py:765-780``, the fudan-generative-vision Hallo
training scripts and their forks: ``find_string "return import_filename(config_path).cfg"`` finds 10+
copies). Each arm is ``if P.endswith(S): return X`` (or an ``elif`` chain) with ``P`` the helper's one
parameter, the last statement a ``raise`` or nothing. The arms whose return loads ``P`` (``OmegaConf.load(P)``,
``yaml.safe_load(open(P))``) give the suffixes the file is read under; any other arm's return is some other
loader. The file is read only when the path the call passes ends with one of the loading arms' suffixes
(checked by the caller on the resolved path); a path ending otherwise stays unknown. Read, never run."""

from __future__ import annotations

import ast
from typing import Callable, Optional


def _suffixes(test: ast.AST, param: str) -> Optional[tuple[str, ...]]:
    """``P.endswith(".yaml")`` / ``P.endswith((".yaml", ".yml"))`` -> the suffixes, else None."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "endswith"
            and isinstance(test.func.value, ast.Name) and test.func.value.id == param
            and len(test.args) == 1 and not test.keywords):
        return None
    arg = test.args[0]
    items = arg.elts if isinstance(arg, ast.Tuple) else [arg]
    out = tuple(e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value)
    return out if out and len(out) == len(items) else None


def _arms(body: list[ast.stmt], param: str) -> Optional[list[tuple[tuple[str, ...], ast.AST]]]:
    """The ``(suffixes, returned value)`` of every arm of ``body``, or None when ``body`` is anything else
    than ``if P.endswith(S): return X`` arms ending in a ``raise`` (or in nothing)."""
    arms: list[tuple[tuple[str, ...], ast.AST]] = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.Raise) and i == len(body) - 1:
            break
        if not isinstance(stmt, ast.If):
            return None
        got = _suffixes(stmt.test, param)
        if got is None or len(stmt.body) != 1 or not isinstance(stmt.body[0], ast.Return) \
                or stmt.body[0].value is None:
            return None
        arms.append((got, stmt.body[0].value))
        if stmt.orelse:
            rest = _arms(stmt.orelse, param)
            if rest is None or i != len(body) - 1:
                return None
            arms += rest
    return arms


def loading_suffixes(fn: ast.FunctionDef, param: str,
                     loads_param: Callable[[ast.AST], bool]) -> Optional[tuple[str, ...]]:
    """The suffixes under which ``fn`` returns the file its parameter ``param`` names, loaded
    (``loads_param(value)`` says whether a returned value is such a load); None when ``fn`` is not a
    suffix-dispatching helper or no arm loads the parameter."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring
    arms = _arms(body, param)
    if not arms or len(arms) < 2:
        return None
    loading = [s for suffixes, value in arms if loads_param(value) for s in suffixes]
    return tuple(loading) if loading else None

