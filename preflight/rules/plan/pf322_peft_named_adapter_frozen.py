"""PF322 peft-named-adapter-frozen: ``get_peft_model(..., adapter_name="x")`` on a pinned peft 0.7 release, which
creates the named adapter frozen ("trainable params: 0")."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# the script makes the adapter trainable itself: set_adapter marks the active adapter's layers trainable
_OWN_TRAINABILITY = ("set_adapter", "requires_grad_", "mark_only_lora_as_trainable")


def _name(pctx: PlanContext, script: ParsedPython, call: ast.Call) -> Optional[tuple[ast.expr, str]]:
    node = kwarg(call, "adapter_name")
    if node is None and len(call.args) >= 3:
        node = call.args[2]
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        value: Any = node.value
    else:
        found = pctx.index(script).resolve(node)
        value = found.value if found is not None else None
    return (node, value) if isinstance(value, str) else None


def _sets_trainability(script: ParsedPython) -> bool:
    for node in ast.walk(script.tree):
        if isinstance(node, ast.Call) and call_last(node) in _OWN_TRAINABILITY:
            return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad"
                                                for t in node.targets):
            return True
    return False


@register
class PeftNamedAdapterFrozen(PlanRule):
    code = "PF322"
    name = "peft-named-adapter-frozen"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "pytorch")
    summary = ("`get_peft_model(..., adapter_name=...)` on a pinned peft 0.7 release creates the adapter "
               "frozen: nothing is trained")
    explanation = """
## What it finds

A project that pins `peft` to a 0.7 release (`peft==0.7.0`, `peft==0.7.1`) and a script
that calls `get_peft_model(model, config, adapter_name="abc")` with a name other than
`"default"`, without making the adapter trainable itself (`set_adapter(...)`,
`requires_grad_(...)`, `p.requires_grad = True`).

## Why it matters

On those releases the named adapter's layers are created but left frozen:
`print_trainable_parameters()` reports "trainable params: 0" with a custom name and about a
million with the default one (peft issues 1410 and 1346, seen from the 0.6.3 development
builds on; fixed in 0.8.0). The fine-tune that follows runs, logs a loss and saves an
adapter that never changed.

## How to fix it

Keep the default adapter name, upgrade to `peft>=0.8.0`, or call
`model.set_adapter("abc")` after `get_peft_model` and check `print_trainable_parameters()`.

## When preflight stays silent

* peft is not pinned (only a lower bound, or nothing), or the pin is outside 0.7.
* The name is `"default"` or not known statically.
* The script sets the adapter's trainability itself (`set_adapter`, `requires_grad_`,
  `requires_grad = True`, `mark_only_lora_as_trainable`).
"""
    bad_examples = examples("preflight.rules.plan._pf322_examples", "PF322_BAD")
    good_examples = examples("preflight.rules.plan._pf322_examples", "PF322_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            calls = [c for c in ast.walk(script.tree)
                     if isinstance(c, ast.Call) and call_last(c) == "get_peft_model"]
            if not calls:
                continue
            version = pctx.version("peft", script)
            if version is None or version.how != "pinned" or not version.at_least(0, 7) \
                    or version.at_least(0, 8):
                continue
            if _sets_trainability(script):
                continue
            for call in calls:
                named = _name(pctx, script, call)
                if named is None or named[1] == "default":
                    continue
                node, value = named
                yield pctx.code_finding(self, script, node, (
                    f"`adapter_name={value!r}` on {version.describe()}: these releases create a named adapter "
                    "frozen (print_trainable_parameters reports \"trainable params: 0\", peft issue 1410, fixed "
                    "in 0.8.0), so the training that follows updates no parameter and saves an unchanged "
                    f"adapter. Keep the default name, upgrade to peft>=0.8.0, or call "
                    f"`set_adapter({value!r})` after get_peft_model"))
