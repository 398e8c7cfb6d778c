"""PF360 accelerate-pinned-release-defect: a job whose code triggers a documented defect of the accelerate
release the project pins (fp16 outputs left in half precision before 0.4; the gradient state left at the end
of an evaluation loader run in the middle of a training epoch before 0.17)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_scripts, released_between

_LOSS_FUNCTIONS = frozenset({"cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
                             "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "ctc_loss"})
_TO_FLOAT = frozenset({"float", "double"})


def _prepared_names(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "prepare" \
                and "accel" in ast.unparse(node.func.value).lower():
            out |= {a.id for a in node.args if isinstance(a, ast.Name)}
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "prepare":
            for target in node.targets:
                out |= {t.id for t in ast.walk(target) if isinstance(t, ast.Name)}
    return out


def _fp16_accelerator(tree: ast.AST) -> Optional[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_last(node) == "Accelerator":
            fp16, mixed = kwarg(node, "fp16"), kwarg(node, "mixed_precision")
            if (isinstance(fp16, ast.Constant) and fp16.value is True) \
                    or (isinstance(mixed, ast.Constant) and mixed.value == "fp16"):
                return node
    return None


def _assignments(fn: ast.AST) -> dict[str, list[ast.Assign]]:
    out: dict[str, list[ast.Assign]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, []).append(node)
    return out


def _half_output(expr: ast.AST, models: set[str], assigns: dict[str, list[ast.Assign]], depth: int = 0) -> bool:
    """Whether ``expr`` is (derived from) a prepared model's output with no cast to float on the way."""
    if depth > 4:
        return False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _TO_FLOAT:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to" \
                and any("float32" in ast.unparse(a) for a in node.args):
            return False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in models:
            return True
        if isinstance(node, ast.Name) and node.id in assigns and not isinstance(node.ctx, ast.Store) \
                and any(_half_output(a.value, models, assigns, depth + 1) for a in assigns[node.id]
                        if a.lineno <= getattr(node, "lineno", 0)):
            return True
    return False


def _fp16_losses(tree: ast.AST) -> Iterable[ast.Call]:
    """Loss calls outside the model on a prepared model's half-precision output."""
    models = _prepared_names(tree)
    criteria = {n.targets[0].id for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call)
                and call_last(n.value).endswith("Loss")}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        assigns = _assignments(fn)
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call) or not call.args:
                continue
            is_loss = (isinstance(call.func, ast.Name) and call.func.id in criteria) \
                or (isinstance(call.func, ast.Attribute) and call.func.attr in _LOSS_FUNCTIONS)
            if is_loss and _half_output(call.args[0], models, assigns):
                yield call


def _loader_of(loop: ast.For) -> str:
    """``x`` of ``for b in x`` / ``for i, b in enumerate(x)``, else ''."""
    it = loop.iter
    if isinstance(it, ast.Call) and call_last(it) == "enumerate" and it.args:
        it = it.args[0]
    return it.id if isinstance(it, ast.Name) else ""


def _loops_over(node: ast.AST) -> Iterable[ast.For]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.For) and _loader_of(sub):
            yield sub


def _uses_state(node: ast.AST) -> Optional[ast.Call]:
    """The first ``gather_for_metrics(...)`` / ``accumulate(...)`` call in ``node``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                and sub.func.attr in ("gather_for_metrics", "accumulate"):
            return sub
    return None


def _mid_epoch_evaluations(tree: ast.AST) -> Iterable[tuple[ast.Call, ast.AST, str, str]]:
    """(training-loop gather/accumulate, the evaluation, training loader, evaluation loader): a full pass over
    another prepared loader run inside the training loop (directly or in a function of the file it calls)."""
    prepared = _prepared_names(tree)
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for loop in _loops_over(tree):
        train = _loader_of(loop)
        if train not in prepared:
            continue
        inner_loops = [sub for s in loop.body for sub in _loops_over(s)]
        own = [s for s in loop.body if not any(isinstance(n, ast.For) and n is not loop for n in ast.walk(s))]
        use = next((u for u in (_uses_state(s) for s in own) if u is not None), None)
        if use is None:
            continue
        evals: list[tuple[ast.AST, str]] = [(sub, _loader_of(sub)) for sub in inner_loops
                                            if _loader_of(sub) not in ("", train) and _loader_of(sub) in prepared]
        for s in loop.body:
            for call in ast.walk(s):
                fn = functions.get(call.func.id) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                    else None
                if fn is None:
                    continue
                evals += [(call, _loader_of(sub)) for sub in _loops_over(fn)
                          if _loader_of(sub) not in ("", train) and _loader_of(sub) in prepared]
        if evals:
            where, other = evals[0]
            yield use, where, train, other


@register
class AcceleratePinnedReleaseDefect(PlanRule):
    code = "PF360"
    name = "accelerate-pinned-release-defect"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("the job's code triggers a known defect of the pinned accelerate release (fp16 outputs left in "
               "half precision before 0.4; the gradient state left at the end of a mid-epoch evaluation before 0.17)")
    explanation = """
## What it finds

A project that pins `accelerate` to a release with one of these documented defects, and code
that triggers it:

* **Before 0.4** (0.1 to 0.3): `Accelerator(fp16=True)` and a loss computed outside the model
  (`criterion(outputs, labels)`, `F.cross_entropy(...)`) on the prepared model's output with no
  cast to float on the way. Those releases ran the prepared model's forward under autocast and
  returned its float16 outputs as they were; the loss outside the autocast region then runs
  entirely in float16 (a softmax over many classes or pixels overflows) and "becomes inf right
  away" (accelerate issue 101; PR 134, released in 0.4.0, converts the outputs back to float32
  and adds `accelerator.autocast()`).
* **0.12 to 0.16**: `gather_for_metrics` (or `accelerator.accumulate`) in a training loop that
  also runs a full pass over another prepared loader (an evaluation every N steps, in the loop or
  in a function of the file it calls). The single `GradientState` was left as the evaluation
  loader ended it (`end_of_dataloader=True`, with that loader's remainder), so for the rest of the
  training epoch `gather_for_metrics` truncates every training batch as if it were the padded
  last batch, and `accumulate` syncs on every step (accelerate issue 960; PR 1162, released in
  0.17.0, tracks the active dataloaders and restores the outer one's state).

## How to fix it

Upgrade the pin past the fix (0.4, 0.17), or on the pinned release: compute the loss on
`outputs.float()`; reset `accelerator.gradient_state.end_of_dataloader = False` (the reporter's
workaround) after the mid-epoch evaluation, or evaluate at the end of the epoch.

## When preflight stays silent

* accelerate is not pinned, or pinned at or past the fix.
* fp16 is not on, or the output is cast to float (`.float()`) before the loss, or the model
  computes its own loss.
* The file resets `end_of_dataloader` itself.
* The evaluation runs after the training loop (at the end of the epoch), or the training loop
  uses neither `gather_for_metrics` nor `accumulate`.
"""
    bad_examples = examples("preflight.rules.plan._pf360_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf360_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script, text, version in pinned_scripts(pctx, "accelerate",
                                                    lambda text: "Accelerator" in text and "prepare" in text):
            pin = version.describe()
            if not version.at_least(0, 4):
                accelerator = _fp16_accelerator(script.tree)
                if accelerator is not None:
                    for call in _fp16_losses(script.tree):
                        yield pctx.code_finding(
                            self, script, call,
                            f"the project pins {pin}, whose prepared model returns its float16 outputs under "
                            f"`Accelerator(fp16=True)`: `{ast.unparse(call.func)}` runs on them outside autocast, "
                            "entirely in float16, and the loss overflows to inf from the first iterations (accelerate "
                            "issue 101, fixed in 0.4.0). Compute the loss on `outputs.float()` or upgrade accelerate",
                            evidence=[pctx.code_evidence(script, accelerator, "fp16 is turned on here")])
            if released_between(version, (0, 12), (0, 17)) and "end_of_dataloader" not in text:
                for use, where, train, other in _mid_epoch_evaluations(script.tree):
                    what = "gather_for_metrics" if isinstance(use.func, ast.Attribute) \
                        and use.func.attr == "gather_for_metrics" else "accumulate"
                    consequence = ("truncates every later training batch as if it were the padded last batch, "
                                   "so the metric is computed on a fraction of the samples"
                                   if what == "gather_for_metrics" else
                                   "syncs and steps on every batch, so gradient accumulation stops for the rest "
                                   "of the epoch")
                    yield pctx.code_finding(
                        self, script, use,
                        f"the project pins {pin}: the pass over `{other}` run inside the loop over `{train}` "
                        f"(line {getattr(where, 'lineno', 0)}) leaves the shared GradientState at the end of `{other}` "
                        f"(end_of_dataloader=True), and for the rest of the training epoch `{what}` {consequence} "
                        "(accelerate issue 960, fixed in 0.17.0). Set "
                        "`accelerator.gradient_state.end_of_dataloader = False` after the evaluation, evaluate at "
                        "the end of the epoch, or upgrade accelerate",
                        evidence=[Evidence(line=getattr(where, "lineno", 0), path=script.source.display,
                                           message=f"`{other}` is iterated to its end here, mid-epoch")])
