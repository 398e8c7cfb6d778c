"""A Python config file named on the launch line, read as data for
:mod:`preflight.adapters.config_key_families`: hpcaitech/Open-Sora ``torchrun ... scripts/vae/train.py
configs/vae/train/video_dc_ae.py`` and InternLM/InternEvo ``train.py --config ./configs/7B_sft.py``
(mmengine-style configs: module-level ``name = literal`` and ``name = dict(key=literal, ...)``).

Only the module's own top-level assignments are read: literals, ``dict(...)`` calls with keyword
arguments, ``{...}``/``[...]``/``(...)`` displays and names bound earlier in the same module
(``SEQ_LEN = 2048`` then ``seq_len=SEQ_LEN``). Anything else (a call, arithmetic) leaves that key
out. The ``_base_`` files are merged as MMEngine merges them (:mod:`preflight.adapters.mmengine_loader`:
Pointcept/Pointcept @ d74c646 ``configs/scannet/semseg-pt-v3m1-0-base.py:1`` ``_base_ =
["../_base_/default_runtime.py"]``, whose ``gradient_accumulation_steps = 1`` (:10) the file does not set); a
key keeps the file and line of the assignment that wins. A file whose ``_base_`` names a file that does not
exist (or one not read: another package's, too deep) is not read at all. The file is parsed, never executed;
the training script itself and the modules it imports are not config files.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.literal_config import UNKNOWN

from preflight.sources import read_text_limited

_MAX_BYTES = 500_000
_NOT = object()


def _known(value: Any) -> Any:
    """``value`` without its unknown parts: a dict keeps its known keys, a list or tuple with an unknown item
    is unknown (``_NOT``)."""
    if isinstance(value, type(UNKNOWN)):
        return _NOT
    if isinstance(value, dict):
        out = {k: _known(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v is not _NOT}
    if isinstance(value, (list, tuple)):
        items = [_known(v) for v in value]
        return _NOT if any(i is _NOT for i in items) else (items if isinstance(value, list) else tuple(items))
    return value


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
    if not _bases_found(tree, path.parent):
        return None
    from preflight.adapters.mmengine_loader import read_module

    own, base = read_module(tree, str(path))  # the OpenMMLab reader's evaluation of one file
    data: dict[str, Any] = {}
    for name, value in own.values.items():
        got = _known(value)
        if got is not _NOT:
            data[name] = got
    if base is not None and _known(base) is not _NOT:
        data["_base_"] = _known(base)
    lines = {key: at[1] for key, at in own.where.items()}
    return data, lines


def merged_python_config(project: Any, path: Path) -> Optional[tuple[dict, dict[tuple, tuple[str, int]]]]:
    """(data, key path -> (file, line) of the winning assignment) of a config module merged with its
    ``_base_`` files (:mod:`preflight.adapters.mmengine_loader`), or None (not read, or a base not read)."""
    if read_python_config(path) is None:
        return None
    from preflight.adapters.mmengine_loader import _Loader

    got = _Loader(project).load(path.resolve())
    if got is None or got[0].get("<unread base>"):
        return None
    values, where = got
    data: dict[str, Any] = {}
    for name, value in values.items():
        known = _known(value)
        if known is not _NOT:
            data[name] = known
    return data, {key: (at[0], at[1]) for key, at in where.items()}


def _where_of(display: str, lines: dict[tuple, tuple[str, int]]) -> Callable[[tuple], tuple[str, Optional[int]]]:
    """key path -> (file, line): the winning assignment's, else the file named on the line without a line."""
    def where(path: tuple) -> tuple[str, Optional[int]]:
        at = lines.get(tuple(path))
        return (display, None) if at is None else (at[0], at[1])
    return where


def _file_where(display: str, line_of: Callable[[tuple], Optional[int]]) -> Callable[[tuple], tuple[str, Optional[int]]]:
    return lambda path: (display, line_of(path))


def launch_configs(project: Any) -> list[tuple[str, dict, Callable[[tuple], tuple[str, Optional[int]]]]]:
    """(display path, data, line_of) of each config file the launch line hands a script that the
    job's reading did not load: a ``.py`` config module (read as above) and a JSON/YAML/TOML file
    under a flag the launch reader does not know (vjepa2 ``--fname``, BasicSR ``-opt``). ``where`` gives
    the file (a ``_base_`` file for a key set there) and line of each key."""
    from preflight.loaders import load_config
    from preflight.sources import kind_of, read_source

    scripts = {os.path.abspath(str(s.source.path)) for s in project.scripts if s.source.path is not None}
    loaded = {os.path.abspath(str(src.path)) for src, _cfg in project.configs if src.path is not None}
    tokens: list[str] = []
    lines_of: dict[str, list[str]] = {}  # token -> the launch words it sits in (KEY VALUE pairs after it)
    for script in project.scripts:
        words = [str(t) for t in project.script_args(script)]
        for tok in words:
            lines_of.setdefault(tok, words)
            if tok not in tokens:
                tokens.append(tok)
    out: list[tuple[str, dict, Callable[[tuple], tuple[str, Optional[int]]]]] = []
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
            read = merged_python_config(project, path)
            if read is not None:
                data, lines = read
                from preflight.adapters.launch_kv_overrides import apply_pairs, overrides

                words = lines_of[tok]
                pairs = None if tok.startswith("-") else overrides(project, words, words.index(tok))
                if pairs:  # PLLaVA ``config_pllava_nframe.py batch_size 8 ...``: the pairs win (launch_kv_overrides.py)
                    data, given = apply_pairs(data, pairs)
                    lines = {k: v for k, v in lines.items() if k not in given}
                    data["__cli__"] = given
                out.append((display, data, _where_of(display, lines)))
            continue
        source = read_source(path, display, kind)
        config = None if not hasattr(source, "text") else load_config(source)  # type: ignore[arg-type]
        if config is not None and isinstance(getattr(config, "data", None), dict):
            out.append((display, config.data, _file_where(display, config.line_of)))  # type: ignore[union-attr]
    return out
