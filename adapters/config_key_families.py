"""Plan fields a job's own config file states under a key whose name says what it is, read when
no adapter found the field (a ``derive`` step, :func:`config_key_facts`).

A project's config is often a YAML/JSON/TOML file (or a Python module of literal assignments)
named on the launch line and handed to project code in a shape no reader follows (a dict
passed down to a module imported by ``importlib``, a runner class, a registry). Its keys still
say what they set when they are spelled like a framework's own, and the code reads them:

* facebookresearch/vjepa2 ``configs/train/vitl16/pretrain-256px-16f.yaml`` ``data.crop_size: 256``,
  ``data.num_workers: 8``, ``data.pin_mem: true``, ``model.use_activation_checkpointing: true``,
  ``meta.use_sdpa: true``, read by ``app/vjepa/train.py`` as ``cfgs_data.get("crop_size", 224)``;
* bytedance/SALMONN ``configs/config.yaml`` ``run.batch_size_train: 8``, ``run.accum_grad_iters: 1``,
  ``model.lora_rank: 8`` (LAVIS layout: ``config.run.accum_grad_iters``, ``config.get("lora_rank")``);
* microsoft/dion ``configs/dion2_160m.yaml`` ``device_batch_size: 32``, ``sequence_length: 1024``
  (``hp.device_batch_size``);
* XPixelGroup/BasicSR options ``datasets.train.batch_size_per_gpu``/``num_worker_per_gpu`` and
  ``train.optim_g.type: Adam``;
* hpcaitech/Open-Sora ``configs/vae/train/video_dc_ae.py`` (a Python config of literal
  assignments): ``num_workers = 12``, ``grad_checkpoint = False``, ``optim = dict(cls="HybridAdam")``.

What counts, each rule a guard against a wrong value (the twins in
``tests/test_config_key_families.py``):

* the key's name is one of a family below, spelled in full (``batch_size`` alone is not: it is
  per process in one project and global in the next, prime-rl ``[data] batch_size``, SlowFast
  ``TRAIN.BATCH_SIZE``); the value has the field's type (a bool switch, a positive int);
* no section on its path is an evaluation/generation/other-model one (``eval``, ``val``,
  ``test``, ``generation``, ``rollout``, ``reference``, ``teacher``, ``critic``, ...);
* the project's code reads the key by name: ``["key"]``, ``.get("key"`` (``.pop``, ``.setdefault``),
  ``getattr(x, "key"``
  or an attribute ``x.key`` of an object other than ``self``; ``gradient_checkpointing`` and
  ``use_checkpoint``, which models carry as attributes of their own, only by their string or as
  ``.<section>.key`` (huggingface/open-muse sets ``model.gradient_checkpointing: True`` in
  ``configs/imagenet.yaml``, its training script never reads it, and its model code
  reads ``self.gradient_checkpointing`` and ``m.gradient_checkpointing`` of its modules); a key of a
  section built into a project class (Hydra ``_target_``, a registry ``type``, LightningCLI
  ``class_path`` + ``init_args``) is read when that class's ``__init__`` takes it as a parameter
  (HazyResearch/based ``datamodule: {_target_: ...LMDataModule, max_length: 2048}``);
* an optimizer name maps to a class only through a fixed table, and only when the project's
  code names that class (``optim.Adam(`` for ``adam``: a project that builds ``AdamW`` for
  ``"adam"`` does not name ``Adam``);
* every match of a field over the job's configs gives one value, else nothing (said in a note);
* the accumulation spellings the value-flow and Hydra readers own (``gradient_accumulation_steps``,
  ``gradient_accumulate_every``, ``accumulate_grad_batches``, ...) are left to them: they leave the
  field unknown on purpose where the code that reads the key does not run (a workspace class Hydra
  never builds, real-stanford/diffusion_policy's shape) or never opens the file;
* a framework's own key that its reader maps when the code decides it (``attn_implementation``,
  which ContextualAI/HALOs ``launch.py`` replaces by ``eager`` under a float32 policy) is not in a
  family: a switch only says a kernel when it is on (``use_flash_attn: true``).

Each fact is ``medium`` (the key is read, its use is not followed) and points at the key's
line, with the code line that reads it in the detail. Files are read, never executed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from preflight.plan import Source, TrainingPlan
from preflight.sources import read_text_limited

#: field -> key names (lower case) whose value is the field's
_FAMILIES: dict[str, tuple[str, ...]] = {
    "batch.micro": ("micro_batch_size", "micro_bsz", "micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu",
                    "device_batch_size", "batch_size_per_gpu", "batch_size_per_device", "per_device_batch_size",
                    "per_device_train_batch_size", "per_gpu_batch_size", "per_gpu_train_batch_size",
                    "train_batch_size_per_gpu", "train_batch_size_per_device", "batch_size_train"),
    "batch.global": ("global_batch_size", "total_batch_size", "global_train_batch_size"),
    # (the framework spellings, ``gradient_accumulation_steps``, ``accumulate_grad_batches``, ... are the
    # value-flow and Hydra readers' own: they leave them unknown where the code does not decide them)
    "batch.grad_accum": ("accum_grad_iters", "grad_acc_step", "grad_acc_steps", "grad_accum_steps", "accum_iter",
                         "accum_steps", "grad_accumulation_steps", "gradient_accumulation_iters"),
    "data.seq_len": ("seq_len", "seq_length", "sequence_length", "sequence_len", "max_seq_len", "max_seq_length",
                     "max_sequence_length", "block_size", "context_length", "cutoff_len", "model_max_length",
                     "max_length"),
    "data.image_size": ("image_size", "img_size", "resolution", "crop_size", "image_res", "input_size",
                        "train_crop_size", "img_scale", "train_resolution"),
    "data.num_workers": ("num_workers", "num_worker_per_gpu", "workers_per_gpu", "dataloader_num_workers",
                         "data_num_workers"),
    "data.pin_memory": ("pin_memory", "pin_mem"),
    "memory.gradient_checkpointing": ("gradient_checkpointing", "grad_checkpoint", "grad_checkpointing",
                                      "use_checkpoint", "use_activation_checkpointing", "activation_checkpointing",
                                      "use_gradient_checkpointing", "checkpoint_activations",
                                      "enable_gradient_checkpointing", "use_grad_checkpoint"),
    "model.attn_implementation": ("use_flash_attention", "use_flash_attn", "flash_attn", "flash_attention",
                                  "use_flash_attention_2", "enable_flash", "use_sdpa"),
    "optimizer.name": ("optimizer", "optim", "opt", "optimizer_name", "optimizer_type", "optim_type"),
    "peft.rank": ("lora_r", "lora_rank", "lora_dim"),
    "peft.method": ("use_lora", "lora", "enable_lora"),
}
_BOOL_FIELDS = ("data.pin_memory", "memory.gradient_checkpointing")
_INT_RANGE = {"batch.micro": (1, 1 << 20), "batch.global": (1, 1 << 24), "batch.step": (1, 1 << 24), "batch.grad_accum": (1, 1 << 16),
              "data.seq_len": (16, 1 << 22), "data.image_size": (8, 1 << 14), "data.num_workers": (0, 1024),
              "peft.rank": (1, 4096)}
_ATTN_SWITCH = {"use_flash_attention": "flash_attention_2", "use_flash_attn": "flash_attention_2",
                "flash_attn": "flash_attention_2", "flash_attention": "flash_attention_2",
                "use_flash_attention_2": "flash_attention_2", "enable_flash": "flash_attention_2",
                "use_sdpa": "sdpa"}
#: a section holding the optimizer's class under one of these keys (BasicSR ``optim_g: {type: Adam}``)
_OPT_SECTIONS = ("optimizer", "optim", "opt", "optim_g", "optimizer_config", "optimizer_cfg")
_OPT_CLASS_KEYS = ("type", "name", "cls", "_target_", "class_path")
_OPTIMIZERS = {"adam": "Adam", "adamw": "AdamW", "sgd": "SGD", "rmsprop": "RMSprop", "adagrad": "Adagrad",
               "adamax": "Adamax", "adadelta": "Adadelta", "nadam": "NAdam", "radam": "RAdam",
               "adafactor": "Adafactor", "lion": "Lion", "lamb": "LAMB", "lars": "LARS", "hybridadam": "HybridAdam",
               "fusedadam": "FusedAdam", "adamw8bit": "AdamW8bit"}
#: a path token that says the section is not the training run's own
_OTHER = {"eval", "evaluation", "evaluate", "val", "valid", "validation", "test", "testing", "inference", "infer",
          "generation", "generate", "gen", "sampling", "sample", "rollout", "predict", "prediction", "ref",
          "reference", "reward", "critic", "teacher", "dev", "demo", "serve", "serving", "vllm", "export"}
#: switches a model object carries as its own attribute (``self.gradient_checkpointing``,
#: ``blk.use_checkpoint``): read from a config only by their string or after their section's name
_MODEL_ATTRIBUTES = ("gradient_checkpointing", "use_checkpoint")
_TOKEN = re.compile(r"[a-z0-9]+")
_MAX_FILES = 3000
_MAX_BYTES = 40_000_000
_SKIP_DIRS = {".git", "node_modules", "venv", ".venv", "site-packages", "__pycache__", "build", "dist"}
_CACHE = "config_key_families.code"


def _other_section(path: tuple) -> bool:
    for part in path[:-1]:
        if isinstance(part, str) and any(t in _OTHER for t in _TOKEN.findall(part.lower())):
            return True
    return False


def _int(value: Any, field: str) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    low, high = _INT_RANGE[field]
    return value if low <= value <= high else None


def _value(field: str, key: str, value: Any) -> Any:
    """The field's value for ``key: value``, or None when the value does not fit."""
    if field in _BOOL_FIELDS:
        return value if isinstance(value, bool) else None
    if field == "peft.method":
        return "lora" if value is True else None
    if field == "model.attn_implementation":
        return _ATTN_SWITCH[key] if value is True else None
    if field == "optimizer.name":
        return None  # read by _optimizer (a name needs the code to name the class)
    if field == "data.image_size" and isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == value[1]:
        value = value[0]
    return _int(value, field)


def _walk(data: Any, path: tuple = (), up: Any = None) -> Iterable[tuple[tuple, Any, dict, Any]]:
    """(key path, value, the dict holding it, the dict holding that) of every key."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k), v, data, up
            yield from _walk(v, (*path, k), data)


def _built_class(section: dict, up: Any) -> Optional[str]:
    """The class a section's keys are handed to as keywords: Hydra's ``_target_``, a registry's
    ``type`` (a class name), LightningCLI's ``class_path`` with the keys under ``init_args``."""
    for holder, keys in ((section, ("_target_", "type", "class_path")), (up, ("class_path",))):
        if holder is up and not (isinstance(up, dict) and up.get("init_args") is section):
            continue
        for k in keys:
            name = holder.get(k) if isinstance(holder, dict) else None
            if isinstance(name, str):
                last = name.rsplit(".", 1)[-1]
                if re.fullmatch(r"[A-Za-z_]\w*", last):
                    return last
    return None


def _registered_class(code: list[tuple[str, str]], name: Any) -> Optional[str]:
    """The project class a registry name that is no class name stands for: ``@MODELS.register_module("PT-v3m1")``
    over ``class PointTransformerV3(...)`` (Pointcept/Pointcept @ d74c646
    ``pointcept/models/point_transformer_v3/point_transformer_v3m1_base.py:518``; config ``type="PT-v3m1"``,
    ``configs/scannet/semseg-pt-v3m1-0-base.py:18``). None unless exactly one class is registered so."""
    if not isinstance(name, str) or not name or re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return None
    deco = re.compile(rf"""register_module\(\s*(?:name\s*=\s*)?["']{re.escape(name)}["'][^)]*\)\s*\n"""
                      r"(?:\s*@[^\n]*\n)*\s*class\s+([A-Za-z_]\w*)")
    found = {m.group(1) for _, text in code if name in text for m in deco.finditer(text)}
    return found.pop() if len(found) == 1 else None


def _init_param_at(code: list[tuple[str, str]], cls: str, key: str) -> Optional[str]:
    """``file:line`` of ``key`` among the ``__init__`` parameters of the project's class ``cls``."""
    head = re.compile(rf"^\s*class\s+{re.escape(cls)}\b[^\n]*:", re.M)
    # the parameters up to the ``):`` that ends the signature (defaults may hold tuples: ``stride=(2, 2, 2, 2)``),
    # never past another ``def`` (a one-line ``def __init__(self): pass`` ends at its own ``):``)
    init = re.compile(r"def\s+__init__\s*\(((?:(?!\bdef\s).)*?)\)\s*(?:->[^:\n]*)?:", re.S)
    for display, text in code:
        if cls not in text or key not in text:
            continue
        m = head.search(text)
        if m is None:
            continue
        sig = init.search(text, m.end())
        nxt = re.compile(r"^\s*class\s", re.M).search(text, m.end())
        if sig is None or (nxt is not None and nxt.start() < sig.start()):
            continue
        if re.search(rf"(?<![\w.]){re.escape(key)}\b\s*[:=,)]", sig.group(1) + ")"):
            return f"{display}:{text.count(chr(10), 0, sig.start()) + 1}"
    return None


def code_text(project: Any) -> list[tuple[str, str]]:
    """(display path, text) of the project's Python files (bounded), read once per audit."""
    held = project.cache.get(_CACHE)
    if held is not None:
        return held
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for script in project.scripts:
        if script.source.path is not None:
            seen.add(os.path.abspath(str(script.source.path)))
            out.append((script.source.display, script.source.text))
    total = sum(len(t) for _, t in out)
    root = Path(project.root)
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py") or len(out) >= _MAX_FILES or total >= _MAX_BYTES:
                continue
            path = os.path.join(base, name)
            if os.path.abspath(path) in seen:
                continue
            try:
                if not os.path.isfile(path) or os.path.getsize(path) > 2_000_000 or not project.may_read(Path(path)):
                    continue
                text = read_text_limited(path, errors="replace")
            except (OSError, ValueError):
                continue
            total += len(text)
            out.append((os.path.relpath(path, root), text))
    project.cache[_CACHE] = out
    return out


def _read_at(code: list[tuple[str, str]], key: str, parent: Optional[str], strict: bool) -> Optional[str]:
    """``file:line`` of the first read of ``key`` in the code, or None. ``strict``: only by its
    string or as an attribute after its own section's name."""
    k = re.escape(key)
    forms = [rf"""\[\s*["']{k}["']\s*\]""", rf"""\.(?:get|pop|setdefault)\(\s*["']{k}["']""", rf"""getattr\([^()]*,\s*["']{k}["']"""]
    if parent is not None and re.fullmatch(r"\w+", parent):
        forms.append(rf"\.{re.escape(parent)}\.{k}\b(?!\s*\()")
    if not strict:  # ``owner.key`` read (not called, not assigned) of an owner other than ``self``/``cls``
        forms.append(rf"(?<![\w.])(?P<owner>[A-Za-z_]\w*(?:\.\w+)*)\.{k}\b(?!\s*\()(?!\s*=[^=])")
    pattern = re.compile("|".join(forms))
    for display, text in code:
        if key not in text:
            continue
        for m in pattern.finditer(text):
            if m.groupdict().get("owner") in ("self", "cls"):
                continue
            return f"{display}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def _names_class(code: list[tuple[str, str]], cls: str) -> bool:
    pattern = re.compile(rf"(?:\.|\bimport\s+|\b){re.escape(cls)}\s*\(|\.{re.escape(cls)}\b|import\s+{re.escape(cls)}\b")
    return any(cls in text and pattern.search(text) for _, text in code)


def _optimizer(path: tuple, value: Any) -> Optional[tuple[str, str]]:
    """(class, the key read) when ``path: value`` names the optimizer's class."""
    last = str(path[-1]).lower()
    own_key = last in _FAMILIES["optimizer.name"]
    in_section = last in _OPT_CLASS_KEYS and len(path) >= 2 and str(path[-2]).lower() in _OPT_SECTIONS
    if not isinstance(value, str) or not (own_key or in_section):
        return None
    name = value.rsplit(".", 1)[-1].strip()
    cls = _OPTIMIZERS.get(name.lower().replace("_", ""))
    return (cls, last) if cls is not None else None


Where = Callable[[tuple], tuple[str, Optional[str], Optional[int], str]]  # key path -> (kind, file, line, key)


def file_where(display: str, line_of: Callable[[tuple], Optional[int]]) -> Where:
    """Where a key of a config file (``display``) is set: the file and the key's line."""
    return lambda path: ("config", display, line_of(path), ".".join(str(p) for p in path))


def candidates(configs: Iterable[tuple[Any, Where]], code: list[tuple[str, str]], cache: Any = None
               ) -> dict[str, list[tuple]]:
    """field -> [(value, (kind, file, line, key) where it is set, code line that reads it)] over
    ``configs`` ((data, where) each)."""
    from preflight.adapters.config_key_batch import PLAIN, plain_batch_use, plain_workers_use

    by_key = {k: f for f, keys in _FAMILIES.items() for k in keys}
    out: dict[str, list[tuple]] = {}
    for data, where in configs:
        for path, raw, section, up in _walk(data):
            if not isinstance(path[-1], str) or _other_section(path):
                continue
            key = path[-1]
            parent = path[-2] if len(path) >= 2 and isinstance(path[-2], str) else None
            opt = _optimizer(path, raw)
            if opt is not None:
                cls, _ = opt
                at = _read_at(code, key, parent, strict=False)
                if at is not None and _names_class(code, cls):
                    out.setdefault("optimizer.name", []).append((cls, where(path), at))
                continue
            field = by_key.get(key.lower())
            if field is None and key.lower() in PLAIN:  # a plain batch key: its use says which batch
                use = plain_batch_use(code, key, parent, cache)
                if use is not None and _int(raw, use[0]) is not None:
                    out.setdefault(use[0], []).append((_int(raw, use[0]), where(path), f"{use[1]}, plain key",
                                                       *use[2:]))
                continue
            if field is None and key.lower() == "workers":  # a plain workers key: loader workers where handed
                at = plain_workers_use(code, key, parent, cache)  # as a loader's num_workers=
                if at is not None and isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= 1024:
                    out.setdefault("data.num_workers", []).append((raw, where(path), at))
                continue
            if field is None or field == "optimizer.name":
                continue
            value = _value(field, key.lower(), raw)
            if value is None:
                continue
            at = _read_at(code, key, parent, strict=key.lower() in _MODEL_ATTRIBUTES)
            built = _built_class(section, up) if at is None else None
            if built is None and at is None:
                built = _registered_class(code, section.get("type"))
            if built is not None:  # handed to the class as a keyword: read where the class takes it
                at = _init_param_at(code, built, key)
            if at is not None:
                out.setdefault(field, []).append((value, where(path), at))
    return out


def _hydra_configs(project: Any) -> list[tuple[Any, Where]]:
    """The Hydra compositions the Hydra adapter made for this audit (none made: none read here)."""
    held = project.cache.get("hydra.plan_compositions")
    out: list[tuple[Any, Where]] = []
    for result in (held[0] if held else []):
        config = getattr(result, "config", None)
        if not isinstance(config, dict):
            continue

        def where(path: tuple, _c: Any = result) -> tuple[str, Optional[str], Optional[int], str]:
            key = ".".join(str(p) for p in path)
            if path in _c.cli:
                return "cli", None, None, _c.cli[path]
            origin = _c.origins.get(path)
            if origin is None:
                return "config", None, None, key
            return "config", origin[0], origin[1], origin[2] or key

        out.append((config, where))
    return out


def _key_where(at: Callable[[tuple], tuple[str, Optional[int]]]) -> Where:
    """Where a key of a launch-line config is set: the file (the config or one of its ``_base_`` files) and
    line of the assignment that wins."""
    return lambda path: ("config", *at(path), ".".join(str(p) for p in path))


def _with_cli(base: Where, given: dict[tuple, str]) -> Where:
    """``base``, except that a key the launch line set (``KEY VALUE`` after the file) is the line's."""
    def where(path: tuple) -> tuple[str, Optional[str], Optional[int], str]:
        return ("cli", None, None, given[path]) if path in given else base(path)
    return where


def config_key_facts(plan: TrainingPlan, project: Any) -> None:
    """Fill each field no adapter found from the job's configs' keys (a ``derive`` step)."""
    if project is None:
        return
    from preflight.adapters.config_key_pyfile import launch_configs

    configs: list[tuple[Any, Where]] = [(loaded.data, file_where(loaded.path, loaded.line_of))
                                        for _source, loaded in project.configs if isinstance(loaded.data, dict)]
    for _display, data, at in launch_configs(project):
        given = data.pop("__cli__", {})  # KEY VALUE pairs after the file on the launch line (launch_kv_overrides.py)
        configs.append((data, _with_cli(_key_where(at), given)))
    configs.extend(_hydra_configs(project))
    wanted = [f for f in _FAMILIES if plan.resolve(f) is None]
    if not configs or not wanted:
        return
    method = plan.resolve("peft.method")
    if "peft.rank" in wanted and method is not None and method.value not in ("lora", "qlora"):
        wanted.remove("peft.rank")
    found = candidates(configs, code_text(project), project.cache)
    from preflight.adapters.config_key_step import step_batch_facts

    step_batch_facts(plan, found.get("batch.step", []), [data for data, _ in configs])
    wanted = [f for f in wanted if plan.resolve(f) is None]
    for field in wanted:
        rows = found.get(field)
        if not rows:
            continue
        if len({r[0] for r in rows}) != 1:
            shown = ", ".join(f"{w[1]}:{w[2]} {w[3]}={v!r}" for v, w, _at in rows[:4])
            plan.note(f"config_key_families: {field} left unknown: keys named like it disagree ({shown})")
            continue
        value, (kind, display, line, key), at = rows[0]
        detail = f"`{key}` is named like {field} and the code reads it ({at})"
        if at.endswith(", plain key"):  # config_key_batch.py: the use decided it
            how = "multiplied by a process count, or handed to a data loader or a per-process name" \
                if field == "batch.micro" else "divided by a process count, or handed to a global-batch name"
            detail = f"`{key}` is a plain batch key; the code uses it {how} ({at[:-len(', plain key')]}): " \
                f"{'per process' if field == 'batch.micro' else 'the batch over all processes'}"
        plan.add(field, value, Source(kind, display, line, key, detail), "medium", adapter="config_key_families")
