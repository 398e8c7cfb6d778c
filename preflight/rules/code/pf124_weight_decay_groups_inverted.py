"""PF124 weight-decay-groups-inverted: the parameter group that selects biases and norm weights (the
``no_decay`` list) gets the weight decay, and the group of every other parameter gets 0."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# entries of a no-decay list: biases, normalisation gains, embeddings and the like
_NO_DECAY_ENTRY = re.compile(r"bias|norm|^ln|\.ln|ln_|_ln|gamma|beta|\bbn\b|^bn|embed|pos|token|scale", re.IGNORECASE)
_NAME_TESTS = ("bias", "norm")


def _literal_strings(node: ast.AST) -> Optional[list[str]]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _is_no_decay_list(strings: Optional[list[str]]) -> bool:
    if not strings:
        return False
    return all(_NO_DECAY_ENTRY.search(s) for s in strings) \
        and any(t in s.lower() for s in strings for t in _NAME_TESTS)


class _Lists:
    """Names bound (once, in the file) to a literal list of strings."""

    def __init__(self, ctx: FileContext) -> None:
        self.values: dict[str, list[Optional[list[str]]]] = {}
        for node in ctx.nodes(ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    self.values.setdefault(tgt.id, []).append(_literal_strings(node.value))

    def strings(self, node: ast.AST) -> Optional[list[str]]:
        if isinstance(node, ast.Name):
            bound = self.values.get(node.id, [])
            return bound[0] if len(bound) == 1 else None
        return _literal_strings(node)


def _selects_no_decay(cond: ast.AST, name: str, param: Optional[str], lists: _Lists) -> Optional[bool]:
    """True when ``cond`` keeps the no-decay parameters (biases, norms), False when it keeps the others,
    None when it cannot be told."""
    if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not):
        inner = _selects_no_decay(cond.operand, name, param, lists)
        return None if inner is None else not inner
    if isinstance(cond, ast.Call) and isinstance(cond.func, ast.Name) and cond.func.id == "any" and cond.args \
            and isinstance(cond.args[0], (ast.GeneratorExp, ast.ListComp)):
        gen = cond.args[0]
        comp = gen.generators[0]
        if len(gen.generators) == 1 and not comp.ifs and isinstance(comp.target, ast.Name) \
                and _is_no_decay_list(lists.strings(comp.iter)):
            elt = gen.elt
            if isinstance(elt, ast.Compare) and len(elt.ops) == 1 and isinstance(elt.ops[0], ast.In) \
                    and isinstance(elt.left, ast.Name) and elt.left.id == comp.target.id \
                    and isinstance(elt.comparators[0], ast.Name) and elt.comparators[0].id == name:
                return True
        return None
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.comparators[0], ast.Name) \
            and cond.comparators[0].id == name and isinstance(cond.left, ast.Constant) \
            and isinstance(cond.left.value, str) and _is_no_decay_list([cond.left.value]):
        if isinstance(cond.ops[0], ast.In):
            return True
        if isinstance(cond.ops[0], ast.NotIn):
            return False
    return None


def _group_selection(params: ast.AST, lists: _Lists) -> Optional[bool]:
    """For ``[p for n, p in model.named_parameters() if <cond>]``: whether ``cond`` keeps the no-decay ones."""
    if not isinstance(params, (ast.ListComp, ast.GeneratorExp)) or len(params.generators) != 1:
        return None
    comp = params.generators[0]
    it = comp.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "named_parameters"):
        return None
    if not (isinstance(comp.target, ast.Tuple) and len(comp.target.elts) == 2
            and all(isinstance(e, ast.Name) for e in comp.target.elts)) or len(comp.ifs) != 1:
        return None
    name, param = (e.id for e in comp.target.elts)  # type: ignore[attr-defined]
    return _selects_no_decay(comp.ifs[0], name, param, lists)


def _loop_selection(ctx: FileContext, scope: int, name: str, lists: _Lists) -> Optional[tuple[ast.AST, bool]]:
    """For a list filled in ``for n, p in model.named_parameters(): if <cond>: A.append(p) else: B.append(p)``:
    the ``if`` and whether the branch that appends to ``name`` keeps the no-decay parameters."""
    for loop in ctx.nodes(ast.For):
        it = loop.iter
        if id(ctx.enclosing_function(loop)) != scope or not (
                isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "named_parameters"
                and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
                and all(isinstance(e, ast.Name) for e in loop.target.elts)):
            continue
        pname, param = (e.id for e in loop.target.elts)  # type: ignore[attr-defined]
        for node in ast.walk(loop):
            if not isinstance(node, ast.If):
                continue
            for branch, positive in ((node.body, True), (node.orelse, False)):
                appends = [c for st in branch if isinstance(st, ast.Expr) for c in [st.value]
                           if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "append"
                           and isinstance(c.func.value, ast.Name) and c.func.value.id == name
                           and len(c.args) == 1 and isinstance(c.args[0], ast.Name) and c.args[0].id == param]
                if appends:
                    keeps = _selects_no_decay(node.test, pname, param, lists)
                    if keeps is None:
                        return None
                    return appends[0], keeps if positive else not keeps
    return None


def _zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and not isinstance(node.value, bool) \
        and isinstance(node.value, (int, float)) and node.value == 0


def _groups(node: ast.AST) -> Optional[list[tuple[ast.AST, ast.AST, Optional[ast.AST]]]]:
    """``[{"params": P, "weight_decay": W}, ...]`` (dict literals or ``dict(...)`` calls): (group, P, W)."""
    if not isinstance(node, (ast.List, ast.Tuple)) or len(node.elts) < 2:
        return None
    out: list[tuple[ast.AST, ast.AST, Optional[ast.AST]]] = []
    for elt in node.elts:
        fields: dict[str, ast.AST] = {}
        if isinstance(elt, ast.Dict):
            for k, v in zip(elt.keys, elt.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    fields[k.value] = v
        elif isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "dict":
            fields = {k.arg: k.value for k in elt.keywords if k.arg}
        else:
            return None
        if "params" not in fields:
            return None
        out.append((elt, fields["params"], fields.get("weight_decay")))
    return out


@register
class WeightDecayGroupsInverted(Rule):
    code = "PF124"
    name = "weight-decay-groups-inverted"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("weight_decay",)
    summary = "The parameter group of biases and norm weights gets the weight decay and every other parameter gets 0: the no_decay conditions are swapped"
    explanation = """
## What it finds

A list of optimizer parameter groups built from `model.named_parameters()` and a
`no_decay` list (`["bias", "LayerNorm.weight"]`), where the group whose filter keeps the
names in that list (`if any(nd in n for nd in no_decay)`, or `"bias" in n`) has a non-zero
`weight_decay` while another group, the rest of the parameters, has `weight_decay` 0.
The filter is read from a comprehension (inline or bound to a name) or from a loop
`for n, p in model.named_parameters(): if <cond>: a.append(p) else: b.append(p)`.

## Why it matters

The usual recipe (BERT, the transformers Trainer's `get_decay_parameter_names`) decays
the weight matrices and exempts biases and normalisation gains. With the two conditions
swapped, every weight matrix trains without regularisation and only the biases and
LayerNorm gains are pulled to zero, the opposite of the intended setting; nothing warns
and the model just generalises worse (facebookresearch/BalancingGroups#6: "you only
apply weight decay to parameters that contain the strings bias or LayerNorm.weight").

## How to fix it

Swap the two conditions: `if not any(nd in n for nd in no_decay)` for the group with
`"weight_decay": wd`, and `if any(nd in n for nd in no_decay)` for the group with
`"weight_decay": 0.0`.

## When preflight stays silent

* The list of names holds anything but bias/normalisation/embedding entries (a list of
  parameters to decay, `["weight"]`), or is bound more than once or not to a literal.
* No other group has `weight_decay` 0, or the selecting condition cannot be read
  (a set of names computed elsewhere, several conditions).
* The group that keeps the no-decay names has `weight_decay` 0 (the recipe).
"""
    bad_examples = examples("preflight.rules.code._pf124_examples", "PF124_BAD")
    good_examples = examples("preflight.rules.code._pf124_examples", "PF124_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        lists = _Lists(ctx)
        comprehensions: dict[tuple[int, str], list[ast.AST]] = {}
        for node in ctx.nodes(ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    key = (id(ctx.enclosing_function(node)), tgt.id)
                    comprehensions.setdefault(key, []).append(node.value)
        for seq in ctx.nodes(ast.List, ast.Tuple):
            groups = _groups(seq)
            if groups is None:
                continue
            scope = id(ctx.enclosing_function(seq))
            selected = []
            for group, params, wd in groups:
                keeps: Optional[bool] = None
                if isinstance(params, ast.Name):
                    bound = comprehensions.get((scope, params.id), [])
                    if len(bound) == 1 and isinstance(bound[0], ast.List) and not bound[0].elts:
                        filled = _loop_selection(ctx, scope, params.id, lists)
                        if filled is not None:
                            params, keeps = filled
                    elif len(bound) == 1:
                        params = bound[0]
                if keeps is None:
                    keeps = _group_selection(params, lists)
                selected.append((group, params, keeps, wd))
            zero_elsewhere = [g for g, _, _, wd in selected if wd is not None and _zero(wd)]
            for group, params, keeps_no_decay, wd in selected:
                if keeps_no_decay is True and wd is not None and not _zero(wd) \
                        and any(g is not group for g in zero_elsewhere):
                    yield ctx.finding(
                        self, params,
                        f"this parameter group selects the no-decay parameters (biases, norm weights) but gets "
                        f"`weight_decay={ast.unparse(wd)}`, while the group of the other parameters gets 0: the "
                        f"two conditions are swapped, so the weight matrices are never decayed and the biases "
                        f"and norm gains are. Swap the conditions (`not any(...)` for the decayed group)",
                        evidence=[ctx.evidence(group, "the group that gets the weight decay")])
