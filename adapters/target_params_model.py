"""The ``model:`` section of an ldm-style config (``target:`` a class path, ``params:`` its arguments), built by
``instantiate_from_config(config.model)`` (or ``config["model"]``) in the script: CompVis/latent-diffusion @
a506df5 ``main.py:571`` and ``configs/latent-diffusion/*.yaml`` (``model: {base_learning_rate: ..., target:
ldm.models.diffusion.ddpm.LatentDiffusion, params: {..., unet_config: {target: ...UNetModel, params: {...}}}}``);
Doubiiu/DynamiCrafter ``main/trainer.py:69``; haoheliu/AudioLDM-training-finetuning
``audioldm_train/train/latent_diffusion.py:140``.

Read (never imported), when the class ``target`` names is the project's own (:mod:`adapters.target_class`):

- ``optimizer.name``: the one optimizer class its ``configure_optimizers`` (own or inherited from a
  project base class) constructs (medium: Lightning calls it; the code may be changed by a subclass the
  config does not name);
- ``memory.gradient_checkpointing`` False: ``model.params.unet_config`` names a project class whose
  ``__init__`` takes ``use_checkpoint=False`` and neither the config's ``params`` nor the launch line
  (``model.params.unet_config.params.use_checkpoint=...``) sets it (medium). A config that sets it is read
  by the generic config-key reading.

Several configs (``--base a.yaml b.yaml``): the last one with such a ``model`` section, as OmegaConf merges
them left to right.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.target_class import (
    configure_optimizers,
    find_class,
    path_additions,
    target_bases,
)

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CKPT_KEYS = ("use_checkpoint", "gradient_checkpointing", "checkpoint", "use_gradient_checkpointing")


def _section(data: Any, key: str) -> Optional[dict]:
    sec = data.get(key) if isinstance(data, dict) else None
    if isinstance(sec, dict) and isinstance(sec.get("target"), str) and isinstance(sec.get("params", {}), dict):
        return sec
    return None


def _builds_model(tree: ast.AST) -> bool:
    """``instantiate_from_config(<x>.model)`` or ``instantiate_from_config(<x>["model"])`` in the script."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args
                and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "instantiate_from_config"):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Attribute) and arg.attr == "model":
            return True
        if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and arg.slice.value == "model":
            return True
    return False


def _relative(path: Path, root: Optional[Path]) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve())) if root is not None else path.name
    except ValueError:
        return path.name


def _init_params(cls: ast.ClassDef) -> Optional[dict[str, Optional[ast.expr]]]:
    """The parameters of the class's own ``__init__`` and their defaults (None: no default), else None."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return None
    pos = init.args.args
    out: dict[str, Optional[ast.expr]] = {a.arg: None for a in pos}
    out.update((a.arg, d) for a, d in zip(pos[len(pos) - len(init.args.defaults):], init.args.defaults))
    out.update((a.arg, d) for a, d in zip(init.args.kwonlyargs, init.args.kw_defaults))
    return out


def _default_false(cls: ast.ClassDef, param: str) -> bool:
    d = (_init_params(cls) or {}).get(param)
    return isinstance(d, ast.Constant) and d.value is False


@register_adapter
class TargetParamsModelAdapter(Adapter):
    name = "target_params_model"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("instantiate_from_config" in s.source.text for s in project.scripts) and any(
            _section(cfg.data, "model") is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if not any(_builds_model(s.tree) for s in project.scripts if s.tree is not None):
            return
        found = [cfg for _, cfg in project.configs if _section(cfg.data, "model") is not None]
        if not found:
            return
        cfg = found[-1]  # OmegaConf.merge(*configs): the last file's section wins
        sec = _section(cfg.data, "model")
        assert sec is not None
        root = Path(str(project.root)) if project.root else None
        dirs = [Path(str(s.source.path)).resolve().parent for s in project.scripts if s.source.path is not None]
        dirs += [d for s in project.scripts for d in path_additions(s.tree, root)]
        bases = target_bases(root, dirs)
        model = find_class(sec["target"], bases)
        if model is None:
            return
        shown = f"{sec['target']} ({_relative(model.path, root)}:{model.cls.lineno})"
        opt = configure_optimizers(model, bases)
        if opt is not None:
            where = f"{_relative(opt.path, root)}"
            self.add_checked(plan, "optimizer.name", opt.name, Source(
                "code", where, opt.line, None,
                f"{opt.name}(...) in {opt.owner}.configure_optimizers() ({where}:{opt.line}), the LightningModule "
                f"{shown} that instantiate_from_config(config.model) builds from {cfg.path}'s model.target"),
                "medium")
        self._checkpointing(project, plan, cfg, sec, bases, root)

    def _checkpointing(self, project: Project, plan: TrainingPlan, cfg: Any, sec: dict, bases: list[Path],
                       root: Optional[Path]) -> None:
        params = sec.get("params") or {}
        unet = _section(params, "unet_config")
        if unet is None:
            return
        unet_params = unet.get("params") or {}
        argv = [str(a) for a in (project.argv or [])]
        if any("use_checkpoint" in a or "gradient_checkpointing" in a for a in argv) \
                or any(k in params for k in _CKPT_KEYS):
            return
        given = unet_params.get("use_checkpoint")
        if isinstance(given, bool) and not any(k in unet_params for k in _CKPT_KEYS if k != "use_checkpoint"):
            # the UNet's own switch set in its params (timothybrooks/instruct-pix2pix @ 0dffd1e
            # configs/train.yaml:48 ``use_checkpoint: True`` for ldm's UNetModel): read where the class takes it
            cls = find_class(unet["target"], bases)
            if cls is not None and "use_checkpoint" in (_init_params(cls.cls) or {}):
                self.add_checked(plan, "memory.gradient_checkpointing", given, project.config_source(
                    cfg, ("model", "params", "unet_config", "params", "use_checkpoint"),
                    detail=f"use_checkpoint {given} for {unet['target']} ({_relative(cls.path, root)}:"
                           f"{cls.cls.lineno}), whose __init__ takes it"), "medium")
            return
        if any(k in unet_params for k in _CKPT_KEYS):
            return
        found = find_class(unet["target"], bases)
        if found is None or not _default_false(found.cls, "use_checkpoint"):
            return
        self.add_checked(plan, "memory.gradient_checkpointing", False, project.config_source(
            cfg, ("model", "params", "unet_config", "target"),
            detail=f"model.params.unet_config names {unet['target']} "
                   f"({_relative(found.path, root)}:{found.cls.lineno}) without use_checkpoint in its params: "
                   "its __init__ default use_checkpoint=False (no activation checkpointing in the UNet)"), "medium")
