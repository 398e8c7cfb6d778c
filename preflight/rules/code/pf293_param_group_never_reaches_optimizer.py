"""PF293 param-group-never-reaches-optimizer: a parameter group (``{"params": ..., "lr": ...}``, or a
list of them) is built into a name that is rebound or dropped before anything reads it."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_OPTIMIZER = re.compile(r"(^|\.)(Adam\w*|AdamW\w*|SGD|RMSprop|Adagrad|Adadelta|Adamax|NAdam|RAdam|Adafactor|"
                        r"Lamb|LAMB|Lion|FusedAdam|DeepSpeedCPUAdam|\w*Optimizer)$")
_BLOCKS = ("body", "orelse", "finalbody")


def _has_params_key(node: ast.AST) -> bool:
    return isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "params"
                                              for k in node.keys)


def _group_value(node: ast.AST) -> Optional[str]:
    """``"group"`` for ``{"params": ...}``, ``"groups"`` for a list/tuple/comprehension of them."""
    if _has_params_key(node):
        return "group"
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts and all(_has_params_key(e) for e in node.elts):
        return "groups"
    if isinstance(node, ast.ListComp) and _has_params_key(node.elt):
        return "groups"
    return None


def _params_store(stmt: ast.stmt, name: str) -> bool:
    """``name["params"] = ...``."""
    return isinstance(stmt, ast.Assign) and any(
        isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
        and isinstance(t.slice, ast.Constant) and t.slice.value == "params" for t in stmt.targets)


def _binds(stmt: ast.stmt, name: str) -> bool:
    return isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)


def _reads(nodes: Iterable[ast.AST], name: str) -> bool:
    """A read of ``name`` other than as the base of a subscript store (``g["lr"] = 1e-3``)."""
    for root in nodes:
        stores = {id(n.value) for n in ast.walk(root)
                  if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del))}
        for n in ast.walk(root):
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in stores:
                return True
    return False


@register
class ParamGroupNeverReachesOptimizer(Rule):
    code = "PF293"
    name = "param-group-never-reaches-optimizer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("a parameter group (`{\"params\": ..., \"lr\": ...}` or a list of them) is built and then "
               "rebound or dropped before anything reads it: its parameters are never optimized")
    needs_text = ("params",)
    explanation = """
## What it finds

In a file that builds an optimizer: a name bound to a parameter group, a dict with a
`"params"` key (`g = {"lr": 5e-2}` followed by `g["params"] = [...]` counts too), or to a
list of them (`grouped = [{"params": decay, "weight_decay": 0.01}, ...]`), that nothing reads
before the name is bound again in the same block, or that nothing reads at all afterwards.
The usual shapes: a block of `params = {...}; params["params"] = ...;
parameters.append(params)` copied three times with the last `append` missing, and weight-decay
groups built while the optimizer is then given `model.parameters()`.

## Why it matters

An optimizer updates only the tensors in the groups it is given
(`torch/optim/optimizer.py`: `Optimizer.__init__` stores the param groups it receives). A
group that never reaches it leaves its parameters at their initial values although they
require gradients and receive them every step: nothing fails, the loss still goes down
through the other groups, and a CRF or a classifier head silently stays random
(zjunlp/HVPNeT#5: "parameters.append(params) should be added ... otherwise crf and fc will not
be trained"). For a list of weight-decay groups that is never used, the decay settings (no
decay on biases and LayerNorm) are silently not applied.

## How to fix it

Append the group to the list the optimizer receives (`parameters.append(params)`) before the
name is reused, or pass the list of groups to the optimizer
(`AdamW(grouped, lr=...)`).

## When preflight stays silent

* The group is read anywhere before it is rebound: appended, passed to a call or an
  optimizer, put in another container, returned, `add_param_group(g)`.
* The binding sits inside a loop and the name is read anywhere in its function (the read
  may come on the next iteration).
* A dict without a `"params"` key (optimizer kwargs, a config), or no optimizer built in the
  file.
"""
    bad_examples = examples("preflight.rules.code._pf293_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf293_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        candidates = [a for a in ctx.nodes(ast.Assign) if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
                      and isinstance(a.value, (ast.Dict, ast.List, ast.Tuple, ast.ListComp))]
        if not candidates:
            return
        optimizers = [c for c in ctx.nodes(ast.Call) if _OPTIMIZER.search(ast.unparse(c.func))]
        if not optimizers:
            return
        for assign in candidates:
            got = self._dead(ctx, assign)
            if got is None:
                continue
            kind, rebound = got
            name = assign.targets[0].id  # type: ignore[attr-defined]
            what = "parameter group" if kind == "group" else "list of parameter groups"
            where = (f"`{name}` is bound again at line {rebound.lineno} before anything reads it"
                     if rebound is not None else f"nothing reads `{name}` afterwards")
            fix = (f"append it to the list the optimizer receives (e.g. `parameters.append({name})`) "
                   "before the name is reused" if kind == "group"
                   else f"pass `{name}` to the optimizer instead of `model.parameters()`")
            yield ctx.finding(
                self, assign,
                f"`{name}` holds a {what} that never reaches an optimizer: {where}. Its parameters are "
                "never updated although they require gradients and get them every step (a layer left at "
                f"its initialisation, or per-group settings such as weight decay silently not applied); {fix}",
                evidence=[ctx.evidence(optimizers[0], "the optimizer, which never receives it")])

    @staticmethod
    def _dead(ctx: FileContext, assign: ast.Assign) -> Optional[tuple[str, Optional[ast.stmt]]]:
        name = assign.targets[0].id  # type: ignore[attr-defined]
        parent = ctx.parent(assign)
        block: Optional[list] = None
        for field in _BLOCKS:
            stmts = getattr(parent, field, None)
            if isinstance(stmts, list) and any(s is assign for s in stmts):
                block = stmts
        if block is None:
            return None
        i = next(k for k, s in enumerate(block) if s is assign)
        rest = block[i + 1:]
        j = next((k for k, s in enumerate(rest) if _binds(s, name)), None)
        between = rest if j is None else rest[:j]
        kind = _group_value(assign.value)
        if kind is None and isinstance(assign.value, ast.Dict) and any(_params_store(s, name) for s in between):
            kind = "group"
        if kind is None:
            return None
        if _reads(between, name):
            return None
        if j is not None and _reads([rest[j]], name):
            return None  # `g = dict(g, lr=...)`: the old group flows into the new one
        scope = ctx.enclosing_function(assign) or ctx.tree
        in_loop = any(isinstance(a, (ast.For, ast.While, ast.AsyncFor)) for a in ctx.ancestors(assign)
                      if ctx.under(a, scope) and a is not scope)
        if in_loop and _reads([scope], name):
            return None
        if j is None:
            # nothing in the block reads it: any later read in the function (or the file) keeps it
            stores = {id(n.value) for n in ast.walk(scope)
                      if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del))}
            for n in ast.walk(scope):
                if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                        and id(n) not in stores):
                    continue
                if (n.lineno, n.col_offset) > (assign.lineno, assign.col_offset) or \
                        ctx.enclosing_function(n) is not ctx.enclosing_function(assign):
                    return None
            if scope is ctx.tree and any(isinstance(n, ast.Global) and name in n.names for n in ctx.nodes(ast.Global)):
                return None
            if scope is not ctx.tree and any(isinstance(n, (ast.Nonlocal, ast.Global)) and name in n.names
                                             for n in ast.walk(scope)):
                return None
            return kind, None
        return kind, rest[j]
