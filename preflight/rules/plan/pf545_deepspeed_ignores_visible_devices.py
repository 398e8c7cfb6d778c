"""PF545 deepspeed-ignores-visible-devices: ``CUDA_VISIBLE_DEVICES=...`` in front of ``deepspeed --num_gpus N``."""

from __future__ import annotations

from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _ints(text: str) -> Optional[list[int]]:
    parts = [p.strip() for p in text.split(",")]
    if not parts or not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


def _count(text: Optional[str]) -> Optional[int]:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


@register
class DeepSpeedIgnoresVisibleDevices(PlanRule):
    code = "PF545"
    name = "deepspeed-ignores-visible-devices"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = ("`CUDA_VISIBLE_DEVICES` in front of `deepspeed --num_gpus`: the launcher ignores it and "
               "starts the ranks on GPUs 0..N-1")
    explanation = """
## What it finds

A launch line `CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 train.py ...` (or with
`--num_nodes` greater than 1): the `deepspeed` launcher, the caller's device list and a
device-count flag, without `--hostfile`, `--include` or `--exclude`, where the listed
devices are not simply GPUs 0 to N-1.

## Why it matters

The `deepspeed` launcher decides the devices of its ranks itself. On a single node
without a hostfile it honours `CUDA_VISIBLE_DEVICES` only when no `--num_gpus`,
`--num_nodes`, `--include` or `--exclude` is given; otherwise it prints "Detected
CUDA_VISIBLE_DEVICES=2,3 but ignoring it because one or several of
--include/--exclude/--num_gpus/--num_nodes cl args were used", removes the variable and
starts the ranks on GPUs 0..N-1 (deepspeed `launcher/runner.py`; DeepSpeed issue 2980).
On a shared machine the job lands on the GPUs another job is using: it runs out of
memory or slows both down.

Without any of those flags the launcher does honour the variable, by turning it into
`--include localhost:<list>`, but it counts the local GPUs through torch, which already sees
only the listed ones, numbered from 0: `CUDA_VISIBLE_DEVICES=1 deepspeed train.py` (exported
by the launch script or on the line) fails with "ValueError: No slot '1' specified on host
'localhost'" (deepspeed `launcher/runner.py`, `parse_inclusion_exclusion`; Yi issue 392,
DeepSpeed issue 662).

## How to fix it

Select the devices with the launcher: `deepspeed --include localhost:2,3 train.py ...`;
or keep `CUDA_VISIBLE_DEVICES` and drop `--num_gpus`.

## When preflight stays silent

* The launcher is not `deepspeed`, or neither the line nor an `export` of the launch script
  sets `CUDA_VISIBLE_DEVICES`, or its value is not a list of numbers.
* A bare `deepspeed` launch whose listed devices are GPUs 0..N-1 (every slot exists).
* `--hostfile`, `--include` or `--exclude` is given (the devices are chosen there).
* The listed devices are exactly GPUs 0..N-1 for `--num_gpus N` (ignoring them changes
  nothing).
"""
    bad_examples = examples("preflight.rules.plan._pf545_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf545_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = pctx.project.argv
        if not argv or not any("CUDA_VISIBLE_DEVICES" in tok for tok in argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "deepspeed" or "CUDA_VISIBLE_DEVICES" not in info.env:
            return
        visible = _ints(info.env["CUDA_VISIBLE_DEVICES"])
        opts = info.options
        if visible is None or any(k in opts for k in ("__hostfile", "-H", "__include", "-i", "__exclude", "-e")):
            return
        gpus = _count(opts.get("__num_gpus", opts.get("__num_accelerators")))
        nodes = _count(opts.get("__num_nodes"))
        if not ((gpus is not None and gpus > 0) or (nodes is not None and nodes > 1)):
            if any(k in opts for k in ("__num_gpus", "__num_accelerators", "__num_nodes")) \
                    or visible == list(range(len(visible))):
                return
            yield from self._no_slot(pctx, info.env["CUDA_VISIBLE_DEVICES"], visible)
            return
        if gpus is not None and visible == list(range(gpus)):
            return
        flag = "--num_gpus" if gpus is not None else "--num_nodes"
        count = gpus if gpus is not None else nodes
        value = info.env["CUDA_VISIBLE_DEVICES"]
        used = f"GPUs {', '.join(str(i) for i in range(gpus))}" if gpus is not None else "every GPU of each node"
        message = (f"the launch line sets CUDA_VISIBLE_DEVICES={value} for `deepspeed {flag} {count}`: the "
                   f"deepspeed launcher ignores the caller's CUDA_VISIBLE_DEVICES whenever {flag} (or "
                   f"--num_nodes/--include/--exclude) is given, and starts the ranks on {used}, not on "
                   f"{value}. Select the devices with `deepspeed --include localhost:{value}` instead")
        yield from self._place(pctx, message, exported=False)

    def _no_slot(self, pctx: PlanContext, value: str, visible: list[int]) -> Iterable[Finding]:
        """``CUDA_VISIBLE_DEVICES=1`` (exported or on the line) and a bare ``deepspeed train.py``: the
        launcher turns the list into ``--include localhost:1`` but counts the GPUs it can see (one,
        numbered 0), so the included slot does not exist."""
        missing = [i for i in visible if i >= len(visible)]
        if not missing:
            return  # every listed index is a slot the launcher sees (``1,0``)
        message = (f"CUDA_VISIBLE_DEVICES={value} is set for a bare `deepspeed` launch: the launcher turns it "
                   f"into `--include localhost:{value}`, but it counts only the {len(visible)} GPU(s) that "
                   f"variable leaves visible, numbered 0..{len(visible) - 1}, and fails with \"ValueError: No "
                   f"slot '{missing[0]}' specified on host 'localhost'\" before any rank starts. Select the GPUs "
                   f"with the launcher instead (`deepspeed --include localhost:{value} ...`) and do not set "
                   "CUDA_VISIBLE_DEVICES")
        yield from self._place(pctx, message, exported=True)

    def _place(self, pctx: PlanContext, message: str, exported: bool) -> Iterable[Finding]:
        """On the launch line of the launch script (on its ``export CUDA_VISIBLE_DEVICES=`` line when
        the value comes from there), else on the script's ``deepspeed.initialize`` (else line 1)."""
        if pctx.project.launch_at is not None:
            path, line = pctx.project.launch_at
            if exported and "CUDA_VISIBLE_DEVICES=" not in pctx._line_text(path, line):
                for earlier in range(line - 1, 0, -1):
                    if pctx._line_text(path, earlier).lstrip().startswith("export CUDA_VISIBLE_DEVICES="):
                        line = earlier
                        break
            yield pctx.location_finding(self, path, line, message)
            return
        for script in pctx.scripts:
            site = next((s for s in pctx.index(script).calls
                         if (s.qualified or s.name or "").startswith("deepspeed")
                         and (s.name or "").split(".")[-1] == "initialize"), None)
            if site is not None:
                yield pctx.code_finding(self, script, site.call, message)
                return
        if pctx.scripts:
            yield pctx.location_finding(self, pctx.scripts[0].source.display, 1, message)
