"""PF338 launcher-interpolates-swept-key: a multirun sweeps a key that ``hydra.launcher.*``
interpolates (``nodes: ${trainer.num_nodes}`` with ``trainer.num_nodes=1,2,4``): the launcher is
configured once, from the sweep's first value."""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_launch_support import launch_finding, multirun
from preflight.rules.plan.pf257_hydra_sweep_without_multirun import sweep_value

_INTERPOLATION = re.compile(r"\$\{\s*([A-Za-z_][\w.]*)\s*\}")


def _launcher_reads(comp: Any) -> dict[str, list[tuple[str, str, Optional[int]]]]:
    """Interpolated key -> (launcher key, file, line) for the ``hydra.launcher`` values of the
    configs the app composes (the composed config itself leaves the ``hydra`` node out)."""
    out: dict[str, list[tuple[str, str, Optional[int]]]] = {}
    for item, loaded in comp.item_configs:
        data = loaded.data
        if not isinstance(data, dict) or (item.package not in ("", "_global_") and loaded.header != "_global_"):
            continue
        hydra = data.get("hydra")
        launcher = hydra.get("launcher") if isinstance(hydra, dict) else None
        if not isinstance(launcher, dict):
            continue
        for key, value in launcher.items():
            if isinstance(value, str):
                for target in _INTERPOLATION.findall(value):
                    out.setdefault(target, []).append((str(key), loaded.path,
                                                       loaded.line_of(("hydra", "launcher", key))))
    return out


@register
class LauncherInterpolatesSweptKey(PlanRule):
    code = "PF338"
    name = "launcher-interpolates-swept-key"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A multirun sweeps a key that `hydra.launcher.*` interpolates: the launcher is configured once, "
               "and every job gets the first value's resources")
    explanation = """
## What it finds

A `@hydra.main` app launched with `--multirun` and a sweep `key=a,b,...` (or `choice(...)`,
`range(...)`) where the composed config's `hydra.launcher` interpolates that key
(`nodes: ${trainer.num_nodes}`, `gpus_per_node: ${trainer.devices}`,
`mem_gb: ${data.mem}`).

## Why it matters

Hydra instantiates the launcher once, from the config composed before the sweep, so
the interpolation resolves to the sweep's initial value for every job; the swept value
reaches the app but never the launcher ("sweep parameters that change the Hydra config
itself give undefined behaviour", hydra issue 2381, discussion 2329). A scaling study
`trainer.num_nodes=1,2,4` submits every job on one node, while Lightning in the 2- and
4-node jobs waits for processes that never start and hangs until the time limit.

## How to fix it

Run one multirun per value with the value as a plain override (a shell loop over
`trainer.num_nodes=$n`), or set the launcher's value explicitly on the same command line.

## When preflight stays silent

* The swept key is not interpolated by `hydra.launcher` (sweeping the app's own keys is
  what a multirun is for), or the launch line also sets the launcher key itself.
* The launch is not a multirun (PF257), or the swept value is a single value.
"""
    bad_examples = examples("preflight.rules.plan._pf338_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf338_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            args = project.script_args(comp.app.script)
            if not multirun(args):
                continue
            reads = _launcher_reads(comp)
            if not reads:
                continue
            given = {tok.partition("=")[0].lstrip("+~") for tok in args if "=" in tok}
            for tok in args:
                head, eq, value = tok.partition("=")
                key = head.lstrip("+~")
                if not eq or tok.startswith("-") or "$" in tok or key not in reads or sweep_value(value) is None:
                    continue
                used = [r for r in reads[key] if f"hydra.launcher.{r[0]}" not in given]
                if not used:
                    continue
                launcher_keys = [r[0] for r in used]
                shown = ", ".join(f"`hydra.launcher.{k}`" for k in launcher_keys)
                evidence = [Evidence(line=line, path=path, message=f"hydra.launcher.{k}: ${{{key}}}")
                            for k, path, line in used[:2] if line]
                message = (f"the multirun sweeps `{tok}`, and {shown} interpolates `${{{key}}}`: Hydra configures "
                           "the launcher once, from the config composed before the sweep, so every job is "
                           f"launched with the first value's {', '.join(launcher_keys)} while the app receives the "
                           "swept value (hydra issue 2381). Run one multirun per value with a plain override, or "
                           "give the launcher its value explicitly")
                yield launch_finding(self, pctx, comp, message, evidence)
