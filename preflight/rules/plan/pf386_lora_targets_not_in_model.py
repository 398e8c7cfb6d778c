"""PF386 lora-targets-not-in-model: a LoRA ``target_modules`` list none of whose names exists in the
job's model family (Llama's ``q_proj``/``v_proj`` on GPT-2, BLOOM, Falcon, GPT-NeoX, T5 or BERT)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._lora_module_names import (
    judged_target_lists,
    model_evidence,
)

# what each family names its attention projections: the hint of the message
_HINT = {
    "gpt2": "c_attn", "gpt_bigcode": "c_attn", "bloom": "query_key_value", "falcon": "query_key_value",
    "gpt_neox": "query_key_value", "mpt": "Wqkv", "phi3": "qkv_proj", "t5": "q, v", "mt5": "q, v",
    "bert": "query, value", "roberta": "query, value", "xlm-roberta": "query, value", "distilbert": "q_lin, v_lin",
    "deberta-v2": "query_proj, value_proj", "phi": "q_proj, v_proj, dense", "gptj": "q_proj, v_proj",
    "opt": "q_proj, v_proj", "bart": "q_proj, v_proj",
}


@register
class LoraTargetsNotInModel(PlanRule):
    code = "PF386"
    name = "lora-targets-not-in-model"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers", "pytorch")
    summary = ("A LoRA `target_modules` list names no module of the job's model family (Llama's `q_proj`/`v_proj` "
               "on GPT-2, BLOOM, Falcon, T5, BERT): PEFT stops with \"Target modules ... not found in the base model\"")
    explanation = """
## What it finds

A job whose model the plan knows (`from_pretrained("gpt2")`, `--model_name_or_path
bigscience/bloom-560m` on the launch line, a config's model id: any catalog model whose
family preflight knows) and a `LoraConfig(target_modules=[...])` none of whose names is a
module of that family: the Llama names `q_proj`/`v_proj` on GPT-2 (`c_attn`), BLOOM,
Falcon or GPT-NeoX (`query_key_value`), MPT (`Wqkv`), Phi-3 (`qkv_proj`), T5 (`q`,
`v`) or BERT (`query`, `value`).

The two places are the model (launch line, config or code) and the adapter config (code);
the finding names both.

## Why it matters

PEFT matches each name against the dotted module names of the model (equal, or ending in
`.name`); when nothing matches, `get_peft_model` raises `ValueError: Target modules
[...] not found in the base model` after the model has been downloaded and loaded, on
every rank. It is one of the most reported LoRA errors: LLaMA-Factory issues 37, 43, 181,
209, 590, 750, 1785 (Baichuan `W_pack`, ChatGLM `query_key_value`), PEFT issues 294
(GPT-NeoX-20B) and 758 (`c_attn` on BioGPT), LMFlow issue 125 (BLOOM), StableLM issue 98,
LoRA-MPT issue 4 (`Wqkv`).

## How to fix it

Use the family's names (`print([n for n, _ in model.named_modules()])` lists them), or
leave `target_modules` out: PEFT then picks the family's default targets
(`TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING`), or use `target_modules="all-linear"`.

## When preflight stays silent

* The model is not in the catalog, its family is not in preflight's table of module names
  (mixture-of-experts and multimodal families, remote-code families such as ChatGLM or
  Baichuan), or the job loads models of two families.
* `target_modules` is a regular expression string or `"all-linear"`, is not a literal
  list, or is left to PEFT's default.
* At least one name matches (a list that also names modules the model lacks is PF387).
"""
    bad_examples = examples("preflight.rules.plan._pf386_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf386_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the model the job loads (``model.ref``) and each LoRA target list
        (``peft.target_modules``), with their provenance."""
        for model_type, model_fact, fact, targets, missing in judged_target_lists(pctx.plan):
            if len(missing) != len(targets):
                continue
            hint = _HINT.get(model_type, "q_proj, v_proj")
            shown = ", ".join(f"`{t}`" for t in targets)
            message = (f"LoRA `target_modules` {shown}: the job's model `{model_fact.value}` is a `{model_type}` "
                       f"model, which has no module of these names, so `get_peft_model` stops with \"Target "
                       f"modules ... not found in the base model\". Use the family's names (`{hint}` for its "
                       "attention) or leave `target_modules` out to get PEFT's default for the family")
            evidence = [e for e in (model_evidence(pctx, model_fact, model_type),) if e is not None]
            finding = pctx.fact_finding(self, fact, message, evidence=evidence)
            if finding is not None:
                yield finding
