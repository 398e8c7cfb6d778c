"""Compound ``if``/``elif`` tests of a launch script: ``elif [[ $MODEL = llama ]] || [[ $MODEL = llama2 ]];
then`` (epfLLM/Megatron-LLM @ 806a833 ``examples/finetune.sh:116``). :func:`line_parts` cuts a line at
``||``/``&&``, so the head ``elif [[ $MODEL = llama ]]`` alone would decide the branch; here the test
parts that follow the head are joined back to it with their operators and evaluated together, left
to right as bash does (``&&`` and ``||`` bind equally), with three values: a part that is not known
(None) leaves the whole unknown unless the known parts decide it."""

from __future__ import annotations

import re
from typing import Callable, Mapping, Optional

_HEAD = re.compile(r"^(?:if|elif)\s")
_TEST_WORD = re.compile(r"^(?:\[\[?|test\b)")


def join_test_parts(parts: list[tuple[str, bool]], text: str) -> list[tuple[str, bool]]:
    """``parts`` of ``text`` (from ``line_parts``) with an ``if``/``elif`` head and the guarded test
    parts after it (``[[ .. ]]``/``[ .. ]``/``test ..`` after ``||``/``&&``) made one part, the
    operators kept: ``("elif [[ a ]] || [[ b ]]", False)``."""
    out: list[tuple[str, bool]] = []
    pos = 0
    k = 0
    while k < len(parts):
        part, guarded = parts[k]
        at = text.find(part, pos)
        pos = at + len(part) if at >= 0 else pos
        if not _HEAD.match(part) or at < 0:
            out.append((part, guarded))
            k += 1
            continue
        joined = part
        while k + 1 < len(parts) and parts[k + 1][1] and _TEST_WORD.match(parts[k + 1][0]):
            nxt = parts[k + 1][0]
            found = text.find(nxt, pos)
            between = text[pos:found].strip() if found >= 0 else ""
            if between not in ("||", "&&"):
                break
            joined = f"{joined} {between} {nxt}"
            pos = found + len(nxt)
            k += 1
        out.append((joined, guarded))
        k += 1
    return out


def compound_condition(part: str, single: Callable[[str, Mapping[str, str], set[str]], Optional[bool]],
                       vars_: Mapping[str, str], empty: set[str]) -> Optional[bool]:
    """The value of a head joined by :func:`join_test_parts`: each test by ``single`` (the reader's
    simple test), combined left to right; a head without operators is ``single``'s answer."""
    pieces = re.split(r"\s(\|\||&&)\s", part)
    if len(pieces) == 1:
        return single(part, vars_, empty)
    head = part.split(None, 1)[0]
    value = single(pieces[0], vars_, empty)
    for k in range(1, len(pieces) - 1, 2):
        op, test = pieces[k], single(f"{head} {pieces[k + 1]}", vars_, empty)
        if op == "||":
            value = True if value is True or test is True else (False if value is False and test is False
                                                                else None)
        else:
            value = False if value is False or test is False else (True if value is True and test is True
                                                                  else None)
    return value
