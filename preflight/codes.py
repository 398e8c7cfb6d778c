"""Rule codes as users name them: one meaning of a code selector, one order of codes.

A rule code is letters and three or four digits (``PF101``, ``PF1000``). Everywhere a user
names codes (``--select``/``--ignore``, ``[tool.preflight]`` select/ignore/per-file-ignores,
``# noqa: ...``, ``# preflight: ignore[...]``, the editor's actions) a token means:

* a complete code (letters and three or four digits) -- that code only: ``PF100`` is PF100,
  never PF1000-PF1009;
* anything shorter -- a prefix: ``PF1`` is every code starting PF1 (PF100-PF199 and
  PF1000-PF1999), ``PF10`` is PF100-PF109 and PF1000-PF1099, ``PF`` every preflight code.

Codes sort by their number, not as text: PF999 before PF1000.
"""

from __future__ import annotations

import re
from typing import Iterable

_FULL_RE = re.compile(r"^[A-Z]{1,4}[0-9]{3,4}$")
_SPLIT_RE = re.compile(r"^([A-Z]*)([0-9]*)(.*)$")


def is_full_code(token: str) -> bool:
    """Whether ``token`` (any case) is a complete rule code rather than a prefix."""
    return _FULL_RE.match(token.upper()) is not None


def code_matches(code: str, selector: str) -> bool:
    """Whether ``selector`` (a complete code or a prefix, any case; not ``ALL``) names ``code``."""
    sel = selector.upper()
    if is_full_code(sel):
        return code.upper() == sel
    return code.upper().startswith(sel)


def matching_codes(selector: str, codes: Iterable[str]) -> list[str]:
    """The codes of ``codes`` that ``selector`` names, in the order given."""
    return [c for c in codes if code_matches(c, selector)]


def code_sort_key(code: str) -> tuple[str, int, str]:
    """Numeric order: (letters, number, anything after): PF999 < PF1000."""
    m = _SPLIT_RE.match(code)
    assert m is not None  # the pattern matches every string
    letters, digits, rest = m.groups()
    return (letters, int(digits) if digits else -1, rest)


def sorted_codes(codes: Iterable[str]) -> list[str]:
    """``codes`` in numeric order."""
    return sorted(codes, key=code_sort_key)
