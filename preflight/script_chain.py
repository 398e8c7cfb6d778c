"""A local bound once in each arm of an ``if/elif/else`` chain whose tests are decided: the value of
the arm taken (huggingface/parler-tts training/run_parler_tts_training.py:90-98 at d108732:
``if training_args.dtype == "float16": mixed_precision = "fp16" elif ... == "bfloat16":
mixed_precision = "bf16" else: mixed_precision = "no"``, then ``Accelerator(mixed_precision=
mixed_precision)``). Any other binding of the name, an arm without exactly one top-level binding,
or an undecided test before the arm taken: unknown (None)."""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from preflight.analysis.node_memo import node_memo


def _arms(node: ast.If) -> list[tuple[Optional[ast.expr], list[ast.stmt]]]:
    """(test, body) of each arm, ``else`` last with test None."""
    out: list[tuple[Optional[ast.expr], list[ast.stmt]]] = []
    cur: Any = node
    while True:
        out.append((cur.test, cur.body))
        if len(cur.orelse) == 1 and isinstance(cur.orelse[0], ast.If):
            cur = cur.orelse[0]
            continue
        if cur.orelse:
            out.append((None, cur.orelse))
        return out


def _binding(body: list[ast.stmt], name: str) -> Optional[ast.expr]:
    got = [s.value for s in body if isinstance(s, ast.Assign) and len(s.targets) == 1
           and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    return got[0] if len(got) == 1 else None


def _chains(tree: ast.AST) -> dict[str, Optional[list[tuple[Optional[ast.expr], ast.expr]]]]:
    """name -> the arms of the one ``if/elif/else`` chain that binds it once in every arm (None when
    two chains do), over the whole script in one walk."""
    out: dict[str, Optional[list[tuple[Optional[ast.expr], ast.expr]]]] = {}
    elifs: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.If) or id(node) in elifs:
            continue
        found = _arms(node)
        cur: Any = node
        while len(cur.orelse) == 1 and isinstance(cur.orelse[0], ast.If):
            cur = cur.orelse[0]
            elifs.add(id(cur))
        if found[-1][0] is not None:
            continue  # no ``else``: an arm not taken leaves the name as it was
        names = {t.id for s in found[0][1] if isinstance(s, ast.Assign) and len(s.targets) == 1
                 for t in s.targets if isinstance(t, ast.Name)}
        for name in names:
            values = [_binding(body, name) for _, body in found]
            # an arm that only raises (``else: raise ValueError("Invalid FSDP sharding strategy")``,
            # AnswerDotAI/fsdp_qlora train.py:750-751) binds nothing and never continues: not an arm taken
            if any(v is None and not (body and isinstance(body[-1], ast.Raise)) for v, (_, body) in zip(values, found)):
                continue
            arms = [(test, value) for (test, _), value in zip(found, values) if value is not None]
            out[name] = None if name in out else arms
    return out


def taken_arm(arms: list[tuple[Optional[ast.expr], ast.expr]],
              decide: Callable[[ast.expr], Optional[bool]]) -> Optional[tuple[Optional[ast.expr], ast.expr]]:
    """(the test that decided it, None for ``else``; the value) of the arm ``decide`` takes, or None when
    a test before it is undecided."""
    for test, value in arms:
        if test is None:
            return None, value
        decided = decide(test)
        if decided is None:
            return None
        if decided:
            return test, value
    return None


def function_chains(fn: ast.AST) -> dict[str, Optional[list[tuple[Optional[ast.expr], ast.expr]]]]:
    """:func:`_chains` of one function (or module): name -> the arms of the one chain binding it."""
    return _chains(fn)


def chain_binding(index: Any, name: str, count: int) -> Optional[ast.expr]:
    """The value ``name`` gets from the arm of the one ``if`` chain that binds it ``count`` times
    (every binding of it in the script), when the tests decide the arm; else None."""
    chains = node_memo(index, "_chain_bindings", lambda: _chains(index.script.tree))
    arms = chains.get(name)
    if arms is None or len(arms) != count:
        return None
    got = taken_arm(arms, index.truth)
    return None if got is None else got[1]
