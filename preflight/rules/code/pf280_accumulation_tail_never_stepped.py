"""PF280 accumulation-tail-never-stepped: ``if (i + 1) % k == 0: optimizer.step()`` in a loop over
``enumerate(loader)`` with a backward on every batch and no step for the last partial window."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.value_resolver import value_resolver
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import literal
from preflight.rules.base import Rule, examples


def _index_name(loop: ast.For) -> Optional[str]:
    """``i`` of ``for i, batch in enumerate(...)`` (no ``start=``)."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate"
            and len(it.args) == 1 and not it.keywords):
        return None
    target = loop.target
    if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
        return target.elts[0].id
    return None


def _is(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _window(test: ast.expr, index: str) -> Optional[ast.expr]:
    """``k`` of ``(i + 1) % k == 0`` or ``i % k == k - 1`` (nothing else: no ``or``/``and``)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod)):
        return None
    k = left.right
    if isinstance(k, ast.Constant) and k.value in (0, 1):
        return None
    base = left.left
    plus_one = isinstance(base, ast.BinOp) and isinstance(base.op, ast.Add) and (
        (_is(base.left, index) and isinstance(base.right, ast.Constant) and base.right.value == 1)
        or (_is(base.right, index) and isinstance(base.left, ast.Constant) and base.left.value == 1))
    if plus_one and isinstance(right, ast.Constant) and right.value == 0:
        return k
    minus_one = isinstance(right, ast.BinOp) and isinstance(right.op, ast.Sub) and (
        ast.dump(right.left) == ast.dump(k) and isinstance(right.right, ast.Constant) and right.right.value == 1)
    if _is(base, index) and minus_one:
        return k
    return None


def _method_calls(nodes: Iterable[ast.AST], attr: str) -> list[ast.Call]:
    return [n for root in nodes for n in ast.walk(root) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == attr]


def _optimizer_steps(nodes: Iterable[ast.AST]) -> list[ast.Call]:
    """``x.step(...)`` calls whose receiver is not a learning-rate scheduler."""
    out = []
    for call in _method_calls(nodes, "step"):
        assert isinstance(call.func, ast.Attribute)
        receiver = ast.unparse(call.func.value).lower()
        if "sched" not in receiver and not receiver.endswith(("lr", "_lr", "warmup")):
            out.append(call)
    return out


def _last_batch_aware(loop: ast.For) -> bool:
    """The loop compares with ``len(...)`` or names a last batch somewhere (it handles the tail)."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Compare) and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" for n in ast.walk(node)):
            return True
        if isinstance(node, ast.Name) and ("last" in node.id.lower() or "final" in node.id.lower()):
            return True
    return False


def _after(ctx: FileContext, loop: ast.For) -> list[ast.stmt]:
    """The statements after ``loop`` in its block, and after each enclosing block up to the
    function (where a flush of the last window would be)."""
    out: list[ast.stmt] = []
    node: ast.AST = loop
    for parent in ctx.ancestors(loop):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                out.extend(block[block.index(node) + 1:])
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            break
        if isinstance(parent, ast.stmt):
            node = parent
    return out


def _window_of_one(ctx: FileContext, k: ast.expr) -> bool:
    """``k`` is 1 wherever the file says what it is (an argparse default, a parameter's default and
    every call site): with no accumulation there is no tail."""
    value = literal(ctx, k)
    if isinstance(value, int) and not isinstance(value, bool):
        return value <= 1
    if not isinstance(k, ast.Name):
        return False
    leaves = value_resolver(ctx).sources(k, scope_index(ctx).function_of(k))
    if not leaves:
        return False
    return all(literal(ctx, leaf.node) in (0, 1) for leaf in leaves)


@register
class AccumulationTailNeverStepped(Rule):
    code = "PF280"
    name = "accumulation-tail-never-stepped"
    severity = Severity.NOTE  # common and often harmless: see "Why a note" in the explanation
    category = Category.CORRECTNESS
    summary = ("Gradient accumulation steps only on `(i + 1) % k == 0`: the last `len(loader) % k` batches "
               "of each epoch are back-propagated but never stepped")
    frameworks = ("pytorch",)
    needs_text = ("%", "step", "backward", "enumerate")
    explanation = """
## What it finds

A loop `for i, batch in enumerate(loader):` that runs a backward on every batch and calls
`optimizer.step()` (or `scaler.step(optimizer)`) only under `if (i + 1) % k == 0:` (or
`i % k == k - 1`), with no clause for the last batch (`or i + 1 == len(loader)`), no
reference to the loader's length or to a "last" batch in the loop, and no optimizer step after
the loop (a flush) in the enclosing code.

## Why it matters

The index restarts at 0 every epoch. When `len(loader)` is not a multiple of `k`, the last
`len(loader) % k` batches of each epoch are back-propagated but never stepped: their gradients
are wasted, or, when `zero_grad()` runs only inside the step branch, they stay in `.grad` and
are added to the first window of the next epoch (a step over up to `2k - 1` micro-batches
scaled for `k`). With fewer batches than `k` nothing trains at all
(WalkingMeatAxolotl/AnimaLoraStudio PR 305: 3 images and `grad_accum=4`, "the epoch trains zero
steps"). Hugging Face's accumulation examples step on
`step % k == 0 or step == len(train_dataloader) - 1` for this reason.

## Why a note

The shape is everywhere in public training scripts (6 of 10 `find_string` hits for
`+ 1) % gradient_accumulation_steps == 0:`), and in 10 programs of the bug benchmark that
were labelled correct (twins and tricky-correct programs): with a large loader the tail is a
small, mostly harmless leak, and when `len(loader)` is a multiple of `k` there is none. The file
cannot tell the loader's length, so the finding is a note; it matters when the dataset is small
or `k` is large.

## How to fix it

```python
for i, batch in enumerate(loader):
    ...
    loss.backward()
    if (i + 1) % k == 0 or i + 1 == len(loader):
        optimizer.step()
        optimizer.zero_grad()
```

(and scale the last window's losses by its real size, and size a step-based schedule with
`math.ceil(len(loader) / k)`).

## When preflight stays silent

* The condition has another clause (`or` the last batch), the loop compares with `len(...)` or
  names a last/final batch, or an optimizer step follows the loop (a flush).
* The step counter is not the `enumerate` index of the loop (a global step that carries over
  the epochs), or `k` is 1 wherever the file says what it is (a literal, an argparse default,
  a parameter whose default and every call site pass 1: no accumulation, no tail).
* No backward runs outside the step branch (nothing accumulates).
"""
    bad_examples = examples("preflight.rules.code._pf280_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf280_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for loop in ctx.nodes(ast.For):
            index = _index_name(loop)
            if index is None:
                continue
            guard = next((s for s in loop.body if isinstance(s, ast.If) and _window(s.test, index) is not None
                          and _optimizer_steps(s.body)), None)
            if guard is None:
                continue
            rest = [s for s in loop.body if s is not guard]
            if not _method_calls(rest, "backward") or _optimizer_steps(rest):
                continue
            if _last_batch_aware(loop) or _optimizer_steps(_after(ctx, loop)):
                continue
            k = _window(guard.test, index)
            assert k is not None
            if _window_of_one(ctx, k):
                continue
            leaks = bool(_method_calls(guard.body, "zero_grad"))
            consequence = ("stay in `.grad` and are added to the first window of the next epoch" if leaks
                           else "are thrown away")
            yield ctx.finding(
                self, guard,
                f"the optimizer steps only when `{ast.unparse(guard.test)}` and nothing steps after the loop: "
                f"unless `len({ast.unparse(loop.iter.args[0])})` is a multiple of `{ast.unparse(k)}`, the last "  # type: ignore[attr-defined]
                f"`len % {ast.unparse(k)}` batches of each epoch are back-propagated but never stepped (their "
                f"gradients {consequence}; with fewer batches than `{ast.unparse(k)}` nothing trains). Also step "
                f"on the last batch (`or {index} + 1 == len(...)`) and size a step-based schedule with "
                "`math.ceil`")
