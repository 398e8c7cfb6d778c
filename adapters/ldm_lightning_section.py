"""The ``lightning.trainer`` section of an ldm-style config, handed to pytorch_lightning 1.x's
``Trainer.from_argparse_args``: CompVis/latent-diffusion @ a506df5 ``main.py:514-531,659``::

    config = OmegaConf.merge(*configs, cli)                       # --base a.yaml ... and key=value dotlist
    lightning_config = config.pop("lightning", OmegaConf.create())
    trainer_config = lightning_config.get("trainer", OmegaConf.create())
    for k in nondefault_trainer_args(opt):                        # --flag given on the launch line
        trainer_config[k] = getattr(opt, k)
    trainer_opt = argparse.Namespace(**trainer_config)
    trainer = Trainer.from_argparse_args(trainer_opt, **trainer_kwargs)

(the same in Doubiiu/DynamiCrafter ``main/trainer.py:55-59,124-125`` and the many repositories built on
latent-diffusion). Read, never run: ``accumulate_grad_batches`` of the section is ``batch.grad_accum``
(medium: a launch-line ``--accumulate_grad_batches`` or ``lightning.trainer.accumulate_grad_batches=N``
dotlist wins, and is read as such); a section without it leaves pytorch_lightning 1.x's default 1 (medium).
The key written by the script itself (``trainer_config["accumulate_grad_batches"] = ...``) or passed among
the call's keywords leaves the field to other readers. The config is the last one given with a ``lightning``
section (OmegaConf merges them left to right).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_KEY = "accumulate_grad_batches"


def _key_of(node: ast.AST, key: str) -> Optional[str]:
    """``X.pop("key", ...)``/``X.get("key", ...)``/``X.key``/``X["key"]``: the name ``X``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("pop", "get") \
            and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == key \
            and isinstance(node.func.value, ast.Name):
        return node.func.value.id
    if isinstance(node, ast.Attribute) and node.attr == key and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == key \
            and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def trainer_section_name(tree: ast.AST) -> Optional[str]:
    """The name bound to ``<lightning>.get("trainer")`` whose ``argparse.Namespace(**name)`` is handed to
    ``Trainer.from_argparse_args``, where ``<lightning>`` is bound to ``config.pop("lightning")`` (or get,
    attribute, subscript); None when the script does not read the section this way."""
    binds: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            binds.setdefault(node.targets[0].id, []).append(node.value)
    lightning = {n for n, vs in binds.items() if len(vs) == 1 and _key_of(vs[0], "lightning") is not None}
    trainer = {n for n, vs in binds.items() if len(vs) == 1 and _key_of(vs[0], "trainer") in lightning}
    spaces = {n for n, vs in binds.items() if len(vs) == 1 and isinstance(vs[0], ast.Call)
              and (dotted_name(vs[0].func) or "").endswith("Namespace") and len(vs[0].keywords) == 1
              and vs[0].keywords[0].arg is None and isinstance(vs[0].keywords[0].value, ast.Name)
              and vs[0].keywords[0].value.id in trainer}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (dotted_name(node.func) or "").endswith("Trainer.from_argparse_args") \
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in spaces \
                and not any(k.arg == _KEY for k in node.keywords):
            space = binds[node.args[0].id][0]
            assert isinstance(space, ast.Call)
            kw = space.keywords[0].value
            assert isinstance(kw, ast.Name)
            return kw.id
    return None


def _written(tree: ast.AST, name: str) -> bool:
    """``name["accumulate_grad_batches"] = ...`` or ``name.accumulate_grad_batches = ...`` in the script."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if _key_of(t, _KEY) == name:
                    return True
    return False


@register_adapter
class LdmLightningSectionAdapter(Adapter):
    name = "ldm_lightning_section"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("from_argparse_args" in s.source.text for s in project.scripts) and any(
            isinstance(cfg.data, dict) and isinstance(cfg.data.get("lightning"), dict) for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None:
                continue
            name = trainer_section_name(script.tree)
            if name is None or _written(script.tree, name):
                continue
            self._read(project, plan, script, name)
            return

    def _read(self, project: Project, plan: TrainingPlan, script: Any, name: str) -> None:
        found = [cfg for _, cfg in project.configs if isinstance(cfg.data, dict)
                 and isinstance(cfg.data.get("lightning"), dict)]
        if not found:
            return
        argv = [str(a) for a in (project.argv or [])]
        for i, arg in enumerate(argv):
            flag, eq, val = arg.partition("=")
            if flag == f"--{_KEY}":
                value = val if eq else (argv[i + 1] if i + 1 < len(argv) else "")
                if value.isdigit():
                    self.add_checked(plan, "batch.grad_accum", int(value), Source(
                        "cli", None, None, f"--{_KEY}",
                        f"--{_KEY} {value} on the launch line: Trainer.from_argparse_args"), "medium")
                return
            if flag == f"lightning.trainer.{_KEY}":
                if val.isdigit():
                    self.add_checked(plan, "batch.grad_accum", int(val), Source(
                        "cli", None, None, flag, f"{arg} on the launch line (OmegaConf dotlist) -> "
                        f"lightning.trainer -> Trainer.from_argparse_args(argparse.Namespace(**{name}))"), "medium")
                return
        cfg = found[-1]
        trainer = cfg.data["lightning"].get("trainer")
        if trainer is not None and not isinstance(trainer, dict):
            return
        how = f"Trainer.from_argparse_args(argparse.Namespace(**{name})) ({script.source.display})"
        if isinstance(trainer, dict) and _KEY in trainer:
            value = trainer[_KEY]
            if isinstance(value, int) and not isinstance(value, bool):
                self.add_checked(plan, "batch.grad_accum", value, project.config_source(
                    cfg, ("lightning", "trainer", _KEY),
                    detail=f"lightning.trainer.{_KEY} {value} -> {how}"), "medium")
            return
        self.add_checked(plan, "batch.grad_accum", 1, project.config_source(
            cfg, ("lightning",), kind="default",
            detail=f"lightning.trainer has no {_KEY} and the launch line gives none: {how}, pytorch_lightning "
                   "1.x default 1"), "medium")
