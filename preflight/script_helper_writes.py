"""Options a helper rewrites: the argparse namespace handed to a function that assigns its attributes.

facebookresearch/deit @ 7e160fe ``main.py:184`` declares ``--distributed`` (``store_true``, default
False), but ``main.py:192`` ``utils.init_distributed_mode(args)`` sets ``args.distributed = True`` when
the launcher exported ``RANK``/``WORLD_SIZE`` (``utils.py:217-229``), and ``main.py:344``
``if args.distributed:`` wraps the model in DDP. The argparse default is then not the value the code
reads: ``args.distributed`` is unknown, not False. The same ``init_distributed_mode(args)`` helper is in
DETR, MAE, BEiT, ConvNeXt, DINO and their forks.

Read (never imported): each call of the script that passes a name holding the script's argparse result
(positionally or by keyword) to a function of a module of the project it imports (found from the
script's folder upward; the script's own functions are not looked into); the attributes that function assigns on that parameter
(``p.x = ...``, ``p.x += ...``, ``setattr(p, "x", ...)``) are written by a helper. A function that
cannot be found or read writes nothing known, as before (the argparse value stays).

The script's own code rewrites an option the same way when it divides it in place by a value known
only at run time: facebookresearch/moco-v3 @ c349e6e ``main_moco.py:206-207`` (after ``mp.spawn``)
``args.batch_size = int(args.batch_size / args.world_size)`` and
``args.workers = int((args.workers + ngpus_per_node - 1) / ngpus_per_node)``, the shape of
pytorch/examples ``imagenet/main.py``: the DataLoader then reads the per-process value, not the
launch-line one. Such an option is unknown too (a division by a literal is not this shape).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_MAX_BYTES = 1_000_000


def _written(fn: ast.AST, param: str) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and node.args[0].id == param \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            out.add(node.args[1].value)
        for target in targets:
            for t in ast.walk(target):
                if isinstance(t, ast.Attribute) and isinstance(t.ctx, ast.Store) and isinstance(t.value, ast.Name) \
                        and t.value.id == param:
                    out.add(t.attr)
    return out


def _param_at(fn: Any, call: ast.Call, name: str) -> Optional[str]:
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if isinstance(arg, ast.Name) and arg.id == name:
            return positional[i] if i < len(positional) else None
    for kw in call.keywords:
        if kw.arg is not None and isinstance(kw.value, ast.Name) and kw.value.id == name:
            return kw.arg
    return None


def _function(idx: Any, call: ast.Call) -> Optional[Any]:
    name = dotted_name(call.func)
    if not name:
        return None
    if name.partition(".")[0] not in idx.imports:
        return None  # the script's own functions: its own writes are read as they always were
    found = local_module_function(idx, idx.qualify(name) or "")
    return found[0] if found is not None else None


def local_module_function(idx: Any, qualified: str,
                          limit: int = _MAX_BYTES) -> Optional[tuple[Any, Path]]:
    """The one top-level ``def`` named by ``qualified`` (``pkg.mod.fn``) in a module file beside
    the script, parsed (never imported) if the file is at most ``limit`` bytes, with its path."""
    from preflight.local_trees import parse_file
    from preflight.script_parsers import _module_file

    module, _, fname = qualified.rpartition(".")
    path = idx.script.source.path
    if not module or path is None:
        return None
    found = _module_file(Path(str(path)).parent, module)
    if found is None:
        return None
    try:
        if found.stat().st_size > limit:
            return None
        tree = parse_file(found)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fname]
    return (defs[0], found) if len(defs) == 1 else None


def _mentions(expr: ast.AST, owner: str, attr: str) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == attr and isinstance(n.value, ast.Name)
               and n.value.id == owner for n in ast.walk(expr))


def _runtime(expr: ast.AST) -> bool:
    """A divisor that is not a literal: a name, attribute or call (``world_size``, ``ngpus_per_node``)."""
    return any(isinstance(n, (ast.Name, ast.Attribute, ast.Call)) for n in ast.walk(expr))


def divided_in_place(idx: Any) -> set[str]:
    """Attributes of the argparse namespace the script reassigns from themselves divided by a run-time
    value (``args.x = int(args.x / world_size)``, ``args.x //= n``)."""
    out: set[str] = set()

    def namespace(name: str) -> bool:
        return name in idx.parsed_args or idx._namespace(name)

    for node in ast.walk(idx.script.tree):
        if isinstance(node, ast.AugAssign):
            aug = node.target
            if isinstance(node.op, (ast.Div, ast.FloorDiv)) and isinstance(aug, ast.Attribute) \
                    and isinstance(aug.value, ast.Name) and _runtime(node.value) and namespace(aug.value.id):
                out.add(aug.attr)
            continue
        if not isinstance(node, ast.Assign):
            continue
        for t in node.targets:
            if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)):
                continue
            owner, attr = t.value.id, t.attr
            if any(isinstance(b, ast.BinOp) and isinstance(b.op, (ast.Div, ast.FloorDiv))
                   and _mentions(b.left, owner, attr) and _runtime(b.right)
                   for b in ast.walk(node.value)) and namespace(owner):
                out.add(attr)
    return out


def helper_written(idx: Any) -> set[str]:
    """Attributes of the script's argparse namespace that a helper it calls assigns, or that the script
    divides in place by a run-time value (:func:`divided_in_place`)."""
    out: set[str] = divided_in_place(idx)
    for name, bound in idx.assigns.items():  # ``args = backend.adjust(args)`` (preflight/script_passthrough.py)
        if name in idx.parsed_args or idx._namespace(name):
            for value in bound:
                out |= idx._handed_back(value, name) or set() if value is not None else set()
    for site in idx.calls:
        names = [a.id for a in site.call.args if isinstance(a, ast.Name)]
        names += [k.value.id for k in site.call.keywords if isinstance(k.value, ast.Name)]
        names = [n for n in names if n in idx.parsed_args or idx._namespace(n)]
        if not names:
            continue
        fn = _function(idx, site.call)
        if fn is None:
            continue
        for name in names:
            param = _param_at(fn, site.call, name)
            if param is not None:
                out |= _written(fn, param)
                from preflight.adapters.cliargs_override_option import sets_file_keys

                opt = sets_file_keys(fn, param) if isinstance(fn, ast.FunctionDef) else None
                if opt is not None:
                    out.add(f"*{opt}")  # every key of the file option `opt` names (relora's check_args_torchrun_main)
    return out
