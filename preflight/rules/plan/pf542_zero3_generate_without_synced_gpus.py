"""PF542 zero3-generate-without-synced-gpus: ``generate()`` on a ZeRO-3 engine outside the HF integration."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# what registers the DeepSpeed config with transformers (`is_deepspeed_zero3_enabled()`), so that
# `generate()` turns `synced_gpus` on by itself (transformers PR 22242, 4.28)
_INTEGRATIONS = ("Trainer", "TrainingArguments", "Seq2SeqTrainingArguments", "HfDeepSpeedConfig", "Accelerator",
                 "SFTConfig", "SFTTrainer", "DPOTrainer", "GRPOTrainer", "PPOTrainer", "Seq2SeqTrainer")


def _engines(ctx: FileContext, script: ParsedPython) -> set[tuple[str, Optional[ast.AST]]]:
    """Names bound to the engine ``deepspeed.initialize(...)`` returns (``engine, opt, _, _ = ...``,
    ``engine = deepspeed.initialize(...)[0]``), with the function a plain name is local to
    (None for an attribute such as ``self.engine``, read anywhere in the file)."""
    names: set[tuple[str, Optional[ast.AST]]] = set()
    for node in ast.walk(script.tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "initialize" and isinstance(value.func.value, ast.Name)
                and value.func.value.id == "deepspeed"):
            continue
        for target in node.targets:
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if isinstance(first, ast.Name):
                names.add((first.id, ctx.enclosing_function(node)))
            elif isinstance(first, ast.Attribute):
                names.add((ast.unparse(first), None))
    return names


def _splat_says(fn: Optional[ast.AST], call: ast.Call) -> bool:
    """Whether a ``**kwargs`` of the call may carry ``synced_gpus``: true unless every splatted name
    is bound, in the enclosing function, only to a ``dict(...)``/``{...}`` without that key."""
    for kw in call.keywords:
        if kw.arg is not None:
            continue
        if not isinstance(kw.value, ast.Name) or fn is None:
            return True
        bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == kw.value.id for t in n.targets)]
        if not bound:
            return True
        for value in bound:
            if isinstance(value, ast.Dict):
                keys = [k.value if isinstance(k, ast.Constant) else None for k in value.keys]
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
                    and not value.args:
                keys = [k.arg for k in value.keywords]
            else:
                return True
            if None in keys or "synced_gpus" in keys:
                return True
        if any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == kw.value.id
               and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
            return True  # kwargs["synced_gpus"] = ...
    return False


@register
class Zero3GenerateWithoutSyncedGpus(PlanRule):
    code = "PF542"
    name = "zero3-generate-without-synced-gpus"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("deepspeed",)
    summary = "`generate()` on a ZeRO-3 DeepSpeed engine without `synced_gpus=True` hangs when ranks stop at different lengths"
    explanation = """
## What it finds

`engine.generate(...)` (or `engine.module.generate(...)`) on the engine
`deepspeed.initialize` returned, in a job whose DeepSpeed config uses ZeRO stage 3
on more than one process, without `synced_gpus=True`, where nothing registers the
config with transformers (no HF `Trainer`/`TrainingArguments`, `HfDeepSpeedConfig`
or Accelerate `Accelerator`).

## Why it matters

Under ZeRO-3 every forward gathers each layer's parameters from all ranks. With
sampling, or simply different prompts per rank, the ranks stop decoding after
different numbers of steps; the rank that finishes first stops joining the
all-gathers and the others wait forever (DeepSpeed issues 2022 and 3550,
transformers issue 18281, DeepSpeedExamples PR 636: "Z3 enabled actor models would
hang"). transformers turns `synced_gpus` on by itself only when
`is_deepspeed_zero3_enabled()`, which needs the HF integration to have seen the
config; a plain `deepspeed.initialize` job does not.

## How to fix it

Pass `synced_gpus=True` to `generate` (every rank then keeps stepping until all are
done), or create `HfDeepSpeedConfig(ds_config)` before loading the model.

## When preflight stays silent

* `synced_gpus=` is given, or a `**kwargs` that may hold it.
* ZeRO stage 1/2, one process, or a world size preflight does not know.
* The job builds the HF Trainer, `TrainingArguments`, `HfDeepSpeedConfig` or an
  Accelerate `Accelerator`.
"""
    bad_examples = examples("preflight.rules.plan._pf542_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf542_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plan = pctx.plan
        zero3 = next((f for f in plan.facts("dist.sharding") if f.value == "zero3" and f.adapter == "deepspeed"), None)
        world = plan.resolve("dist.world_size")
        if zero3 is None or world is None or not isinstance(world.value, int) or world.value <= 1:
            return
        scripts = pctx.scripts
        for script in scripts:
            if any(site.last in _INTEGRATIONS for site in pctx.index(script).calls):
                return
        for script in scripts:
            text = script.text if script.text is not None else script.source.text
            if "generate" not in (text or ""):
                continue
            ctx = pctx.file_context(script)
            engines = _engines(ctx, script)
            if not engines:
                continue
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "generate"):
                    continue
                receiver = ast.unparse(node.func.value)
                base = receiver[:-len(".module")] if receiver.endswith(".module") else receiver
                fn = ctx.enclosing_function(node)
                if (base, None) not in engines and (base, fn) not in engines:
                    continue
                if any(kw.arg == "synced_gpus" for kw in node.keywords) or _splat_says(fn, node):
                    continue
                message = (f"`{receiver}.generate(...)` runs on a ZeRO stage 3 DeepSpeed engine over {world.value} "
                           "processes without `synced_gpus=True`: ranks that finish decoding first stop joining the "
                           "parameter all-gathers and the others hang (transformers only turns it on when the HF "
                           "integration registered the config). Pass `synced_gpus=True`")
                evidence = [e for e in (pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned"),
                                        pctx.fact_evidence(world, f"{world.value} processes"))
                            if e is not None]
                yield pctx.code_finding(self, script, node, message, evidence=evidence)
