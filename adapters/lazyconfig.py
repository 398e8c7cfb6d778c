"""detectron2 LazyConfig Python configs (``LazyConfig.load(args.config_file)``), read as literals,
never executed.

detectron2's ``tools/lazyconfig_train_net.py`` (and the projects built on it: ViTDet, detrex, ...)
loads a Python config file that imports its parts from sibling files and edits them by attribute
assignment (facebookresearch/detectron2 @ 02b5c4e
``configs/new_baselines/mask_rcnn_R_50_FPN_100ep_LSJ.py``: ``from ..common.data.coco import
dataloader``, ``from ..common.optim import SGD as optimizer``, ``from ..common.train import train``,
then ``train.amp.enabled = True``, ``dataloader.train.total_batch_size = 64``). Read like
``LazyConfig.load``: relative imports of sibling config files (their module-level names), then the
file's assignments in order, to names and to attribute chains (``a.b = c.d = value`` too). Values are
literals, lists, tuples, ``dict(...)``/``{...}``, ``LazyCall(f)(k=v)`` (a dict with ``_target_`` the
dotted name of ``f``), ``OmegaConf.create()`` (an empty dict), names and attribute chains bound
earlier, and integer arithmetic; anything else is unknown. ``key=value`` overrides after the
launch line's options (``LazyConfig.apply_overrides``) are applied.

What detectron2 does with the keys (``detectron2/data/build.py``, ``detectron2/engine``):

- ``dataloader.train.total_batch_size``: ``batch.global``; ``build_detection_train_loader`` gives each
  of the ``--num-gpus`` x ``--num-machines`` processes ``total // world`` (``batch.micro``);
  ``num_workers``: ``data.num_workers``; ``pin_memory`` unset: False (``build_batch_data_loader``);
- ``optimizer._target_``: ``optimizer.name`` (its last name: ``torch.optim.SGD`` -> SGD);
- ``train.amp.enabled`` where the script picks ``AMPTrainer if cfg.train.amp.enabled else
  SimpleTrainer``: amp_fp16 (AMPTrainer's default float16 autocast with a GradScaler) or fp32;
- a script that wraps the model with ``create_ddp_model`` on more than one process: ``dist.sharding``
  ddp;
- a ``FixedSizeCrop`` with a square ``crop_size`` among the training augmentations:
  ``data.image_size``.

Facts are medium (the values are the files', their meaning detectron2's code).
"""

from __future__ import annotations

import ast
import copy
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.literal_config import UNKNOWN, LiteralFile, Where

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython, read_text_limited

_MAX_BYTES = 500_000
_MAX_FILES = 32
_MAX_DEPTH = 6


def _loads(script: ParsedPython) -> bool:
    """The script loads a LazyConfig (``LazyConfig.load(...)``, detectron2.config imported)."""
    tree = script.tree
    if not isinstance(tree, ast.Module) or "LazyConfig" not in script.source.text:
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "load"
               and isinstance(n.func.value, ast.Name) and n.func.value.id == "LazyConfig" for n in ast.walk(tree))


def _dotted(node: ast.AST) -> Optional[str]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


class _File(LiteralFile):
    """One config file's namespace, evaluated statement by statement."""

    def __init__(self, loader: _Loader, path: Path, shown: str, depth: int) -> None:
        super().__init__(shown)
        self.loader, self.path, self.depth = loader, path, depth
        self.ns: dict[str, Any] = {}
        self.lazy: set[str] = set()  # local names of detectron2's LazyCall
        self.modules: dict[str, str] = {}  # local name -> dotted import

    def run(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom):
                self._import_from(stmt)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    self.modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname \
                        else alias.name.split(".")[0]
            elif isinstance(stmt, ast.Assign):
                value = self.ev(stmt.value, ("<value>",))
                inner = {k[1:]: at for k, at in self.where.items() if k[:1] == ("<value>",)}
                for key in [k for k in self.where if k[:1] == ("<value>",)]:
                    del self.where[key]
                for target in stmt.targets:
                    chain = _dotted(target)
                    if chain is not None:
                        self.set(tuple(chain.split(".")), value, (self.shown, stmt.lineno), inner)

    def _import_from(self, stmt: ast.ImportFrom) -> None:
        for alias in stmt.names:
            if alias.name == "LazyCall":
                self.lazy.add(alias.asname or alias.name)
        if not stmt.level:
            for alias in stmt.names:
                self.modules[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
            return
        base = self.path.parent
        for _ in range(stmt.level - 1):
            base = base.parent
        rel = (stmt.module or "").replace(".", "/")
        target = base / f"{rel}.py" if rel else None
        got = self.loader.load(target, self.depth + 1) if target is not None else None
        for alias in stmt.names:
            local = alias.asname or alias.name
            if got is None or alias.name not in got.ns:
                self.ns[local] = UNKNOWN
                continue
            self.ns[local] = copy.deepcopy(got.ns[alias.name])
            for key, at in got.where.items():
                if key[:1] == (alias.name,):
                    renamed = (local, *key[1:])
                    self.where[renamed] = at

    def set(self, keys: tuple[str, ...], value: Any, at: tuple[str, int], inner: Optional[Where] = None) -> None:
        """``a.b.c = value``: into the dict at ``a.b`` (nothing when that is not a dict)."""
        holder: Any = self.ns
        for key in keys[:-1]:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if not isinstance(holder, dict):
            return
        holder[keys[-1]] = copy.deepcopy(value)
        for old in [k for k in self.where if k[:len(keys)] == keys]:
            del self.where[old]
        for sub, got in (inner or {}).items():
            self.where[keys + sub] = got
        self.where[keys] = at

    def ev_other(self, node: ast.AST, path: tuple) -> Any:
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            left, right = self.ev(node.left, path), self.ev(node.right, path)
            if all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 10**9 for x in (left, right)):
                if isinstance(node.op, ast.FloorDiv):
                    return left // right if right else UNKNOWN
                ops = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
                return ops[type(node.op)]
            return UNKNOWN
        if isinstance(node, ast.Call):
            return self._call(node, path)
        chain = _dotted(node)
        if chain is not None and chain.split(".")[0] in self.ns:
            parts = tuple(chain.split("."))
            got: Any = self.ns
            for part in parts:
                got = got.get(part, UNKNOWN) if isinstance(got, dict) else UNKNOWN
            for key, at in list(self.where.items()):
                if key[:len(parts)] == parts and len(key) > len(parts):
                    self.where[path + key[len(parts):]] = at
            return copy.deepcopy(got)
        return UNKNOWN

    def _call(self, node: ast.Call, path: tuple) -> Any:
        func = node.func
        if _dotted(func) in ("OmegaConf.create", "omegaconf.OmegaConf.create") and not node.args \
                and not node.keywords:
            return {}
        if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id in self.lazy \
                and len(func.args) == 1 and not node.args:
            target = _dotted(func.args[0])
            if target is None or any(k.arg is None for k in node.keywords):
                return UNKNOWN
            head, _, rest = target.partition(".")
            full = self.modules.get(head, head) + (f".{rest}" if rest else "")
            out: dict = {"_target_": full}
            for k in node.keywords:
                out[str(k.arg)] = self.keyword(str(k.arg), k.value, path)
            return out
        return UNKNOWN


class _Loader:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.files = 0
        self.cache: dict[str, Optional[_File]] = {}

    def load(self, path: Optional[Path], depth: int = 0) -> Optional[_File]:
        if path is None:
            return None
        key = str(path.resolve())
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = None  # an import cycle reads as not found
        self.files += 1
        if depth > _MAX_DEPTH or self.files > _MAX_FILES or not path.is_file() or not self.project.may_read(path):
            return None
        try:
            shown = os.path.relpath(path, self.project.root)
        except ValueError:
            shown = str(path)
        try:
            if path.stat().st_size > _MAX_BYTES:
                return None
            tree = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            return None
        got = _File(self, path, shown.replace(os.sep, "/"), depth)
        got.run(tree)
        self.cache[key] = got
        return got


def _option(args: list[str], *names: str) -> Optional[str]:
    for i, tok in enumerate(args):
        head, eq, val = tok.partition("=")
        if head in names:
            return val if eq else (args[i + 1] if i + 1 < len(args) else None)
    return None


def _library_count(args: list[str], dest: str) -> Optional[int]:
    """``--num-gpus``/``--num-machines`` of detectron2's ``default_argument_parser`` as
    :func:`preflight.library_parsers.library_option` reads them (the launch line's value, else the declared
    default 1); None when not a positive count."""
    from preflight.library_parsers import library_option

    value = library_option("detectron2.engine.default_argument_parser", dest, args)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _overrides(args: list[str]) -> list[tuple[tuple[str, ...], Any]]:
    """``a.b=value`` tokens that are not options or option values (detectron2's ``opts``)."""
    out: list[tuple[tuple[str, ...], Any]] = []
    for i, tok in enumerate(args):
        if tok.startswith("-") or "=" not in tok or (i and args[i - 1].startswith("--") and "=" not in args[i - 1]):
            continue
        key, _, text = tok.partition("=")
        try:
            value: Any = ast.literal_eval(text)
        except (ValueError, SyntaxError, RecursionError, MemoryError):
            value = text
        out.append((tuple(key.split(".")), value))
    return out


def _get(values: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(values, dict) or key not in values:
            return None
        values = values[key]
    return values


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


@register_adapter
class LazyConfigAdapter(Adapter):
    name = "lazyconfig"
    frameworks = ("detectron2",)

    def detect(self, project: Project) -> bool:
        return any(_loads(s) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        scripts = [s for s in project.scripts if _loads(s)]
        if len(scripts) != 1:
            return
        script = scripts[0]
        args = project.script_args(script)
        named = _option(args, "--config-file")
        if not named or not named.endswith(".py"):
            return
        path = None
        for base in (Path(str(project.root)), Path(str(script.source.path)).resolve().parent):
            cand = Path(named) if os.path.isabs(named) else base / named
            if cand.is_file():
                path = cand.resolve()
                break
        loader = _Loader(project)
        got = loader.load(path)
        if got is None:
            return
        self.note(plan, f"read {got.shown} and the config files it imports: the LazyConfig the script loads "
                        "(literals only, nothing executed)")
        for keys, value in _overrides(args):
            got.set(keys, value, ("<cli>", 0))
        self._facts(plan, project, script, args, got)

    def _facts(self, plan: TrainingPlan, project: Project, script: ParsedPython, args: list[str], cfg: _File) -> None:
        text = script.source.text

        def add(field: str, value: Any, keys: tuple[str, ...], detail: str) -> None:
            at = cfg.where.get(keys)
            while at is None and len(keys) > 1:
                keys = keys[:-1]
                at = cfg.where.get(keys)
            key = ".".join(keys)
            if at is not None and at[0] == "<cli>":
                source = Source("cli", None, None, key, f"LazyConfig override: {detail}")
            else:
                source = Source("config", at[0] if at else cfg.shown, at[1] if at and at[1] else None, key,
                                f"LazyConfig: {detail}")
            self.add_checked(plan, field, value, source, "medium")

        ns = cfg.ns
        world = None
        if "default_argument_parser" in text:
            gpus, machines = _library_count(args, "num_gpus"), _library_count(args, "num_machines")
            world = gpus * machines if gpus and machines else None
        train = ("dataloader", "train")
        loader = _get(ns, *train)
        if isinstance(loader, dict) and str(loader.get("_target_", "")).endswith("build_detection_train_loader"):
            total = _int(loader.get("total_batch_size"))
            if total:
                add("batch.global", total, (*train, "total_batch_size"), "total_batch_size over all processes")
                if world and total % world == 0:
                    add("batch.micro", total // world, (*train, "total_batch_size"),
                        f"total_batch_size {total} // {world} processes (build_detection_train_loader)")
            workers = loader.get("num_workers")
            if isinstance(workers, int) and not isinstance(workers, bool) and workers >= 0:
                add("data.num_workers", workers, (*train, "num_workers"), "the train loader's num_workers")
            if "pin_memory" not in loader:
                add("data.pin_memory", False, train, "pin_memory not set: build_batch_data_loader's default False")
            size = self._crop(_get(loader, "mapper", "augmentations"))
            if size:
                add("data.image_size", size, (*train, "mapper", "augmentations"), f"FixedSizeCrop {size}x{size}")
        target = _get(ns, "optimizer", "_target_")
        if isinstance(target, str) and target:
            add("optimizer.name", target.rsplit(".", 1)[-1], ("optimizer", "_target_"), f"the optimizer {target}")
        amp = _get(ns, "train", "amp", "enabled")
        if isinstance(amp, bool) and "AMPTrainer" in text and "amp.enabled" in text \
                and _get(ns, "train", "amp", "precision") is None:
            add("precision.mode", "amp_fp16" if amp else "fp32", ("train", "amp", "enabled"),
                "AMPTrainer: float16 autocast with a GradScaler over fp32 weights" if amp
                else "SimpleTrainer: no autocast, fp32")
        if world and world > 1 and "create_ddp_model" in text:
            plan_source = project.source(script, None, "code",
                                         detail=f"create_ddp_model wraps the model in DistributedDataParallel on "
                                                f"{world} processes (--num-gpus x --num-machines)")
            self.add_checked(plan, "dist.sharding", "ddp", plan_source, "medium")

    @staticmethod
    def _crop(augmentations: Any) -> Optional[int]:
        if not isinstance(augmentations, list):
            return None
        sizes = []
        for aug in augmentations:
            if isinstance(aug, dict) and str(aug.get("_target_", "")).endswith("FixedSizeCrop"):
                crop = aug.get("crop_size")
                if isinstance(crop, (list, tuple)) and len(crop) == 2 and crop[0] == crop[1] and _int(crop[0]):
                    sizes.append(int(crop[0]))
        return sizes[0] if len(sizes) == 1 else None
