"""PF407 removed-quantization-kwargs: ``from_pretrained(load_in_4bit=...)`` on transformers 5."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import model_loads, version_gate
from preflight.rules.base import examples


@register
class RemovedQuantizationKwargs(PlanRule):
    code = "PF407"
    name = "removed-quantization-kwargs"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = "`from_pretrained(load_in_4bit=/load_in_8bit=)` keywords were removed in transformers 5"
    explanation = """
## What it finds

`from_pretrained(..., load_in_4bit=True)` or `load_in_8bit=True` on a model class,
in a project that declares transformers 5 or later (requirements, pyproject,
setup.py, environment.yml or a lock file; else `--transformers-version`), or
declares no version at all (then the latest release is assumed and the finding is a
warning).

## Why it matters

transformers 5 removed both keywords (huggingface/transformers#41287, "[v5]
remove load_in_4bit and load_in_8bit"): `from_pretrained` no longer quantizes
because of them and hands unknown keywords on to the model's constructor, which
rejects them. A QLoRA job written for 4.x stops at load on 5.x, or, where the
keyword is swallowed, loads a full-precision model that no longer fits.

## How to fix it

Pass a `BitsAndBytesConfig` (from transformers) as `quantization_config`:

```python
model = AutoModelForCausalLM.from_pretrained(
    name, quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                                 bnb_4bit_compute_dtype=torch.bfloat16))
```

## When preflight stays silent

* The project declares transformers 4.x (there the keywords still work, deprecated).
* `quantization_config=BitsAndBytesConfig(...)`; the keywords on a tokenizer or
  config class.
"""
    bad_examples = examples("preflight.rules.plan._pf407_examples", "PF407_BAD")
    good_examples = examples("preflight.rules.plan._pf407_examples", "PF407_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            loads = model_loads(pctx, script)
            if not loads:
                continue
            for site in loads:
                for key in ("load_in_4bit", "load_in_8bit"):
                    expr = site.kwarg(key)
                    if expr is None:
                        continue
                    gate = version_gate(pctx, "transformers", script, (5,), "5.x")
                    if gate is None:
                        continue
                    how, declared = gate
                    message = (
                        f"`{key}=` was removed from `from_pretrained` in transformers 5 ({how}): the model is "
                        "not quantized by it and the keyword reaches the model constructor. Pass "
                        "`quantization_config=BitsAndBytesConfig("
                        f"{key}=True, ...)` instead")
                    finding = pctx.code_finding(self, script, expr, message)
                    if not declared:
                        finding.severity = Severity.WARNING
                    yield finding
