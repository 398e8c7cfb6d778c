"""A class a config names by a dotted path (ldm's ``target:``, Hydra's ``_target_:``), read from the project's
own files (never imported), and the optimizer its ``configure_optimizers`` builds.

latent-diffusion-style repositories build the LightningModule from the config:
``model = instantiate_from_config(config.model)`` (CompVis/latent-diffusion @ a506df5 ``main.py:571``,
``ldm/util.py:78-88``: ``get_obj_from_str(config["target"])(**config.get("params", dict()))``), so the
optimizer lives in ``configure_optimizers`` of the named class or of a base class it inherits it from
(Doubiiu/DynamiCrafter ``lvdm/models/ddpm3d.py:1029,1202-1226`` ``class LatentVisualDiffusion(LatentDiffusion)``
... ``torch.optim.AdamW(params, lr=lr)``; haoheliu/AudioLDM-training-finetuning
``audioldm_train/modules/latent_diffusion/ddpm.py:961,1046-1058``). A Hydra ``_target_`` may name a class
re-exported by a package ``__init__`` (SalesforceAIResearch/uni2ts ``uni2ts.model.moirai.MoiraiPretrain``
-> ``src/uni2ts/model/moirai/__init__.py`` ``from .pretrain import MoiraiPretrain``).

The dotted module is looked up under each base folder given (the project root, its ``src/`` folder, the
script's folder), as ``a/b.py`` or ``a/b/__init__.py``; a name the module re-exports (``from .x import C``,
``from pkg.x import C``) is followed, as are base classes defined in the same file or imported from the
project (six classes deep). The first class in that order that defines ``configure_optimizers`` decides:
the optimizer classes it constructs (``torch.optim``, bitsandbytes, apex, DeepSpeed, a local ``Optimizer``
subclass: :func:`preflight.adapters.optimizer_local.optimizers_in`) when they are exactly one class; one
picked at run time (``getattr(torch.optim, name)``), none, or several leave it unknown.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple, Optional

from preflight.adapters.import_names import import_names
from preflight.adapters.optimizer_local import DYNAMIC, optimizers_in

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_small_file

_DEPTH = 6


class FoundClass(NamedTuple):
    path: Path
    module: str  # dotted module name of ``path``
    tree: ast.Module
    cls: ast.ClassDef


class FoundOptimizer(NamedTuple):
    name: str
    path: Path
    line: int
    owner: str  # the class whose configure_optimizers builds it


def path_additions(tree: Optional[ast.AST], root: Optional[Path]) -> list[Path]:
    """Folders a script puts on ``sys.path`` by a literal (``sys.path.append("./stable_diffusion")``,
    timothybrooks/instruct-pix2pix @ 0dffd1e ``main.py:24``, the vendored latent-diffusion package holding the
    ``ldm.`` classes its config names), taken from the folder the job runs in."""
    out: list[Path] = []
    for node in ast.walk(tree) if tree is not None and root is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "insert") and node.args \
                and (dotted_name(node.func.value) or "") == "sys.path":
            arg = node.args[-1]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip() \
                    and root is not None and not Path(arg.value).is_absolute():
                out.append(root / arg.value)
    return out


def target_bases(root: Optional[Path], script_dirs: list[Path]) -> list[Path]:
    """Where a dotted module is looked for: the project root, its ``src/`` folder, the scripts' folders."""
    out: list[Path] = []
    for cand in ([root, root / "src"] if root is not None else []) + script_dirs:
        if cand is not None and cand.is_dir() and cand.resolve() not in out:
            out.append(cand.resolve())
    return out


def module_file(module: str, bases: list[Path]) -> Optional[Path]:
    """``a.b`` -> the first ``<base>/a/b.py`` or ``<base>/a/b/__init__.py`` that exists."""
    if not module or not all(p.isidentifier() for p in module.split(".")):
        return None
    rel = Path(*module.split("."))
    for base in bases:
        for cand in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if cand.is_file():
                return cand
    return None


def _absolute(node: ast.ImportFrom, module: str, path: Path) -> Optional[str]:
    """The absolute module an ``ImportFrom`` of ``module`` (the file ``path``) names."""
    if not node.level:
        return node.module
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if node.level - 1 > len(package):
        return None
    head = package[:len(package) - (node.level - 1)]
    return ".".join([*head, *([node.module] if node.module else [])]) or None


def find_class(target: str, bases: list[Path], depth: int = 0) -> Optional[FoundClass]:
    """The class ``target`` (``pkg.mod.Class``) names in the project's files, following re-exports."""
    module, _, name = target.rpartition(".")
    if depth > _DEPTH or not name.isidentifier():
        return None
    path = module_file(module, bases)
    tree = parse_small_file(path) if path is not None else None
    if path is None or tree is None:
        return None
    defs = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(defs) == 1:
        return FoundClass(path, module, tree, defs[0])
    if defs:
        return None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name and alias.name != "*":
                    source = _absolute(node, module, path)
                    return find_class(f"{source}.{alias.name}", bases, depth + 1) if source else None
    return None


def _base_class(found: FoundClass, base: ast.expr, bases: list[Path], depth: int) -> Optional[FoundClass]:
    if isinstance(base, ast.Name):
        same = [n for n in found.tree.body if isinstance(n, ast.ClassDef) and n.name == base.id]
        if len(same) == 1:
            return FoundClass(found.path, found.module, found.tree, same[0])
        for node in found.tree.body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == base.id:
                        source = _absolute(node, found.module, found.path)
                        return find_class(f"{source}.{alias.name}", bases, depth + 1) if source else None
        return None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        imported = import_names(found.tree.body).get(base.value.id)
        return find_class(f"{imported}.{base.attr}", bases, depth + 1) if imported else None
    return None


def configure_optimizers(found: FoundClass, bases: list[Path], depth: int = 0) -> Optional[FoundOptimizer]:
    """The one optimizer class the ``configure_optimizers`` the class runs (its own or inherited) builds."""
    if depth > _DEPTH:
        return None
    fns = [n for n in found.cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
           and n.name == "configure_optimizers"]
    if len(fns) > 1:
        return None
    if fns:
        fn = fns[0]
        end = getattr(fn, "end_lineno", None) or fn.lineno
        made = [(n, line) for n, line, _f in optimizers_in(found.tree) if fn.lineno <= line <= end]
        if not made or len({n for n, _ in made}) != 1 or made[0][0] == DYNAMIC:
            return None
        return FoundOptimizer(made[0][0], found.path, made[0][1], found.cls.name)
    for base in found.cls.bases:
        parent = _base_class(found, base, bases, depth)
        if parent is not None:
            got = configure_optimizers(parent, bases, depth + 1)
            if got is not None:
                return got
            if any(isinstance(n, ast.FunctionDef) and n.name == "configure_optimizers" for n in parent.cls.body):
                return None  # the base defines it, but what it builds is not one known class
    return None
