"""The training DataLoader of a ``LightningCLI`` data module, named by ``class_path`` in the config the launch line
gives and built with its ``init_args``.

gemelo-ai/vocos @ c859e3b7 ``train.py:5-6`` ``cli = LightningCLI(run=False)``, launched as ``python train.py -c
configs/vocos.yaml``, whose ``configs/vocos.yaml:4-12``::

    data:
      class_path: vocos.dataset.VocosDataModule
      init_args:
        train_params:
          batch_size: 16
          num_workers: 8

and ``vocos/dataset.py:21-35``: ``__init__(self, train_params, val_params)`` keeps ``self.train_config =
train_params``; ``train_dataloader`` returns ``self._get_dataloder(self.train_config, train=True)``, whose
``DataLoader(dataset, batch_size=cfg.batch_size, num_workers=cfg.num_workers, shuffle=train, pin_memory=True)``.
LightningCLI (jsonargparse) builds the class with the section's ``init_args``, so the train loader takes
``batch_size`` 16 (per process), ``num_workers`` 8 and ``pin_memory`` True.

Read, never imported or instantiated: the class a project module of the job defines; its ``train_dataloader``
building one ``DataLoader`` itself or returning ``self.<method>(...)`` that does; each keyword of that loader a
literal, ``self.<a>`` / ``self.<a>.<key>`` / ``self.<a>[<key>]``, or ``<p>.<key>`` / ``<p>[<key>]`` of the method's
parameter ``p`` handed ``self.<a>``, where ``__init__`` stores one of its parameters as ``self.<a>`` and the
section's ``init_args`` give that parameter (a dict for ``.<key>``). A keyword left out is the DataLoader's
default (``num_workers`` 0, ``pin_memory`` False) unless the loader spreads ``**kwargs``. A launch line that sets
anything under ``--data`` leaves it all unread. Medium.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_FIELDS = (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"), ("pin_memory", "data.pin_memory"))
_DEFAULTS = {"num_workers": 0, "pin_memory": False}


def _section(data: Any, name: str = "data") -> Optional[dict]:
    sec = data.get(name) if isinstance(data, dict) else None
    if isinstance(sec, dict) and isinstance(sec.get("class_path"), str) and isinstance(sec.get("init_args"), dict):
        return sec
    return None


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    found = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[0] if len(found) == 1 else None


def _stored(cls: ast.ClassDef) -> dict[str, str]:
    """``self.<a> = <p>`` in ``__init__`` for a parameter ``p``, each ``self.<a>`` stored once: a -> p."""
    init = _method(cls, "__init__")
    if init is None:
        return {}
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs)}
    stores: dict[str, list[ast.expr]] = {}
    for node in ast.walk(cls):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                name = dotted_name(t) or ""
                if name.startswith("self.") and name.count(".") == 1 and node.value is not None:
                    stores.setdefault(name[5:], []).append(node.value)
    return {a: v[0].id for a, v in stores.items() if len(v) == 1 and isinstance(v[0], ast.Name) and v[0].id in params
            and any(isinstance(n, ast.Assign) and n.value is v[0] for n in ast.walk(init))}


def _loader(cls: ast.ClassDef) -> Optional[tuple[ast.Call, dict[str, str]]]:
    """The train DataLoader call and what its method's parameters hold (param -> ``self`` attribute)."""
    train = _method(cls, "train_dataloader")
    if train is None:
        return None
    fn, bound = train, {}
    returns = [n for n in ast.walk(train) if isinstance(n, ast.Return)]
    if len(returns) == 1 and isinstance(returns[0].value, ast.Call) \
            and (dotted_name(returns[0].value.func) or "").startswith("self."):
        call = returns[0].value
        helper = _method(cls, (dotted_name(call.func) or "")[5:])
        if helper is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        params = [a.arg for a in helper.args.args][1:]
        given = list(zip(params, call.args)) + [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        bound = {p: (dotted_name(v) or "")[5:] for p, v in given if (dotted_name(v) or "").startswith("self.")}
        fn = helper
    loaders = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
               and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader"]
    return (loaders[0], bound) if len(loaders) == 1 else None


def _path_of(node: ast.expr, bound: dict[str, str], stored: dict[str, str]) -> Optional[tuple[str, ...]]:
    """The ``init_args`` key path a loader keyword reads, or None."""
    key: tuple[str, ...] = ()
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        key, node = (node.slice.value,), node.value
    elif isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
        key, node = (node.attr,), node.value
    name = dotted_name(node) or ""
    attr = name[5:] if name.startswith("self.") and name.count(".") == 1 else bound.get(name, "")
    return (stored[attr], *key) if attr in stored else None


@register_adapter
class LightningCliDataAdapter(Adapter):
    name = "lightning_cli_data"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("LightningCLI" in s.source.text for s in project.scripts) and any(
            _section(cfg.data) is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if any(str(a).startswith("--data") for a in (project.argv or [])):
            return
        found = [cfg for _, cfg in project.configs if _section(cfg.data) is not None]
        if len(found) != 1:
            return
        cfg = found[0]
        sec = _section(cfg.data)
        assert sec is not None
        from preflight.adapters.target_params_data import _class_of

        bases = [Path(str(project.root))] if project.root else []
        bases += [Path(str(s.source.path)).resolve().parent for s in project.scripts if s.source.path is not None]
        got = _class_of(sec["class_path"], bases)
        picked = _loader(got[1]) if got is not None else None
        if got is None or picked is None:
            return
        path, cls = got
        self._optimizer(project, plan, cfg, bases)
        call, bound = picked
        stored = _stored(cls)
        spread = any(k.arg is None for k in call.keywords)
        shown = f"{sec['class_path']} ({path.name}:{call.lineno})"
        for key, field in _FIELDS:
            given = next((k.value for k in call.keywords if k.arg == key), None)
            if given is None:
                if key in _DEFAULTS and not spread:
                    src = project.config_source(cfg, ("data", "class_path"),
                                                detail=f"{shown}: its train DataLoader leaves {key} out "
                                                       f"(the default {_DEFAULTS[key]})")
                    self.add_checked(plan, field, _DEFAULTS[key], src, "medium")
                continue
            if isinstance(given, ast.Constant):
                value, src = given.value, project.config_source(
                    cfg, ("data", "class_path"), detail=f"{shown}: its train DataLoader({key}={given.value!r})")
            else:
                keys = _path_of(given, bound, stored)
                value = sec["init_args"]
                for k in keys or ():
                    value = value.get(k) if isinstance(value, dict) else None
                if keys is None or value is None:
                    continue
                src = project.config_source(cfg, ("data", "init_args", *keys),
                                            detail=f"data.init_args.{'.'.join(keys)}, given by LightningCLI to "
                                                   f"{shown}: its train DataLoader({key}={ast.unparse(given)})")
            ok = isinstance(value, bool) if key == "pin_memory" else (
                isinstance(value, int) and not isinstance(value, bool) and value >= (1 if key == "batch_size" else 0))
            if ok:
                self.add_checked(plan, field, value, src, "medium")

    def _optimizer(self, project: Project, plan: TrainingPlan, cfg: Any, bases: list[Path]) -> None:
        """``model: class_path``: the LightningModule's ``configure_optimizers`` building ``torch.optim.<X>(...)``,
        every optimizer it builds of that one class (vocos ``experiment.py:81-82``: two ``AdamW``)."""
        from preflight.adapters.target_params_data import _class_of

        sec = _section(cfg.data, "model")
        got = _class_of(sec["class_path"], bases) if sec is not None else None
        hook = _method(got[1], "configure_optimizers") if got is not None else None
        if sec is None or got is None or hook is None:
            return
        built = {(dotted_name(n.func) or "").rsplit(".", 1)[-1] for n in ast.walk(hook) if isinstance(n, ast.Call)
                 and (dotted_name(n.func) or "").startswith("torch.optim.")
                 and "lr_scheduler" not in (dotted_name(n.func) or "")}
        if len(built) == 1 and not any(isinstance(n, ast.Call) and "optim" in (dotted_name(n.func) or "").lower()
                                       and not (dotted_name(n.func) or "").startswith("torch.optim.")
                                       for n in ast.walk(hook)):
            name = next(iter(built))
            src = project.config_source(cfg, ("model", "class_path"),
                                        detail=f"{sec['class_path']} ({got[0].name}:{hook.lineno}): its "
                                               f"configure_optimizers builds torch.optim.{name}")
            self.add_checked(plan, "optimizer.name", name, src, "medium")
