"""Lightning script pass: the Trainer's ``strategy`` (names, legacy flags, ``"auto"``,
DDP/FSDP/DeepSpeed strategy objects) -> dist.sharding and offloads.

Part of :mod:`preflight.adapters.lightning` (its ``_ScriptPass``), split by concern."""

from __future__ import annotations

import ast
import os
from typing import Optional

from preflight.adapters.lightning_pass import (
    _FSDP_SHARDING,
    _STAGE,
    _STRATEGY,
    _VERSION,
    _is_int,
    _is_lightning,
    _PassBase,
)

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name


class _StrategyPass(_PassBase):
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
