"""PF162 fp32-images-into-fp16-engine: the float32 image batches of a torchvision pipeline are fed to a
``deepspeed.initialize`` engine whose config enables ``fp16`` without ``auto_cast`` (or ``bf16``): the engine
holds half weights and does not cast inputs, and the first layer raises "Input type (torch.cuda.FloatTensor) and weight
type (torch.cuda.HalfTensor) should be the same"."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_engines import engine_names, engine_params
from preflight.rules.plan._deepspeed_runs import runs_config

# the file handles images as float tensors: torchvision transforms/datasets, PIL images
_IMAGES = re.compile(r"\b(torchvision|ToTensor|PIL)\b")
# any sign the inputs are cast somewhere (``.half()``, ``.to(target_dtype)``, autocast): the rule stays out
_CASTS = re.compile(r"\.half\(\)|torch\.half|float16|bfloat16|autocast|fp16_enabled|bfloat16_enabled|\.type\(")
_MOVES = frozenset({"to", "cuda", "float", "contiguous"})


def _half_block(block: dict[str, Any]) -> Optional[tuple[str, str]]:
    """(section, weight type) of ``fp16.enabled: true`` without ``auto_cast: true``, or of ``bf16.enabled: true``;
    None when amp or torch_autocast is enabled (they cast the inputs)."""
    for other in ("amp", "torch_autocast"):
        section = block.get(other)
        if isinstance(section, dict) and section.get("enabled") not in (False, None):
            return None
    fp16 = block.get("fp16")
    if isinstance(fp16, dict) and fp16.get("enabled") is True and fp16.get("auto_cast") is not True:
        return "fp16", "torch.cuda.HalfTensor"
    for key in ("bf16", "bfloat16"):
        section = block.get(key)
        if isinstance(section, dict) and section.get("enabled") is True:
            return key, "CUDABFloat16Type"
    return None


def _root_name(expr: ast.AST) -> Optional[str]:
    """``inputs`` of ``inputs``, ``inputs.to(rank)``, ``inputs.cuda()`` (moves that keep float32)."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _MOVES:
        if expr.func.attr == "to" and any("dtype" in ast.unparse(a) for a in [*expr.args, *expr.keywords]):
            return None
        expr = expr.func.value
    return expr.id if isinstance(expr, ast.Name) else None


def _loop_bound(scope: ast.AST, name: str) -> Optional[ast.For]:
    """The ``for`` loop of the scope that feeds ``name`` a batch: its target binds it (``for i, (inputs, labels)
    in ...``), or its body binds it from the target or from ``next(<iterator>)`` (``batch = next(data_iter)``;
    ``inputs = batch[0].to(rank)``)."""
    for node in ast.walk(scope):
        if not isinstance(node, ast.For):
            continue
        fed = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        assigns = [stmt for stmt in ast.walk(node) if isinstance(stmt, ast.Assign)]
        for _ in range(3):
            for stmt in assigns:
                reads = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}
                from_next = isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) \
                    and stmt.value.func.id == "next"
                if from_next or reads & fed:
                    fed |= {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if name in fed:
            return node
    return None


@register
class Fp32ImagesIntoFp16Engine(PlanRule):
    code = "PF162"
    name = "fp32-images-into-fp16-engine"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("float32 image batches are fed to a DeepSpeed engine whose config enables fp16 without `auto_cast` "
               "(or bf16): the engine's weights are 16-bit and the first layer fails on the input type")
    explanation = """
## What it finds

A script that builds images as float tensors (torchvision, `ToTensor`, PIL), binds an
engine with `deepspeed.initialize(...)`, and calls the engine on a batch from its data
loop (`outputs = model_engine(inputs)`, after `.to(rank)` / `.cuda()` moves only), while
the DeepSpeed config it runs with sets `"fp16": {"enabled": true}` without
`"auto_cast": true`, or `"bf16": {"enabled": true}` (and no amp/torch_autocast), and
nothing in the script casts inputs (`.half()`, `.to(target_dtype)`, `torch.float16`,
autocast, `fp16_enabled()`).

## Why it matters

With fp16 (or bf16) enabled the engine converts the model to 16 bits, but it does not
cast the inputs (only `fp16.auto_cast` does). A torchvision batch is float32, so the first
convolution or linear layer raises "RuntimeError: Input type (torch.cuda.FloatTensor) and
weight type (torch.cuda.HalfTensor) should be the same" (DeepSpeed issue 904; the
DeepSpeed CIFAR example casts its inputs to the engine's dtype; with bf16 the same error
names `CUDABFloat16Type`, DeepSpeed issue 6789). Token-id inputs of
language models do not hit this: the embedding takes integer ids.

## How to fix it

Cast the batch before the forward (`inputs = inputs.half()`, or
`inputs.to(torch.half)` when `model_engine.fp16_enabled()`), or set
`"fp16": {"enabled": true, "auto_cast": true}`; under bf16 cast to `torch.bfloat16`.

## When preflight stays silent

* The config enables amp/torch_autocast, leaves fp16 and bf16 off or `"auto"`, or sets
  `fp16.auto_cast: true`.
* The script casts anywhere (`.half()`, a dtype in `.to(...)`, `torch.float16`,
  `autocast`, `fp16_enabled()`), or handles no images (token ids).
* The engine's input is not a batch of the loop (a tensor built elsewhere).
"""
    bad_examples = examples("preflight.rules.plan._pf162_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf162_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        blocks = [(cfg, half) for cfg, block, prefix in pctx.deepspeed_configs()
                  for half in [_half_block(block)] if half is not None and not prefix]
        if not blocks:
            return
        for script in pctx.scripts:
            text = script.source.text
            if "initialize" not in text or not _IMAGES.search(text) or _CASTS.search(text):
                continue
            found = next(((cfg, half) for cfg, half in blocks if runs_config(pctx, script, cfg)), None)
            if found is None:
                continue
            config, (section, weight) = found
            ctx = pctx.file_context(script)
            engines = engine_names(ctx, script)
            for call in ctx.nodes(ast.Call):
                if not (isinstance(call.func, ast.Name) and call.args):
                    continue
                fn = ctx.enclosing_function(call)
                engine = next((name for name, scope in engines if name == call.func.id
                               and (scope is None or scope is fn)), None)
                if engine is None and call.func.id in engine_params(fn):
                    engine = call.func.id  # def train(model, loader, ...): model.backward(loss); model.step()
                if engine is None:
                    continue
                name = _root_name(call.args[0])
                scope = ctx.enclosing_function(call) or ctx.tree
                if name is None or _loop_bound(scope, name) is None:
                    continue
                how = "fp16 without `auto_cast`" if section == "fp16" else section
                fix = "or set `\"fp16\": {\"auto_cast\": true}`" if section == "fp16" else "before the forward"
                cast = f"{name} = {name}.half()" if section == "fp16" else f"{name} = {name}.to(torch.bfloat16)"
                yield pctx.code_finding(
                    self, script, call,
                    f"`{engine}({ast.unparse(call.args[0])})` feeds a float32 image batch to the DeepSpeed engine, "
                    f"and `{config.path}` enables {how}: the engine holds the model in {section} and does not cast "
                    f"inputs, so the first layer raises \"Input type (torch.cuda.FloatTensor) and weight type "
                    f"({weight}) should be the same\" (DeepSpeed issues 904, 6789). Cast the batch (`{cast}`) "
                    f"{fix}",
                    evidence=[pctx.config_evidence(config, (section, "enabled"), f"{section} on, inputs not cast")])
                break
