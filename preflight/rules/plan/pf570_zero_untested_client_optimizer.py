"""PF570 zero-untested-client-optimizer: a client optimizer DeepSpeed's ZeRO has not tested
(Lion from lion_pytorch, SGD, 8-bit Adam, ...) without ``zero_allow_untested_optimizer``."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# deepspeed/runtime/zero/utils.py ZERO_SUPPORTED_OPTIMIZERS (exact types; apex's FusedAdam and
# MuonWithAuxAdam when installed)
_SUPPORTED = {"Adam", "AdamW", "FusedAdam", "DeepSpeedCPUAdam", "ZenFlowCPUAdam", "Adagrad", "DeepSpeedCPUAdagrad",
              "DeepSpeedCPULion", "FusedLion", "MuonWithAuxAdam"}


def _optimizer_arg(call: ast.Call) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == "optimizer":
            return kw.value
    return call.args[2] if len(call.args) > 2 else None


def _stage(block: dict[str, Any]) -> Optional[int]:
    zero = block.get("zero_optimization")
    if not isinstance(zero, dict):
        return None
    stage = zero.get("stage")
    return stage if isinstance(stage, int) and not isinstance(stage, bool) else None


@register
class ZeroUntestedClientOptimizer(PlanRule):
    code = "PF570"
    name = "zero-untested-client-optimizer"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("A client optimizer ZeRO has not tested is passed to deepspeed.initialize without "
               "`zero_allow_untested_optimizer`")
    explanation = """
## What it finds

`deepspeed.initialize(..., optimizer=opt)` where `opt` is built in the script from a
class that is not one of ZeRO's tested optimizers (`torch.optim.Adam`, `AdamW`, `Adagrad`,
DeepSpeed's `FusedAdam`, `DeepSpeedCPUAdam`, `DeepSpeedCPUAdagrad`, `FusedLion`,
`DeepSpeedCPULion`), while the job's DeepSpeed config enables ZeRO (stage 1 or more), has
no `optimizer` block and does not set `"zero_allow_untested_optimizer": true`.

## Why it matters

`DeepSpeedEngine._do_optimizer_sanity_check` (deepspeed/runtime/engine.py) checks the
exact type against `ZERO_SUPPORTED_OPTIMIZERS` (deepspeed/runtime/zero/utils.py) and
asserts "You are using an untested ZeRO Optimizer. Please add
<"zero_allow_untested_optimizer": true> in the configuration file to use it." The job
stops in `deepspeed.initialize`, after the model was built. Reported in
EleutherAI/gpt-neox#1166 (Lion under ZeRO).

## How to fix it

Add `"zero_allow_untested_optimizer": true` to the DeepSpeed config (ZeRO then wraps the
optimizer as it is), or use a tested optimizer (DeepSpeed's `FusedLion` for Lion).

## When preflight stays silent

* The optimizer's class is one of the tested ones, or it comes from a function
  (`build_optimizer(...)`) or a local alias (`AdamOptimizer = DeepSpeedCPUAdam if offload
  else FusedAdam`) whose type is not visible.
* The config sets `zero_allow_untested_optimizer`, has its own `optimizer` block, has
  ZeRO off (stage 0) or a stage that is not a literal, or the job has no DeepSpeed config file.
"""
    bad_examples = examples("preflight.rules.plan._pf570_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf570_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs or any(block.get("zero_allow_untested_optimizer") is True
                              or "optimizer" in block for _, block, _ in configs):
            return
        zero = [(cfg, block, prefix) for cfg, block, prefix in configs if (_stage(block) or 0) >= 1]
        if not zero:
            return
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                if not (site.qualified or "").endswith("deepspeed.initialize"):
                    continue
                arg = _optimizer_arg(site.call)
                built = self._built(idx, site, arg)
                if built is None:
                    continue
                cls = (built.qualified or built.name or "").rsplit(".", 1)[-1]
                if not cls or not cls[0].isupper() or cls in _SUPPORTED:
                    continue
                # the class must be known: imported (``lion_pytorch.Lion``) or defined in the script,
                # not a local alias (``AdamOptimizer = DeepSpeedCPUAdam if offload else FusedAdam``)
                if "." not in (built.qualified or "") and not any(
                        isinstance(n, ast.ClassDef) and n.name == cls for n in ast.walk(script.tree)):
                    continue
                for cfg, block, prefix in zero:
                    yield pctx.config_finding(
                        self, cfg, (*prefix, "zero_optimization"),
                        f"ZeRO stage {_stage(block)} with the client optimizer `{built.label}` "
                        f"({script.source.display}:{built.line}), which is not one of ZeRO's tested optimizers, "
                        "and no \"zero_allow_untested_optimizer\": true: deepspeed.initialize asserts \"You are "
                        "using an untested ZeRO Optimizer\" before training starts. Add "
                        "\"zero_allow_untested_optimizer\": true to this config (or use DeepSpeed's FusedLion/"
                        "FusedAdam)",
                        evidence=[pctx.code_evidence(script, site.call, "the optimizer is handed to DeepSpeed here")])
                return

    @staticmethod
    def _built(idx: Any, site: Any, arg: Optional[ast.expr]) -> Any:
        if isinstance(arg, ast.Call):
            return next((s for s in idx.calls if s.call is arg), None)
        if not isinstance(arg, ast.Name):
            return None
        found = [s for s in idx.calls if s.target == arg.id and s.function == site.function and s.line < site.line]
        return max(found, key=lambda s: s.line) if found else None
