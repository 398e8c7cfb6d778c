"""PF443 resume-checkpoint-incomplete: a resume checkpoint with the optimizer's state but not the scheduler's, the
GradScaler's or the weight EMA's."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_PROGRESS_WORDS = ("epoch", "step", "iter")
_SAVERS = ("save", "save_file")


def _key(node: Optional[ast.expr]) -> str:
    return node.value.lower() if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _is_state_dict_of(value: ast.expr, word: str) -> bool:
    return isinstance(value, ast.Call) and call_last(value) == "state_dict" \
        and isinstance(value.func, ast.Attribute) and word in ast.unparse(value.func.value).lower()


def _resume_dict(d: ast.Dict) -> bool:
    """``{"epoch": e, "model": m.state_dict(), "optimizer": opt.state_dict()}``: what a resume reads."""
    keys = [_key(k) for k in d.keys]
    if any(k is None for k in d.keys):
        return False  # ``**extra``: more may be saved
    has_optim = any(("optim" in k or _is_state_dict_of(v, "optim")) and isinstance(v, ast.Call)
                    for k, v in zip(keys, d.values))
    return has_optim and any(any(w in k for w in _PROGRESS_WORDS) for k in keys)


# weight averagers whose shadow weights and update counter a resume must restore: timm ModelEma(V2/V3),
# diffusers EMAModel, torch.optim.swa_utils.AveragedModel, ema_pytorch.EMA, torch_ema.ExponentialMovingAverage,
# and a project's own EMA class
_EMA_UPDATES = ("update", "update_parameters", "step")


def _is_ema_ctor(call: ast.Call) -> bool:
    name = call_last(call)
    return name in ("AveragedModel", "ExponentialMovingAverage") or name.startswith("ModelEma") \
        or name.endswith("Ema") or re.search(r"(?:^|[a-z_])EMA(?:[A-Z][a-z]|_|$)", name) is not None


def _ema_objects(scope: ast.AST) -> dict[str, tuple[str, ast.AST]]:
    """``text -> ("EMA", its update)`` of the weight averagers built in ``scope`` and updated there."""
    built: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                and _is_ema_ctor(node.value):
            text = target_text(node.targets[0])
            if text:
                built.add(text)
    found: dict[str, tuple[str, ast.AST]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _EMA_UPDATES \
                and ast.unparse(node.func.value) in built:
            found.setdefault(ast.unparse(node.func.value), ("EMA", node))
    return found


def _ema_state_kept(ctx: FileContext, save: ast.Call, text: str) -> bool:
    """Whether the EMA ``text`` is saved where the checkpoint is (in the dict, or by another save or a
    ``state_dict()`` in the innermost loop or function around it) or restored from anywhere in the file."""
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr in ("load_state_dict", "load") \
                and (ast.unparse(call.func.value) + ".").startswith(text + "."):
            return True
    region: ast.AST = save
    for anc in ctx.ancestors(save):
        if isinstance(anc, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            region = anc
            break
    else:
        region = save
    for node in ast.walk(region):
        if isinstance(node, ast.Call) and (call_last(node) in _SAVERS or call_last(node) == "state_dict"):
            inner = [node.func.value] if call_last(node) == "state_dict" and isinstance(node.func, ast.Attribute) \
                else [*node.args, *(k.value for k in node.keywords)]
            for arg in inner:
                if any(isinstance(n, (ast.Name, ast.Attribute)) and ast.unparse(n) == text for n in ast.walk(arg)):
                    return True
    return False


def _stepped_objects(scope: ast.AST) -> dict[str, tuple[str, ast.AST]]:
    """``text -> (kind, a use)`` of the schedulers (``x.step()`` on a name saying sched) and GradScalers
    (built by ``GradScaler(...)``, or named scaler and used for ``scale``/``step``) of ``scope``."""
    found: dict[str, tuple[str, ast.AST]] = {}
    scalers: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                and call_last(node.value) == "GradScaler":
            text = target_text(node.targets[0])
            if text:
                scalers.add(text)
    for node in ast.walk(scope):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = ast.unparse(node.func.value)
        if node.func.attr == "step" and not node.args and not node.keywords and "sched" in owner.lower():
            found.setdefault(owner, ("scheduler", node))
        elif node.func.attr in ("scale", "unscale_") and owner in scalers:
            found.setdefault(owner, ("GradScaler", node))
    return found


def _callers_objects(ctx: FileContext, fn: ast.AST) -> dict[str, tuple[str, ast.AST]]:
    """The schedulers and GradScalers stepped where a plain saving function is called, that the call
    does not hand it (the_well PR 63: ``save_model(epoch, path)`` called from the script's epoch loop,
    which steps the module-level ``lr_scheduler``). A caller's scope is its function, or the script's
    top-level code (not the bodies of its other functions)."""
    name = getattr(fn, "name", None)
    found: dict[str, tuple[str, ast.AST]] = {}
    if not name:
        return found
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id == name):
            continue
        caller = ctx.enclosing_function(call)
        if caller is fn:
            continue
        scope: ast.AST = caller if caller is not None else _top_level(ctx.tree)
        handed = ast.unparse(call)
        for text, entry in _stepped_objects(scope).items():
            # `self.` objects are not the function's; a caller that saves or hands the object on elsewhere
            # (`torch.save(lr_scheduler.state_dict(), ...)`) keeps its state itself
            if text.isidentifier() and text not in handed and not _mentioned(scope, text):
                found.setdefault(text, entry)
    return found


def _top_level(tree: ast.AST) -> ast.Module:
    """A module of the script's top-level statements, function and class definitions left out."""
    body = [st for st in getattr(tree, "body", [])
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return ast.Module(body=body, type_ignores=[])


def _restores_optimizer(ctx: FileContext) -> bool:
    """``<optimizer>.load_state_dict(...)`` somewhere in the file: the script resumes its training state."""
    return any(isinstance(c.func, ast.Attribute) and c.func.attr == "load_state_dict"
               and "optim" in ast.unparse(c.func.value).lower() for c in ctx.nodes(ast.Call))


# uses that neither save nor restore the object's state
_USES = ("step", "scale", "unscale_", "update", "get_last_lr", "get_lr", "get_scale", "zero_grad")


def _mentioned(fn: ast.AST, text: str) -> bool:
    """Whether ``fn`` refers to ``text`` other than by stepping it, reading its rate or assigning it."""
    ignore: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _USES:
            ignore.add(id(node.func.value))
    for node in ast.walk(fn):
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in ignore \
                and not isinstance(node.ctx, ast.Store) and ast.unparse(node) == text:
            return True
    return False


@register
class ResumeCheckpointIncomplete(Rule):
    code = "PF443"
    needs_text = ("state_dict",)
    name = "resume-checkpoint-incomplete"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "A resume checkpoint saves the optimizer's state but not the LR scheduler's, the GradScaler's or the weight EMA's"
    explanation = """
## What it finds

`torch.save({...})` of a dict literal holding the optimizer's `state_dict()` and the
epoch or step (a checkpoint a run resumes from), in a function or class that steps an
LR scheduler (`self.lr_scheduler.step()`) or scales the loss with a `GradScaler`, when
neither the dict nor anything else in the saving function mentions that scheduler or
scaler. A plain saving function also answers for the schedulers its callers step (the
script's epoch loop steps `lr_scheduler` and calls `save_model(epoch, path)`), unless
the call hands the scheduler over. A `torch.save` in the script's top-level code answers
for the schedulers and scalers that top-level code steps, when the script resumes (loads an
optimizer's state) (deep-person-reid issue 270: the
epoch loop steps a `MultiStepLR` and saves model, optimizer and epoch only).

In a script that resumes (it loads an optimizer's state), the same checkpoint must also hold
the state of an exponential moving average of the weights that the training loop updates
(`ema = ModelEmaV2(model)` / `EMAModel` / `AveragedModel` / `ExponentialMovingAverage` / a
project's `EMA` class, with `ema.update(...)`, `ema.update_parameters(...)` or `ema.step(...)`):
the EMA must appear in the checkpoint dict, or be saved or `state_dict()`-ed in the loop (or
function) that writes the checkpoint, or be restored with `load_state_dict` somewhere in the
file (ai2cm/ace issue 349: "When training stops and resumes, the EMA model is reset to the
non-EMA state").

## Why it matters

A resumed run restores the weights, the optimizer and the epoch counter, but builds the
scheduler and the scaler afresh: the warmup and cosine schedule restart from step 0
(the learning rate jumps back up mid-training) and the loss scale restarts at 65536,
and a rebuilt EMA starts again from the current raw weights with its update counter (and its
warm-up) at 0, so the averaged weights that are validated and exported restart after every
preemption; the resumed run differs from an uninterrupted one (the_well issue 77: "the LR
scheduling state and the grad scaler are not stored with the rest of the training run
data").

## How to fix it

Save `"lr_scheduler": self.lr_scheduler.state_dict()` and
`"grad_scaler": self.grad_scaler.state_dict()` (and `"ema": ema.state_dict()`) with the rest, and load
them on resume.

## When preflight stays silent

* The saving function mentions the scheduler or the scaler in any way (saved under
  another key, pickled whole, saved to another file).
* The dict has no optimizer state or no epoch/step key (a weights-only export), or
  `**` entries.
* The file rebuilds the schedule from the epoch (`last_epoch=` given to a scheduler): no
  scheduler or scaler finding (the EMA is still checked).
* An EMA exported only once after training (`torch.save(ema.module.state_dict(), ...)` after the
  loop) in a script that never resumes.
"""
    bad_examples = examples("preflight.rules.code._pf443_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf443_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.call_names().isdisjoint(_SAVERS):
            return
        rebuilt_schedule = ctx.mentions("last_epoch")
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in _SAVERS or not call.args or not isinstance(call.args[0], ast.Dict):
                continue
            if not _resume_dict(call.args[0]):
                continue
            fn = ctx.enclosing_function(call)
            if fn is None and not _restores_optimizer(ctx):
                continue  # a top-level save answers only in a script that resumes from its checkpoints
            scope: ast.AST = fn if fn is not None else _top_level(ctx.tree)  # a script saving at top level
            klass = ctx.enclosing(fn, ast.ClassDef) if fn is not None else None
            objects = _stepped_objects(scope)
            if klass is not None:
                objects.update({k: v for k, v in _stepped_objects(klass).items() if k.startswith("self.")})
            elif fn is not None:
                objects.update({k: v for k, v in _callers_objects(ctx, fn).items() if k not in objects})
            missing = [] if rebuilt_schedule else \
                [(text, kind, use) for text, (kind, use) in objects.items() if not _mentioned(scope, text)]
            if _restores_optimizer(ctx):
                emas = _ema_objects(scope)
                if klass is not None:
                    emas.update({k: v for k, v in _ema_objects(klass).items() if k.startswith("self.")})
                missing += [(text, kind, use) for text, (kind, use) in emas.items()
                            if not _ema_state_kept(ctx, call, text)]
            if not missing:
                continue
            names = " and ".join(f"`{text}` ({kind})" for text, kind, _ in missing)
            effects = []
            if any(kind != "EMA" for _, kind, _ in missing):
                effects.append("the LR schedule restarts (warmup again, the cosine from the top) and the loss "
                               "scale restarts at its initial value")
            if any(kind == "EMA" for _, kind, _ in missing):
                effects.append("the moving average restarts from the current raw weights with its update "
                               "counter at 0 (the averaged weights that are validated or exported start over "
                               "after every resume)")
            yield ctx.finding(
                self, call,
                f"this checkpoint saves the optimizer's state and the progress counter but not {names}: a run "
                f"resumed from it rebuilds them from scratch, so {'; '.join(effects)}. Save their "
                "`state_dict()` with the rest and load them on resume",
                evidence=[ctx.evidence(use, f"the {kind} is {'updated' if kind == 'EMA' else 'used'} here")
                          for _, kind, use in missing])
