"""BasicSR options files: a script that hands the whole job to ``basicsr.train.train_pipeline``, launched
with ``-opt options/x.yml`` (xinntao/Real-ESRGAN @ a4abfb2 ``realesrgan/train.py:1-11`` and
``options/train_realesrnet_x4plus.yml``; the same shape in GFPGAN, HAT, SwinIR's BasicSR ports). The
training loop, the loaders and the network builder are the installed library's; the YAML says what they
do (BasicSR 1.4 ``basicsr/train.py``, ``basicsr/data/__init__.py`` ``build_dataloader``,
``basicsr/models/sr_model.py``):

- ``datasets.train.batch_size_per_gpu`` -> ``batch.micro``; ``datasets.train.num_worker_per_gpu`` ->
  ``data.num_workers``; the model steps its optimizer every batch (``optimize_parameters``): accumulation 1;
- ``train.optim_g.type`` (a ``torch.optim`` class name) -> ``optimizer.name``;
- ``--launcher pytorch``/``slurm`` on the line: ``init_dist`` and the network wrapped in
  ``DistributedDataParallel`` (``dist.sharding`` ddp); ``--launcher none`` or absent: one process, none;
- ``network_g`` of ``type: RRDBNet`` (the ESRGAN generator, ``basicsr/archs/rrdbnet_arch.py``): its
  parameter count from ``num_in_ch``, ``num_out_ch``, ``num_feat``, ``num_block``, ``num_grow_ch`` and the
  file's ``scale`` (16,697,987 for the x4 defaults, the published figure);
- BasicSR's models train in fp32 and use no activation checkpointing, ``torch.compile`` or PEFT: stated
  (fp32, False, False, none) only when the project's own modules the script imports name none of them
  either (``autocast``, ``GradScaler``, ``.half()``, ``checkpoint``, ``compile``, ``lora``/``peft``).

``medium``: the keys' meaning is the library's. Nothing is imported or executed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_OPT_FLAGS = ("-opt", "--opt")
_LIMIT = 500_000
_MAX_FILES = 60
_OPTIMS = {"adam": "Adam", "adamw": "AdamW", "sgd": "SGD", "rmsprop": "RMSprop", "adagrad": "Adagrad"}
_NOT_FP32 = re.compile(r"autocast|GradScaler|\.half\(\)|torch\.float16|bfloat16")
_CKPT = re.compile(r"checkpoint\.checkpoint|checkpoint_sequential|gradient_checkpointing|use_checkpoint|"
                   r"from torch\.utils\.checkpoint")
_COMPILE = re.compile(r"torch\.compile|\.compile\(")
_PEFT = re.compile(r"\bpeft\b|LoraConfig|\blora\b", re.I)


# BasicSR's own training script, in the library's repository or vendored by a project (megvii-research/NAFNet
# @ 2b4af71 ``basicsr/train.py:16-25``: ``from basicsr.data import create_dataloader, create_dataset``, ``from
# basicsr.models import create_model``, launched with ``-opt``), which builds what trains the same way
_OWN_SCRIPT = (re.compile(r"^\s*from\s+basicsr\.models\s+import[^\n]*\b(?:create|build)_model\b", re.M),
               re.compile(r"^\s*from\s+basicsr\.data\s+import[^\n]*\b(?:create|build)_data(?:loader|set)\b", re.M))


def _pipeline(text: str) -> bool:
    if "train_pipeline" in text and re.search(r"from\s+basicsr(\.\w+)*\s+import[^\n]*train_pipeline", text):
        return True
    return all(p.search(text) is not None for p in _OWN_SCRIPT)


def _option(args: list[str], flags: tuple[str, ...]) -> Optional[str]:
    for k, tok in enumerate(args):
        name, eq, value = tok.partition("=")
        if name in flags:
            value = value if eq else (args[k + 1] if k + 1 < len(args) else "")
            return value or None
    return None


def rrdbnet_count(in_ch: int, out_ch: int, feat: int, blocks: int, grow: int, scale: int) -> int:
    """Parameters of BasicSR's ``RRDBNet`` (``rrdbnet_arch.py``): 3x3 convolutions with biases; the
    input is pixel-unshuffled for scale 2 (x4 channels) and 1 (x16)."""
    def conv(cin: int, cout: int) -> int:
        return cin * cout * 9 + cout

    first_in = in_ch * (4 if scale == 2 else 16 if scale == 1 else 1)
    rdb = sum(conv(feat + i * grow, grow) for i in range(4)) + conv(feat + 4 * grow, feat)
    return conv(first_in, feat) + blocks * 3 * rdb + 4 * conv(feat, feat) + conv(feat, out_ch)


def _project_texts(script_path: Path, root: Path, project: Project) -> Optional[list[str]]:
    """The texts of the script and of the project's modules and sub-packages it imports by name; None when
    too many to read."""
    text = read_text_limited(script_path, errors="replace")[:_LIMIT]
    texts = [text]
    modules = {m.group(1) for m in re.finditer(r"^\s*(?:import|from)\s+([\w.]+)", text, re.M)}
    files: list[Path] = []
    for name in sorted(modules):  # ``import realesrgan.models``: that sub-package (its files), or module
        base = root.joinpath(*name.split("."))
        if base.is_dir() and (base / "__init__.py").is_file():
            files.extend(sorted(base.rglob("*.py")))
        elif base.with_suffix(".py").is_file():
            files.append(base.with_suffix(".py"))
    if len(files) > _MAX_FILES:
        return None
    for f in files:
        if project.may_read(f):
            try:
                texts.append(read_text_limited(f, errors="replace")[:_LIMIT])
            except (OSError, ValueError):
                return None
    return texts


@register_adapter
class BasicsrOptionsAdapter(Adapter):
    name = "recipes_basicsr"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_pipeline(s.source.text) and _option(project.script_args(s), _OPT_FLAGS) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.config_object_files import _load

        for script in project.scripts:
            args = project.script_args(script)
            name = _option(args, _OPT_FLAGS)
            if not _pipeline(script.source.text) or name is None or script.source.path is None:
                continue
            root = Path(str(project.root))
            found = next((p for p in (root / name, Path(str(script.source.path)).parent / name)
                          if p.suffix.lower() in (".yml", ".yaml") and p.is_file() and project.may_read(p)), None)
            if found is None:
                self.note(plan, f"-opt {name}: the BasicSR options file is not found; not read")
                continue
            cfg = _load(project, found, root)
            if cfg is None or not isinstance(cfg.data, dict):
                continue
            self._read(project, plan, script, cfg, args, root)
            return

    def _read(self, project: Project, plan: TrainingPlan, script: Any, cfg: Any, args: list[str], root: Path) -> None:
        def src(*keys: str, detail: str) -> Source:
            return project.config_source(cfg, keys, detail=detail)

        def add(field: str, value: Any, source: Source) -> None:
            self.add_checked(plan, field, value, source, "medium")

        def num(*keys: str) -> Optional[int]:
            got = cfg.get(keys)
            return got if isinstance(got, int) and not isinstance(got, bool) else None

        via = "read by BasicSR's training pipeline"
        micro = num("datasets", "train", "batch_size_per_gpu")
        if micro is not None and micro > 0:
            add("batch.micro", micro, src("datasets", "train", "batch_size_per_gpu", detail=f"per GPU, {via}"))
            add("batch.grad_accum", 1, src("train", detail="BasicSR's models step the optimizer after every batch "
                                                           "(optimize_parameters): no accumulation"))
        workers = num("datasets", "train", "num_worker_per_gpu")
        if workers is not None and workers >= 0:
            add("data.num_workers", workers, src("datasets", "train", "num_worker_per_gpu", detail=f"per GPU, {via}"))
        pin = cfg.get(("datasets", "train", "pin_memory"))
        add("data.pin_memory", pin if isinstance(pin, bool) else False, src(
            "datasets", "train", *(("pin_memory",) if isinstance(pin, bool) else ()), detail=(
                f"{via}" if isinstance(pin, bool) else "no pin_memory: BasicSR's data loader builder takes "
                "dataset_opt.get('pin_memory', False)")))
        gt_size, scale = num("datasets", "train", "gt_size"), num("scale")
        if gt_size is not None and gt_size > 0 and scale == 1:
            # the ground-truth patch is the network's input size only where nothing is upscaled (a x4
            # super-resolution model sees gt_size / 4)
            add("data.image_size", gt_size, src("datasets", "train", "gt_size", detail=(
                f"the training crop of the paired images, scale 1: the network's input, {via}")))
        optim = cfg.get(("train", "optim_g", "type"))
        if isinstance(optim, str) and optim.lower() in _OPTIMS:
            add("optimizer.name", _OPTIMS[optim.lower()], src("train", "optim_g", "type",
                                                              detail=f"torch.optim.{optim} built by BasicSR"))
        launcher = _option(args, ("--launcher",)) or "none"
        if launcher in ("pytorch", "slurm"):
            add("dist.sharding", "ddp", Source("cli", None, None, "--launcher",
                                               f"--launcher {launcher}: BasicSR's init_dist, then the network wrapped "
                                               "in DistributedDataParallel"))
        net = cfg.get(("network_g",))
        if isinstance(net, dict) and net.get("type") == "RRDBNet":
            dims: list[Any] = [net.get(k, d) for k, d in (("num_in_ch", None), ("num_out_ch", None),
                                                          ("num_feat", 64), ("num_block", 23), ("num_grow_ch", 32))]
            scale = net.get("scale", cfg.get(("scale",), 4))
            if all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (*dims, scale)):
                in_ch, out_ch, feat, blocks, grow = (int(v) for v in dims)
                count = rrdbnet_count(in_ch, out_ch, feat, blocks, grow, int(scale))
                add("model.num_parameters", count, src("network_g", "type", detail=(
                    f"RRDBNet({', '.join(map(str, dims))}, scale {scale}): {count:,} parameters (BasicSR's "
                    "rrdbnet_arch, counted from the options)")))
        texts = _project_texts(Path(str(script.source.path)), root, project)
        if texts is None:
            return
        what = "BasicSR's models {}; the project's modules the script imports name none either"
        for field, value, pattern, said in (
                ("precision.mode", "fp32", _NOT_FP32, "train in fp32 (no autocast or half precision)"),
                ("memory.gradient_checkpointing", False, _CKPT, "use no activation checkpointing"),
                ("compile.enabled", False, _COMPILE, "are not compiled"),
                ("peft.method", "none", _PEFT, "train every parameter (no PEFT)")):
            if not any(pattern.search(t) for t in texts) and not any(pattern.search(str(v)) for v in _leaves(cfg.data)):
                add(field, value, Source("derived", str(script.source.display), None, None, what.format(said)))


def _leaves(data: Any) -> list[Any]:
    """Every key and value of the options (a key naming half precision or LoRA changes the reading)."""
    out: list[Any] = []
    stack = [data]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            out.extend(cur.keys())
            stack.extend(cur.values())
        elif isinstance(cur, list):
            stack.extend(cur)
        else:
            out.append(cur)
    return out
