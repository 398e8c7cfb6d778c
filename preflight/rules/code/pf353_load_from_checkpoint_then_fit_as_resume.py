"""PF353 load-from-checkpoint-then-fit-as-resume: a run's own checkpoint (``last.ckpt``, a ``--resume``
path, the ModelCheckpoint directory) loaded with ``load_from_checkpoint`` and passed to ``trainer.fit``
without ``ckpt_path``: only the weights come back, the optimizer, schedule and loop counters restart."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg, literal
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

_RESUME_WORDS = ("resume", "restart", "continue")
# keywords of load_from_checkpoint that only say how to load; any other keyword overrides a hyperparameter
_LOADING_KEYS = frozenset({"checkpoint_path", "map_location", "strict", "hparams_file", "weights_only"})


def _name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _checkpoint_dirs(ctx: FileContext) -> list[str]:
    out = []
    for call in ctx.nodes(ast.Call):
        if call_last(call) == "ModelCheckpoint":
            where = literal(ctx, kwarg(call, "dirpath") or (call.args[0] if call.args else None))
            if isinstance(where, str) and where.strip("./"):
                out.append(where.strip("./"))
    return out


def _resume_evidence(ctx: FileContext, path: ast.expr) -> Optional[str]:
    """Why ``path`` names this run's own checkpoint, or None."""
    text = ast.unparse(path).lower()
    word = next((w for w in _RESUME_WORDS if w in text), None)
    if word:
        return f"the path comes from `{ast.unparse(path)}`"
    value = literal(ctx, path)
    if not isinstance(value, str):
        return None
    base = value.replace("\\", "/").rsplit("/", 1)[-1]
    if base.startswith("last") and base.endswith(".ckpt"):
        return f"`{value}` is the last checkpoint ModelCheckpoint(save_last=True) writes"
    if any(w in value.lower() for w in _RESUME_WORDS):
        return f"`{value}` is a resume checkpoint"
    for folder in _checkpoint_dirs(ctx):
        if value.strip("./").startswith(folder + "/"):
            return f"`{value}` lies in `{folder}`, where this script's ModelCheckpoint saves"
    return None


def _binding(ctx: FileContext, before: ast.expr, name: str) -> Optional[ast.Assign]:
    scopes = {ctx.enclosing_function(before), None}
    best: Optional[ast.Assign] = None
    for assign in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(assign) not in scopes or assign.lineno > before.lineno \
                or ctx.under(before, assign):
            continue
        if any(_name(t) == name for t in assign.targets) and (best is None or assign.lineno >= best.lineno):
            best = assign
    return best


def _resumes_elsewhere(ctx: FileContext) -> bool:
    """The Trainer is told to resume (``resume_from_checkpoint=``, pytorch-lightning < 2.0)."""
    return any(call_last(c) == "Trainer" and kwarg(c, "resume_from_checkpoint") is not None
               for c in ctx.nodes(ast.Call))


@register
class LoadFromCheckpointThenFitAsResume(Rule):
    code = "PF353"
    needs_text = ("load_from_checkpoint",)
    name = "load-from-checkpoint-then-fit-as-resume"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("a run's own checkpoint loaded with `load_from_checkpoint` and passed to `trainer.fit` without "
               "`ckpt_path`: only the weights resume; optimizer, schedule and epoch restart")
    url = "https://github.com/Lightning-AI/pytorch-lightning/issues/12280"
    explanation = """
## What it finds

`model = MyModule.load_from_checkpoint(path)` followed by `trainer.fit(model, ...)`
without `ckpt_path=`, where `path` is the run's own checkpoint: `last.ckpt`, a path in the
directory this script's `ModelCheckpoint` saves to, or a value named for resuming
(`args.resume`, `cfg.resume_from`, `restart.ckpt`...).

## Why it matters

`load_from_checkpoint` restores the module's weights and hyperparameters only. `fit`
then builds a fresh optimizer and LR schedule from `configure_optimizers` and starts its
loop at epoch 0, step 0: Adam's moments are gone, a warmup or OneCycle schedule starts over,
and `max_epochs` more epochs run. Lightning resumes the full training state (optimizer,
schedulers, loops, callbacks, precision scaler) only from `trainer.fit(model,
ckpt_path=path)` (pytorch-lightning issue 12280; `Trainer(resume_from_checkpoint=...)`
before 2.0).

## How to fix it

Build the module as usual and pass the checkpoint to fit:
`trainer.fit(model, datamodule=dm, ckpt_path=path)`.

## When preflight stays silent

* `fit` has `ckpt_path=` (or `**kwargs`), or the Trainer has `resume_from_checkpoint=`.
* The checkpoint is not recognisably the run's own (a pretrained or best checkpoint of
  another run to fine-tune from: a new optimizer is what fine-tuning wants).
* `load_from_checkpoint` overrides hyperparameters (`lr=1e-4`, `num_classes=10`): a
  fine-tune with new settings, which wants a fresh optimizer.
* The loaded model is not the one passed to `fit`.
"""
    bad_examples = examples("preflight.rules.code._pf353_examples", "PF353_BAD")
    good_examples = examples("preflight.rules.code._pf353_examples", "PF353_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if _resumes_elsewhere(ctx):
            return
        for fit in ctx.nodes(ast.Call):
            if call_last(fit) != "fit" or not isinstance(fit.func, ast.Attribute) or has_unpacking(fit):
                continue
            if kwarg(fit, "ckpt_path") is not None or len(fit.args) > 4:
                continue
            model = fit.args[0] if fit.args else kwarg(fit, "model")
            name = _name(model) if model is not None else None
            if model is None or name is None:
                continue
            bound = _binding(ctx, model, name)
            load = bound.value if bound is not None else None
            if not (isinstance(load, ast.Call) and call_last(load) == "load_from_checkpoint"):
                continue
            if any(kw.arg not in _LOADING_KEYS for kw in load.keywords):
                continue  # new hyperparameters (`lr=1e-4`, `num_classes=10`): a fine-tune from the checkpoint
            path = load.args[0] if load.args else kwarg(load, "checkpoint_path")
            why = _resume_evidence(ctx, path) if path is not None else None
            if why is None:
                continue
            yield ctx.finding(self, fit, (
                f"`{name}` comes from load_from_checkpoint of this run's checkpoint and is passed to fit without "
                "ckpt_path: Lightning restores only the weights this way, so fit builds a fresh optimizer and "
                "LR schedule and starts again at epoch 0 (Adam's moments, a warmup/OneCycle position and the "
                "step counters are lost). Pass ckpt_path= to fit to resume the training state"),
                evidence=[ctx.evidence(load, why)])
