"""A ``LightningModule`` / ``LightningDataModule`` defined in a module of the project the script imports:
AntixK/PyTorch-VAE @ a6896b9 ``run.py:7,13,39-42`` ``from experiment import VAEXperiment``, ``from dataset
import VAEDataset``, ``experiment = VAEXperiment(model, config['exp_params'])`` and ``data =
VAEDataset(**config["data_params"], pin_memory=len(config['trainer_params']['gpus']) != 0)``, then
``runner.fit(experiment, datamodule=data)``; ``experiment.py:97`` ``optim.Adam(...)`` in
``configure_optimizers``; ``dataset.py:84-98,155-162`` ``self.train_batch_size = train_batch_size`` ...
``DataLoader(self.train_dataset, batch_size=self.train_batch_size, num_workers=self.num_workers,
pin_memory=self.pin_memory)`` in ``train_dataloader``.

Read (never imported) by the Lightning adapter's script pass, for each class the script builds (with every
``if`` around the build not decided false) that it imports from a local module (found from the script's
folder upward) and that derives from a Lightning module class there:

- ``configure_optimizers``: the optimizer classes it builds (``torch.optim``, bitsandbytes, apex, ...),
  when they are one class: ``optimizer.name`` (medium);
- ``train_dataloader``'s one ``DataLoader(...)``: ``batch_size``/``num_workers``/``pin_memory`` given as
  ``self.X`` that ``__init__`` sets from its parameter ``P`` (``self.X = P``, never set again in the
  class): the value passed for ``P`` where the script builds the class (by keyword, by position, or
  by a ``**config[...]`` section of the one config given to the audit that holds it), else ``P``'s
  default: ``batch.micro``/``data.num_workers``/``data.pin_memory`` (medium). A value the script cannot
  resolve stays unknown.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.import_names import import_names

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source

_MAX_BYTES = 1_000_000
_LIGHTNING = ("lightning", "pytorch_lightning")
_BASES = ("LightningModule", "LightningDataModule")
_LOADER_FIELDS = (("batch_size", "batch.micro", 1), ("num_workers", "data.num_workers", 5),
                  ("pin_memory", "data.pin_memory", 7))


def _imports(tree: ast.Module) -> dict[str, str]:
    return import_names(tree.body)


def _qualify(name: str, imports: dict[str, str]) -> str:
    head, _, rest = name.partition(".")
    base = imports.get(head, head)
    return f"{base}.{rest}" if rest else base


def _lightning_class(path: Path, name: str) -> Optional[tuple[ast.Module, ast.ClassDef]]:
    from preflight.local_trees import parse_file

    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    imports = _imports(tree)
    defs = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(defs) != 1:
        return None
    for base in defs[0].bases:
        q = _qualify(dotted_name(base) or "", imports)
        if q.rsplit(".", 1)[-1] in _BASES and q.split(".")[0] in _LIGHTNING:
            return tree, defs[0]
    return None


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    found = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[0] if len(found) == 1 else None


def _optimizer(tree: ast.Module, cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    from preflight.adapters.optimizer_local import DYNAMIC, optimizers_in

    fn = _method(cls, "configure_optimizers")
    if fn is None:
        return None
    end = getattr(fn, "end_lineno", None) or fn.lineno
    found = [(n, line) for n, line, _f in optimizers_in(tree) if fn.lineno <= line <= end]
    if not found or len({n for n, _ in found}) != 1 or found[0][0] == DYNAMIC:
        return None
    return found[0]


def _init_param(cls: ast.ClassDef, attr: str) -> Optional[str]:
    """The ``__init__`` parameter ``self.<attr>`` is set from, when the class sets it nowhere else."""
    init = _method(cls, "__init__")
    if init is None:
        return None
    stores = [n for n in ast.walk(cls) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
              and any(dotted_name(t) == f"self.{attr}" for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(stores) != 1 or not isinstance(stores[0], ast.Assign) or not isinstance(stores[0].value, ast.Name):
        return None
    if not any(stores[0] is n for n in ast.walk(init)):
        return None
    param = stores[0].value.id
    return param if param in [a.arg for a in (*init.args.args, *init.args.kwonlyargs)] else None


def _given(sp: Any, site: CallSite, init: ast.FunctionDef, param: str) -> Optional[tuple[Resolved, str]]:
    """The value the script passes for ``param`` (or its default), and how it was found."""
    names = [a.arg for a in init.args.args][1:]  # without self
    expr = site.kwarg(param)
    if expr is None and param in names and names.index(param) < len(site.call.args):
        if any(isinstance(a, ast.Starred) for a in site.call.args):
            return None
        expr = site.call.args[names.index(param)]
    if expr is not None:
        found = sp.resolve(expr)
        return None if found is None else (found, f"passed as {site.name}({param}=...)")
    if any(k.arg is None for k in site.call.keywords):
        return None  # a ** mapping not followed may hold it
    positional = init.args.args
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(init.args.defaults):]], init.args.defaults))
    defaults.update({a.arg: d for a, d in zip(init.args.kwonlyargs, init.args.kw_defaults) if d is not None})
    if param not in defaults:
        return None
    default = defaults[param]
    if isinstance(default, ast.Constant) and not isinstance(default.value, (bytes, type(Ellipsis))):
        return Resolved(default.value, "code", None, None, None), f"default of {site.name}.__init__({param}=...)"
    return None


def imported_modules(sp: Any) -> None:
    """Facts from the Lightning classes of local modules that the script builds (see the module doc)."""
    from preflight.script_parsers import _module_file

    script_path = sp.script.source.path
    if script_path is None:
        return
    done: set[str] = set()
    for site in sp.calls:
        if not isinstance(site.call.func, ast.Name) or site.call.func.id in sp.idx.classes:
            continue
        name = site.call.func.id
        qualified = sp.idx.imports.get(name)
        if not qualified or "." not in qualified or qualified in done:
            continue
        module, _, cls_name = qualified.rpartition(".")
        if module.split(".")[0] in _LIGHTNING or module.split(".")[0] in ("torch", "transformers"):
            continue
        path = _module_file(Path(str(script_path)).parent, module)
        if path is None:
            continue
        got = _lightning_class(path, cls_name)
        if got is None:
            continue
        done.add(qualified)
        tree, cls = got
        shown = path.name
        opt = _optimizer(tree, cls)
        if opt is not None:
            sp.add("optimizer.name", opt[0],
                   Source("code", shown, opt[1], None, f"{opt[0]}(...) in {cls_name}.configure_optimizers() of "
                          f"{shown}, a LightningModule the script builds ({sp.where(site.call)})"), "medium")
        _loader(sp, site, cls, shown)


def _loader(sp: Any, site: CallSite, cls: ast.ClassDef, shown: str) -> None:
    fn = _method(cls, "train_dataloader")
    init = _method(cls, "__init__")
    if fn is None or init is None:
        return
    loaders = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
               and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"]
    if len(loaders) != 1 or any(k.arg in (None, "batch_sampler") for k in loaders[0].keywords):
        return
    call = loaders[0]
    mapped = sp.unpacked(site) if any(k.arg is None for k in site.call.keywords) else site
    if mapped is None:
        return
    for kw, field, pos in _LOADER_FIELDS:
        expr = next((k.value for k in call.keywords if k.arg == kw), None)
        if expr is None and len(call.args) > pos:
            expr = call.args[pos]
        attr = dotted_name(expr) if expr is not None else None
        if not attr or not attr.startswith("self.") or attr.count(".") != 1:
            continue
        param = _init_param(cls, attr.split(".", 1)[1])
        if param is None:
            continue
        got = _given(sp, mapped, init, param)
        if got is None:
            continue
        value, how = got
        if field == "data.pin_memory" and not isinstance(value.value, bool):
            continue
        if field != "data.pin_memory" and (not isinstance(value.value, int) or isinstance(value.value, bool)):
            continue
        detail = (f"DataLoader({kw}={attr}) in {cls.name}.train_dataloader() of {shown} (line {call.lineno}), "
                  f"{attr} set from __init__'s {param}: {how}")
        if value.kind == "config":
            source = Source("config", value.detail, value.line, value.key, detail)
        elif value.kind == "cli":
            source = Source("cli", None, None, value.key, f"{detail}; {value.detail}")
        else:
            source = sp.src(value.line or site.line, detail)
        sp.add(field, value.value, source, "medium")
