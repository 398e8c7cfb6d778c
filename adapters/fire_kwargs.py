"""``TrainingArguments(**kwargs)`` inside a ``fire.Fire`` entry whose ``**kwargs`` collects the launch line's
options that are none of its parameters (kbressem/medAlpaca @ 63448c5 ``medalpaca/train.py:26-60,225-251``:
``def main(model, ..., **kwargs)``, ``TrainingArguments(..., **kwargs)``, ``fire.Fire(main)``; the example
script passes ``--tf32 True`` that way). Fire hands every ``--name value`` (``--name=value``, a bare ``--flag``
is True) whose name is no parameter to ``**kwargs``, its value parsed as a Python literal when it is one.
So the mapping is known exactly: those words, and nothing else. The function writing into it, a word not
known statically (``$VAR``), or a positional word beyond the parameters: None."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.script_argv import opaque_words


def _fired(idx: Any, name: str) -> bool:
    return any((c.name or "").rsplit(".", 1)[-1] == "Fire" and c.call.args and isinstance(c.call.args[0], ast.Name)
               and c.call.args[0].id == name for c in idx.calls)


def fire_kwargs(idx: Any, function: Optional[str], name: str) -> Optional[dict[str, tuple[Any, str]]]:
    """``{key: (value, the launch-line words)}`` of the ``**name`` of the fire entry ``function``; else None."""
    defs = idx.functions.get(function or "", [])
    if len(defs) != 1 or not isinstance(defs[0], ast.FunctionDef) or defs[0].args.kwarg is None \
            or defs[0].args.kwarg.arg != name or not _fired(idx, defs[0].name) or opaque_words(idx.args):
        return None
    fn = defs[0]
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and getattr(node.value, "id", None) == name:
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and getattr(node.func.value, "id", None) == name and node.func.attr in ("update", "pop", "setdefault"):
            return None
        if isinstance(node, (ast.Assign, ast.AugAssign)) and any(
                getattr(t, "id", None) == name for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            return None
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    args = list(idx.args)
    out: dict[str, tuple[Any, str]] = {}
    k = 0
    while k < len(args):
        tok = args[k]
        if not tok.startswith("--"):
            return None  # a positional word: which parameter it fills is not read here
        key, eq, raw = tok[2:].partition("=")
        if not eq:
            if k + 1 < len(args) and not args[k + 1].startswith("--"):
                raw, k = args[k + 1], k + 1
            else:
                raw = "True"
        k += 1
        key = key.replace("-", "_")
        if key in params:
            continue
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = raw
        out[key] = (value, f"--{key} {raw}")
    return out
