"""PyTorch Lightning: ``Trainer(...)`` and the ``LightningModule`` / ``LightningDataModule`` code.

Recognised only through real imports of ``lightning``, ``lightning.pytorch`` or
``pytorch_lightning`` (``import lightning as L; L.Trainer(...)``, ``from
pytorch_lightning import Trainer``...). Reads, without importing anything
(frameworks.md §1.1, Lightning <= 2.6.5):

- ``precision`` (strings, ints and aliases, normalised as Lightning does) -> precision.mode;
- ``devices`` / ``num_nodes`` -> dist.devices_per_node / dist.nodes, and their product
  -> dist.world_size (derived);
- ``strategy`` names and ``DDPStrategy`` / ``FSDPStrategy`` / ``DeepSpeedStrategy``
  objects -> dist.sharding and offloads (``"auto"`` resolved as Lightning does);
- ``accumulate_grad_batches`` -> batch.grad_accum;
- the DataLoader returned by ``train_dataloader()`` -> batch.micro;
- ``configure_optimizers()`` -> optimizer.name; gradient checkpointing in the module or
  ``FSDPStrategy(activation_checkpointing_policy=...)``;
- the same two of a module class defined in a local module the script imports and builds
  (:mod:`preflight.adapters.lightning_local`).

Values given through argparse (``Trainer(devices=args.devices)``) are resolved to the
``add_argument`` default or the launch-command value. ``"auto"``/``-1`` devices,
manual optimisation and ``use_distributed_sampler=False`` become notes.
"""

from __future__ import annotations

import ast
import os
from typing import Any, Optional

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING

from preflight.adapters_api import Adapter, CallSite, Project, Resolved, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

LIGHTNING_MODULES = ("lightning", "lightning.pytorch", "pytorch_lightning")
_VERSION = "Lightning <= 2.6.5 (frameworks.md §1.1)"
_LEGACY = "pytorch_lightning 1.x: the GPU count per node; removed in 2.0"

# precision value -> plan precision.mode; None: valid in Lightning but not a plan mode.
# frameworks.md §1.1: fabric/plugins/precision/precision.py:23-36, fabric/connector.py:557-576.
_PRECISION: dict[Any, Optional[str]] = {
    "transformer-engine": "fp8", "transformer-engine-float16": "fp8",
    "16-true": "fp16", "16-mixed": "amp_fp16", "16": "amp_fp16", 16: "amp_fp16",
    "bf16-true": "bf16", "bf16-mixed": "amp_bf16", "bf16": "amp_bf16",
    "32-true": "fp32", "32": "fp32", 32: "fp32",
    "64-true": None, "64": None, 64: None,
}
_CANONICAL = {"16": "16-mixed", 16: "16-mixed", "bf16": "bf16-mixed", "32": "32-true", 32: "32-true",
              "64": "64-true", 64: "64-true"}

# strategy registry names (frameworks.md §1.1: strategies/ddp.py:384-413, fsdp.py:503-519,
# deepspeed.py:780-809) -> (sharding, offload_params, offload_optimizer)
_STRATEGY: dict[str, tuple[str, Optional[str], Optional[str]]] = {
    "single_device": ("none", None, None),
    "fsdp": ("fsdp_full", None, None),
    "fsdp_cpu_offload": ("fsdp_full", "cpu", "cpu"),
    "deepspeed": ("zero2", None, None),
    "deepspeed_stage_1": ("zero1", None, None),
    "deepspeed_stage_2": ("zero2", None, None),
    "deepspeed_stage_2_offload": ("zero2", None, "cpu"),
    "deepspeed_stage_3": ("zero3", None, None),
    "deepspeed_stage_3_offload": ("zero3", "cpu", "cpu"),
    "deepspeed_stage_3_offload_nvme": ("zero3", "nvme", "nvme"),
}
for _base in ("ddp", "ddp_spawn", "ddp_fork", "ddp_notebook"):
    _STRATEGY[_base] = ("ddp", None, None)
    for _flag in ("true", "false"):
        _STRATEGY[f"{_base}_find_unused_parameters_{_flag}"] = ("ddp", None, None)

_FSDP_SHARDING = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
                  "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}
_STAGE = ZERO_STAGE_SHARDING  # preflight.adapters.deepspeed owns the stage semantics
_MODULE_BASES = ("LightningModule", "LightningDataModule")
_OPTIM_PREFIXES = ("torch.optim.", "bitsandbytes.", "torchao.", "apex.", "deepspeed.ops.", "transformers.")


def _is_lightning(qualified: Optional[str], last: str) -> bool:
    if not qualified or qualified.rsplit(".", 1)[-1] != last:
        return False
    return any(qualified.startswith(m + ".") for m in LIGHTNING_MODULES) and ".fabric." not in qualified


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register_adapter
class LightningAdapter(Adapter):
    name = "lightning"
    frameworks = ("lightning",)

    def detect(self, project: Project) -> bool:
        return any(_ScriptPass(self, project, None, project.index(s)).relevant() for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            sp = _ScriptPass(self, project, plan, project.index(script))
            if sp.relevant():
                sp.run()


class _ScriptPass:
    def __init__(self, adapter: LightningAdapter, project: Project, plan: Optional[TrainingPlan],
                 idx: ScriptIndex) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan  # None while detecting
        self.idx = idx
        self.script = idx.script
        self.mapped: dict[int, Resolved] = {}  # synthetic keyword values -> their config value
        self.mapped_calls: list[ast.Call] = []
        self.mapped_from: list[str] = []
        self.calls = [s for s in idx.calls if idx.runs(s) is not False]
        self.trainers = [s for s in self.calls if _is_lightning(s.qualified, "Trainer")]
        # pytorch_lightning 1.x ``Trainer.from_argparse_args(args, ...)`` over a parser that
        # ``Trainer.add_argparse_args(parser)`` filled: the Trainer's flags are the launch line's
        self.from_args = [s for s in self.calls if s.qualified and s.qualified.endswith(".Trainer.from_argparse_args")
                          and _is_lightning(s.qualified.rsplit(".", 1)[0], "Trainer")]
        self.clis = [s for s in self.calls if _is_lightning(s.qualified, "LightningCLI")]
        self.modules = {name for name, node in idx.classes.items()
                        if any(_is_lightning(idx.qualify(dotted_name(b)), b_last)
                               for b in node.bases for b_last in _MODULE_BASES)}

    def relevant(self) -> bool:
        return self.idx.imports_any(*LIGHTNING_MODULES) and bool(self.trainers or self.modules or self.clis
                                                                 or self.from_args)

    # -- helpers -------------------------------------------------------------
    def conf(self, site: CallSite, base: str = "high") -> str:
        return base if self.idx.runs(site) else "medium"

    def src(self, node: Any, detail: Optional[str] = None, kind: str = "code", key: Optional[str] = None) -> Source:
        return self.project.source(self.script, node, kind, key=key, detail=detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high", priority: int = 0) -> None:
        assert self.plan is not None
        self.adapter.add_checked(self.plan, field, value, source, confidence, priority)

    def note(self, text: str) -> None:
        assert self.plan is not None
        self.adapter.note(self.plan, text)

    def where(self, node: Any) -> str:
        return self.src(node).location()

    def put(self, field: str, value: Any, resolved: Resolved, site: CallSite, what: str, confidence: str,
            priority: int = 0) -> None:
        """Add ``value`` (derived from ``resolved``) with the resolved value's true origin."""
        if resolved.kind == "cli":
            source = Source("cli", None, None, resolved.key, f"{what}: {resolved.detail}")
        elif resolved.kind == "config":  # a key of a Trainer(**cfg[...]) section; detail: the file
            source = Source("config", resolved.detail, resolved.line, resolved.key, f"{what} (Trainer(**...) key)")
        else:
            detail = f"{what}; {resolved.detail}" if resolved.detail else what
            source = self.src(resolved.line or site.line, detail, key=resolved.key)
        self.add(field, value, source, confidence, priority)

    def call_of(self, expr: Optional[ast.AST]) -> Optional[ast.Call]:
        if isinstance(expr, ast.Call):
            return expr
        if isinstance(expr, ast.Name):
            bound = self.idx.assigns.get(expr.id, [])
            if len(bound) == 1 and isinstance(bound[0], ast.Call):
                return bound[0]
        return None

    def site_of(self, call: ast.Call) -> Optional[CallSite]:
        return next((s for s in self.idx.calls if s.call is call), None)

    # -- passes --------------------------------------------------------------
    def run(self) -> None:
        for site in self.trainers:
            self.trainer(site)
        for site in self.from_args:
            self.argparse_trainer(site)
        from preflight.adapters.lightning_cli import cli_trainer

        for site in self.clis:
            if cli_trainer(self, site):
                continue
            self.note(f"{self.where(site.call)}: LightningCLI: the Trainer's arguments come from its YAML config "
                      "and command line, which this adapter does not follow")
        self.module_code()

    def resolve(self, expr: Optional[ast.AST]) -> Optional[Resolved]:
        """The index's value of ``expr``, or the config value a ``Trainer(**cfg[...])`` key holds."""
        if expr is not None and id(expr) in self.mapped:
            return self.mapped[id(expr)]
        return self.idx.resolve(expr) if expr is not None else None

    def unpacked(self, site: CallSite) -> Optional[CallSite]:
        """``Trainer(..., **config['trainer_params'])`` with ``config`` loaded from a YAML/JSON file
        the launch line names (PyTorch-VAE ``run.py:45-54`` @ AntixK/PyTorch-VAE with ``-c
        configs/vae.yaml``): the call as if the section's keys were written as keywords (their
        values from the file, with its provenance). None when a mapping is not found in exactly
        one config given to the audit."""
        from preflight.analysis.syntax import config_at, unpacked_key_path

        keywords = [kw for kw in site.call.keywords if kw.arg is not None]
        self.mapped_from = []
        written = {kw.arg for kw in keywords}
        for kw in site.call.keywords:
            if kw.arg is not None:
                continue
            path = unpacked_key_path(kw.value)
            if not path:
                return None
            found = [(c, d) for _, c in self.project.configs
                     if (d := config_at(c.data, path)) is not None]
            if len(found) != 1:
                return None
            config, data = found[0]
            self.mapped_from.append(f"{ast.unparse(kw.value)} from {config.path}")
            for key, value in data.items():
                if not isinstance(key, str) or key in written or not key.isidentifier():
                    continue
                node = ast.copy_location(ast.Constant(value=value), site.call)
                source = self.project.config_source(config, (*path, key))
                self.mapped[id(node)] = Resolved(value, "config", source.line, source.key, str(source.path))
                keywords.append(ast.keyword(arg=key, value=node))
                written.add(key)
        call = ast.copy_location(ast.Call(func=site.call.func, args=site.call.args, keywords=keywords), site.call)
        self.mapped_calls.append(call)  # kept alive: `mapped` is keyed by the ids of its nodes
        return CallSite(site.script, call, site.name, site.qualified, site.target, site.guards, site.function,
                        site.klass)

    def trainer(self, site: CallSite) -> None:
        conf = self.conf(site)
        if any(kw.arg is None for kw in site.call.keywords):
            mapped = self.unpacked(site)
            if mapped is None:
                self.note(f"{self.where(site.call)}: Trainer(**kwargs): arguments passed as a mapping are not "
                          "followed")
                self.explicit_only(site, conf)
                return
            self.note(f"{self.where(site.call)}: Trainer(**...): the keys of {', '.join(self.mapped_from)} are read "
                      "as its arguments")
            site = mapped
        self.precision(site, conf)
        devices = self.devices(site, conf)
        nodes = self.nodes(site, conf)
        if devices is not None and nodes is not None:
            world = devices[0] * nodes[0]
            detail = f"Lightning world size = devices x num_nodes = {devices[0]} x {nodes[0]} ({_VERSION})"
            self.add("dist.world_size", world, self.src(site.call, detail, "derived"), conf)
        self.strategy(site, conf, devices, nodes)
        self.accumulation(site, conf)
        for kw in ("use_distributed_sampler", "replace_sampler_ddp"):
            flag = self.resolve(site.kwarg(kw))
            if flag is not None and flag.value is False:
                self.note(f"{self.where(site.kwarg(kw))}: Trainer({kw}=False): Lightning does not inject a "
                          "DistributedSampler; each rank reads the loader's own sampler")

    def argparse_trainer(self, site: CallSite) -> None:
        """``Trainer.from_argparse_args(args, callbacks=...)`` (pytorch_lightning 1.x; removed in 2.0)
        with ``parser = Trainer.add_argparse_args(parser)``: every Trainer argument is a flag of the
        job's line (BlinkDL/RWKV-LM RWKV-v7/train_temp/train.py:60,242 with ``--precision bf16
        --strategy deepspeed_stage_2 --devices 1 --num_nodes 1`` from demo-training-run.sh). The call
        is read as ``Trainer(flag=value, ...)`` of the flags the line gives (keywords written in the
        call win); a flag the script assigns itself (``args.precision = ...``) is left unknown, and a
        flag the line does not give keeps Lightning 1.x's default only for ``num_nodes`` (1) and
        ``accumulate_grad_batches`` (1), as :meth:`explicit_only` reads a call with a mapping."""
        if not self.idx.find("add_argparse_args"):
            return
        args = list(self.idx.args)
        if any(a.startswith("$") for a in args):
            return  # arguments the launch reader could not expand: the flags are not known
        reassigned = {t.attr for node in ast.walk(self.script.tree)
                      if isinstance(node, (ast.Assign, ast.AugAssign))
                      for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                      if isinstance(t, ast.Attribute)}
        written = {kw.arg for kw in site.call.keywords if kw.arg}
        keywords = [kw for kw in site.call.keywords if kw.arg]
        given: list[str] = []
        for flag in ("precision", "strategy", "devices", "gpus", "num_nodes", "accumulate_grad_batches",
                     "accelerator"):
            if flag in written or flag in reassigned:
                continue
            value: Optional[str] = None
            for k, tok in enumerate(args):
                name, eq, val = tok.partition("=")
                if name == f"--{flag}":
                    value = val if eq else (args[k + 1] if k + 1 < len(args) else None)
            if value is None:
                continue
            typed: Any = int(value) if value.lstrip("-").isdigit() and flag != "strategy" else value
            node = ast.copy_location(ast.Constant(value=typed), site.call)
            self.mapped[id(node)] = Resolved(typed, "cli", None, f"--{flag}",
                                             f"--{flag} {value} (Trainer.from_argparse_args)")
            keywords.append(ast.keyword(arg=flag, value=node))
            given.append(flag)
        call = ast.copy_location(ast.Call(func=site.call.func, args=[], keywords=keywords), site.call)
        self.mapped_calls.append(call)
        synthetic = CallSite(site.script, call, site.name, site.qualified, site.target, site.guards, site.function,
                             site.klass)
        conf = "medium" if self.idx.runs(site) is not True else "high"
        self.explicit_only(synthetic, conf)
        if "num_nodes" not in given and "num_nodes" not in written and "num_nodes" not in reassigned:
            self.add("dist.nodes", 1, self.src(site.call, "Trainer.from_argparse_args: --num_nodes not on the "
                                               "line, pytorch_lightning 1.x default 1", "default"), "medium")
        if not {"accumulate_grad_batches"} & (set(given) | written | reassigned):
            self.add("batch.grad_accum", 1, self.src(site.call, "Trainer.from_argparse_args: "
                                                     "--accumulate_grad_batches not on the line, "
                                                     "pytorch_lightning 1.x default 1", "default"), "medium")
        devices = self.resolve(synthetic.kwarg("devices")) if synthetic.kwarg("devices") is not None else None
        nodes = self.resolve(synthetic.kwarg("num_nodes")) if synthetic.kwarg("num_nodes") is not None \
            else Resolved(1, "code")
        if devices is not None and nodes is not None and _is_int(devices.value) and _is_int(nodes.value) \
                and devices.value >= 1 and nodes.value >= 1:
            detail = (f"Lightning world size = devices x num_nodes = {devices.value} x {nodes.value} "
                      "(Trainer.from_argparse_args)")
            self.add("dist.world_size", devices.value * nodes.value, self.src(site.call, detail, "derived"), "medium")

    def explicit_only(self, site: CallSite, conf: str) -> None:
        """``Trainer(a=..., **kwargs)``: read the named arguments, assume no default (the mapping may set it)."""
        if site.kwarg("precision") is not None:
            self.precision(site, "medium")
        if site.kwarg("devices") is not None or site.kwarg("gpus") is not None:
            self.devices(site, "medium")
        if site.kwarg("num_nodes") is not None:
            self.nodes(site, "medium")
        strategy = site.kwarg("strategy")
        if strategy is not None and not (isinstance(strategy, ast.Constant) and strategy.value == "auto"):
            self.strategy(site, "medium", None, None)
        if site.kwarg("accumulate_grad_batches") is not None:
            self.accumulation(site, "medium")

    def precision(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("precision")
        if expr is None or (isinstance(expr, ast.Constant) and expr.value is None):
            self.add("precision.mode", "fp32",
                     self.src(site.call, f"Trainer(precision=None) -> \"32-true\" ({_VERSION})", "default"), conf)
            return
        resolved = self.resolve(expr)
        if resolved is None:
            return
        raw = resolved.value
        if isinstance(raw, bool) or not isinstance(raw, (str, int)) or raw not in _PRECISION:
            self.note(f"{self.where(expr)}: Trainer(precision={raw!r}) is not a precision Lightning accepts")
            return
        mode = _PRECISION[raw]
        canonical = _CANONICAL.get(raw, raw)
        if mode is None:
            self.note(f"{self.where(expr)}: Trainer(precision={raw!r}) = 64-bit, which the plan cannot hold")
            return
        accel = self.resolve(site.kwarg("accelerator"))
        what = f"Trainer(precision={raw!r})" + (f" = {canonical!r}" if canonical != raw else "")
        if canonical == "16-mixed" and accel is not None and accel.value == "cpu":
            mode = "amp_bf16"
            what += " on accelerator='cpu': Lightning converts 16-mixed to bf16-mixed"
        self.put("precision.mode", mode, resolved, site, what, conf)

    def devices(self, site: CallSite, conf: str) -> Optional[tuple[int, str]]:
        legacy = site.kwarg("gpus")
        if legacy is not None:
            # pytorch_lightning 1.x (removed in 2.0): a truthy gpus= is the device flag and the
            # accelerator is the GPU, whatever devices= says (1.6-1.9 accelerator_connector.py
            # _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag: `gpus or ...`,
            # not in ([], 0, "0"); 1.0-1.5: gpus is the only GPU count)
            resolved = self.resolve(legacy)
            if resolved is None:
                return None
            if resolved.value not in (None, [], 0, "0", False):
                return self.device_count(site, conf, legacy, resolved, "gpus", _LEGACY)
        expr = site.kwarg("devices")
        if expr is None:
            self.note(f"{self.where(site.call)}: Trainer(devices=\"auto\") (the default): all visible devices, "
                      "known only at launch")
            return None
        resolved = self.resolve(expr)
        if resolved is None:
            return None
        return self.device_count(site, conf, expr, resolved, "devices", "")

    def device_count(self, site: CallSite, conf: str, expr: ast.expr, resolved: Resolved, flag: str,
                     version: str) -> Optional[tuple[int, str]]:
        raw = resolved.value
        count: Optional[int] = None
        what = f"Trainer({flag}={raw!r})"
        if _is_int(raw):
            count = raw
        elif isinstance(raw, list) and all(_is_int(v) for v in raw):
            count, what = len(raw), f"{what}: device ids"
        elif isinstance(raw, str):
            text = raw.strip()
            if "," in text:
                ids = [p for p in text.split(",") if p.strip()]
                if all(p.strip().lstrip("-").isdigit() for p in ids):
                    count, what = len(ids), f"{what}: device ids"
            elif text.lstrip("-").isdigit():
                count = int(text)
        if count == -1 or raw == "auto":
            self.note(f"{self.where(expr)}: Trainer({flag}={raw!r}): all visible devices, known only at launch")
            return None
        if count is None or count < 1:
            return None
        if version:
            what = f"{what} ({version})"
        self.put("dist.devices_per_node", count, resolved, site, what, conf)
        return count, what

    def nodes(self, site: CallSite, conf: str) -> Optional[tuple[int, str]]:
        expr = site.kwarg("num_nodes")
        if expr is None:
            self.add("dist.nodes", 1, self.src(site.call, f"Trainer(num_nodes=1) default ({_VERSION})", "default"),
                     conf)
            return 1, "default"
        resolved = self.resolve(expr)
        if resolved is None or not _is_int(resolved.value) or resolved.value < 1:
            return None
        self.put("dist.nodes", resolved.value, resolved, site, f"Trainer(num_nodes={resolved.value})", conf)
        return resolved.value, "given"

    def strategy(self, site: CallSite, conf: str, devices: Optional[tuple[int, str]],
                 nodes: Optional[tuple[int, str]]) -> None:
        expr = site.kwarg("strategy")
        if expr is None:
            expr = self.legacy_strategy(site)
        call = self.call_of(expr)
        if call is not None:
            self.strategy_object(call, conf)
            return
        resolved = self.resolve(expr) if expr is not None else Resolved("auto", "code", site.line)
        if resolved is None or not isinstance(resolved.value, str):
            return
        name = resolved.value
        if name == "auto":
            self.auto_strategy(site, conf, devices, nodes)
            return
        entry = _STRATEGY.get(name)
        if entry is None:
            self.note(f"{self.where(expr)}: Trainer(strategy={name!r}) is not a strategy this adapter knows")
            return
        sharding, params, optim = entry
        flag = next((kw.arg for kw in site.call.keywords if kw.value is expr), "strategy")
        what = f"Trainer({flag}={name!r})" + (f" (pytorch_lightning 1.x: the strategy {name!r})"
                                              if flag != "strategy" else "")
        self.put("dist.sharding", sharding, resolved, site, what, conf)
        if sharding.startswith(("zero", "fsdp")):
            self.put("dist.offload_params", params or "none", resolved, site, what, conf)
            self.put("dist.offload_optimizer", optim or "none", resolved, site, what, conf)

    def legacy_strategy(self, site: CallSite) -> Optional[ast.expr]:
        """pytorch_lightning 1.x: ``Trainer(accelerator="ddp")`` (deprecated in 1.5 for
        ``strategy=``, which it sets) and ``distributed_backend="ddp"`` (before 1.5) name the
        strategy; ``accelerator="gpu"``/``"cpu"``/``"auto"`` is the device type."""
        for kw in ("accelerator", "distributed_backend"):
            expr = site.kwarg(kw)
            if expr is None:
                continue
            resolved = self.resolve(expr)
            if resolved is not None and isinstance(resolved.value, str) and resolved.value in _STRATEGY:
                return expr
        return None

    def auto_strategy(self, site: CallSite, conf: str, devices: Optional[tuple[int, str]],
                      nodes: Optional[tuple[int, str]]) -> None:
        # frameworks.md §1.1: accelerator_connector.py:400-422
        if (nodes is not None and nodes[0] > 1) or (devices is not None and devices[0] > 1):
            detail = (f"Trainer(strategy=\"auto\") with {devices[0] if devices else '?'} device(s) x "
                      f"{nodes[0] if nodes else '?'} node(s) -> ddp ({_VERSION})")
            self.add("dist.sharding", "ddp", self.src(site.call, detail, "default"), "medium")
        elif devices is not None and nodes is not None:
            detail = f"Trainer(strategy=\"auto\") on one device -> SingleDeviceStrategy ({_VERSION})"
            self.add("dist.sharding", "none", self.src(site.call, detail, "default"), "medium")

    def strategy_object(self, call: ast.Call, conf: str) -> None:
        site = self.site_of(call)
        if site is None:
            return
        if _is_lightning(site.qualified, "DDPStrategy"):
            self.add("dist.sharding", "ddp", self.src(call, "DDPStrategy(...)"), conf)
        elif any(_is_lightning(site.qualified, name) for name in ("DDPPlugin", "DDPSpawnPlugin")):
            # pytorch_lightning 1.x (1.5: `strategy=DDPPlugin(...)`, PyTorch-VAE run.py:53; removed in 1.8)
            self.add("dist.sharding", "ddp", self.src(call, f"{site.last}(...) (pytorch_lightning 1.x)"), conf)
        elif _is_lightning(site.qualified, "FSDPStrategy"):
            self.fsdp_strategy(site, conf)
        elif _is_lightning(site.qualified, "DeepSpeedStrategy"):
            self.deepspeed_strategy(site, conf)

    def fsdp_strategy(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("sharding_strategy")
        if expr is None:
            self.add("dist.sharding", "fsdp_full",
                     self.src(site.call, f"FSDPStrategy(sharding_strategy=\"FULL_SHARD\") default ({_VERSION})"), conf)
        else:
            resolved = self.resolve(expr)
            name = resolved.value if resolved is not None and isinstance(resolved.value, str) \
                else (dotted_name(expr) or "").rsplit(".", 1)[-1]
            mode = _FSDP_SHARDING.get(str(name).upper())
            if mode is not None:
                self.add("dist.sharding", mode, self.src(expr, f"FSDPStrategy(sharding_strategy={name})"), conf)
        offload = site.kwarg("cpu_offload")
        if offload is not None:
            flag = self.resolve(offload)
            inner = self.call_of(offload)
            on = flag is not None and flag.value is True
            if inner is not None and (dotted_name(inner.func) or "").endswith("CPUOffload"):
                arg = next((k.value for k in inner.keywords if k.arg == "offload_params"),
                           inner.args[0] if inner.args else None)
                value = self.resolve(arg)
                on = value is not None and value.value is True
            if on:
                source = self.src(offload, "FSDPStrategy(cpu_offload=...): parameters, gradients and the "
                                           "optimizer step on CPU")
                self.add("dist.offload_params", "cpu", source, conf)
                self.add("dist.offload_optimizer", "cpu", source, conf)
        for kw in ("activation_checkpointing_policy", "activation_checkpointing"):
            expr = site.kwarg(kw)
            if expr is not None and not (isinstance(expr, ast.Constant) and expr.value is None):
                self.add("memory.gradient_checkpointing", True, self.src(expr, f"FSDPStrategy({kw}=...)"), conf)

    def deepspeed_strategy(self, site: CallSite, conf: str) -> None:
        config = site.kwarg("config")
        if config is not None and not (isinstance(config, ast.Constant) and config.value is None):
            path = self.resolve(config)
            shown = repr(path.value) if path is not None else ast.unparse(config)
            known = path is not None and isinstance(path.value, str) and any(
                os.path.basename(str(cfg.path)) == os.path.basename(path.value) for _, cfg in self.project.configs)
            self.note(f"{self.where(config)}: DeepSpeedStrategy(config={shown}): the DeepSpeed config replaces "
                      "stage/offload arguments" + ("" if known else "; pass it with --config to read it"))
            return
        stage_expr = site.kwarg("stage")
        if stage_expr is None:
            self.add("dist.sharding", "zero2",
                     self.src(site.call, f"DeepSpeedStrategy(stage=2) default ({_VERSION})", "default"), conf)
        else:
            stage = self.resolve(stage_expr)
            if stage is not None and _is_int(stage.value) and stage.value in _STAGE:
                self.put("dist.sharding", _STAGE[stage.value], stage, site,
                         f"DeepSpeedStrategy(stage={stage.value})", conf)
        for flag_kw, device_kw, field in (("offload_optimizer", "offload_optimizer_device", "dist.offload_optimizer"),
                                          ("offload_parameters", "offload_params_device", "dist.offload_params")):
            expr = site.kwarg(flag_kw)
            if expr is None:
                self.add(field, "none", self.src(site.call, f"DeepSpeedStrategy({flag_kw}=False) default", "default"),
                         conf)
                continue
            flag = self.resolve(expr)
            if flag is None or not isinstance(flag.value, bool):
                continue
            device = "none"
            if flag.value:
                dev = self.resolve(site.kwarg(device_kw)) if site.kwarg(device_kw) is not None \
                    else Resolved("cpu", "code")
                if dev is None or dev.value not in ("cpu", "nvme"):
                    continue
                device = dev.value
            self.put(field, device, flag, site, f"DeepSpeedStrategy({flag_kw}={flag.value})", conf)

    def accumulation(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("accumulate_grad_batches")
        if expr is None:
            self.add("batch.grad_accum", 1,
                     self.src(site.call, f"Trainer(accumulate_grad_batches=1) default ({_VERSION})", "default"), conf)
            return
        resolved = self.resolve(expr)
        if resolved is not None and _is_int(resolved.value):
            self.put("batch.grad_accum", resolved.value, resolved, site,
                     f"Trainer(accumulate_grad_batches={resolved.value})", conf)

    # -- LightningModule / LightningDataModule -------------------------------
    def module_code(self) -> None:
        for site in self.calls:
            if site.klass not in self.modules:
                continue
            if site.function == "train_dataloader" and site.last == "DataLoader" \
                    and (site.qualified or "").startswith(("torch.", "DataLoader")):
                self.train_loader(site)
            elif site.function == "configure_optimizers":
                q = site.qualified or ""
                last = q.rsplit(".", 1)[-1]
                if q.startswith(_OPTIM_PREFIXES) and last[:1].isupper() and "Scheduler" not in q \
                        and "lr_scheduler" not in q and last != "Optimizer" and ("optim" in q or last == "Adafactor"):
                    self.add("optimizer.name", last,
                             self.src(site.call, f"{site.label}(...) in {site.klass}.configure_optimizers()"),
                             self.conf(site))
            elif isinstance(site.call.func, ast.Attribute) and site.call.func.attr == "gradient_checkpointing_enable":
                self.add("memory.gradient_checkpointing", True, self.src(site.call, f"{site.label}()"),
                         self.conf(site))
        for name in sorted(self.modules):
            for node in ast.walk(self.idx.classes[name]):
                if isinstance(node, ast.Assign) and any(dotted_name(t) == "self.automatic_optimization"
                                                        for t in node.targets):
                    value = self.resolve(node.value)
                    if value is not None and value.value is False:
                        self.note(f"{self.where(node)}: {name} sets automatic_optimization = False (manual "
                                  "optimization: Trainer(accumulate_grad_batches) and gradient_clip_val do not apply)")
        from preflight.adapters.lightning_local import imported_modules

        imported_modules(self)  # the module classes of local modules the script builds

    def train_loader(self, site: CallSite) -> None:
        if site.kwarg("batch_sampler") is not None:
            return
        expr = site.arg(1, "batch_size")
        what = f"{site.label}(batch_size=...) in {site.klass}.train_dataloader(), per process"
        if expr is None and any(k.arg is None for k in site.call.keywords):
            return  # DataLoader(ds, **kwargs): the batch size may be in the dict
        if expr is None:
            self.add("batch.micro", 1, self.src(site.call, f"{what}: DataLoader default batch_size=1", "default"),
                     "medium", priority=1)
            return
        resolved = self.resolve(expr) or self.attribute(site, expr)
        if resolved is not None and _is_int(resolved.value):
            self.put("batch.micro", resolved.value, resolved, site, what, self.conf(site), priority=1)

    def attribute(self, site: CallSite, expr: ast.expr) -> Optional[Resolved]:
        """``self.batch_size`` / ``self.hparams.batch_size`` set from an ``__init__`` parameter:
        the value passed where the class is built, else the parameter's default."""
        name = dotted_name(expr) or ""
        if not name.startswith("self.") or site.klass is None:
            return None
        attr = name.rsplit(".", 1)[-1]
        cls = self.idx.classes[site.klass]
        init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None:
            return None
        param = attr
        if not name.startswith("self.hparams."):
            values = [n.value for n in ast.walk(init) if isinstance(n, ast.Assign)
                      and any(dotted_name(t) == name for t in n.targets)]
            if len(values) != 1:
                return None
            if not isinstance(values[0], ast.Name):
                return self.resolve(values[0])
            param = values[0].id
        args = init.args
        names = [a.arg for a in args.args]
        if param not in names:
            return None
        builds = [s for s in self.calls if s.name == site.klass]
        if len(builds) == 1:
            given = builds[0].arg(names.index(param) - 1, param)
            if given is not None:
                found = self.resolve(given)
                if found is None or found.kind == "cli":
                    return found
                detail = f"passed as {site.klass}({param}=...)" + (f"; {found.detail}" if found.detail else "")
                return Resolved(found.value, found.kind, found.line, found.key, detail)
        defaults = dict(zip(names[len(names) - len(args.defaults):], args.defaults))
        if param in defaults and len(builds) <= 1:
            found = self.resolve(defaults[param])
            if found is not None:
                return Resolved(found.value, found.kind, found.line, None,
                                f"default of {site.klass}.__init__({param}=...)")
        return None
