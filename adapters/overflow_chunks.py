"""Rows cut from each document by the tokenizer, only the full-length ones kept: ``data.padding`` max_length.

The causal-LM tokenize function of the Hugging Face course ("Training a causal language model from scratch")
and its copies (Miraclove/DevAssistant @ 1e0c19f ``dev-assistant-model/deepspeed/pretrain/train.py:143-155``):

    outputs = tokenizer(element["content"], truncation=True, max_length=context_length,
                        return_overflowing_tokens=True, return_length=True)
    for length, input_ids in zip(outputs["length"], outputs["input_ids"]):
        if length == context_length:
            input_batch.append(input_ids)

Every document is cut into ``max_length`` chunks and the shorter tail is dropped, so every row has exactly that
length: no padding is left for a collator to add (a padding collator over equal rows adds none). Said
(``max_length``, medium) once every adapter has run and no padding was found otherwise, only when one function
of a script holds both the tokenizer call (``truncation=True``, ``return_overflowing_tokens=True``,
``max_length=E``) and an ``if`` testing ``<name> == E`` (or ``len(...) == E``, either side) whose body appends;
the same expression ``E`` in both. A function that keeps the tail too (no such ``if``) states nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.plan import Source, TrainingPlan


def _kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _true(node: Optional[ast.expr]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _keeps_full(fn: ast.AST, bound: ast.expr) -> bool:
    want = ast.dump(bound)
    for node in ast.walk(fn):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1
                and isinstance(node.test.ops[0], ast.Eq)):
            continue
        sides = [node.test.left, node.test.comparators[0]]
        if not any(ast.dump(s) == want for s in sides):
            continue
        other = sides[1] if ast.dump(sides[0]) == want else sides[0]
        if not (isinstance(other, ast.Name) or (isinstance(other, ast.Call) and isinstance(other.func, ast.Name)
                                                and other.func.id == "len")):
            continue
        if any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "append"
               for stmt in node.body for c in ast.walk(stmt)):
            return True
    return False


def _chunks(tree: ast.AST) -> Optional[int]:
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            bound = _kw(node, "max_length")
            if bound is None or not _true(_kw(node, "truncation")) \
                    or not _true(_kw(node, "return_overflowing_tokens")):
                continue
            if _keeps_full(fn, bound):
                return node.lineno
    return None


def overflow_chunks(plan: TrainingPlan, project: Any) -> None:
    if plan.resolve("data.padding") is not None or not getattr(project, "scripts", None):
        return
    for script in project.scripts:
        if script.tree is None or "return_overflowing_tokens" not in script.source.text:
            continue
        line = _chunks(script.tree)
        if line is None:
            continue
        plan.add("data.padding", "max_length",
                 Source("code", str(script.source.display), line, "return_overflowing_tokens",
                        "the tokenizer cuts each document into max_length chunks (return_overflowing_tokens) and "
                        "only chunks of exactly that length are kept: every row is max_length, nothing to pad"),
                 "medium", adapter="derive")
        return


__all__ = ["overflow_chunks"]
