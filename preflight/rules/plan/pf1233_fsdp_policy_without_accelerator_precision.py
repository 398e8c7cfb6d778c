"""PF1233 fsdp-policy-without-accelerator-precision: an FSDP plugin carries a 16-bit ``MixedPrecision``
policy while the Accelerator runs without ``mixed_precision`` and the model is loaded in 16 bits: Accelerate
skips its fp32 upcast and the optimizer updates 16-bit weights."""

from __future__ import annotations

import ast
import textwrap
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_HALF = ("bfloat16", "float16", "half", "bf16", "fp16")
_PLUGINS = ("FullyShardedDataParallelPlugin", "FSDPPlugin")


def _kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _half(node: Optional[ast.AST]) -> bool:
    if node is None:
        return False
    text = ast.unparse(node).rsplit(".", 1)[-1].strip("'\"")
    return text in _HALF


def _bound_call(ctx: FileContext, name: str) -> Optional[ast.Call]:
    for node in ctx.nodes(ast.Assign):
        if any(isinstance(t, ast.Name) and t.id == name for t in node.targets) and isinstance(node.value, ast.Call):
            return node.value
    return None


def _policy_dtype(ctx: FileContext, plugin: ast.Call) -> Optional[ast.AST]:
    """The 16-bit ``param_dtype`` of the plugin's ``MixedPrecision`` policy."""
    policy = _kw(plugin, "mixed_precision_policy")
    if isinstance(policy, ast.Name):
        policy = _bound_call(ctx, policy.id)
    if not (isinstance(policy, ast.Call) and ast.unparse(policy.func).rsplit(".", 1)[-1] == "MixedPrecision"):
        return None
    dtype = _kw(policy, "param_dtype")
    return dtype if _half(dtype) else None


def _half_load(ctx: FileContext) -> Optional[ast.Call]:
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained" \
                and (_half(_kw(call, "torch_dtype")) or _half(_kw(call, "dtype"))):
            return call
    return None


def _trains(ctx: FileContext) -> bool:
    return any((isinstance(c.func, ast.Attribute) and "optim" in ast.unparse(c.func.value))
               or ast.unparse(c.func).rsplit(".", 1)[-1] in ("AdamW", "Adam", "SGD") for c in ctx.nodes(ast.Call))


@register
class FsdpPolicyWithoutAcceleratorPrecision(PlanRule):
    code = "PF1233"
    name = "fsdp-policy-without-accelerator-precision"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("An FSDP plugin carries a 16-bit `MixedPrecision` policy but the Accelerator runs without "
               "`mixed_precision` while the model is loaded in 16 bits: Accelerate skips its fp32 upcast and "
               "the optimizer updates 16-bit weights (no fp32 master copy)")
    explanation = textwrap.dedent("""
    ## What it finds

    `Accelerator(fsdp_plugin=plugin)` without `mixed_precision=` (and no mixed precision from the
    launch command or the Accelerate config), where `plugin` is a `FullyShardedDataParallelPlugin`
    whose `mixed_precision_policy` is a `MixedPrecision(param_dtype=torch.bfloat16 | float16)`, in
    a script that loads its model with `from_pretrained(..., torch_dtype=torch.bfloat16)` (or
    float16) and builds an optimizer.

    ## Why it matters

    Accelerate upcasts the sharded parameters of a model loaded in low precision to float32 only
    when the Accelerator's `mixed_precision` is set ("we follow DeepSpeed's strategy to hold the
    parameters in full precision"). With the policy given only to the plugin, the flat parameters
    stay bfloat16: AdamW updates 16-bit weights directly, small updates round away, and the
    fine-tune ends measurably worse without any error (instructlab/training pull request 465,
    "Fix FSDP mixed precision setting and loss w/ accelerate"). The policy the user wrote says
    mixed precision was intended.

    ## How to fix it

    Pass `mixed_precision="bf16"` (or `"fp16"`) to the Accelerator (or `--mixed_precision` to
    `accelerate launch`) and let it own the precision policy.

    ## When preflight stays silent

    * The Accelerator gets `mixed_precision=` or `**kwargs`, or the plan's precision comes from the
      launch/config as bf16/fp16.
    * The policy keeps float32 parameters, or is not a `MixedPrecision(...)` call the file shows.
    * The model is not loaded in 16 bits by `from_pretrained` in the script, or no optimizer is built.
    """)
    bad_examples = examples("preflight.rules.plan._pf1233_examples", "PF1233_BAD")
    good_examples = examples("preflight.rules.plan._pf1233_examples", "PF1233_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for fact in pctx.plan.facts("precision.mode"):
            if fact.source.kind not in ("code", "default") and str(fact.value).lower() not in ("fp32", "no"):
                return  # the launch command or the Accelerate config sets mixed precision
        for script in pctx.scripts:
            text = script.source.text
            if "fsdp_plugin" not in text or "MixedPrecision" not in text or "from_pretrained" not in text:
                continue
            ctx = pctx.file_context(script)
            load = _half_load(ctx)
            if load is None or not _trains(ctx):
                continue
            for call in ctx.nodes(ast.Call):
                if ast.unparse(call.func).rsplit(".", 1)[-1] != "Accelerator":
                    continue
                if _kw(call, "mixed_precision") is not None or any(k.arg is None for k in call.keywords):
                    continue
                plugin = _kw(call, "fsdp_plugin")
                if isinstance(plugin, ast.Name):
                    plugin = _bound_call(ctx, plugin.id)
                if not (isinstance(plugin, ast.Call) and ast.unparse(plugin.func).rsplit(".", 1)[-1] in _PLUGINS):
                    continue
                dtype = _policy_dtype(ctx, plugin)
                if dtype is None:
                    continue
                yield pctx.code_finding(
                    self, script, call,
                    f"the Accelerator gets an FSDP plugin whose `MixedPrecision` policy computes in "
                    f"`{ast.unparse(dtype)}`, but no `mixed_precision=`, while the model is loaded in 16 bits "
                    f"(line {load.lineno}): Accelerate upcasts the sharded parameters to float32 only when its own "
                    "`mixed_precision` is set, so the optimizer updates 16-bit weights with no fp32 master copy and "
                    "the fine-tune silently loses precision. Pass `mixed_precision=\"bf16\"` to the Accelerator",
                    evidence=[pctx.code_evidence(script, load, "the model is loaded in 16 bits", same_file=True)])
                break
