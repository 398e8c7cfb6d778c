"""Expanding a launch script's words without running anything: variables with their defaults, the script's own directory, integer arithmetic."""

from __future__ import annotations

import ast
import operator
import posixpath
import re
from typing import Optional

_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+)(?:(:?[-=+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*|[0-9]))")


# the script's own directory: `$(dirname "$0")`, `` `dirname $0` ``, `$(dirname ${BASH_SOURCE[0]})`,
# `$(cd "$(dirname "$0")" && pwd)` (OpenMMLab ``tools/dist_train.sh``: `$(dirname "$0")/train.py`)
_DIRNAME = r"""dirname\s+(?:--\s+)?["']?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?["']?"""


_DIRNAME_SUB = r"(?:\$\(\s*" + _DIRNAME + r"\s*\)|`\s*" + _DIRNAME + r"\s*`)"


_SELF_DIR = re.compile(r"""\$\(\s*cd\s+(?:--\s+)?["']?""" + _DIRNAME_SUB
                       + r"""["']?\s*(?:&>\s*/dev/null\s*)?(?:&&|;)\s*pwd(?:\s+-P)?\s*\)|""" + _DIRNAME_SUB)


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.floordiv, ast.Mod: operator.mod}


def _arith(expr: str) -> Optional[int]:
    if not re.fullmatch(r"[0-9+\-*/% ()]+", expr) or len(expr) > 200:
        return None
    try:
        node = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        return None

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            right = ev(n.right)
            if isinstance(n.op, (ast.FloorDiv, ast.Div, ast.Mod)) and right == 0:
                raise ValueError
            return _OPS[type(n.op)](ev(n.left), right)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        raise ValueError

    try:
        value = ev(node)
    except (ValueError, RecursionError):
        return None
    return value if abs(value) < 10 ** 12 else None


def expand(text: str, env: dict[str, str], known: Optional[set[str]] = None) -> str:
    """Expand variables of ``text`` with ``env``; an unknown variable is kept as written.
    ``known`` names variables whose value is known to be empty (positional parameters not
    given), so ``${1:-3}`` is 3 and ``$1`` is empty."""
    known = known or set()

    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(4)
        op, word = m.group(2), m.group(3)
        have = name in env
        value = env.get(name, "")
        empty_known = not have and name in known
        if op is None:
            return value if have else ("" if empty_known else m.group(0))
        word = expand(word or "", env, known)
        if op in (":-", ":="):
            if (have and value) :
                return value
            if have or empty_known or op == ":=":
                if op == ":=":
                    env[name] = word
                return word
            return word  # unset: the default applies
        if op in ("-", "="):
            if have:
                return value
            if op == "=":
                env[name] = word
            return word
        if op in (":+", "+"):
            return word if (have and (value or op == "+")) else ("" if (have or empty_known) else m.group(0))
        return m.group(0)

    if "dirname" in text and env.get("0"):
        here = posixpath.dirname(env["0"]) or "."
        text = _SELF_DIR.sub(lambda m: here, text)
    out = _VAR.sub(one, text)

    return _expand_arith(out, env)


def _arith_end(text: str, start: int) -> int:
    """The index just past the ``))`` closing the ``$((`` at ``start``, or -1: parentheses inside
    are balanced (``$((GLOBAL / (PER_DEVICE * GPUS)))``, 2U1/Qwen2-VL-Finetune
    scripts/finetune_lora.sh:14)."""
    depth = 0
    i = start + 3
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i + 2 if text.startswith("))", i) else -1
            depth -= 1
        elif c == "$" and text.startswith("$((", i):
            return -1  # nested arithmetic: left as written
        i += 1
    return -1


_OLD_ARITH = re.compile(r"\$\[([^\[\]$]*)\]")


def _expand_old_arith(text: str, env: dict[str, str]) -> str:
    """bash's older ``$[expr]`` arithmetic, innermost first (magic-research/PLLaVA @ 6f49fd2
    ``scripts/train_pllava_7b.sh:15-17``: ``gradient_accumulation_steps=$[$full_batch_size/($batch_size*$num_gpus)]``,
    ``ckpt_steps=$[$save_steps/10]``); one whose value is not known is kept as written."""
    def one(m: re.Match) -> str:
        inner = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", lambda v: env.get(v.group(1), v.group(1)), m.group(1))
        value = _arith(inner)
        return str(value) if value is not None else m.group(0)

    for _ in range(8):
        new = _OLD_ARITH.sub(one, text)
        if new == text:
            break
        text = new
    return text


def _expand_arith(text: str, env: dict[str, str]) -> str:
    """``$((expr))`` over known integers (names looked up in ``env``, as bash does without ``$``);
    one whose value is not known is kept as written."""
    if "$[" in text:
        text = _expand_old_arith(text, env)
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("$((", pos)
        if start < 0:
            out.append(text[pos:])
            return "".join(out)
        end = _arith_end(text, start)
        if end < 0:
            out.append(text[pos:start + 3])
            pos = start + 3
            continue
        inner = re.sub(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", lambda v: env.get(v.group(1), v.group(1)),
                       text[start + 3:end - 2])
        value = _arith(inner)
        out.append(text[pos:start])
        out.append(str(value) if value is not None else text[start:end])
        pos = end
