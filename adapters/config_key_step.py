"""A plain batch key the code multiplies by an accumulation count into the step's batch
(:func:`preflight.adapters.config_key_batch._step_product`): the number is one micro-step's batch over every
process. The global batch is it times that accumulation count, read from the config key of the count's name
(one integer over the job's configs; DeepSpeed's ``"auto"`` is no integer), and the per-process batch is it over
the process count where that is known.

DeepSpeed's own definition: ``train_batch_size = train_micro_batch_size_per_gpu * gradient_accumulation_steps *
data parallelism``; code that fills an ``"auto"`` config from its YAML as ``ds_config["train_batch_size"] =
batch_size * ds_config["gradient_accumulation_steps"]`` (single-process scripts: ``ds_config["train_batch_size"]
= config.batch_size * gradient_accum_steps  # Total effective batch size``, ``_ds_cfg_init["train_batch_size"] =
config.batch_size * config.gradient_accumulation_steps  # * 1``) holds the batch over all processes in the key.
A product with a process count in it, or a key also handed to a per-process name or a data loader, is the
per-process reading's (config_key_batch.py), never this one. Read, never run.
"""

from __future__ import annotations

from typing import Any, Iterable

from preflight.plan import Source, TrainingPlan


def _ints(data: Any, key: str) -> Iterable[int]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key and isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 1 << 16:
                yield v
            yield from _ints(v, key)
    elif isinstance(data, list):
        for v in data:
            yield from _ints(v, key)


def step_batch_facts(plan: TrainingPlan, rows: list[tuple], configs: list[Any]) -> None:
    """Fill ``batch.global``, ``batch.grad_accum`` and ``batch.micro`` from ``batch.step`` rows ((value, where,
    at, accumulation key) each) when they agree on one value and one accumulation key."""
    if not rows or len({(r[0], r[3] if len(r) > 3 else None) for r in rows}) != 1 or len(rows[0]) < 4:
        return
    value, (kind, display, line, key), at, accum_key = rows[0][:4]
    at = at[:-len(", plain key")] if at.endswith(", plain key") else at
    counts = set(_ints(configs, accum_key))
    if len(counts) == 1:
        accum = counts.pop()
        if plan.resolve("batch.grad_accum") is None:
            plan.add("batch.grad_accum", accum, Source(kind, display, line, key,
                     f"`{accum_key}` {accum} in the job's config: the count the code multiplies `{key}` by into the "
                     f"step's batch ({at})"), "medium", adapter="config_key_families")
        if plan.resolve("batch.global") is None:
            plan.add("batch.global", value * accum, Source(kind, display, line, key,
                     f"`{key}` {value} is one micro-step's batch over all processes: the code multiplies it by "
                     f"`{accum_key}` {accum} into the step's batch ({at})"), "medium", adapter="config_key_families")
    world = plan.resolve("dist.world_size")
    if plan.resolve("batch.micro") is None and world is not None and isinstance(world.value, int) \
            and world.value > 0 and value % world.value == 0:
        plan.add("batch.micro", value // world.value, Source(kind, display, line, key,
                 f"`{key}` {value} is one micro-step's batch over all processes ({at}), over "
                 f"{world.value} processes"), "low" if world.confidence == "low" else "medium",
                 adapter="config_key_families")
