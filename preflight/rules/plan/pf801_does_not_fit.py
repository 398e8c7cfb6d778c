"""PF801 does-not-fit: the estimated peak memory per GPU exceeds the target GPU."""

from __future__ import annotations

import textwrap
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register

_TRAIN = textwrap.dedent("""
    # --- pyproject.toml
    [tool.preflight]
    target-gpu = "{gpu}"
    # --- train.py
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf"{load}){pin}
    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size={batch}, bf16=True)


    def encode(batch):
        return tokenizer(batch["text"], max_length=2048, padding="max_length", truncation=True)


    Trainer(model=model, args=args, train_dataset=data).train()
""")

PF801_BAD = [
    # a full fine-tune of a 7B model: 16 bytes per parameter before any activation
    _TRAIN.format(gpu="a100-80gb", load="", batch=4, pin="  # error: PF801"),
    # the sequence length is not known, but weights, gradients and optimizer states alone
    # (16 bytes per parameter, about 100 GiB) exceed the GPU: a lower bound
    _TRAIN.format(gpu="l4", load="", batch=4, pin="  # error: PF801").replace(
        'max_length=2048, padding="max_length", ', ""),
]
PF801_GOOD = [
    # the same job on a GPU that holds it
    _TRAIN.format(gpu="h200", load="", batch=1, pin=""),
    # no target GPU: nothing to compare with
    _TRAIN.replace('target-gpu = "{gpu}"', "").format(load="", batch=4, pin=""),
    # the sequence length is not known and the weights, gradients and optimizer states
    # fit: no estimate, no finding
    _TRAIN.format(gpu="h200", load="", batch=4, pin="").replace(
        'max_length=2048, padding="max_length", ', ""),
]


def _target(pctx: PlanContext) -> Optional[str]:
    value = pctx.plan.value("target.gpu")
    if value:
        return str(value)
    from preflight.config import SettingsError, load_settings

    try:
        return load_settings(cwd=pctx.project.root).target_gpu
    except SettingsError:
        return None


@register
class DoesNotFit(PlanRule):
    code = "PF801"
    name = "does-not-fit"
    severity = Severity.ERROR
    category = Category.MEMORY
    frameworks = ()
    summary = "The estimated peak GPU memory of the job exceeds the target GPU"
    explanation = """
## What it finds

A job whose estimated peak memory per GPU (see `preflight estimate` and
docs/estimator.md) does not fit the target GPU: `target-gpu` in `[tool.preflight]`,
or `preflight audit --gpu NAME|INSTANCE`. It fires when the verdict is `oom` (even
the low end of the estimate's interval is over the GPU's memory) or `likely-oom`
(the point estimate is over it).

## Why it matters

The job would be queued, start, load its weights and die of CUDA out-of-memory at
the first step (or, for the optimizer states, at the end of the first step), after
the GPU was paid for.

## How to fix it

`preflight estimate` with the same inputs lists the changes that would fit, with
the GiB each saves: gradient checkpointing, a smaller micro-batch with more
accumulation, an 8-bit optimizer, ZeRO/FSDP sharding, offload, LoRA/QLoRA, more or
larger GPUs.

## When preflight stays silent

* no target GPU is configured;
* the plan does not allow an estimate: the model is not in the catalog (and no
  parameter count is known), or the sequence length / image size is unknown and the
  weights, gradients and optimizer states alone fit (when they alone exceed the GPU,
  PF801 fires with that lower bound; `audit` always says why there is no estimate and
  which facts are missing);
* the verdict is `fits` or `tight` (`preflight estimate --strict` treats tight as
  a failure).
"""
    bad_examples = PF801_BAD
    good_examples = PF801_GOOD

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        target = _target(pctx)
        if not target:
            return
        from preflight.estimate.audit_hook import audit_estimate

        found = audit_estimate(pctx.plan, target)
        if found is None or found["verdict"] not in ("oom", "likely-oom"):
            return
        gib = 1024 ** 3
        bound = found.get("lower_bound")
        if found["json"] is None and bound is not None:
            # no full estimate (a fact is missing), but the parts that do not depend on it
            # already exceed the GPU: report the lower bound, saying so
            message = (f"{pctx.plan.value('model.ref')}: the weights, gradients and optimizer "
                       f"states alone need at least {bound['bytes'] / gib:.1f} GiB per GPU and "
                       f"{bound['gpu']} has {bound['memory'] / gib:.1f} GiB: oom whatever "
                       f"the missing facts are ({'; '.join(found['missing'])}). Run `preflight "
                       "estimate` with the same inputs for the changes that would fit")
            for field in ("model.ref", "batch.micro"):
                fact = pctx.plan.resolve(field)
                finding = None if fact is None else pctx.fact_finding(self, fact, message)
                if finding is not None:
                    yield finding
                    return
            return
        if found["json"] is None:
            return
        doc: dict[str, Any] = found["json"]
        lo, hi = doc["interval_bytes"]
        message = (f"{doc['model']['name']} needs about {doc['peak_bytes'] / gib:.1f} GiB per GPU "
                   f"(interval {lo / gib:.1f} .. {hi / gib:.1f} GiB, during the {doc['phase']} "
                   f"phase); {doc['gpu']['name']} has {doc['gpu']['memory_bytes'] / gib:.1f} GiB: "
                   f"{found['verdict']}. Run `preflight estimate` with the same inputs for the "
                   "changes that would fit")
        for field in ("model.ref", "batch.micro", "data.seq_len"):
            fact = pctx.plan.resolve(field)
            if fact is None:
                continue
            finding = pctx.fact_finding(self, fact, message)
            if finding is not None:
                yield finding
                return
