"""PF159 hydra-sweep-dir-reads-hydra-resolver: in a multirun, ``hydra.sweep.dir`` interpolates (directly or
through other keys) a ``${hydra:...}`` value, which the launcher resolves before any HydraConfig is set."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import LoadedConfig
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_run_dirs import RESOLVER as _RESOLVER
from preflight.rules.plan._hydra_run_dirs import chain as _chain
from preflight.rules.plan._hydra_run_dirs import lookup as _lookup
from preflight.rules.plan._hydra_run_dirs import run_dir_settings as _run_dir_settings


def _holder(comp: Any, key: str) -> Optional[tuple[LoadedConfig, tuple]]:
    """The last composed config file (and its key path) that sets ``key`` to a ``${hydra:...}`` string."""
    out = None
    parts = key.split(".")
    for item, loaded in comp.item_configs:
        package = getattr(item, "package", "") or ""
        prefix = package.split(".") if package else []
        if parts[:len(prefix)] != prefix or len(parts) == len(prefix):
            continue
        rest = tuple(parts[len(prefix):])
        value = loaded.get(rest) if loaded is not None else None
        if isinstance(value, str) and _RESOLVER.search(value):
            out = (loaded, rest)
    return out


@register
class HydraSweepDirReadsHydraResolver(PlanRule):
    code = "PF159"
    name = "hydra-sweep-dir-reads-hydra-resolver"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A multirun's `hydra.sweep.dir` interpolates a key built from `${hydra:...}` (`${hydra:runtime."
               "output_dir}`): the sweep folder is resolved before HydraConfig is set and the multirun stops")
    explanation = """
## What it finds

An `@hydra.main` app launched with `-m`/`--multirun` whose `hydra.sweep.dir` or
`hydra.sweep.subdir` (in the primary config or the `hydra` option it selects)
interpolates a config key (`${paths.log_dir}`) whose value, directly or through other
keys, uses the `hydra:` resolver (`log_dir: ${hydra:runtime.output_dir}/../logs`).

## Why it matters

The `hydra:` resolver reads the runtime HydraConfig of the job being run. In a multirun
the launcher resolves the sweep folder in the parent process, before any job's
HydraConfig is set, so the run stops before launching anything with
"InterpolationResolutionError: ValueError raised while resolving interpolation:
HydraConfig was not set, full_key: hydra.sweep.dir" (napari-sparrow issue 56; Hydra
issue 1786). The single run works, so the mistake shows up only when a sweep is queued.

## How to fix it

Build the keys the sweep folder uses from static values (`log_dir: ${paths.root_dir}/logs`,
an environment variable); keep `${hydra:runtime.output_dir}` for keys only the job reads
(`output_dir`).

## When preflight stays silent

* A single run (no `-m`): the run folder is resolved once Hydra is set up.
* `${hydra:...}` written in the sweep folder itself (not read through another key): not judged.
* The sweep folder uses `${hydra.job.name}`-style node references (the dot form reads the
  config's own `hydra` node, not the resolver), `${now:...}`, `${oc.env:...}` or static keys.
* The launch line sets `hydra.sweep.dir` itself, or the key chain cannot be followed (a key
  the composed config lacks: PF575).
"""
    bad_examples = examples("preflight.rules.plan._pf159_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf159_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            config_dir = comp.config_dir or comp.app.config_dir
            args = [*comp.app.overrides, *pctx.project.script_args(comp.app.script), *pctx.project.argv]
            if config_dir is None or not any(t in ("-m", "--multirun") for t in args):
                continue
            if any(t.lstrip("+").startswith(("hydra.sweep", "hydra=")) for t in args):
                continue
            primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
            if primary is None:
                continue
            settings = _run_dir_settings(pctx, primary, config_dir, True)
            if settings is None:
                continue
            holder, where = settings
            own = holder is primary
            for key_path, value in where:
                full = "hydra." + ".".join(key_path[1:] if own else key_path)
                chain = _chain(comp.config, value)
                if not chain:
                    continue
                last = chain[-1]
                found = _holder(comp, last)
                via = " -> ".join(f"`{k}`" for k in chain)
                resolver = _RESOLVER.search(str(_lookup(comp.config, last.split("."))))
                shown = resolver.group() if resolver else "${hydra:...}"
                message = (f"`{full}` is `{value}`, which reaches {via}, and `{last}` uses `{shown}`: in this "
                           f"multirun the launcher resolves the sweep folder before any job's HydraConfig is set, "
                           f"so Hydra stops before launching with \"InterpolationResolutionError ... HydraConfig was "
                           f"not set, full_key: {full}\". Build `{last}` from a static value (a root folder or an "
                           f"environment variable)")
                if found is not None:
                    yield pctx.config_finding(self, found[0], found[1], message)
                elif holder is not None:
                    yield pctx.config_finding(self, holder, key_path, message)
                break
