"""A model module with the project classes it imports, for counting (``module_params_nested``).

A project's model class is often built from classes of other project modules: relative imports
(facebookresearch/ConvNeXt-V2 ``models/convnextv2.py:12`` ``from .utils import LayerNorm, GRN``) or
absolute ones from the project root (LTH14/mar @ fe470ac ``models/mar.py:13`` ``from models.diffloss
import DiffLoss``, whose ``DiffLoss`` builds ``SimpleMLPAdaLN`` and ``ResBlock`` of the same file).
``with_imports`` returns the module with, before its own statements, the classes and functions of the
project modules it imports (and of the modules those import, four levels at most), and their imports of
timm and of plain packages (numpy, scipy); the module's own definitions come last and win. A name two
imported modules define differently is left out (which one a class means is not decided here), so a
count that needs it stays unknown. Read, never imported.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Optional

_MAX_BYTES = 500_000
_MAX_FILES = 24
_LEVELS = 4  # imports of imports (a package's __init__ re-exporting its modules counts as one)
_ROOT_UP = 3  # an absolute import is looked for in the module's folder and up to this many above it


def _parse(p: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_project_file

    return parse_project_file(p, _MAX_BYTES)


def _file_of(folder: Path, dotted: str) -> Optional[Path]:
    from preflight.local_trees import module_file

    return module_file(folder, dotted)


def imported_files(path: Path, tree: ast.Module) -> list[Path]:
    """The project files ``tree`` (the module at ``path``) imports from: ``from .m import X`` beside it
    (``..m`` above it), ``from pkg.m import X`` / ``import pkg.m`` under its folder or a folder above it
    (the first that has it), ``from pkg import m`` where ``m`` is a module file."""
    out: list[Path] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.level >= 1:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                roots = [base]
            else:
                roots = [path.parent, *list(path.parents)[1:_ROOT_UP + 1]]
            names = [a.name for a in node.names if a.name != "*"]
            for root in roots:
                found = _file_of(root, node.module) if node.module else None
                subs = [f for f in (_file_of(root, f"{node.module}.{n}" if node.module else n) for n in names)
                        if f is not None]
                if found is not None or subs:
                    out.extend([found] if found is not None else [])
                    out.extend(subs)
                    break
        elif isinstance(node, ast.Import):
            for a in node.names:
                for root in [path.parent, *list(path.parents)[1:_ROOT_UP + 1]]:
                    found = _file_of(root, a.name)
                    if found is not None:
                        out.append(found)
                        break
    return [p for p in dict.fromkeys(out) if p != path]


def _kept(node: ast.stmt) -> bool:
    """What a merged module contributes: its classes, functions, imports of timm, torchvision and plain
    packages, layers and helpers imported by name from torch.nn, and torch imported under another name."""
    from preflight.adapters.module_params_values import _PLAIN_PACKAGES

    if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
        return True
    if isinstance(node, ast.ImportFrom) and node.level == 0:
        return (node.module or "").split(".")[0] in {"timm", "torchvision", *_PLAIN_PACKAGES} \
            or node.module in ("torch.nn.init", "torch.nn", "torch.nn.modules.utils")
    if isinstance(node, ast.Import):
        # ``import torch as th`` of an imported module (openai/guided-diffusion ``unet.py:7``): its alias;
        # ``import torchvision`` (a backbone built by name: module_params_torchvision)
        return all(a.name.split(".")[0] in _PLAIN_PACKAGES or (a.name == "torch" and a.asname)
                   or (a.name == "torch.nn.functional" and a.asname)
                   or a.name.split(".")[0] == "torchvision" for a in node.names)
    return False


def _literal_constant(node: ast.stmt) -> Optional[str]:
    """The name a module binds to a literal table at its top (weiaicunzai/pytorch-cifar100 @ 11d8418
    ``models/vgg.py:12-17`` ``cfg = {'D': [64, 64, 'M', ...], ...}``, read by ``make_layers(cfg['D'])`` of the
    same file): kept in the merged module unless another module read binds it otherwise."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, (ast.Dict, ast.List, ast.Tuple, ast.Constant))):
        return None
    try:
        ast.literal_eval(node.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return node.targets[0].id


def _guarded_param_free(node: ast.Try) -> list[ast.stmt]:
    """The imports of parameter-free library layers inside a module's ``try:`` (Tencent/HunyuanDiT @ 368280e
    ``hydit/modules/attn_layers.py:6-16``: ``try: import flash_attn ... from flash_attn.modules.mha import
    FlashSelfAttention``), kept so the merged module still knows those names hold no parameters."""
    from preflight.adapters.module_params_values import _PARAM_FREE_IMPORTS

    return [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and n.level == 0
            and any((n.module, a.name) in _PARAM_FREE_IMPORTS for a in n.names)]


def with_imports(path: Path, tree: ast.Module) -> ast.Module:
    """``tree`` with the definitions of the project modules it imports placed before its own (see the
    module comment); ``tree`` itself when it imports none."""
    from preflight.adapters.module_params_values import layer_alias

    seen = {path}
    order: list[tuple[Path, ast.Module]] = []
    todo = [(p, 1) for p in imported_files(path, tree)]
    while todo and len(seen) < _MAX_FILES:
        p, level = todo.pop(0)
        if p in seen:
            continue
        seen.add(p)
        sub = _parse(p)
        if sub is None:
            continue
        order.append((p, sub))
        if level < _LEVELS:
            todo.extend((q, level + 1) for q in imported_files(p, sub) if q not in seen)
    if not order:
        return tree
    defined: dict[str, str] = {}
    clash: set[str] = set()
    for _p, sub in order:
        for node in sub.body:
            named = node.name if isinstance(node, (ast.ClassDef, ast.FunctionDef)) else _literal_constant(node)
            alias = layer_alias(node) if named is None else None
            if alias is not None:
                named = alias[0]
            if named is not None:
                shape = ast.dump(node)
                if defined.setdefault(named, shape) != shape:
                    clash.add(named)
    own = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    own_names = own | {t.id for n in tree.body for t in ast.walk(n) if isinstance(t, ast.Name)
                       and isinstance(t.ctx, ast.Store)}  # a constant of the module itself wins
    from preflight.adapters.module_params_qualified import unqualified

    def find(at: Path, dotted: str) -> Optional[Path]:
        return next((f for f in (_file_of(r, dotted) for r in [at.parent, *list(at.parents)[1:_ROOT_UP + 1]])
                     if f is not None), None)

    # ``import modules`` then ``modules.WN(...)``: the merged module names the class ``WN``
    tree = unqualified(path, tree, own | clash, find, _parse)
    order = [(p, unqualified(p, sub, own | clash, find, _parse)) for p, sub in order]
    extra: list[ast.stmt] = []
    placed: set[str] = set()
    shadowed: dict[str, ast.stmt] = {}  # an imported class or function whose name the module's own one takes
    # the deepest imports first: a module's own names come after those it imports
    for _p, sub in reversed(order):
        for node in sub.body:
            if isinstance(node, ast.Try):
                extra.extend(_guarded_param_free(node))
                continue
            constant = _literal_constant(node)
            alias = layer_alias(node)
            if alias is not None:  # ``Linear = nn.Linear`` (nuwave ``model.py:12``), unless this module binds it
                if alias[0] not in own_names and alias[0] not in clash and alias[0] not in placed:
                    placed.add(alias[0])
                    extra.append(node)
                continue
            if not _kept(node) and constant is None:
                continue
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)) or constant is not None:
                name = node.name if isinstance(node, (ast.ClassDef, ast.FunctionDef)) else str(constant)
                if name in (own_names if constant is not None else own) or name in clash or name in placed:
                    if name in own and name not in clash and constant is None:
                        shadowed.setdefault(name, node)
                    continue
                placed.add(name)
            extra.append(node)
    # names imported under another name (``from .layers import NestedTensorBlock as Block``): the definition
    # again under that name, unless the name is taken; also one whose own name this module's class takes
    # (mindslab-ai/nuwave @ 88aba86 ``lightning_model.py:13,24-28``: ``from model import NuWave as model`` inside
    # a module that defines its own ``NuWave``, then ``self.model = model(hparams)``)
    by_name = {n.name: n for n in extra if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    for module in [tree, *(sub for _p, sub in order)]:
        for node in module.body:
            if not isinstance(node, ast.ImportFrom):
                continue
            for a in node.names:
                if module is tree and a.asname and a.name in shadowed and a.name not in by_name \
                        and a.asname not in own and a.asname not in placed and a.asname not in clash:
                    renamed = copy.copy(shadowed[a.name])
                    assert isinstance(renamed, (ast.ClassDef, ast.FunctionDef))
                    renamed.name = a.asname
                    placed.add(a.asname)
                    extra.append(renamed)
                    continue
                if a.asname and a.name in by_name and a.asname not in own and a.asname not in placed \
                        and a.asname not in clash:
                    renamed = copy.copy(by_name[a.name])
                    renamed.name = a.asname
                    placed.add(a.asname)
                    extra.append(renamed)
    if not extra:
        return tree
    return ast.Module(body=[*extra, *tree.body], type_ignores=[])
