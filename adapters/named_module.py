"""The training module a launcher imports by a name its config gives.

A launcher may hand its work to a module whose dotted path is built from a config value:
facebookresearch/jepa @ 51c59d5 ``app/scaffold.py:19`` runs
``importlib.import_module(f'app.{app}.train').main(args=args, ...)`` with ``app`` the launch YAML's
top-level ``app: vjepa`` (``configs/pretrain/vitl16.yaml:1``, handed over by ``app/main_distributed.py``
through a submitit executor), so the job's loop, DDP wrapping, autocast and optimizer are in
``app/vjepa/train.py``, which nothing imports by a plain ``import``.

Read (never imported): the entry script and the local modules it imports (two levels) hold an
``import_module(f"...{name}...")`` call whose f-string has one placeholder, a plain name or an
attribute; the configs of the job (those read and those the launch line names) give the top-level key
of that name one identifier value; the dotted path it completes is a file of the project
(:func:`preflight.delegate.module_file`). That file is audited as the entry's delegate (with its launch
arguments). Anything else (two placeholders, a key absent or of two values, no such file): nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, NamedTuple, Optional

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_project_file


class NamedModule(NamedTuple):
    path: Path  # the module's file
    module: str  # its dotted name
    key: str  # the config key that completed it
    config: str  # the config file (display) that gives the key
    call: str  # ``file:line`` of the import_module call


def _placeholder(call: ast.Call) -> Optional[tuple[str, str, str]]:
    """(prefix, name, suffix) of ``import_module(f"prefix{name}suffix")``, else None."""
    if (dotted_name(call.func) or "").rsplit(".", 1)[-1] != "import_module" or len(call.args) != 1:
        return None
    arg = call.args[0]
    if not isinstance(arg, ast.JoinedStr):
        return None
    holes = [v for v in arg.values if isinstance(v, ast.FormattedValue)]
    if len(holes) != 1 or holes[0].format_spec is not None or holes[0].conversion not in (-1, 115):
        return None
    name = dotted_name(holes[0].value)
    if not name:
        return None
    parts: list[str] = ["", ""]
    side = 0
    for v in arg.values:
        if isinstance(v, ast.FormattedValue):
            side = 1
        elif isinstance(v, ast.Constant) and isinstance(v.value, str):
            parts[side] += v.value
    return parts[0], name.rsplit(".", 1)[-1], parts[1]


def top_level_value(project: Any, key: str) -> Optional[tuple[Any, str, Optional[int]]]:
    """(value, config display, line) of the one value the job's configs (those read and those the launch
    line names) give the top-level ``key``; None when none does or they disagree."""
    from preflight.adapters.config_key_pyfile import launch_configs

    found: dict[str, tuple[Any, str, Optional[int]]] = {}
    for src, cfg in project.configs:
        if isinstance(cfg.data, dict) and key in cfg.data:
            found.setdefault(repr(cfg.data[key]), (cfg.data[key], str(src.display), cfg.line_of((key,))))
    for display, data, at in launch_configs(project):
        if isinstance(data, dict) and key in data:
            found.setdefault(repr(data[key]), (data[key], display, at((key,))[1]))
    return next(iter(found.values())) if len(found) == 1 else None


def named_module(project: Any, entry: Any) -> Optional[NamedModule]:
    """The project module ``entry`` (or a local module it imports) loads by a config-given name, or None."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.delegate import module_file

    if not isinstance(entry.tree, ast.Module) or entry.source.path is None:
        return None
    path = Path(str(entry.source.path))
    root = Path(str(project.root))
    trees: list[tuple[ast.AST, Path]] = [(entry.tree, path)]
    for found in _imported_up(entry.tree, path.parent, root, depth=2):
        parsed = parse_project_file(found)
        if parsed is not None:
            trees.append((parsed, found))
    for tree, where in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            hole = _placeholder(node)
            if hole is None:
                continue
            prefix, name, suffix = hole
            got = top_level_value(project, name)
            if got is None or not isinstance(got[0], str) or not got[0].isidentifier():
                continue
            module = f"{prefix}{got[0]}{suffix}"
            if not all(part.isidentifier() for part in module.split(".")):
                continue
            file = module_file(module, path)
            if file is None:
                continue
            try:
                shown = where.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                shown = where.name
            return NamedModule(file, module, name, got[1], f"{shown}:{node.lineno}")
    return None
