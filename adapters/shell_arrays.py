"""Bash arrays in a launch script: ``a=( ... )``, ``a+=( ... )`` and ``"${a[@]}"``, kept as written when an element is unknown."""

from __future__ import annotations

import re
import shlex
from typing import Mapping, Optional, Sequence

from preflight.adapters.shell_expand import expand
from preflight.adapters.shell_lex import split_value

_ARRAY_ASSIGN = re.compile(r"^(?:(?:declare|local|typeset|readonly)\s+(?:-\w+\s+)*)?([A-Za-z_][A-Za-z0-9_]*)(\+?)=\((.*)\)$")


_ARRAY_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}")


def _array_words(body: str, vars_: Mapping[str, str], empty: set[str], arrays: Mapping[str, Optional[list[str]]],
                 args: Sequence[str]) -> Optional[list[str]]:
    """The elements of ``( body )`` as bash makes them: a quoted word is one element, an
    unquoted one splits after expansion; ``"${other[@]}"`` gives that array's elements, ``$@``
    the script's arguments. None when an array it names is not known."""
    try:
        lex = shlex.shlex(body, posix=False)
        lex.whitespace_split = True
        lex.commenters = ""
        raw_words = list(lex)
    except ValueError:
        return None
    out: list[str] = []
    for word in raw_words:
        bare = word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'" else None
        inner = bare if bare is not None else word
        ref = _ARRAY_REF.fullmatch(inner)
        if ref:
            items = arrays.get(ref.group(1))
            if items is None:
                return None
            out.extend(items)
            continue
        if inner in ("$@", "${@}", "$*", "${*}"):
            out.extend(str(a) for a in args)
            continue
        if bare is not None and word[0] == "'":
            out.append(bare)
            continue
        value = expand(inner, dict(vars_), empty)
        if bare is not None:
            out.append(value)
        elif value != inner:
            out.extend(split_value(value))
        elif value:
            out.append(value)
    return out


def _assign_array(arrays: dict[str, Optional[list[str]]], vars_: Mapping[str, str], empty: set[str],
                  args: Sequence[str], m: re.Match, unknown: bool) -> None:
    """``NAME=( ... )`` / ``NAME+=( ... )``. Under a condition not known statically (``if``
    over a command's output, a ``for`` loop, after ``&&``): a first assignment is taken, a
    later one makes the elements unknown; an append of plain values (``base_arguments+=(
    $dataset/$domain )`` in a loop) is taken, one that holds options (``--fsdp``) makes them
    unknown: the launch line's options must then be unknown, never guessed."""
    name, plus, body = m.group(1), m.group(2), m.group(3)
    words = _array_words(body, vars_, empty, arrays, args)
    if plus:
        base = arrays.get(name, [vars_[name]] if vars_.get(name) else [])
        if base is None or words is None or (unknown and any(w.startswith("-") for w in words)):
            arrays[name] = None
        else:
            arrays[name] = [*base, *words]
        return
    if unknown and arrays.get(name):
        arrays[name] = None
        return
    arrays[name] = words


# ``IFS=',' read -ra GPULIST <<< "$gpu_list"`` (haotian-liu/LLaVA scripts/v1_5/eval/*.sh;
# williamconvertino/icl-for-language-modeling @ c230466 scripts/run.sh:49 ``IFS=',' read -ra DEVICE_LIST <<< "$DEVICES"``)
_READ_ARRAY = re.compile(r"""^IFS=(['"]?)([^'"\s])\1\s+read\s+((?:-[A-Za-z]+\s+)+)([A-Za-z_][A-Za-z0-9_]*)\s*<<<\s*(.+)$""")


_ARRAY_LEN = re.compile(r"\$\{#([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}")


def read_array(part: str, arrays: dict[str, Optional[list[str]]], vars_: Mapping[str, str], empty: set[str],
               unknown: bool) -> bool:
    """``IFS=SEP read -ra NAME <<< WORD``: NAME is WORD split at SEP (bash drops one trailing empty field);
    its elements unknown when WORD does not expand to a known value or the line sits under a condition
    not known statically. False when ``part`` is not such a line."""
    m = _READ_ARRAY.match(part.strip())
    if not m or "a" not in m.group(3).replace("-", "").replace(" ", ""):
        return False
    sep, name, word = m.group(2), m.group(4), m.group(5).strip()
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
        word = word[1:-1] if word[0] == '"' else word
    value = expand(word, dict(vars_), empty) if not word.startswith("'") else word[1:-1]
    if unknown or "$" in value or "`" in value:
        arrays[name] = None
        return True
    items = value.split(sep) if value else []
    if items and items[-1] == "":
        items = items[:-1]
    arrays[name] = items
    return True


def _join_arrays(text: str, arrays: Mapping[str, Optional[list[str]]]) -> str:
    """``... ${ARGS[@]} ...`` inside a string: the known array's elements joined (quoted where
    a word needs it, so that ``eval`` splits them back); an unknown array kept as written."""
    def one(m: re.Match) -> str:
        items = arrays.get(m.group(1))
        return m.group(0) if items is None else " ".join(shlex.quote(i) for i in items)

    def count(m: re.Match) -> str:  # ``NUM="${#LIST[@]}"``: a known array's length
        items = arrays.get(m.group(1))
        return m.group(0) if items is None else str(len(items))

    if "[" not in text:
        return text
    return _ARRAY_REF.sub(one, _ARRAY_LEN.sub(count, text))
