"""DeepSpeed bucket sizes written ``"auto"``, as the HF Trainer or Accelerate fills them from the model.

``"auto"`` is no DeepSpeed value: the HF Trainer (``HfTrainerDeepSpeedConfig``, transformers
``integrations/deepspeed.py`` ``trainer_config_finalize``) and Accelerate (``_prepare_deepspeed``) fill
it before DeepSpeed starts. From the model's ``config.hidden_size`` ``h`` they set
``reduce_bucket_size = h * h`` and, under ZeRO-3 only, ``stage3_prefetch_bucket_size = 0.9 * h * h``
(/work/shared/research/frameworks.md, DeepSpeed section: "HF fills ... from model.config.hidden_size").
AetherCortex/Llama-X ``src/configs/deepspeed_config.json:15-16`` (both ``"auto"``) with
``huggyllama/llama-7b`` (h = 4096): 16777216 and 15099494.

The deepspeed adapter records each ``"auto"`` bucket it meets (:data:`AUTO_BUCKETS` in the project's
cache); once every adapter has run, the job's model (the plan's ``model.ref``) is looked up in the
built-in catalog (no network) for its hidden size. No model, a model not in the catalog, or no
``"auto"``: nothing is said. ``medium``: the model is the plan's reading and the filler is the one the
job runs (a config with ``"auto"`` reaches DeepSpeed only through one of the two)."""

from __future__ import annotations

from typing import Any, Optional

from preflight.plan import FIELDS, Source, TrainingPlan

#: project cache key: list of (plan field, config path, line, key path, ZeRO stage)
AUTO_BUCKETS = "deepspeed.auto_buckets"


def record(project: Any, field: str, path: str, line: Optional[int], key: str, stage: Any) -> None:
    cache = getattr(project, "cache", None)
    if isinstance(cache, dict):
        cache.setdefault(AUTO_BUCKETS, []).append((field, path, line, key, stage))


def _hidden_size(ref: Any) -> Optional[tuple[int, str]]:
    if not isinstance(ref, str) or not ref.strip():
        return None
    try:
        from preflight import architectures

        arch = architectures.lookup(ref)
    except (ImportError, AttributeError, ValueError):
        return None
    hidden = getattr(arch, "hidden_size", None) if arch is not None else None
    if not isinstance(hidden, int) or isinstance(hidden, bool) or hidden <= 0:
        return None
    return hidden, str(getattr(arch, "name", ref))


def fill_auto_buckets(plan: TrainingPlan, project: Any) -> None:
    cache = getattr(project, "cache", None)
    found = cache.get(AUTO_BUCKETS) if isinstance(cache, dict) else None
    if not found:
        return
    model = plan.resolve("model.ref")
    got = _hidden_size(model.value if model is not None else None)
    if got is None:
        return
    hidden, name = got
    for field, path, line, key, stage in found:
        if field not in FIELDS or plan.resolve(field) is not None:
            continue
        if field == "dist.reduce_bucket_size":
            value, how = hidden * hidden, f"hidden_size x hidden_size = {hidden} x {hidden}"
        elif field == "dist.stage3_prefetch_bucket_size" and stage == 3:
            value, how = int(0.9 * hidden * hidden), f"0.9 x hidden_size^2 = 0.9 x {hidden}^2 (ZeRO-3)"
        else:
            continue
        plan.add(field, value,
                 Source("derived", path, line, key,
                        f"{key} is \"auto\": the HF Trainer or Accelerate fills {how} from the model's config "
                        f"({name}, hidden_size {hidden}, from the built-in catalog)"),
                 "medium", adapter="derive")
