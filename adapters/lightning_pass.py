"""Lightning script pass, the base: plan writing helpers, keyword resolution and the Trainer's
precision/devices/nodes.

Part of :mod:`preflight.adapters.lightning` (its ``_ScriptPass``), split by concern."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING

from preflight.adapters_api import CallSite, Project, Resolved, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan

if TYPE_CHECKING:
    from preflight.adapters.lightning import LightningAdapter


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


class ComposedConfig:
    """A Hydra composition seen as a config of :func:`preflight.adapters.lightning_mapping.unpacked_mapping`."""

    def __init__(self, composed: Any) -> None:
        self.composed = composed
        self.data = composed.config
        self.path = "the composed Hydra config"

    def value(self, path: tuple[str, ...]) -> tuple[bool, Any]:
        """Whether the value at ``path`` is known statically, and that value with its interpolations followed."""
        from preflight.adapters.hydra_compose import MISSING, Unknown, resolve

        node: Any = self.data
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return False, None
            node = node[part]
        if node == MISSING:
            return False, None
        got = resolve(self.data, node, path[:-1])
        return not isinstance(got, Unknown), got


class _PassBase:
    def __init__(self, adapter: LightningAdapter, project: Project, plan: Optional[TrainingPlan],
                 idx: ScriptIndex) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan  # None while detecting
        self.idx = idx
        self.script = idx.script
        self.mapped: dict[int, Optional[Resolved]] = {}  # synthetic keyword values -> their value (None: unknown)
        self.mapped_calls: list[ast.Call] = []
        self.mapped_nodes: list[ast.expr] = []  # kept alive with `mapped`
        self.mapped_from: list[str] = []
        self.mapped_how = "config"
        self.calls = [s for s in idx.calls if idx.runs(s) is not False]
        self.trainers = [s for s in self.calls if _is_lightning(s.qualified, "Trainer")]
        # pytorch_lightning 1.x ``Trainer.from_argparse_args(args, ...)`` over a parser that
        # ``Trainer.add_argparse_args(parser)`` filled: the Trainer's flags are the launch line's
        self.from_args = [s for s in self.calls if s.qualified and s.qualified.endswith(".Trainer.from_argparse_args")
                          and _is_lightning(s.qualified.rsplit(".", 1)[0], "Trainer")]
        self.clis = [s for s in self.calls if _is_lightning(s.qualified, "LightningCLI")]
        self.cli_chains: dict[int, Any] = {}  # id(call) -> what a project subclass of LightningCLI sets
        self.medium_calls: set[int] = set()
        if idx.imports_any(*LIGHTNING_MODULES):
            from preflight.adapters.lightning_cli_subclass import cli_chain, read_chain

            for s in self.calls:
                if s not in self.clis and s.last and s.last[:1].isupper() \
                        and not (s.qualified or "").startswith(("torch.", "lightning", "pytorch_lightning")):
                    chain = cli_chain(self.script.source.path, self.script.tree, s.qualified or "")
                    if chain is not None:
                        self.cli_chains[id(s.call)] = read_chain(chain)
                        self.clis.append(s)
        self.modules = {name for name, node in idx.classes.items()
                        if any(_is_lightning(idx.qualify(dotted_name(b)), b_last)
                               for b in node.bases for b_last in _MODULE_BASES)}

    def relevant(self) -> bool:
        return self.idx.imports_any(*LIGHTNING_MODULES) and bool(self.trainers or self.modules or self.clis
                                                                 or self.from_args)

    # -- helpers -------------------------------------------------------------
    def conf(self, site: CallSite, base: str = "high") -> str:
        if id(site.call) in self.medium_calls:  # a Trainer read through a project's LightningCLI subclass
            return "medium"
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
            how = "sacred config" if ".config." in (resolved.key or "") else "Trainer(**...) key"
            source = Source("config", resolved.detail, resolved.line, resolved.key, f"{what} ({how})")
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

    def resolve(self, expr: Optional[ast.AST]) -> Optional[Resolved]:
        """The index's value of ``expr``, or the config value a ``Trainer(**cfg[...])`` key holds, or a key of
        a sacred experiment's ``_config`` (:func:`preflight.adapters.config_object_sacred.sacred_key`)."""
        if expr is not None and id(expr) in self.mapped:
            return self.mapped[id(expr)]
        got = self.idx.resolve(expr) if expr is not None else None
        if got is None and isinstance(expr, ast.Subscript):
            from preflight.adapters.config_object_sacred import sacred_key

            got = sacred_key(self.idx, expr)  # a configuration not read is noted once, by the value flow
        return got

    def unpacked(self, site: CallSite) -> Optional[CallSite]:
        """``Trainer(..., **mapping)``: the call as if the mapping's keys were written as keywords, each
        value with its provenance (a config file's key, or the script's expression), found where the
        script builds the mapping (:mod:`preflight.adapters.lightning_mapping`: a section of the one
        config given to the audit, PyTorch-VAE ``run.py:45-54`` ``Trainer(**config['trainer_params'])``
        with ``-c configs/vae.yaml``; a dict built in the function; aliases and key writes before the
        call). ``self.mapped_how`` says how: ``"followed"`` when aliases or writes were followed (the
        caller reads at medium confidence). None when any mapping is not known."""
        from preflight.adapters.lightning_mapping import unpacked_mapping

        keywords = [kw for kw in site.call.keywords if kw.arg is not None]
        self.mapped_from = []
        self.mapped_how = "config"
        written = {kw.arg for kw in keywords}
        for kw in site.call.keywords:
            if kw.arg is not None:
                continue
            found = unpacked_mapping(self.script.tree, self.mapping_configs(), site.call, kw.value,
                                     Path(str(self.script.source.path)) if self.script.source.path else None)
            if found is None:
                return None
            self.mapped_from.append(found.origin)
            if found.how == "followed" and self.mapped_how != "guessed":
                self.mapped_how = "followed"
            for key, value in found.keys.items():
                if key in written:
                    continue
                if isinstance(value, ast.expr):
                    node = value
                else:
                    # a value not known (written under a test, an unresolved Hydra value): a name
                    # bound nowhere, so that no reader takes it for an absent argument
                    node = ast.copy_location(ast.Name(id="<unknown>", ctx=ast.Load()), site.call)
                    self.mapped[id(node)] = None
                    if value is not None:
                        _, raw, config, path = value
                        known = True
                        if isinstance(config, ComposedConfig):
                            if config.composed.app.guess is not None:
                                self.mapped_how = "guessed"  # the config folder is a guess (hydra_env_root)
                            known, raw = config.value(path)
                            source = config.composed.source(path, "")
                        else:
                            source = self.project.config_source(config, path)
                        if known:
                            node = ast.copy_location(ast.Constant(value=raw), site.call)
                            self.mapped[id(node)] = Resolved(
                                raw, source.kind if source.kind == "cli" else "config", source.line, source.key,
                                source.detail if source.kind == "cli" else str(source.path or config.path))
                    self.mapped_nodes.append(node)
                keywords.append(ast.keyword(arg=key, value=node))
                written.add(key)
        call = ast.copy_location(ast.Call(func=site.call.func, args=site.call.args, keywords=keywords), site.call)
        self.mapped_calls.append(call)  # kept alive: `mapped` is keyed by the ids of its nodes
        return CallSite(site.script, call, site.name, site.qualified, site.target, site.guards, site.function,
                        site.klass)

    def mapping_configs(self) -> list[Any]:
        """The config files given to the audit, and the Hydra config composed for this script's app."""
        configs: list[Any] = [c for _, c in self.project.configs]
        if self.idx.imports_any("hydra"):
            from preflight.adapters.hydra_added_keys import plan_compositions
            from preflight.adapters.hydra_apps import Composed, find_apps

            for app, composed in zip(find_apps(self.project), plan_compositions(self.project)):
                if isinstance(composed, Composed) and app.script is self.script:
                    configs.append(ComposedConfig(composed))
        return configs

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
            one = self.slurm_one_gpu(site)
            if one is not None:
                what = f"Trainer(devices=\"auto\") (the default): all visible devices; {one}"
                self.put("dist.devices_per_node", 1, Resolved(1, "derived"), site, what, "medium")
                return 1, what
            self.note(f"{self.where(site.call)}: Trainer(devices=\"auto\") (the default): all visible devices, "
                      "known only at launch")
            return None
        resolved = self.resolve(expr)
        if resolved is None:
            return None
        return self.device_count(site, conf, expr, resolved, "devices", "")

    def slurm_one_gpu(self, site: CallSite) -> Optional[str]:
        """Why ``devices="auto"`` is one GPU: the job's batch script gives its one process one GPU
        (adapters/srun_one_task.py :func:`one_gpu`), and the accelerator is auto or the GPU."""
        accel = site.kwarg("accelerator")
        if accel is not None:
            named = self.resolve(accel)
            if named is None or named.value not in ("auto", "gpu", "cuda"):
                return None
        from preflight.adapters.srun_one_task import one_gpu

        return one_gpu(self.project)

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
            from preflight.adapters.visible_devices import set_in_script

            seen = set_in_script(self.idx, site)
            one = self.slurm_one_gpu(site) if seen is None else None
            if one is not None:
                what = f"{what}: all visible devices; {one}"
                self.put("dist.devices_per_node", 1, Resolved(1, "derived"), site, what, "medium")
                return 1, what
            if seen is None:
                self.note(f"{self.where(expr)}: Trainer({flag}={raw!r}): all visible devices, known only at launch")
                return None
            count, value, line, env, unless_set = seen
            what = f"{what}: all visible devices, and line {line} sets CUDA_VISIBLE_DEVICES={value!r}"
            if unless_set:
                what += " (when the launch environment has not set it)"
                conf = "medium" if conf == "high" else conf
            resolved = env
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
