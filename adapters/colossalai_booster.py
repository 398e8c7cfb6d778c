"""ColossalAI's Booster: how its plugin shards the job and in which precision it trains.

``booster = Booster(plugin=plugin, mixed_precision=...)`` wraps model, optimizer and loaders
(colossalai/booster/booster.py); the plugin decides the parallelism. Read from the plugin
classes (hpcaitech/ColossalAI at 4f9953b, ``colossalai/booster/plugin/``):

- ``TorchDDPPlugin()``: torch DDP (``dist.sharding`` ddp); precision from the Booster's
  ``mixed_precision="fp16"/"bf16"`` (torch AMP: amp_fp16 / amp_bf16);
- ``TorchFSDPPlugin()``: torch FSDP, full shard by default (fsdp_full);
- ``LowLevelZeroPlugin(stage=1, precision="fp16", cpu_offload=False)``: ZeRO stage 1 or 2 over
  data-parallel ranks (zero1 / zero2), 16-bit weights with fp32 master copies (fp16 / bf16), the
  optimizer on the CPU with ``cpu_offload=True``;
- ``GeminiPlugin(precision="fp16", offload_optim_frac=0.0, shard_param_frac=1.0, ...)``: chunked
  ZeRO-3 ("equal to zero-3" in its docstring with the default ``shard_param_frac=1.0``), 16-bit
  weights with fp32 masters; ``offload_optim_frac=1.0`` keeps every optimizer state on the CPU;
- ``HybridParallelPlugin(tp_size, pp_size, zero_stage=0, precision="fp16")``: ``zero_stage`` 1 or 2
  over the data-parallel group (zero1 / zero2); with stage 0 the sharding is tensor/pipeline
  parallelism, which the plan does not name, so nothing is said.

The plugin is the construct assigned to the name given as ``plugin=`` (or written inline) whose
``if``/``elif`` tests the launch line decides (``if args.plugin == "gemini": plugin =
GeminiPlugin(...)``: :meth:`ScriptIndex.truth`); with none or several live, nothing is said.
Facts are ``medium``: the plugin's documented effect under option values.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.guarded import _walk
from preflight.adapters.launch_config_reads import _live

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython

_PLUGINS = ("TorchDDPPlugin", "TorchFSDPPlugin", "LowLevelZeroPlugin", "GeminiPlugin", "HybridParallelPlugin")
_SIXTEEN = {"fp16": "fp16", "bf16": "bf16"}
_AMP = {"fp16": "amp_fp16", "bf16": "amp_bf16"}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _keyword(call: ast.Call, name: str) -> Optional[Any]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value.value if isinstance(kw.value, ast.Constant) else _UNKNOWN
    return None


_UNKNOWN = object()


def _mixed_precision(idx: Any, tree: ast.AST, booster: ast.Call) -> Optional[Any]:
    """``Booster(mixed_precision="fp16")``, or ``kwargs["mixed_precision"] = "fp16"`` under decided
    tests for ``Booster(**kwargs)`` (the ViT example's shape); None when not set, _UNKNOWN when undecided."""
    given = _keyword(booster, "mixed_precision")
    if given is not None:
        return given
    spread = [kw.value.id for kw in booster.keywords if kw.arg is None and isinstance(kw.value, ast.Name)]
    found: list[Any] = []
    for node, guards in _walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0]
            key = target.slice
            if isinstance(target.value, ast.Name) and target.value.id in spread and isinstance(key, ast.Constant) \
                    and key.value == "mixed_precision":
                state = _live(idx, guards)
                if state is None:
                    return _UNKNOWN
                if state:
                    found.append(node.value.value if isinstance(node.value, ast.Constant) else _UNKNOWN)
    return found[-1] if len(found) == 1 else (_UNKNOWN if found else None)


@register_adapter
class ColossalAIBoosterAdapter(Adapter):
    name = "colossalai_booster"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("Booster(" in s.source.text and "colossalai" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if "Booster(" in script.source.text and "colossalai" in script.source.text:
                self._script(project, plan, script)

    def _script(self, project: Project, plan: TrainingPlan, script: ParsedPython) -> None:
        idx = project.index(script)
        boosters = [n for n in ast.walk(script.tree) if isinstance(n, ast.Call) and _name(n.func) == "Booster"]
        if len(boosters) != 1:
            return
        booster = boosters[0]
        given = next((kw.value for kw in booster.keywords if kw.arg == "plugin"), None)
        live: list[ast.Call] = []
        undecided = False
        for node, guards in _walk(script.tree):
            call = None
            if isinstance(node, ast.Assign) and isinstance(given, ast.Name) and isinstance(node.value, ast.Call) \
                    and any(isinstance(t, ast.Name) and t.id == given.id for t in node.targets):
                call = node.value
            elif node is given and isinstance(node, ast.Call):
                call = node
            if call is None or _name(call.func) not in _PLUGINS:
                continue
            state = _live(idx, guards)
            if state is None:
                undecided = True
            elif state:
                live.append(call)
        if len(live) != 1 or undecided:
            return
        self._plugin(plan, script, live[0], booster, _mixed_precision(idx, script.tree, booster), idx)
        if isinstance(given, ast.Name):
            self._loader(plan, script, idx, given.id)

    def _loader(self, plan: TrainingPlan, script: ParsedPython, idx: Any, plugin: str) -> None:
        """``plugin.prepare_dataloader(dataset, batch_size, shuffle=False, seed=1024, drop_last=False,
        pin_memory=False, num_workers=0, ...)`` (colossalai/booster/plugin/dp_plugin_base.py): a
        DataLoader over a DistributedSampler; ``batch_size`` is per data-parallel rank. The loader
        assigned to a name with "train" in it, else the only one."""
        calls: list[tuple[str, ast.Call]] = []
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "prepare_dataloader" \
                    and isinstance(node.value.func.value, ast.Name) and node.value.func.value.id == plugin:
                target = node.targets[0]
                calls.append((target.id if isinstance(target, ast.Name) else "", node.value))
        trains = [c for name, c in calls if "train" in name.lower()]
        chosen = trains[0] if len(trains) == 1 else calls[0][1] if len(calls) == 1 else None
        if chosen is None:
            return
        where = str(script.source.display)
        args = {kw.arg: kw.value for kw in chosen.keywords if kw.arg}
        if len(chosen.args) > 1:
            args.setdefault("batch_size", chosen.args[1])
        batch = args.get("batch_size")
        if batch is not None:
            resolved = idx.resolve(batch)
            if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool):
                how = f": {resolved.detail}" if getattr(resolved, "detail", None) else ""
                self.add_checked(plan, "batch.micro", resolved.value,
                                 Source("code", where, chosen.lineno, "batch_size",
                                        f"{plugin}.prepare_dataloader(batch_size=...) per data-parallel rank{how}"),
                                 "medium")
        for key, default in (("num_workers", 0), ("pin_memory", False)):
            if key in args:
                node = args[key]
                value = node.value if isinstance(node, ast.Constant) else None
                if value is None or type(value) is not type(default):
                    continue
                detail = f"{plugin}.prepare_dataloader({key}={value!r})"
                kind = "code"
            else:
                value, kind = default, "default"
                detail = f"{plugin}.prepare_dataloader without {key}: {default!r} (dp_plugin_base.py)"
            self.add_checked(plan, f"data.{key}", value, Source(kind, where, chosen.lineno, key, detail), "medium")

    def _plugin(self, plan: TrainingPlan, script: ParsedPython, call: ast.Call, booster: ast.Call,
                mixed: Optional[Any], idx: Any = None) -> None:
        kind = _name(call.func)
        where = str(script.source.display)

        def src(detail: str) -> Source:
            return Source("code", where, call.lineno, None, f"{kind}(...): {detail}")

        def add(field: str, value: Any, detail: str) -> None:
            self.add_checked(plan, field, value, src(detail), "medium")

        precision = _keyword(call, "precision")
        if precision is _UNKNOWN and idx is not None:
            # ``precision=args.mixed_precision``: the launch line's value or the declared default
            # (NUS-HPC-AI-Lab/OpenDiT @ 5cbadd0 train.py:88-91,368: default "bf16")
            node = next(kw.value for kw in call.keywords if kw.arg == "precision")
            got = idx.resolve(node)
            if got is not None and isinstance(got.value, str):
                precision = got.value
        if kind == "TorchDDPPlugin":
            add("dist.sharding", "ddp", "torch DistributedDataParallel (colossalai/booster/plugin/torch_ddp_plugin.py)")
            if isinstance(mixed, str) and mixed in _AMP:
                self.add_checked(plan, "precision.mode", _AMP[mixed],
                                 Source("code", where, booster.lineno, "mixed_precision",
                                        f"Booster(mixed_precision={mixed!r}): torch autocast with {kind}"), "medium")
            elif mixed is None:
                self.add_checked(plan, "precision.mode", "fp32",
                                 Source("default", where, booster.lineno, "mixed_precision",
                                        f"Booster without mixed_precision: {kind} trains in fp32"), "medium")
            return
        if kind == "TorchFSDPPlugin":
            add("dist.sharding", "fsdp_full", "torch FSDP, FULL_SHARD by default")
            return
        if precision is None:
            precision = "fp16"
            how = "precision defaults to 'fp16' (16-bit weights, fp32 master copies, a loss scaler)"
        else:
            how = f"precision={precision!r}"
        if isinstance(precision, str) and precision in _SIXTEEN:
            add("precision.mode", _SIXTEEN[precision], how)
        if kind == "GeminiPlugin":
            shard = _keyword(call, "shard_param_frac")
            if shard is None or shard == 1.0:
                add("dist.sharding", "zero3", "chunked ZeRO-3 (shard_param_frac 1.0: 'equal to zero-3')")
            offload = _keyword(call, "offload_optim_frac")
            if offload == 1.0:
                add("dist.offload_optimizer", "cpu", "offload_optim_frac=1.0: every optimizer state on the CPU")
            elif offload is None or offload == 0.0:
                add("dist.offload_optimizer", "none", "offload_optim_frac defaults to 0.0")
        elif kind == "LowLevelZeroPlugin":
            stage = _keyword(call, "stage")
            stage = 1 if stage is None else stage
            if stage in (1, 2):
                add("dist.sharding", f"zero{stage}", f"ZeRO stage {stage} over the data-parallel ranks")
            offload = _keyword(call, "cpu_offload")
            if offload is True:
                add("dist.offload_optimizer", "cpu", "cpu_offload=True")
        elif kind == "HybridParallelPlugin":
            stage = _keyword(call, "zero_stage")
            if stage in (1, 2):
                add("dist.sharding", f"zero{stage}", f"zero_stage={stage} over the data-parallel group")
