"""The config-file features of ``_release_defects`` (PF385): conditions on a DeepSpeed config's keys,
and Hydra's defaults list against the launch command.

A DeepSpeed condition is ``(dotted key, op, value)`` (``gt``, ``truthy``, ``falsy``, ``eq``, ``ne``,
``stage_in``) or ``"cpu_offload"`` (the optimizer offloaded to the CPU, in either spelling). An
``"auto"`` value is filled by the Hugging Face integration: the accumulation steps are then read from
the plan, ``gradient_clipping`` from ``max_grad_norm`` (1.0 unless the plan knows better: treated as
on), and any other ``"auto"`` is unknown, which never meets a condition.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Optional

from preflight.plan_rules import PlanContext
from preflight.rules.plan._pf508_support import literal_number

if TYPE_CHECKING:
    from preflight.loaders import LoadedConfig

_MISSING = object()
_DEFAULTS = {"gradient_accumulation_steps": 1, "gradient_clipping": 0.0, "zero_optimization.stage": 0}
_PLAN_FOR_AUTO = {"gradient_accumulation_steps": "batch.grad_accum"}


def _get(block: Mapping[str, Any], dotted: str) -> Any:
    node: Any = block
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return _DEFAULTS.get(dotted, _MISSING)
        node = node[part]
    return node


def _resolved(pctx: PlanContext, dotted: str, value: Any) -> Any:
    if value != "auto":
        return value
    if dotted in _PLAN_FOR_AUTO:
        fact = pctx.plan.resolve(_PLAN_FOR_AUTO[dotted])
        return fact.value if fact is not None else _MISSING
    if dotted == "gradient_clipping":
        return 1.0  # TrainingArguments.max_grad_norm's default, which the integration writes here
    return _MISSING


def _truth(value: Any) -> Optional[bool]:
    if value is _MISSING or value is None:
        return None if value is _MISSING else False
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.lower())
    return bool(value)


def _cpu_offload(block: Mapping[str, Any]) -> bool:
    zero = block.get("zero_optimization")
    if not isinstance(zero, Mapping):
        return False
    offload = zero.get("offload_optimizer")
    if isinstance(offload, Mapping) and str(offload.get("device", "")).lower() == "cpu":
        return True
    return _truth(zero.get("cpu_offload")) is True


def _meets(pctx: PlanContext, block: Mapping[str, Any], condition: Any, values: dict[str, Any]) -> bool:
    if condition == "cpu_offload":
        return _cpu_offload(block)
    dotted, op, want = condition
    value = _resolved(pctx, dotted, _get(block, dotted))
    if op == "gt":
        number = literal_number(value)
        ok = number is not None and number > want
    elif op == "truthy":
        ok = _truth(value) is True
    elif op == "falsy":
        ok = (value is _MISSING and _get(block, dotted) != "auto") or _truth(value) is False
    elif op == "eq":
        ok = value is not _MISSING and str(value).lower() == want
    elif op == "ne":
        ok = (value is _MISSING and _get(block, dotted) != "auto") or (value is not _MISSING
                                                                       and str(value).lower() != want)
    elif op == "stage_in":
        number = literal_number(value)
        ok = number is not None and int(number) in want
        if ok:
            values.setdefault("stage", int(number))  # type: ignore[arg-type]
    else:  # pragma: no cover - the table is checked by the tests
        raise ValueError(f"unknown op {op}")
    if ok and dotted == "gradient_accumulation_steps":
        values.setdefault("n", value)
    return ok


def deepspeed(pctx: PlanContext, params: Mapping[str, Any]
              ) -> Iterator[tuple[LoadedConfig, tuple[Any, ...], dict[str, Any]]]:
    """Each DeepSpeed block of the job that meets every condition: (config, key path to report, values)."""
    for config, block, prefix in pctx.deepspeed_configs():
        values: dict[str, Any] = {}
        if all(_meets(pctx, block, c, values) for c in params["when"]):
            report = params["report"]
            shown = _get(block, report)
            values.setdefault("value", shown if shown is not _MISSING else "")
            yield config, (*prefix, *report.split(".")), values


_APPEND = re.compile(r"^\+(?!\+)([\w/.-]+)=(\S+)$")


def hydra_append_before_override(pctx: PlanContext, params: Mapping[str, Any]
                                 ) -> Iterator[tuple[LoadedConfig, tuple[Any, ...], dict[str, Any]]]:
    """A primary Hydra config whose defaults list holds an ``override`` entry, and a launch command that
    appends a config group of its folder with ``+group=option``."""
    appended = [m for m in (_APPEND.match(tok) for tok in pctx.project.argv) if m is not None]
    if not appended:
        return
    for config in pctx.configs:
        defaults = config.data.get("defaults") if isinstance(config.data, dict) else None
        if not isinstance(defaults, list):
            continue
        folder = Path(config.path).parent
        if not folder.is_absolute():
            folder = Path(pctx.project.root) / folder
        for i, item in enumerate(defaults):
            if not (isinstance(item, dict) and any(str(k).startswith("override ") for k in item)):
                continue
            for match in appended:
                if (folder / match.group(1)).is_dir():
                    yield config, ("defaults", i), {"arg": match.group(0)}
                    return


CONFIG_FEATURES = {
    "deepspeed": deepspeed,
    "hydra_append_before_override": hydra_append_before_override,
}
