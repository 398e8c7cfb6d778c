"""PF677 yaml-merge-key-on-omegaconf-2-0: a YAML merge key (``<<: *anchor``) in a config loaded by a
pinned OmegaConf 2.0, whose YAML loader cannot construct it."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf20 import matching_lines, pinned_omegaconf_20, yaml_texts

_MERGE = re.compile(r"^\s*(?:-\s+)?<<\s*:\s*[*\[]", re.MULTILINE)


@register
class YamlMergeKeyOnOmegaConf20(PlanRule):
    code = "PF677"
    name = "yaml-merge-key-on-omegaconf-2-0"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A YAML merge key (`<<: *anchor`) in a config of a job that pins OmegaConf 2.0: its YAML "
               "loader has no constructor for merge keys and the config fails to load")
    explanation = """
## What it finds

A line `<<: *anchor` (or `<<: [*a, *b]`) in a YAML config of a Hydra/OmegaConf job whose
project pins an OmegaConf 2.0 release (`omegaconf==2.0.6`, or `hydra-core==1.0.x`, whose
wheels require `omegaconf>=2.0.5,<2.1`).

## Why it matters

OmegaConf 2.0's `get_yaml_loader()` (omegaconf/_utils.py of the 2.0.6 wheel) registers its
own constructor for every mapping (`no_duplicates_constructor`) that builds each key with
`loader.construct_object(key_node)` before PyYAML's `construct_mapping` could flatten merge
keys; the `<<` key has the tag `tag:yaml.org,2002:merge`, which has no constructor, so loading
stops with `yaml.constructor.ConstructorError: could not determine a constructor for the tag
'tag:yaml.org,2002:merge'` (omegaconf issue 323). 2.1.0 overrides `construct_mapping` and calls
`super().construct_mapping`, which handles merge keys. The job dies while Hydra composes its
config.

## How to fix it

Upgrade to omegaconf 2.1 or later (hydra-core 1.1 or later), or copy the keys, or use
OmegaConf interpolation (`lr: ${optim.adam_base.lr}`) instead of YAML merge keys.

## When preflight stays silent

* The project does not pin an OmegaConf 2.0 release (a lower bound such as `omegaconf>=2.0`, or
  no pin at all: the installed release cannot be known).
* The merge key is in a comment.
"""
    bad_examples = examples("preflight.rules.plan._pf677_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf677_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        pinned = pinned_omegaconf_20(pctx)
        if pinned is None:
            return
        found = yaml_texts(pctx, _MERGE)
        for text, cfg in found:
            for line, _match in matching_lines(text, _MERGE):
                yield pctx.location_finding(self, cfg.path, line, (
                    f"YAML merge key `<<:` in a config loaded by OmegaConf, and the project pins {pinned}: "
                    "OmegaConf 2.0's YAML loader has no constructor for tag:yaml.org,2002:merge, so loading "
                    "this config fails with \"could not determine a constructor for the tag "
                    "'tag:yaml.org,2002:merge'\" (fixed in omegaconf 2.1). Copy the keys or use "
                    "interpolation (`${...}`) instead, or upgrade"))
