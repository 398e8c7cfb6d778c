"""PF385 pinned-release-defect-config: the job pins a DeepSpeed or Hydra release with a documented defect
that makes training silently wrong, and a config file the job reads sets the keys the defect hits (the
entries of ``_release_defects`` whose feature is read in a config)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._release_common import affected, entries, message, pinned_for
from preflight.rules.plan._release_config_features import CONFIG_FEATURES
from preflight.rules.plan._release_defects import DEFECTS


@register
class PinnedReleaseDefectConfig(PlanRule):
    code = "PF385"
    name = "pinned-release-defect-config"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "hydra")
    summary = ("the project pins a DeepSpeed or Hydra release with a documented defect that makes training "
               "silently wrong, and the job's config sets the keys it hits")
    explanation = f"""
## What it finds

A project that pins (`==`) a DeepSpeed or Hydra release listed in preflight's table of
library-release defects, and a config file of the job (a DeepSpeed JSON, a DeepSpeed block of an
accelerate or Trainer config, a Hydra primary config with the launch command) that sets the keys
the defect hits: a gradient-clipping coefficient that scales gradients up instead of clipping
them, accumulation or gradient norms wrong under ZeRO CPU offload, a bf16 optimizer that divides
by a loss scale it never applied, an appended Hydra config that loses to the primary config. The
message names the release, the first fixed release and the source.

Each range was read in the library's code at the tags on both sides of the fix. The entries:

{entries("config", with_severity=False)}

## How to fix it

Upgrade the pin to the fixed release, or apply the workaround the message names.

## When preflight stays silent

* The library is not pinned (a lower bound or no version), or the pin is outside the range.
* The config does not set the keys (an `"auto"` value the integration fills is unknown, except
  the accumulation steps, read from the plan, and `gradient_clipping`, filled from
  `max_grad_norm`).
"""
    bad_examples = examples("preflight.rules.plan._pf385_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf385_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, tuple[object, ...]]] = set()
        for defect in DEFECTS:
            if defect.kind != "config":
                continue
            version = pinned_for(pctx, defect, None)
            if version is None or not affected(defect, version):
                continue
            for config, key_path, values in CONFIG_FEATURES[defect.feature](pctx, defect.params):
                if (config.path, key_path) in seen:
                    continue
                seen.add((config.path, key_path))
                yield pctx.config_finding(self, config, key_path, message(defect, version, values))
