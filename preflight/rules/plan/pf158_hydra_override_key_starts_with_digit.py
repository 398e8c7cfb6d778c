"""PF158 hydra-override-key-starts-with-digit: a launch-line override of a ``@hydra.main`` app names a key
(or group) segment that starts with a digit and goes on with letters (``~transform.20s_labels``), which
Hydra's override grammar cannot parse."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import OWN_PARSING as _OWN_PARSING
from preflight.rules.plan._hydra_apps import launched_hydra_main_apps


@register
class HydraOverrideKeyStartsWithDigit(PlanRule):
    code = "PF158"
    name = "hydra-override-key-starts-with-digit"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A Hydra command-line override names a key that starts with a digit (`~transform.20s_labels`): "
               "the override grammar cannot parse it and the job stops before composing")
    explanation = """
## What it finds

A launch-line override of a `@hydra.main` app (`key=value`, `+key=value`,
`++key=value`, `~key`, `group/option=...`) whose key has a segment that starts with a
digit and continues with other characters: `~preprocessing.transform.20s_labels`,
`model.3d_head.depth=4`, `dataset/20news=small`.

## Why it matters

In Hydra's override grammar (`hydra/grammar/OverrideLexer.g4`) a key is an `ID`
(a letter or `_` first) or a dotted path whose parts are `ID`s or unsigned integers
(list indexes such as `layers.0.width`). `20s_labels` is neither: the lexer reads `20`
as an integer and the rest as stray input, and the job stops at start-up with
"OverrideParseException: ... extraneous input 's_labels' expecting {<EOF>, EQUAL}"
(Hydra issue 2674: the maintainers answer that a key cannot start with a digit, by
design, so the key must be renamed). A YAML config may hold such a key; only the command
line cannot name it.

## How to fix it

Rename the key (and the group option) so that it starts with a letter or `_`
(`labels_20s`), in the config and in the override.

## When preflight stays silent

* Every key segment starts with a letter or `_`, or is a plain integer (a list index:
  `layers.0.width=8`); digits in the value (`lr=1e-4`, `name=20s`) are not keys.
* The app parses the command line itself (argparse, `sys.argv`, absl): the tokens are
  not Hydra overrides.
* Dashed options (`--config-name`, `--multirun`) are Hydra's own flags, not overrides.
"""
    bad_examples = examples("preflight.rules.plan._pf158_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf158_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra_failures import digit_key_segment
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        for app in launched_hydra_main_apps(pctx):
            script = app.script
            if app.line is None or any(word in script.source.text for word in _OWN_PARSING):
                continue
            for token in project.script_args(script):
                segment = digit_key_segment(token)
                if segment is None:
                    continue
                message = (f"the override `{token}` names the key `{segment}`, which starts with a digit: Hydra's "
                           f"override grammar takes a key part only as a name starting with a letter or `_`, or a "
                           f"plain list index, so the job stops before composing with \"OverrideParseException: "
                           f"... extraneous input\" (Hydra issue 2674). Rename the key so it starts with a letter "
                           f"(in the config and the override)")
                evidence = [Evidence(line=app.line, path=script.source.display,
                                     message="@hydra.main parses the command line")]
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, script.source.display, app.line, message, evidence=evidence)
                break
