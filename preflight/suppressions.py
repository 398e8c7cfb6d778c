"""What a suppression comment means: ``# noqa``, ``# noqa: PF101``, ``# preflight: ignore[PF101]``.

Finding the comments is :mod:`preflight.sources`' job; this module only interprets one
comment's text against the known rule codes, so the two can change independently.

* ``# noqa`` and ``# preflight: ignore`` (no codes) silence every rule on the line.
* ``# noqa: PF101, E501`` silences PF101 only (never PF1010-PF1019: a complete code names one
  rule), and PF1 would silence every code starting PF1 (see :mod:`preflight.codes`). Codes of
  other tools (``E501``, ``F401``: a letter prefix no preflight rule uses) are left alone.
* A code with a preflight prefix that names no rule (``PF1O1``, a letter O for a zero) is
  *invalid*: it silences nothing (a typo never widens to a bare ``noqa``) and is reported
  (PF901). In ``# preflight: ignore[...]`` every code is preflight's, so any unknown one is
  invalid.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Optional

from preflight.codes import code_matches

_NOQA_RE = re.compile(r"#\s*noqa\b(?P<colon>\s*:\s*(?P<codes>[A-Za-z]+[0-9][A-Za-z0-9]*"
                      r"(?:(?:\s*,\s*|\s+)[A-Za-z]+[0-9][A-Za-z0-9]*)*))?", re.I)
_IGNORE_RE = re.compile(r"#\s*preflight:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)
_PREFIX_RE = re.compile(r"^[A-Z]+")


class Suppression(NamedTuple):
    """One comment's meaning: ``codes`` None silences every rule, else the codes and prefixes
    it silences; ``invalid`` the preflight-looking codes that name no rule, as written;
    ``kind`` ``noqa`` or ``ignore``."""

    kind: str
    codes: Optional[frozenset[str]]
    invalid: tuple[str, ...]


def interpret(comment: str, known: Iterable[str]) -> Optional[Suppression]:
    """The suppression ``comment`` holds, or None when it is not one.

    ``known`` is every registered rule code; a code is valid when it is one of them or a
    prefix of one (``PF1``); a complete code (``PF100``) is never a prefix of a longer one.
    """
    m = _IGNORE_RE.search(comment)
    if m:
        kind, raw, ours_only = "ignore", m.group("codes"), True
    else:
        m = _NOQA_RE.search(comment)
        if not m:
            return None
        kind, raw, ours_only = "noqa", m.group("codes"), False
    tokens = [t for t in re.split(r"[\s,]+", raw or "") if t]
    if not tokens:
        return Suppression(kind, None, ())
    known = tuple(known)
    prefixes = {p.group(0) for p in map(_PREFIX_RE.match, known) if p}
    codes: set[str] = set()
    invalid: list[str] = []
    for token in tokens:
        code = token.upper()
        if any(code_matches(k, code) for k in known):
            codes.add(code)
            continue
        letters = _PREFIX_RE.match(code)
        if ours_only or (letters is not None and letters.group(0) in prefixes):
            invalid.append(token)
    return Suppression(kind, frozenset(codes), tuple(invalid))


def silences(suppression: Optional[Suppression], code: str) -> Optional[str]:
    """The code or prefix of ``suppression`` that silences ``code`` ('' for a bare one), or
    None when it does not."""
    if suppression is None:
        return None
    if suppression.codes is None:
        return ""
    return next((c for c in sorted(suppression.codes, key=len, reverse=True) if code_matches(code, c)),
                None)


def with_code_disabled(line: str, code: str) -> Optional[str]:
    """``line`` with ``code`` added to its ``# noqa`` comment, or a ``# noqa: CODE`` comment
    appended; None when the line already silences it. For the editor's "disable CODE for
    this line" action. (A ``#`` inside a string on the line only makes the comment longer:
    the appended one is still the last comment.)"""
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    m = _NOQA_RE.search(body)
    if m is not None and "#" in body[:m.start() + 1]:
        codes = m.group("codes")
        if codes is None:
            return None  # a bare noqa silences every rule already
        if any(code_matches(code, c) for c in re.split(r"[\s,]+", codes) if c):
            return None
        end = m.end("codes")
        return body[:end] + f", {code}" + body[end:] + ending
    return body.rstrip() + f"  # noqa: {code}" + ending
