"""A Hydra ``config_path`` made absolute against the working directory of the run.

brandon-snider/cs336-a4 @ 96953db ``cs336-basics/scripts/train.py:58``
``@hydra.main(version_base=None, config_path=str(Path("configs").absolute().resolve()), config_name="config")``:
``Path.absolute()`` joins the process's working directory, so the folder is ``<cwd>/configs`` (the script's
docstring says to run it from ``cs336-basics/``). Read: ``Path("X").absolute()`` / ``.resolve()`` (chained,
``str(...)`` around), ``os.path.abspath("X")``, ``os.path.realpath("X")``, ``Path.cwd() / "X"`` and
``os.path.join(os.getcwd(), "X")``, with ``X`` a relative literal without ``..``. The working directory is not
known statically: the folder is taken only when exactly one folder, among the script's and those above it up to
the project root, holds ``X/<config_name>.yaml`` (where the run must start for the config to be found). The
caller notes the guess and reads the values at medium confidence at most. Nothing is imported or run.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_ABS = ("os.path.abspath", "os.path.realpath", "path.abspath", "path.realpath")
_CWD = ("os.getcwd", "Path.cwd", "pathlib.Path.cwd")


def _lit(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value \
            and not node.value.startswith("/") and ".." not in Path(node.value).parts:
        return node.value
    return None


def _relative(expr: ast.AST, absolute: bool = False) -> Optional[str]:
    """The relative literal ``expr`` makes absolute against the working directory, else None."""
    if isinstance(expr, ast.Call) and not expr.keywords:
        name = dotted_name(expr.func)
        if name == "str" and len(expr.args) == 1:
            return _relative(expr.args[0], absolute)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("absolute", "resolve") and not expr.args:
            return _relative(expr.func.value, True)
        if name in ("Path", "pathlib.Path") and len(expr.args) == 1:
            return _lit(expr.args[0]) if absolute else None
        if name in _ABS and len(expr.args) == 1:
            return _lit(expr.args[0])
        if name in ("os.path.join", "path.join") and len(expr.args) == 2 and isinstance(expr.args[0], ast.Call) \
                and dotted_name(expr.args[0].func) in _CWD and not expr.args[0].args:
            return _lit(expr.args[1])
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div) and isinstance(expr.left, ast.Call) \
            and dotted_name(expr.left.func) in _CWD and not expr.left.args:
        return _lit(expr.right)
    return None


def cwd_rooted(expr: Optional[ast.AST], idx: Any, root: Path, config_name: Optional[str]) -> Optional[tuple[Path, str]]:
    """(the config folder, a note) for a ``config_path`` made absolute against the run's working directory."""
    script = getattr(idx, "script", None)
    if expr is None or script is None or script.source.path is None or not config_name:
        return None
    tail = _relative(expr)
    if tail is None:
        return None
    names = [config_name] if config_name.endswith((".yaml", ".yml")) else [f"{config_name}.yaml",
                                                                          f"{config_name}.yml"]
    script_path = Path(str(script.source.path)).resolve()
    found: list[Path] = []
    top = root.resolve()
    d = script_path.parent
    for _ in range(8):
        cand = d / tail
        if cand.is_dir() and any((cand / n).is_file() for n in names):
            found.append(cand.resolve())
        if d == top or d.parent == d:
            break
        d = d.parent
    if len(found) != 1 or (found[0] != top and top not in found[0].parents):
        return None
    note = (f"config_path {ast.unparse(expr)}: made absolute against the run's working directory, not known "
            f"statically; read as the one folder above the script that holds {tail}/{names[0]} (where the run "
            "must start), values at medium confidence")
    return found[0], note
