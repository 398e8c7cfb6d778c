"""Lexing a launch script: logical lines (continuations, open quotes, open arrays), comments, the first command and its words."""

from __future__ import annotations

import re
import shlex
from typing import Iterator, Optional, Sequence

from preflight.adapters.shell_expand import _arith_end

_PREFIXES = ("nohup", "exec", "time", "command")


_RUNNERS = ("uv", "poetry", "pipenv", "pdm", "rye", "hatch", "pixi")


_QUOTED_ASSIGN = re.compile(r"""^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=["']""")


_MAX_QUOTED_LINES = 100


class Unquoted:
    """The positions of the characters of ``text`` that stand outside quotes, in order: the
    one scanner of the launch-script lexer. Quote characters themselves are not yielded; with
    ``escapes`` a backslash outside single quotes hides the next character. ``quote`` is the
    quote still open where the scan stopped; ``seek(j)`` makes the scan go on at ``j`` (a
    consumer that read a two-character operator or a word skips it)."""

    __slots__ = ("escapes", "pos", "quote", "text")

    def __init__(self, text: str, escapes: bool = True) -> None:
        self.text = text
        self.escapes = escapes
        self.quote = ""
        self.pos = 0

    def __iter__(self) -> Iterator[int]:
        text = self.text
        while self.pos < len(text):
            k = self.pos
            ch = text[k]
            if self.escapes and ch == "\\" and self.quote != "'":
                self.pos = k + 2
                continue
            self.pos = k + 1
            if self.quote:
                if ch == self.quote:
                    self.quote = ""
            elif ch in ("'", '"'):
                self.quote = ch
            else:
                yield k

    def seek(self, pos: int) -> None:
        self.pos = pos


def _comment_at(text: str, k: int) -> bool:
    return text[k] == "#" and (k == 0 or text[k - 1].isspace())


def _open_quote(text: str) -> str:
    """The quote character still open at the end of ``text`` ("" when none): backslash
    escapes outside single quotes, and a ``#`` comment outside quotes ends the scan."""
    scan = Unquoted(text)
    for k in scan:
        if _comment_at(text, k):
            break
    return scan.quote


_ARRAY_OPEN = re.compile(r"^\s*(?:(?:declare|local|typeset|readonly)\s+(?:-\w+\s+)*)?[A-Za-z_][A-Za-z0-9_]*\+?=\(")


def _open_paren(text: str) -> bool:
    """Whether a ``NAME=( ...`` array is still open at the end of ``text`` (parentheses
    outside quotes, ``$(...)`` counted too)."""
    level = 0
    for k in Unquoted(text):
        if text[k] == "(":
            level += 1
        elif text[k] == ")":
            level -= 1
    return level > 0


def _subst_end(text: str, k: int) -> int:
    """The index just past the command substitution that starts at ``k`` (``$(...)`` with its
    parentheses balanced and quotes inside it honoured, or a backquoted ``...``), or -1 when it
    is not closed on the line."""
    if text[k] == "`":
        j = k + 1
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "`":
                return j + 1
            j += 1
        return -1
    depth = 1
    quote = ""
    j = k + 2
    while j < len(text):
        c = text[j]
        if c == "\\" and quote != "'":
            j += 2
            continue
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def _arith_spans(text: str, subst: bool = True) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of the ``$((...))`` expansions and the command substitutions
    (``$(...)``, backquotes) of ``text`` that stand outside quotes. An arithmetic result is one
    number, never split into words, whatever spaces the expression holds; a substitution's
    output is not known here and is kept as one word, its ``|`` and spaces inside it
    (ShareGPT4Omni/ShareGPT4Video ``scripts/train/8b/lora_finetune_153k.sh:30`` @ 7e02ee6:
    ``torchrun ... --master_addr $(scontrol show hostname $SLURM_NODELIST | head -n1) ...``
    inside ``srun ... bash -c '...'``)."""
    spans: list[tuple[int, int]] = []
    scan = Unquoted(text)
    for k in scan:
        if text.startswith("$((", k):
            end = _arith_end(text, k)
        elif subst and (text.startswith("$(", k) or text[k] == "`"):
            end = _subst_end(text, k)
        else:
            continue
        if end > 0:
            spans.append((k, end))
            scan.seek(end)
    return spans


def _protect_arith(text: str, subst: bool = True) -> tuple[str, list[str]]:
    held: list[str] = []
    out: list[str] = []
    pos = 0
    for a, b in _arith_spans(text, subst):
        if a < pos:
            continue
        out.append(text[pos:a])
        out.append(f"\x00{len(held)}\x00")
        held.append(text[a:b])
        pos = b
    out.append(text[pos:])
    return "".join(out), held


def _restore_arith(word: str, held: Sequence[str]) -> str:
    return re.sub("\x00(\\d+)\x00", lambda m: held[int(m.group(1))], word) if held else word


def shell_words(text: str, subst: bool = True) -> list[str]:
    """``shlex.split`` that keeps a ``$((...))`` expansion inside its word: bash splits the
    expansion's result (a number), not the spaces of the expression. ``deepspeed
    --master_port=$((10000 + RANDOM % 20000)) finetune.py`` is three words, not six
    (WisdomShell/codeshell ``finetune/run_finetune.sh:17-19`` @ 09d1adc, where ``+`` was read as
    the script). A command substitution is one word too (``subst``; an assignment's value, read
    without it, keeps a substitution with spaces unknown). Raises ValueError like shlex."""
    protected, held = _protect_arith(text, subst)
    return [_restore_arith(w, held) for w in shlex.split(protected)]


def split_value(value: str) -> list[str]:
    """An unquoted variable's value split into words at whitespace, a ``$((...))`` left
    unevaluated (its names not known) kept whole: ``$deepspeed_args`` holding
    ``--master_port=$((10000 + RANDOM % 20000))`` is one word; NVIDIA/Megatron-LM
    ``examples/post_training/modelopt/conf/arguments.sh:86`` ``LAUNCH_SCRIPT="torchrun
    --nproc_per_node=$((ETP * EP * PP * CP * DP))"`` two."""
    if "$((" not in value:
        return value.split()
    held: list[str] = []
    out: list[str] = []
    pos = 0
    k = value.find("$((")
    while k >= 0:
        end = _arith_end(value, k)
        if end < 0:
            break
        out.append(value[pos:k])
        out.append(f"\x00{len(held)}\x00")
        held.append(value[k:end])
        pos = end
        k = value.find("$((", pos)
    out.append(value[pos:])
    return [_restore_arith(w, held) for w in "".join(out).split()]


def logical_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """Join backslash-continued lines: (first line number, joined text). An assignment whose
    quoted value spans lines (``ARGS="`` newline ``--nproc_per_node 8 \\`` ... ``"``, as in
    Qwen's and MiniCPM's launch scripts) is one logical line too (at most 100 lines)."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    quoted = 0  # lines joined because a quoted assignment value is still open
    for n, raw in enumerate(lines, 1):
        if not buf:
            start = n
        stripped = raw.rstrip()
        if stripped.endswith("\\") and not stripped.lstrip().startswith("#"):
            buf.append(stripped[:-1])
            continue
        buf.append(raw)
        if _ARRAY_OPEN.match(buf[0]) and quoted < _MAX_QUOTED_LINES:
            # `args=(` newline `--a 1  # why` ... `)`: one logical line, each line's comment cut
            joined = " ".join(_strip_comment(b.strip()) for b in buf)
            if n < len(lines) and _open_paren(joined):
                quoted += 1
                continue
            out.append((start, joined))
            buf = []
            quoted = 0
            continue
        joined = " ".join(b.strip() for b in buf)
        if (_QUOTED_ASSIGN.match(buf[0]) and quoted < _MAX_QUOTED_LINES and n < len(lines)
                and _open_quote(joined)):
            quoted += 1
            continue
        out.append((start, joined))
        buf = []
        quoted = 0
    if buf:
        out.append((start, " ".join(b.strip() for b in buf)))
    return out


def _strip_comment(text: str) -> str:
    """Remove a ``# comment`` that is not inside quotes (``$#`` and ``${#x}`` are kept)."""
    for k in Unquoted(text, escapes=False):
        if _comment_at(text, k):
            return text[:k].rstrip()
    return text


def _first_command(text: str) -> str:
    """The first simple command of a line: cut at unquoted ``&&``, ``||``, ``;``, ``|`` and
    redirections (``> log 2>&1``); a command substitution (``$(a | b)``) is not cut."""
    scan = Unquoted(text, escapes=False)
    for k in scan:
        ch = text[k]
        if text.startswith("$(", k) or ch == "`":
            end = _subst_end(text, k) if not text.startswith("$((", k) else _arith_end(text, k)
            if end > 0:
                scan.seek(end)
                continue
        if ch in ";|" or text.startswith("&&", k) or ch in "<>" or (ch.isdigit() and text[k + 1:k + 2] == ">" and (k == 0 or text[k - 1].isspace())) or (ch == "&" and text[k + 1:k + 2] == ">"):
            return text[:k].strip()
    return text.strip().rstrip("&").strip()


def command_tokens(text: str) -> Optional[list[str]]:
    """The tokens of a shell command line as written (no expansion), or None when it is
    not a simple command (the gate's view of a launch line)."""
    text = _first_command(_strip_comment(text))
    if not text:
        return None
    while True:
        head = text.split(None, 1)
        if head and head[0].rsplit("/", 1)[-1] in _PREFIXES and len(head) > 1:
            text = head[1]
            if head[0].rsplit("/", 1)[-1] == "time":  # `/usr/bin/time -v python ...`: time's own options
                while text.startswith("-"):
                    opt = text.split(None, 1)
                    text = opt[1] if len(opt) > 1 else ""
            continue
        two = text.split(None, 2)
        if len(two) == 3 and two[0] in _RUNNERS and two[1] == "run":
            text = two[2]  # `uv run python train.py`: the environment manager runs the command
            continue
        break
    try:
        return shell_words(text)
    except ValueError:
        return None
