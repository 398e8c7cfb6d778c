"""PF374 manual-optimization-clip-setting-unused: a manual-optimization LightningModule takes a
gradient-clipping setting (``clip_grad_norm=1.0``) and stores it, but nothing clips: Lightning never
clips for a module with ``automatic_optimization = False``."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.accumulation_manual import manual_optimization
from preflight.analysis.scopes import ClassInfo, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# parameter names that hold a gradient-clipping threshold
_CLIP_NAME = re.compile(r"^(?:(?:max_)?(?:grad|gradient)_?(?:clip|norm)(?:_(?:val|value|norm|thresh|threshold))?"
                        r"|clip_?(?:grad|gradient)s?(?:_(?:norm|val|value))?"
                        r"|(?:gradient_)?clip_(?:val|value|norm))$")
# calls that clip (Lightning's, torch's, a project helper named after clipping)
_CLIPPERS = ("clip_gradients", "clip_grad_norm_", "clip_grad_value_", "clip_grad_norm", "clip_grad",
             "configure_gradient_clipping")


def _stored_clip_params(init: ast.FunctionDef) -> dict[str, ast.AST]:
    """attribute name -> the ``self.<attr> = <clip parameter>`` assignment in ``__init__``."""
    params = {a.arg for a in (*init.args.args, *init.args.kwonlyargs) if _CLIP_NAME.match(a.arg)}
    out: dict[str, ast.AST] = {}
    for node in ast.walk(init):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name)
                and node.value.id in params):
            target = node.targets[0]
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                out[target.attr] = node
    return out


def _attribute_reads(tree: ast.AST, names: set[str]) -> set[str]:
    """Those of ``names`` that the file reads as an attribute of anything (``self.x``, ``hparams.x``,
    ``pl_module.x``), or as a string (``getattr(m, "x")``, ``hparams["x"]``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names and isinstance(node.ctx, ast.Load):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            found.add(node.value)
    return found


def _clips(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _CLIPPERS or "clip" in name.lower():
                return True
    return False


def _step_after_backward(cls: ClassInfo) -> Optional[ast.Call]:
    """The first ``<opt>.step()`` after a ``self.manual_backward(...)`` in a method of the class."""
    for item in cls.node.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = sorted((n for n in ast.walk(item) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)),
                       key=lambda n: (n.lineno, n.col_offset))
        seen_backward = False
        for call in calls:
            assert isinstance(call.func, ast.Attribute)
            if call.func.attr == "manual_backward":
                seen_backward = True
            elif seen_backward and call.func.attr == "step" and not call.args:
                return call
    return None


@register
class ManualOptimizationClipSettingUnused(PlanRule):
    code = "PF374"
    name = "manual-optimization-clip-setting-unused"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A manual-optimization LightningModule stores a gradient-clipping setting that nothing reads, and "
               "steps without clipping: Lightning does not clip under manual optimization")
    explanation = """
## What it finds

A `LightningModule` with `self.automatic_optimization = False` whose `__init__` takes a
gradient-clipping threshold (`clip_grad_norm=1.0`, `gradient_clip_val`, `grad_clip`,
`max_grad_norm`) and stores it on the module (`self.clip_grad_norm = clip_grad_norm`),
whose training code calls `self.manual_backward(loss)` then `opt.step()`, while no file
of the job reads that attribute and nothing clips (`self.clip_gradients`,
`torch.nn.utils.clip_grad_norm_`, `clip_grad_value_`).

## Why it matters

Under manual optimization Lightning leaves the optimizer loop to the module: it does not
clip gradients, and its configuration validator refuses `Trainer(gradient_clip_val=...)`
("Automatic gradient clipping is not supported for manual optimization", PF405). The
Lightning manual-optimization guide says clipping has to be done in `training_step`
with `self.clip_gradients(opt, gradient_clip_val=..., gradient_clip_algorithm="norm")`
between `manual_backward` and `step`. A threshold the module is configured with but
never uses is silently not applied: the run trains unclipped while its config says it
clips (stable-audio-tools issue 110, "Add gradient clipping for autoencoder").

## How to fix it

Call `self.clip_gradients(opt, gradient_clip_val=self.clip_grad_norm,
gradient_clip_algorithm="norm")` after `self.manual_backward(loss)` and before
`opt.step()`.

## When preflight stays silent

* The module uses automatic optimization (Lightning clips from the Trainer's flags).
* Some file of the job reads the attribute (`self.clip_grad_norm`, `pl_module.clip_grad_norm`,
  `getattr(m, "clip_grad_norm")`), or anything in the module's file calls a clipping
  function (a name with `clip`).
* The threshold is only kept in `save_hyperparameters()` (whether `self.hparams` is read
  elsewhere is not followed), or no `manual_backward` is followed by a `step()`.
"""
    bad_examples = examples("preflight.rules.plan._pf374_examples", "PF374_BAD")
    good_examples = examples("preflight.rules.plan._pf374_examples", "PF374_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        candidates: list[tuple[ParsedPython, ClassInfo, dict[str, ast.AST], ast.Call]] = []
        for script in pctx.scripts:
            fctx = pctx.file_context(script)
            if not fctx.mentions("manual_backward") or not fctx.mentions("automatic_optimization"):
                continue
            if _clips(script.tree):
                continue
            scopes = scope_index(fctx)
            for cls in scopes.classes.values():
                init = cls.method("__init__")
                if not cls.is_lightning or init is None or not isinstance(init.node, ast.FunctionDef):
                    continue
                stored = _stored_clip_params(init.node)
                if not stored or not manual_optimization(fctx, scopes, cls):
                    continue
                step = _step_after_backward(cls)
                if step is not None:
                    candidates.append((script, cls, stored, step))
        if not candidates:
            return
        names = {name for _, _, stored, _ in candidates for name in stored}
        read: set[str] = set()
        for script in pctx.scripts:
            read |= _attribute_reads(script.tree, names)
        for script, cls, stored, step in candidates:
            unused = [name for name in stored if name not in read]
            if not unused:
                continue
            name = unused[0]
            yield pctx.code_finding(
                self, script, step,
                f"`{cls.name}` uses manual optimization (`automatic_optimization = False`), so Lightning never clips "
                f"its gradients, and the `self.{name}` threshold it is built with is never read: this step runs on "
                f"unclipped gradients. Call `self.clip_gradients(opt, gradient_clip_val=self.{name}, "
                "gradient_clip_algorithm=\"norm\")` between `self.manual_backward(...)` and the step",
                evidence=[pctx.code_evidence(script, stored[name], f"stores the clipping threshold as `self.{name}`")])
