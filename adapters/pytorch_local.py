"""Data parallelism set up in a local module the training script imports: pytorch/examples'
minGPT-DDP wraps the model in ``DistributedDataParallel`` inside ``trainer.py``'s ``Trainer``,
which ``main.py`` imports (``from trainer import Trainer``). The entry script's own pass sees
no wrapper; this reads (never imports) the local modules it imports, one level, beside the
script, and where one constructs ``torch.nn.parallel.DistributedDataParallel`` (by any import
alias) says ``dist.sharding = ddp`` (medium: the class is used by the script, the call site is
in the module). FSDP or DeepSpeed anywhere in the job take precedence through their own facts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.adapters.module_main_block import guarded_nodes, main_block_nodes

from preflight.local_trees import nodes_of, parse_file
from preflight.sources import read_text_limited

_DDP = "torch.nn.parallel.DistributedDataParallel"
_FSDP_MODULES = ("torch.distributed.fsdp", "torch.distributed.fsdp.fully_sharded_data_parallel")
_FSDP_MODES = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
               "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}
_MAX_BYTES = 500_000


_PROJECT_MARKERS = ("setup.py", "pyproject.toml", "setup.cfg")


def _import_bases(here: Path) -> list[Path]:
    """Where the script's absolute imports of its own project resolve: beside it; the directory
    above the package it sits in (``src/star_align/train.py`` importing ``star_align.llm_wrapper``,
    bigcode-project/starcoder2-self-align); and the project's own installed package, at the
    nearest directory above holding setup.py/pyproject.toml (or its ``src/``):
    ``scripts/image_train.py`` importing ``improved_diffusion.train_util`` (openai/improved-diffusion)."""
    bases = [here]
    top = here
    while (top / "__init__.py").is_file() and top.parent != top:
        top = top.parent
    if top != here:
        bases.append(top)
    for anc in [here, *here.parents][:4]:
        if any((anc / m).is_file() for m in _PROJECT_MARKERS):
            for base in (anc, anc / "src"):
                if base.is_dir() and base not in bases:
                    bases.append(base)
            break
    return bases


def _imported_local(tree: ast.AST, here: Path) -> list[Path]:
    out: list[Path] = []
    bases = _import_bases(here)
    for node in nodes_of(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            rel = name.replace(".", "/")
            for base in bases:
                found = [c for c in (base / f"{rel}.py", base / rel / "__init__.py") if c.is_file()]
                for cand in found:
                    if cand not in out:
                        out.append(cand)
                if found:
                    break
            else:
                from preflight.adapters.own_name_package import own_name_module

                out.extend(c for c in own_name_module(name, here) if c not in out)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            from preflight.adapters.foreign_sibling import foreign_sibling

            sibling = foreign_sibling(node.module, here, bases)  # under another tree's package path (SlowFast)
            if sibling is not None and sibling not in out:
                out.append(sibling)
            # ``from training import training_loop``: a module of a local package, imported by name
            # (NVlabs/edm @ 008a4e5 train.py:18 -> training/training_loop.py)
            rel = node.module.replace(".", "/")
            for base in bases:
                if not (base / rel).is_dir():
                    continue
                for alias in node.names:
                    cand = base / rel / f"{alias.name}.py"
                    if alias.name != "*" and cand.is_file() and cand not in out:
                        out.append(cand)
                break
    return out


def _ddp_call(tree: ast.AST) -> Optional[int]:
    """Line of a ``DistributedDataParallel(...)`` construction, by its imported name."""
    aliases: set[str] = set()
    modules: set[str] = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("torch.nn.parallel", "torch.nn",
                                                                "torch.nn.parallel.distributed"):
            for a in node.names:
                if a.name == "DistributedDataParallel":
                    aliases.add(a.asname or a.name)
                elif a.name == "parallel":
                    modules.add((a.asname or a.name) + ".DistributedDataParallel")
        elif isinstance(node, ast.ImportFrom) and node.module == "torch":
            # ``from torch import nn`` -> ``nn.parallel.DistributedDataParallel(...)``
            modules.update(f"{a.asname or a.name}.parallel.DistributedDataParallel" for a in node.names
                           if a.name == "nn")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("torch", "torch.nn", "torch.nn.parallel") and a.asname is None:
                    modules.add(_DDP)
                elif a.name == "torch.nn" and a.asname:
                    # ``import torch.nn as nn`` -> ``nn.parallel.DistributedDataParallel(...)`` (facebookresearch/
                    # omnivore omnivision/trainer/omnivision_trainer.py:20,216; facebookresearch/sam2
                    # training/trainer.py)
                    modules.add(f"{a.asname}.parallel.DistributedDataParallel")
                elif a.name == "torch.nn.parallel" and a.asname:
                    modules.add(f"{a.asname}.DistributedDataParallel")
    demo = main_block_nodes(tree)
    for node in nodes_of(tree):
        if not isinstance(node, ast.Call) or id(node) in demo:
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in aliases:
            return node.lineno
        if isinstance(f, ast.Attribute):
            text = ast.unparse(f) if hasattr(ast, "unparse") else ""
            if text in modules or text == _DDP:
                return node.lineno
    return None


def _fsdp_call(tree: ast.AST) -> Optional[tuple[str, int, str]]:
    """(mode, line, what) of a ``FullyShardedDataParallel(...)`` construction (by its imported
    name or ``torch.distributed.fsdp.FullyShardedDataParallel``), its ``sharding_strategy``
    read from the enum member's name (default FULL_SHARD). One under an ``if`` of the module is
    not taken: the module picks FSDP for some settings only, which this reading does not decide
    (InternLM/InternEvo @ c628a8c ``internlm/train/pipeline.py:217-239``: ``if
    gpc.config.parallel.zero1.fsdp and ...: model = FSDP(...)``, off in ``configs/7B_sft.py``,
    which trains with the project's hybrid ZeRO-1 instead)."""
    aliases: set[str] = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.module in _FSDP_MODULES:
            aliases.update(a.asname or a.name for a in node.names if a.name == "FullyShardedDataParallel")
    skipped: Optional[set[int]] = None
    for node in nodes_of(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        text = ast.unparse(f) if hasattr(ast, "unparse") else ""
        if not ((isinstance(f, ast.Name) and f.id in aliases) or text.endswith("fsdp.FullyShardedDataParallel")):
            continue
        if skipped is None:
            skipped = main_block_nodes(tree) | guarded_nodes(tree)
        if id(node) in skipped:
            continue
        strategy = next((k.value for k in node.keywords if k.arg == "sharding_strategy"), None)
        if strategy is None:
            return "fsdp_full", node.lineno, "FullyShardedDataParallel(...): default FULL_SHARD"
        last = (ast.unparse(strategy) if hasattr(ast, "unparse") else "").rsplit(".", 1)[-1]
        if last in _FSDP_MODES:
            return _FSDP_MODES[last], node.lineno, f"FullyShardedDataParallel(sharding_strategy={last})"
        return None
    return None


def ddp_in_local_modules(script_path: Path, tree: ast.AST,
                         root: Optional[Path] = None) -> Optional[tuple[Path, int, str, str]]:
    """(module, line, mode, what) of a DDP or FSDP wrapper in a local module the script imports
    (mistral-finetune ``train.py`` -> ``finetune/wrapped_model.py:188`` FSDP FULL_SHARD), or None.
    Also a module of the repository's own package imported by its dotted name from a script
    below it (FunAudioLLM/CosyVoice @ ace7c47 ``cosyvoice/bin/train.py`` -> ``cosyvoice/utils/
    train_utils.py:97-100`` DDP), the script run from an example folder outside the package."""
    from preflight.adapters.guarded_helpers import project_modules

    paths = _imported_up(tree, script_path.resolve().parent, root, depth=2)
    if isinstance(tree, ast.Module) and script_path.is_file():
        paths += [p for p in project_modules(tree, script_path) if p not in paths]
    for path in paths:
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            sub = parse_file(path)
        except (OSError, SyntaxError, ValueError):
            continue
        line = _ddp_call(sub)
        if line is not None:
            return path, line, "ddp", "DistributedDataParallel(...)"
        fsdp = _fsdp_call(sub)
        if fsdp is not None:
            return path, fsdp[1], fsdp[0], fsdp[2]
    return None


# ``adapter`` as a word of its own or joined by ``_`` (``add_adapter``, ``adapter_config``, ``self.adapter``),
# not inside another lower-case name: DETR's FPN ``self.adapter1 = nn.Conv2d(...)`` (facebookresearch/detr
# models/segmentation.py:93-95 at 29901c5) and a ``DataAdapter`` are no PEFT
# (a class name starting ``Adapter``, adapter-transformers' ``AdapterConfig``, still counts)
# ``lora`` inside ``exploration`` (huggingface/pytorch-image-models @ aa4b585 train.py's help text "uniform random
# exploration") and the HTTP/logging adapters of ``requests`` and ``logging`` (allenai/OLMo-core @ fa6c501
# ``from requests.adapters import HTTPAdapter``, TRI-ML/prismatic-vlms @ 874c5bb ``LoggerAdapter``, accelerate's
# logging ``MultiProcessAdapter``, bytedance/1d-tokenizer @ its pinned commit utils/logger.py) are no PEFT; nor is
# ``Adapter`` ending a CamelCase name (the adapter design pattern: thu-ml/tianshou @ f240205
# tianshou/utils/net/common.py:75 ``ModuleWithVectorOutputAdapter``, a ``DataAdapter``)
_PEFT_WORDS = re.compile(r"(?i:\bpeft\b|(?<!exp)lora|get_peft_model|PeftModel|"
                         r"(?<![a-z0-9])(?<!requests\.)adapters?(?![a-z0-9]))"
                         r"|(?<![a-z])(?<!HTTP)Adapter(?![0-9])")
# an argument switching activation checkpointing off, by keyword
# (or no switch at all: the bare ``import torch.utils.checkpoint [as cp]`` of a module that never calls it
# (a call, ``cp.checkpoint(...)``, still counts),
# XLabs-AI/x-flux @ 4749542 train_flux_lora_deepspeed.py:10, DepthAnything/Depth-Anything-V2 @ a561b84
# depth_anything_v2/dinov2.py:17; a Hugging Face or diffusers model class declaring it ``supports_gradient_checkpointing``
# (modeling_prismatic.py:179) and a forward's guard ``if self.gradient_checkpointing and self.training`` (Plachtaa/seed-vc @ d334fb7)
# with the ``self._gradient_checkpointing_func`` it calls there, all off until
# ``gradient_checkpointing_enable()`` is called, openvla/openvla @ c8f03f4 prismatic/extern/hf/)
_CKPT_OFF = re.compile(r"\b(activation_checkpointing\w*|gradient_checkpointing|checkpoint_activations)\s*=\s*(None|False)\b|"
                       r"^[ \t]*import torch\.utils\.checkpoint(?:[ \t]+as[ \t]+\w+)?[ \t]*$|"
                       r"\b_?supports_gradient_checkpointing\b(?:\s*:\s*bool)?\s*=\s*\w+|"
                       r"\bself\.gradient_checkpointing and self\.training\b|\bself\._gradient_checkpointing_func\b", re.M)
# activation checkpointing by any of its spellings (never a saved model "checkpoint", nor ``nn.Upsample``'s
# ``recompute_scale_factor``, WongKinYiu/yolov9 @ 5b1ea9a models/experimental.py, nor boxes recomputed from masks
# after a crop: detectron2's ``DatasetMapper(recompute_boxes=...)`` (facebookresearch/detectron2
# detectron2/data/dataset_mapper.py, copied by facebookresearch/CutLER cutler/data/dataset_mapper.py and
# aim-uofa/AdelaiDet), mmdet's ``RandomCrop(recompute_bbox=True)`` (open-mmlab/mmdetection configs/strong_baselines)),
# nor habitat-sim's ``sim.recompute_navmesh(...)`` (a scene's walkable mesh: facebookresearch/fast3r @ 33104d4
# fast3r/croco/datasets/habitat_sim/multiview_habitat_sim_generator.py, from naver/croco), nor a project module for
# saved checkpoints named ``utils.checkpoint_utils`` (fast3r/viz/demo.py ``from fast3r.utils.checkpoint_utils import
# load_model``): ``torch.utils.checkpoint`` is the word, not a longer module name
_CKPT_WORDS = re.compile(r"utils\.checkpoint(?:ing)?\b|checkpoint_sequential|gradient_checkpointing|activation_checkpoint|"
                         r"checkpoint_wrapper|import checkpoint\b|\bcheckpoint\(|\bremat\b|"
                         r"(?<![a-z])recompute(?!_scale_factor|_box|_bbox|_navmesh)|"
                         r"grad_checkpoint|\bSelectiveAC\b|\bFullAC\b|"
                         # a switch set on in a config or a call (PicoAudio2 ``use_checkpoint: true # false``,
                         # lllyasviel/ControlNet ``models/cldm_v15.yaml`` ``use_checkpoint: True``); Swin's
                         # ``_C.TRAIN.USE_CHECKPOINT = False`` names no checkpointing that runs
                         r"\buse_(?:grad(?:ient)?_)?checkpoint(?:ing)?[\"']?\s*[:=]\s*[\"']?(?:true|1)\b", re.I)


def _relative(tree: ast.AST, here: Path) -> list[Path]:
    out: list[Path] = []
    for node in nodes_of(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            rel = (node.module or "").replace(".", "/")
            names = [rel] if rel else [a.name for a in node.names]
            for name in names:
                for cand in (base / f"{name}.py", base / name / "__init__.py"):
                    if cand.is_file() and cand not in out:
                        out.append(cand)
    return out


def _imported_up(tree: ast.AST, here: Path, root: Optional[Path], depth: int = 3, limit: int = 24) -> list[Path]:
    """Local modules the script imports, and those they import (``depth`` levels, at most
    ``limit`` files): each import looked up beside the importing file, then (a package imported by
    its dotted name from the project root, TinyLlama ``pretrain/tinyllama.py`` -> ``lit_gpt/``;
    mistral-finetune ``finetune/wrapped_model.py`` -> ``model/transformer.py``) in each parent
    folder up to ``root``."""
    top = root.resolve() if root is not None else None
    out: list[Path] = []
    frontier: list[tuple[ast.AST, Path]] = [(tree, here.resolve())]
    for _ in range(depth):
        found: list[Path] = []
        for node, folder in frontier:
            cands = _imported_local(node, folder) + _relative(node, folder)
            up = folder
            while top is not None and up != top and top in up.parents:
                up = up.parent
                cands += _imported_local(node, up)
            if top is not None and (up == top or top == folder):
                # a package of the repository the job runs from a folder below (karpathy/minGPT
                # projects/chargpt/chargpt.py ``from mingpt.model import GPT``, ``mingpt/`` two folders up,
                # installed by ``pip install -e .``): a package (a folder with ``__init__.py``) found in one
                # of the two folders above the root
                above = top
                for _ in range(2):
                    if above.parent == above:
                        break
                    above = above.parent
                    cands += [c for c in _imported_local(node, above)
                              if (c.parent / "__init__.py").is_file() and c.parent != above]
            found.extend(c for c in cands if c not in out and c not in found)
        out.extend(found)
        if len(out) >= limit:
            return out[:limit]
        frontier = []
        for path in found:
            try:
                if path.stat().st_size <= _MAX_BYTES:
                    frontier.append((parse_file(path), path.parent))
            except (OSError, SyntaxError, ValueError):
                continue
    return out


_COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.M)  # a line that is only a comment names nothing the job runs


def _names(words: re.Pattern[str], text: str, tree: ast.AST, script_path: Optional[Path],
           root: Optional[Path] = None, drop: Optional[re.Pattern[str]] = None,
           pre: Optional[Callable[[str], str]] = None) -> bool:
    def says(t: str) -> bool:
        t = pre(t) if pre is not None else t
        t = _COMMENT_LINE.sub("", t)  # parler-tts modeling_parler_tts.py:681 "# In PEFT, usually we cast ..."
        return words.search(drop.sub("", t) if drop is not None else t) is not None

    if says(text):
        return True
    if script_path is None or not script_path.is_file():
        return True
    for local in _imported_up(tree, script_path.resolve().parent, root):
        try:
            if says(read_text_limited(local, errors="replace")):
                return True
        except (OSError, ValueError):
            return True
    return False


def names_peft(text: str, tree: ast.AST, script_path: Optional[Path], root: Optional[Path] = None) -> bool:
    """Whether a script (its ``text``) or a local module it imports names PEFT/LoRA at all. A path
    that is not a file cannot be looked into further: True (claim nothing). A class a module defines and
    never uses (:mod:`preflight.adapters.peft_unused_class`) names none."""
    from preflight.adapters.peft_unused_class import without_unused_classes

    return _names(_PEFT_WORDS, text, tree, script_path, root,
                  pre=lambda t: without_unused_classes(_FASTCHAT_ADAPTER.sub("fastchat.model.", t), _PEFT_WORDS))


# FastChat's ``fastchat.model.model_adapter`` is its registry of chat templates per model family, not a PEFT adapter:
# the FastChat training scripts and their copies import ``get_conversation_template`` from it (icip-cas/ChatAlpaca
# @ b83c44a ``train/train_hf.py:22``, a full fine-tune), which made the job "name" adapters
_FASTCHAT_ADAPTER = re.compile(r"\bfastchat\.model\.model_adapter\b")


def names_checkpointing(text: str, tree: ast.AST, script_path: Optional[Path], root: Optional[Path] = None) -> bool:
    """Whether a script or a local module it imports names activation checkpointing at all; an
    argument that turns it off (TinyLlama ``pretrain/tinyllama.py:96``
    ``FSDPStrategy(..., activation_checkpointing_policy=None)``) does not count."""
    from preflight.adapters.ckpt_flag_guard import blank_flag_guarded
    from preflight.adapters.ckpt_param_guard import blank_guarded_params
    from preflight.adapters.ckpt_unused_import import blank_unused_imports

    return _names(_CKPT_WORDS, text, tree, script_path, root, _CKPT_OFF,
                  lambda t: blank_guarded_params(blank_flag_guarded(blank_unused_imports(t)), root))




def _hydra_config_texts(project: Any, limit: int = 200) -> list[str]:
    """The YAML files under the config folder of each ``@hydra.main`` app of the job: a group
    option the launch line picks (``model=llama``) may hold the LoRA settings."""
    if not any("hydra" in s.source.text for s in project.scripts):
        return []
    from preflight.adapters.hydra import find_apps

    out: list[str] = []
    for app in find_apps(project):
        if app.config_dir is None or not app.config_dir.is_dir():
            continue
        for path in sorted(app.config_dir.rglob("*.y*ml"))[:limit]:
            try:
                out.append(read_text_limited(path, errors="replace")[:_MAX_BYTES])
            except OSError:
                continue
    return out


def absent_in_loop(adapter: Any, plan: Any, project: Any, script: Any, site_node: ast.AST) -> None:
    """A plain PyTorch training loop whose script and local modules never name PEFT/LoRA or
    activation checkpointing (DiT ``train.py`` + ``models.py``): ``peft.method`` none and
    ``memory.gradient_checkpointing`` False, medium (a construct preflight does not read could
    still add either)."""
    path = Path(str(script.source.path)) if script.source.path else None
    root = Path(str(project.root)) if project.root else None
    what = "in the script, the local modules it imports, the configs read or the launch line"
    # the configs the job reads (an accelerate FSDP YAML's fsdp_activation_checkpointing) and the
    # launch line count as much as the code
    extra = "\n".join([*(src.text for src, _cfg in project.configs), " ".join(map(str, project.argv or [])),
                       *_hydra_config_texts(project)])
    from preflight.adapters.config_target_modules import targets_name

    texts = [src.text for src, _cfg in project.configs]
    if _PEFT_WORDS.search(extra) is None and not names_peft(script.source.text, script.tree, path, root) \
            and not targets_name(names_peft, texts, root):
        adapter.add_checked(plan, "peft.method", "none",
                            project.source(script, site_node, "code", detail=f"a training loop; no PEFT/LoRA named {what}"),
                            "medium")
    if _CKPT_WORDS.search(extra) is None and not names_checkpointing(script.source.text, script.tree, path, root) \
            and not targets_name(names_checkpointing, texts, root):
        adapter.add_checked(plan, "memory.gradient_checkpointing", False,
                            project.source(script, site_node, "code",
                                           detail=f"a training loop; no activation checkpointing named {what}"),
                            "medium")


def per_rank_batch(pass_: Any, site: Any, expr: Optional[ast.AST], conf: str, micro: bool = True) -> Optional[int]:
    """``DataLoader(batch_size=int(args.global_batch_size // dist.get_world_size()))`` (DiT
    ``train.py:174``): the numerator is the global batch, and with the launch line's process
    count the per-rank batch is their quotient (medium: the launch line's count is the world). A name
    bound once to that expression is followed (willisma/SiT @ 947f95b ``train.py:125,200``:
    ``local_batch_size = int(args.global_batch_size // dist.get_world_size())``, then
    ``DataLoader(..., batch_size=local_batch_size)``)."""
    if isinstance(expr, ast.Name):
        bound = pass_.idx.assigns.get(expr.id, [])
        if len(bound) == 1 and bound[0] is not None:
            expr = bound[0]
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "int" and len(expr.args) == 1:
        expr = expr.args[0]
    from preflight.adapters.world_expr import is_world_size

    if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.FloorDiv, ast.Div))
            and is_world_size(expr.right, pass_.idx)):
        return None
    total = pass_.value(expr.left)
    if total is None or not isinstance(total.value, int) or isinstance(total.value, bool) or total.value < 1:
        return None
    what = f"{site.label}(batch_size={ast.unparse(expr) if hasattr(ast, 'unparse') else '...'})"
    pass_.put("batch.global", total, site, f"{what}: the batch over all ranks", conf)
    from preflight.adapters.launchers import parse_launch

    argv = pass_.project.argv
    procs = parse_launch(argv).total_procs if argv else None
    if not (procs and total.value % procs == 0):
        return None
    if micro:  # else the loader's batch is split into rounds (loader_split.py): only the quotient is asked
        pass_.add("batch.micro", total.value // procs,
                  pass_.src(site.call, f"{what}: {total.value} // {procs} processes of the launch line", "derived"),
                  "medium")
    return int(total.value // procs)


def sampler_batch(pass_: Any, site: Any, conf: str) -> None:
    """``DataLoader(ds, batch_sampler=torch.utils.data.BatchSampler(sampler, batch_size, drop_last))``
    (facebookresearch/detr main.py:136-140 @ 29901c5: ``batch_sampler_train =
    torch.utils.data.BatchSampler(sampler_train, args.batch_size, drop_last=True)``): torch's own
    BatchSampler yields ``batch_size`` indices of the (per-process) sampler at a time, so that is
    the loader's batch. A project's sampler class (VITS's ``DistributedBucketSampler``) is not
    read: its batches are whatever its code makes them."""
    call = pass_.call_of(site.kwarg("batch_sampler"))
    if call is None:
        return
    from preflight.analysis.syntax import dotted_name

    name = dotted_name(call.func) or ""
    qualified = pass_.idx.qualify(name) or ""
    param, pos = "batch_size", 1
    if qualified.rsplit(".", 1)[-1] != "BatchSampler" or not qualified.startswith("torch."):
        found = _project_sampler(pass_, name)  # the project's own sampler closing batches at self.batch_size
        if found is None:
            return
        param, pos = found
    expr = next((k.value for k in call.keywords if k.arg == param), None)
    if expr is None and len(call.args) > pos and not any(isinstance(a, ast.Starred) for a in call.args[:pos + 1]):
        expr = call.args[pos]
    resolved = pass_.value(expr) if expr is not None else None
    if resolved is None or not isinstance(resolved.value, int) or isinstance(resolved.value, bool) \
            or resolved.value < 1:
        return
    pass_.put("batch.micro", resolved, site, f"{site.label}(batch_sampler={name}(sampler, batch_size, ...))", conf)


def _project_sampler(pass_: Any, name: str) -> Optional[tuple[str, int]]:
    from preflight.adapters.batch_sampler_local import batch_param, find_class
    from preflight.adapters.guarded_helpers import project_modules

    if "." in name or not name:
        return None
    script = pass_.script
    path = Path(str(script.source.path))
    if not path.is_file():
        return None
    local = [n for n in script.tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    paths = [*_imported_up(script.tree, path.resolve().parent, None, depth=1), *project_modules(script.tree, path)]
    cls = local[0] if local else find_class(name, paths)
    return batch_param(cls) if cls is not None else None


_HALF_DTYPES = ("torch.float16", "torch.half")


def autocast_dtype_elsewhere(script_path: Path, tree: ast.AST) -> Optional[tuple[Path, int, str]]:
    """(module, line, dtype text) of an ``autocast(..., dtype=X)`` in a project module the script
    imports, ``X`` not fp16 spelled out: the compute dtype the job's autocast uses is chosen there
    (FunAudioLLM/CosyVoice @ ace7c47 ``cosyvoice/utils/train_utils.py:249-250``
    ``torch.cuda.amp.autocast(enabled=scaler is not None, dtype=dtype)`` with ``dtype`` bf16 for
    ``--use_amp`` under torch_ddp, ``:74``), so a GradScaler in the entry script does not say fp16."""
    from preflight.adapters.guarded_helpers import project_modules

    if not isinstance(tree, ast.Module) or not script_path.is_file():
        return None
    paths = _imported_up(tree, script_path.resolve().parent, None, depth=1)
    paths += [p for p in project_modules(tree, script_path) if p not in paths]
    for path in paths:
        try:
            if path.stat().st_size > _MAX_BYTES or "autocast" not in read_text_limited(path, errors="replace"):
                continue
            sub = parse_file(path)
        except (OSError, SyntaxError, ValueError):
            continue
        for node in nodes_of(sub):
            if not isinstance(node, ast.Call) or not (ast.unparse(node.func)).endswith("autocast"):
                continue
            dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
            if dtype is not None and ast.unparse(dtype) not in _HALF_DTYPES:
                return path, node.lineno, ast.unparse(dtype)
    return None


def script_and_imported_trees(project: Any, script: Any, limit: int, max_bytes: int = 500_000) -> list[ast.AST]:
    """The script's tree and the trees of the local modules it imports (:func:`_imported_up`, at most
    ``limit`` files, each at most ``max_bytes``); a module that cannot be read or parsed is left out."""
    from preflight.local_trees import parse_file

    trees: list[ast.AST] = [script.tree]
    if script.source.path is None:
        return trees
    root = Path(str(project.root)) if project.root else None
    here = Path(str(script.source.path)).resolve().parent
    for path in _imported_up(script.tree, here, root, limit=limit):
        try:
            if path.stat().st_size <= max_bytes:
                trees.append(parse_file(path))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return trees
