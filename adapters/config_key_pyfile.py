"""A Python config file named on the launch line, read as data for
:mod:`preflight.adapters.config_key_families`: hpcaitech/Open-Sora ``torchrun ... scripts/vae/train.py
configs/vae/train/video_dc_ae.py`` and InternLM/InternEvo ``train.py --config ./configs/7B_sft.py``
(mmengine-style configs: module-level ``name = literal`` and ``name = dict(key=literal, ...)``).

Only the module's own top-level assignments are read: literals, ``dict(...)`` calls with keyword
arguments, ``{...}``/``[...]``/``(...)`` displays and names bound earlier in the same module
(``SEQ_LEN = 2048`` then ``seq_len=SEQ_LEN``). Anything else (a call, arithmetic) leaves that key
out. ``_base_`` files are not merged (their keys stay unknown; the file's own keys win over them in
mmengine), and a file whose ``_base_`` names a file that does not exist is not read at all. The file is parsed, never executed; the training script itself
and the modules it imports are not config files.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.sources import read_text_limited

_MAX_BYTES = 500_000
_NOT = object()


def _eval(node: ast.AST, names: dict[str, Any], lines: dict[tuple, int], path: tuple) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool):
        return -node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_eval(e, names, lines, path) for e in node.elts]
        return _NOT if any(i is _NOT for i in items) else (list(items) if isinstance(node, ast.List) else tuple(items))
    pairs: list[tuple[Any, ast.expr]] = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        if any(k.arg is None for k in node.keywords):
            return _NOT
        pairs = [(k.arg, k.value) for k in node.keywords]
    elif isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, (str, int))):
                return _NOT
            pairs.append((k.value, v))
    else:
        return _NOT
    out: dict[Any, Any] = {}
    for key, value in pairs:
        here = (*path, key)
        lines[here] = value.lineno
        got = _eval(value, names, lines, here)
        if got is not _NOT:
            out[key] = got
    return out


def _bases_found(tree: ast.Module, folder: Path) -> bool:
    """Whether every ``_base_`` file of an mmengine-style config exists (a base that is missing makes
    ``Config.fromfile`` fail: the job never gets its values). A base that is not a literal: False."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_base_" for t in stmt.targets):
            try:
                bases = ast.literal_eval(stmt.value)
            except (ValueError, SyntaxError, TypeError):
                return False
            for base in [bases] if isinstance(bases, str) else bases if isinstance(bases, (list, tuple)) else [None]:
                if not isinstance(base, str) or not (folder / base).is_file():
                    return False
    return True


def read_python_config(path: Path) -> Optional[tuple[dict, dict[tuple, int]]]:
    """(data, key path -> line) of a config module's top-level literal assignments, or None."""
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        tree = ast.parse(read_text_limited(path, errors="replace"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    data: dict[str, Any] = {}
    lines: dict[tuple, int] = {}
    if not _bases_found(tree, path.parent):
        return None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            name, value = stmt.target.id, stmt.value
        else:
            continue
        lines[(name,)] = stmt.lineno
        got = _eval(value, data, lines, (name,))
        if got is _NOT:
            data.pop(name, None)
        else:
            data[name] = got
    return data, lines


def _line_of(lines: dict[tuple, int]) -> Callable[[tuple], Optional[int]]:
    return lambda path: lines.get(tuple(path))


def launch_configs(project: Any) -> list[tuple[str, dict, Callable[[tuple], Optional[int]]]]:
    """(display path, data, line_of) of each config file the launch line hands a script that the
    job's reading did not load: a ``.py`` config module (read as above) and a JSON/YAML/TOML file
    under a flag the launch reader does not know (vjepa2 ``--fname``, BasicSR ``-opt``)."""
    from preflight.loaders import load_config
    from preflight.sources import kind_of, read_source

    scripts = {os.path.abspath(str(s.source.path)) for s in project.scripts if s.source.path is not None}
    loaded = {os.path.abspath(str(src.path)) for src, _cfg in project.configs if src.path is not None}
    tokens: list[str] = []
    for script in project.scripts:
        for tok in project.script_args(script):
            if tok not in tokens:
                tokens.append(tok)
    out: list[tuple[str, dict, Callable[[tuple], Optional[int]]]] = []
    root = Path(project.root)
    seen: set[str] = set()
    for tok in tokens:
        value = tok.partition("=")[2] if tok.startswith("-") else tok
        kind = "python" if value.endswith(".py") else kind_of(Path(value))
        if kind not in ("python", "json", "yaml", "toml"):
            continue
        path = Path(value) if os.path.isabs(value) else root / value
        key = os.path.abspath(path)
        if key in seen or key in scripts or key in loaded or not path.is_file() or not project.may_read(path):
            continue
        seen.add(key)
        display = value if os.path.isabs(value) else os.path.relpath(path, root)
        if kind == "python":
            read = read_python_config(path)
            if read is not None:
                data, lines = read
                out.append((display, data, _line_of(lines)))
            continue
        source = read_source(path, display, kind)
        config = None if not hasattr(source, "text") else load_config(source)  # type: ignore[arg-type]
        if config is not None and isinstance(getattr(config, "data", None), dict):
            out.append((display, config.data, config.line_of))  # type: ignore[union-attr]
    return out
