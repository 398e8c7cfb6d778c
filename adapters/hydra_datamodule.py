"""The training loader of a ``LightningDataModule`` that the script builds from a node of its composed Hydra
config with ``hydra.utils.instantiate(cfg.<node>)``: the node's ``_target_`` class, local to the project, read
(never imported) for its ``train_dataloader``'s one ``DataLoader(...)``.

txie-93/cdvae @ f857f59 (a grok-ai/nn-template project): ``cdvae/run.py:86-88``
``hydra.utils.instantiate(cfg.data.datamodule, _recursive_=False)``; ``conf/data/perov.yaml:59-66``
``num_workers: {train: 0, ...}`` and ``batch_size: {train: 512, val: 256, test: 256}`` under ``datamodule``
with ``_target_: cdvae.pl_data.datamodule.CrystDataModule``; ``cdvae/pl_data/datamodule.py:46-48,100-107``
``self.batch_size = batch_size`` in ``__init__`` and ``DataLoader(..., batch_size=self.batch_size.train,
num_workers=self.num_workers.train, ...)`` in ``train_dataloader`` (no ``pin_memory``).

A keyword given as ``self.X`` or ``self.X.K`` / ``self.X["K"]``, where ``__init__`` sets ``self.X`` from its
parameter ``P`` (and the class sets it nowhere else, :func:`preflight.adapters.lightning_local._init_param`), is
the node's ``P`` (``P.K``) key; ``pin_memory`` left out is the DataLoader default False (``num_workers`` left
out: 0) when the call spreads no ``**kwargs``. Medium: ``batch.micro``, ``data.num_workers``,
``data.pin_memory``. Tested in ``tests/test_jobs91_hydra_env_root.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters.hydra_apps import _nodes
from preflight.adapters.lightning_local import _init_param, _lightning_class, _method
from preflight.adapters.module_params import local_file

from preflight.analysis.syntax import dotted_name

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts

_FIELDS = (("batch_size", "batch.micro", 1, None), ("num_workers", "data.num_workers", 5, 0),
           ("pin_memory", "data.pin_memory", 7, False))


def _instantiated(tree: Optional[ast.AST]) -> set[tuple[str, ...]]:
    """The config paths the script hands to ``instantiate(cfg.a.b, ...)`` (the root name dropped)."""
    out: set[tuple[str, ...]] = set()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "instantiate" \
                and node.args:
            chain = dotted_name(node.args[0]) or ""
            if chain.count(".") >= 1:
                out.add(tuple(chain.split(".")[1:]))
    return out


def _attribute(expr: ast.expr) -> Optional[tuple[str, Optional[str]]]:
    """``self.X`` -> (X, None); ``self.X.K`` / ``self.X["K"]`` -> (X, K); else None."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr, None
    inner: Optional[ast.expr] = None
    key: Optional[str] = None
    if isinstance(expr, ast.Attribute):
        inner, key = expr.value, expr.attr
    elif isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        inner, key = expr.value, expr.slice.value
    if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
        return inner.attr, key
    return None


def datamodule_loader(facts: _Facts) -> None:
    app = facts.composed.app
    made = _instantiated(app.script.tree if app.script is not None else None)
    root = Path(str(facts.project.root))
    for path, node in _nodes(facts.cfg, ()):
        target = node.get("_target_")
        if path not in made or not isinstance(target, str) or "." not in target:
            continue
        file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
        found = _lightning_class(file, target.rsplit(".", 1)[-1]) if file is not None else None
        rename: dict[str, str] = {}
        if found is None and file is not None:  # a subclass of the project's own DataModule
            based = _local_base(file, target.rsplit(".", 1)[-1])
            if based is None:
                continue
            found, rename = based
        if found is None:
            continue
        cls = found[1]
        fn = _method(cls, "train_dataloader")
        loaders = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
                   and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"] if fn is not None else []
        if len(loaders) != 1 or any(k.arg in (None, "batch_sampler") for k in loaders[0].keywords) \
                or any(isinstance(a, ast.Starred) for a in loaders[0].args):
            continue
        _read(facts, path, node, cls, loaders[0], target, rename)


def _local_base(file: Path, name: str) -> Optional[tuple[tuple[ast.Module, ast.ClassDef], dict[str, str]]]:
    """The project's own ``LightningDataModule`` that class ``name`` of ``file`` subclasses, and the names its
    ``__init__`` parameters have in the subclass (donglinkang2021/MinVQVAE ``minvqvae/datasets/cifar10.py:4-6``
    ``class CIFAR10DataModule(VisionDataModule)`` whose ``__init__(self, data_dir, batch_size, num_workers,
    image_size)`` is ``super().__init__(data_dir, batch_size, num_workers, image_size)``; ``base.py:18-56``
    sets ``self.batch_size`` and builds the loaders). Only a subclass that adds no loader of its own and hands its
    own parameters on unchanged, by position or keyword, in one ``super().__init__(...)``; a loader attribute
    the subclass sets itself (``self.batch_size = 32``) is not read (its key ``"self.<attr>"`` maps to "")."""
    from preflight.adapters.module_params_target import imported_from

    from preflight.local_trees import parse_project_file

    tree = parse_project_file(file)
    defs = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name] if tree is not None else []
    if len(defs) != 1 or len(defs[0].bases) != 1 or not isinstance(defs[0].bases[0], ast.Name) or tree is None:
        return None
    sub = defs[0]
    if any(_method(sub, m) is not None for m in ("train_dataloader", "setup_dataloaders")):
        return None
    base_name = defs[0].bases[0].id
    base_file = file if any(isinstance(n, ast.ClassDef) and n.name == base_name for n in tree.body) \
        else imported_from(file, tree, base_name)
    found = _lightning_class(base_file, base_name) if base_file is not None else None
    if found is None:
        return None
    base_init = _method(found[1], "__init__")
    init = _method(sub, "__init__")
    if init is None:
        return found, {}
    supers = [st.value for st in (init.body if init is not None else []) if isinstance(st, ast.Expr)
              and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute)
              and st.value.func.attr == "__init__" and isinstance(st.value.func.value, ast.Call)
              and isinstance(st.value.func.value.func, ast.Name) and st.value.func.value.func.id == "super"]
    if base_init is None or init.args.vararg or len(supers) != 1:
        return None
    call = supers[0]
    own = {a.arg for a in (*init.args.args[1:], *init.args.kwonlyargs)}
    names = [a.arg for a in base_init.args.args[1:]]
    rename: dict[str, str] = {}
    if len(call.args) > len(names):
        return None
    for i, arg in enumerate(call.args):
        if not isinstance(arg, ast.Name) or arg.id not in own:
            return None
        rename[names[i]] = arg.id
    for kw in call.keywords:
        if kw.arg is None or not isinstance(kw.value, ast.Name) or kw.value.id not in own:
            return None
        rename[kw.arg] = kw.value.id
    # what the subclass sets itself (``self.image_size = image_size`` beside the call) is its own: a loader
    # attribute it sets is not the base's parameter
    rename.update({d: "" for n in ast.walk(sub) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                   for d in [dotted_name(t) or ""] if d.startswith("self.")})
    return found, rename


def _read(facts: _Facts, path: tuple[str, ...], node: dict[str, Any], cls: ast.ClassDef, call: ast.Call,
          target: str, rename: Optional[dict[str, str]] = None) -> None:
    where = f"{cls.name}.train_dataloader() (line {call.lineno}) of {target}"
    for kw, field, pos, default in _FIELDS:
        expr = next((k.value for k in call.keywords if k.arg == kw), None)
        if expr is None and len(call.args) > pos:
            expr = call.args[pos]
        if expr is None:
            if default is not None:
                facts.add(field, default, (*path, "_target_"),
                          f"DataLoader without {kw} in {where}: the default {default!r}", "medium")
            continue
        attr = _attribute(expr)
        param = _init_param(cls, attr[0]) if attr is not None else None
        if rename and attr is not None and f"self.{attr[0]}" in rename:
            continue  # set by the subclass itself
        if rename and param is not None:  # the base class's parameter, as the subclass names it
            param = rename.get(param)
        if attr is None or param is None or param not in node:
            continue
        key = (*path, param) if attr[1] is None else (*path, param, attr[1])
        value = facts.known(key)
        if isinstance(value, bool) != (field == "data.pin_memory") or not isinstance(value, int):
            continue
        facts.add(field, value, key, f"DataLoader({kw}={ast.unparse(expr)}) in {where}, set from __init__'s "
                                     f"{param}: {'.'.join(key)}", "medium")
