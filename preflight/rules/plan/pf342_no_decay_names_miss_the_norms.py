"""PF342 no-decay-names-miss-the-norms: a no-weight-decay name list written for BERT
(``"LayerNorm.weight"``) matched by substring against a model family whose norm weights are named
otherwise (Llama ``input_layernorm.weight``/``norm.weight``, GPT-2 ``ln_1``, OPT ``layer_norm``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# Hub id fragments (lower case) of families whose normalisation weights never contain "LayerNorm"
# (transformers modeling files: LlamaRMSNorm as input_layernorm/post_attention_layernorm/norm; GPT-2
# ln_1/ln_2/ln_f; OPT self_attn_layer_norm/final_layer_norm; BLOOM/Falcon/GPT-NeoX input_layernorm, ln_f)
_FAMILIES = ("llama", "mistral", "mixtral", "qwen", "gemma", "gpt2", "gpt-2", "opt-", "bloom", "falcon",
             "pythia", "gpt-neox", "phi-", "deepseek", "yi-", "internlm", "baichuan", "tinyllama", "vicuna",
             "codellama", "starcoder", "olmo", "smollm")
_COVERING = ("norm", "ln_", "ln.", "layer_norm", "layernorm")


def _bert_names(node: ast.AST) -> Optional[ast.AST]:
    """A list/tuple of strings naming ``LayerNorm`` (BERT's spelling) and nothing that would match
    other norms (``"norm"``, ``"layernorm"``, ``"ln_"``)."""
    if not isinstance(node, (ast.List, ast.Tuple, ast.Set)) or not node.elts:
        return None
    names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if len(names) != len(node.elts) or not any("LayerNorm" in n for n in names):
        return None
    if any(any(c in n for c in _COVERING) for n in names):
        return None
    return node


def _lowercased(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in ("lower", "casefold") for n in ast.walk(tree))


@register
class NoDecayNamesMissTheNorms(PlanRule):
    code = "PF342"
    name = "no-decay-names-miss-the-norms"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "transformers", "deepspeed")
    summary = ("A no-weight-decay list written for BERT (`\"LayerNorm.weight\"`) matched by substring against a "
               "Llama/GPT-2/OPT-style model: no norm weight matches, and every norm gain is decayed")
    explanation = """
## What it finds

In a job whose model is a family that does not name its normalisation layers `LayerNorm`
(Llama, Mistral, Qwen, Gemma: `input_layernorm.weight`, `norm.weight`; GPT-2 `ln_1`; OPT
`self_attn_layer_norm`; BLOOM, Falcon, GPT-NeoX `input_layernorm`), a list of parameter-name
fragments such as `["bias", "LayerNorm.weight"]` that the script matches against
`named_parameters()` names, with no lower-casing and no fragment (`norm`, `layernorm`,
`ln_`) that would match those names.

## Why it matters

The test is a case-sensitive substring match: `"LayerNorm.weight" in
"model.layers.0.input_layernorm.weight"` is false. The no-decay group keeps only the
biases (Llama has none, so it is empty) and weight decay is applied to every
normalisation gain, pulling it toward 0 for the whole fine-tune (DeepSpeedExamples PR
755, "deepspeed-chat: fix weight decay configuration": the list did not match OPT, Llama
or BLOOM).

## How to fix it

Match lower-cased names against the families' fragments:
`no_decay = ["bias", "layernorm", "layer_norm", "norm", "ln_"]` with
`any(nd in n.lower() for nd in no_decay)`; or select by module type (`nn.LayerNorm`,
the model's RMSNorm class) instead of by name.

## When preflight stays silent

* The model's family is not known (an id from a variable the plan cannot resolve) or is
  a BERT-style encoder that does name its norms `LayerNorm`.
* The list also holds a fragment that matches the family's norms, or the script
  lower-cases the names (`n.lower()`).
* The script never lists its parameters by name (`named_parameters`).
"""
    bad_examples = examples("preflight.rules.plan._pf342_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf342_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        ref = pctx.plan.resolve("model.ref")
        model = str(getattr(ref, "value", "") or "").lower()
        family = next((f for f in _FAMILIES if f in model.rsplit("/", 1)[-1] or model.startswith(f)), None)
        if family is None:
            return
        for script in pctx.scripts:
            text = script.source.text
            if "LayerNorm" not in text or "named_parameters" not in text or _lowercased(script.tree):
                continue
            for node in ast.walk(script.tree):
                found = _bert_names(node)
                if found is None:
                    continue
                message = (f"`{ast.unparse(found)}` selects the parameters kept out of weight decay by substring, "
                           f"but the model is `{getattr(ref, 'value', model)}`, whose normalisation weights are not "
                           "named `LayerNorm` (Llama-style `input_layernorm.weight`, `norm.weight`; GPT-2 `ln_1`; "
                           "OPT `layer_norm`): the case-sensitive match never fires, and weight decay pulls every "
                           "norm gain toward 0 (DeepSpeedExamples PR 755). Match lower-cased names against "
                           "`\"norm\"`/`\"ln_\"` (and `\"bias\"`)")
                yield pctx.code_finding(self, script, found, message)
                break
