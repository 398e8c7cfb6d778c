"""Training-data facts a composed Hydra config states through ``_target_`` nodes, read as data (never
instantiated, never imported): the per-process batch of a project's own loader class, and the crop size of a
torchvision transform pipeline written as ``_target_`` nodes.

**The loader class's batch** (``batch.micro``, medium). A ``_target_`` node naming a class of the project whose
one training ``DataLoader(...)`` (in any method not named for evaluation) passes ``batch_size=self.X``, where
``__init__`` sets ``self.X`` from its parameter ``P`` and sets it nowhere else: the node's ``P`` is the batch of
each process's loader. The node is built by whoever instantiates it (a trainer class, not the script), so no
``instantiate(cfg.<node>)`` in the script is asked for (that shape is :mod:`preflight.adapters.hydra_datamodule`'s,
for Lightning's ``train_dataloader``). Found in facebookresearch/omnivore @ 1d55abd
``omnivision/data/torch_dataset.py:14-49`` (``TorchDataset.get_loader`` -> ``DataLoader(batch_size=
self.batch_size, sampler=DistributedSampler(...))``, built by ``trainer/omnivision_trainer.py:336``
``instantiate(self.data_conf.train)`` from ``trainer.data.train``), the same class in facebookresearch/sam3
``sam3/train/data/torch_dataset.py`` (``trainer.data.train._target_: sam3.train.data.torch_dataset.TorchDataset``
in its ``sam3/train/configs``), and a Lightning DataModule built by the library rather than the script
(txie-93/cdvae's ``CrystDataModule`` shape). Left unknown: a node under an evaluation section (``val``,
``test``, ...); a class with several training loaders, a ``batch_sampler=`` or ``**kwargs`` loader (sam2's
``TorchTrainMixedDataset`` builds ``BatchSampler(sampler, batch_size)`` per dataset), a batch computed from the
attribute (sam3 forks' ``batch_size=self.batch_size * self.gradient_accumulation_steps``); nodes that disagree;
a composed config with an accumulation key above 1 (the trainer may split the loader's batch into micro-batches,
omnivision's ``chunk_batch_for_accum_steps``).

**The training crop** (``data.image_size``, medium). A list of ``_target_: torchvision.transforms.<Step>`` nodes
(``Compose``'s ``transforms``) under a path with a ``train`` section and no evaluation section: the size of the
last step that fixes it to one square integer (``RandomResizedCrop``/``RandomCrop``/``CenterCrop`` ``size``, an
int or ``[n, n]``; ``Resize`` with an ``[n, n]`` size); a later step that may change the size without saying to
one integer (``Resize(256)`` keeps the aspect ratio; a project step named like a resize or crop) leaves it
unknown (a project step not so named, omnivore's ``RandAugment``, keeps the size, as in
:mod:`preflight.adapters.mmengine_config`'s pipelines), as do pipelines
that disagree. Found in omnivore ``omnivision/config/experiments/omnimae/omnimae_vitbase_ft_in1k.yaml:47-52``
(``RandomResizedCrop`` ``size: 224`` under ``trainer.data.train.dataset.transforms``), the Lighter
configs of project-lighter/lighter (``system.dataloaders.train.dataset.transform`` ``Compose`` with
``RandomResizedCrop size: 224``; its ``val`` loader's ``Resize 256`` + ``CenterCrop 224`` is not read) and
Hydra image-classification templates of the same shape (find_string ``_target_: torchvision.transforms.
RandomResizedCrop``: 7 files).

**A Lightning Bolts DataModule's native size** (``data.image_size``, medium). A ``_target_`` node naming
``pl_bolts.datamodules.CIFAR10DataModule`` (MNIST, FashionMNIST, CIFAR-10's module path) or a local class
deriving from it, given no ``train_transforms``, with no other mention of ``train_transforms`` in the local
class: Bolts' ``default_transforms()`` are ``ToTensor`` and a normalisation, so the training images keep the
dataset's native size (CIFAR-10 32, MNIST/FashionMNIST 28). Found in atong01/conditional-flow-matching @
``runner/configs/datamodule/cifar.yaml:1`` -> ``runner/src/datamodules/cifar10_datamodule.py:8-11`` (a subclass
passing only ``test_transforms``), and scripts building ``pl_bolts.datamodules.CIFAR10DataModule(batch_size=...)``
(find_string ``pl_bolts.datamodules.CIFAR10DataModule``: 8 files, some with their own ``train_transforms``, which
this leaves unknown).

**The trainer class's wrapper** (``dist.sharding``, medium). The composed config's top-level ``_target_`` or its
``trainer`` node names a class of the project (the job is that object's loop, built by ``instantiate``) whose
module constructs ``DistributedDataParallel`` (or FSDP), read as :func:`preflight.adapters.pytorch_local.
ddp_in_local_modules` reads a module the script imports (not when the job is known to run one process, nor a
wrapper under a process-count guard unless several processes are known).
omnivore ``omnivision/config/experiments/base.yaml:7-8`` ``trainer._target_: omnivision.trainer.omnivision_trainer.
OmnivisionTrainer`` -> ``omnivision_trainer.py:216`` ``nn.parallel.DistributedDataParallel(...)``; facebookresearch/
sam2 ``trainer._target_: training.trainer.Trainer`` -> ``training/trainer.py`` ``_setup_ddp_distributed_training``;
facebookresearch/sam3 the same. A trainer class that is not local (``lightning.Trainer``) is the Lightning readers'.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Optional

from preflight.adapters.config_key_families import _other_section
from preflight.adapters.lightning_local import _init_param

from preflight.analysis.syntax import dotted_name

if TYPE_CHECKING:
    from preflight.adapters.hydra import _Facts

_EVAL_METHOD = ("val", "test", "eval", "predict", "infer")
_ACCUM_KEYS = ("gradient_accumulation_steps", "accum_steps", "accum_iter", "accumulate_grad_batches",
               "grad_accum_steps", "gradient_accumulate_every", "accum_grad_iters")
_CROPS = ("RandomResizedCrop", "RandomCrop", "CenterCrop", "RandomResizedCropAndInterpolation")
_SIZE_WORDS = ("Resize", "Crop", "Scale", "Pad", "Rescale")
_MAX_DEPTH = 16
_NOT_LOCAL = ("torch.", "lightning.", "pytorch_lightning.", "transformers.", "accelerate.")


def _walk(data: Any, path: tuple = (), depth: int = 0) -> Iterable[tuple[tuple, Any]]:
    """Every dict and list of the composed config with its path (list items by index)."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(data, (dict, list)):
        yield path, data
        items = data.items() if isinstance(data, dict) else enumerate(data)
        for key, value in items:
            yield from _walk(value, (*path, key), depth + 1)


def _has_accumulation(cfg: Any) -> bool:
    for _path, node in _walk(cfg):
        if isinstance(node, dict):
            for key in _ACCUM_KEYS:
                value = node.get(key)
                if not (value is None or value == 1 or isinstance(value, bool)):
                    return True  # above 1, or an interpolation/unknown: the loader's batch may be split
    return False


def _class(root: Path, target: str) -> Optional[ast.ClassDef]:
    from preflight.adapters.module_params import local_file

    from preflight.local_trees import parse_project_file

    file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
    tree = parse_project_file(file) if file is not None else None
    if tree is None:
        return None
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == target.rsplit(".", 1)[-1]]
    return found[0] if len(found) == 1 else None


def _train_loader(cls: ast.ClassDef) -> Optional[ast.Call]:
    """The class's one ``DataLoader(...)`` outside methods named for evaluation."""
    calls: list[ast.Call] = []
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or any(word in fn.name.lower() for word in _EVAL_METHOD):
            continue
        calls.extend(n for n in ast.walk(fn) if isinstance(n, ast.Call)
                     and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "DataLoader")
    if len(calls) != 1:
        return None
    call = calls[0]
    if any(k.arg in (None, "batch_sampler") for k in call.keywords) or any(isinstance(a, ast.Starred)
                                                                             for a in call.args):
        return None
    return call


def _loader_batch(cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    """(the ``__init__`` parameter, line) behind the training loader's ``batch_size=self.X``."""
    call = _train_loader(cls)
    if call is None:
        return None
    expr = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
    if expr is None and len(call.args) > 1:
        expr = call.args[1]
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self"):
        return None
    param = _init_param(cls, expr.attr)
    return (param, call.lineno) if param is not None else None


def loader_class_batch(facts: _Facts) -> None:
    if facts.plan.value("batch.micro") is not None or not isinstance(facts.cfg, dict) \
            or _has_accumulation(facts.cfg):
        return
    root = Path(str(facts.project.root))
    found: list[tuple[tuple[str, ...], int, str]] = []
    for path, node in _walk(facts.cfg):
        target = node.get("_target_") if isinstance(node, dict) else None
        if not isinstance(target, str) or "." not in target or target.startswith(("torch.", "torchvision.")) \
                or not all(isinstance(p, str) for p in path) or _other_section((*path, "")):
            continue
        cls = _class(root, target)
        got = _loader_batch(cls) if cls is not None else None
        if got is None or got[0] not in node:
            continue
        key = (*path, got[0])
        value = facts.known(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            found.append((key, value, f"{target}'s DataLoader(batch_size=self...) (line {got[1]}), set from "
                                      f"__init__'s {got[0]}: per process"))
    if len({v for _, v, _ in found}) != 1:
        return
    key, value, detail = found[0]
    facts.add("batch.micro", value, key, f"{'.'.join(key)} {value}: {detail}", "medium")


def _square(value: Any) -> Optional[int]:
    if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == value[1]:
        value = value[0]
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _pipeline_size(steps: list) -> Optional[int]:
    found: Optional[int] = None
    for step in steps:
        target = step.get("_target_") if isinstance(step, dict) else None
        if not isinstance(target, str):
            return None
        name = target.rsplit(".", 1)[-1]
        if not target.startswith("torchvision.transforms."):
            if any(word in name for word in _SIZE_WORDS):
                found = None  # a project step named for resizing: its output size is not read
            continue  # (mmengine_config's rule: a step not named for the size keeps it)
        args = step.get("_args_")
        size = step.get("size", args[0] if isinstance(args, list) and args else None)
        if name in _CROPS or (name == "Resize" and isinstance(size, (list, tuple))):
            found = _square(size)
        elif any(word in name for word in _SIZE_WORDS):
            found = None
    return found


def _is_pipeline(node: Any) -> bool:
    return isinstance(node, list) and bool(node) and all(isinstance(s, dict) for s in node) \
        and any(isinstance(s.get("_target_"), str) and s["_target_"].startswith("torchvision.transforms.")
                for s in node)


def transform_crop(facts: _Facts) -> None:
    if facts.plan.value("data.image_size") is not None or not isinstance(facts.cfg, dict):
        return
    sizes: list[tuple[tuple[str, ...], int]] = []
    for path, node in _walk(facts.cfg):
        if not _is_pipeline(node):
            continue
        names = [p for p in path if isinstance(p, str)]
        tokens = {t for p in names for t in p.lower().replace("-", "_").split("_")}
        if not ({"train", "training"} & tokens) or _other_section((*path, "")):
            continue
        size = _pipeline_size(node)
        if size is None:
            return  # a training pipeline whose crop is not known: the others do not say it alone
        key = tuple(p for p in path[:next((i for i, p in enumerate(path) if not isinstance(p, str)), len(path))])
        sizes.append((key, size))
    if len({s for _, s in sizes}) != 1:
        return
    key, size = sizes[0]
    facts.add("data.image_size", size, key, f"{'.'.join(key)}: torchvision transform pipeline (_target_ nodes) "
                                            f"crops the training images to {size}x{size}", "medium")


def trainer_wrapper(facts: _Facts) -> None:
    if facts.plan.value("dist.sharding") is not None or not isinstance(facts.cfg, dict):
        return
    # (the launchers adapter runs after this one: a torchrun line's count is not known yet; a count known to be
    # one process leaves it to the single-process readers, as pytorch.local_ddp does)
    world = facts.plan.resolve("dist.world_size")
    several = world is not None and isinstance(world.value, int) and world.value > 1 and world.confidence != "low"
    if world is not None and world.value == 1:
        return
    from preflight.adapters.ddp_world_guard import single_process_skips
    from preflight.adapters.module_params import local_file
    from preflight.adapters.pytorch_local import _ddp_call, _fsdp_call

    from preflight.local_trees import parse_project_file

    root = Path(str(facts.project.root))
    found: list[tuple[tuple[str, ...], str, int, str, str]] = []
    tops: tuple[tuple[str, ...], ...] = ((), ("trainer",))
    for path in tops:
        node = facts.cfg if not path else facts.cfg.get(path[0])
        target = node.get("_target_") if isinstance(node, dict) else None
        if not isinstance(target, str) or "." not in target or target.startswith(_NOT_LOCAL):
            continue
        file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
        tree = parse_project_file(file) if file is not None else None
        if tree is None or file is None:
            continue
        line = _ddp_call(tree)
        if line is not None and not several and single_process_skips(tree, line):
            continue  # ``if world_size > 1: DDP(...)`` with the count not known
        if line is not None:
            found.append((path, target, line, "ddp", "DistributedDataParallel(...)"))
            continue
        fsdp = _fsdp_call(tree)
        if fsdp is not None:
            found.append((path, target, fsdp[1], fsdp[0], fsdp[2]))
    if len({f[3] for f in found}) != 1:
        return
    path, target, line, mode, what = found[0]
    count = f"; {world.value} processes" if several and world is not None else ""
    facts.add("dist.sharding", mode, (*path, "_target_"),
              f"{'.'.join((*path, '_target_'))}: {target}, whose module builds {what} (line {line}){count}", "medium")


_BOLTS_NATIVE = {"CIFAR10DataModule": 32, "MNISTDataModule": 28, "FashionMNISTDataModule": 28}


def _bolts_base(root: Path, target: str) -> Optional[str]:
    """The Bolts DataModule ``target`` is or derives from (a local class whose base is one), else None."""
    name = target.rsplit(".", 1)[-1]
    if target.startswith("pl_bolts."):
        return name if name in _BOLTS_NATIVE else None
    from preflight.adapters.module_params import local_file

    from preflight.local_trees import parse_project_file

    file = next((f for f in (local_file(b, target) for b in (root, root.parent)) if f is not None), None)
    tree = parse_project_file(file) if file is not None else None
    if tree is None:
        return None
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(found) != 1 or "train_transforms" in ast.dump(found[0]):
        return None
    imported = {a.asname or a.name: f"{n.module}.{a.name}" for n in tree.body if isinstance(n, ast.ImportFrom)
                and n.module for a in n.names}
    for base in found[0].bases:
        dotted = dotted_name(base) or ""
        head = dotted.split(".", 1)[0]
        full = imported.get(head, head) + dotted[len(head):]
        last = full.rsplit(".", 1)[-1]
        if full.startswith("pl_bolts.") and last in _BOLTS_NATIVE:
            return last
    return None


def bolts_native_size(facts: _Facts) -> None:
    if facts.plan.value("data.image_size") is not None or not isinstance(facts.cfg, dict):
        return
    root = Path(str(facts.project.root))
    found: list[tuple[tuple[str, ...], str, str]] = []
    for path, node in _walk(facts.cfg):
        target = node.get("_target_") if isinstance(node, dict) else None
        if not isinstance(target, str) or "." not in target or not all(isinstance(p, str) for p in path) \
                or _other_section((*path, "")) or node.get("train_transforms") is not None:
            continue
        base = _bolts_base(root, target)
        if base is not None:
            found.append((path, target, base))
    if len(found) != 1:
        return
    path, target, base = found[0]
    size = _BOLTS_NATIVE[base]
    facts.add("data.image_size", size, (*path, "_target_"),
              f"{'.'.join((*path, '_target_'))}: {target}, a Lightning Bolts {base} without train_transforms: "
              f"its default transforms keep the native {size}x{size} images", "medium")
