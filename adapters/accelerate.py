"""Hugging Face Accelerate: ``Accelerator(...)`` and the ``accelerate config`` YAML.

Recognised through real imports (``from accelerate import Accelerator``) and, for
configs, by their keys (``distributed_type`` with ``compute_environment`` /
``num_processes`` / ``mixed_precision`` ...). Reads (frameworks.md §1.2, accelerate
<= v1.14.0):

- ``Accelerator(mixed_precision=..., gradient_accumulation_steps=...,
  gradient_accumulation_plugin=GradientAccumulationPlugin(num_steps=...),
  deepspeed_plugin=DeepSpeedPlugin(...), fsdp_plugin=FullyShardedDataParallelPlugin(...),
  split_batches=...)``;
- the config YAML: ``mixed_precision``, ``num_processes`` (the TOTAL number of processes
  -> dist.world_size), ``num_machines`` -> dist.nodes, ``distributed_type``,
  ``deepspeed_config`` and ``fsdp_config``, each with its key line;
- the DataLoaders passed to ``accelerator.prepare(...)``: ``batch_size`` per process.

Precedence (frameworks.md §1.2 "Explicit arg beats config"): an explicit Accelerator
argument gets ``priority`` 1, a config value 0. Env-dependent defaults
(``ACCELERATE_MIXED_PRECISION`` ...) are notes. ``accelerate launch`` lines are left to
the launchers adapter.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.adapters._cache import cache_stays_on
from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.adapters.launch_line import accelerate_launch_flags
from preflight.adapters.script_pass import ScriptPassState

from preflight.adapters_api import Adapter, CallSite, Project, Resolved, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.loaders import LoadedConfig
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_VERSION = "accelerate <= 1.14.0 (frameworks.md §1.2)"
_EXPLICIT = 1  # priority of explicit Accelerator(...) arguments over the config file
_WHY = "explicit Accelerator argument beats the accelerate config (frameworks.md §1.2 \"Explicit arg beats config\")"
_PRECISION = {"no": "fp32", "fp16": "amp_fp16", "bf16": "amp_bf16", "fp8": "fp8"}
_STAGE = ZERO_STAGE_SHARDING  # preflight.adapters.deepspeed owns the stage semantics
_DEVICES = ("none", "cpu", "nvme")
_FSDP = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "NO_SHARD": "ddp",
         "HYBRID_SHARD": "fsdp_hybrid", "HYBRID_SHARD_ZERO2": "fsdp_hybrid", "_HYBRID_SHARD_ZERO2": "fsdp_hybrid"}
_FSDP_BY_NUMBER = {1: "FULL_SHARD", 2: "SHARD_GRAD_OP", 3: "NO_SHARD", 4: "HYBRID_SHARD", 5: "HYBRID_SHARD_ZERO2"}
_CONFIG_COMPANIONS = ("compute_environment", "num_processes", "num_machines", "mixed_precision", "machine_rank",
                      "main_training_function", "use_cpu", "rdzv_backend")
_EVAL_NAME = re.compile(r"val|eval|test|dev(?!ice)")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_accelerate_config(data: Any) -> bool:
    """An ``accelerate config`` YAML: ``distributed_type`` plus one of its usual companions."""
    return isinstance(data, dict) and "distributed_type" in data \
        and sum(k in data for k in _CONFIG_COMPANIONS) >= 1


def _accel(site: CallSite, last: str) -> bool:
    q = site.qualified or ""
    return q.startswith("accelerate.") and q.rsplit(".", 1)[-1] == last


@register_adapter
class AccelerateAdapter(Adapter):
    name = "accelerate"
    frameworks = ("accelerate",)

    def detect(self, project: Project) -> bool:
        return any(is_accelerate_config(cfg.data) for _, cfg in project.configs) or any(
            _accel(s, "Accelerator") for script in project.scripts for s in project.index(script).calls)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            idx = project.index(script)
            if any(_accel(s, "Accelerator") for s in idx.calls):
                _ScriptPass(self, project, plan, idx).run()
        for _, config in project.configs:
            if is_accelerate_config(config.data):
                _ConfigPass(self, project, plan, config).run()


class _ScriptPass(ScriptPassState):
    def __init__(self, adapter: AccelerateAdapter, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        super().__init__(adapter, project, plan, idx)
        self.has_config = any(is_accelerate_config(cfg.data) for _, cfg in project.configs)

    def conf(self, site: CallSite) -> str:
        return "high" if self.idx.runs(site) else "medium"

    def src(self, node: Any, detail: Optional[str] = None, kind: str = "code") -> Source:
        return self.project.source(self.script, node, kind, detail=detail)

    def where(self, node: Any) -> str:
        return self.src(node).location()

    def note(self, text: str) -> None:
        self.adapter.note(self.plan, text)

    def put(self, field: str, value: Any, resolved: Resolved, line: int, what: str, conf: str,
            priority: int = _EXPLICIT) -> None:
        why = f"{what}; {_WHY}" if priority else what
        if resolved.kind == "cli":
            source = Source("cli", None, None, resolved.key, f"{why}: {resolved.detail}")
        else:
            detail = f"{why}; {resolved.detail}" if resolved.detail else why
            source = self.project.source(self.script, resolved.line or line, "code", key=resolved.key, detail=detail)
        rank = {"low": 0, "medium": 1, "high": 2}
        if resolved.cap is not None and rank.get(resolved.cap, 2) < rank.get(conf, 2):
            conf = resolved.cap  # a value capped where it was read (a splatted config file's key)
        self.adapter.add_checked(self.plan, field, value, source, conf, priority)

    def call_of(self, expr: Optional[ast.AST]) -> Optional[CallSite]:
        if isinstance(expr, ast.Name):
            bound = self.idx.assigns.get(expr.id, [])
            expr = bound[0] if len(bound) == 1 else None
        if not isinstance(expr, ast.Call):
            return None
        return next((s for s in self.idx.calls if s.call is expr), None)

    def run(self) -> None:
        accelerators = [s for s in self.calls if _accel(s, "Accelerator")]
        split = False
        for site in accelerators:
            split = self.accelerator(site) or split
        names = {s.target for s in accelerators if s.target}
        self.loaders(names, split)
        self.unprepared_networks(names)

    def accelerator(self, site: CallSite) -> bool:
        conf = self.conf(site)
        if any(kw.arg is None for kw in site.call.keywords):
            self.note(f"{self.where(site.call)}: Accelerator(**kwargs): arguments passed as a mapping are not followed")
            return False
        self.precision(site, conf)
        self.accumulation(site, conf)
        ds = self.call_of(site.kwarg("deepspeed_plugin"))
        if ds is not None and _accel(ds, "DeepSpeedPlugin"):
            self.deepspeed_plugin(ds, conf)
        fsdp = self.call_of(site.kwarg("fsdp_plugin"))
        if fsdp is not None and _accel(fsdp, "FullyShardedDataParallelPlugin"):
            self.fsdp_plugin(fsdp, conf)
        return self.split_batches(site)

    def precision(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("mixed_precision")
        resolved = None if expr is None else self.idx.resolve(expr)
        # ``mixed_precision=args.mixed_precision`` whose option defaults to None and is not given (yisol/IDM-VTON
        # train_xl.py:279,307): accelerate reads None as not given
        if expr is None or (isinstance(expr, ast.Constant) and expr.value is None) \
                or (resolved is not None and resolved.value is None):
            self.note(f"{self.where(site.call)}: Accelerator() without mixed_precision: taken from env "
                      "ACCELERATE_MIXED_PRECISION (set by accelerate launch from its config or --mixed_precision), "
                      "else \"no\"")
            if not self.has_config:
                self.adapter.add(self.plan, "precision.mode", "fp32",
                                 self.src(site.call, f"Accelerator(mixed_precision=None) -> \"no\" when no env or "
                                                     f"launch config sets it ({_VERSION})", "default"), "low")
            return
        if resolved is None:
            return
        value = str(resolved.value).lower() if isinstance(resolved.value, str) else None
        mode = _PRECISION.get(value or "")
        if mode is None:
            self.note(f"{self.where(expr)}: Accelerator(mixed_precision={resolved.value!r}) is not one of "
                      "no, fp16, bf16, fp8")
            return
        self.put("precision.mode", mode, resolved, site.line, f"Accelerator(mixed_precision={value!r})", conf)

    def accumulation(self, site: CallSite, conf: str) -> None:
        plugin = self.call_of(site.kwarg("gradient_accumulation_plugin"))
        if plugin is not None and _accel(plugin, "GradientAccumulationPlugin"):
            steps = self.idx.resolve(plugin.arg(0, "num_steps"))
            if steps is not None and _is_int(steps.value):
                self.put("batch.grad_accum", steps.value, steps, plugin.line,
                         f"GradientAccumulationPlugin(num_steps={steps.value})", conf)
            return
        expr = site.kwarg("gradient_accumulation_steps")
        if expr is None:
            self.note(f"{self.where(site.call)}: Accelerator() without gradient_accumulation_steps: taken from env "
                      "ACCELERATE_GRADIENT_ACCUMULATION_STEPS, else 1")
            if not self.has_config:
                self.adapter.add(self.plan, "batch.grad_accum", 1,
                                 self.src(site.call, f"Accelerator(gradient_accumulation_steps=1) default "
                                                     f"({_VERSION})", "default"), "low")
            return
        steps = self.idx.resolve(expr)
        if steps is not None and _is_int(steps.value):
            self.put("batch.grad_accum", steps.value, steps, site.line,
                     f"Accelerator(gradient_accumulation_steps={steps.value})", conf)

    def split_batches(self, site: CallSite) -> bool:
        exprs = [site.kwarg("split_batches")]
        config = self.call_of(site.kwarg("dataloader_config"))
        if config is not None and _accel(config, "DataLoaderConfiguration"):
            exprs.append(config.kwarg("split_batches"))
        for expr in exprs:
            flag = self.idx.resolve(expr)
            if flag is not None and flag.value is True:
                self.note(f"{self.where(expr)}: split_batches=True: a prepared DataLoader's batch_size is the "
                          "total over all processes, each process gets batch_size / num_processes")
                return True
        return False

    def deepspeed_plugin(self, site: CallSite, conf: str) -> None:
        if site.kwarg("hf_ds_config") is not None:
            self.note(f"{self.where(site.call)}: DeepSpeedPlugin(hf_ds_config=...): the DeepSpeed config decides "
                      "stage and offload; pass it with --config to read it")
            return
        stage = site.kwarg("zero_stage")
        if stage is None:
            self.note(f"{self.where(site.call)}: DeepSpeedPlugin() without zero_stage: env "
                      "ACCELERATE_DEEPSPEED_ZERO_STAGE, else 2")
        else:
            value = self.idx.resolve(stage)
            if value is not None and _is_int(value.value) and value.value in _STAGE:
                self.put("dist.sharding", _STAGE[value.value], value, site.line,
                         f"DeepSpeedPlugin(zero_stage={value.value})", conf)
        for kw, field in (("offload_optimizer_device", "dist.offload_optimizer"),
                          ("offload_param_device", "dist.offload_params")):
            if site.kwarg(kw) is None and all(k.arg is not None for k in site.call.keywords):
                # accelerate DeepSpeedPlugin.__post_init__: env ACCELERATE_DEEPSPEED_<KW> (set by accelerate
                # launch from its --<kw> flag or config), else "none" (zhangfaen/finetune-Qwen2-VL
                # finetune_distributed.py:18-27): a fallback any config or launch-line reading outranks
                self.adapter.add_checked(self.plan, field, "none", self.src(
                    site.call, f"DeepSpeedPlugin() without {kw}: env ACCELERATE_DEEPSPEED_{kw.upper()} "
                               "(set by accelerate launch from its flags or config), else \"none\"", "default"),
                    "medium", -1)
                continue
            value = self.idx.resolve(site.kwarg(kw))
            if value is not None and isinstance(value.value, str) and value.value.lower() in _DEVICES:
                self.put(field, value.value.lower(), value, site.line, f"DeepSpeedPlugin({kw}={value.value!r})", conf)
        save = self.idx.resolve(site.kwarg("zero3_save_16bit_model"))
        if save is not None and isinstance(save.value, bool):
            self.put("dist.save_16bit_weights", save.value, save, site.line,
                     f"DeepSpeedPlugin(zero3_save_16bit_model={save.value})", conf)
        steps = self.idx.resolve(site.kwarg("gradient_accumulation_steps"))
        if steps is not None and _is_int(steps.value):
            self.put("batch.grad_accum", steps.value, steps, site.line,
                     f"DeepSpeedPlugin(gradient_accumulation_steps={steps.value})", conf)

    def fsdp_plugin(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("sharding_strategy")
        if expr is not None:
            resolved = self.idx.resolve(expr)
            name: Any = resolved.value if resolved is not None else (dotted_name(expr) or "").rsplit(".", 1)[-1]
            if _is_int(name):
                name = _FSDP_BY_NUMBER.get(name, "")
            mode = _FSDP.get(str(name).upper())
            if mode is not None:
                self.adapter.add(self.plan, "dist.sharding", mode,
                                 self.src(expr, f"FullyShardedDataParallelPlugin(sharding_strategy={name}); {_WHY}"),
                                 conf, _EXPLICIT)
        else:
            reshard = self.idx.resolve(site.kwarg("reshard_after_forward"))
            mode = "fsdp_grad_op" if reshard is not None and reshard.value is False else "fsdp_full"
            self.note(f"{self.where(site.call)}: FullyShardedDataParallelPlugin() without sharding_strategy: env "
                      "FSDP_SHARDING_STRATEGY, else FULL_SHARD")
            self.adapter.add(self.plan, "dist.sharding", mode,
                             self.src(site.call, f"FullyShardedDataParallelPlugin(...) ({_VERSION})", "default"),
                             "medium")
        version = self.idx.resolve(site.kwarg("fsdp_version"))
        if version is not None and _is_int(version.value) and int(version.value) in (1, 2):
            self.adapter.add(self.plan, "dist.fsdp_version", int(version.value),
                             self.src(site.kwarg("fsdp_version"),
                                      f"FullyShardedDataParallelPlugin(fsdp_version={version.value})"),
                             conf, _EXPLICIT)
        offload = site.kwarg("cpu_offload")
        flag = self.idx.resolve(offload)
        inner = self.call_of(offload)
        on = flag is not None and flag.value is True
        if inner is not None and (inner.last or "").endswith("CPUOffload"):
            value = self.idx.resolve(inner.arg(0, "offload_params"))
            on = value is not None and value.value is True
        if on:
            source = self.src(offload, f"FullyShardedDataParallelPlugin(cpu_offload=...): parameters, gradients and "
                                       f"the optimizer step on CPU; {_WHY}")
            self.adapter.add(self.plan, "dist.offload_params", "cpu", source, conf, _EXPLICIT)
            self.adapter.add(self.plan, "dist.offload_optimizer", "cpu", source, conf, _EXPLICIT)
        ckpt = self.idx.resolve(site.kwarg("activation_checkpointing"))
        if ckpt is not None and isinstance(ckpt.value, bool):
            self.put("memory.gradient_checkpointing", ckpt.value, ckpt, site.line,
                     "FullyShardedDataParallelPlugin(activation_checkpointing=...)", conf)
            if ckpt.value is True:
                self.adapter.add(self.plan, "model.use_cache", True, cache_stays_on(
                    self.src(site.call, "FullyShardedDataParallelPlugin(activation_checkpointing=True)")),
                    "medium")

    def loaders(self, accelerators: set[str], split: bool) -> None:
        """``batch_size`` of the DataLoaders passed to ``<accelerator>.prepare(...)``: per process."""
        prepared: list[str] = []
        for site in self.calls:
            func = site.call.func
            if isinstance(func, ast.Attribute) and func.attr == "prepare" \
                    and dotted_name(func.value) in accelerators:
                prepared.extend(a.id for a in site.call.args if isinstance(a, ast.Name))
        feeding = _feeding_training(self.script.tree, prepared)
        for name in prepared:
            if _EVAL_NAME.search(name.lower()) or (feeding and name not in feeding):
                continue
            built = [s for s in self.calls if s.target == name and s.last == "DataLoader"
                     and (s.qualified or "").startswith("torch.")]
            if len(built) != 1:
                continue
            loader = built[0]
            if split:
                self.note(f"{self.where(loader.call)}: {name} is split over processes (split_batches=True); its "
                          "batch_size is not the per-process micro-batch")
                continue
            expr = loader.arg(1, "batch_size")
            value = self.idx.resolve(expr) if expr is not None else None
            if value is not None and _is_int(value.value):
                self.put("batch.micro", value.value, value, loader.line,
                         f"{loader.label}(batch_size=...) prepared by Accelerate: per process", self.conf(loader), 0)


    def unprepared_networks(self, accelerators: set[str]) -> None:
        """``accelerator.prepare(model, optimizer, loader)`` where ``model`` is a mapping of networks
        (yl4579/StyleTTS2 @ 5cedc71 ``train_finetune_accelerate.py:132,137,246``: ``model =
        build_model(...)`` returns a ``Munch`` of nets, ``for key in model: model[key] = ...``):
        Accelerate prepares only ``nn.Module`` objects and hands a dict back as it is, so no
        autocast wraps a forward and ``--mixed_precision`` only scales the loss: fp32 compute.
        Claimed when every prepared argument is shown by its use to be a mapping (iterated and
        indexed by its own keys, or built as ``dict``/``Munch``/``{...}``), an optimizer or scheduler
        (``.step()``/``.zero_grad()``) or a data loader (iterated, or a ``DataLoader``), at least one
        is a mapping, and the script names no autocast of its own."""
        tree = self.script.tree
        if tree is None:
            return
        sites = [s for s in self.calls if isinstance(s.call.func, ast.Attribute) and s.call.func.attr == "prepare"
                 and dotted_name(s.call.func.value) in accelerators]
        if not sites or any("autocast" in (s.name or "") for s in self.idx.calls):
            return
        args = [a for s in sites for a in s.call.args]
        if not args or not all(isinstance(a, ast.Name) for a in args):
            return
        kinds = {a.id: _prepared_kind(tree, a.id, self.idx) for a in args if isinstance(a, ast.Name)}
        if None in kinds.values() or "mapping" not in kinds.values():
            return
        name = next(n for n, k in kinds.items() if k == "mapping")
        site = sites[0]
        self.adapter.add_checked(
            self.plan, "precision.mode", "fp32",
            self.src(site.call, f"{name} given to prepare() is a mapping "
                                "of networks, not an nn.Module: Accelerate returns it unprepared, no autocast wraps a "
                                "forward, and a --mixed_precision/mixed_precision setting only scales the loss "
                                "(fp32 compute)"),
            "medium", _EXPLICIT + 1)
        self.note(f"{self.where(site.call)}: {name} is a mapping of networks: accelerate's mixed precision does not "
                  "reach its forwards (fp32 compute)")


_MAPPING_CALLS = ("dict", "Munch", "munchify", "OrderedDict", "EasyDict", "edict")


def _prepared_kind(tree: ast.AST, name: str, idx: ScriptIndex) -> Optional[str]:
    """What an argument of ``accelerator.prepare`` is, by how the script uses it: "mapping", "optimizer",
    "loader", or None when not told."""
    bound = idx.assigns.get(name, [])
    if bound and all(isinstance(b, ast.Dict) or (isinstance(b, ast.Call)
                                                 and (dotted_name(b.func) or "").rsplit(".", 1)[-1] in _MAPPING_CALLS)
                     for b in bound):
        return "mapping"
    iter_vars: set[str] = set()
    iterated = stepped = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)):
            it = node.iter
            if isinstance(it, ast.Name) and it.id == name and isinstance(node.target, ast.Name):
                iter_vars.add(node.target.id)
            inner = it.args[0] if isinstance(it, ast.Call) and dotted_name(it.func) in ("enumerate", "iter") \
                and it.args else it
            if isinstance(inner, ast.Name) and inner.id == name:
                iterated = True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            if node.func.attr in ("keys", "items", "values"):
                return "mapping"
            if node.func.attr in ("step", "zero_grad"):
                stepped = True
    if iter_vars and any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
                         and isinstance(n.slice, ast.Name) and n.slice.id in iter_vars for n in ast.walk(tree)):
        return "mapping"  # ``for key in model: model[key] = ...``: a dict iterated by its own keys
    if stepped:
        return "optimizer"
    if iterated or any(isinstance(b, ast.Call) and (dotted_name(b.func) or "").rsplit(".", 1)[-1] == "DataLoader"
                       for b in bound):
        return "loader"
    return None


def _feeding_training(tree: Any, names: list[str]) -> set[str]:
    """Of ``names`` (prepared data loaders), those whose batches reach a ``backward`` call: used in a
    loop that calls it, directly or through a name bound from them (``it = iter(train_dataloader)``,
    then ``next(it)``). huggingface/parler-tts training/run_parler_tts_training.py (d108732): the
    first loader (``:489``) encodes audio under ``torch.no_grad``; the one that trains is built in the
    epoch loop (``:997``). Empty when none can be told (then every prepared loader is read)."""
    if tree is None or len(set(names)) < 2:
        return set()
    alias: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)} & set(names)
            if used:
                alias.setdefault(node.targets[0].id, set()).update(used)
    out: set[str] = set()
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While, ast.AsyncFor)):
            continue
        if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                   for n in ast.walk(loop)):
            continue
        for n in ast.walk(loop):
            if isinstance(n, ast.Name):
                if n.id in names:
                    out.add(n.id)
                out |= alias.get(n.id, set())
    return out


class _ConfigPass:
    """The ``accelerate config`` YAML, each value with its key line (priority 0)."""

    def __init__(self, adapter: AccelerateAdapter, project: Project, plan: TrainingPlan, config: LoadedConfig) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.config = config
        self.data: dict[str, Any] = config.data

    def src(self, *keys: Any, detail: Optional[str] = None, kind: str = "config") -> Source:
        if kind == "config":
            return self.project.config_source(self.config, keys, detail=detail)
        return Source(kind, self.config.path, self.config.line_of(keys, nearest=True),
                      ".".join(str(k) for k in keys), detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high") -> bool:
        return self.adapter.add_checked(self.plan, field, value, source, confidence)

    def note(self, keys: tuple[Any, ...], text: str) -> None:
        line = self.config.line_of(keys, nearest=True)
        where = f"{self.config.path}:{line}" if line else self.config.path
        self.adapter.note(self.plan, f"{where}: {'.'.join(str(k) for k in keys)}: {text}")

    def run(self) -> None:
        precision = self.data.get("mixed_precision")
        if isinstance(precision, str) and precision.lower() in _PRECISION:
            self.add("precision.mode", _PRECISION[precision.lower()],
                     self.src("mixed_precision", detail=f"accelerate config mixed_precision: {precision}"))
        self.world()
        kind = str(self.data.get("distributed_type", "")).upper()
        if kind == "DEEPSPEED":
            self.deepspeed()
        elif kind == "FSDP":
            self.fsdp()
        elif kind in ("MULTI_GPU", "MULTI_NPU", "MULTI_XPU", "MULTI_MLU", "MULTI_CPU"):
            self.add("dist.sharding", "ddp", self.src("distributed_type", detail=f"distributed_type: {kind}"))
        elif kind == "NO":
            self.add("dist.sharding", "none", self.src("distributed_type", detail="distributed_type: NO"))

    def world(self) -> None:
        procs: Any = self.data.get("num_processes")
        machines: Any = self.data.get("num_machines")
        given = accelerate_launch_flags(self.project.argv)  # a flag given wins over the file (DiffuLLaMA)
        for key in ("num_processes", "num_machines"):
            if f"__{key}" in given and self.data.get(key) is not None:
                self.note((key,), f"overridden by --{key} {given['__' + key]} on the launch line")
        procs = None if "__num_processes" in given else procs
        if "__num_machines" in given:
            self.world_procs(procs)
            return
        self.world_procs(procs)
        if procs == -1:
            self.note(("num_processes",), "-1: all visible GPUs, known only at launch")
        if _is_int(machines) and machines >= 1:
            self.add("dist.nodes", machines, self.src("num_machines", detail="accelerate config num_machines"))
        elif machines is None:
            self.add("dist.nodes", 1, self.src("num_machines", kind="default",
                                               detail=f"accelerate num_machines default 1 ({_VERSION})"), "medium")
            machines = 1
        if _is_int(procs) and procs >= 1 and _is_int(machines) and machines >= 1 and procs % machines == 0:
            self.add("dist.devices_per_node", procs // machines,
                     self.src("num_processes", kind="derived",
                              detail=f"num_processes / num_machines = {procs} / {machines}"))
        line_procs = str(given.get("__num_processes", "")).strip()
        if procs is None and line_procs.isdigit() and int(line_procs) >= 1 and _is_int(machines) and machines >= 1 \
                and int(line_procs) % machines == 0:
            # ``--num_processes=4`` on the line over the file's 8, ``num_machines: 1`` from the file
            # (jkx19/ActiveQueryNew @ 09aec49 pipeline.sh:6 with recipes/accelerate_configs/multi_gpu.yaml:9-10)
            self.add("dist.devices_per_node", int(line_procs) // machines,
                     self.src("num_machines", kind="derived",
                              detail=f"--num_processes {line_procs} (launch line) / num_machines {machines}"))

    def world_procs(self, procs: Any) -> None:
        if _is_int(procs) and procs >= 1:
            self.add("dist.world_size", procs,
                     self.src("num_processes", detail="accelerate num_processes = total processes over all machines"))

    def deepspeed(self) -> None:
        block = self.data.get("deepspeed_config")
        if block is None and "deepspeed_config" not in self.data:
            from preflight.adapters.accelerate_ds_defaults import deepspeed_without_block

            deepspeed_without_block(self)
            return
        if not isinstance(block, dict):
            return
        key = "deepspeed_config"
        if "deepspeed_config_file" in block:
            self.note((key, "deepspeed_config_file"), f"{block['deepspeed_config_file']!r} holds the DeepSpeed "
                      "settings; pass it with --config to read it")
        stage = block.get("zero_stage")
        if _is_int(stage) and stage in _STAGE:
            self.add("dist.sharding", _STAGE[stage], self.src(key, "zero_stage", detail=f"ZeRO stage {stage}"))
        elif stage is None and "deepspeed_config_file" not in block:
            self.add("dist.sharding", "zero2", self.src(key, "zero_stage", kind="default",
                                                        detail=f"ACCELERATE_DEEPSPEED_ZERO_STAGE default 2 ({_VERSION})"),
                     "medium")
        if stage == 3 and "deepspeed_config_file" not in block:
            save = block.get("zero3_save_16bit_model")
            if isinstance(save, bool):
                self.add("dist.save_16bit_weights", save, self.src(key, "zero3_save_16bit_model"))
            elif save is None:
                self.add("dist.save_16bit_weights", False,
                         Source("default", self.config.path, self.config.line_of((key, "zero_stage")),
                                f"{key}.zero3_save_16bit_model", "accelerate default: zero3_save_16bit_model false"))
        for name, field in (("offload_optimizer_device", "dist.offload_optimizer"),
                            ("offload_param_device", "dist.offload_params")):
            value = block.get(name)
            if isinstance(value, str) and value.lower() in _DEVICES:
                self.add(field, value.lower(), self.src(key, name))
        steps = block.get("gradient_accumulation_steps")
        if _is_int(steps):
            self.add("batch.grad_accum", steps, self.src(key, "gradient_accumulation_steps"))

    def fsdp(self) -> None:
        block = self.data.get("fsdp_config")
        block = block if isinstance(block, dict) else {}
        key = "fsdp_config"
        strategy: Any = block.get("fsdp_sharding_strategy")
        reshard = block.get("fsdp_reshard_after_forward")
        if _is_int(strategy):
            strategy = _FSDP_BY_NUMBER.get(strategy)
        if isinstance(strategy, str) and strategy.upper() in _FSDP:
            self.add("dist.sharding", _FSDP[strategy.upper()],
                     self.src(key, "fsdp_sharding_strategy", detail=f"fsdp_sharding_strategy: {strategy}"))
        elif isinstance(reshard, bool):
            self.add("dist.sharding", "fsdp_full" if reshard else "fsdp_grad_op",
                     self.src(key, "fsdp_reshard_after_forward", detail=f"FSDP2 reshard_after_forward: {reshard}"))
        elif isinstance(reshard, str) and reshard.upper() in _FSDP:
            self.add("dist.sharding", _FSDP[reshard.upper()], self.src(key, "fsdp_reshard_after_forward"))
        elif strategy is None and reshard is None:
            self.add("dist.sharding", "fsdp_full",
                     self.src(key, "fsdp_sharding_strategy", kind="default",
                              detail=f"FSDP_SHARDING_STRATEGY default FULL_SHARD ({_VERSION})"), "medium")
        version: Any = block.get("fsdp_version")
        if _is_int(version) and version in (1, 2):
            # accelerate's FullyShardedDataParallelPlugin: fsdp_version 2 prepares the model with
            # fully_shard (fsdp2_prepare_model), 1 (the default) with FullyShardedDataParallel
            self.add("dist.fsdp_version", version,
                     self.src(key, "fsdp_version", detail=f"fsdp_version: {version}"))
        offload = block.get("fsdp_offload_params")
        if isinstance(offload, bool):
            device = "cpu" if offload else "none"
            source = self.src(key, "fsdp_offload_params", detail=f"fsdp_offload_params: {str(offload).lower()}")
            self.add("dist.offload_params", device, source)
            self.add("dist.offload_optimizer", device, source)
        ckpt = block.get("fsdp_activation_checkpointing")
        if isinstance(ckpt, bool):
            self.add("memory.gradient_checkpointing", ckpt, self.src(key, "fsdp_activation_checkpointing"))
            if ckpt:
                self.add("model.use_cache", True,
                         cache_stays_on(self.src(key, "fsdp_activation_checkpointing")), "medium")
