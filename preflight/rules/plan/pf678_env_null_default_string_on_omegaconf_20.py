"""PF678 env-null-default-string-on-omegaconf-2-0: ``${env:VAR,null}`` under a pinned OmegaConf 2.0
resolves to the string "null", not None, when VAR is not set."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf20 import matching_lines, pinned_omegaconf_20, yaml_texts

_ENV_NULL = re.compile(r"\$\{env:\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(null|Null|NULL|None|~)\s*\}")


@register
class EnvNullDefaultStringOnOmegaConf20(PlanRule):
    code = "PF678"
    name = "env-null-default-string-on-omegaconf-2-0"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`${env:VAR,null}` in a config of a job that pins OmegaConf 2.0 gives the string \"null\", not "
               "None, when VAR is not set")
    explanation = """
## What it finds

An interpolation `${env:VAR,null}` (or with the default `None` or `~`) in a YAML config of a
Hydra/OmegaConf job whose project pins an OmegaConf 2.0 release (`omegaconf==2.0.x`, or
`hydra-core==1.0.x`, whose wheels require `omegaconf>=2.0.5,<2.1`).

## Why it matters

OmegaConf 2.0 passes resolver arguments as plain strings, and its `env` resolver
(omegaconf/omegaconf.py of the 2.0.6 wheel) returns `decode_primitive(default)` when the
variable is not set; `decode_primitive` turns only booleans, ints and floats into values, so
the default `null` comes back as the **string** `"null"` (omegaconf issue 230, called a bug by
the maintainer; 2.1 parses resolver arguments with its grammar and adds `oc.env`). A
`cfg.model.pretrained is not None` test is then true and the job tries to load a checkpoint
named "null", or an optional feature is switched on with the value "null".

## How to fix it

Leave the default out of the interpolation and write `pretrained: null` (overridable from
the command line), compare against the string, or upgrade to omegaconf 2.1+ and use
`${oc.env:VAR,null}`.

## When preflight stays silent

* The project does not pin an OmegaConf 2.0 release (a lower bound, or no pin).
* The default is anything other than `null`/`None`/`~`, or the line is a comment.
"""
    bad_examples = examples("preflight.rules.plan._pf677_examples", "PF678_BAD")
    good_examples = examples("preflight.rules.plan._pf677_examples", "PF678_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        pinned = pinned_omegaconf_20(pctx)
        if pinned is None:
            return
        for text, cfg in yaml_texts(pctx, _ENV_NULL):
            for line, match in matching_lines(text, _ENV_NULL):
                var, default = match.group(1), match.group(2)
                yield pctx.location_finding(self, cfg.path, line, (
                    f"`{match.group(0)}` with the project pinning {pinned}: OmegaConf 2.0's `env` resolver "
                    f"returns its default as a string, so when {var} is not set the value is the string "
                    f"\"{default}\", not None, and an `is None` test of it is false. Leave the default out and "
                    "write `null` as the key's value (override it from the command line), or upgrade to "
                    "omegaconf 2.1+ and use `${oc.env:" + var + ",null}`"))
