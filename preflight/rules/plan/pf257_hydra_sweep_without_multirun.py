"""PF257 hydra-sweep-without-multirun: a sweep override (``key=a,b``, ``key=choice(...)``) on the
command line of a ``@hydra.main`` app launched without ``--multirun``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import read_text_limited

# hydra/core/override_parser: the sweep functions (and the functions that reorder a sweep)
_SWEEP_CALLS = ("choice(", "range(", "interval(", "glob(", "shuffle(", "sort(", "tag(")
_OPEN = {"[": "]", "{": "}", "(": ")"}
_CONFIG_SUFFIXES = (".yaml", ".yml")
_MAX_CONFIGS = 500


def sweep_value(value: str) -> Optional[str]:
    """How Hydra's override grammar reads ``value`` as a sweep: ``"comma"`` for a comma outside
    quotes, brackets, braces and parentheses (a simple choice sweep, ``1e-3,3e-4``), ``"call"`` for a
    sweep function (``choice(1,2)``, ``range(0,3)``); None for a plain value (``[1,2]``, ``'1,2'``,
    ``a\\,b``, ``${oc.env:X,default}``)."""
    stripped = value.strip()
    if stripped.startswith(_SWEEP_CALLS):
        return "call"
    depth: list[str] = []
    quote = ""
    escaped = False
    for ch in stripped:
        if escaped:
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            continue
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in ("'", '"'):
            quote = ch
        elif ch in _OPEN:
            depth.append(_OPEN[ch])
        elif depth and ch == depth[-1]:
            depth.pop()
        elif ch == "," and not depth:
            return "comma"
    return None


def _multirun_in_configs(config_dir: Optional[Path]) -> bool:
    """Whether a config of the app's folder sets Hydra's run mode to MULTIRUN (``hydra.mode``,
    Hydra 1.2): then the app sweeps without ``--multirun``."""
    if config_dir is None:
        return False
    seen = 0
    for folder, _, names in os.walk(str(config_dir)):
        for name in sorted(names):
            if not name.endswith(_CONFIG_SUFFIXES):
                continue
            seen += 1
            if seen > _MAX_CONFIGS:
                return True  # too many to read: assume it might (silence)
            try:
                text = read_text_limited(os.path.join(folder, name), errors="replace")
            except OSError:
                continue
            if "MULTIRUN" in text:
                return True
    return False


@register
class HydraSweepWithoutMultirun(PlanRule):
    code = "PF257"
    name = "hydra-sweep-without-multirun"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A sweep override (`key=a,b`, `key=choice(...)`) on the command line of a @hydra.main app launched "
               "without `--multirun`: Hydra stops before the first job")
    explanation = """
## What it finds

The launch command runs a `@hydra.main` app with an override whose value Hydra's
override grammar reads as a sweep, a comma outside quotes and brackets
(`optimizer.lr=1e-3,3e-4,1e-4`) or a sweep function (`choice(...)`, `range(...)`,
`interval(...)`, `glob(...)`), and neither `--multirun`/`-m` nor `hydra.mode=MULTIRUN`
makes the run a multirun.

## Why it matters

A sweep is only a sweep in multirun mode. In a single run Hydra refuses it before the
app starts (hydra/_internal/config_loader_impl.py `validate_sweep_overrides_legal`):
"Ambiguous value for argument 'optimizer.lr=1e-3,3e-4,1e-4' 1. To use it as a list, use
key=[value1,value2] 2. To use it as string, quote the value 3. To sweep over it, add
--multirun to your command line", or "Sweep parameters 'x=choice(1,2)' requires
--multirun" (hydra issue 856; checked with hydra-core 1.3.8). The sweep the script was
written for never runs.

## How to fix it

Add `--multirun` (`-m`) to the command, or write the value as a list (`key=[a,b]`) or
a quoted string (`key='a,b'`) when one run should receive it.

## When preflight stays silent

* The command has `--multirun`/`-m`, sets `hydra.mode=MULTIRUN`, or a config of the
  app sets `mode: MULTIRUN`.
* The value is a list, a dict, a quoted string, an escaped comma (`a\\,b`), or an
  interpolation with a default (`${oc.env:X,1}`); the token holds an unexpanded shell
  variable.
* The command is not a plain launch of the script (python, torchrun, accelerate,
  deepspeed, srun): `lightning run sweep --syntax hydra train.py a=1,2` expands the
  sweep itself.
* The script reads `sys.argv` itself (it may rewrite the command line before Hydra
  parses it), or the app is built with `compose()`.
"""
    bad_examples = examples("preflight.rules.plan._pf257_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf257_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import find_apps
            from preflight.adapters.launchers import parse_launch
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        if not project.argv or parse_launch(list(project.argv)).launcher is None:
            return  # a sweep tool's own command (`lightning run sweep`, `wandb agent`) is not Hydra's parser
        for app in find_apps(project):
            script = app.script
            if script is None or app.how != "@hydra.main" or app.line is None or "sys.argv" in script.source.text:
                continue
            args = project.script_args(script)
            if any(tok in ("-m", "--multirun") or tok.startswith("--multi") for tok in args):
                continue
            if any(tok.lstrip("+").startswith("hydra.mode=") for tok in args):
                continue
            sweeps = []
            for tok in args:
                head, eq, value = tok.partition("=")
                if not eq or tok.startswith("-") or "$" in tok or not head.lstrip("+~"):
                    continue
                how = sweep_value(value)
                if how is not None:
                    sweeps.append((tok, how))
            if not sweeps or _multirun_in_configs(app.config_dir):
                continue
            tok, how = sweeps[0]
            also = f" (and {', '.join(t for t, _ in sweeps[1:3])})" if len(sweeps) > 1 else ""
            said = ("Ambiguous value for argument ... To sweep over it, add --multirun to your command line"
                    if how == "comma" else "Sweep parameters ... requires --multirun")
            message = (f"the launch passes the sweep `{tok}`{also} to `{script.source.display}`, a @hydra.main app, "
                       f"without `--multirun`: a sweep is only valid in multirun mode, and Hydra stops before the "
                       f"app starts (\"{said}\"). Add `--multirun` (`-m`) to run the sweep, or write the value as "
                       f"a list (`key=[a,b]`) or a quoted string if one run should receive it")
            evidence = [Evidence(line=app.line, path=script.source.display,
                                 message="@hydra.main parses the command line (single-run mode)")]
            if project.launch_at is not None:
                path, line = project.launch_at
                yield pctx.location_finding(self, path, line, message, evidence=evidence)
            else:
                yield pctx.location_finding(self, script.source.display, app.line, message, evidence=evidence)
