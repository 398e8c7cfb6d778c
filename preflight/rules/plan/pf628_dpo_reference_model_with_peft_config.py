"""PF628 dpo-reference-model-with-peft-config: ``DPOTrainer(ref_model=<a model>, peft_config=<a
LoRA config>)``: TRL before 0.28 raises; later releases keep a second full copy in memory."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_ACCEPTED_IN = (0, 28)  # trl 0.28.0: the "You passed both a ref_model and a peft_config" check is gone
_MODEL_MAKERS = ("from_pretrained", "from_config", "create_reference_model", "deepcopy")


def _is_model_call(expr: Any, functions: dict[str, ast.FunctionDef]) -> bool:
    """A call that returns a model: ``X.from_pretrained(...)``, ``create_reference_model(m)``,
    ``deepcopy(m)``, or a function of this file whose every ``return`` is one of those."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in _MODEL_MAKERS:
        return True
    fn = functions.get(name) if isinstance(func, ast.Name) else None
    if fn is None:
        return False
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    return bool(returns) and all(_is_model_call(r.value, {}) for r in returns)


def _single_binding(idx: Any, expr: Any) -> Any:
    """The one value a plain local name is bound to (never a parameter), else the expression itself."""
    if isinstance(expr, ast.Name):
        if idx.param_count.get(expr.id, 0):
            return None
        bound = idx.assigns.get(expr.id, [])
        return bound[0] if len(bound) == 1 else None
    return expr


@register
class DpoReferenceModelWithPeftConfig(PlanRule):
    code = "PF628"
    name = "dpo-reference-model-with-peft-config"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("trl",)
    summary = ("`DPOTrainer` given both a loaded reference model and a `peft_config`: TRL before 0.28 raises, "
               "later releases hold a second full copy of the model the adapter already provides")
    explanation = """
## What it finds

A `DPOTrainer(...)` call that passes `ref_model=` a model the script loads (`from_pretrained`,
`create_reference_model`, `deepcopy`, or a function of the file that returns one of those) together
with `peft_config=` a PEFT config it builds (`LoraConfig(...)` and the other `peft` configs), and
no `force_use_ref_model` anywhere in the job.

## Why it matters

With a PEFT adapter the reference policy is the same model with the adapter disabled, so no
second model is needed. TRL's `DPOTrainer.__init__` up to 0.27 refuses the pair (trl
`trainer/dpo_trainer.py`, 0.19-0.27: `if ref_model is not None and not args.force_use_ref_model:
raise ValueError("You passed both a ref_model and a peft_config. For training PEFT adapters with
DPO there is no need to pass a reference model. Please pass `ref_model=None` ...")`): the run stops
before training (alignment-handbook PR 224). From TRL 0.28 the check is gone and the loaded
reference is used as given: the job holds a whole extra copy of the model in memory
(a 7B model in bf16: about 14 GiB more per process) for what the disabled adapter gives for free.
preflight reports an error when the project pins TRL below 0.28, else a warning.

## How to fix it

Pass `ref_model=None` and do not load the second copy. If a different reference model is really
wanted, say so with `DPOConfig(force_use_ref_model=True)` (TRL < 0.28).

## When preflight stays silent

* `force_use_ref_model` appears in the script, its configs or the launch line.
* The reference model may be None (a helper that can return None, a name bound more than
  once or a parameter) or the PEFT config may be None (`peft_config=get_peft_config(model_args)`,
  which returns None without `--use_peft`).
* Positional arguments or `**kwargs` that preflight cannot map to `ref_model`/`peft_config`.
"""
    bad_examples = examples("preflight.rules.plan._pf628_examples", "PF628_BAD")
    good_examples = examples("preflight.rules.plan._pf628_examples", "PF628_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if any("force_use_ref_model" in tok for tok in pctx.project.argv):
            return
        if any("force_use_ref_model" in str(c.data) for c in pctx.configs):
            return
        for script in pctx.scripts:
            if "DPOTrainer" not in script.source.text or "force_use_ref_model" in script.source.text:
                continue
            idx = pctx.index(script)
            functions = {n.name: n for n in ast.walk(script.tree) if isinstance(n, ast.FunctionDef)}
            for site in idx.calls:
                if not (site.qualified or "").startswith("trl") or site.last != "DPOTrainer":
                    continue
                finding = self._check(pctx, script, idx, site, functions)
                if finding is not None:
                    yield finding

    def _check(self, pctx: PlanContext, script: Any, idx: Any, site: Any,
               functions: dict[str, ast.FunctionDef]) -> Optional[Finding]:
        call = site.call
        kws = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
        ref = kws.get("ref_model")
        if ref is None and len(call.args) >= 2 and not any(isinstance(a, ast.Starred) for a in call.args[:2]):
            ref = call.args[1]
        peft = kws.get("peft_config")
        if ref is None or peft is None:
            return None
        if not _is_model_call(_single_binding(idx, ref), functions):
            return None
        built = _single_binding(idx, peft)
        if not isinstance(built, ast.Call):
            return None
        peft_site = next((s for s in idx.calls if s.call is built), None)
        if peft_site is None or not (peft_site.qualified or "").startswith("peft") \
                or not (peft_site.last or "").endswith("Config"):
            return None
        version = pctx.version("trl", script)
        ctx = pctx.file_context(script)
        ref_text = ast.unparse(ref)
        if version is not None and version.how == "pinned" and not version.at_least(*_ACCEPTED_IN):
            message = (f"`DPOTrainer(ref_model={ref_text}, peft_config=...)` with {version.describe()}: "
                       "DPOTrainer raises \"You passed both a ref_model and a peft_config. For training PEFT "
                       "adapters with DPO there is no need to pass a reference model\" before training. Pass "
                       "`ref_model=None` (the base model with the adapter disabled is the reference) and do not "
                       "load the second copy")
            return ctx.finding(self, ref, message, severity=Severity.ERROR,
                               evidence=[ctx.evidence(peft, "the PEFT adapter config")])
        message = (f"`DPOTrainer(ref_model={ref_text}, peft_config=...)`: with a PEFT adapter the reference is "
                   "the same model with the adapter disabled, so no second model is needed. TRL before 0.28 "
                   "raises \"You passed both a ref_model and a peft_config\"; later releases keep this whole "
                   "extra copy of the model in memory on every process. Pass `ref_model=None` and do not load "
                   "it (or set `force_use_ref_model=True` if a different reference is intended)")
        return ctx.finding(self, ref, message, evidence=[ctx.evidence(peft, "the PEFT adapter config")])
