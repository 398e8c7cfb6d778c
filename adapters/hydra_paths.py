"""A Hydra ``config_path`` given as an expression whose directory is known without running anything
(each shape pinned by a test in ``tests/test_hydra_paths.py``, found in public code first, docs/corpus.md
"Hydra config paths computed in code"):

* SWivid/F5-TTS ``src/f5_tts/train/train.py:17`` (2ae2c9b): ``@hydra.main(version_base="1.3",
  config_path=str(files("f5_tts").joinpath("configs")), config_name=None)`` with ``files`` from
  ``importlib.resources``: the package's folder (found under the script's folders and their ``src/``);
* facebookresearch/fairseq ``fairseq_cli/hydra_train.py``: ``config_path=os.path.join("..", "fairseq",
  "config")``;
* a module-level constant: ``main_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))`` then
  ``config_path=os.path.join(main_dir, "new_rl", "config")``; ``Path(__file__).parent / "conf"``;
* atong01/conditional-flow-matching ``runner/src/train.py:3-8,126`` (cacd4dc, the lightning-hydra-template):
  ``root = pyrootutils.setup_root(search_from=__file__, indicator=[".git", "pyproject.toml", "README.md"],
  ...)`` then ``config_path=root / "configs"``: the nearest folder at or above the script holding one of
  the indicator files (a path lookup, as ``pyrootutils``/``rootutils`` ``find_root`` does), kept only
  inside the project.

Read: string literals, ``__file__``, ``os.path.join/dirname/abspath/realpath/normpath``, ``Path(...)``,
``.parent``, ``.resolve()``, ``/``, ``.joinpath(...)``, ``str(...)``, ``importlib.resources.files("pkg")``
and a module-level name bound once to one of these. Anything else (``os.getcwd()``, an environment
variable, a call of the project's code) is not read: the directory stays unknown. Nothing is imported.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

_OS_PATH = ("os.path.join", "os.path.dirname", "os.path.abspath", "os.path.realpath", "os.path.normpath",
            "path.join", "path.dirname", "path.abspath", "path.realpath", "path.normpath")
_FILES = ("files", "importlib.resources.files", "importlib_resources.files", "resources.files")
_ROOT_FINDERS = ("pyrootutils.setup_root", "rootutils.setup_root", "pyrootutils.find_root", "rootutils.find_root")
# pyrootutils/rootutils find_root's default indicator
_ROOT_INDICATORS = (".project-root", "setup.cfg", "setup.py", ".git", "pyproject.toml")


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _package_dir(name: str, script: Path, root: Path) -> Optional[Path]:
    """The folder of package ``name`` (dotted), looked for in the script's folder and those above it up
    to the project root, and their ``src/``."""
    rel = Path(*name.split("."))
    d = script.resolve().parent
    top = root.resolve()
    for _ in range(8):
        for base in (d, d / "src"):
            cand = base / rel
            if cand.is_dir():
                return cand
        if d == top or d.parent == d:
            break
        d = d.parent
    return None


def config_dir(expr: Optional[ast.AST], idx: Any, root: Path) -> Optional[str]:
    """The directory ``expr`` (an argument of a call in the script ``idx`` indexes) names: absolute, or
    relative to the script's folder as Hydra reads a relative ``config_path``; None when it is not known
    statically."""
    script = getattr(idx, "script", None)
    if expr is None or script is None or script.source.path is None:
        return None
    tree = script.tree if isinstance(script.tree, ast.Module) else None
    got = _Paths(tree, Path(str(script.source.path)), root).value(expr, 0)
    return str(got) if isinstance(got, (Path, str)) else None


def primary_name(app: Any, project: Any) -> Optional[str]:
    """The primary config's name as composed: ``--config-name X`` on the launch line, else the decorator's."""
    if app.script is None:
        return app.config_name
    from preflight.adapters.hydra_compose import parse_overrides

    flags = parse_overrides([*app.overrides, *project.script_args(app.script)])[1]
    return flags.get("config_name", app.config_name)


class _Paths:
    def __init__(self, tree: Optional[ast.Module], script: Path, root: Path) -> None:
        self.tree = tree
        self.script = script.resolve()
        self.root = root
        self._globals: Optional[dict[str, list[ast.AST]]] = None

    def _bound(self, name: str) -> Optional[ast.AST]:
        if self._globals is None:
            self._globals = {}
            for stmt in self.tree.body if self.tree is not None else []:
                if isinstance(stmt, ast.Assign):
                    for t in stmt.targets:
                        if isinstance(t, ast.Name):
                            self._globals.setdefault(t.id, []).append(stmt.value)
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    self._globals.setdefault(stmt.target.id, []).append(stmt.value)
        got = self._globals.get(name, [])
        return got[0] if len(got) == 1 else None

    def value(self, node: ast.AST, depth: int) -> Optional[object]:
        """A ``str`` (a relative or absolute path text) or a ``Path`` (absolute), or None."""
        if depth > 12:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return self.script
            bound = self._bound(node.id)
            return self.value(bound, depth + 1) if bound is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            left, right = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
            if isinstance(left, Path) and isinstance(right, str):
                return self._norm(left / right)
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # ``__file__ + '/../../conf'``
            left, right = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
            if isinstance(left, Path) and isinstance(right, str) and right.startswith("/"):
                return self._norm(Path(str(left) + right))
            return None
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            inner = self.value(node.value, depth + 1)
            return inner.parent if isinstance(inner, Path) else None
        if isinstance(node, ast.Call) and self._root_finder(_dotted(node.func)):
            return self._found_root(node, depth)
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args) or node.keywords:
            return None
        name = _dotted(node.func)
        args = [self.value(a, depth + 1) for a in node.args]
        if any(a is None for a in args):
            return None
        if name == "str" and len(args) == 1:
            return args[0]
        if name in ("Path", "pathlib.Path") and len(args) >= 1:
            first = args[0]
            if not isinstance(first, Path):
                return os.path.join(*(str(a) for a in args)) if not os.path.isabs(str(first)) else \
                    self._norm(Path(*(str(a) for a in args)))
            for more in args[1:]:
                first = first / str(more)
            return self._norm(first)
        if name in _FILES and len(args) == 1 and isinstance(args[0], str):
            return _package_dir(args[0], self.script, self.root)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("joinpath", "resolve", "absolute"):
            owner = self.value(node.func.value, depth + 1)
            if not isinstance(owner, Path):
                return None
            for more in args:
                owner = owner / str(more)
            return self._norm(owner)
        if name in _OS_PATH:
            op = name.rsplit(".", 1)[-1]
            if op == "join" and args:
                out: object = args[0]
                for more in args[1:]:
                    text = str(more)
                    out = Path(text) if os.path.isabs(text) else (out / text if isinstance(out, Path)
                                                                  else os.path.join(str(out), text))
                return self._norm(out) if isinstance(out, Path) else out
            if len(args) != 1:
                return None
            one = args[0]
            if op == "dirname":
                return one.parent if isinstance(one, Path) else os.path.dirname(str(one))
            return one if isinstance(one, Path) else None  # abspath/realpath of a relative text: the cwd's
        return None

    def _root_finder(self, name: str) -> bool:
        """Whether ``name`` calls ``(py)rootutils.setup_root``/``find_root`` (bare when imported from there)."""
        if name in _ROOT_FINDERS:
            return True
        if name not in ("setup_root", "find_root") or self.tree is None:
            return False
        return any(isinstance(s, ast.ImportFrom) and s.module in ("pyrootutils", "rootutils")
                   and any(a.name == name and a.asname is None for a in s.names) for s in self.tree.body)

    def _found_root(self, call: ast.Call, depth: int) -> Optional[Path]:
        """The folder ``setup_root(search_from, indicator)`` returns: the nearest of ``search_from`` and
        its parents holding an indicator file, looked up inside the project only; None when unknown."""
        kw = {k.arg: k.value for k in call.keywords if k.arg is not None}
        where = call.args[0] if call.args else kw.get("search_from")
        which = call.args[1] if len(call.args) > 1 else kw.get("indicator")
        start = self.value(where, depth + 1) if where is not None else None
        if not isinstance(start, Path) or any(isinstance(a, ast.Starred) for a in call.args) \
                or any(k.arg is None for k in call.keywords):
            return None
        names: list[str] = []
        if which is None:
            names = list(_ROOT_INDICATORS)
        elif isinstance(which, ast.Constant) and isinstance(which.value, str):
            names = [which.value]
        elif isinstance(which, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in which.elts):
            names = [str(e.value) for e in which.elts]  # type: ignore[attr-defined]
        if not names:
            return None
        top = Path(os.path.normpath(str(self.root.resolve())))
        for d in (start, *start.parents):
            if d != top and top not in d.parents:
                return None
            if any((d / n).exists() for n in names):
                return d
        return None

    @staticmethod
    def _norm(path: Path) -> Path:
        return Path(os.path.normpath(str(path)))
