"""PF1231 training-step-disconnected-on-some-ranks: a Lightning ``training_step`` that, on a condition,
returns a fresh leaf tensor (``torch.tensor(0.0, requires_grad=True)``) not connected to the model, or
returns None while the project's multi-process Trainer is in another file."""

from __future__ import annotations

import ast
import textwrap
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import examples
from preflight.rules.code._metric_sync import is_lightning_qual, multi_process_arg
from preflight.rules.code._pf27x_support import (
    lightning_classes,
    manual_optimization,
    method,
    none_return,
    own_nodes,
    synced,
)
from preflight.sources import ParsedPython

_LEAF_MAKERS = frozenset({"torch.tensor", "torch.zeros", "torch.ones", "torch.Tensor", "torch.FloatTensor",
                          "torch.scalar_tensor", "torch.full"})


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    return False


def _fresh_leaf(value: Optional[ast.AST]) -> bool:
    """``torch.tensor(0.0, requires_grad=True, device=...)`` (literal data, forced to require grad):
    a tensor that no parameter of the model produced."""
    node = value
    forced = False
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
            "to", "cuda", "float", "requires_grad_", "type_as"):
        if node.func.attr == "requires_grad_":
            forced = True
        if node.func.attr == "type_as":
            return False  # borrows dtype/device only, still a leaf, but keep to the plain spellings
        node = node.func.value
    if not (isinstance(node, ast.Call) and ast.unparse(node.func) in _LEAF_MAKERS):
        return False
    if not node.args or not all(_literal(a) for a in node.args):
        return False
    return forced or any(k.arg == "requires_grad" and isinstance(k.value, ast.Constant) and k.value.value is True
                         for k in node.keywords)


def _returns(fn: ast.FunctionDef) -> list[ast.Return]:
    return [n for n in own_nodes(fn) if isinstance(n, ast.Return)]


def _locals(fn: ast.FunctionDef) -> set[str]:
    names = {a.arg for a in fn.args.args + fn.args.kwonlyargs if a.arg != "self"}
    for node in own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _per_batch(fn: ast.FunctionDef, test: ast.expr) -> bool:
    """The condition reads a value of this step (the batch, a loss, a local), not only ``self``'s
    settings and constants (``if self.benchmark:`` is the same on every rank)."""
    local = _locals(fn)
    return any(isinstance(n, ast.Name) and n.id in local for n in ast.walk(test))


def _conditional(fn: ast.FunctionDef, ret: ast.Return, per_batch: bool) -> bool:
    """``ret`` sits under an ``if``/``try`` of ``fn`` whose condition the ranks do not share (with
    ``per_batch``: a condition on the step's own values, or an exception)."""
    parents = {id(child): node for node in own_nodes(fn) for child in ast.iter_child_nodes(node)}
    node: ast.AST = ret
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, ast.If) and synced(node.test):
            return False
        if isinstance(node, ast.If) and (not per_batch or _per_batch(fn, node.test)):
            return True
        if isinstance(node, ast.Try):
            return True
    return False


def _divergent(fn: ast.FunctionDef, allow_none: bool) -> Optional[tuple[ast.Return, str]]:
    returns = _returns(fn)
    real = [r for r in returns if not none_return(r) and not _fresh_leaf(r.value)]
    if not real:
        return None  # no path returns a loss of the model
    for ret in sorted(returns, key=lambda r: r.lineno):
        if _fresh_leaf(ret.value) and _conditional(fn, ret, per_batch=True):
            return ret, "leaf"
        if allow_none and none_return(ret) and _conditional(fn, ret, per_batch=False):
            return ret, "none"
    return None


def _trainers(pctx: PlanContext) -> list[tuple[ParsedPython, FileContext, ast.Call]]:
    out = []
    for script in pctx.scripts:
        if "Trainer" not in script.source.text:
            continue
        ctx = pctx.file_context(script)
        for call, qual in calls(ctx):
            if qual.rsplit(".", 1)[-1] == "Trainer" and is_lightning_qual(qual):
                out.append((script, ctx, call))
    return out


def _finds_unused(ctx: FileContext, trainer: ast.Call) -> bool:
    """``DDPStrategy(find_unused_parameters=True)`` / ``"ddp_find_unused_parameters_true"``: DDP then
    all-reduces (zero) gradients of parameters the returned tensor does not reach."""
    text = ast.unparse(trainer)
    if "find_unused_parameters_true" in text or "find_unused_parameters=True" in text:
        return True
    strategy = next((k.value for k in trainer.keywords if k.arg == "strategy"), None)
    if isinstance(strategy, ast.Name):
        return any("find_unused_parameters=True" in ast.unparse(n) for n in ctx.nodes(ast.Assign)
                   if any(isinstance(t, ast.Name) and t.id == strategy.id for t in n.targets))
    return False


@register
class TrainingStepDisconnectedOnSomeRanks(PlanRule):
    code = "PF1231"
    name = "training-step-disconnected-on-some-ranks"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("lightning",)
    summary = ("`training_step` returns, on a per-rank condition, a fresh tensor not connected to the model "
               "(`torch.tensor(0.0, requires_grad=True)`) or None, in a multi-process DDP run: that rank never "
               "joins the gradient all-reduce and the job hangs")
    explanation = textwrap.dedent("""
    ## What it finds

    A `LightningModule.training_step` (automatic optimization) that returns a loss of the model on
    one path and, under an `if`/`try` the ranks do not share (an empty batch, a NaN, an exception),
    returns a fresh tensor built from literals that requires grad
    (`torch.tensor([0.0], requires_grad=True, device=self.device)`), while the project's one
    Lightning `Trainer` runs several processes with DDP (`devices=4`, `strategy="ddp"`,
    `num_nodes=10`, ...), in any file of the project. It also reports a `None` return (a skipped
    batch) when the Trainer is in another file than the module (PF277 reports it when both are in
    one file).

    ## Why it matters

    Under DDP the gradient all-reduce runs inside backward, once every parameter has a gradient.
    A fresh leaf tensor is not connected to any parameter: the rank whose batch took that branch
    runs a backward that produces no parameter gradient and never enters the all-reduce the other
    ranks are waiting in, so the job hangs (Lightning-AI/pytorch-lightning issue 12190, "DDP
    training hangs when one GPU returns zero loss"). A `None` return skips the backward on that
    rank: Lightning documents it as "not supported for multi-GPU" (issue 5243; the
    gcs-connector-for-pytorch benchmark's 10-node run, pull request 96).

    ## How to fix it

    Return a zero built from the model's output, so every parameter gets a (zero) gradient:
    `return pred.sum() * 0.0`, or make the decision the same on every rank.

    ## When preflight stays silent

    * The project has no Lightning Trainer, or several, or its Trainer runs one process.
    * The Trainer asks DDP to find unused parameters (`find_unused_parameters=True`,
      `"ddp_find_unused_parameters_true"`): DDP then all-reduces zeros for the parameters the
      returned tensor does not reach.
    * The class uses manual optimization, the condition mentions a rank/reduce/gather/sync, or no
      path of `training_step` returns a loss of the model.
    * The fresh tensor is returned on a condition of the module's own settings only
      (`if self.benchmark:`): every rank takes the same branch, none waits for another (the fix of
      gcs-connector-for-pytorch pull request 96 returns such a constant).
    * The fresh tensor is built from a computed value (PF248's finding) or by a helper function.
    """)
    bad_examples = examples("preflight.rules.plan._pf1231_examples", "PF1231_BAD")
    good_examples = examples("preflight.rules.plan._pf1231_examples", "PF1231_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not any("training_step" in s.source.text for s in pctx.scripts):
            return
        trainers = _trainers(pctx)
        if len(trainers) != 1:
            return
        trainer_script, trainer_ctx, trainer = trainers[0]
        why = multi_process_arg(trainer_ctx, trainer)
        if why is None or _finds_unused(trainer_ctx, trainer):
            return
        for script in pctx.scripts:
            if "training_step" not in script.source.text:
                continue
            ctx = pctx.file_context(script)
            for cls in lightning_classes(ctx, frozenset({"LightningModule"})):
                fn = method(cls, "training_step")
                if fn is None or manual_optimization(cls):
                    continue
                found = _divergent(fn, allow_none=script is not trainer_script)
                if found is None:
                    continue
                ret, kind = found
                what = ("a fresh tensor built from literals, connected to no parameter of the model"
                        if kind == "leaf" else "None (the batch is skipped)")
                yield pctx.code_finding(
                    self, script, ret,
                    f"`{cls.name}.training_step` returns {what} on a condition each process decides on its own "
                    f"data, while the Trainer runs several processes (`{ast.unparse(why)}`, "
                    f"{trainer_script.source.display}:{trainer.lineno}): the rank that takes this branch "
                    "produces no parameter gradient and never joins DDP's gradient all-reduce, so the other ranks "
                    "wait and the job hangs. Return a zero built from the model output (`pred.sum() * 0.0`) "
                    "instead",
                    evidence=[pctx.code_evidence(trainer_script, why, "the Trainer runs several processes")])
