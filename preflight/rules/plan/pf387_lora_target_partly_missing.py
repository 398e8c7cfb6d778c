"""PF387 lora-target-partly-missing: a LoRA ``target_modules`` list of which some names match the
job's model and another is a name no known family has (a typo): PEFT silently skips it."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._lora_module_names import (
    MODULE_NAMES,
    OTHER_NAMES,
    entry_matches,
    judged_target_lists,
    model_evidence,
)


def _name_of_any_family(entry: str) -> bool:
    """Whether a list entry names a module of some family in the table (a list written to serve
    several families, e.g. ``["q_proj", "v_proj", "query_key_value", "c_attn"]``)."""
    return entry_matches(entry, OTHER_NAMES) or any(entry_matches(entry, names) for names in MODULE_NAMES.values())


@register
class LoraTargetPartlyMissing(PlanRule):
    code = "PF387"
    name = "lora-target-partly-missing"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers", "pytorch")
    summary = ("A LoRA `target_modules` entry is a name that no module of the job's model has (nor any other "
               "family's): PEFT adapts the other names and silently skips it")
    explanation = """
## What it finds

A job whose model family the plan knows (see PF386), and a `LoraConfig(target_modules=[...])`
of which at least one name matches a module of that family while another matches no module
of it and is not a module name of any family preflight knows: `"down_porj"`, `"o_prj"`,
`"gate"` on Llama.

## Why it matters

PEFT raises only when *no* name matches. A list with one wrong name trains: the matching
modules get adapters, the misspelled one gets none, and nothing says so (the d1 issue 6
report: Llama names on LLaDA, "`peft` doesn't throw an error because q_proj, k_proj, v_proj
are valid targets, so it just silently ignores the rest"; fixing the names added about 50%
trainable parameters). The adapter is smaller than the author planned, and the results of
the run are attributed to a configuration that never ran.

## How to fix it

Correct the name (`print([n for n, _ in model.named_modules()])` lists the module names), or
use `target_modules="all-linear"`.

## When preflight stays silent

* The family is unknown (see PF386), or no name matches at all (PF386 reports that).
* The extra name is a module of another family, including families preflight does not judge
  (Baichuan `W_pack`, Qwen-1 `w1`/`w2`, InternLM2 `wqkv`, MoE `experts`, diffusers `to_q`):
  a list written to serve several model families is deliberate.
* `target_modules` is a regular expression string, `"all-linear"`, or not a literal list.
"""
    bad_examples = examples("preflight.rules.plan._pf387_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf387_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: ``model.ref`` and each ``peft.target_modules`` list, with provenance."""
        for model_type, model_fact, fact, targets, missing in judged_target_lists(pctx.plan):
            if not missing or len(missing) == len(targets):
                continue
            unknown = [t for t in missing if not _name_of_any_family(t)]
            if not unknown:
                continue
            shown = ", ".join(f"`{t}`" for t in unknown)
            message = (f"LoRA `target_modules` entry {shown} names no module of the job's model "
                       f"`{model_fact.value}` (a `{model_type}` model): PEFT adapts the other names and silently "
                       "skips it, so the adapter is smaller than configured. Correct the name or use "
                       "`target_modules=\"all-linear\"`")
            evidence = [e for e in (model_evidence(pctx, model_fact, model_type),) if e is not None]
            finding = pctx.fact_finding(self, fact, message, evidence=evidence)
            if finding is not None:
                yield finding
