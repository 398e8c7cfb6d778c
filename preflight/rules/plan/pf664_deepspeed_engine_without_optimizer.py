"""PF664 deepspeed-engine-without-optimizer: ``deepspeed.initialize`` gets no optimizer and the config has no
``optimizer`` block, while the script calls ``engine.backward``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _given_optimizer(call: ast.Call) -> bool:
    """``optimizer=``/``model_parameters=`` (positional 3rd/4th), or ``**kwargs`` that may carry them."""
    if any(kw.arg in ("optimizer", "model_parameters") or kw.arg is None for kw in call.keywords):
        return True
    return len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args)


def _engine_names(tree: ast.AST, calls: set[int]) -> set[str]:
    """Names bound to the engine: the first target of ``engine, ... = deepspeed.initialize(...)``, and names bound
    from a call of a function of the file that returns such a name (vall-e ``engine = load_engine(path)``)."""
    names: set[str] = set()
    returning: set[str] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        local: set[str] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and id(node.value) in calls:
                for target in node.targets:
                    first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
                    if isinstance(first, ast.Name):
                        local.add(first.id)
        names |= local
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id in local
                for n in ast.walk(fn)):
            returning.add(fn.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id in returning:
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


@register
class DeepSpeedEngineWithoutOptimizer(PlanRule):
    code = "PF664"
    name = "deepspeed-engine-without-optimizer"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("`deepspeed.initialize` gets no optimizer and the DeepSpeed config has no `optimizer` block, but the "
               "script calls `engine.backward`: the first backward fails")
    explanation = """
## What it finds

`deepspeed.initialize(model=..., config=...)` without `optimizer=` or `model_parameters=`
(nor `**kwargs`), in a job whose every DeepSpeed config has no `optimizer` block, where the
script calls `backward(...)` on the engine it returned (directly, or through a function of the
file that returns it).

## Why it matters

Without a client optimizer and without an `optimizer` section DeepSpeed builds an engine with
no optimizer (for inference). `DeepSpeedEngine.backward` asserts "must provide optimizer during
init in order to use backward": the run stops at the first training step, after the model and
the data were loaded on every GPU (enhuiz/vall-e issue 67).

## How to fix it

Add an `optimizer` block to the DeepSpeed config (`{"type": "Adam", "params": {"lr": ...}}`)
together with `model_parameters=model.parameters()`, or pass `optimizer=` to `initialize`.

## When preflight stays silent

* A DeepSpeed config of the job has an `optimizer` block, or the job has no DeepSpeed
  config preflight could read.
* The script names an `"optimizer"` key (it fills or builds the config's optimizer section
  itself: `ds_config["optimizer"]["params"]["lr"] = ...`).
* `initialize` receives `optimizer=`, `model_parameters=`, more than two positional arguments,
  or `**kwargs`; or the engine is never given to `backward`.
"""
    bad_examples = examples("preflight.rules.plan._pf664_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf664_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs or any("optimizer" in block for _, block, _ in configs):
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "initialize" not in text or ".backward(" not in text:
                continue
            if '"optimizer"' in text or "'optimizer'" in text:
                continue  # the script writes an optimizer section into the config it builds (ChatGLM-Finetuning)
            idx = pctx.index(script)
            sites = [s for s in idx.calls if (s.qualified or "").endswith("deepspeed.initialize")]
            if not sites or any(_given_optimizer(s.call) for s in sites):
                continue
            engines = _engine_names(script.tree, {id(s.call) for s in sites})
            backward = self._backward(script.tree, engines)
            if backward is None:
                continue
            cfg = configs[0][0]
            finding = pctx.code_finding(
                self, script, sites[0].call,
                f"`deepspeed.initialize` gets no optimizer (no `optimizer=`, no `model_parameters=`) and "
                f"{cfg.path} has no `optimizer` block, so the engine is built without one; "
                f"`{ast.unparse(backward.func)}(...)` at line {backward.lineno} then fails with \"must provide "
                "optimizer during init in order to use backward\". Add an `optimizer` block to the config (with "
                "`model_parameters=model.parameters()`) or pass `optimizer=`")
            if finding is not None:
                yield finding

    @staticmethod
    def _backward(tree: ast.AST, engines: set[str]) -> Optional[ast.Call]:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in engines:
                return node
        return None
