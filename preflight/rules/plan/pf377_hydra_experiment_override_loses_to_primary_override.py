"""PF377 hydra-experiment-override-loses-to-primary-override: the primary defaults list already overrides a
group (``- override model: resnet34``) and a config the launch line appends (``+experiment=x``) overrides the
same group again (``- override /model: resnet101``): Hydra keeps the primary's choice and drops the experiment's."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import launched_hydra_main_apps, read_hydra_config
from preflight.sources import read_text_limited


def _overrides(defaults: Any) -> dict[str, tuple[int, str]]:
    """group -> (index, option) of the ``override group: option`` entries of a defaults list."""
    out: dict[str, tuple[int, str]] = {}
    if not isinstance(defaults, list):
        return out
    for index, entry in enumerate(defaults):
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        (key, option), = entry.items()
        words = str(key).split()
        if len(words) == 2 and words[0] == "override" and "@" not in words[1] and isinstance(option, str):
            out.setdefault(words[1].strip("/"), (index, option))
    return out


def _line_of_entry(path: Path, group: str) -> int:
    try:
        lines = read_text_limited(path, errors="replace").splitlines()
    except OSError:
        return 1
    for number, line in enumerate(lines, 1):
        words = line.replace("-", " ", 1).split()
        if len(words) >= 2 and words[0] == "override" and words[1].rstrip(":").strip("/") == group:
            return number
    return 1


@register
class HydraExperimentOverrideLosesToPrimaryOverride(PlanRule):
    code = "PF377"
    name = "hydra-experiment-override-loses-to-primary-override"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The primary defaults list overrides a group and a config the launch line appends overrides it again: "
               "Hydra silently keeps the primary's option")
    explanation = """
## What it finds

A `@hydra.main` app whose primary defaults list holds an `override` entry for a group
(`- model: resnet18` then `- override model: resnet34`), launched with a config appended
from the command line (`+experiment=resnet101_long`) whose own defaults list overrides
the same group to another option (`- override /model: resnet101`).

## Why it matters

Hydra's documented rule is that the last override in depth-first order wins, so the
experiment's choice should apply; but when the primary config already overrides the
group, the appended config's override is kept in the defaults tree and ignored: the run
composes the primary's option with the experiment's other values, with no error or
warning (hydra issue 3229, "Defaults-list overrides in appended configs do not override
earlier overrides"; reproduced here with hydra-core 1.3.8: `+experiment=...` with
`override /model: resnet101` composes `model.arch: resnet34`). The experiment then trains
the wrong model with its own schedule.

## How to fix it

Select the option directly in the primary defaults list (`- model: resnet34`, no
`override` entry), so the experiment's override applies; or select the model on the
command line (`model=resnet101`), which does win.

## When preflight stays silent

* The primary selects the group without an `override` entry (the ordinary case: the
  experiment's override applies).
* The appended config overrides the group to the primary's own option, or is not an
  option of the config directory; the config is selected without `+` or not at all.
* A config with a defaults list preflight cannot read.
"""
    bad_examples = examples("preflight.rules.plan._pf377_examples", "PF377_BAD")
    good_examples = examples("preflight.rules.plan._pf377_examples", "PF377_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        try:
            from preflight.adapters.hydra_compose import relative
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        root = Path(str(project.root))
        for app in launched_hydra_main_apps(pctx):
            if app.config_dir is None or not app.config_name:
                continue
            folder: Path = app.config_dir
            name = app.config_name
            primary = folder / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")
            appended = []
            for tok in project.script_args(app.script):
                head, eq, option = tok.partition("=")
                if not eq or not head.startswith("+") or head.startswith("++") or any(c in tok for c in "$,@ ."):
                    continue
                path = folder / head.lstrip("+").strip("/") / f"{option}.yaml"
                if path.is_file():
                    appended.append((tok, path))
            if not appended or not primary.is_file():
                continue
            cfg = read_hydra_config(primary)
            if cfg is None:
                continue
            mine = _overrides(cfg.defaults)
            if not mine:
                continue
            for tok, path in appended:
                finding = self._lost(pctx, app, primary, path, tok, mine, relative, root)
                if finding is not None:
                    yield finding

    def _lost(self, pctx: PlanContext, app: Any, primary: Path, path: Path, tok: str,
              mine: dict[str, tuple[int, str]], relative: Any, root: Path) -> Optional[Finding]:
        cfg = read_hydra_config(path)
        if cfg is None:
            return None
        for group, (_, option) in _overrides(cfg.defaults).items():
            if group not in mine or mine[group][1] == option:
                continue
            kept = mine[group][1]
            message = (f"this primary defaults list already overrides `{group}` to `{kept}`, and `{tok}` on the launch "
                       f"line appends a config that overrides it to `{option}`: Hydra keeps `{group}: {kept}` and "
                       "silently drops the appended override (hydra issue 3229; reproduced on hydra-core 1.3.8), so the "
                       f"run uses `{kept}` with the appended config's other values. Select `{group}: {kept}` directly "
                       "instead of with an `override` entry, or choose the option on the command line")
            evidence = [Evidence(line=_line_of_entry(path, group), path=relative(path, root),
                                 message=f"override /{group}: {option}, ignored"),
                        Evidence(line=app.line or 1, path=app.script.source.display,
                                 message="@hydra.main composes the config with the launch line")]
            return pctx.location_finding(self, relative(primary, root), _line_of_entry(primary, group), message,
                                         evidence=evidence)
        return None
