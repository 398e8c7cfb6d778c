"""PF384 pinned-release-defect-code: the job pins a release of transformers, accelerate, PEFT, TRL or
Lightning with a documented defect that makes training silently wrong, and its code uses the feature
the defect hits (the entries of ``_release_defects`` whose feature is read in code)."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._release_common import SEVERITIES, affected, entries, message, pinned_for
from preflight.rules.plan._release_defects import DEFECTS
from preflight.rules.plan._release_features import CODE_FEATURES


@register
class PinnedReleaseDefectCode(PlanRule):
    code = "PF384"
    name = "pinned-release-defect-code"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "accelerate", "peft", "trl", "lightning")
    summary = ("the project pins a transformers, accelerate, PEFT, TRL or Lightning release with a documented "
               "defect that makes training silently wrong, and the code uses the feature it hits")
    explanation = f"""
## What it finds

A project that pins (`==` in a requirements file, setup.py, pyproject, environment.yml or a lock
file) a release listed in preflight's table of library-release defects, and code that uses the
feature the defect hits. The user's code is right for the library's documentation; the release
got it wrong: a loss not divided by the accumulation steps, a scheduler stepped on every
micro-batch, accumulation silently disabled, an adapter saved with another adapter's weights,
samples truncated to padding, a scheduler stepped twice. The message names the release, the
first fixed release and the source (the fixing pull request).

Each range was read in the library's code at the tags (or released wheels) on both sides of
the fix. The entries:

{entries("code", with_severity=True)}

## How to fix it

Upgrade the pin to the fixed release, or apply the workaround the message names on the pinned
release.

## When preflight stays silent

* The library is not pinned (a lower bound `>=` or no version: the installed release cannot be
  known), or the pin is outside the range.
* The job does not use the feature (no accumulation, a different head, a `compute_loss` of its
  own, the workaround applied).
* `accelerate-scheduler-steps-while-accumulating`: the schedule's length counts the loader's
  batches with no division by the accumulation steps (`num_training_steps=len(train_dataloader) *
  num_epochs`): on those releases the prepared scheduler steps on every micro-batch, so that schedule
  ends exactly at the end of training (accelerate PR 500's example).
  It is silent too when the scheduler steps only under `if accelerator.sync_gradients:` (prepared or
  not): one step per optimizer update, the workaround of accelerate issue 963.
* `transformers-ga-mean-of-means` (every release before 4.46 with a causal LM and accumulation)
  is reported as a note: its effect depends on how unevenly the micro-batches are padded.
"""
    bad_examples = examples("preflight.rules.plan._pf384_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf384_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, int, str]] = set()
        for defect in DEFECTS:
            if defect.kind != "code":
                continue
            if not any(pinned_for(pctx, defect, s) is not None for s in pctx.scripts):
                continue
            hit = CODE_FEATURES[defect.feature](pctx, defect.params)
            if hit is None:
                continue
            script, node, values = hit
            version = pinned_for(pctx, defect, script) or pinned_for(pctx, defect, None)
            if version is None or not affected(defect, version):
                continue
            key = (str(script.source.path), getattr(node, "lineno", 0), defect.key)
            if key in seen:
                continue
            seen.add(key)
            yield pctx.file_context(script).finding(self, node, message(defect, version, values),
                                                    severity=SEVERITIES[defect.severity])
