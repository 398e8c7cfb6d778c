"""PF200 lightning-checkpoint-loaded-onto-saved-gpu-per-rank: every process of a multi-GPU Lightning run calls
``Model.load_from_checkpoint(path)`` without ``map_location``; from Lightning 2.1 each copy is restored onto the
GPU the checkpoint was saved from (cuda:0)."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pf307_releases import multi_process, strategy
from preflight.rules.plan._pinned_release import LIGHTNING_PACKAGES
from preflight.sources import ParsedPython

_RANK_TEST = re.compile(r"rank|is_global_zero|main_process|master", re.IGNORECASE)
_GPU = (None, "gpu", "cuda", "auto")


def _const(node: Optional[ast.AST]) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def _lightning_version(pctx: PlanContext, script: ParsedPython) -> Optional[Any]:
    for package in LIGHTNING_PACKAGES:
        found = pctx.version(package, script)
        if found is not None:
            return found
    return None


def _subprocess_gpu_trainer(pctx: PlanContext, script: ParsedPython, trainer: ast.Call) -> Optional[ast.AST]:
    """The argument that makes ``trainer`` start several GPU processes that each re-run the script (ddp,
    fsdp, deepspeed; not ``ddp_spawn``/``dp``), or None. A Trainer given ``gpus=`` or ``distributed_backend=``
    (removed in Lightning 2.0) is an older release, whose default maps to the CPU: None."""
    if kwarg(trainer, "gpus") is not None or kwarg(trainer, "distributed_backend") is not None:
        return None
    accel = kwarg(trainer, "accelerator")
    if accel is not None and (not isinstance(_const(accel), str) or _const(accel).lower() not in _GPU):
        return None
    if kwarg(trainer, "devices") is None or not multi_process(pctx, script, trainer):
        return None
    given = kwarg(trainer, "strategy")
    name = strategy(trainer)
    if name is None:  # a strategy object
        text = ast.unparse(given) if given is not None else ""
        if not re.search(r"DDPStrategy|FSDPStrategy|DeepSpeedStrategy", text) or "spawn" in text:
            return None
    elif name and ("spawn" in name or name in ("dp", "ddp2", "horovod", "single_device") or "notebook" in name
                   or "fork" in name):
        return None
    return given if given is not None else kwarg(trainer, "devices")


def _dict_has_key(fn: Optional[ast.AST], tree: ast.AST, name: str, key: str) -> Optional[bool]:
    """Whether the dict literal ``name`` is bound to (one binding, in ``fn`` or the module) has ``key``;
    None when preflight cannot read it."""
    bound = [n.value for n in ast.walk(fn if fn is not None else tree) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if len(bound) != 1 or not isinstance(bound[0], ast.Dict) or any(k is None for k in bound[0].keys):
        return None
    return any(isinstance(k, ast.Constant) and k.value == key for k in bound[0].keys)


@register
class LightningCheckpointLoadedOntoSavedGpuPerRank(PlanRule):
    code = "PF200"
    name = "lightning-checkpoint-loaded-onto-saved-gpu-per-rank"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("lightning",)
    summary = ("Every process of a multi-GPU Lightning run calls `load_from_checkpoint` without `map_location`: "
               "from Lightning 2.1 each copy is restored onto the GPU it was saved from (cuda:0)")
    explanation = """
## What it finds

`SomeModule.load_from_checkpoint(path, ...)` without `map_location` (no keyword, no second
argument, no `**kwargs` that may hold it) in the script that builds a Lightning `Trainer` running
several GPU processes that each re-run the script (`devices=4` with the default, `ddp`, `fsdp` or
`deepspeed` strategy), outside any rank test, when the project's Lightning is
2.1 or later (pinned, a lower bound, or not stated: the current release).

## Why it matters

Since Lightning 2.1 (PR 18079) `load_from_checkpoint` maps storages with `_default_map_location`,
which keeps `torch.load`'s default of restoring each tensor onto the device it was saved from
whenever CUDA is available, and then moves the module to the device of its first tensor. A
checkpoint written by rank 0 holds `cuda:0` tensors (weights and optimizer state), so each of the
N processes materialises its copy on GPU 0: GPU 0 holds N copies and a CUDA context per process,
and the resumed run dies with CUDA out of memory on GPU 0 or hangs at startup
(Lightning-AI/pytorch-lightning#19219, "4 processes are using GPU0", fixed with
`map_location="cpu"`; mir-group/nequip PR 613, "on an 8-rank DDP job, all 8 models load on GPU 0
first ... which causes a hang on startup"). Before 2.1 the default mapped to the CPU.
`torch.load` without `map_location` in a DDP script is PF126.

## How to fix it

`Model.load_from_checkpoint(path, map_location="cpu")` (the Trainer then moves the module to each
rank's device), or resume the whole training state with `trainer.fit(model, ckpt_path=path)`.

## When preflight stays silent

* `map_location` is given, or a `**kwargs` dict preflight cannot read could give it.
* The Trainer runs one process, on the CPU, or starts its processes by spawning (`ddp_spawn`,
  `ddp_notebook`, `dp`), where the script body runs once; or it takes `gpus=`/`distributed_backend=`
  (Lightning 1.x, whose default maps to the CPU).
* The load sits under a rank test, in a test function, or in a file without the Trainer.
* The project pins Lightning below 2.1 (the default then maps to the CPU).
"""
    bad_examples = examples("preflight.rules.plan._pf200_examples", "PF200_BAD")
    good_examples = examples("preflight.rules.plan._pf200_examples", "PF200_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "load_from_checkpoint" not in text or "Trainer" not in text:
                continue
            idx = pctx.index(script)
            trainers = [c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and call_last(c) == "Trainer"
                        and (idx.qualify(ast.unparse(c.func)) or "").startswith(("pytorch_lightning", "lightning"))]
            if len(trainers) != 1:
                continue
            why = _subprocess_gpu_trainer(pctx, script, trainers[0])
            if why is None:
                continue
            version = _lightning_version(pctx, script)
            if version is not None and version.how == "pinned" and not version.at_least(2, 1):
                continue
            yield from self._loads(pctx, script, trainers[0], why, version)

    def _loads(self, pctx: PlanContext, script: ParsedPython, trainer: ast.Call, why: ast.AST,
               version: Optional[Any]) -> Iterable[Finding]:
        fctx = pctx.file_context(script)
        for call in fctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "load_from_checkpoint"):
                continue
            if len(call.args) > 1 or kwarg(call, "map_location") is not None or not (call.args or kwarg(
                    call, "checkpoint_path") is not None):
                continue
            fn = fctx.enclosing_function(call)
            unreadable = False
            for kw in call.keywords:
                if kw.arg is None:
                    has = _dict_has_key(fn, script.tree, kw.value.id, "map_location") if isinstance(
                        kw.value, ast.Name) else None
                    unreadable = unreadable or has is None or has
            if unreadable:
                continue
            ancestors = list(fctx.ancestors(call))
            if any(isinstance(a, ast.If) and _RANK_TEST.search(ast.unparse(a.test)) for a in ancestors):
                continue
            if any(isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                   and a.name.lower().startswith("test") for a in ancestors):
                continue
            if any(isinstance(a, ast.ClassDef) for a in ancestors):
                continue  # a hook or method of a class: not the script body every process runs
            release = f"Lightning {version.text}" if version is not None else "Lightning >= 2.1"
            path = ast.unparse(call.args[0] if call.args else kwarg(call, "checkpoint_path"))  # type: ignore[arg-type]
            yield fctx.finding(
                self, call,
                f"every process of this multi-GPU run (`{ast.unparse(why)}`, Trainer at line {trainer.lineno}) "
                f"calls `{ast.unparse(call.func)}({path}, ...)` without `map_location`: on {release} each "
                "process restores the checkpoint onto the GPU it was saved from (cuda:0), so GPU 0 holds one copy "
                "of the weights and optimizer state per process and the run runs out of memory or hangs there "
                "(Lightning issue 19219). Pass `map_location=\"cpu\"`",
                evidence=[fctx.evidence(trainer, "the Trainer starts several GPU processes")])
