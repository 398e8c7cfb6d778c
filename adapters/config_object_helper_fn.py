"""The project function a config-loading helper call names, for
:func:`preflight.adapters.config_object_files.helper_path`: ``load_config(E)`` (a function of the script or
one it imports by name) and ``misc.load_config(E)`` with ``import utils.misc as misc`` (or ``from utils
import misc``) at the top of the script naming a project module whose top defines the function once
(guanjq/targetdiff @ the benchmark's commit, ``scripts/train_diffusion.py:14,49`` ``config =
misc.load_config(args.config)`` of ``utils/misc.py:23-25``: ``with open(path, 'r') as f: return
EasyDict(yaml.safe_load(f))``). Also the dict wrapper such a helper may return the loaded dict in
(``EasyDict(...)``, ``edict(...)``, ``Munch(...)``, ... imported in the helper's module): its attributes are
the file's keys. Read, never run."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional


def helper_function(call: ast.Call, modules: Any) -> Optional[tuple[str, ast.FunctionDef]]:
    """(shown module, function) of the module-level project function ``call`` names, else None."""
    func = call.func
    if isinstance(func, ast.Name):
        got = modules.function(func.id)
        return (got[0], got[1]) if got is not None and got[2] is None else None
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    alias = func.value.id
    script = modules.trees[0][2]
    dotted: list[str] = []
    for node in script.body:
        if isinstance(node, ast.Import):
            dotted += [a.name for a in node.names if (a.asname or a.name) == alias and (a.asname or "." not in a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            dotted += [f"{node.module}.{a.name}" for a in node.names if (a.asname or a.name) == alias]
    rebound = [t for n in ast.walk(script) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
               if isinstance(t, ast.Name) and t.id == alias]
    if len(dotted) != 1 or rebound:
        return None
    rel = dotted[0].replace(".", "/")
    for shown, _path, tree in modules.trees[1:]:
        stem = Path(shown).with_suffix("").as_posix()
        stem = stem[:-len("/__init__")] if stem.endswith("/__init__") else stem
        if stem == rel or stem.endswith(f"/{rel}"):
            found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func.attr]
            return (shown, found[0]) if len(found) == 1 else None
    return None


def unwrapped_return(value: ast.AST, shown: str, modules: Any) -> ast.AST:
    """``value`` without a library dict wrapper imported in the module ``shown`` (``EasyDict(yaml.safe_load(f))``
    -> ``yaml.safe_load(f)``); else ``value`` itself."""
    from preflight.adapters.config_object_dict2ns import unwrapped_load
    from preflight.adapters.config_object_roots import dict_wrapper

    tree = next((t for s, _, t in modules.trees if s == shown), None)
    if tree is None:
        return value
    inner = unwrapped_load(value, lambda v: dict_wrapper(v, modules, tree))
    return inner if inner is not None else value


def joined_in_directory(expr: ast.AST, param: str, bound: dict[str, list[ast.AST]], shown: str,
                        modules: Any) -> Optional[ast.AST]:
    """The file a helper loads from the directory its one parameter names: ``filename =
    os.path.join(experiment_directory, specifications_filename)`` then ``return json.load(open(filename))``
    with ``specifications_filename = "specs.json"`` a module-level literal of the helper's module
    (facebookresearch/DeepSDF @ 48c19b8 ``deep_sdf/workspace.py:15,24-35``, called
    ``specs = ws.load_experiment_specifications(experiment_directory)`` at ``train_deep_sdf.py:255`` with
    ``-e examples/sofas``): the join, as ``[param, "specs.json"]`` parts (the parameter, then literals); None
    for any other shape (a name bound twice, a part computed otherwise, a module name rebound)."""
    if isinstance(expr, ast.Name) and len(bound.get(expr.id, [])) == 1:
        expr = bound[expr.id][0]
    if not (isinstance(expr, ast.Call) and not expr.keywords and len(expr.args) >= 2
            and ast.unparse(expr.func) in ("os.path.join", "osp.join", "path.join")):
        return None
    first = expr.args[0]
    if not (isinstance(first, ast.Name) and first.id == param):
        return None
    tree = next((t for s, _, t in modules.trees if s == shown), None)
    literals: dict[str, list[Any]] = {}
    for node in tree.body if tree is not None else []:
        for target in node.targets if isinstance(node, ast.Assign) else []:
            if isinstance(target, ast.Name):
                literals.setdefault(target.id, []).append(node.value)
    parts: list[ast.expr] = [first]
    for arg in expr.args[1:]:
        if isinstance(arg, ast.Name) and arg.id not in bound and len(literals.get(arg.id, [])) == 1:
            arg = literals[arg.id][0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            return None
        parts.append(ast.Constant(value=arg.value))
    return ast.Call(func=ast.Attribute(value=ast.Attribute(value=ast.Name(id="os", ctx=ast.Load()), attr="path",
                                                           ctx=ast.Load()), attr="join", ctx=ast.Load()),
                    args=parts, keywords=[])
