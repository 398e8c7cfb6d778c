"""A config object that is a YAML the command line names as ``config=PATH``, merged under the
command line's dotted ``key=value`` arguments (OmegaConf's CLI form):

    def get_config():
        cli_conf = OmegaConf.from_cli()
        yaml_conf = OmegaConf.load(cli_conf.config)
        return OmegaConf.merge(yaml_conf, cli_conf)

(bytedance/1d-tokenizer @ 942a96fb ``utils/train_utils.py:47-54``, called as ``config =
get_config()`` by ``scripts/train_rar.py:39`` and launched with ``config=configs/training/generator/
rar.yaml model.generator.hidden_size=1024 ...``, README_RAR.md:179-186). The tree is the file's keys
with each ``a.b=v`` of the launch line over them (a later ``merge`` argument wins, so the command
line's values are the job's). Only a project function without parameters whose body is that
shape: ``from_cli()`` bound to a name, ``OmegaConf.load(<name>.<key>)`` and ``OmegaConf.merge``
whose last argument is that name. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Tree

_KEY = re.compile(r"[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*")


def _is(node: Any, attr: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "OmegaConf"


def cli_merged_key(call: ast.AST, builder: Any) -> Optional[str]:
    """The key naming the file (``config``) when ``call`` is ``f()`` of a project function of that
    shape, else None."""
    if builder is None or not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) \
            or call.args or call.keywords:
        return None
    # the entry's own import first: two modules may define a function of that name (demo_util.py too)
    got = builder.m.function_in(call.func.id, builder.m.trees[0][0]) or builder.m.function(call.func.id)
    if got is None or got[2] is not None:
        return None
    fn = got[1]
    if fn.args.args or fn.args.posonlyargs or fn.args.kwonlyargs:
        return None
    cli: Optional[str] = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and _is(node.value, "from_cli") and not node.value.args:
            cli = node.targets[0].id
    if cli is None:
        return None
    key: Optional[str] = None
    merged = False
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        if _is(node, "load") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == cli:
                key = arg.attr
        if _is(node, "merge") and node.args:
            last = node.args[-1]
            merged = merged or (isinstance(last, ast.Name) and last.id == cli)
    return key if merged else None


def _scalar(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "~"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip("'\"")


def cli_overrides(tree: Tree, argv: list[str], skip: str) -> None:
    """Sets each ``a.b=v`` of the launch line in ``tree`` (the ``skip`` key is the file's name)."""
    for tok in argv:
        key, eq, value = tok.partition("=")
        if not eq or tok.startswith("-") or key == skip or not _KEY.fullmatch(key) or "${" in value:
            continue
        parts = key.split(".")
        node: Any = tree
        for part in parts[:-1]:
            nxt = node.get(part) if isinstance(node, dict) else None
            if not isinstance(nxt, dict):
                nxt = {}
                node[part] = nxt
            node = nxt
        node[parts[-1]] = Leaf(_scalar(value), "", None, "launch line", key=tok)
