"""Absences recorded when the whole job is visible: the training loop is the project's own code (a
``backward()`` or a Lightning ``training_step`` in the script or the local modules it imports, not a
transformers/TRL ``Trainer``), and neither that code, the configs the job reads, its Hydra config folder
nor the launch line names PEFT/LoRA, activation checkpointing or ``torch.compile``: ``peft.method`` none,
``memory.gradient_checkpointing`` False, ``compile.enabled`` False (medium, priority -1: a fallback any
reading outranks; written only where no adapter set the field). Likewise ``precision.mode`` fp32 when
nothing of the job names a 16-bit or mixed precision by any spelling (autocast, a grad scaler, ``half``,
``float16``/``bfloat16``, ``fp16``/``bf16``, amp/apex, a ``precision`` or ``mixed_precision`` setting):
PyTorch then computes in fp32 (salesforce/BLIP @ 3a29b74 ``train_caption.py``, facebookresearch/detr
@ 29901c5 ``main.py``: the model is built by a local helper, the loop is plain).

This extends the plain-loop reading of :func:`preflight.adapters.pytorch_local.absent_in_loop` (which
needs the loop in the entry script) to loops in the project's modules (microsoft/Swin-Transformer @ f82860b:
the backward is in ``utils.py``'s ``NativeScalerWithGradNormCount``; kuleshov-group/mdlm @ c112c52: a
LightningModule's ``training_step`` in ``diffusion.py``; karpathy/minGPT @ 37baab7: ``mingpt/trainer.py``).
A loop whose backward and step are timm's loss scaler called by the project's loop (facebookresearch/deit
@ 7e160fe ``engine.py:63``, :mod:`preflight.adapters.scaler_step`) is the project's own too: the scaler only
scales, steps and clips. So is detectron2's ``DefaultTrainer`` (or the script's subclass of it) built and
trained by the script (facebookresearch/MaskFormer @ da3e60d ``train_net.py:44,245-247``): its loop is the
library's ``SimpleTrainer``/``AMPTrainer`` (forward, backward, step), the model the project's own code.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_LOOP = re.compile(r"\.backward\(|\bdef training_step\(")
_HF_TRAINER = re.compile(r"\b(Trainer|SFTTrainer|DPOTrainer|Seq2SeqTrainer|RewardTrainer|PPOTrainer|GRPOTrainer|"
                         r"ORPOTrainer|KTOTrainer)\s*\(|TrainingArguments\b|HfArgumentParser\b")
_LIGHTNING = re.compile(r"\b(pytorch_lightning|lightning)\b")
# torch.compile by any of its spellings (``re.compile`` is not one; a switch ``compile: true`` is)
# (not ``functorch.compile``'s AOT fusion helpers, a ``torch._dynamo.config`` setting that compiles nothing by
# itself, Stability-AI/stable-audio-tools @ 50049e3, nor OpenVINO's ``ie.compile_model(network)`` in an export
# helper, WongKinYiu/yolov9 @ 5b1ea9a models/common.py)
_COMPILE_WORDS = re.compile(r"(?<!func)torch\.compile|_dynamo(?!\.config\b)|torch_compile|"
                            r"(?<!\bie\.)(?<!\bcore\.)compile_model|(?<![\w.])compile\s*[=:]|"
                            r"(?<!\bre)\.compile\(", re.I)
# 16-bit or mixed precision by any spelling (a ``precision:``/``mixed_precision=`` setting of any value too:
# its value may be 16-bit in a config not read). A metric computed into a local named ``precision``
# (nicklashansen/tdmpc2 @ e9f5932 ``common/math.py:106`` ``precision = tp / (tp + fp + eps)``: a name
# or a parenthesis followed by arithmetic) is no setting.
# A variable named ``scaler`` counts where it is used as a loss scaler (``scaler.scale(loss)``, ``scaler.step``,
# ``scaler(loss, ...)``), not a data scaler (yang-song/score_sde_pytorch @ cb1f359 run_lib.py:86 ``scaler =
# datasets.get_data_scaler(config)``; time-series-foundation-models/lag-llama @ 013ff0c lag_llama/model/module.py
# ``self.scaler = MeanScaler(...)``); ``half`` counts as ``torch.half``, ``.half()``, an option or setting named
# ``half`` (``args.half``, ``--half``, ``half: true``), not a word of prose or a local (lag-llama module.py:176
# "Rotates half the hidden dims", ``half = dim // 2``)
_PRECISION_WORDS = re.compile(r"autocast|GradScaler|grad_scaler|"
                              r"\bscaler\s*\.\s*(?:scale|unscale_|step|update|get_scale)\s*\(|\bscaler\s*\(\s*loss\b|"
                              r"\.half\(|torch\.half\b|\w\.half\b|--half\b|\bhalf\s*[=:]\s*(?:True|true|1)\b|"
                              r"\bhalf_precision\b|\buse_half\b|float16|bfloat16|"
                              r"\bfp16|\bbf16|\bfp8|float8|\bamp\b|apex|"
                              r"precision\s*[=:](?!\s*(?:[A-Za-z_][\w.]*|\([^()\n]*\))\s*[-+*/])|"
                              r"mixed_precision|torch_dtype", re.I)
_COMMENT_LINE = re.compile(r"^[ \t]*#.*$", re.M)
# a comment after code (``... .to(dtype=self.dtype)  # fp16 compatibility``, salesforce/BLIP models/med.py:186)
_TRAILING_COMMENT = re.compile(r"[ \t]#[^'\"\n]*$", re.M)
_FIT = re.compile(r"\.fit\(")
# a module's docstring is documentation, not code: zyushun/Adam-mini @ 402aadf examples/gpt2/train_gpt2.py:1-6
# (nanoGPT's) shows a usage line ``$ python train.py --batch_size=32 --compile=False`` there and never compiles
_MODULE_DOCSTRING = re.compile(r'\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]?("""|\'\'\')[\s\S]*?\1')
# the script builds what trains from a name in its config (Hydra ``get_class(cfg._target_)``/``instantiate``,
# ldm's ``instantiate_from_config``, ``importlib.import_module``)
_DISPATCH = re.compile(r"\b(instantiate|get_class|get_method|instantiate_from_config|import_module|LightningCLI)\(")
# a class's or function's docstring (the first statement after its ``:`` line) is prose too: open_clip's
# ``class TimmModel(nn.Module): """timm model adapter"""`` (haoheliu/AudioLDM-training-finetuning @ 702a638
# ``audioldm_train/modules/clap/open_clip/timm_model.py``) wraps a timm backbone and trains no adapter
_BODY_DOCSTRING = re.compile(r'(:[ \t]*(?:#[^\n]*)?\n[ \t]*)[rRuU]?("""|\'\'\')[\s\S]*?\2')
_SKIP_DIRS = {".git", ".venv", "venv", "env", "node_modules", "site-packages", "__pycache__", "build", "dist"}
_MAX_FILES = 2000
_MAX_ENTRIES = 50_000
_MAX_TOTAL = 40_000_000
_CACHE = "visible_code.absences"


@register_adapter
class VisibleCodeAdapter(Adapter):
    name = "visible_code"  # after the framework readers and value_flow (adapters run by name)
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """Whether an absence can be written: the reading is done here (an adapter that writes nothing
        is not named among those detected) and kept for ``contribute``."""
        found = _absences(project)
        project.cache[_CACHE] = found
        return bool(found)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None)
        for field, value, source in found if isinstance(found, list) else _absences(project):
            if plan.value(field) is None:  # a fallback: any other reading of the field wins
                self.add_checked(plan, field, value, source, "medium", -1)


def _submitted_seen(project: Project, entry: Any) -> bool:
    """Whether every other script audited is a module a (not thin) entry hands its work to and imports
    itself, so that it is read with the entry anyway (a submitit launcher's job, facebookresearch/dinov2
    ``dinov2/run/train/train.py`` -> ``dinov2/train/train.py``: :func:`preflight.delegate.submitted_callee`)."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.delegate import delegate_of

    path = Path(str(entry.source.path))
    others = [s for s in project.own_scripts() if s is not entry]
    if not others or any(project.delegates.get(id(s)) is not entry for s in others) \
            or not isinstance(entry.tree, ast.Module) or delegate_of(entry.tree, path) is not None:
        return False
    root = Path(str(project.root)) if project.root else None
    seen = {p.resolve() for p in _imported_up(entry.tree, path.resolve().parent, root)}
    return all(s.source.path is not None and Path(str(s.source.path)).resolve() in seen for s in others)


_CKPT_HELPER_DEF = re.compile(r"^([ \t]*)def checkpoint\(", re.M)


def _unused_checkpoint_helper(code: str) -> str:
    """``code`` with a local ``def checkpoint(...)`` renamed when nothing in ``code`` calls a ``checkpoint(``: the
    guided-diffusion helper (``guided_diffusion/nn.py`` ``def checkpoint(func, inputs, params, flag)``, a
    ``CheckpointFunction``) kept by sail-sg/MDT @ 7d26c21 ``masked_diffusion/nn.py`` while its model never calls it;
    a call anywhere (guided-diffusion's ``unet.py`` ``checkpoint(self._forward, ..., self.use_checkpoint)``) keeps
    the word."""
    if _CKPT_HELPER_DEF.search(code) is None:
        return code
    blanked = _CKPT_HELPER_DEF.sub(r"\1def unused_helper(", code)
    return code if re.search(r"\bcheckpoint\(", blanked) else blanked


def _thin_delegate(project: Project, entry: Any) -> Optional[Any]:
    """The one other audited script when the entry is a thin script that only calls it (a
    ``from pkg.tasks.train import train; train()`` launcher, :func:`preflight.delegate.delegate_of`): the
    job's training is that module's, read as the script; None otherwise (a submitit launcher, a module named
    by a config, or several other scripts)."""
    from preflight.delegate import delegate_of

    others: list[Any] = [s for s in project.own_scripts() if s is not entry]
    if len(others) != 1:
        return None
    other = others[0]
    tree, path = entry.tree, Path(str(entry.source.path))
    if not isinstance(tree, ast.Module) or other.tree is None or other.source.path is None \
            or project.delegates.get(id(other)) is not entry:
        return None
    return other if delegate_of(tree, path) is not None else None


def _absences(project: Project) -> list[tuple[str, Any, Any]]:
    script: Any = project.scripts[0] if project.scripts else None
    if script is None or script.tree is None or script.source.path is None:
        return []
    entry_text: Optional[str] = None
    if len(project.own_scripts()) != 1 and not _submitted_seen(project, script):
        thin = _thin_delegate(project, script)
        if thin is None:
            from preflight.adapters.named_module_absence import delegated_compile_absence

            root = Path(str(project.root)) if project.root else None
            return delegated_compile_absence(project, script, root)  # a module named by the config holds the loop
        # the entry only calls the delegate (ai4co/rl4co @ 7a15396 run.py -> rl4co/tasks/train.py): the delegate
        # is the job's script, the entry's few lines read with it
        entry_text, script = script.source.text, thin
    from preflight.adapters.pytorch_local import (
        _CKPT_OFF,
        _CKPT_WORDS,
        _PEFT_WORDS,
        _hydra_config_texts,
        _imported_up,
    )

    path = Path(str(script.source.path))
    root = Path(str(project.root)) if project.root else None
    texts = [script.source.text, *([entry_text] if entry_text is not None else [])]
    for local in _imported_up(script.tree, path.resolve().parent, root):
        try:
            texts.append(read_text_limited(local, errors="replace"))
        except (OSError, ValueError):
            return []  # a module not readable: the job is not wholly visible
    texts += _class_name_texts(texts, root)
    code = _COMMENT_LINE.sub("", "\n".join(_MODULE_DOCSTRING.sub("", t, count=1) for t in texts))
    from preflight.adapters.scaler_step import scaler_step

    scaler = scaler_step(project, script)  # timm's loss scaler doing backward() and step() in the loop
    targets = _target_texts(project, root)  # InstantMesh ``target: src.models.lrm_mesh.InstantMesh``
    from preflight.adapters.config_object_d2trainer import trains_with_default_trainer

    library = trains_with_default_trainer(script.tree, script.source.path)  # detectron2's SimpleTrainer/AMPTrainer loop
    if _LOOP.search(code) is None and scaler is None and not _built_loop(script, targets) and library is None:
        # the loop is not in the modules the script imports: a module named by a config
        # (``target: cldm.cldm.ControlLDM``, ``_target_: ...Workspace``) may hold it
        return _absent_in_project(project, script, root)
    if _HF_TRAINER.search(code) is not None and _LIGHTNING.search(code) is None and not _own_trainer(code):
        return []  # a transformers/TRL Trainer runs the loop: its arguments' defaults are the transformers adapter's
    texts += targets
    hydra_texts = _hydra_config_texts(project)
    # the modules the Hydra config folder names by ``_target_`` are built by ``hydra.utils.instantiate`` and run
    # as much as an import (HiRookie9/PicoAudio2 @ e8e7268 ``configs/model/backbone/audio_udit.yaml:1,17``
    # ``_target_: models.dit.audio_dit.AudioUDiT`` / ``use_checkpoint: true``, whose ``models/dit/audio_dit.py:3,87``
    # calls ``torch.utils.checkpoint.checkpoint``): read for the absences below, never for the loop's place
    built = _hydra_target_texts(hydra_texts, script, root)
    if built is None:
        return []  # a module the Hydra config builds is not readable: the job is not wholly visible
    texts += [t for t in built if t not in texts]
    extra = "\n".join([*(src.text for src, _cfg in project.configs), " ".join(map(str, project.argv or [])),
                       *hydra_texts])
    loop = "the training loop is the project's own" if library is None else \
        f"the training loop is detectron2's SimpleTrainer/AMPTrainer ({library}), which neither compiles, " \
        "checkpoints nor adds adapters by itself"
    where = loop + f" ({len(texts)} file(s) read: the script and the local " \
        "modules it imports); {} is named nowhere in them, the configs read or the launch line"
    line = next((i + 1 for i, t in enumerate(script.source.text.splitlines()) if _LOOP.search(t)),
                scaler.built_line if scaler is not None else None)

    def src(what: str) -> Any:
        return project.source(script, line or 1, "code", detail=where.format(what))

    out: list[tuple[str, Any, Any]] = []
    from preflight.adapters.peft_unused_class import without_unused_classes

    peft_code = "\n".join(without_unused_classes(_BODY_DOCSTRING.sub(r"\1", _MODULE_DOCSTRING.sub("", t, count=1)),
                                                  _PEFT_WORDS) for t in texts)
    if _PEFT_WORDS.search(peft_code) is None and _PEFT_WORDS.search(extra) is None:  # a class never built: none
        out.append(("peft.method", "none", src("PEFT/LoRA")))
    # a comment after code is prose: "if bpr > 0.98:  # threshold to recompute" (WongKinYiu/yolov9 @ 5b1ea9a
    # utils/autoanchor.py) names no recomputation of activations
    from preflight.adapters.ckpt_flag_guard import blank_flag_guarded
    from preflight.adapters.ckpt_param_guard import blank_guarded_params

    guarded = _COMMENT_LINE.sub("", "\n".join(
        blank_guarded_params(blank_flag_guarded(_MODULE_DOCSTRING.sub("", t, count=1)), root) for t in texts))
    if _CKPT_WORDS.search(_CKPT_OFF.sub("", _unused_checkpoint_helper(_TRAILING_COMMENT.sub("", guarded)))) is None and \
            _CKPT_WORDS.search(extra) is None:
        out.append(("memory.gradient_checkpointing", False, src("activation checkpointing")))
    from preflight.adapters.compile_helpers import blank_helper_compiles

    compiled = _COMMENT_LINE.sub("", "\n".join(blank_helper_compiles(_MODULE_DOCSTRING.sub("", t, count=1))
                                               for t in texts))
    if _COMPILE_WORDS.search(compiled) is None and _COMPILE_WORDS.search(extra) is None:
        out.append(("compile.enabled", False, src("torch.compile")))
    worded = _TRAILING_COMMENT.sub("", _COMMENT_LINE.sub("", "\n".join(_local_amp(_MODULE_DOCSTRING.sub("", t, count=1))
                                                                      for t in texts)))
    if _PRECISION_WORDS.search(worded) is None and _PRECISION_WORDS.search(extra) is None:
        detail = where.format("16-bit or mixed precision (autocast, a grad scaler, half, float16/bfloat16, amp, "
                              "a precision setting)") + ": PyTorch computes in fp32"
        out.append(("precision.mode", "fp32", project.source(script, line or 1, "code", detail=detail)))
    elif _PRECISION_WORDS.search(extra) is None and _scaler_only(worded):
        detail = where.format("autocast, a 16-bit cast or setting (anything but a GradScaler)") + \
            ": a GradScaler only scales the loss of an fp32 forward; PyTorch computes in fp32"
        out.append(("precision.mode", "fp32", project.source(script, line or 1, "code", detail=detail)))
    return out


# a GradScaler built by the project's loss-scaler helper (MAE's ``NativeScalerWithGradNormCount``, util/misc.py),
# its import, its state-dict key and its own calls (``self._scaler.scale(loss)``)
_SCALER_WORDS = re.compile(r"\bfrom\s+torch(?:\.cuda)?\.amp\s+import\s+GradScaler\b|"
                           r"\b(?:torch\.(?:cuda\.)?amp\.)?GradScaler\b|\bamp_scaler\b")


def _scaler_only(code: str) -> bool:
    """The only precision words of the job's code are a GradScaler's (LTH14/rcg @ its pinned commit: main_rdm.py:176
    ``NativeScaler()``, util/misc.py:258 ``torch.cuda.amp.GradScaler()``, and no autocast in engine_rdm.py, where
    MAE's engine_pretrain.py:47 has ``with torch.cuda.amp.autocast():``): the loss is scaled, the forward runs in
    fp32. Any autocast, cast or precision setting left keeps the field unknown."""
    return _SCALER_WORDS.search(code) is not None and _PRECISION_WORDS.search(_SCALER_WORDS.sub("", code)) is None


# ``amp = abs(xy_f)``: a local named ``amp`` (an amplitude) bound to a value that names no AMP module
# (time-series-foundation-models/lag-llama @ 013ff0c data/augmentations/freq_mix.py:37-40)
_LOCAL_AMP = re.compile(r"^[ \t]*amp[ \t]*=(?!=)(?![^\n]*\b(?:amp|apex|cuda|torch)\b)", re.M)


def _local_amp(text: str) -> str:
    """``text`` with the word ``amp`` renamed where the file binds it as a local value of its own."""
    return re.sub(r"\bamp\b", "amp_value", text) if _LOCAL_AMP.search(text) else text


def _own_trainer(code: str) -> bool:
    """Every ``Trainer(...)``-like call names a class the project defines itself (karpathy/minGPT
    mingpt/trainer.py ``class Trainer``, built by projects/chargpt/chargpt.py:``Trainer(config.trainer,
    model, train_dataset)``), and no TrainingArguments/HfArgumentParser is named: no HF Trainer."""
    names = set()
    for m in _HF_TRAINER.finditer(code):
        if m.group(1) is None:
            return False  # TrainingArguments / HfArgumentParser
        names.add(m.group(1))
    return bool(names) and all(re.search(rf"^[ \t]*class {n}\b", code, re.M) for n in names)


def _project_code(root: Path, project: Project) -> Optional[list[str]]:
    """The text of every Python file under ``root`` (hidden folders, virtual environments and build
    output skipped), or None when there are too many to read or one cannot be read."""
    out: list[str] = []
    total = 0
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        seen += len(files) + len(dirs)
        if seen > _MAX_ENTRIES:
            return None  # a data folder, not a project: not read
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = Path(folder) / name
            if not project.may_read(path):
                return None
            try:
                text = read_text_limited(path, errors="replace")
            except (OSError, ValueError):
                return None
            total += len(text)
            out.append(text)
            if len(out) > _MAX_FILES or total > _MAX_TOTAL:
                return None
    return out


def _absent_in_project(project: Project, script: Any, root: Optional[Path]) -> list[tuple[str, Any, Any]]:
    """``compile.enabled`` False when no Python file of the project names ``torch.compile`` by any
    spelling, nor do the configs read or the launch line: nothing can
    compile the model then (Lightning and a plain loop never compile by themselves; the HF
    Trainer's ``torch_compile`` default is read by the transformers adapter). The script must run
    that training: a Lightning ``fit``, or a class its config names (``instantiate``/``get_class``)
    with a loop somewhere in the project. Only this absence:
    PEFT and checkpointing can be switched on by configs naming project classes
    (lllyasviel/ControlNet @ ed85cd1 ``models/cldm_v15.yaml`` ``use_checkpoint: True``)."""
    if root is None or not os.path.isdir(root):
        return []
    script_code = _COMMENT_LINE.sub("", script.source.text)
    lightning_fit = _LIGHTNING.search(script_code) is not None and _FIT.search(script_code) is not None
    if not lightning_fit and _DISPATCH.search(script_code) is None:
        return []  # the script's own training is not seen (it may not train at all)
    texts = _project_code(root, project)
    if not texts:
        return []
    code = _COMMENT_LINE.sub("", "\n".join(texts))
    if not lightning_fit and _LOOP.search(code) is None:
        return []
    from preflight.adapters.pytorch_local import _hydra_config_texts

    extra = "\n".join([*(src.text for src, _cfg in project.configs), " ".join(map(str, project.argv or [])),
                       *_hydra_config_texts(project)])
    line = next((i + 1 for i, t in enumerate(script.source.text.splitlines())
                 if _LOOP.search(t) or _FIT.search(t)), None)
    out: list[tuple[str, Any, Any]] = []
    if _COMPILE_WORDS.search(code) is None and _COMPILE_WORDS.search(extra) is None:
        detail = (f"no Python file of the project ({len(texts)} read under the audited folder), config read or "
                  "the launch line names torch.compile by any spelling; the loop (the project's own or "
                  "Lightning's) does not compile by itself")
        out.append(("compile.enabled", False, project.source(script, line or 1, "code", detail=detail)))
    from preflight.adapters.pytorch_local import _CKPT_OFF, _CKPT_WORDS

    # activation checkpointing likewise, by the whole project's code: a config can switch it on only through
    # code that names it (lllyasviel/ControlNet's ``use_checkpoint: True`` reaches its own ``checkpoint(...)``), so
    # a project none of whose files, configs read or launch words names it by any spelling never checkpoints
    # (ai4co/rl4co @ 7a15396: 247 files, a Hydra-built LightningModule; Lightning does not checkpoint by itself)
    plain = _TRAILING_COMMENT.sub("", _COMMENT_LINE.sub("", "\n".join(_MODULE_DOCSTRING.sub("", t, count=1)
                                                                      for t in texts)))
    if _CKPT_WORDS.search(_CKPT_OFF.sub("", _unused_checkpoint_helper(plain))) is None \
            and _CKPT_WORDS.search(extra) is None:
        detail = (f"no Python file of the project ({len(texts)} read under the audited folder), config read or "
                  "the launch line names activation checkpointing by any spelling (torch.utils.checkpoint, "
                  "checkpoint_sequential, gradient_checkpointing, checkpoint_wrapper, recompute, ...); "
                  "neither a plain loop nor Lightning checkpoints by itself")
        out.append(("memory.gradient_checkpointing", False, project.source(script, line or 1, "code", detail=detail)))
    return out


def _built_loop(script: Any, targets: list[str]) -> bool:
    """The script builds what trains from its config (``instantiate_from_config(config.model)``, Hydra's
    ``instantiate``) and the modules the configs name hold the loop (a LightningModule's ``training_step``:
    haoheliu/AudioLDM-training-finetuning @ 702a638 ``audioldm_train/train/latent_diffusion.py:140`` builds
    ``target: audioldm_train.modules.latent_diffusion.ddpm.LatentDiffusion``, whose ``ddpm.py`` has it): the
    script, its imports and those modules with theirs are the whole job, as for a loop the script imports."""
    if _DISPATCH.search(_COMMENT_LINE.sub("", script.source.text)) is None:
        return False
    return _LOOP.search(_COMMENT_LINE.sub("", "\n".join(targets))) is not None


def _target_texts(project: Any, root: Optional[Path]) -> list[str]:
    """The text of each local module a config read names by ``target``/``_target_`` and of the local modules
    it imports (config_target_modules.py): code the job builds from a string, as visible as an import."""
    from preflight.adapters.config_target_modules import target_module_files
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file

    out: list[str] = []
    texts = [src.text for src, _cfg in project.configs]
    found = target_module_files(texts, root)
    # a console script's package outside the audited folder (Ruunyox/pytorch-hpc @ c5848148: ``pythpc`` is
    # ``pytorch_hpc.scripts.__main__:main``, run from ``examples/fit``; its config's ``class_path:
    # pytorch_hpc.pl.pl_model.LightningModel`` resolves above the package, where the script's imports do)
    script = project.scripts[0] if getattr(project, "scripts", None) else None
    if script is not None and script.source.path is not None:
        from preflight.adapters.pytorch_local import _import_bases

        for base in _import_bases(Path(str(script.source.path)).resolve().parent)[1:]:
            if root is None or base.resolve() != root.resolve():
                found += [p for p in target_module_files(texts, base) if p not in found]
    for path in found:
        try:
            out.append(read_text_limited(path, errors="replace"))
            out.extend(read_text_limited(p, errors="replace") for p in _imported_up(parse_file(path), path.parent, root))
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue  # not readable: the module's own text, if read, stays
    return out


def _hydra_target_texts(hydra_texts: list[str], script: Any, root: Optional[Path]) -> Optional[list[str]]:
    """The text of each local module the ``_target_`` values of a Hydra config folder name, resolved under the
    project root and under the script's folder (Hydra's ``instantiate`` imports from the working directory the
    script runs in: PicoAudio2's ``src/train.py`` with ``src/models/``), and of the local modules each imports;
    None when one of them cannot be read or parsed."""
    if not hydra_texts:
        return []
    from preflight.adapters.config_target_modules import target_module_files
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file

    found = target_module_files(hydra_texts, root)
    if script.source.path is not None:
        here = Path(str(script.source.path)).resolve().parent
        if root is None or here != root.resolve():
            found += [p for p in target_module_files(hydra_texts, here) if p not in found]
    out: list[str] = []
    for path in found:
        try:
            out.append(read_text_limited(path, errors="replace"))
            out.extend(read_text_limited(p, errors="replace") for p in _imported_up(parse_file(path), path.parent, root))
        except (OSError, SyntaxError, ValueError, RecursionError):
            return None
    return out


def _class_name_texts(texts: list[str], root: Optional[Path]) -> list[str]:
    """The text of each local module a ``class_name='pkg.module.Class'`` string of ``texts`` names
    (class_name_modules.py, NVlabs' dnnlib) and of the local modules it imports."""
    from preflight.adapters.class_name_modules import class_name_module_files
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.local_trees import parse_file

    out: list[str] = []
    for path in class_name_module_files(texts, root):
        try:
            out.append(read_text_limited(path, errors="replace"))
            out.extend(read_text_limited(p, errors="replace") for p in _imported_up(parse_file(path), path.parent, root))
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue
    return out
