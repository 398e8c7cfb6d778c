"""The ``data:`` section of an ldm-style config (a ``target:`` class path and its ``params:``), built by
``instantiate_from_config(config.data)`` in the script: CompVis/latent-diffusion @ a506df5
``configs/latent-diffusion/celebahq-ldm-vq-4.yaml:60-64`` (``target: main.DataModuleFromConfig``,
``params: {batch_size: 48, num_workers: 5, ...}``) and ``main.py:162-204,663``. The class named by
``target`` must be the project's own (a module of the job, read, never imported or instantiated),
keep the parameter in ``__init__`` (``self.batch_size = batch_size``; ``self.num_workers = num_workers
if num_workers is not None else ...``) and hand it to a ``DataLoader`` of its train loader
(``DataLoader(..., batch_size=self.batch_size, num_workers=self.num_workers)``): then ``batch_size`` is
``batch.micro`` (per process: each Lightning process builds its own loader) and ``num_workers`` is
``data.num_workers``, both ``medium``. A launch-line override ``data.params.batch_size=N`` (OmegaConf
dotlist, ``main.py:514-516``) wins over the file. Several configs (``--base a.yaml b.yaml``): the last
one with a ``data`` section, as OmegaConf merges them left to right.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_KEYS = (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"))


def _section(data: Any) -> Optional[dict]:
    if not isinstance(data, dict):
        return None
    sec = data.get("data")
    if isinstance(sec, dict) and isinstance(sec.get("target"), str) and isinstance(sec.get("params"), dict):
        return sec
    return None


def _class_of(target: str, bases: list[Path]) -> Optional[tuple[Path, ast.ClassDef]]:
    module, _, name = target.rpartition(".")
    if not module or not name:
        return None
    rel = Path(*module.split("."))
    for base in bases:
        for cand in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
            if not cand.is_file():
                continue
            try:
                tree = parse_file(cand, 2_000_000)
            except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
                return None
            found = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name]
            return (cand, found[0]) if len(found) == 1 else None
    return None


def _kept(cls: ast.ClassDef, param: str) -> bool:
    """``__init__`` takes ``param`` and stores it as ``self.<param>`` (or ``param if param is not None
    else ...``)."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None or not any(a.arg == param for a in (*init.args.args, *init.args.kwonlyargs)):
        return False
    stores = [n.value for n in ast.walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and dotted_name(n.targets[0]) == f"self.{param}"]
    if len(stores) != 1:
        return False
    value = stores[0]
    if isinstance(value, ast.IfExp) and isinstance(value.test, ast.Compare) \
            and dotted_name(value.test.left) == param and isinstance(value.test.ops[0], ast.IsNot):
        value = value.body
    return isinstance(value, ast.Name) and value.id == param


def _to_loader(cls: ast.ClassDef, param: str) -> bool:
    """A ``DataLoader(...)`` of the class (not one of its validation/test loaders) given
    ``param=self.<param>``."""
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef) or any(w in fn.name for w in ("val", "test", "predict")):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "DataLoader" \
                    and any(k.arg == param and dotted_name(k.value) == f"self.{param}" for k in node.keywords):
                return True
    return False


@register_adapter
class TargetParamsDataAdapter(Adapter):
    name = "target_params_data"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("instantiate_from_config" in s.source.text for s in project.scripts) and any(
            _section(cfg.data) is not None for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        if not any(_built(s.tree) for s in project.scripts if s.tree is not None):
            return
        found = [(src, cfg) for src, cfg in project.configs if _section(cfg.data) is not None]
        if not found:
            return
        _src, cfg = found[-1]  # OmegaConf.merge(*configs): the last file's section wins
        sec = _section(cfg.data)
        assert sec is not None
        bases = [Path(str(project.root))] if project.root else []
        for script in project.scripts:
            if script.source.path is not None:
                bases.append(Path(str(script.source.path)).resolve().parent)
        got = _class_of(sec["target"], bases)
        if got is None:
            return
        path, cls = got
        shown = f"{sec['target']} ({path.name}:{cls.lineno})"
        argv = [str(a) for a in (project.argv or [])]
        for key, field in _KEYS:
            if not (_kept(cls, key) and _to_loader(cls, key)):
                continue
            override = next((a.split("=", 1)[1] for a in argv if a.startswith(f"data.params.{key}=")), None)
            if override is not None:
                value: Any = int(override) if override.isdigit() else None
                source = Source("cli", None, None, f"data.params.{key}",
                                f"data.params.{key}={override} on the launch line (OmegaConf dotlist), given to "
                                f"{shown} and its train DataLoader({key}=self.{key})")
            else:
                value = sec["params"].get(key)
                source = project.config_source(cfg, ("data", "params", key),
                                               detail=f"data.params.{key} of {sec['target']}, built by "
                                                      f"instantiate_from_config(config.data): {shown} gives it to "
                                                      f"its train DataLoader({key}=self.{key}) (per process)")
            if isinstance(value, int) and not isinstance(value, bool) and value >= (1 if key == "batch_size" else 0):
                self.add_checked(plan, field, value, source, "medium")


def _built(tree: ast.AST) -> bool:
    """``instantiate_from_config(<x>.data)`` in the script."""
    return any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "instantiate_from_config"
               and n.args and isinstance(n.args[0], ast.Attribute) and n.args[0].attr == "data"
               for n in ast.walk(tree))
