"""PF1211 grpo-generations-do-not-divide-batch: a TRL GRPO job whose completions per optimisation step
(per-device batch x processes, x accumulation or ``steps_per_generation`` on recent TRL, or the given
``generation_batch_size``) cannot be split into whole groups of ``num_generations``: TRL refuses it with a
ValueError, on TRL 0.14-0.17 only once the trainer is built after the model (and vLLM) were loaded."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_OWNERS = frozenset({"GRPOConfig"})
_DEFAULTS = {"per_device_train_batch_size": 8, "num_generations": 8, "gradient_accumulation_steps": 1}
_KEYS = ("per_device_train_batch_size", "num_generations", "gradient_accumulation_steps",
         "generation_batch_size", "steps_per_generation")


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _world(pctx: PlanContext) -> Optional[Any]:
    world = pctx.plan.resolve("dist.world_size")
    value = _int(getattr(world, "value", None))
    if world is None or value is None or value < 1 or getattr(world, "confidence", "high") == "low":
        return None  # a low count is a guess (`deepspeed --num_gpus 4` may run on several nodes)
    return world


@register
class GrpoGenerationsDoNotDivideBatch(PlanRule):
    code = "PF1211"
    name = "grpo-generations-do-not-divide-batch"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("trl",)
    summary = ("`GRPOConfig`: the completions of one generation batch (per-device batch x processes x steps per "
               "generation) do not split into whole groups of `num_generations`, or `num_generations` is below "
               "2: TRL stops with a ValueError before training")
    explanation = """
## What it finds

A `GRPOConfig(...)` call whose batch numbers preflight can read (a literal, a module constant,
an argparse default or the launch command), in a job whose launch gives the number of
processes, where the generation batch is not a multiple of `num_generations` (default 8), or
`num_generations` is below 2. The generation batch is:

* TRL 0.18 and later (and when no TRL version is pinned): `generation_batch_size` if given,
  else `per_device_train_batch_size` (default 8) x processes x `steps_per_generation`
  (default: `gradient_accumulation_steps`);
* TRL 0.17 pinned: per-device batch x processes x `gradient_accumulation_steps`;
* TRL 0.14-0.16 pinned: per-device batch x processes.

## Why it matters

GRPO scores each prompt's `num_generations` completions against each other, so every batch of
completions must hold whole groups. TRL checks it and refuses the run ("The global train batch
size (1 x 1) must be evenly divisible by the number of generations per prompt (8)"; from 0.18
"generation_batch_size (...) must be divisible by num_generations (...)"). On TRL 0.14-0.17 the
check runs in `GRPOTrainer.__init__`, after the policy, the reference model and vLLM were loaded
on every GPU; a job queued for hours on a cluster dies at once. It is one of the most reported
GRPO errors: huggingface/trl issues 2858 and 3061, huggingface/open-r1 issues 236 and 249 (one
GPU kept for vLLM leaves 7 training processes, and 7 x 1 is not a multiple of 8),
modelscope/ms-swift issue 3980 (`num_generations=1` on one GPU), gensyn-ai/rl-swarm issue 240,
OpenManus/OpenManus-RL issue 21, wyf3/llm_related issue 13.

## How to fix it

Make the generation batch a multiple of `num_generations`: raise
`per_device_train_batch_size` (it counts completions, not prompts), `gradient_accumulation_steps`
or `steps_per_generation` on recent TRL, or choose `num_generations` among the divisors (at
least 2).

## When preflight stays silent

* The number of processes is unknown (the script is audited without its launch command) or
  only guessed (`deepspeed --num_gpus 4` without `--num_nodes` may run on several nodes), or
  one of the numbers cannot be read; `**kwargs` whose keys are not visible.
* No TRL version is pinned: only the most lenient rule (TRL 0.18+, accumulation counted) is
  applied, so a batch that only older releases refuse is not reported.
* The project pins TRL older than 0.14 (no GRPO).
"""
    bad_examples = examples("preflight.rules.plan._pf1211_examples", "PF1211_BAD")
    good_examples = examples("preflight.rules.plan._pf1211_examples", "PF1211_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world_fact = _world(pctx)
        if world_fact is None:
            return
        for script in pctx.scripts:
            idx = pctx.index(script)
            version = pctx.version("trl", script)
            pinned = version is not None and version.how == "pinned"
            if pinned and not version.at_least(0, 14):
                continue
            for site in idx.calls:
                q = site.qualified or ""
                if not q.startswith("trl.") or (site.last or "") not in _OWNERS:
                    continue
                if idx.runs(site) is False:
                    continue
                if any(kw.arg is None for kw in site.call.keywords) and not _splat_known(site):
                    continue
                values: dict[str, Optional[int]] = {}
                unknown = False
                for key in _KEYS:
                    expr = site.kwarg(key)
                    if expr is None:
                        values[key] = _DEFAULTS.get(key)
                        continue
                    found = idx.resolve(expr)
                    value = _int(found.value) if found is not None else None
                    if value is None or (value < 1 and key != "num_generations"):
                        if not (found is not None and found.value is None and key in (
                                "generation_batch_size", "steps_per_generation")):
                            unknown = True
                        values[key] = None
                        continue
                    values[key] = value
                if unknown:
                    continue
                if site.kwarg("num_generations") is None and site.kwarg("per_device_train_batch_size") is None:
                    continue  # both defaults: 8 x world always holds groups of 8
                message = _message(values, world_fact, version, pinned)
                if message is not None:
                    anchor = site.kwarg("num_generations") or site.kwarg("per_device_train_batch_size") or site.call
                    yield pctx.code_finding(self, script, anchor, f"`GRPOConfig`: {message}")
        yield from self._configs(pctx, world_fact)

    def _configs(self, pctx: PlanContext, world_fact: Any) -> Iterable[Finding]:
        """A GRPO recipe YAML/JSON (open-r1's ``--config recipe.yaml``, read by ``TrlParser``) in a
        job whose script builds a GRPO trainer, when the launch line overrides none of its numbers."""
        grpo_scripts = [s for s in pctx.scripts if any(
            (site.qualified or "").startswith("trl.") and site.last in ("GRPOConfig", "GRPOTrainer")
            for site in pctx.index(s).calls)]
        if not grpo_scripts:
            return
        argv = " ".join(pctx.project.argv or ())
        if any(f"--{key}" in argv for key in _KEYS):
            return
        version = pctx.version("trl", grpo_scripts[0])
        pinned = version is not None and version.how == "pinned"
        if pinned and not version.at_least(0, 14):
            return
        for config in pctx.configs:
            data = config.data
            if not isinstance(data, dict) or "num_generations" not in data:
                continue
            values: dict[str, Optional[int]] = {}
            for key in _KEYS:
                raw = data.get(key, _DEFAULTS.get(key))
                values[key] = _int(raw)
                if raw is not None and values[key] is None:
                    break
            else:
                if any(values[k] is None for k in ("per_device_train_batch_size", "num_generations",
                                                   "gradient_accumulation_steps")):
                    continue
                message = _message(values, world_fact, version, pinned)
                if message is not None:
                    yield pctx.config_finding(self, config, ("num_generations",), f"GRPO recipe: {message}")


def _message(values: dict[str, Optional[int]], world_fact: Any, version: Any, pinned: bool) -> Optional[str]:
    """Why TRL refuses these numbers at this world size, or None when it takes them."""
    world = int(world_fact.value)
    gens, per_device, accum = (values["num_generations"], values["per_device_train_batch_size"],
                               values["gradient_accumulation_steps"])
    if gens is None or per_device is None or accum is None:
        return None
    if pinned and not version.at_least(0, 17):
        batch, how = per_device * world, f"{per_device} per device x {world} processes"
    elif pinned and not version.at_least(0, 18):
        batch = per_device * world * accum
        how = f"{per_device} per device x {world} processes x {accum} accumulation steps"
    elif values.get("generation_batch_size") is not None:
        batch, how = int(values["generation_batch_size"] or 0), "`generation_batch_size`"
    else:
        steps = values.get("steps_per_generation") or accum
        batch = per_device * world * steps
        how = f"{per_device} per device x {world} processes x {steps} steps per generation"
    version_text = (version.describe() if version is not None and pinned
                    else "no TRL version pinned, so the most lenient rule (TRL 0.18+) is applied")
    if gens < 2:
        return (f"`num_generations={gens}`: GRPO compares each prompt's completions with each other and TRL "
                f"refuses fewer than 2 generations per prompt with a ValueError; use 2 or more ({version_text})")
    if batch % gens == 0:
        return None
    valid = [n for n in range(2, batch + 1) if batch % n == 0]
    world_text = f"{world} process{'es' if world != 1 else ''} ({world_fact.source.detail or 'launch'})"
    return (f"one generation batch holds {batch} completions ({how}; {world_text}), which is not a multiple "
            f"of `num_generations={gens}`: TRL stops with a ValueError before training ({version_text}); valid "
            f"`num_generations` here: {valid or 'none'}, or raise the per-device batch (it counts completions, "
            "not prompts) or the steps per generation")


def _splat_known(site: Any) -> bool:
    """A ``**options`` spread whose keys :mod:`preflight.call_splat` can read (a dict literal)."""
    from preflight.call_splat import keyword_through_splat

    tree = getattr(site.script, "tree", None)
    return keyword_through_splat(tree, site.call, "num_generations") is not None
