"""PF515 config-softmax-into-cross-entropy: a config-built model ends in Softmax and its loss is cross-entropy."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_LOGIT_LOSSES = ("torch.nn.CrossEntropyLoss", "torch.nn.BCEWithLogitsLoss")
_ACTIVATIONS = {"torch.nn.Softmax": "torch.nn.CrossEntropyLoss", "torch.nn.LogSoftmax": "torch.nn.CrossEntropyLoss",
                "torch.nn.Sigmoid": "torch.nn.BCEWithLogitsLoss"}


@register
class ConfigSoftmaxIntoCrossEntropy(PlanRule):
    code = "PF515"
    name = "config-softmax-into-cross-entropy"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = "A config-built model ends in Softmax/Sigmoid while the config's loss expects logits"
    explanation = """
## What it finds

A Hydra/OmegaConf config whose model node (an `nn.Sequential` through `_args_`,
or a list of layers) ends with `torch.nn.Softmax` / `LogSoftmax` / `Sigmoid`,
in the same config as a loss node `torch.nn.CrossEntropyLoss` /
`BCEWithLogitsLoss`: the code-level rule PF112 for models and losses chosen in YAML.

## Why it matters

These losses apply (log-)softmax or sigmoid themselves. Fed probabilities, they
squash them a second time: gradients shrink, training crawls, and accuracy
stalls far below what the model can reach (on CIFAR-10, about 35% against 60%).

## How to fix it

Drop the last activation from the model config (apply it only at inference).

## When preflight stays silent

* The loss is `NLLLoss` after `LogSoftmax`, or `BCELoss` after `Sigmoid`.
"""
    bad_examples = examples("preflight.rules.plan._pf515_examples", "PF515_BAD")
    good_examples = examples("preflight.rules.plan._pf515_examples", "PF515_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config in hydra_yaml_configs(pctx):
            losses = {node.get("_target_") for _, node in walk(config.data)} & set(_LOGIT_LOSSES)
            if not losses:
                continue
            for path, node in walk(config.data):
                layers = node.get("_args_") if isinstance(node.get("_args_"), list) else None
                if not layers or not isinstance(layers[-1], dict):
                    continue
                last = layers[-1].get("_target_")
                loss = _ACTIVATIONS.get(str(last))
                if loss in losses:
                    yield pctx.config_finding(
                        self, config, (*path, "_args_", len(layers) - 1, "_target_"),
                        f"the model ends in `{last}` and the config's loss is `{loss}`, which applies it again: the "
                        "loss sees probabilities squashed twice and training stalls. Remove the last activation "
                        "from the model")
