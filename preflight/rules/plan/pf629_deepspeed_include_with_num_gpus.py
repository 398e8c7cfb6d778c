"""PF629 deepspeed-include-with-num-gpus: ``deepspeed --include/--exclude`` together with
``--num_gpus``/``--num_nodes``: the launcher refuses the pair before starting any worker."""

from __future__ import annotations

from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_support import launched_script, report_at


def _count(value: object) -> Optional[int]:
    """A literal ``--num_gpus``/``--num_nodes`` value (the launcher's default -1 means "not given")."""
    text = str(value).strip()
    if not text.lstrip("-").isdigit():
        return None
    return int(text)


@register
class DeepspeedIncludeWithNumGpus(PlanRule):
    code = "PF629"
    name = "deepspeed-include-with-num-gpus"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("`deepspeed --include/--exclude` with `--num_gpus`/`--num_nodes`: the launcher raises "
               "\"Cannot specify num_nodes/gpus with include/exclude\" and starts nothing")
    explanation = """
## What it finds

A launch line of the `deepspeed` launcher that selects resources both ways: `--include`
(`-i`) or `--exclude` (`-e`) and a literal `--num_gpus` or `--num_nodes` (0 or more).

## Why it matters

The launcher checks it first thing (deepspeed `launcher/runner.py`, `main`): `if
args.num_nodes >= 0 or args.num_gpus >= 0: if args.include != "" or args.exclude != "": raise
ValueError("Cannot specify num_nodes/gpus with include/exclude")`. The job stops before any
worker starts, typically after the queue wait of a scheduler allocation. Reported in
gpt-neox PR 414 ("fix launcher args being passed in and resource inclusion").

## How to fix it

Keep one way of choosing devices: `--include localhost:4,5,6,7` alone (it already says how
many GPUs), or `--num_gpus 4` alone (GPUs 0..3).

## When preflight stays silent

* The launcher is not `deepspeed`, or only one of the two kinds of flag is given.
* The count is not a literal (`--num_gpus $NGPU`) or is negative (the launcher's "not given").
"""
    bad_examples = examples("preflight.rules.plan._pf629_examples", "PF629_BAD")
    good_examples = examples("preflight.rules.plan._pf629_examples", "PF629_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv:
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "deepspeed":
            return
        opts = info.options
        chosen = [f"--{k[2:]} {opts[k]}" for k in ("__include", "__exclude") if opts.get(k)]
        counts = []
        for key in ("__num_gpus", "__num_nodes"):
            n = _count(opts[key]) if key in opts else None
            if n is not None and n >= 0:
                counts.append(f"--{key[2:]} {n}")
        if not chosen or not counts:
            return
        message = (f"the deepspeed launcher is given {' and '.join(chosen)} together with {' and '.join(counts)}: "
                   "it raises \"Cannot specify num_nodes/gpus with include/exclude\" (deepspeed "
                   "launcher/runner.py) and no worker starts. Keep one: the include/exclude list already says "
                   f"which GPUs to use, so drop {' and '.join(c.split()[0] for c in counts)}")
        finding = report_at(pctx, self, launched_script(pctx, info.script), message)
        if finding is not None:
            yield finding
