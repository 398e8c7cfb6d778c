"""A name mapped to a string by a project function of ``if``/``elif`` branches: the value it returns.

Scripts take a short name on the command line and turn it into the model to load with a
function of their own (AI4Finance-Foundation/FinGPT ``fingpt/FinGPT_Forecaster/utils.py:47-54``
@ ec31584: ``def parse_model_name(name, from_remote=False): if name == 'chatglm2': return
'THUDM/chatglm2-6b' if from_remote else 'base_models/chatglm2-6b' elif name == 'llama2': return
'meta-llama/Llama-2-7b-chat-hf' else: raise ValueError(...)``, called ``parse_model_name(
args.base_model, args.from_remote)`` at ``train_lora.py:84`` under ``--base_model llama2``).

A call is read when the function is defined once in the script, or in a local module the script
imports it from (``from utils import *`` / ``from utils import parse_model_name``, the module beside
the script), and its body holds only ``if``/``elif``/``else`` branches, ``return`` and ``raise``:
each test a comparison (``==``, ``!=``, ``in``, ``not in``) of a parameter with literals, or a
parameter's truth; each ``return`` a string, or ``A if param else B`` of strings. The arguments
are resolved as any other value (launch line, declared default, code); a test that cannot be
decided, a branch that raises, or any other statement leaves the call unknown. Never executed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from preflight.script_index import Resolved, ScriptIndex

_UNKNOWN = object()
_MAX_BYTES = 300_000


def _table_function(fn: ast.FunctionDef) -> bool:
    """Only branches, returns and raises (a docstring allowed), with at least one ``if``."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if not any(isinstance(s, ast.If) for s in body):
        return False

    def ok(stmts: list[ast.stmt]) -> bool:
        for s in stmts:
            if isinstance(s, ast.If):
                if not ok(s.body) or not ok(s.orelse):
                    return False
            elif isinstance(s, ast.Return):
                if not _string_return(s.value):
                    return False
            elif not isinstance(s, (ast.Raise, ast.Pass)):
                return False
        return True

    return ok(body)


def _string_return(node: Optional[ast.expr]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.IfExp):
        return _string_return(node.body) and _string_return(node.orelse)
    return False


def _local_function(idx: ScriptIndex, name: str) -> Optional[tuple[ast.FunctionDef, str]]:
    """The def of ``name``: the script's own (one), else a module beside the script it imports from."""
    defs = idx.functions.get(name, [])
    if defs:
        if len(defs) == 1 and isinstance(defs[0], ast.FunctionDef):
            return defs[0], str(idx.script.source.display)
        return None
    path = idx.script.source.path
    if path is None or idx.script.tree is None:
        return None
    folder = Path(str(path)).parent
    for node in idx.script.tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level in (0, 1)):
            continue
        if not any(a.name in ("*", name) and (a.asname in (None, name)) for a in node.names):
            continue
        found = folder / (node.module.replace(".", "/") + ".py")
        if not found.is_file():
            continue
        try:
            if found.stat().st_size > _MAX_BYTES:
                continue
            from preflight.local_trees import parse_file

            tree = parse_file(found)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        defs2 = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
        if len(defs2) == 1:
            return defs2[0], found.name
    return None


def _bind(idx: ScriptIndex, fn: ast.FunctionDef, call: ast.Call, depth: int) -> Optional[dict[str, Any]]:
    """Parameter -> Resolved (or _UNKNOWN): the call's arguments, else the defaults."""
    a = fn.args
    if a.vararg or a.kwarg or a.posonlyargs or any(isinstance(x, (ast.Starred,)) for x in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    names = [p.arg for p in a.args]
    if len(call.args) > len(names):
        return None
    from preflight.script_index import Resolved

    out: dict[str, Any] = {}
    defaults = dict(zip(names[len(names) - len(a.defaults):], a.defaults))
    for kwo, d in zip(a.kwonlyargs, a.kw_defaults):
        names.append(kwo.arg)
        if d is not None:
            defaults[kwo.arg] = d
    given = dict(zip(names, call.args))
    for k in call.keywords:
        if k.arg not in names:
            return None
        given[k.arg] = k.value
    for n in names:
        if n in given:
            got = idx.resolve(given[n], depth + 1)
            out[n] = got if got is not None else _UNKNOWN
        elif n in defaults and isinstance(defaults[n], ast.Constant):
            const = defaults[n]
            assert isinstance(const, ast.Constant)
            out[n] = Resolved(const.value, "code", getattr(const, "lineno", None))
        else:
            out[n] = _UNKNOWN
    return out


def _test(node: ast.expr, env: dict[str, Any], used: list) -> Optional[bool]:
    if isinstance(node, ast.Name) and node.id in env:
        got = env[node.id]
        if got is _UNKNOWN:
            return None
        used.append(got)
        return bool(got.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _test(node.operand, env, used)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [_test(v, env, used) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is False for v in values):
                return False
            return None if any(v is None for v in values) else True
        if any(v is True for v in values):
            return True
        return None if any(v is None for v in values) else False
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.left, ast.Name) \
            and node.left.id in env:
        got = env[node.left.id]
        if got is _UNKNOWN:
            return None
        try:
            right = ast.literal_eval(node.comparators[0])
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return None
        op = node.ops[0]
        used.append(got)
        try:
            if isinstance(op, ast.Eq):
                return bool(got.value == right)
            if isinstance(op, ast.NotEq):
                return bool(got.value != right)
            if isinstance(op, ast.In):
                return got.value in right
            if isinstance(op, ast.NotIn):
                return got.value not in right
        except TypeError:
            return None
    return None


def _run(stmts: list[ast.stmt], env: dict[str, Any], used: list) -> tuple[str, Any]:
    """("return", the string), ("raise", None), ("fall", None) or ("unknown", None)."""
    for s in stmts:
        if isinstance(s, (ast.Pass, ast.Expr)):
            continue  # a docstring (the body was checked to hold nothing else)
        if isinstance(s, ast.Raise):
            return "raise", None
        if isinstance(s, ast.Return):
            node = s.value
            while isinstance(node, ast.IfExp):
                t = _test(node.test, env, used)
                if t is None:
                    return "unknown", None
                node = node.body if t else node.orelse
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                return "return", node.value
            return "unknown", None
        if isinstance(s, ast.If):
            t = _test(s.test, env, used)
            if t is None:
                return "unknown", None
            got = _run(s.body if t else s.orelse, env, used)
            if got[0] != "fall":
                return got
            continue
        return "unknown", None
    return "fall", None


def mapped_call(idx: ScriptIndex, call: ast.Call, depth: int) -> Optional[Resolved]:
    """The string a name-table function returns for the call's arguments, else None."""
    if not isinstance(call.func, ast.Name):
        return None
    found = _local_function(idx, call.func.id)
    if found is None or not _table_function(found[0]):
        return None
    fn, where = found
    env = _bind(idx, fn, call, depth)
    if env is None:
        return None
    used: list = []
    status, got = _run(list(fn.body), env, used)
    if status != "return" or not isinstance(got, str):
        return None
    from preflight.script_index import Resolved

    cli = next((u for u in used if u.kind == "cli"), None)
    detail = f"{fn.name}() at {where}:{fn.lineno} maps it to {got!r}"
    if cli is not None:
        return Resolved(got, "cli", getattr(call, "lineno", None), cli.key,
                        f"{cli.detail}; {detail}" if cli.detail else detail)
    return Resolved(got, "code", getattr(call, "lineno", None), None, detail)
