"""PF485 pad-token-not-on-classifier-config: the pad token is set on the tokenizer only, and a
decoder's sequence-classification head reads it from the model config."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, const_str, names_called
from preflight.rules._pf484_support import assigned_to, model_loads, uses_a_trainer
from preflight.rules.base import Rule, examples

# trl trainers that copy the tokenizer's pad id into the (reward) model's config themselves
# (trl/trainer/reward_trainer.py: `model.config.pad_token_id = processing_class.pad_token_id`; grpo/rloo for
# their reward models)
_TRL_SETS_PAD = frozenset({"RewardTrainer", "GRPOTrainer", "RLOOTrainer", "OnlineDPOTrainer", "PRMTrainer",
                           "PPOTrainer", "PPOv2Trainer", "NashMDTrainer", "XPOTrainer"})
# encoders whose configs carry a pad_token_id
_ENCODER = re.compile(r"bert|electra|deberta|xlm|mpnet|funnel|longformer|bart|t5|ernie|minilm", re.IGNORECASE)


def _tokenizer_pad_set(ctx: FileContext) -> Optional[ast.AST]:
    """``tok.pad_token = ...`` / ``tok.pad_token_id = ...`` on something that is not a config, or
    ``tok.add_special_tokens({"pad_token": ...})``."""
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr in ("pad_token", "pad_token_id") and \
                    "config" not in ast.unparse(target.value).lower():
                return node
    for call in ctx.nodes(ast.Call):
        if call_last(call) == "add_special_tokens" and call.args and isinstance(call.args[0], ast.Dict) \
                and any(const_str(k) == "pad_token" for k in call.args[0].keys):
            return call
    return None


def _config_pad_set(ctx: FileContext) -> bool:
    """The model config's pad id is set: an assignment to ``<...config...>.pad_token_id``, a
    ``pad_token_id=`` keyword, or ``setattr(..., "pad_token_id", ...)``."""
    for node in ctx.nodes(ast.Attribute):
        if node.attr == "pad_token_id" and isinstance(node.ctx, ast.Store) and \
                "config" in ast.unparse(node.value).lower():
            return True
    for kw in ctx.nodes(ast.keyword):
        if kw.arg == "pad_token_id":
            return True
    for call in ctx.nodes(ast.Call):  # setattr(model.config, "pad_token_id", ...), a helper given the name
        if any(const_str(arg) == "pad_token_id" for arg in call.args):
            return True
    return False


def _pools_with_explicit_pad(ctx: FileContext, loads: list[ast.Call]) -> bool:
    """The classifier is never run through its own ``forward``: the file hands it, with the tokenizer's pad id,
    to a helper that finds the last tokens itself (trl's and open-instruct's
    ``get_reward(model, query_responses, tokenizer.pad_token_id, context_length)``, which runs the backbone and
    ``model.score`` and computes the sequence lengths from the pad id it is given), never calls it directly
    and gives it to no Trainer."""
    names = {assigned_to(ctx, load) for load in loads}
    if None in names or uses_a_trainer(ctx):
        return False
    handed = False
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in names:
            return False  # `model(**batch)`: the forward reads config.pad_token_id
        args = [*call.args, *(kw.value for kw in call.keywords)]
        if any(isinstance(a, ast.Name) and a.id in names for a in args) and any(
                isinstance(a, ast.Attribute) and a.attr == "pad_token_id" for a in args):
            handed = True
    return handed


def _encoder_load(call: ast.Call) -> bool:
    recv = call.func.value if isinstance(call.func, ast.Attribute) else None
    name = ast.unparse(recv) if recv is not None else ""
    model_id = const_str(call.args[0]) if call.args else None
    return bool(_ENCODER.search(name.replace("ForSequenceClassification", ""))
                or (model_id is not None and _ENCODER.search(model_id)))


@register
class PadTokenNotOnClassifierConfig(Rule):
    code = "PF485"
    name = "pad-token-not-on-classifier-config"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("ForSequenceClassification",)
    summary = "the pad token is set on the tokenizer only; the sequence-classification head reads config.pad_token_id"
    explanation = """
## What it finds

A script that gives its tokenizer a pad token (`tokenizer.pad_token = tokenizer.eos_token`,
`tokenizer.pad_token_id = ...`, `add_special_tokens({"pad_token": ...})`: the model has
none) and loads a `*ForSequenceClassification` model with `from_pretrained`, but never sets
the model's `config.pad_token_id` (no `model.config.pad_token_id = ...`, no
`pad_token_id=` keyword).

## Why it matters

The decoder classifiers (`LlamaForSequenceClassification`, `MistralFor...`, `Qwen2For...`,
`GPT2For...`: transformers' `modeling_llama.py`/`modeling_gpt2.py`, and the generic
sequence-classification head of the 4.4x/5 releases) pool the logits of each row's last
non-pad token, found through `self.config.pad_token_id`, not the tokenizer's. With the
config's pad id `None`, `forward` raises "Cannot handle batch sizes > 1 if no padding token
is defined." at the first batch larger than one (transformers#34055, on Llama-3.1); when it
does not raise (batch 1) every row is read at its last position.

## How to fix it

`model.config.pad_token_id = tokenizer.pad_token_id` after loading the model (or pass
`pad_token_id=tokenizer.pad_token_id` to `from_pretrained`).

## When preflight stays silent

* The file sets `config.pad_token_id`, passes a `pad_token_id=` keyword or a `"pad_token_id"` argument
  (`setattr(model.config, "pad_token_id", ...)`) anywhere, or trains
  through a trl trainer that copies the pad id into the model config itself
  (`RewardTrainer`, and the reward models of `GRPOTrainer`/`RLOOTrainer`/`OnlineDPOTrainer`
  and its `NashMDTrainer`/`XPOTrainer`), or a class whose name ends with one of them.
* The classifier never runs its own `forward`: the file hands it, together with the tokenizer's
  `pad_token_id`, to a helper that pools the last tokens itself (trl's and open-instruct's
  `get_reward(model, query_responses, tokenizer.pad_token_id, context_length)`), calls it nowhere
  directly and gives it to no Trainer.
* The classifier is an encoder whose config carries a pad id (BERT, RoBERTa, DeBERTa,
  ELECTRA, ... by class name or by a literal checkpoint name).
"""
    bad_examples = examples("preflight.rules.code._pf485_examples", "PF485_BAD")
    good_examples = examples("preflight.rules.code._pf485_examples", "PF485_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if any(name.endswith(trl) for name in names_called(ctx) for trl in _TRL_SETS_PAD):
            return  # also their subclasses (`GaudiGRPOTrainer`)
        loads = [c for c in model_loads(ctx) if "ForSequenceClassification" in ast.unparse(c.func)]
        if not loads or any(_encoder_load(c) for c in loads):
            return
        pad = _tokenizer_pad_set(ctx)
        if pad is None or _config_pad_set(ctx) or _pools_with_explicit_pad(ctx, loads):
            return
        yield ctx.finding(
            self, loads[0],
            "the pad token is set on the tokenizer only: this sequence-classification model finds each row's "
            "last token through `model.config.pad_token_id`, which stays None, so a batch larger than one raises "
            "\"Cannot handle batch sizes > 1 if no padding token is defined\". Set "
            "`model.config.pad_token_id = tokenizer.pad_token_id`",
            evidence=[ctx.evidence(pad, "the tokenizer's pad token is set here")])
