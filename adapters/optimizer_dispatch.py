"""A project helper that picks a torch optimizer by a name it is given (read by
:mod:`preflight.adapters.pytorch_optim_data` when the script builds no optimizer class itself).

THUDM/GraphMAE @ the benchmark's commit: ``main_graph.py:168`` ``optimizer = create_optimizer(optim_type,
model, lr, weight_decay)`` with ``optim_type = args.optimizer`` (``--optimizer adam`` on the line,
``scripts/run_graph.sh``) and ``graphmae/utils.py:129-147``: ``opt_lower = opt.lower()``, ``opt_lower =
opt_lower.split("_")[-1]``, ``if opt_lower == "adam": optimizer = optim.Adam(...)`` ``elif opt_lower ==
"adamw": ...``. The name the call passes (resolved like any value of the script: the launch line, a
default) is put through the helper's ``lower()``/``strip()``/``split(c)[k]`` steps and matched against the
literal of each ``if``/``elif`` arm; the arm's ``torch.optim`` class is the optimizer (medium). A name not
resolved, an arm that builds no torch optimizer, any other shape: nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.import_names import import_names

from preflight.analysis.syntax import dotted_name


def _steps(fn: ast.FunctionDef, param: str) -> Optional[tuple[str, list[tuple[str, Any]]]]:
    """(the variable the arms test, the string steps from ``param`` to it), or None."""
    current: str = param
    steps: list[tuple[str, Any]] = []
    body = [s for s in fn.body if isinstance(s, ast.Assign)]
    splits: dict[str, str] = {}  # ``opt_split = opt_lower.split("_")``: the list and its separator
    for stmt in body:
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "split" \
                and isinstance(value.func.value, ast.Name) and value.func.value.id == current \
                and len(value.args) == 1 and isinstance(value.args[0], ast.Constant) \
                and isinstance(value.args[0].value, str):
            splits[stmt.targets[0].id] = value.args[0].value
            continue
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and value.value.id in splits \
                and isinstance(_index(value.slice), int):
            current = stmt.targets[0].id
            steps = [*steps, ("split", (splits[value.value.id], _index(value.slice)))]
            continue
        got = _chain(stmt.value, current)
        if got is None:
            continue
        current, steps = stmt.targets[0].id, steps + got
    return current, steps


def _chain(expr: ast.expr, name: str) -> Optional[list[tuple[str, Any]]]:
    """``name.lower()``, ``name.strip()``, ``name.split("_")[-1]`` (nested): the steps, or None."""
    if isinstance(expr, ast.Name) and expr.id == name:
        return []
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and not expr.keywords \
            and expr.func.attr in ("lower", "strip") and not expr.args:
        inner = _chain(expr.func.value, name)
        return None if inner is None else [*inner, (expr.func.attr, None)]
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call) \
            and isinstance(expr.value.func, ast.Attribute) and expr.value.func.attr == "split" \
            and len(expr.value.args) == 1 and isinstance(expr.value.args[0], ast.Constant) \
            and isinstance(expr.value.args[0].value, str) and isinstance(expr.slice, (ast.Constant, ast.UnaryOp)):
        index = _index(expr.slice)
        if not isinstance(index, int):
            return None
        inner = _chain(expr.value.func.value, name)
        return None if inner is None else [*inner, ("split", (expr.value.args[0].value, index))]
    return None


def _index(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, int):
        return -node.operand.value
    return None


def _apply(value: str, steps: list[tuple[str, Any]]) -> Optional[str]:
    for op, arg in steps:
        if op == "lower":
            value = value.lower()
        elif op == "strip":
            value = value.strip()
        else:
            parts = value.split(arg[0])
            if not -len(parts) <= arg[1] < len(parts):
                return None
            value = parts[arg[1]]
    return value


def _imports(tree: ast.AST) -> dict[str, str]:
    return import_names(ast.walk(tree))


def _torch_optimizer(stmts: list[ast.stmt], imports: dict[str, str]) -> Optional[str]:
    names = []
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                name = dotted_name(node.func) or ""
                head, _, rest = name.partition(".")
                full = f"{imports.get(head, head)}.{rest}" if rest else imports.get(head, head)
                parts = full.split(".")
                if parts[:2] == ["torch", "optim"] and len(parts) == 3 and parts[2][:1].isupper():
                    names.append(parts[2])
    return names[0] if len(set(names)) == 1 else None


def _arm(fn: ast.FunctionDef, var: str, value: str, imports: dict[str, str]) -> Optional[tuple[str, int]]:
    """The torch optimizer of the arm whose ``var == "literal"`` test the value matches, and its line."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.If):
            continue
        here: Optional[ast.If] = node
        while here is not None:
            test = here.test
            if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
                    and isinstance(test.left, ast.Name) and test.left.id == var
                    and isinstance(test.comparators[0], ast.Constant)):
                break
            if test.comparators[0].value == value:
                name = _torch_optimizer(here.body, imports)
                return (name, here.lineno) if name else None
            here = here.orelse[0] if len(here.orelse) == 1 and isinstance(here.orelse[0], ast.If) else None
        return None  # the first chain of the function: the dispatch
    return None


def dispatched_optimizer(p: Any) -> bool:
    """Add ``optimizer.name`` through such a helper (module docstring); True when added."""
    from preflight.adapters_api import Resolved
    from preflight.script_helper_writes import local_module_function

    idx = p.idx
    for site in p.calls:
        if not site.call.args or site.name is None or "optim" not in site.name.lower():
            continue
        fn: Optional[ast.FunctionDef] = None
        where = str(p.script.source.display)
        tree: ast.AST = p.script.tree
        name = site.name
        if name in idx.functions and name not in idx.imports:
            defs = [d for d in idx.functions[name] if isinstance(d, ast.FunctionDef)]
            fn = defs[0] if len(defs) == 1 else None
        elif name.partition(".")[0] in idx.imports:
            found = local_module_function(idx, idx.qualify(name) or "")
            if found is not None and isinstance(found[0], ast.FunctionDef):
                fn, where = found[0], str(found[1])
                from preflight.local_trees import parse_file

                try:
                    tree = parse_file(found[1])
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
        if fn is None:
            continue
        params = [a.arg for a in fn.args.args]
        for k, arg in enumerate(site.call.args[: len(params)]):
            steps = _steps(fn, params[k])
            got = p.value(arg)
            if got is None or not isinstance(got.value, str) or not got.value:
                continue
            var, chain = steps if steps is not None else (params[k], [])
            value = _apply(got.value, chain)
            if value is None:
                continue
            arm = _arm(fn, var, value, _imports(tree))
            if arm is None:
                continue
            detail = (f"{site.label}(...) picks the optimizer by name: {params[k]}={got.value!r} takes the arm at "
                      f"{where}:{arm[1]}")
            p.put("optimizer.name", Resolved(arm[0], got.kind, got.line, got.key, got.detail), site, detail, "medium")
            return True
    return False
