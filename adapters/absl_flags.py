"""absl flags: options declared by ``flags.DEFINE_*`` and read as ``FLAGS.name``, given on the launch line
or in a ``--flagfile``.

w86763777/pytorch-ddpm @ its pinned commit ``main.py:19-53`` declares ``flags.DEFINE_integer('batch_size',
128, ...)`` and reads ``FLAGS.batch_size``; the README launches ``python main.py --train --flagfile
./config/CIFAR10.txt``, a file of one flag a line (``--batch_size=128``, ``--noparallel``). absl reads a
flag file's lines in place of the ``--flagfile`` word (a later flag wins), accepts ``--name=value`` and
``--name value`` for a valued flag, and ``--name`` / ``--noname`` for a boolean one
(absl/flags/_flagvalues.py ``read_flags_from_files``, ``_parse_args``).

Read (never run): ``DEFINE_string/integer/float/bool/boolean/enum`` with a literal name, and the default
when it is a literal; a ``--flagfile`` path relative to the working directory or the project root, read
with a size bound, ``#`` and ``//`` comment lines skipped, nested flag files followed to a small depth.
``DEFINE_multi_*`` and ``DEFINE_list`` are left out (lists)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from preflight.sources import read_text_limited

_KINDS = {"DEFINE_string": "", "DEFINE_integer": "int", "DEFINE_float": "float", "DEFINE_bool": "bool",
          "DEFINE_boolean": "bool", "DEFINE_enum": ""}
_MAX_BYTES = 200_000
_MAX_DEPTH = 3


def absl_define(call: ast.Call, fname: str, display: str, decl: Any, option: Callable[..., Any]) -> None:
    """One ``flags.DEFINE_*(name, default, ...)`` call as a declared option."""
    kind = _KINDS.get(fname)
    if kind is None or not call.args or not isinstance(call.args[0], ast.Constant) \
            or not isinstance(call.args[0].value, str):
        return
    name = call.args[0].value
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    node = call.args[1] if len(call.args) > 1 else kw.get("default")
    try:
        default = ast.literal_eval(node) if node is not None else None
        ok = node is not None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        default, ok = None, False
    helps = [call.args[2]] if len(call.args) > 2 and fname != "DEFINE_enum" else []
    helps += [kw["help"]] if "help" in kw else []
    help_text = next((h.value for h in helps if isinstance(h, ast.Constant) and isinstance(h.value, str)), "")
    decl.add(option(name, default, ok, kind == "bool", f"{display}:{call.lineno}", "absl", help=help_text,
                    kind=kind if kind in ("int", "float") else ""))
    if "absl" not in decl.parsers:
        decl.parsers.append("absl")


def _flagfile_words(path: Path, depth: int, bases: Sequence[Path]) -> Optional[list[str]]:
    try:
        text = read_text_limited(path, _MAX_BYTES, errors="replace")
    except (OSError, ValueError):
        return None
    words: list[str] = []
    for line in text.splitlines():
        word = line.strip()
        if not word or word.startswith("#") or word.startswith("//"):
            continue
        words.append(word)
    return _expand(words, depth + 1, bases)


def _expand(args: Sequence[str], depth: int, bases: Sequence[Path]) -> Optional[list[str]]:
    out: list[str] = []
    i = 0
    while i < len(args):
        tok = args[i]
        i += 1
        if tok in ("--flagfile", "-flagfile") and i < len(args):
            target: Optional[str] = args[i]
            i += 1
        elif tok.startswith(("--flagfile=", "-flagfile=")):
            target = tok.split("=", 1)[1]
        else:
            out.append(tok)
            continue
        if depth >= _MAX_DEPTH or not target:
            return None
        found = next((b / target for b in bases if (b / target).is_file()), None)
        inner = _flagfile_words(found, depth, bases) if found is not None else None
        if inner is None:
            return None  # a flag file not read: its flags are not known
        out.extend(inner)
    return out


def absl_args(args: Sequence[str], decl: Any, bases: Sequence[Path]) -> tuple[list[str], bool]:
    """The launch line's words as absl reads them (flag files in place, ``--noname`` of a declared boolean
    as ``--name=false``), and whether a flag file named there could not be read (then any flag may be
    set in it: no declared default may be taken). Unchanged when the job declares no absl flag."""
    if "absl" not in decl.parsers or not args:
        return list(args), False
    expanded = _expand(list(args), 0, bases)
    words = list(args) if expanded is None else expanded
    out: list[str] = []
    for tok in words:
        bare = tok.lstrip("-")
        if tok.startswith("-") and "=" not in bare and bare.startswith("no") and bare not in decl.options:
            opt = decl.options.get(bare[2:])
            if opt is not None and opt.origin == "absl" and opt.flag_only:
                out.append(f"--{bare[2:]}=false")
                continue
        out.append(tok)
    return out, expanded is None


def absl_flags_object(node: ast.AST, qualify: Callable[[Optional[str]], Optional[str]]) -> bool:
    """``flags.FLAGS`` (``from absl import flags``): the object the parsed flags are read from."""
    from preflight.analysis.syntax import dotted_name

    return isinstance(node, ast.Attribute) and qualify(dotted_name(node)) == "absl.flags.FLAGS"
