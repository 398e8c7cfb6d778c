"""PF173 manual-optimizer-steps-double-global-step: a manual-optimization ``training_step`` steps two
optimizers on every batch while the Trainer's ``max_steps`` is a plain batch count (Lightning >= 1.6 counts
every optimizer step in ``global_step``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import call_last, class_attribute_manual, manual_optimization
from preflight.rules.base import examples
from preflight.rules.plan._logged_keys import fitted_modules
from preflight.rules.plan._pinned_release import pinned_lightning
from preflight.sources import ParsedPython


def _wrapped_optimizers(fn: ast.FunctionDef) -> set[str]:
    """Names a ``a, b = self.optimizers()`` statement of ``fn`` binds (Lightning's wrapped optimizers; not
    ``self.optimizers(use_pl_optimizer=False)``, whose ``step`` Lightning does not count)."""
    names: set[str] = set()
    for st in fn.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple)):
            continue
        value = st.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "optimizers" \
                and isinstance(value.func.value, ast.Name) and value.func.value.id == "self" \
                and not value.keywords and not value.args:
            names |= {e.id for e in st.targets[0].elts if isinstance(e, ast.Name)}
    return names


def _unconditional_steps(fn: ast.FunctionDef) -> list[ast.Call]:
    """The ``opt.step()`` calls among ``fn``'s own top-level statements, one per wrapped optimizer."""
    wrapped = _wrapped_optimizers(fn)
    steps: dict[str, ast.Call] = {}
    for st in fn.body:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            func = st.value.func
            if isinstance(func, ast.Attribute) and func.attr == "step" and isinstance(func.value, ast.Name) \
                    and func.value.id in wrapped and not st.value.args and not st.value.keywords:
                steps.setdefault(func.value.id, st.value)
    return list(steps.values())


def _manual_classes(scripts: list[ParsedPython]) -> dict[str, tuple[ParsedPython, list[ast.Call]]]:
    out: dict[str, tuple[ParsedPython, list[ast.Call]]] = {}
    for script in scripts:
        for cls in ast.walk(script.tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            if class_attribute_manual(cls) is None and manual_optimization(cls) is None:
                continue
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "training_step":
                    steps = _unconditional_steps(fn)
                    if len(steps) >= 2:
                        out[cls.name] = (script, steps)
    return out


def _literal_max_steps(call: ast.Call) -> Optional[ast.keyword]:
    kw = next((k for k in call.keywords if k.arg == "max_steps"), None)
    if kw is not None and isinstance(kw.value, ast.Constant) and type(kw.value.value) is int and kw.value.value > 0:
        return kw
    return None


@register
class ManualOptimizerStepsDoubleGlobalStep(PlanRule):
    code = "PF173"
    name = "manual-optimizer-steps-double-global-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A manual-optimization `training_step` steps two optimizers per batch and `max_steps` is a "
               "plain number: Lightning >= 1.6 counts each optimizer step, so the run stops at a fraction "
               "of the planned batches")
    explanation = """
## What it finds

A fitted `LightningModule` with `automatic_optimization = False` whose `training_step`
unpacks `self.optimizers()` (`g_opt, d_opt = self.optimizers()`) and calls `.step()` on two
or more of them in its own top-level statements (every batch, no condition), in a job whose
`Trainer(max_steps=N)` is a literal number, and whose project does not pin Lightning before
1.6.

## Why it matters

Since Lightning 1.6 "`trainer.global_step` now accounts for multiple optimizers" (CHANGELOG
1.6.0, PR 11805): under manual optimization each `step()` of a Lightning-wrapped optimizer
advances `global_step`. A GAN that steps the discriminator and the generator on every batch
advances it by two per batch, and everything counted in steps shrinks with it:
`max_steps=100000` ends after 50,000 batches, `log_every_n_steps` and
`ModelCheckpoint(every_n_train_steps=...)` fire at half the intended interval (Lightning
issue 12643: "looks like you are using manual optimization and doing 2 calls to the
optimizer inside training_step"). The run ends early without any error.

## How to fix it

Count the budget in optimizer steps (`max_steps=batches * 2`, and the same for step
intervals), or bound the run by `max_epochs`.

## When preflight stays silent

* `max_steps` is not a literal (an expression such as `BATCHES * 2` says the count was
  planned), is absent, or is -1.
* A step is conditional (`if batch_idx % n_critic == 0: g_opt.step()`), in a loop or a
  helper, or only one optimizer is stepped per batch.
* The optimizers come from `self.optimizers(use_pl_optimizer=False)` (raw optimizers, not
  counted).
* The project pins Lightning before 1.6 (`global_step` counted batches then).
"""
    bad_examples = examples("preflight.rules.plan._pf173_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf173_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = [s for s in pctx.scripts
                   if "max_steps" in (s.text if s.text is not None else s.source.text)
                   or "automatic_optimization" in (s.text if s.text is not None else s.source.text)]
        if not scripts:
            return
        manual = _manual_classes(scripts)
        if not manual:
            return
        fitted = [name for name in fitted_modules(pctx.scripts) if name in manual]
        if not fitted:
            return
        cls_script, steps = manual[fitted[0]]
        for script in pctx.scripts:
            version = pinned_lightning(pctx, script)
            if version is not None and not version.at_least(1, 6):
                continue
            for site in pctx.index(script).calls:
                if call_last(site.call) != "Trainer":
                    continue
                kw = _literal_max_steps(site.call)
                if kw is None:
                    continue
                per_batch = len(steps)
                budget = kw.value.value if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, int) else 0
                names = ", ".join(f"`{ast.unparse(s.func)}()`" for s in steps)
                yield pctx.code_finding(
                    self, script, kw.value,
                    f"`max_steps={ast.unparse(kw.value)}` counts optimizer steps, and {fitted[0]}'s manual "
                    f"`training_step` calls {names} on every batch: since Lightning 1.6 each call advances "
                    f"`global_step`, so the run stops after about {budget // per_batch} batches "
                    f"(1/{per_batch} of the budget) and step intervals (logging, `every_n_train_steps`) shrink "
                    f"the same way (Lightning issue 12643). Count the budget in optimizer steps "
                    f"(`max_steps={ast.unparse(kw.value)} * {per_batch}`) or bound the run by epochs",
                    evidence=[pctx.code_evidence(cls_script, s, "an optimizer step on every batch") for s in steps])
