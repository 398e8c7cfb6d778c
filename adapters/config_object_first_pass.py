"""The first pass of a loop over the config files the launch line names, read as straight-line code by
:mod:`preflight.adapters.config_object_roots` (nothing is imported or executed).

facebookresearch/SlowFast @ 287ec00 ``tools/run_net.py:19-26``: ``args = parse_args()`` then ``for
path_to_config in args.cfg_files: cfg = load_config(args, path_to_config); cfg = assert_and_infer_cfg(cfg);
if cfg.TRAIN.ENABLE: launch_job(cfg=cfg, ...)`` with ``--cfg`` declared ``dest="cfg_files", nargs="+"``
(``slowfast/utils/parser.py:49-55``). The loop runs one job per file, in order: its first pass, with the
loop's name bound to the first file, is the job the first file describes. Only a loop over an option of
the parsed options whose first token is a YAML file of the project is read so; any other loop (epochs,
ranks, a computed list) stays what it was, a body that may run any number of times.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.config_object import Leaf

_SUFFIXES = (".yaml", ".yml")


def first_pass(stmts: list[ast.stmt], option_of: Callable[[ast.AST], Any], root: Optional[Path],
               bound: dict[str, Leaf]) -> list[ast.stmt]:
    """``stmts`` with each loop over the launch line's config files replaced by its body (its first
    pass); ``bound`` gets the loop's name -> the first file (a Leaf of the launch line)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        first = _first_file(stmt, option_of, root)
        if first is None:
            out.append(stmt)
            continue
        assert isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
        bound[stmt.target.id] = first
        out.extend(stmt.body)
    return out


def _first_file(stmt: ast.stmt, option_of: Callable[[ast.AST], Any], root: Optional[Path]) -> Optional[Leaf]:
    if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and not stmt.orelse
            and isinstance(stmt.iter, ast.Attribute) and isinstance(stmt.iter.value, ast.Name)):
        return None
    if any(isinstance(n, (ast.Break, ast.Continue)) for s in stmt.body for n in ast.walk(s)):
        return None  # a pass that may end early or be skipped: not straight-line
    got = option_of(stmt.iter)
    if not isinstance(got, Leaf) or "may set it" in got.how:
        return None  # a declared default a config file the options are not read from may override (cliargs.py)
    tokens = got.value
    if not isinstance(tokens, (list, tuple)) or not tokens:
        return None
    head = tokens[0].value if isinstance(tokens[0], Leaf) else tokens[0]
    if not isinstance(head, str) or not head.endswith(_SUFFIXES) or root is None:
        return None
    try:
        exists = (Path(head) if Path(head).is_absolute() else root / head).is_file()
    except OSError:
        return None
    if not exists:
        return None
    return Leaf(head, got.file, got.line, got.how, got.key)
