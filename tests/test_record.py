"""preflight._record behaves like the standard library's dataclasses for the subset it supports."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from typing import ClassVar, Optional

import pytest

from preflight import _record


def _pair(frozen: bool = False, eq: bool = True):
    """The same class declared with the standard library and with _record."""
    made = []
    for dc, fld in ((dataclasses.dataclass, dataclasses.field), (_record._dataclass, _record._field)):
        @dc(frozen=frozen, eq=eq)
        class Point:
            kind: ClassVar[str] = "point"
            x: int
            y: int = 0
            tags: list = fld(default_factory=list)
            note: Optional[str] = fld(default=None, compare=False, repr=False)

        made.append(Point)
    return made


@pytest.mark.parametrize("frozen", [False, True])
@pytest.mark.parametrize("eq", [False, True])
def test_same_behaviour_as_the_standard_library(frozen: bool, eq: bool) -> None:
    std, ours = _pair(frozen, eq)
    for cls in (std, ours):
        a, b = cls(1), cls(1, 0, [], "other")
        assert (a.x, a.y, a.tags, a.note) == (1, 0, [], None)
        assert cls(x=2, y=3).y == 3
        assert cls.kind == "point"
        assert repr(cls(1, 2)).endswith("Point(x=1, y=2, tags=[])")
        assert (a == b) is eq  # note is not compared
        assert cls(1).tags is not cls(1).tags
    assert (std.__hash__ is None) == (ours.__hash__ is None)
    if eq and frozen:  # the hash covers the compared fields, so the list makes it fail in both
        for cls in (std, ours):
            with pytest.raises(TypeError, match="unhashable"):
                hash(cls(1, 2))
    if not eq:
        a = ours(1)
        assert hash(a) == object.__hash__(a)


@pytest.mark.parametrize("call", [(), (1, 2, [], None, 5)])
def test_bad_calls_raise_type_error_like_the_standard_library(call: tuple) -> None:
    std, ours = _pair()
    for cls in (std, ours):
        with pytest.raises(TypeError):
            cls(*call)
    for cls in (std, ours):
        with pytest.raises(TypeError):
            cls(1, z=3)
        with pytest.raises(TypeError):
            cls(1, x=1)


def test_frozen_refuses_assignment_and_deletion() -> None:
    _, ours = _pair(frozen=True)
    p = ours(1)
    with pytest.raises(dataclasses.FrozenInstanceError if False else AttributeError):
        p.x = 2
    with pytest.raises(AttributeError):
        del p.y
    assert p.x == 1


def test_inheritance_post_init_and_pickle() -> None:
    @_record._dataclass(frozen=True)
    class Base:
        a: int
        b: int = 2

    @_record._dataclass(frozen=True)
    class Child(Base):
        c: int = 3

        def __post_init__(self) -> None:
            object.__setattr__(self, "total", self.a + self.b + self.c)

    child = Child(1, c=10)
    assert (child.a, child.b, child.c, child.total) == (1, 2, 10, 13)
    assert repr(child).endswith("Child(a=1, b=2, c=10)")
    assert child == Child(1, 2, 10) and child != Base(1, 2)
    assert hash(child) == hash(Child(1, 2, 10)) and hash(child) != hash(Child(1, 2, 11))
    globals()["Child"] = Child  # pickle finds classes by qualified name
    Child.__qualname__ = "Child"
    try:
        assert pickle.loads(pickle.dumps(child)) == child
    finally:
        del globals()["Child"]


def test_declaration_errors_match_the_standard_library() -> None:
    with pytest.raises(TypeError):
        @_record._dataclass
        class Bad:
            a: int = 1
            b: int
    with pytest.raises(ValueError):
        @_record._dataclass
        class Mutable:
            a: list = []  # noqa: RUF012
    with pytest.raises(TypeError):
        _record._dataclass(order=True)


def test_recursive_repr_terminates() -> None:
    @_record._dataclass(eq=False)
    class Node:
        child: Optional[object] = None

    n = Node()
    n.child = n
    assert repr(n).endswith("Node(child=...)")


def test_check_path_does_not_import_dataclasses_or_inspect(tmp_path) -> None:
    target = tmp_path / "train.py"
    target.write_text("import torch\nlosses = []\nfor x in loader:\n    loss = model(x)\n"
                      "    loss.backward()\n    losses.append(loss)\n")
    code = ("import sys\nfrom preflight.cli import main\n"
            f"rc = main(['check', '--no-cache', {str(target)!r}])\n"
            "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert "PF101" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_hot_classes_switch_to_a_compiled_init_with_the_same_behaviour() -> None:
    @_record._dataclass(frozen=True)
    class Hot:
        a: int
        b: list = _record._field(default_factory=list)
        c: str = "c"

    generic = Hot.__init__
    made = [Hot(i) for i in range(_record._COMPILE_AFTER + 5)]
    assert Hot.__init__ is not generic  # compiled now
    after = [Hot(1), Hot(a=2, c="x"), Hot(3, [1])]
    assert [(h.a, h.b, h.c) for h in after] == [(1, [], "c"), (2, [], "x"), (3, [1], "c")]
    assert made[0] == Hot(0) and made[0].b is not made[1].b
    for bad in ((), (1, 2, 3, 4)):
        with pytest.raises(TypeError):
            Hot(*bad)
    with pytest.raises(TypeError):
        Hot(1, d=2)
