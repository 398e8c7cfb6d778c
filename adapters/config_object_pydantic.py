"""A project config class built from the command line by ``pydantic_config``: ``Config(**parse_argv())``.

``pydantic_config.parse_argv()`` turns the launch line into a nested dict that the project's pydantic
class validates (samsja/pydantic_config README "CLI syntax": ``--key value``, ``-`` read as ``_``,
``--a.b value`` nested, a bare ``--flag`` True and ``--no-flag`` False). PrimeIntellect-ai/OpenDiloco
@ the benchmark's commit ``open_diloco/train_fsdp.py:18,104-105,173-174,525``: ``class Config(BaseConfig):
path_model: str = "PrimeIntellect/llama-150m-fresh"`` ... ``config = Config(**parse_argv())``, then
``LlamaForCausalLM.from_pretrained(pretrained_model_name_or_path=config.path_model, ...)``, launched with
``--path_model PrimeIntellect/llama-1b-fresh``.

``argv_tree`` gives the class's tree (its defaults) with each launch-line option over it, at the key
path the option names; read, never imported. Only that call shape (the one spread argument, the call
``parse_argv()`` without arguments, imported from ``pydantic_config``); anything else is not read.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_MODULES = ("pydantic_config", "pydantic_cli")


def parse_argv_spread(call: ast.Call, script_tree: ast.Module) -> bool:
    """``Cls(**parse_argv())`` with ``parse_argv`` imported from pydantic_config in the script."""
    if call.args or len(call.keywords) != 1 or call.keywords[0].arg is not None:
        return False
    inner = call.keywords[0].value
    if not (isinstance(inner, ast.Call) and not inner.args and not inner.keywords):
        return False
    if isinstance(inner.func, ast.Name):
        return any(isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in _MODULES
                   and any(a.name == "parse_argv" and (a.asname or a.name) == inner.func.id for a in n.names)
                   for n in ast.walk(script_tree))
    if isinstance(inner.func, ast.Attribute) and inner.func.attr == "parse_argv" \
            and isinstance(inner.func.value, ast.Name):
        return any(isinstance(n, ast.Import) and any(a.name in _MODULES and (a.asname or a.name) == inner.func.value.id
                                                     for a in n.names) for n in ast.walk(script_tree))
    return False


def argv_tree(tree: dict, argv: list[str]) -> dict:
    """``tree`` (the class's defaults) with the launch line's options set over it."""
    from preflight.adapters.config_object import Leaf, launch_options

    out = dict(tree)
    raw_keys = [t[2:].partition("=")[0] for t in argv if t.startswith("--") and len(t) > 2]
    for (key, value), raw in zip(launch_options(argv), raw_keys):
        path = key.split(".")
        if value is True and path[-1].startswith("no_") and len(path[-1]) > 3:
            holder = _holder(out, path[:-1])
            if holder is not None and path[-1][3:] in holder and path[-1] not in holder:
                path, value = [*path[:-1], path[-1][3:]], False
        holder = _holder(out, path[:-1], create=True)
        if holder is None:
            continue
        holder[path[-1]] = Leaf(value, "", None, "launch line", key=f"--{raw}")
    return out


def _holder(tree: dict, path: list[str], create: bool = False) -> Optional[dict]:
    at: Any = tree
    for key in path:
        if not isinstance(at, dict):
            return None
        if key not in at:
            if not create:
                return None
            at[key] = {}
        elif isinstance(at[key], dict):
            at[key] = dict(at[key])  # the class's own tree stays as built
        at = at[key]
    return at if isinstance(at, dict) else None
