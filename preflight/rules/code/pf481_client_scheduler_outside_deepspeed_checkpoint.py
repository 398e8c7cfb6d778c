"""PF481 client-scheduler-outside-deepspeed-checkpoint: an LR scheduler built and stepped by hand next to
``deepspeed.initialize`` without ``lr_scheduler=``: ``save_checkpoint``/``load_checkpoint`` do not carry
its state, and a resumed run restarts the schedule."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._scheduler_steps import is_scheduler


@register
class ClientSchedulerOutsideDeepSpeedCheckpoint(Rule):
    code = "PF481"
    needs_text = ("load_checkpoint",)
    name = "client-scheduler-outside-deepspeed-checkpoint"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("An LR scheduler stepped by hand is not passed to `deepspeed.initialize`: DeepSpeed checkpoints "
               "do not carry its state and a resumed run restarts the schedule")
    explanation = """
## What it finds

In one function: `deepspeed.initialize(...)` without `lr_scheduler=`, a
`torch.optim.lr_scheduler` scheduler or transformers `get_*_schedule*` built and
stepped by hand (`scheduler.step()`), and an `engine.load_checkpoint(...)` in the file
(the run resumes), while the file never saves or restores the scheduler's own state
(`scheduler.state_dict()` / `scheduler.load_state_dict(...)`, e.g. in `client_state`).

## Why it matters

`DeepSpeedEngine.save_checkpoint` stores `self.lr_scheduler.state_dict()` and
`load_checkpoint` restores it only for the scheduler the engine owns: the one passed as
`deepspeed.initialize(lr_scheduler=...)` or built from the config's `"scheduler"`
(`deepspeed/runtime/engine.py`). A client scheduler kept outside is not in the
checkpoint, so a resumed run starts the warm-up and the decay again from step 0
(DeepSpeed issue 3875: "the deepspeed stage 3 do not save the lr scheduler ... the
learning rate is not continue").

## How to fix it

Pass it: `deepspeed.initialize(..., optimizer=optimizer, lr_scheduler=scheduler)` (and
let the engine step it), or save `scheduler.state_dict()` in `client_state` and load it
back after `load_checkpoint`.

## When preflight stays silent

* `lr_scheduler=` is given to `deepspeed.initialize`, or the file calls the scheduler's
  `state_dict`/`load_state_dict`.
* Nothing in the file calls `load_checkpoint` (no resume), or the scheduler is never
  stepped by hand.
"""
    bad_examples = examples("preflight.rules.code._pf481_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf481_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        inits: list[ast.Call] = []
        schedulers: dict[str, ast.Call] = {}
        for call, qual in calls(ctx):
            if qual == "deepspeed.initialize":
                if kwarg(call, "lr_scheduler") is not None or any(k.arg is None for k in call.keywords):
                    return
                inits.append(call)
            elif is_scheduler(qual):
                parent = ctx.parent(call)
                if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
                    name = target_text(parent.targets[0])
                    if name:
                        schedulers[name] = call
        if not inits or not schedulers:
            return
        stepped: set[str] = set()
        resumes = False
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute):
                continue
            receiver = target_text(func.value)
            if func.attr == "load_checkpoint":
                resumes = True
            elif receiver in schedulers and func.attr in ("state_dict", "load_state_dict"):
                return  # the scheduler's state is saved or restored by hand
            elif receiver in schedulers and func.attr == "step":
                stepped.add(receiver)
        if not resumes:
            return
        for name in sorted(stepped):
            built = schedulers[name]
            init = self._same_function(ctx, built, inits)
            if init is None:
                continue
            yield ctx.finding(
                self, init,
                f"`{name}` is stepped by hand but not passed to `deepspeed.initialize(lr_scheduler=...)`: the "
                "engine's `save_checkpoint`/`load_checkpoint` store and restore only the scheduler it owns, so a "
                "resumed run restarts the warm-up and decay from step 0. Pass `lr_scheduler=` (or save "
                f"`{name}.state_dict()` in `client_state` and load it back)",
                evidence=[ctx.evidence(built, "the client scheduler is built here")])

    @staticmethod
    def _same_function(ctx: FileContext, built: ast.Call, inits: list[ast.Call]) -> Optional[ast.Call]:
        fn = ctx.enclosing_function(built)
        return next((c for c in inits if ctx.enclosing_function(c) is fn), None)
