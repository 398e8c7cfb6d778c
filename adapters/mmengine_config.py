"""OpenMMLab Python configs (MMEngine ``Config.fromfile``), read as literals, never executed.

The OpenMMLab training entry points (mmpretrain, mmdetection, mmsegmentation, mmpose, mmaction2,
mmocr, ... ``tools/train.py``) do ``cfg = Config.fromfile(args.config)``, apply a few launch-line
options to ``cfg`` and hand it to ``Runner.from_cfg(cfg)``: every plan value lives in the config
file and the ``_base_`` files it inherits (open-mmlab/mmpretrain @ ee7f2e8
``configs/resnet/resnet50_8xb32_in1k.py``: ``_base_ = ['../_base_/models/resnet50.py',
'../_base_/datasets/imagenet_bs32.py', '../_base_/schedules/imagenet_bs256.py', ...]``).

Read like MMEngine's ``Config`` (mmengine/config/config.py): the ``_base_`` files first (a path or
a list, relative to the file), then the file's own module-level assignments merged into them key
by key (a ``dict`` merges into a ``dict`` unless it says ``_delete_=True``; anything else
replaces). Values are literals, ``dict(...)``/``{...}``, lists and tuples of them, and names bound
earlier in the same file (``pipeline=train_pipeline``); anything else is unknown. Then the entry
script's own edits of ``cfg`` are applied where they are decided by the launch line
(mmpretrain ``tools/train.py:81,93-95``: ``cfg.launcher = args.launcher``, ``if args.amp is True:
cfg.optim_wrapper.type = 'AmpOptimWrapper'``), and ``--cfg-options a.b=v`` when the script calls
``cfg.merge_from_dict(args.cfg_options)``.

What the Runner does with the keys (mmengine/runner/runner.py, mmengine/optim/optimizer/):

- ``train_dataloader.batch_size``/``num_workers``/``pin_memory`` (per process): ``batch.micro``,
  ``data.num_workers``, ``data.pin_memory``;
- ``optim_wrapper.optimizer.type``: ``optimizer.name``; ``optim_wrapper.type`` ``AmpOptimWrapper``
  (autocast, fp16 unless ``dtype`` says bfloat16) else ``OptimWrapper`` (no autocast: fp32);
  ``optim_wrapper.accumulative_counts`` (default 1): ``batch.grad_accum``;
- ``launcher`` other than ``none`` with no ``model_wrapper_cfg`` and no ``strategy``: the Runner wraps
  the model in ``MMDistributedDataParallel`` (``dist.sharding`` ddp);
- ``compile`` (absent: not compiled);
- the training pipeline's crop (``RandomResizedCrop``/``RandomCrop``/``CenterCrop`` with one integer
  size): ``data.image_size``;
- no ``LoRA`` type anywhere in the config: ``peft.method`` none;
- ``model`` an ``ImageClassifier`` with a plain ``ResNet`` backbone (depth 18/34/50/101/152),
  ``GlobalAveragePooling`` and a ``LinearClsHead``: its parameter count (torchvision's ResNet
  layout, which mmpretrain's ``ResNet`` keeps), and ``model.ref`` ``resnet<depth>`` when the head
  is torchvision's (1000 classes).

MMCV 1.x configs (``data = dict(samples_per_gpu=..., workers_per_gpu=...)``, ``optimizer =
dict(type=...)``) give the micro batch, workers and optimizer. ``_base_`` names of another
package (``mmdet::...``) and ``read_base()`` imports of another package are not read (said in a
note); the pure-Python style's relative ``read_base()`` imports are (:mod:`.mmengine_loader`). Facts are ``medium``: the values are the file's, their meaning MMEngine's.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.mmengine_loader import (
    UNKNOWN,
    Where,
    _chain,
    _config_loads,
    _get,
    _Loader,
    _mm_imports,
    _set,
)

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython

# --------------------------------------------------------------------------- ResNet size

_RESNET = {18: ("basic", (2, 2, 2, 2)), 34: ("basic", (3, 4, 6, 3)), 50: ("bottleneck", (3, 4, 6, 3)),
           101: ("bottleneck", (3, 4, 23, 3)), 152: ("bottleneck", (3, 8, 36, 3))}


def resnet_backbone_params(depth: int) -> Optional[tuple[int, int]]:
    """(parameters of torchvision's ResNet-``depth`` without its classifier, feature width): the stem
    (7x7 conv, BatchNorm), four stages of basic (two 3x3 convs) or bottleneck (1x1, 3x3, 1x1 x4)
    blocks with a 1x1 conv + BatchNorm shortcut where the shape changes; every BatchNorm has a
    weight and a bias."""
    if depth not in _RESNET:
        return None
    kind, blocks = _RESNET[depth]
    total = 3 * 64 * 7 * 7 + 2 * 64
    inplanes = 64
    expansion = 1 if kind == "basic" else 4
    for stage, count in enumerate(blocks):
        planes = 64 * 2 ** stage
        for i in range(count):
            stride = 2 if stage > 0 and i == 0 else 1
            out = planes * expansion
            if kind == "basic":
                total += inplanes * planes * 9 + 2 * planes + planes * planes * 9 + 2 * planes
            else:
                total += inplanes * planes + 2 * planes + planes * planes * 9 + 2 * planes + planes * out + 2 * out
            if stride != 1 or inplanes != out:
                total += inplanes * out + 2 * out
            inplanes = out
    return total, inplanes


_PLAIN_RESNET_KEYS = {"type", "depth", "num_stages", "out_indices", "style", "frozen_stages", "norm_eval", "with_cp",
                      "zero_init_residual", "init_cfg", "norm_cfg", "conv_cfg", "act_cfg", "drop_path_rate",
                      "in_channels", "stem_channels", "base_channels", "strides", "dilations", "contract_dilation",
                      "deep_stem", "avg_down"}


def classifier_size(model: Any) -> Optional[tuple[int, Optional[str], str]]:
    """(parameters, torchvision name or None, how) of an ``ImageClassifier`` with a plain ResNet."""
    if not isinstance(model, dict) or model.get("type") != "ImageClassifier":
        return None
    backbone, neck, head = model.get("backbone"), model.get("neck"), model.get("head")
    if not isinstance(backbone, dict) or backbone.get("type") != "ResNet" or set(backbone) - _PLAIN_RESNET_KEYS:
        return None
    if backbone.get("deep_stem") or backbone.get("avg_down") or backbone.get("num_stages", 4) != 4 \
            or backbone.get("in_channels", 3) != 3 or backbone.get("stem_channels", 64) != 64 \
            or backbone.get("base_channels", 64) != 64 or backbone.get("strides", (1, 2, 2, 2)) not in \
            ((1, 2, 2, 2), [1, 2, 2, 2]):
        return None
    depth = backbone.get("depth")
    got = resnet_backbone_params(depth) if isinstance(depth, int) and not isinstance(depth, bool) else None
    if got is None or not isinstance(neck, dict) or neck.get("type") != "GlobalAveragePooling":
        return None
    if not isinstance(head, dict) or head.get("type") != "LinearClsHead":
        return None
    classes, width = head.get("num_classes"), head.get("in_channels")
    if not isinstance(classes, int) or isinstance(classes, bool) or classes < 1 or width != got[1]:
        return None
    total = got[0] + width * classes + classes
    ref = f"resnet{depth}" if classes == 1000 else None
    return total, ref, (f"ResNet-{depth} backbone {got[0]:,} (torchvision's layout) + LinearClsHead "
                        f"{width} x {classes} + {classes} bias")


# --------------------------------------------------------------------------- the adapter


@register_adapter
class MMEngineConfigAdapter(Adapter):
    name = "mmengine_config"
    frameworks = ("mmengine",)

    def detect(self, project: Project) -> bool:
        return any(isinstance(s.tree, ast.Module) and _mm_imports(s.tree) and _config_loads(s)
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if not isinstance(script.tree, ast.Module) or not _mm_imports(script.tree):
                continue
            calls = _config_loads(script)
            if len(calls) != 1:
                continue
            self._script(project, plan, script, calls[0])

    def _path(self, project: Project, script: ParsedPython, call: ast.Call) -> Optional[Path]:
        got = project.index(script).resolve(call.args[0])
        if got is None or not isinstance(got.value, str) or not got.value.endswith(".py"):
            return None
        for base in (Path(str(project.root)), Path(str(script.source.path)).resolve().parent):
            path = Path(got.value) if os.path.isabs(got.value) else base / got.value
            if path.is_file():
                return path.resolve()
        return None

    def _script(self, project: Project, plan: TrainingPlan, script: ParsedPython, call: ast.Call) -> None:
        path = self._path(project, script, call)
        if path is None:
            return
        loader = _Loader(project)
        got = loader.load(path)
        for text in loader.notes:
            self.note(plan, text)
        if got is None:
            return
        values, where = got
        self.note(plan, f"read {os.path.relpath(path, project.root)} and its _base_ files: the MMEngine config "
                        "the script loads with Config.fromfile")
        self._edits(project, script, call, values, where)
        # the defaults below are the MMEngine Runner's: claimed only when the script hands the config to it
        runner = any((isinstance(n, ast.Attribute) and n.attr == "from_cfg") or (isinstance(n, ast.Name)
                     and n.id == "Runner") for n in ast.walk(script.tree))
        if "launcher" not in values and re.search(r"""add_argument\(\s*['"]--launcher['"]""", script.source.text):
            # MMCV 1.x tools/train.py keeps ``--launcher`` in its options (``init_dist(args.launcher)``)
            argv = [str(a) for a in project.argv or []]
            for k, tok in enumerate(argv):
                if tok == "--launcher" and k + 1 < len(argv):
                    values = {**values, "launcher": argv[k + 1]}
                elif tok.startswith("--launcher="):
                    values = {**values, "launcher": tok.split("=", 1)[1]}
        self._facts(plan, values, where, runner)
        self._mmcv1_absent(plan, project, values)
        if _get(values, "optimizer_config", "cumulative_iters") is None:
            from preflight.adapters.mmcv1_optimizer_hook import every_iteration

            why = every_iteration(values, project, UNKNOWN)
            if why is not None:
                at = where.get(("optimizer_config",))
                self.add_checked(plan, "batch.grad_accum", 1, Source(
                    "config" if at is not None else "derived", at[0] if at else None, at[1] if at else None,
                    "optimizer_config", why), "medium")

    def _edits(self, project: Project, script: ParsedPython, call: ast.Call, values: dict, where: Where) -> None:
        """The script's own writes into the config: applied where the launch line decides them, the
        key made unknown where it does not."""
        idx = project.index(script)
        tree = script.tree
        assert isinstance(tree, ast.Module)
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and node.value is call:
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        for node in ast.walk(tree):  # ``merge_args(cfg, args)``: ``cfg`` is the config inside too
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
                params = [a.arg for a in functions[node.func.id].args.args]
                for i, arg in enumerate(node.args):
                    if isinstance(arg, ast.Name) and arg.id in names and i < len(params):
                        names.add(params[i])
        if not names:
            return

        given = {str(a).partition("=")[0] for a in project.script_args(script) if str(a).startswith("--")}

        def decided(test: ast.expr) -> Optional[bool]:
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
                    and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None \
                    and isinstance(test.left, ast.Attribute) and idx.resolve(test.left) is None \
                    and {"--" + test.left.attr, "--" + test.left.attr.replace("_", "-")} & given:
                # ``if args.cfg_options is not None:`` with ``--cfg-options`` on the line (an ``nargs`` option)
                return isinstance(test.ops[0], ast.IsNot)
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant):
                left = idx.resolve(test.left)
                if left is None:
                    return None
                right, op = test.comparators[0].value, test.ops[0]
                if isinstance(op, ast.Is):
                    return left.value is right
                if isinstance(op, ast.IsNot):
                    return left.value is not right
                if isinstance(op, ast.Eq):
                    return bool(left.value == right)
                if isinstance(op, ast.NotEq):
                    return bool(left.value != right)
                return None
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                inner = decided(test.operand)
                return None if inner is None else not inner
            if isinstance(test, (ast.Attribute, ast.Name)):
                got = idx.resolve(test)
                return None if got is None else bool(got.value)
            return None

        shown = script.source.display

        def walk(body: list[ast.stmt], live: Optional[bool]) -> None:
            """``live``: True runs, None may run, False does not."""
            for stmt in body:
                if isinstance(stmt, ast.If):
                    state = decided(stmt.test) if live is not False else False
                    if live is False:
                        arms: tuple[Optional[bool], Optional[bool]] = (False, False)
                    elif state is None:
                        arms = (None, None)
                    elif live:
                        arms = (state, not state)
                    else:
                        arms = (None if state else False, False if state else None)
                    walk(stmt.body, arms[0])
                    walk(stmt.orelse, arms[1])
                elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                    walk(stmt.body, None if live is not False else False)
                    walk(stmt.orelse, None if live is not False else False)
                elif isinstance(stmt, (ast.With, ast.Try)):
                    walk(stmt.body, live)
                    for part in ("orelse", "finalbody"):
                        walk(getattr(stmt, part, []) or [], None if live is not False else False)
                    for handler in getattr(stmt, "handlers", []) or []:
                        walk(handler.body, None if live is not False else False)
                elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and live is not False:
                    target = _chain(stmt.targets[0])
                    if target is None or target[0] not in names:
                        continue
                    got = idx.resolve(stmt.value) if live else None
                    value = got.value if got is not None else UNKNOWN
                    _set(values, where, target[1], value, (shown, stmt.lineno, "code"))
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and live is not False:
                    self._merge_call(project, script, stmt.value, names, values, where, live)

        for fn in functions.values():
            walk(fn.body, True)

    def _merge_call(self, project: Project, script: ParsedPython, call: ast.Call, names: set[str], values: dict,
                    where: Where, live: Optional[bool]) -> None:
        """``cfg.merge_from_dict(args.cfg_options)`` with ``--cfg-options a.b=v`` on the line."""
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "merge_from_dict"
                and isinstance(call.func.value, ast.Name) and call.func.value.id in names):
            return
        args = project.script_args(script)
        pairs: list[str] = []
        for i, tok in enumerate(args):
            if tok in ("--cfg-options", "--cfg_options", "--options"):
                for more in args[i + 1:]:
                    if more.startswith("--"):
                        break
                    pairs.append(more)
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep or not key:
                continue
            try:
                value: Any = ast.literal_eval(text)
            except (ValueError, SyntaxError, RecursionError, MemoryError):
                value = text
            _set(values, where, tuple(key.split(".")), value if live else UNKNOWN,
                 ("<launch line>", 0))

    def _facts(self, plan: TrainingPlan, values: dict, where: Where, runner: bool = True) -> None:
        def src(keys: tuple, detail: str) -> Source:
            at = where.get(keys)
            key = ".".join(map(str, keys))
            if at is not None and at[0] == "<launch line>":
                return Source("cli", None, None, "--cfg-options", f"{key}: {detail}")
            if at is None:
                return Source("derived", None, None, key, detail)
            return Source(at[2] if len(at) > 2 else "config", at[0], at[1], key, detail)

        def add(field: str, value: Any, source: Source) -> None:
            if value is UNKNOWN or value is None:
                return
            self.add_checked(plan, field, value, source, "medium")

        def int_at(*keys: Any) -> Optional[int]:
            got = _get(values, *keys)
            return got if isinstance(got, int) and not isinstance(got, bool) and got > 0 else None

        loader = _get(values, "train_dataloader")
        if isinstance(loader, dict):
            micro = int_at("train_dataloader", "batch_size")
            if micro:
                add("batch.micro", micro, src(("train_dataloader", "batch_size"),
                                              "train_dataloader batch_size: per process (MMEngine Runner)"))
            workers = _get(values, "train_dataloader", "num_workers")
            if isinstance(workers, int) and not isinstance(workers, bool) and workers >= 0:
                add("data.num_workers", workers, src(("train_dataloader", "num_workers"), "train_dataloader"))
            pin = _get(values, "train_dataloader", "pin_memory")
            if isinstance(pin, bool):
                add("data.pin_memory", pin, src(("train_dataloader", "pin_memory"), "train_dataloader"))
        elif isinstance(_get(values, "data"), dict):  # MMCV 1.x
            # mmaction2 0.x spells it videos_per_gpu (SwinTransformer/Video-Swin-Transformer @ its pinned commit
            # configs/recognition/swin/swin_tiny_patch244_window877_kinetics400_1k.py:63)
            per_gpu = "samples_per_gpu" if int_at("data", "samples_per_gpu") else "videos_per_gpu"
            micro = int_at("data", per_gpu)
            if micro:
                add("batch.micro", micro, src(("data", per_gpu), f"data.{per_gpu}: per GPU (MMCV)"))
            hook = _get(values, "optimizer_config")
            for key in ("cumulative_iters", "update_interval"):
                # mmcv's GradientCumulativeOptimizerHook(cumulative_iters=N); the Swin projects'
                # DistOptimizerHook(update_interval=N) (Video-Swin configs above:115-117)
                steps = int_at("optimizer_config", key) if isinstance(hook, dict) else None
                if steps:
                    add("batch.grad_accum", steps, src(("optimizer_config", key),
                                                       f"optimizer_config {key}: one optimizer step every {steps} "
                                                       "iterations (MMCV optimizer hook)"))
                    break
            workers = _get(values, "data", "workers_per_gpu")
            if isinstance(workers, int) and not isinstance(workers, bool) and workers >= 0:
                add("data.num_workers", workers, src(("data", "workers_per_gpu"), "data.workers_per_gpu (MMCV)"))
        unread = "<unread base>" in values or not runner
        wrapper = _get(values, "optim_wrapper")
        strategy = _get(values, "strategy") is not None or _get(values, "model_wrapper_cfg") is not None
        if isinstance(wrapper, dict):
            opt = _get(values, "optim_wrapper", "optimizer", "type")
            if isinstance(opt, str):
                add("optimizer.name", opt.rsplit(".", 1)[-1], src(("optim_wrapper", "optimizer", "type"),
                                                                  "optim_wrapper.optimizer.type"))
            kind = wrapper.get("type", "OptimWrapper")
            if not strategy and kind in ("OptimWrapper", "AmpOptimWrapper"):
                if kind == "AmpOptimWrapper":
                    dtype = wrapper.get("dtype")
                    mode = "amp_bf16" if dtype in ("bfloat16", "bf16") else "amp_fp16" if dtype in (None, "float16",
                                                                                                   "fp16") else None
                    add("precision.mode", mode, src(("optim_wrapper", "type"),
                                                    "AmpOptimWrapper: autocast around the forward pass"))
                elif not unread:
                    add("precision.mode", "fp32", src(("optim_wrapper", "type") if "type" in wrapper
                                                      else ("optim_wrapper",),
                                                      "OptimWrapper without AmpOptimWrapper: no autocast, fp32"))
            counts = wrapper.get("accumulative_counts", 1 if runner else None)
            if isinstance(counts, int) and not isinstance(counts, bool) and counts >= 1:
                add("batch.grad_accum", counts, src(("optim_wrapper", "accumulative_counts"),
                                                    "optim_wrapper.accumulative_counts" if "accumulative_counts"
                                                    in wrapper else "optim_wrapper without accumulative_counts "
                                                    "(OptimWrapper's default 1)"))
        elif isinstance(_get(values, "optimizer", "type"), str):  # MMCV 1.x
            add("optimizer.name", str(_get(values, "optimizer", "type")).rsplit(".", 1)[-1],
                src(("optimizer", "type"), "optimizer.type (MMCV)"))
        launcher = _get(values, "launcher")
        if isinstance(launcher, str) and launcher != "none" and not strategy and isinstance(wrapper, dict) and runner:
            add("dist.sharding", "ddp", src(("launcher",), f"launcher {launcher} and no model_wrapper_cfg: the "
                                                           "Runner wraps the model in MMDistributedDataParallel"))
        elif isinstance(launcher, str) and launcher != "none" and wrapper is None and not runner \
                and isinstance(_get(values, "data"), dict) and isinstance(_get(values, "optimizer"), dict):
            # MMCV 1.x: the codebase's train API wraps the model in MMDistributedDataParallel when launched
            # distributed (Video-Swin-Transformer mmaction/apis/train.py:106, ``--launcher pytorch``)
            add("dist.sharding", "ddp", src(("launcher",), f"launcher {launcher} (MMCV 1.x): the train API wraps "
                                                           "the model in MMDistributedDataParallel"))
        if isinstance(wrapper, dict) and not unread:
            compiled = _get(values, "compile")
            if compiled is None and "compile" not in values:
                add("compile.enabled", False, src(("compile",), "no compile key in the config: the Runner does "
                                                                "not call torch.compile"))
            elif isinstance(compiled, bool):
                add("compile.enabled", compiled, src(("compile",), "compile"))
            elif isinstance(compiled, dict):
                add("compile.enabled", True, src(("compile",), "compile options given"))
            if not any("lora" in str(v).lower() for v in _types(values)):
                add("peft.method", "none", Source("derived", None, None, None,
                                                  "no LoRA type anywhere in the MMEngine config"))
        for at in (("train_dataloader", "dataset", "pipeline"), ("data", "train", "pipeline")):  # MMEngine, MMCV 1.x
            size = _crop(_get(values, *at))
            if size is not None:
                add("data.image_size", size[0], src((*at, size[1], size[2]),
                                                    "the training pipeline's last crop or exact resize"))
                break
        model = _get(values, "model")
        counted = classifier_size(model)
        if counted is not None:
            total, ref, how = counted
            add("model.num_parameters", total, src(("model",), how))
            if ref is not None:
                add("model.ref", ref, src(("model",), f"{how}: torchvision's {ref}"))


    def _mmcv1_absent(self, plan: TrainingPlan, project: Project, values: dict) -> None:
        """MMCV 1.x (``data``/``optimizer`` dicts, no ``optim_wrapper``), the config and all its bases read:
        no ``torch.compile`` (MMCV 1.x's runner never calls it; claimed only when no Python file of the
        project names ``torch.compile``, ``torch._dynamo`` or calls ``module.compile()``, every file read) and no PEFT (no LoRA type in the config, and ``lora``
        and ``peft`` named in no Python file). SwinTransformer/Video-Swin-Transformer @ db018fb: mmcv 1.x
        ``EpochBasedRunner``, ``mmaction/apis/train.py`` builds and runs it."""
        if "<unread base>" in values or _get(values, "optim_wrapper") is not None \
                or not isinstance(_get(values, "data"), dict) or not isinstance(_get(values, "optimizer"), dict):
            return
        from preflight.adapters.config_key_families import _MAX_BYTES as LIMIT
        from preflight.adapters.config_key_families import _MAX_FILES as FILES
        from preflight.adapters.config_key_families import code_text

        code = code_text(project)
        if len(code) >= FILES or sum(len(t) for _, t in code) >= LIMIT:
            return  # not every file read: absence is not shown
        named = " ".join(t for _, t in code)
        if "compile" not in values and not re.search(r"torch\.compile|torch\._dynamo|import compile|\w\.compile\(\s*\)", named):
            self.add_checked(plan, "compile.enabled", False, Source(
                "derived", None, None, None, "MMCV 1.x config: its runner never calls torch.compile, and no Python "
                f"file of the project ({len(code)} read) names torch.compile"), "medium")
        if not any("lora" in str(v).lower() for v in _types(values)) \
                and not re.search(r"lora|peft", named, re.IGNORECASE):
            self.add_checked(plan, "peft.method", "none", Source(
                "derived", None, None, None, "no LoRA type in the MMCV 1.x config, and no Python file of the project "
                f"({len(code)} read) names LoRA or PEFT"), "medium")


def _types(values: Any) -> list[Any]:
    out: list[Any] = []
    stack = [values]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "type" in node:
                out.append(node["type"])
            out.extend(k for k in node if isinstance(k, str) and "lora" in k.lower())
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return out


_CROPS = {"RandomResizedCrop": ("scale", "size", "crop_size"), "RandomCrop": ("crop_size", "size"),
          "CenterCrop": ("crop_size", "size"), "RandomResizedCropAndInterpolation": ("size", "scale")}
_RESIZES = ("Resize",)  # ``keep_ratio=False``: the output is ``scale`` exactly
_SIZE_WORDS = ("Resize", "Crop", "Scale", "Pad", "Rescale")  # a step that may change the spatial size


def _square(value: Any) -> Optional[int]:
    if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == value[1]:
        value = value[0]
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _crop(pipeline: Any) -> Optional[tuple[int, int, str]]:
    """(size, step index, key) of the step that last fixes the training pipeline's spatial size to one
    integer: a crop with a size, or a ``Resize`` with ``keep_ratio=False`` and a square ``scale`` (the
    output is ``scale`` exactly: mmaction2 0.x ``mmaction/datasets/pipelines/augmentations.py:1147-1150``
    at SwinTransformer/Video-Swin-Transformer db018fb, ``if self.keep_ratio: ... else: new_w, new_h =
    self.scale``). A later step that may change the size without saying to what (a crop by area, a
    ``Resize`` that keeps the ratio, a step not read) leaves it unknown."""
    if not isinstance(pipeline, list):
        return None
    found = None
    for i, step in enumerate(pipeline):
        if not isinstance(step, dict):
            if step is UNKNOWN:
                found = None  # a step not read: it may change the size
            continue
        kind = step.get("type")
        if not isinstance(kind, str):
            found = None
            continue
        got = None
        if kind in _CROPS:
            for key in _CROPS[kind]:
                size = _square(step.get(key))
                if size is not None:
                    got = (size, i, key)
                    break
        elif kind in _RESIZES and step.get("keep_ratio") is False:
            size = _square(step.get("scale"))
            got = None if size is None else (size, i, "scale")
        if got is not None:
            found = got
        elif any(word in kind for word in _SIZE_WORDS):
            found = None
    return found
