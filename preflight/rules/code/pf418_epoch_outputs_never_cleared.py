"""PF418 epoch-outputs-never-cleared: step outputs appended to a list that is never emptied."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import self_attr
from preflight.rules.base import Rule, examples

_STEPS = ("training_step", "validation_step", "test_step", "predict_step")


def _cleared(cls: ast.ClassDef, attr: str) -> bool:
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name == "__init__":
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("clear", "pop") and self_attr(node.func.value) == attr:
                return True
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for tgt in targets:
                    base = tgt.value if isinstance(tgt, ast.Subscript) else tgt
                    if self_attr(base) == attr and not isinstance(node, ast.AugAssign):
                        return True
            if isinstance(node, ast.Delete):
                for tgt in node.targets:
                    base = tgt.value if isinstance(tgt, ast.Subscript) else tgt
                    if self_attr(base) == attr:
                        return True
    return False


_ONE_EPOCH = {"test_step": "test", "predict_step": "predict"}


def _repeated_run(ctx: FileContext, method: str) -> bool:
    """``trainer.test(...)`` / ``trainer.predict(...)`` called twice in the file, or once inside a
    loop: only then does a list filled by ``test_step`` / ``predict_step`` outlive its epoch."""
    calls = [node for node in ctx.unordered(ast.Call) if isinstance(node.func, ast.Attribute)
             and node.func.attr == method]
    if len(calls) >= 2:
        return True
    for call in calls:
        cur = ctx.parent(call)
        while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)):
                return True
            cur = ctx.parent(cur)
    return False


# values too small to matter or not tensors: a scalar loss or metric, a Python number
_SCALAR_WORDS = ("loss", "acc", "metric", "score", "count", "num", "n_", "total")
_PLAIN_CALLS = ("item", "tolist", "float", "int", "len", "numpy", "cpu", "detach")


def _computed_tensors(fn: ast.FunctionDef) -> set[str]:
    """Names the step binds to what a call computes (``output = self.layer(x)``, ``loss, preds, y =
    self.step(batch)``): tensors of the batch's size, unless the name says scalar (a loss, an accuracy)
    or the call makes a Python value or moves it off the GPU (``.item()``, ``.cpu()``, ``float(...)``)."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        func = node.value.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _PLAIN_CALLS:
            continue
        for target in node.targets:
            names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            out.update(n.id for n in names if isinstance(n, ast.Name)
                       and not any(w in n.id.lower() for w in _SCALAR_WORDS))
    return out


def _outputs_handed_on(hook: ast.FunctionDef) -> bool:
    """The hook passes its ``outputs`` whole to a call (``self.summarize(outputs)``): what it reads is not
    in view. ``len(outputs)`` and iteration read nothing hidden."""
    name = hook.args.args[1].arg
    for node in ast.walk(hook):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in ("len", "enumerate")) \
                and any(isinstance(a, ast.Name) and a.id == name for a in node.args):
            return True
    return False


def _strings_outside(ctx: FileContext, returned: ast.Dict) -> set[str]:
    """The string constants of the file outside the returned dict: a key read anywhere (a callback's
    ``outputs["preds"]``, a helper the hook calls) is taken as used."""
    inside = {id(n) for n in ast.walk(returned)}
    return {n.value for n in ctx.nodes(ast.Constant) if isinstance(n.value, str) and id(n) not in inside}


@register
class EpochOutputsNeverCleared(Rule):
    code = "PF418"
    needs_text = ('training_step', 'validation_step', 'test_step', 'predict_step')
    name = "epoch-outputs-never-cleared"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("lightning",)
    summary = "Step outputs are appended to a list attribute that is never cleared at epoch end"
    explanation = """
## What it finds

A LightningModule whose `training_step` / `validation_step` / `test_step`
appends to a list attribute (`self.validation_step_outputs.append(out)`) that no
hook ever empties (`.clear()`, re-assignment, `del x[:]`).

## Why it matters

Lightning 2.0 removed `*_epoch_end(outputs)` and asks modules to keep their own
list and free it in `on_*_epoch_end`. Without the `clear()` the list grows over
the whole run: the epoch-end metric averages every epoch so far, and the stored
tensors (with their autograd graphs, for training losses) stay on the GPU until
it runs out of memory (Lightning PR 16520, ray PR 38039 review: "clear the
validation outputs at the end of validation epoch").

## How to fix it

Call `self.<list>.clear()` at the end of the matching `on_*_epoch_end` hook (and
append `loss.detach()` rather than the loss).

Lightning 1.x keeps the outputs itself: when a class defines
`training_epoch_end(self, outputs)` (or the validation/test one), every value
`*_step` returns is stored for the epoch. A step that returns its batch input
(`return {"loss": loss, "x": x}`) that the hook never reads holds a whole epoch of
inputs on the GPU (Lightning issue 15514: out of memory partway through the epoch).
The same holds for tensors the step computes (`return {"loss": loss, "preds": preds,
"targets": targets}` beside a `training_epoch_end` that only resets a metric, as the
lightning-hydra-template once did; Quicksetup-ai PR 26 removed them for the memory;
Lightning issue 8453): reported when no string in the file names the key outside the
returned dict and the hook does not hand `outputs` whole to another call.

## When preflight stays silent

* Any method other than `__init__` clears or re-assigns the list.
* The list is filled by `test_step` or `predict_step` and the file does not run
  `trainer.test(...)` / `trainer.predict(...)` twice or in a loop: those loops run one
  epoch per call (`max_epochs` does not apply to them), so with one call the list
  holds exactly that epoch's outputs and the epoch-end hook reads nothing stale
  (held-out-14's Hydra twin: predictions gathered in `test_step`, saved in
  `on_test_epoch_end`, one `trainer.test` after `fit`).
* A returned batch input that the epoch-end hook reads (its key appears there),
  or no `*_epoch_end(outputs)` hook.
* A returned computed tensor under the key `"loss"`, under a key that any other string
  of the file names (the hook, a helper or a callback reads it), or bound to a name
  that says it is a scalar (`loss`, `acc`, `metric`, ...) or to a Python value or a
  CPU copy (`.item()`, `float(...)`, `.cpu()`); or the hook hands `outputs` whole to
  another call (`self.summarize(outputs)`).
"""
    bad_examples = examples("preflight.rules.code._pf418_examples", "PF418_BAD")
    good_examples = examples("preflight.rules.code._pf418_examples", "PF418_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            steps = [fn for fn in cls.body if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and fn.name in _STEPS]
            if not steps:
                continue
            yield from self._kept_inputs(ctx, cls, steps)
            reported = set()
            for fn in steps:
                for node in ast.walk(fn):
                    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                            and node.func.attr in ("append", "extend")):
                        continue
                    attr = self_attr(node.func.value)
                    if attr is None or attr in reported or _cleared(cls, attr):
                        continue
                    if fn.name in _ONE_EPOCH and not _repeated_run(ctx, _ONE_EPOCH[fn.name]):
                        continue  # one test/predict epoch per call, and one call: the list is that epoch
                    reported.add(attr)
                    yield ctx.finding(
                        self, node,
                        f"`{fn.name}` appends to `self.{attr}` on every step but no hook ever clears it: the list "
                        "(and the tensors it holds) grows for the whole run and each epoch-end metric mixes all "
                        f"epochs so far. Call `self.{attr}.clear()` at the end of the epoch-end hook")

    def _kept_inputs(self, ctx: FileContext, cls: ast.ClassDef, steps: list) -> Iterable[Finding]:
        """Lightning 1.x: a ``*_epoch_end(outputs)`` hook makes Lightning keep every step's return value
        for the epoch; a returned batch input that the hook never reads is held for nothing."""
        hooks = {fn.name: fn for fn in cls.body if isinstance(fn, ast.FunctionDef) and fn.name.endswith("_epoch_end")
                 and len(fn.args.args) >= 2}
        for fn in steps:
            hook = hooks.get(fn.name.replace("_step", "_epoch_end"))
            if hook is None or len(fn.args.args) < 2:
                continue
            batch = fn.args.args[1].arg
            inputs = {batch} | {n.id for node in ast.walk(fn) if isinstance(node, ast.Assign)
                                and isinstance(node.value, ast.Name) and node.value.id == batch
                                for t in node.targets if isinstance(t, (ast.Tuple, ast.List))
                                for n in t.elts if isinstance(n, ast.Name)}
            read = {n.value for n in ast.walk(hook) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            computed = _computed_tensors(fn) - inputs
            opaque = _outputs_handed_on(hook)
            for ret in ast.walk(fn):
                if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Dict)):
                    continue
                keys = [(k.value, v) for k, v in zip(ret.value.keys, ret.value.values)
                        if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Name)]
                elsewhere = _strings_outside(ctx, ret.value) if any(v.id in computed for _, v in keys) else set()
                for key, value in keys:
                    if key not in read and value.id in inputs:
                        yield ctx.finding(
                            self, ret,
                            f"`{fn.name}` returns the batch input `{value.id}` under \"{key}\", and because the "
                            f"class defines `{hook.name}(outputs)` Lightning 1.x keeps every step's return value until "
                            f"the epoch ends: the whole epoch's inputs stay in GPU memory, yet `{hook.name}` never "
                            f"reads \"{key}\". Return only what the hook uses",
                            evidence=[ctx.evidence(hook, "this hook makes Lightning keep the step outputs")])
                        break
                    if key != "loss" and value.id in computed and not opaque and key not in elsewhere:
                        yield ctx.finding(
                            self, ret,
                            f"`{fn.name}` returns `{value.id}` (computed from the batch) under \"{key}\", and because "
                            f"the class defines `{hook.name}(outputs)` Lightning 1.x keeps every step's return value "
                            f"until the epoch ends: a whole epoch of these tensors stays in GPU memory, yet nothing "
                            f"reads \"{key}\". Return only what the hook uses (the loss, or log the metric with "
                            "`self.log`)",
                            evidence=[ctx.evidence(hook, "this hook makes Lightning keep the step outputs")])
                        break
