"""PF153 custom-checkpoint-named-extra-file: a script writes a file whose name contains
``custom_checkpoint`` (a backup such as ``custom_checkpoint_0.pkl.bak``) into the folder it gives
``accelerator.save_state``, on accelerate older than 0.21, whose ``load_state`` counts every such file."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version

# accelerate 0.21.0 counts only ^custom_checkpoint_\d+\.pkl$ (accelerator.py:2717 at v0.21.0); v0.6.0 to
# v0.20.0 count every name holding the substring and skip every registered object on a mismatch
_FIXED = (0, 21)
_EXACT = re.compile(r"^custom_checkpoint_\d+\.pkl$")
_COPIES = ("copy", "copy2", "copyfile", "move", "rename", "replace", "symlink", "link")
_SAVES = ("save", "dump")


def _destination(call: ast.Call) -> Optional[ast.AST]:
    """The path a call writes to: shutil.copy/move, os.rename/replace (second argument), torch.save /
    pickle.dump-like saves (second argument or ``f=``), ``open(path, "w"/"wb"/"x")``."""
    last = call_last(call)
    if last in _COPIES and isinstance(call.func, ast.Attribute) and len(call.args) >= 2:
        return call.args[1]
    if last in _SAVES and isinstance(call.func, ast.Attribute):
        return call.args[1] if len(call.args) >= 2 else kwarg(call, "f")
    if last == "open" and isinstance(call.func, ast.Name) and call.args:
        mode = const_str(call.args[1]) if len(call.args) >= 2 else const_str(kwarg(call, "mode"))
        if mode is not None and any(c in mode for c in "wax"):
            return call.args[0]
    return None


def _split(path: ast.AST) -> Optional[tuple[Optional[ast.AST], str]]:
    """(folder expression, file name) of ``os.path.join(folder, "name")``, ``folder / "name"`` or
    ``f"{folder}/name"``; None when the last piece is not a literal."""
    if isinstance(path, ast.Call) and call_last(path) == "join" and len(path.args) >= 2:
        name = const_str(path.args[-1])
        folder = path.args[0] if len(path.args) == 2 else None
        return (folder, name) if name is not None else None
    if isinstance(path, ast.BinOp) and isinstance(path.op, ast.Div):
        name = const_str(path.right)
        return (path.left, name) if name is not None else None
    if isinstance(path, ast.JoinedStr) and len(path.values) == 2 and isinstance(path.values[0], ast.FormattedValue):
        name = const_str(path.values[1])
        if name is not None and name.startswith("/"):
            return path.values[0].value, name[1:]
    return None


def _state_folders(tree: ast.AST) -> list[str]:
    """ast.dump of each folder given to ``save_state`` (first argument or ``output_dir=``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "save_state":
            folder = node.args[0] if node.args else kwarg(node, "output_dir")
            if folder is not None:
                out.append(ast.dump(folder))
    return out


def _extra_files(tree: ast.AST) -> Iterator[tuple[ast.Call, str]]:
    folders = _state_folders(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        dest = _destination(node)
        parts = _split(dest) if dest is not None else None
        if parts is None:
            continue
        folder, name = parts
        if "custom_checkpoint" in name and not _EXACT.match(name) and folder is not None \
                and ast.dump(folder) in folders:
            yield node, name


@register
class CustomCheckpointNamedExtraFile(PlanRule):
    code = "PF153"
    name = "custom-checkpoint-named-extra-file"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A file named `custom_checkpoint*` (a backup) written into the `save_state` folder on accelerate "
               "< 0.21: `load_state` counts it and skips every registered object")
    explanation = """
## What it finds

A script that registers objects with `accelerator.register_for_checkpointing`, resumes with
`accelerator.load_state`, and writes a file whose name contains `custom_checkpoint` but is
not accelerate's own `custom_checkpoint_<i>.pkl` (`custom_checkpoint_0.pkl.bak`, a copy, a
`torch.save`, an `open(..., "w")`) into the very folder it gives `accelerator.save_state`
(`os.path.join(state_dir, ...)`, `state_dir / ...`, `f"{state_dir}/..."`), in a project that
pins accelerate older than 0.21.0.

## Why it matters

From v0.6.0 to v0.20.0 `load_state` lists the folder with
`[f for f in os.listdir(input_dir) if "custom_checkpoint" in f]` and, when the count differs
from the number of registered objects, logs "Number of found checkpoints does not match ...
Skipping." and restores none of them: the run resumes with a fresh EMA / sampler / scheduler
state while the model and optimizer come back (accelerate issue 1563; muellerzr: "it can't
have the name custom_checkpoint because that is what we expect to read from"). PR 1568
(v0.21.0) counts only `^custom_checkpoint_\\d+\\.pkl$` and raises on a mismatch.

## How to fix it

Keep the backup in another folder or under a name without `custom_checkpoint`, or upgrade to
accelerate 0.21.0 or later.

## When preflight stays silent

* The file is written elsewhere than the `save_state` folder, or under a name without
  `custom_checkpoint`, or is exactly `custom_checkpoint_<i>.pkl` (accelerate's own name).
* Reading the file (`torch.load`, `shutil.copy` *from* it) is fine.
* The project does not pin accelerate, or pins 0.21.0 or later; the job never calls `load_state`.
"""
    bad_examples = examples("preflight.rules.plan._pf153_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf153_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.source.text
            if "custom_checkpoint" not in text or "load_state" not in text \
                    or "register_for_checkpointing" not in text or "save_state" not in text:
                continue
            version = pinned_version(pctx, "accelerate", script)
            if version is None or version.at_least(*_FIXED):
                continue
            for call, name in _extra_files(script.tree):
                yield pctx.code_finding(self, script, call, (
                    f"`{name}` is written into the folder given to `accelerator.save_state`: on "
                    f"{version.describe()} `load_state` counts every file whose name contains `custom_checkpoint`, "
                    "finds more than the registered objects and skips restoring all of them (accelerate issue "
                    "1563; 0.21.0 counts only `custom_checkpoint_<i>.pkl`). Keep the file in another folder or "
                    "under another name"))
