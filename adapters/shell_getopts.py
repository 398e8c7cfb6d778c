"""A launch script's ``while getopts OPTSTRING VAR; do case $VAR in ... esac; done`` loop,
evaluated over the script's own arguments (nothing is run).

Pointcept ``scripts/train.sh`` @ d74c646:19-47, run ``sh scripts/train.sh -g 4 -d scannet -c
semseg-pt-v3m1-0-base -n semseg-pt-v3m1-0-base`` (README.md:760): ``while getopts
"p:d:c:n:w:g:m:r:" opt; do case $opt in ... g) NUM_GPU=$OPTARG ;; ... esac; done``; the
options set the variables the launch line uses (``--num-gpus "$NUM_GPU"``).

POSIX ``getopts`` semantics: options are read from the first argument until the first one that
is not an option (or ``--``); ``-abc`` holds several letters; a letter followed by ``:`` in the
option string takes a value, the rest of its word or the next argument; an unknown letter runs
the ``\\?`` (or ``*``) arm. Only plain assignments in the arms are read (``NAME=$OPTARG``,
``NAME=value``, ``export NAME=...``); anything else an arm does is not followed.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Optional, Sequence

from preflight._record import dataclass, field

_WHILE = re.compile(r"""^while\s+getopts\s+(?:"([^"]*)"|'([^']*)'|(\S+))\s+([A-Za-z_]\w*)\b.*$""")
_CASE = re.compile(r"""^case\s+["']?\$\{?([A-Za-z_]\w*)\}?["']?\s+in\b(.*)$""", re.S)
_ARM = re.compile(r"^\(?\s*((?:\\.|[^)\\])*)\)\s*(.*)$", re.S)
_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_]\w*)=(.*)$")
_OPENS = re.compile(r"^(while|until|for|select)\b")
_MAX_ARGS = 200


@dataclass
class GetoptsLoop:
    """One ``while getopts`` loop: its logical lines ``start``..``end`` (the ``done``), the
    option string, and per arm its patterns and assignments (name, raw value)."""

    start: int
    end: int
    optstring: str
    arms: list[tuple[list[str], list[tuple[str, str]]]] = field(default_factory=list)


def find_loops(logical: Sequence[tuple[int, str]]) -> list[GetoptsLoop]:
    """Every ``while getopts`` loop of the script's logical lines (first line number, text)
    whose body is one ``case`` over the option variable."""
    out: list[GetoptsLoop] = []
    k = 0
    while k < len(logical):
        n, text = logical[k]
        m = _WHILE.match(text.strip())
        if not m:
            k += 1
            continue
        optstring = next(g for g in (m.group(1), m.group(2), m.group(3)) if g is not None)
        var = m.group(4)
        depth, j, body = 1, k + 1, []
        while j < len(logical):
            line = logical[j][1].strip()
            first = line.split(None, 1)[0] if line else ""
            if _OPENS.match(line):
                depth += 1
            if first == "done" or line.endswith(("; done", ";done")):
                depth -= 1
                if depth == 0:
                    break
            body.append(line)
            j += 1
        if j >= len(logical):
            break
        loop = _parse_case(body, var)
        if loop is not None:
            out.append(GetoptsLoop(n, logical[j][0], optstring, loop))
        k = j + 1
    return out


def _parse_case(body: list[str], var: str) -> Optional[list[tuple[list[str], list[tuple[str, str]]]]]:
    text = "\n".join(b for b in body if b and not b.startswith("#"))
    text = re.sub(r"^do\b\s*", "", text.strip())
    m = _CASE.match(text)
    if not m or m.group(1) != var:
        return None
    rest = m.group(2)
    esac = rest.rfind("esac")
    if esac < 0:
        return None
    arms: list[tuple[list[str], list[tuple[str, str]]]] = []
    for chunk in rest[:esac].split(";;"):
        chunk = chunk.strip()
        if not chunk:
            continue
        a = _ARM.match(chunk)
        if not a:
            continue
        patterns = [p.strip() for p in a.group(1).split("|")]
        assigns: list[tuple[str, str]] = []
        for stmt in re.split(r"[\n;]", a.group(2)):
            s = _ASSIGN.match(stmt.strip())
            if s:
                assigns.append((s.group(1), s.group(2).strip()))
        arms.append((patterns, assigns))
    return arms


def evaluate(loop: GetoptsLoop, args: Sequence[str]) -> tuple[list[tuple[str, str, str]], int, list[str]]:
    """The assignments the loop makes over ``args``, in order: (name, raw value, OPTARG);
    the ``OPTIND`` after the loop (the first operand's index, from 1); notes on what was not read."""
    spec = loop.optstring.lstrip(":")
    takes = {spec[i]: i + 1 < len(spec) and spec[i + 1] == ":" for i in range(len(spec)) if spec[i] != ":"}
    made: list[tuple[str, str, str]] = []
    notes: list[str] = []
    i = 0
    argv = list(args)[:_MAX_ARGS]
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        i += 1
        k = 1
        while k < len(word):
            letter = word[k]
            k += 1
            optarg = ""
            if letter not in takes:
                letter = "?"
            elif takes[letter]:
                if k < len(word):
                    optarg, k = word[k:], len(word)
                elif i < len(argv):
                    optarg, i = argv[i], i + 1
                else:
                    notes.append(f"getopts: -{letter} needs a value and none follows")
                    letter = "?"
            arm = next((a for a in loop.arms if any(_matches(p, letter) for p in a[0])), None)
            if arm is None:
                continue
            made.extend((name, raw, optarg) for name, raw in arm[1])
    return made, i + 1, notes


def _matches(pattern: str, letter: str) -> bool:
    """A ``case`` pattern against the option letter: ``\\?`` and a quoted ``'?'`` are a literal
    ``?`` (an unknown option), a bare ``?`` or ``*`` matches any letter."""
    if pattern in ("\\?", "'?'", '"?"'):
        return letter == "?"
    if pattern in ("*", "?"):
        return True
    return pattern.strip("'\"") == letter


def getopts_loops(text: str, logical: Sequence[tuple[int, str]]) -> dict[int, GetoptsLoop]:
    """The script's ``while getopts`` loops by first line number (none without the word)."""
    if "getopts" not in text:
        return {}
    return {loop.start: loop for loop in find_loops(logical)}


def apply_getopts(script: Any, loop: GetoptsLoop, args: Sequence[str], vars_: dict[str, str],
                  empty: set[str]) -> int:
    """Set the variables the loop sets over ``args`` (``OPTARG`` substituted) and ``OPTIND``;
    a note on the script; returns the loop's last line (the reader skips to after it)."""
    from preflight.adapters.shell import expand

    made, optind, notes = evaluate(loop, args)
    for name, raw, optarg in made:
        vars_["OPTARG"] = optarg
        try:
            words = shlex.split(raw) if raw.strip() else [""]
        except ValueError:
            words = [raw]
        vars_[name] = expand(words[0] if words else "", vars_, empty)
    vars_.pop("OPTARG", None)
    vars_["OPTIND"] = str(optind)
    shown = ", ".join(f"{name}={vars_.get(name, '')}" for name in dict.fromkeys(n for n, _, _ in made))
    script.notes.append(f"{script.path}:{loop.start}: getopts \"{loop.optstring}\" over the script's arguments "
                        f"sets {shown or 'nothing'}")
    script.notes.extend(f"{script.path}:{loop.start}: {n}" for n in notes)
    return loop.end
