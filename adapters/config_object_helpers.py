"""Keyword dicts a project helper builds from a config object: ``DataLoader(ds, **kw)`` with
``kw = get_dataloader_kwargs(train_config, ds, processor, "train")`` (meta-llama/llama-cookbook
``src/llama_cookbook/finetuning.py:351-365`` and ``utils/config_utils.py:78-107``, 0e00335): the
helper's body is evaluated with its parameters bound to the call's arguments (the object's
values, literals) by the small evaluator that reads DeepSpeed dicts built in Python
(:class:`preflight.adapters.deepspeed_code._Eval`: literals, ``if``/``elif`` and conditional
expressions on known values, ``kw["key"] = value``). A key whose value is not known is left out.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Modules, Namespace


class _Values(dict):
    """A config (sub-)tree seen by the evaluator: ``obj.key`` is the plain value."""

    def __init__(self, tree: dict) -> None:
        super().__init__()
        self.tree = tree

    def get(self, key: Any, default: Any = None) -> Any:
        got = self.tree.get(key) if isinstance(self.tree, (dict, Namespace)) else None
        if isinstance(got, Leaf):
            return got.value
        if isinstance(got, dict):
            return _Values(got)
        return default


def helper_dict(call: ast.Call, modules: Modules, reader: Any, known: Any) -> Optional[tuple[dict, dict, str, str]]:
    """(values, key -> line, helper's file, helper's name) of the dict ``call`` (a call of one
    project function) returns, or None."""
    from preflight.adapters.deepspeed_code import UNKNOWN, _Eval

    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    got = modules.function(name) if name else None
    if got is None or got[2] is not None:
        return None
    shown, fn, _ = got
    lines: dict = {}
    ev = _Eval(lambda n: UNKNOWN, lines)
    env: dict[str, Any] = {}
    params = fn.args.args
    defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
    for a, d in zip(params, defaults):
        env[a.arg] = ev.expr(d, {}) if d is not None else UNKNOWN
    given: list[tuple[str, ast.AST]] = [(p.arg, v) for p, v in zip(params, call.args)]
    given += [(k.arg, k.value) for k in call.keywords if k.arg]
    bare, reader.bare = reader.bare, True  # a bare name given is its object
    try:
        paths = [reader.chain(value) for _, value in given]
    finally:
        reader.bare = bare
    for (param, value), path in zip(given, paths):
        if path is not None:
            sub = known(path)
            env[param] = _Values(sub) if isinstance(sub, dict) else UNKNOWN if sub is None else sub
        else:
            try:
                env[param] = ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                env[param] = UNKNOWN
    result = ev.body(fn.body, env)
    if not isinstance(result, dict):
        return None
    values = {k: v for k, v in result.items() if v is not UNKNOWN and not isinstance(v, _Values)}
    return values, lines.get(id(result), {}), shown, name
