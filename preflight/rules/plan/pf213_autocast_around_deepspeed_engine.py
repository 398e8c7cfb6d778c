"""PF213 autocast-around-deepspeed-engine: the DeepSpeed engine's forward runs inside a
``torch.autocast`` the DeepSpeed config does not enable (``torch_autocast``)."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_engines import engine_names, engine_params

_AUTOCASTS = frozenset({"torch.autocast", "torch.cuda.amp.autocast", "torch.amp.autocast",
                        "torch.cpu.amp.autocast", "torch.amp.autocast_mode.autocast"})
_ASSERTS = (0, 17, 2)  # validate_nested_autocast raises (DeepSpeed PR 6993)
_RELAXED = (0, 17, 6)  # a warning, and autocast switched off inside the engine (DeepSpeed PR 7543)


def _enabled(block: Any, key: str) -> bool:
    value = block.get(key) if isinstance(block, dict) else None
    return isinstance(value, dict) and value.get("enabled") is True


@register
class AutocastAroundDeepSpeedEngine(PlanRule):
    code = "PF213"
    name = "autocast-around-deepspeed-engine"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("The DeepSpeed engine's forward runs inside `torch.autocast` while the DeepSpeed config does not "
               "enable `torch_autocast`: DeepSpeed 0.17.2-0.17.5 raise, later releases switch it off")
    explanation = """
## What it finds

A forward of the engine `deepspeed.initialize` returned (`engine(batch)`, or a helper called
with the engine) inside `with torch.autocast(...)` / `torch.cuda.amp.autocast(...)`, in a job
whose DeepSpeed config has no `"torch_autocast": {"enabled": true}` section.

## Why it matters

Since DeepSpeed 0.17.2 (PR 6993, "Enable torch.autocast with ZeRO") the engine checks for an
autocast context around its forward (`runtime/torch_autocast.py`, `validate_nested_autocast`):
up to 0.17.5 it raises "AssertionError: torch.autocast is enabled outside DeepSpeed, but not in
the DeepSpeed config. Please enable torch.autocast through the DeepSpeed config to ensure the
correct communication dtype is used" on the first step (wenet issue 2788). From 0.17.6 (PR 7543)
it warns and runs the forward with autocast **disabled**, following the config's `bf16`/`fp16`
section: when the config enables neither, the model silently trains in fp32 although the code
asks for mixed precision.

## How to fix it

Drop the outer autocast and enable it in the config:
`"torch_autocast": {"enabled": true, "dtype": "bfloat16"}`; or use the config's `bf16`/`fp16`
section alone.

## When preflight stays silent

* The config enables `torch_autocast`, or the autocast is `enabled=False`.
* A DeepSpeed pin below 0.17.2 (no check then); with 0.17.6 or later, or no pin, a config
  that enables `bf16` or `fp16` (the engine's own precision applies, nothing is lost).
* The call inside the autocast is not the engine's (the engine is not a `deepspeed.initialize`
  result of the function, or a parameter on which both `backward` and `step` are called).
"""
    bad_examples = examples("preflight.rules.plan._pf213_examples", "PF213_BAD")
    good_examples = examples("preflight.rules.plan._pf213_examples", "PF213_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs or any(_enabled(block, "torch_autocast") for _, block, _ in configs):
            return
        version = pctx.version("deepspeed")
        pinned = version is not None and version.how == "pinned"
        if pinned and not version.at_least(*_ASSERTS):
            return  # before the integration: a plain outer autocast
        raises = pinned and not version.at_least(*_RELAXED)
        own_precision = any(_enabled(block, "bf16") or _enabled(block, "fp16") or _enabled(block, "bfloat16")
                            for _, block, _ in configs)
        if not raises and own_precision:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "autocast" not in text:
                continue
            ctx = pctx.file_context(script)
            engines = engine_names(ctx, script)
            for node in ctx.nodes(ast.With):
                item = next((i for i in node.items if isinstance(i.context_expr, ast.Call)
                             and qualify(ctx, i.context_expr.func) in _AUTOCASTS), None)
                if item is None or any(kw.arg == "enabled" and not (isinstance(kw.value, ast.Constant)
                                                                   and kw.value.value is True)
                                       for kw in item.context_expr.keywords):  # type: ignore[attr-defined]
                    continue
                fn = ctx.enclosing_function(node)
                names = {n for n, scope in engines if scope is None or scope is fn} | engine_params(fn)
                call = self._engine_call(node, names)
                if call is None:
                    continue
                yield pctx.code_finding(self, script, item.context_expr, self._message(call, raises, version),
                                        evidence=[pctx.code_evidence(script, call, "the engine's forward")])

    @staticmethod
    def _engine_call(node: ast.With, names: set[str]) -> Optional[ast.Call]:
        for stmt in node.body:
            for sub in ast.walk(stmt):
                if not isinstance(sub, ast.Call):
                    continue
                if ast.unparse(sub.func) in names:
                    return sub
                if any(isinstance(a, ast.Name) and a.id in names for a in sub.args) \
                        and not (isinstance(sub.func, ast.Attribute) and ast.unparse(sub.func.value) in names):
                    return sub
        return None

    @staticmethod
    def _message(call: ast.Call, raises: bool, version: Any) -> str:
        where = f"`{ast.unparse(call.func)}(...)`"
        if raises:
            return (f"{where} runs the DeepSpeed engine inside `torch.autocast`, but the DeepSpeed config has no "
                    f"enabled `torch_autocast` section: {version.describe()} checks this on every forward and "
                    "raises \"AssertionError: torch.autocast is enabled outside DeepSpeed, but not in the DeepSpeed "
                    "config\". Enable it in the config (`\"torch_autocast\": {\"enabled\": true, \"dtype\": "
                    "\"bfloat16\"}`) and drop the outer autocast")
        return (f"{where} runs the DeepSpeed engine inside `torch.autocast`, but the DeepSpeed config enables "
                "neither `torch_autocast` nor `bf16`/`fp16`: DeepSpeed 0.17.6 and later switch the outer autocast "
                "off inside the engine's forward (0.17.2-0.17.5 raise an AssertionError), so the model trains in "
                "fp32. Enable `\"torch_autocast\": {\"enabled\": true, \"dtype\": \"bfloat16\"}` in the config and "
                "drop the outer autocast")
