"""The depth guard (a file whose expressions nest deeper than MAX_AST_DEPTH is refused on every
Python version) finds a deep expression wherever it sits, though it now skips short statements
whole: in a decorator of a one-line def, deep in a class, in a multi-line call, in an except
handler, in a match case; and a long file of short statements passes."""

from __future__ import annotations

import sys

import pytest

from preflight.sources import MAX_AST_DEPTH, SourceText, parse_python

DEEP = "+".join(["a"] * (MAX_AST_DEPTH + 100))  # a sum nests one level per term; 3.11+ parse it
PLACES = {
    "statement": "x = {e}\n",
    "decorator": "@deco({e})\ndef f(): pass\n",
    "class": "class C:\n    def f(self):\n        if y:\n            z = ({e})\n",
    "multi-line call": "x = f(\n    1,\n    {e},\n)\n",
    "except handler": "try:\n    pass\nexcept E:\n    q = {e}\n",
    "one-line def": "def f(): return {e}\n",
}
if sys.version_info >= (3, 10):
    PLACES["match case"] = "match v:\n    case 1:\n        q = {e}\n"


def parse(text: str):
    return parse_python(SourceText(path=None, display="t.py", kind="python", raw=text.encode(), text=text))


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_deep_expression_is_refused_wherever_it_is(place):
    result = parse("import torch\n" * 3 + PLACES[place].format(e=DEEP))
    assert getattr(result, "message", "") == \
        f"cannot parse: expressions nested too deeply to parse (depth over {MAX_AST_DEPTH})"


def test_short_statements_and_a_shallow_long_expression_pass():
    shallow = "[" + ", ".join(str(i) for i in range(2000)) + "]"  # long, but two levels deep
    text = "x = 1\n" * 3000 + f"y = {shallow}\n" + "def f():\n" + "    z = (a + b) * c\n" * 500
    result = parse(text)
    assert not hasattr(result, "message") and len(result.tree.body) == 3002
