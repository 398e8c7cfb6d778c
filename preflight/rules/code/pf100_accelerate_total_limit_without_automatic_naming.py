"""PF100 accelerate-total-limit-without-automatic-naming: ``ProjectConfiguration(total_limit=N)`` while the
script saves with ``accelerator.save_state(<its own folder>)`` and automatic checkpoint naming is off:
Accelerate prunes old states only under its automatic naming, so every checkpoint is kept and the disk fills."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# a script that deletes folders itself (the diffusers examples after issue 3802 list the checkpoints and
# ``shutil.rmtree`` the oldest): the limit is applied by hand
_PRUNERS = frozenset({"rmtree", "rmdir", "remove", "unlink", "rm_tree", "rm"})


def _limit(call: ast.Call) -> Optional[ast.keyword]:
    """The ``total_limit=`` keyword of ``ProjectConfiguration(...)`` when it is not a literal ``None``."""
    if call_last(call) != "ProjectConfiguration":
        return None
    if any(k.arg is None for k in call.keywords):
        return None  # ``**kwargs``: automatic naming may be in it
    kws = {k.arg: k for k in call.keywords}
    limit = kws.get("total_limit")
    if limit is None or (isinstance(limit.value, ast.Constant) and limit.value.value is None):
        return None
    return limit


def _automatic_naming_set(ctx: FileContext) -> bool:
    """``automatic_checkpoint_naming=<anything but False>`` in a call, or assigned to an attribute."""
    for call in ctx.nodes(ast.Call):
        for k in call.keywords:
            if k.arg == "automatic_checkpoint_naming" and not (
                    isinstance(k.value, ast.Constant) and k.value.value is False):
                return True
    for node in ctx.nodes(ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Attribute) and t.attr == "automatic_checkpoint_naming":
                return True
    return False


def _save_with_path(ctx: FileContext) -> Optional[ast.Call]:
    """The first ``<accelerator>.save_state(path)`` (positional or ``output_dir=``)."""
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "save_state"):
            continue
        if "accelerat" not in ast.unparse(call.func.value).lower():
            continue
        if call.args or any(k.arg == "output_dir" for k in call.keywords):
            return call
    return None


def _prunes(ctx: FileContext) -> bool:
    return any(call_last(c) in _PRUNERS for c in ctx.nodes(ast.Call))


@register
class AccelerateTotalLimitWithoutAutomaticNaming(Rule):
    code = "PF100"
    name = "accelerate-total-limit-without-automatic-naming"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    needs_text = ("total_limit",)
    summary = ("`ProjectConfiguration(total_limit=...)` without `automatic_checkpoint_naming=True` while "
               "`save_state` writes to the script's own folders: the limit is never applied and every "
               "checkpoint stays on disk")
    explanation = """
## What it finds

`ProjectConfiguration(total_limit=N)` (N not a literal `None`) in a file that never sets
`automatic_checkpoint_naming` (neither as a keyword nor by assigning the attribute), saves with
`accelerator.save_state(path)` (a positional path or `output_dir=`), and deletes no folder itself
(no `shutil.rmtree`, `os.remove`, `os.rmdir`, `unlink`).

## Why it matters

Accelerate applies `total_limit` only to the states it names itself: `save_state()` under
`automatic_checkpoint_naming=True` writes `<project_dir>/checkpoints/checkpoint_<i>` and deletes the
oldest beyond the limit. A state saved to a folder the script names (`checkpoint-{global_step}`) is
never counted nor pruned, so the `--checkpoints_total_limit` flag has no effect: every checkpoint (a
full UNet plus optimizer state is several GB) stays and the disk fills mid-run (diffusers issues 2466
"`checkpoints_total_limit` seems to be not limiting" and 3802 "--checkpoints_total_limit argument
doesn't work in training examples"; accelerate issue 1265).

## How to fix it

`ProjectConfiguration(total_limit=N, automatic_checkpoint_naming=True)` and call
`accelerator.save_state()` without a path, or keep your own folder names and delete the oldest
checkpoints before each save (what the diffusers examples do now).

## When preflight stays silent

* `automatic_checkpoint_naming` is set anywhere in the file, or the configuration is built with `**kwargs`.
* Every `save_state` call has no path (automatic naming is then required anyway).
* The file removes folders or files itself (`shutil.rmtree`, `os.remove`, `os.rmdir`, `Path.unlink`):
  it may prune by hand; preflight does not prove the pruning is right.
* `total_limit=None`.
"""
    bad_examples = examples("preflight.rules.code._pf100_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf100_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        config = next((c for c in ctx.nodes(ast.Call) if _limit(c) is not None), None)
        if config is None or _automatic_naming_set(ctx):
            return
        save = _save_with_path(ctx)
        if save is None or _prunes(ctx):
            return
        limit = _limit(config)
        assert limit is not None
        yield ctx.finding(
            self, config,
            f"`ProjectConfiguration(total_limit={ast.unparse(limit.value)})` is built without "
            "`automatic_checkpoint_naming=True`, and the states are saved to the script's own folders "
            f"(`{ast.unparse(save)}`, line {save.lineno}): Accelerate prunes only automatically named "
            "checkpoints, so the limit is never applied and every checkpoint stays on disk until it fills; "
            "turn on automatic naming and call `save_state()` without a path, or delete old checkpoints yourself")
