"""A Hydra ``config_path`` under a project root that an environment variable names.

The grok-ai/nn-template shape: txie-93/cdvae @ f857f59 ``cdvae/run.py:19,164``
``from cdvae.common.utils import PROJECT_ROOT`` and ``@hydra.main(config_path=str(PROJECT_ROOT / "conf"),
config_name="default")``, with ``cdvae/common/utils.py:92`` ``PROJECT_ROOT: Path = Path(get_env("PROJECT_ROOT"))``
(``get_env`` reads ``os.environ``; README.md:69-71 "``PROJECT_ROOT``: path to the folder that contains this
repo", set in a ``.env`` file). The same decorator is in many public projects built on that template (found
with the search tools; docs/corpus.md "Hydra config paths computed in code").

Read: the expression's literal tail (``HEAD / "conf"``, ``os.path.join(HEAD, "conf")``,
``HEAD.joinpath("conf")``, ``str(...)`` around any of them) after a head that is a name bound once at module
level, in the script or in the local module it is imported from, to an environment variable's value
(``os.environ["X"]``, ``os.environ.get("X")``, ``os.getenv("X")``, or ``f("X")`` of a function of that module
that reads ``os.environ``), possibly through ``Path(...)``/``str(...)``. The folder is taken only when exactly
one folder, among the script's and those above it up to the project root, holds ``<tail>/<config_name>.yaml``:
the project root the variable is meant to name. The caller notes the guess and reads the values at medium
confidence at most. A head from ``os.getcwd()`` or any other call is not read (the folder is the run's).
Nothing is imported or run.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_project_file
from preflight.script_env import env_key

_OS_JOIN = ("os.path.join", "path.join")
_WRAPS = ("Path", "pathlib.Path", "str")


def _split(expr: ast.AST) -> Optional[tuple[ast.Name, list[str]]]:
    """(the head name, the literal parts after it), or None for any other shape."""
    if isinstance(expr, ast.Call) and dotted_name(expr.func) == "str" and len(expr.args) == 1 and not expr.keywords:
        return _split(expr.args[0])
    if isinstance(expr, ast.Name):
        return expr, []
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div) and _text(expr.right) is not None:
        inner = _split(expr.left)
        return (inner[0], [*inner[1], str(_text(expr.right))]) if inner is not None else None
    if isinstance(expr, ast.Call) and not expr.keywords and expr.args:
        rest = [_text(a) for a in expr.args[1:]]
        if dotted_name(expr.func) in _OS_JOIN and isinstance(expr.args[0], ast.Name) and all(
                r is not None for r in rest):
            return expr.args[0], [str(r) for r in rest]
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "joinpath":
            parts = [_text(a) for a in expr.args]
            inner = _split(expr.func.value)
            if inner is not None and all(p is not None for p in parts):
                return inner[0], [*inner[1], *(str(p) for p in parts)]
    return None


def _text(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value \
            and not node.value.startswith("/") and ".." not in Path(node.value).parts:
        return node.value
    return None


def _bound_once(tree: ast.Module, name: str) -> Optional[ast.expr]:
    """The one module-level binding of ``name`` (hydra_paths' reading of the script's constants)."""
    from preflight.adapters.hydra_paths import _Paths

    got = _Paths(tree, Path("."), Path("."))._bound(name)
    return got if isinstance(got, ast.expr) else None


def _reads_environ(fn: ast.FunctionDef) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and node.attr == "environ" and dotted_name(node) in ("os.environ",):
            return True
        if isinstance(node, ast.Call) and dotted_name(node.func) in ("os.getenv", "getenv"):
            return True
    return False


def _env_name(tree: ast.Module, value: ast.expr) -> Optional[str]:
    """The variable whose value ``value`` is (through ``Path(...)``/``str(...)``), else None."""
    while isinstance(value, ast.Call) and dotted_name(value.func) in _WRAPS and len(value.args) == 1 \
            and not value.keywords:
        value = value.args[0]
    if isinstance(value, ast.Subscript) and dotted_name(value.value) in ("os.environ", "environ") \
            and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str):
        return value.slice.value
    if not isinstance(value, ast.Call):
        return None
    name = env_key(dotted_name(value.func), list(value.args))
    if name is not None:
        return name
    if isinstance(value.func, ast.Name) and value.args and isinstance(value.args[0], ast.Constant) \
            and isinstance(value.args[0].value, str):
        defs = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == value.func.id]
        if len(defs) == 1 and _reads_environ(defs[0]):
            return value.args[0].value
    return None


def _head_env(idx: Any, script_path: Path, head: str) -> Optional[tuple[str, str]]:
    """(the variable, where it is read) for a head name bound to an environment variable's value."""
    from preflight.script_parsers import _module_file

    tree = idx.script.tree if isinstance(idx.script.tree, ast.Module) else None
    if tree is None:
        return None
    value = _bound_once(tree, head)
    where, module_tree = script_path.name, tree
    if value is None:
        dotted = getattr(idx, "imports", {}).get(head, "")
        module, _, attr = dotted.rpartition(".")
        if not module or attr != head:
            return None
        path = _module_file(script_path.parent, module)
        parsed = parse_project_file(path) if path is not None else None
        if parsed is None:
            return None
        value, where, module_tree = _bound_once(parsed, head), module.replace(".", "/") + ".py", parsed
        if value is None:
            return None
    variable = _env_name(module_tree, value)
    return (variable, f"{where}:{value.lineno}") if variable is not None else None


def env_rooted(expr: Optional[ast.AST], idx: Any, root: Path, config_name: Optional[str]) -> Optional[tuple[Path, str]]:
    """(the config folder, a note) for a ``config_path`` under an environment variable's project root."""
    script = getattr(idx, "script", None)
    if expr is None or script is None or script.source.path is None or not config_name:
        return None
    split = _split(expr)
    if split is None or not split[1]:
        return None
    head, tail = split
    script_path = Path(str(script.source.path)).resolve()
    env = _head_env(idx, script_path, head.id)
    if env is None:
        return None
    names = [config_name] if config_name.endswith((".yaml", ".yml")) else [f"{config_name}.yaml",
                                                                          f"{config_name}.yml"]
    found: list[Path] = []
    top = root.resolve()
    d = script_path.parent
    for _ in range(8):
        cand = d.joinpath(*tail)
        if cand.is_dir() and any((cand / n).is_file() for n in names):
            found.append(cand)
        if d == top or d.parent == d:
            break
        d = d.parent
    if len(found) != 1 or (found[0] != top and top not in found[0].parents):
        return None
    shown = "/".join(tail)
    note = (f"config_path {ast.unparse(expr)}: {head.id} is the environment variable {env[0]} ({env[1]}), "
            f"not known statically; read as the one folder above the script that holds {shown}/{names[0]} "
            "(the project root it names), values at medium confidence")
    return found[0], note
