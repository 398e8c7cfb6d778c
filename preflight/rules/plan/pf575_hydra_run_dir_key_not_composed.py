"""PF575 hydra-run-dir-key-not-composed: ``hydra.run.dir`` (or the sweep folder) interpolates a key that
the app's composed config does not have, so Hydra stops before the app runs."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_run_dirs import ABSENT as _ABSENT
from preflight.rules.plan._hydra_run_dirs import composed_run_dirs as composed_run_dirs
from preflight.rules.plan._hydra_run_dirs import hydra_choice as _hydra_choice
from preflight.rules.plan._hydra_run_dirs import lookup as _lookup
from preflight.rules.plan._hydra_run_dirs import references as _references
from preflight.rules.plan._hydra_run_dirs import run_dir_settings as _run_dir_settings


@register
class HydraRunDirKeyNotComposed(PlanRule):
    code = "PF575"
    name = "hydra-run-dir-key-not-composed"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.run.dir` (or the sweep folder) interpolates a key the app's composed config does not "
               "have: Hydra stops before the app runs")
    explanation = """
## What it finds

An `@hydra.main` app whose output folder, `hydra.run.dir` (for a `--multirun`:
`hydra.sweep.dir` and `hydra.sweep.subdir`), set in the `hydra` option its primary
config selects (`- hydra: default.yaml` in the defaults list) or in the primary config
itself, interpolates a key (`${local.log_dir}`) that the app's composed config (primary
config, defaults list, launch overrides) does not contain.

## Why it matters

Hydra resolves the output folder before it calls the app, against the whole composed
config. A key that the defaults list of *this* primary config never brings in (a
`local` or `paths` group that `train.yaml` selects but `eval.yaml` does not) stops
the run at start-up with `InterpolationKeyError: Interpolation key 'local.log_dir' not
found, full_key: hydra.run.dir` (conditional-flow-matching issue 130; the maintainer:
"hydra.run.dir looks for local.log_dir"). A project with several entry points
usually shares one `hydra/default.yaml`, so the entry point that is run less often
breaks.

## How to fix it

Add the group that defines the key to this primary config's defaults list
(`- local: default.yaml`), give the key in the config, or pass `hydra.run.dir=...`
on the launch line.

## When preflight stays silent

* The key is in the composed config (from any config of the defaults list, or an
  override such as `+local.log_dir=logs`).
* The launch line sets the folder itself (`hydra.run.dir=...`).
* Resolvers (`${now:%Y-%m-%d}`, `${oc.env:HOME}`) and Hydra's own keys
  (`${hydra.job.name}`); the compose API (`compose()`), which resolves no output folder.
* Both the primary config and its `hydra` option set the folder (which one wins
  depends on `_self_`'s place: not decided).
"""
    bad_examples = examples("preflight.rules.plan._pf575_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf575_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            config_dir = comp.config_dir or comp.app.config_dir
            args = [*comp.app.overrides, *pctx.project.script_args(comp.app.script)]
            if config_dir is None or any(t.lstrip("+").startswith(("hydra.run", "hydra.sweep", "hydra=")) for t in args):
                continue
            multirun = any(t in ("-m", "--multirun") for t in args) or any(
                t in ("-m", "--multirun") for t in pctx.project.argv)
            primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
            if primary is None:
                continue
            settings = _run_dir_settings(pctx, primary, config_dir, multirun)
            if settings is None:
                continue
            holder, where = settings
            own = holder is primary   # the primary's own hydra: node, else the hydra/<choice>.yaml option
            choice = _hydra_choice(primary)
            for key_path, value in where:
                for ref in _references(value):
                    if _lookup(comp.config, ref.split(".")) is not _ABSENT:
                        continue
                    full = "hydra." + ".".join(key_path[1:] if own else key_path)
                    top = ref.split(".")[0]
                    message = (f"`{full}` is `{value}`, which interpolates `${{{ref}}}`, but the config this app "
                               f"composes ({primary.path} and its defaults list) has no `{ref}`: Hydra resolves the "
                               f"output folder before the app runs and stops with InterpolationKeyError "
                               f"\"Interpolation key '{ref}' not found\". Add the group that defines `{top}` to "
                               f"{primary.path}'s defaults list, or give the key in the config")
                    assert holder is not None
                    if own or choice is None:
                        yield pctx.config_finding(self, holder, key_path, message)
                    else:
                        evidence = [pctx.config_evidence(holder, key_path, f"`{full}` is set here")]
                        line = primary.line_of(("defaults", choice[0]), nearest=True) or 1
                        yield pctx.location_finding(self, primary.path, line, message, evidence=evidence)
                    break
                else:
                    continue
                break

