"""PF314 hydra-override-in-non-global-group: ``override /hydra/...`` in a group config without ``# @package _global_``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import ConfigRule, PlanContext
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.config._pf314_sweep import CONTROLLER_GROUPS, controller_settings, swept_by
from preflight.sources import read_text_limited


def _group_configs(pctx: PlanContext) -> Iterable[tuple[str, Any, list[str]]]:
    """(group, loaded config, the app's override tokens) for each YAML file below a Hydra app's
    config folder that holds a defaults list (bounded: 400 files per folder)."""
    try:
        from preflight.adapters.hydra_apps import compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    from preflight.loaders import load_config_file
    from preflight.workspace import display_path

    seen: set[Path] = set()
    for comp in compositions(pctx.project):
        app = getattr(comp, "app", None)
        config_dir = getattr(comp, "config_dir", None) or getattr(app, "config_dir", None)
        if config_dir is None or Path(config_dir) in seen:
            continue
        seen.add(Path(config_dir))
        tokens = list(getattr(app, "overrides", []) or [])
        script = getattr(app, "script", None)
        if script is not None:
            tokens.extend(pctx.project.script_args(script))
        try:
            paths = sorted(Path(config_dir).rglob("*.yaml"))[:400]
        except OSError:
            continue
        for path in paths:
            group = path.parent.relative_to(config_dir).as_posix()
            if group == "." or not pctx.project.may_read(path) or not os.path.isfile(path):
                continue
            try:
                if "override" not in read_text_limited(path, errors="replace"):
                    continue
            except OSError:
                continue
            loaded = load_config_file(path, display_path(path, pctx.project.root), "yaml")
            if loaded is not None:
                yield group, loaded, tokens


def _selected_global(group: str, tokens: list[str], texts: Iterable[str]) -> bool:
    """The group is selected into the global package somewhere (``group@_global_``)."""
    needle = f"{group}@_global_"
    return any(needle in t for t in tokens) or any(needle in t for t in texts)


def _hydra_overrides(cfg: Any) -> Iterable[tuple[int, str, Optional[str]]]:
    defaults = cfg.data.get("defaults") if isinstance(cfg.data, dict) else None
    if not isinstance(defaults, list):
        return
    for i, entry in enumerate(defaults):
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        key, value = next(iter(entry.items()))
        if not isinstance(key, str):
            continue
        words = key.split()
        if len(words) >= 2 and "override" in words[:-1] and words[-1].startswith("/hydra/"):
            yield cfg.line_of(("defaults", i), nearest=True) or 1, words[-1], value if isinstance(value, str) else None


@register
class HydraOverrideInNonGlobalGroup(ConfigRule):
    code = "PF314"
    name = "hydra-override-in-non-global-group"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`override /hydra/launcher` (or sweeper, ...) that Hydra does not apply: in a group config without "
               "`# @package _global_`, or in an option the multirun sweeps")
    explanation = """
## What it finds

A YAML file in a config group folder of a Hydra app (`conf/train/experiment.yaml`) whose
defaults list overrides a Hydra group (`- override /hydra/launcher: submitit_slurm`,
`/hydra/sweeper`, `/hydra/job_logging`, ...), while the file has no `# @package _global_`
header and no defaults list or command line selects its group into `@_global_`.

It also finds an override of `/hydra/launcher` or `/hydra/sweeper` in any config of a group
that the command line sweeps in a multirun (`--multirun +experiment=small,large`), with or
without the `_global_` header, and `hydra.launcher` / `hydra.sweeper` settings in such a
`_global_` option.

## Why it matters

Hydra issue 3031 ("Global /hydra/launcher Override Fails in +train=experiment Config
Without # @package _global_"): the file's content lands in its own package (`train`), and
the override of the Hydra group is not applied, with no error. A multirun meant for a SLURM
cluster runs one job after another with the default launcher on the submitting machine;
a sweeper override is lost the same way.

In a multirun the sweeper and the launcher are built from the config composed without the
sweep overrides; the swept options are composed later, once per job, so their launcher
override shows in each job's config but the sweep itself keeps the primary config's
launcher (hydra issue 3231, Hydra 1.3.2 accepts it silently).

## How to fix it

Start the file with `# @package _global_` (and nest its own keys under their group), or
put the override in the primary config or on the command line.

## When preflight stays silent

* The file has the `_global_` header, sits in the config folder itself (the primary
  config), or its group is selected as `group@_global_`.
* The override names a group of the app (`override /model: large`), not a Hydra group.
* In a swept `_global_` option: an override of another Hydra group than the launcher or the
  sweeper (`job_logging` is read per job), settings under `hydra.job`, or a group selected by
  one option, not swept.
"""
    bad_examples = examples("preflight.rules.config._pf314_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.config._pf314_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = list(_group_configs(pctx))
        texts = []
        for _, cfg, _ in found:
            defaults = cfg.data.get("defaults") if isinstance(cfg.data, dict) else None
            texts.append(repr(defaults))
        texts.extend(repr(cfg.data.get("defaults")) for cfg in pctx.configs
                     if cfg.kind == "yaml" and isinstance(cfg.data, dict))
        reported: set[tuple[str, int]] = set()
        for group, cfg, tokens in found:
            if group.split("/")[0] == "hydra":
                continue
            stem = os.path.splitext(os.path.basename(str(cfg.path)))[0]
            sweep = swept_by(group, stem, tokens)
            for line, target, _ in _hydra_overrides(cfg) if sweep else ():
                if target in CONTROLLER_GROUPS and (cfg.path, line) not in reported:
                    reported.add((cfg.path, line))
                    yield pctx.location_finding(
                        self, cfg.path, line,
                        f"this override of {target} sits in `{group}/{stem}`, an option the multirun sweeps "
                        f"(`{sweep}`): Hydra builds the {target.rsplit('/', 1)[-1]} from the primary config before "
                        "the swept options are composed, so the override only shows in each job's config while "
                        "the sweep runs with the primary config's one (hydra issue 3231; with the basic launcher "
                        "the jobs run one after another). Select it in the primary config or on the command line")
            if (cfg.header or "").strip() == "_global_":
                for line, key in controller_settings(cfg) if sweep else ():
                    if (cfg.path, line) not in reported:
                        reported.add((cfg.path, line))
                        yield pctx.location_finding(
                            self, cfg.path, line,
                            f"`hydra.{key}` is set in `{group}/{stem}`, an option the multirun sweeps (`{sweep}`): "
                            f"the {key} is configured from the primary config before the swept options are "
                            f"composed, so this setting never reaches the sweep (later Hydra releases reject it: "
                            f"\"must be configured before the sweep starts\"). Set it in the primary config or on "
                            "the command line")
                continue
            if _selected_global(group, tokens, texts):
                continue
            for line, target, option in _hydra_overrides(cfg):
                if (cfg.path, line) in reported:
                    continue
                reported.add((cfg.path, line))
                chosen = f" to {option}" if option else ""
                yield pctx.location_finding(
                    self, cfg.path, line,
                    f"this config of the group `{group}` overrides {target}{chosen} but has no `# @package _global_` "
                    f"header: its content lands in the package `{group.replace('/', '.')}` and Hydra does not apply "
                    f"the override, without an error (hydra issue 3031), so the run keeps the primary config's "
                    f"{target.rsplit('/', 1)[-1]}; add `# @package _global_` as the first line")
