"""PF337 multirun-sweeps-sweep-configs: ``--multirun +group=a,b`` where the options of ``group`` each
define ``hydra.sweeper.params``: Hydra sweeps the group and expands none of the inner sweeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.loaders import load_config_text
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps
from preflight.rules.plan._hydra_launch_support import launch_finding, multirun
from preflight.rules.plan.pf257_hydra_sweep_without_multirun import sweep_value
from preflight.sources import read_text_limited


def _options(value: str) -> Optional[list[str]]:
    """The options of a simple comma sweep (``a,b``) or ``choice(a,b)``; None for anything else."""
    text = value.strip()
    if text.startswith("choice(") and text.endswith(")"):
        text = text[len("choice("):-1]
    elif sweep_value(text) != "comma":
        return None
    out = [o.strip().strip("'\"") for o in text.split(",")]
    return out if all(o and all(c.isalnum() or c in "_-/." for c in o) for o in out) else None


def _sweeper_params(path: Path) -> Optional[tuple[int, list[str]]]:
    """(line, swept keys) when the group option at ``path`` sets Hydra's ``hydra.sweeper.params``
    (a ``# @package _global_`` file)."""
    try:
        text = read_text_limited(path, errors="replace")
    except OSError:
        return None
    if "sweeper" not in text:
        return None
    loaded = load_config_text(text, "yaml", str(path))
    data = getattr(loaded, "data", None)
    if not isinstance(data, dict) or getattr(loaded, "header", None) != "_global_":
        return None  # without `# @package _global_` the option's `hydra:` lands under the group's package
    hydra = data.get("hydra")
    sweeper = hydra.get("sweeper") if isinstance(hydra, dict) else None
    params = sweeper.get("params") if isinstance(sweeper, dict) else None
    if not isinstance(params, dict) or not params:
        return None
    line = loaded.line_of(("hydra", "sweeper", "params")) or 1  # type: ignore[union-attr]
    return line, [str(k) for k in params]


@register
class MultirunSweepsSweepConfigs(PlanRule):
    code = "PF337"
    name = "multirun-sweeps-sweep-configs"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`--multirun +group=a,b` over config options that each define `hydra.sweeper.params`: Hydra runs "
               "one job per option and expands none of their sweeps")
    explanation = """
## What it finds

A `@hydra.main` app launched with `--multirun` and a sweep over a config group
(`+sweep=lr_search,width_search`, `experiment=choice(a,b)`) whose option files set
`hydra.sweeper.params` (`# @package _global_` experiment configs that each describe a
search space).

## Why it matters

The command-line sweep is over the group itself: the basic sweeper builds one job per
option, and the sweeps described inside the options are not expanded (each job gets the
option's default values). Two options each sweeping 4 and 3 values run 2 jobs instead
of 7, and the results compare two default configurations as if they were a search
(hydra issue 2807: "executes only one instance from each sweep configuration"; the
maintainers: sweeping over sweeps is not supported).

## How to fix it

Launch each sweep config in its own `--multirun` (`python train.py -m +sweep=lr_search`,
then `+sweep=width_search`).

## When preflight stays silent

* One option is selected (`-m +sweep=lr_search`): its `hydra.sweeper.params` are expanded.
* No option of the group sets `hydra.sweeper.params`, or the launch is not a multirun
  (PF257 reports a sweep without `--multirun`).
* The option files are not found under the app's config directory.
"""
    bad_examples = examples("preflight.rules.plan._pf337_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf337_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp in hydra_main_apps(pctx):
            args = project.script_args(comp.app.script)
            config_dir = comp.config_dir or comp.app.config_dir
            if config_dir is None or not multirun(args):
                continue
            for tok in args:
                head, eq, value = tok.partition("=")
                group = head.lstrip("+~")
                if not eq or tok.startswith("-") or "$" in tok or not group or "." in group or "@" in group:
                    continue
                options = _options(value)
                if not options or len(options) < 2 or not (Path(config_dir) / group).is_dir():
                    continue
                found = self._finding(pctx, comp, tok, Path(config_dir), group, options)
                if found is not None:
                    yield found

    def _finding(self, pctx: PlanContext, comp: Any, tok: str, config_dir: Path, group: str,
                 options: list[str]) -> Optional[Finding]:
        swept: list[tuple[str, Path, int, list[str]]] = []
        for option in options:
            path = next((p for p in (config_dir / group / f"{option}.yaml", config_dir / group / f"{option}.yml")
                         if p.is_file()), None)
            params = _sweeper_params(path) if path is not None else None
            if params is not None and path is not None:
                swept.append((option, path, params[0], params[1]))
        if not swept:
            return None
        root = Path(pctx.project.root)
        evidence = []
        for option, path, line, keys in swept[:3]:
            try:
                shown = path.relative_to(root).as_posix()
            except ValueError:
                shown = path.as_posix()
            evidence.append(Evidence(line=line, path=shown,
                                     message=f"`{option}` sweeps {', '.join(keys[:3])} in hydra.sweeper.params"))
        names = ", ".join(f"`{o}`" for o, *_ in swept)
        message = (f"`{tok}` under `--multirun` sweeps the config group `{group}` itself: Hydra runs one job per "
                   f"option ({len(options)} jobs), and the searches that {names} describe in `hydra.sweeper.params` "
                   "are not expanded, so each job trains the option's default values (hydra issue 2807). Launch "
                   f"each option in its own multirun (`-m +{group}={options[0]}`, then the next)")
        return launch_finding(self, pctx, comp, message, evidence)
