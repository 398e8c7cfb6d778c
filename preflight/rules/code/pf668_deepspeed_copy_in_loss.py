"""PF668 deepspeed-copy-in-loss: a term computed from DeepSpeed's ``safe_get_full_fp32_param`` (or another
``deepspeed.utils`` accessor, which returns a copy with no autograd link) reaches ``backward``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import last_attr
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# deepspeed.utils.tensor_fragment (v0.17.5): each returns a new tensor all-gathered or copied out of the
# optimizer's fp32 partition / gradient buffers, not the module's parameter, and records no autograd graph
ACCESSORS = frozenset({
    "safe_get_full_fp32_param", "safe_get_local_fp32_param", "safe_get_full_grad", "safe_get_local_grad",
    "safe_get_full_optimizer_state", "safe_get_local_optimizer_state",
})
# methods after which the value is a plain number or explicitly detached: the author knows it is no parameter
_STOP = frozenset({"item", "detach", "tolist", "numpy", "numel", "size", "dim", "data_ptr"})
# calls that combine their tensor arguments into one tensor
_COMBINE = frozenset({"sum", "stack", "cat", "norm", "mean", "square", "abs", "pow", "add", "mul"})


class _Taint:
    """Which local names and which functions' return values hold an accessor's copy, and the accessor
    call each comes from."""

    def __init__(self) -> None:
        self.functions: dict[str, ast.Call] = {}

    def origin(self, node: ast.expr, names: dict[str, ast.Call]) -> Optional[ast.Call]:
        if isinstance(node, ast.Call):
            name = last_attr(node.func)
            if name in ACCESSORS:
                return node
            if isinstance(node.func, ast.Attribute):
                if node.func.attr in _STOP:
                    return None
                inner = self.origin(node.func.value, names)
                if inner is not None:
                    return inner  # a method of the copy: .pow(2).sum(), .float(), .norm()
            if name in self.functions and (isinstance(node.func, ast.Name) or (
                    isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self")):
                return self.functions[name]
            if name in _COMBINE:
                for arg in node.args:
                    found = self.origin(arg, names)
                    if found is not None:
                        return found
            return None
        if isinstance(node, ast.Name):
            return names.get(node.id)
        if isinstance(node, ast.BinOp):
            return self.origin(node.left, names) or self.origin(node.right, names)
        if isinstance(node, ast.UnaryOp):
            return self.origin(node.operand, names)
        if isinstance(node, ast.Subscript):
            return self.origin(node.value, names)
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            return self.origin(node.elt, names)
        if isinstance(node, (ast.List, ast.Tuple)):
            for elt in node.elts:
                found = self.origin(elt, names)
                if found is not None:
                    return found
        return None

    def names_of(self, fn: ast.AST) -> dict[str, ast.Call]:
        """The function's local names holding a copy, in statement order (a loop's ``reg = reg + copy``
        included); a name assigned again from clean values is clean again."""
        names: dict[str, ast.Call] = {}
        stmts = sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))),
                       key=lambda n: (n.lineno, n.col_offset))
        for stmt in stmts:
            value = stmt.value
            if value is None:
                continue
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            found = self.origin(value, names)
            for target in targets:
                if not isinstance(target, ast.Name):
                    continue
                if found is not None:
                    names[target.id] = found
                elif not isinstance(stmt, ast.AugAssign):
                    names.pop(target.id, None)
        return names


@register
class DeepSpeedCopyInLoss(Rule):
    code = "PF668"
    needs_text = ("safe_get_",)
    name = "deepspeed-copy-in-loss"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("A loss term is computed from `safe_get_full_fp32_param` (a DeepSpeed copy with no autograd link), "
               "so it adds to the loss value but no gradient")
    explanation = """
## What it finds

A value computed from one of DeepSpeed's parameter accessors (`safe_get_full_fp32_param`,
`safe_get_local_fp32_param`, `safe_get_full_grad`, `safe_get_full_optimizer_state`, ...) that
reaches a `backward()`: added into the loss directly, through local names (a loop's
`reg = reg + safe_get_full_fp32_param(p).pow(2).sum()`), or through a function of the file that
returns it (`loss = out.loss + l2_penalty(model_engine, lam)`).

## Why it matters

Under ZeRO-3 the module's parameters are empty placeholders, so users reach for
`safe_get_full_fp32_param` to see the whole weight. It returns the optimizer's fp32 master
partition all-gathered into a new tensor (DeepSpeed 0.17.5 `get_full_hp_param`), with no
autograd connection to the parameter: the penalty raises the logged loss but contributes no
gradient, so the weights are never regularised (DeepSpeed 7464, "ZERO3 get weight participate
in loss").

## How to fix it

Compute the term from the parameters themselves where they are whole: inside the owning
module's `forward` under ZeRO-3 (the parameters are gathered there), under
`deepspeed.zero.GatheredParameters` with the gradient handled by hand, or with ZeRO-1/2, whose
parameters are never partitioned. For plain L2 decay, use the optimizer's `weight_decay`.

## When preflight stays silent

* The copy is only read: logged, compared, saved, or turned into a number (`.item()`,
  `.detach()`, `float(...)`) before it is used.
* It is passed to some other function of another module (what that function returns is not
  followed), or reaches no `backward()` in the file.
"""
    bad_examples = examples("preflight.rules.code._pf668_examples", "PF668_BAD")
    good_examples = examples("preflight.rules.code._pf668_examples", "PF668_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = [
            n for n in (*ctx.nodes(ast.FunctionDef), *ctx.nodes(ast.AsyncFunctionDef))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not functions:
            return
        taint = _Taint()
        for _ in range(3):  # helpers returning a copy, helpers calling those: a few rounds settle it
            changed = False
            for fn in functions:
                if fn.name in taint.functions:
                    continue
                names = taint.names_of(fn)
                for node in ast.walk(fn):
                    if isinstance(node, ast.Return) and node.value is not None:
                        found = taint.origin(node.value, names)
                        if found is not None:
                            taint.functions[fn.name] = found
                            changed = True
                            break
            if not changed:
                break
        seen: set[int] = set()
        for fn in functions:
            names = taint.names_of(fn)
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "backward"):
                    continue
                loss = node.args[0] if node.args else node.func.value
                found = taint.origin(loss, names)
                if found is None or id(found) in seen:
                    continue
                seen.add(id(found))
                yield ctx.finding(
                    self, found,
                    f"`{ast.unparse(found)}` returns a copy of the parameter (under ZeRO-3 the fp32 master "
                    "partition all-gathered into a new tensor) with no autograd link to it; the term built from it "
                    f"reaches `{ast.unparse(node)}` at line {node.lineno}, where it raises the loss value but adds "
                    "no gradient, so the penalty never acts on the weights. Compute it from the parameters where "
                    "they are whole (the owning module's forward under ZeRO-3, or ZeRO-1/2)",
                    evidence=[ctx.evidence(node, "the loss holding the copy's term goes to backward here")])
