"""PF148 zero3-init-partitions-frozen-models: under an accelerate DeepSpeed config with ZeRO-3 and
``zero3_init_flag: true``, a frozen model loaded after ``Accelerator()`` and never prepared is partitioned
by ``zero.Init`` and its forward passes see empty shards."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._zero3_frozen_loads import frozen_unprepared_loads


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _zero3_init_config(pctx: PlanContext) -> Optional[Any]:
    """An accelerate config of the job: DeepSpeed ZeRO-3 with ``zero3_init_flag: true`` set in the file."""
    from preflight.adapters.accelerate import is_accelerate_config

    argv = list(pctx.project.argv)
    if "--zero3_init_flag" in argv:
        return None  # the launch line decides; its value is read by the launcher, not here
    for config in pctx.configs:
        data = config.data
        if not isinstance(data, dict) or not is_accelerate_config(data):
            continue
        ds = data.get("deepspeed_config")
        if str(data.get("distributed_type", "")).upper() != "DEEPSPEED" or not isinstance(ds, dict):
            continue
        if "deepspeed_config_file" in ds:
            continue  # the stage lives in another file
        if str(ds.get("zero_stage", "")) == "3" and _truthy(ds.get("zero3_init_flag")):
            return config
    return None


@register
class Zero3InitPartitionsFrozenModels(PlanRule):
    code = "PF148"
    name = "zero3-init-partitions-frozen-models"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "deepspeed")
    summary = ("a frozen model loaded after `Accelerator()` under ZeRO-3 with `zero3_init_flag: true` and never "
               "prepared is partitioned by `zero.Init`: its forward sees empty parameter shards")
    explanation = """
## What it finds

An accelerate config of the job with `distributed_type: DEEPSPEED`, `zero_stage: 3` and
`zero3_init_flag: true`, and a script that, after `Accelerator()` in the same function,
loads a model with `X.from_pretrained(...)`, freezes it (`model.requires_grad_(False)`) and never
passes it to `accelerator.prepare` (a frozen text encoder or VAE next to the trained UNet, a
frozen reference or teacher model).

## Why it matters

With `zero3_init_flag: true`, `Accelerator()` registers the DeepSpeed config with transformers,
and every `from_pretrained` that follows builds the model under `deepspeed.zero.Init`: each
process keeps only its shard of every parameter and the module's weights are empty
placeholders until a DeepSpeed engine gathers them. A model that never goes through
`accelerator.prepare` has no engine, so its forward runs on the empty shards and fails
("weight should be 2-D", size mismatches) or the job breaks in the training step (accelerate issue
3170, diffusers text-to-image with a frozen `CLIPTextModel` and VAE). diffusers' training scripts
load their frozen models under `deepspeed_zero_init_disabled_context_manager()` for that reason.

## How to fix it

Load the frozen models with ZeRO-3 init turned off:
`with ContextManagers([AcceleratorState().deepspeed_plugin.zero3_init_context_manager(enable=False)]):`
(diffusers' `deepspeed_zero_init_disabled_context_manager()`), or load them before
`Accelerator()` is created, or set `zero3_init_flag: false`.

## When preflight stays silent

* The config is not ZeRO-3, `zero3_init_flag` is not true in it, the stage lives in a
  `deepspeed_config_file`, or the launch line sets `--zero3_init_flag` itself.
* The load is inside a `with` whose context names `zero3_init_context_manager`, `zero_init` or
  `ContextManagers`, or comes before `Accelerator()` in its function.
* The model is passed to `accelerator.prepare` (or `deepspeed.initialize`), or is never frozen with
  `requires_grad_(False)` (a trained model is prepared).
* Tokenizers, schedulers, processors and configs (`from_pretrained` loads no weights).
"""
    bad_examples = examples("preflight.rules.plan._pf148_examples", "PF148_BAD")
    good_examples = examples("preflight.rules.plan._pf148_examples", "PF148_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        config = None
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "from_pretrained" not in text or "Accelerator" not in text or "requires_grad_" not in text:
                continue
            for load, target, accel, freeze in frozen_unprepared_loads(script.tree):
                config = config if config is not None else _zero3_init_config(pctx)
                if config is None:
                    return
                message = (
                    f"`{target}` is loaded with `from_pretrained` after `Accelerator()` (line {accel.lineno}) while "
                    f"{config.path} turns on ZeRO-3 with zero3_init_flag: true, so it is built under "
                    "`deepspeed.zero.Init` and each process keeps only a shard of its weights; it is frozen (line "
                    f"{freeze.lineno}) and never passed to `accelerator.prepare`, so no engine gathers them and its "
                    "forward runs on empty shards (accelerate issue 3170). Load it under "
                    "`plugin.zero3_init_context_manager(enable=False)` (diffusers' "
                    "`deepspeed_zero_init_disabled_context_manager()`) or before `Accelerator()`")
                evidence = [pctx.config_evidence(config, ["deepspeed_config", "zero3_init_flag"],
                                                 "ZeRO-3 init turned on here")]
                yield pctx.code_finding(self, script, load, message, evidence=evidence)
