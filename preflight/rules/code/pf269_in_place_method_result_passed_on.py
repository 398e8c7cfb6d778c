"""PF269 in-place-method-result-passed-on: the result of ``list.append`` (or another in-place method that
returns None) passed as an argument or assigned, where the list itself was meant."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# in-place methods of the builtin containers: all return None
_LIST_METHODS = frozenset({"append", "extend", "insert", "remove", "sort", "reverse", "clear"})
_DICT_METHODS = frozenset({"update", "clear"})
_SET_METHODS = frozenset({"add", "update", "discard", "remove", "clear"})
_SHUFFLES = frozenset({"random.shuffle", "np.random.shuffle", "numpy.random.shuffle"})


def _kind(value: ast.AST) -> Optional[str]:
    """``list``, ``dict`` or ``set`` for a value that surely builds one; None otherwise."""
    if isinstance(value, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(value, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "sorted",
                                                                                             "dict", "set"):
        return "list" if value.func.id == "sorted" else value.func.id
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "split":
        return "list"  # str.split (a list); torch/np splits give tuples or lists, none returns a mutable other
    return None


def _container_names(ctx: FileContext) -> dict[str, str]:
    """Names every binding of which (in the whole file) builds the same builtin container."""
    kinds: dict[str, set[Optional[str]]] = {}
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                kinds.setdefault(target.id, set()).add(_kind(node.value))
            else:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        kinds.setdefault(sub.id, set()).add(None)
    for ann in ctx.nodes(ast.AnnAssign):
        if isinstance(ann.target, ast.Name):
            kinds.setdefault(ann.target.id, set()).add(_kind(ann.value) if ann.value is not None else None)
    for param in ctx.nodes(ast.arg):
        kinds.setdefault(param.arg, set()).add(None)
    # every other binding (loop and comprehension targets, `with ... as`, walrus, imports, defs): type unknown
    bound: list[ast.AST] = []
    bound.extend(n.target for n in ctx.nodes(ast.For))
    bound.extend(n.target for n in ctx.nodes(ast.comprehension))
    bound.extend(n.optional_vars for n in ctx.nodes(ast.withitem) if n.optional_vars is not None)
    bound.extend(n.target for n in ctx.nodes(ast.NamedExpr))
    for bound_node in bound:
        for sub in ast.walk(bound_node):
            if isinstance(sub, ast.Name):
                kinds.setdefault(sub.id, set()).add(None)
    for alias in ctx.nodes(ast.alias):
        kinds.setdefault((alias.asname or alias.name).split(".")[0], set()).add(None)
    defined: list[str] = [n.name for n in ctx.nodes(ast.FunctionDef)]
    defined += [n.name for n in ctx.nodes(ast.AsyncFunctionDef)] + [n.name for n in ctx.nodes(ast.ClassDef)]
    for name in defined:
        kinds.setdefault(name, set()).add(None)
    return {name: next(iter(found)) for name, found in kinds.items()  # type: ignore[misc]
            if len(found) == 1 and None not in found}


def _none_call(call: ast.AST, containers: dict[str, str]) -> Optional[str]:
    """``lst.append`` (the method's text) when ``call`` is an in-place method of a known container, or a
    shuffle; None otherwise."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    func = call.func
    if ast.unparse(func) in _SHUFFLES:
        return ast.unparse(func)
    if not isinstance(func.value, ast.Name):
        return None
    kind = containers.get(func.value.id)
    methods = {"list": _LIST_METHODS, "dict": _DICT_METHODS, "set": _SET_METHODS}.get(kind or "", frozenset())
    return ast.unparse(func) if func.attr in methods else None


@register
class InPlaceMethodResultPassedOn(Rule):
    code = "PF269"
    name = "in-place-method-result-passed-on"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ()
    needs_text = ("append(", "extend(", "insert(", "remove(", "sort(", "reverse(", "clear(", "update(", "add(",
                  "discard(", "shuffle(")
    summary = ("the return value of `list.append` (or another in-place method) is passed on: it is None, and "
               "the list was changed instead")
    explanation = """
## What it finds

A keyword argument or an assignment whose value is an in-place method call on a name
that the file only ever binds to a list (`[...]`, a comprehension, `list(...)`,
`sorted(...)`, `.split()`), a dict or a set: `modules_to_save=target_modules.append("score")`,
`cols = columns.extend(extra)`, `kwargs = defaults.update(user)`, or a
`random.shuffle(x)` result.

## Why it matters

`append`, `extend`, `insert`, `remove`, `sort`, `reverse`, `clear` (lists), `update`
(dicts, sets) and `add`/`discard` (sets) change the container and return None. The
argument is None, and the container the call changed may be one that is used elsewhere:
in peft issue 577 `LoraConfig(target_modules=lora_target_modules, ...,
modules_to_save=lora_target_modules.append("score"))` left `modules_to_save` None and put
the classifier head into `target_modules`, so the head got a LoRA adapter instead of being
trained and saved in full, and the reloaded classifier had a random head.

## How to fix it

Pass a new list: `modules_to_save=["score"]`, or `lora_target_modules + ["score"]`;
`sorted(x)` instead of `x.sort()`; `{**defaults, **user}` instead of `defaults.update(user)`.

## When preflight stays silent

* The name is bound to anything else anywhere in the file (a parameter, a loop variable,
  a call result such as a pandas frame, whose `append` returned a new frame), so its type
  is not known.
* The call stands alone as a statement (its result is not used).
"""
    bad_examples = examples("preflight.rules.code._pf269_examples", "PF269_BAD")
    good_examples = examples("preflight.rules.code._pf269_examples", "PF269_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        containers = _container_names(ctx)
        sites: list[tuple[ast.AST, str]] = []
        for kw in ctx.nodes(ast.keyword):
            if kw.arg is not None:
                sites.append((kw.value, f"`{kw.arg}=`"))
        for node in ctx.nodes(ast.Assign):
            if len(node.targets) == 1:
                sites.append((node.value, f"`{ast.unparse(node.targets[0])[:40]}`"))
        for value, where in sites:
            method = _none_call(value, containers)
            if method is None:
                continue
            yield ctx.finding(
                self, value,
                f"`{method}(...)` changes the container in place and returns None, so {where} gets None (and "
                f"the container is changed for every other use of it). Pass the new value itself "
                "(a new list such as `x + [item]`, or `sorted(x)`)")
