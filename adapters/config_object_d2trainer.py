"""detectron2's ``DefaultTrainer`` built from a yacs config (:mod:`preflight.adapters.config_object_yacs`):
the library's loop reads the config's keys itself, so the facts come from the keys the trainer is known to
read, never from running it. Real shapes:

* facebookresearch/MaskFormer @ da3e60d ``train_net.py:44,245-247``: ``class Trainer(DefaultTrainer)``
  (overriding ``build_optimizer`` and ``build_train_loader``, the latter returning
  ``build_detection_train_loader(cfg, mapper=mapper)``), ``trainer = Trainer(cfg); trainer.train()``,
  launched by ``launch(main, args.num_gpus, ...)`` after ``default_argument_parser()``;
* facebookresearch/Mask2Former and facebookresearch/detectron2 ``tools/train_net.py`` (the same shape).

What ``DefaultTrainer`` does (detectron2 ``engine/defaults.py``, ``data/build.py``,
``solver/build.py``, ``config/defaults.py``), each read only where the subclass leaves the method alone:

* ``build_train_loader`` -> ``build_detection_train_loader(cfg)``: ``SOLVER.IMS_PER_BATCH`` is the batch
  over all processes (``batch.global``), ``DATALOADER.NUM_WORKERS`` each loader's workers (default 4);
* ``__init__``: ``(AMPTrainer if cfg.SOLVER.AMP.ENABLED else SimpleTrainer)``: one optimizer step per
  iteration (``batch.grad_accum`` 1), float16 autocast with a GradScaler or fp32 (``SOLVER.AMP.ENABLED``
  default False), the model wrapped in DistributedDataParallel on more than one process;
* ``build_optimizer`` -> ``torch.optim.SGD``.

A key the config does not hold takes detectron2's default only for the two keys above whose default is
stated here; any other missing key is left unknown. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_DEFAULTS = {("DATALOADER", "NUM_WORKERS"): 4, ("SOLVER", "AMP", "ENABLED"): False}
Fact = tuple  # (field, value, config path or None, detail)


def _from_detectron2(tree: ast.Module, name: str, path: Optional[Path] = None) -> bool:
    """``name`` is imported from a ``detectron2`` module in ``tree`` (the module at ``path``), or from a
    project module whose definition of it is a copy of detectron2's
    (:func:`preflight.library_parsers.detectron2_copy`: facebookresearch/CutLER ``from engine import
    DefaultTrainer, default_argument_parser``)."""
    from preflight.library_parsers import detectron2_copy

    return any(isinstance(n, ast.ImportFrom) and any((a.asname or a.name) == name for a in n.names)
               and ((n.module or "").split(".")[0] == "detectron2"
                    or (path is not None and n.level == 0 and n.module is not None and any(
                        (a.asname or a.name) == name and detectron2_copy(f"{n.module}.{a.name}", path)
                        for a in n.names)))
               for n in tree.body)


def _trainer_class(call: ast.Call, modules: Any, shown: str) -> tuple[bool, Optional[ast.ClassDef]]:
    """(True, the project subclass of detectron2's ``DefaultTrainer`` that ``call`` builds, or None for
    ``DefaultTrainer`` itself); (False, None) when the call builds no such trainer."""
    if not isinstance(call.func, ast.Name) or len(call.args) != 1:
        return False, None
    trees = {s: t for s, _, t in modules.trees}
    paths = {s: p for s, p, _ in modules.trees}
    if call.func.id == "DefaultTrainer" and shown in trees \
            and _from_detectron2(trees[shown], "DefaultTrainer", paths[shown]):
        return True, None
    got = modules.klass_seen(call.func.id, shown)
    if got is None:
        return False, None
    where, klass = got
    bases = [dotted_name(b) or "" for b in klass.bases]
    found = len(bases) == 1 and bases[0].rsplit(".", 1)[-1] == "DefaultTrainer" and where in trees \
        and _from_detectron2(trees[where], bases[0].split(".")[0], paths[where])
    return found, klass if found else None


def _overrides(klass: Optional[ast.ClassDef]) -> dict[str, ast.FunctionDef]:
    return {} if klass is None else {n.name: n for n in klass.body if isinstance(n, ast.FunctionDef)}


def _key(cfg: ast.expr, path: tuple) -> ast.expr:
    node: ast.expr = cfg
    for part in path:
        node = ast.Subscript(value=node, slice=ast.Constant(part), ctx=ast.Load())
    return node


def _world(modules: Any, argv: Optional[list[str]]) -> Optional[int]:
    """``--num-gpus`` x ``--num-machines`` of the launch line where the entry script parses its options with
    detectron2's ``default_argument_parser`` and starts them with ``launch``."""
    _, path, entry = modules.trees[0]
    called = {(dotted_name(n.func) or "").rsplit(".", 1)[-1] for n in ast.walk(entry) if isinstance(n, ast.Call)}
    if not argv or not {"default_argument_parser", "launch"} <= called \
            or not _from_detectron2(entry, "default_argument_parser", path):
        return None
    from preflight.library_parsers import library_option

    counts = [library_option("detectron2.engine.default_argument_parser", d, argv) for d in ("num_gpus", "num_machines")]
    if all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in counts):
        return counts[0] * counts[1]
    return None


def _reads_crop(modules: Any) -> bool:
    """A project module reads ``<cfg>.INPUT.CROP.SIZE`` (its own dataset mapper crops as detectron2's does)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "SIZE" and isinstance(n.value, ast.Attribute)
               and n.value.attr == "CROP" for _, _, tree in modules.trees for n in ast.walk(tree))


def _crop(reader: Any, cfg: ast.expr, at: str) -> list[Fact]:
    """``INPUT.CROP`` enabled, of type ``absolute``, with a square ``SIZE`` (a list, or the string yacs
    turns into a tuple: ``SIZE: (512, 512)``): the training crop is ``data.image_size``."""
    on, kind, size = (reader.ev(_key(cfg, ("INPUT", "CROP", k))) for k in ("ENABLED", "TYPE", "SIZE"))
    if on is None or on.value is not True or kind is None or kind.value != "absolute" or size is None \
            or size.path is None:
        return []
    value = size.value
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)  # what yacs does with a YAML string
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return []
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == value[1]
            and isinstance(value[0], int) and not isinstance(value[0], bool) and value[0] > 0):
        return []
    return [("data.image_size", value[0], size.path, f"INPUT.CROP.SIZE {value[0]}x{value[0]} (absolute crop, "
                                                     f"enabled) of the training mapper, {at}")]


def default_trainer(call: ast.Call, reader: Any, shown: str, modules: Any, argv: Optional[list[str]]) -> list[Fact]:
    """The facts of ``Trainer(cfg)`` with ``Trainer`` detectron2's ``DefaultTrainer`` or a project subclass of it
    and ``cfg`` a config the flow knows; [] otherwise."""
    found, klass = _trainer_class(call, modules, shown)
    if not found:
        return []
    cfg = call.args[0]
    solver = reader.ev(_key(cfg, ("SOLVER", "BASE_LR")))
    if solver is None or solver.path is None:
        return []  # not a config the flow holds (or one whose SOLVER section is unknown)
    root = tuple(solver.path[:-2])
    own = _overrides(klass)
    name = "DefaultTrainer" if klass is None else f"{klass.name}(DefaultTrainer)"
    at = f"{name} at {shown}:{call.lineno}"
    out: list[Fact] = []

    def read(field: str, path: tuple, detail: str, check: Any) -> None:
        got = reader.ev(_key(cfg, path))
        if got is not None and got.path is not None and check(got.value):
            out.append((field, got.value, got.path, f"{'.'.join(path)} {detail}, read by {at}"))
        elif got is None and path in _DEFAULTS and reader.known(root + path[:1]) is not None \
                and reader.known(root + path) is None:
            out.append((field, _DEFAULTS[path], None, f"{'.'.join(path)} not set: detectron2's default "
                                                      f"{_DEFAULTS[path]!r}, read by {at}"))

    loader = own.get("build_train_loader")
    if loader is None or any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").endswith(
            "build_detection_train_loader") for n in ast.walk(loader)):
        def count(v: Any) -> bool:
            return isinstance(v, int) and not isinstance(v, bool) and v >= 0

        read("batch.global", ("SOLVER", "IMS_PER_BATCH"), "is the batch over all processes "
             "(build_detection_train_loader)", lambda v: count(v) and v > 0)
        read("data.num_workers", ("DATALOADER", "NUM_WORKERS"), "workers of the train loader", count)
    if loader is None or _reads_crop(modules):
        out.extend(_crop(reader, cfg, at))
    if not {"__init__", "run_step"} & set(own):
        out.append(("batch.grad_accum", 1, None, f"SimpleTrainer/AMPTrainer: one optimizer step per iteration "
                                                 f"({at})"))
        before = len(out)
        read("precision.mode", ("SOLVER", "AMP", "ENABLED"), "chooses AMPTrainer (float16 autocast) or "
             "SimpleTrainer (fp32)", lambda v: isinstance(v, bool))
        if len(out) > before:
            field, value, path, detail = out[-1]
            out[-1] = (field, "amp_fp16" if value else "fp32", path, detail)
        world = _world(modules, argv)
        if world and world > 1:
            out.append(("dist.sharding", "ddp", None, f"DefaultTrainer wraps the model in DistributedDataParallel "
                                                      f"on {world} processes (--num-gpus x --num-machines; {at})"))
    if "build_optimizer" not in own:
        out.append(("optimizer.name", "SGD", None, f"DefaultTrainer.build_optimizer: torch.optim.SGD ({at})"))
    return out


def trains_with_default_trainer(tree: Optional[ast.Module], path: Optional[Path] = None) -> Optional[str]:
    """``name(...)`` at ``line`` where the script builds detectron2's ``DefaultTrainer`` or its own subclass
    of it and calls ``.train()`` on what it built (the loop is then the library's ``SimpleTrainer`` or
    ``AMPTrainer``); None otherwise."""
    if tree is None or not _from_detectron2(tree, "DefaultTrainer", path):
        return None
    names = {"DefaultTrainer"} | {n.name for n in tree.body if isinstance(n, ast.ClassDef)
                                  and [dotted_name(b) for b in n.bases] == ["DefaultTrainer"]}
    built = {n.targets[0].id: n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call)
             and isinstance(n.value.func, ast.Name) and n.value.func.id in names}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "train" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id in built:
            made = built[n.func.value.id]
            assert isinstance(made.value, ast.Call) and isinstance(made.value.func, ast.Name)
            return f"{made.value.func.id}(...) at line {made.lineno}"
    return None


# the methods DefaultTrainer calls with its config first (detectron2 ``engine/defaults.py``: ``self.build_model(cfg)``,
# ``self.build_optimizer(cfg, model)``, ``self.build_train_loader(cfg)``, ``self.build_lr_scheduler(cfg, optimizer)``)
_BUILDERS = ("build_model", "build_optimizer", "build_train_loader", "build_lr_scheduler")


def trainer_builders(call: ast.Call, modules: Any, shown: Optional[str]) -> list[ast.FunctionDef]:
    """The ``build_*`` methods a project subclass of detectron2's ``DefaultTrainer`` overrides, which the library
    calls with the config ``call`` (``Trainer(cfg)``) gives: their first parameter after ``cls``/``self`` is it."""
    found, klass = _trainer_class(call, modules, shown or "") if shown is not None else (False, None)
    return [fn for name, fn in _overrides(klass).items() if found and name in _BUILDERS
            and len(fn.args.args) >= 2]
