"""PF192 parameter-moved-after-wrapping: ``self.w = nn.Parameter(t).cuda()`` (or ``.to(device)``,
``.half()``, ...): the move returns a plain, non-leaf Tensor, so the attribute is no longer a registered
parameter: the optimizer never sees it and ``state_dict`` does not hold it."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# methods that return a new tensor (a copy with a grad_fn) when they change the device or dtype
_MOVES = frozenset({"cuda", "to", "half", "double", "bfloat16", "type"})
_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


def _cpu_arg(call: ast.Call) -> bool:
    """``.to("cpu")`` / ``.to(device="cpu")`` / ``.to(torch.float32)``: no device change away from the CPU
    the Parameter was made on, or a dtype it may already have (``to(float32)`` returns ``self``)."""
    args = list(call.args) + [k.value for k in call.keywords if k.arg in ("device", "dtype")]
    if not args:
        return True
    for arg in args:
        text = ast.unparse(arg)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("cpu"):
            return True
        if text in ("torch.device('cpu')", "torch.float32", "torch.float", "'cpu'"):
            return True
    return False


def _frozen(parameter: ast.Call) -> bool:
    """``nn.Parameter(t, requires_grad=False)`` / ``nn.Parameter(t, False)``."""
    flag = next((k.value for k in parameter.keywords if k.arg == "requires_grad"),
                parameter.args[1] if len(parameter.args) > 1 else None)
    return isinstance(flag, ast.Constant) and flag.value is False


def _pairs(targets: list[ast.expr], value: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    out: list[tuple[ast.AST, ast.AST]] = []
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts):
            out.extend(zip(target.elts, value.elts))
        else:
            out.append((target, value))
    return out


def _only_data_use(ctx: FileContext, text: str) -> bool:
    """Every read of the attribute elsewhere in the file goes through ``.data`` (a buffer-like holder)."""
    attrs = ctx.nodes(ast.Attribute)
    reads = sum(1 for n in attrs if isinstance(n.ctx, ast.Load) and ast.unparse(n) == text)
    via_data = sum(1 for n in attrs if n.attr == "data" and ast.unparse(n.value) == text)
    return reads > 0 and reads == via_data


@register
class ParameterMovedAfterWrapping(Rule):
    code = "PF192"
    name = "parameter-moved-after-wrapping"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`self.w = nn.Parameter(t).cuda()` / `.to(device)` / `.half()`: the move returns a plain Tensor, "
               "so `w` is not a registered parameter and is never trained or saved")
    needs_text = ("Parameter",)
    explanation = """
## What it finds

An attribute assignment `self.NAME = nn.Parameter(...).cuda()` (also `.to(<device or dtype>)`,
`.half()`, `.double()`, `.bfloat16()`, `.type(...)`), i.e. a device or dtype move applied to the
`Parameter` after it was built, not to the tensor inside it.

## Why it matters

`Parameter.cuda()` (and the other moves) is a differentiable tensor operation: it returns a new,
plain `Tensor` with a `grad_fn`, not a `Parameter`. `nn.Module.__setattr__` therefore stores it
as an ordinary attribute: it is missing from `model.parameters()` (the optimizer never updates
it, it keeps its initial value for the whole run), from `state_dict()` (the checkpoint does not
contain it) and from `model.to(...)` (pytorch issue 94828). Outside a module, an optimizer given
the tensor refuses it ("can't optimize a non-leaf Tensor").

## How to fix it

Move the data before wrapping it (`nn.Parameter(torch.zeros(n, device=device))`,
`nn.Parameter(t.cuda())`), or, better, create the Parameter on the CPU and move the whole module
with `model.to(device)`.

## When preflight stays silent

* The move is applied inside the `Parameter(...)` call (`nn.Parameter(t.cuda())`), or with
  `device=` / `dtype=` on the factory.
* `.to("cpu")` / `.to(torch.float32)` / `.float()` / `.cpu()` on a CPU float Parameter: these return
  the Parameter itself.
* The Parameter is frozen (`requires_grad=False`, a constant loaded from a checkpoint):
  nothing the optimizer should train is lost.
* The value is bound to a plain local name (a loud error if an optimizer gets it), or every
  read of the attribute goes through `.data` (a target network's weights updated by hand, which
  no optimizer was meant to train).
"""
    bad_examples = examples("preflight.rules.code._pf192_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf192_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        qualify = scope_index(ctx).imports.qualify
        for node in ctx.nodes(ast.Assign, ast.AnnAssign):
            if node.value is None:
                continue
            targets: list[ast.expr] = list(node.targets) if isinstance(node, ast.Assign) else [node.target]
            for target, value in _pairs(targets, node.value):
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self"):
                    continue
                call = self._moved_parameter(value, qualify)
                if call is None or _only_data_use(ctx, ast.unparse(target)):
                    continue
                yield ctx.finding(
                    self, node,
                    f"`{ast.unparse(target)} = {ast.unparse(value)}`: `.{self._method(call)}()` on a Parameter "
                    "returns a plain, non-leaf Tensor, so the attribute is not a registered parameter: "
                    "`model.parameters()` (and the optimizer built from it) and `state_dict()` do not contain it, it "
                    "keeps its initial value for the whole run and is not saved; move the data inside the Parameter "
                    f"(`nn.Parameter(t.{self._method(call)}(...))`, `device=` on the factory) or move the whole "
                    "module with `model.to(device)`")
                break

    @staticmethod
    def _method(call: ast.Call) -> str:
        return call.func.attr if isinstance(call.func, ast.Attribute) else ""

    @staticmethod
    def _moved_parameter(value: ast.AST, qualify: Callable[[ast.AST], Optional[str]]) -> Optional[ast.Call]:
        """``nn.Parameter(...).cuda()``-like chains -> the moving call; None otherwise."""
        cur = value
        while isinstance(cur, ast.Call) and isinstance(cur.func, ast.Attribute):
            inner = cur.func.value
            if cur.func.attr in _MOVES and isinstance(inner, ast.Call):
                qual = qualify(inner.func) or ""
                if qual in _PARAMETER or ast.unparse(inner.func) in ("nn.Parameter", "Parameter", "torch.nn.Parameter"):
                    if _frozen(inner):
                        return None  # a constant: nothing to train is lost (the move returns a plain leaf)
                    if cur.func.attr == "to" and _cpu_arg(cur):
                        return None
                    if cur.func.attr == "type" and not cur.args:
                        return None
                    return cur
            if cur.func.attr in ("requires_grad_", "share_memory_"):
                cur = inner
                continue
            return None
        return None
