"""PF537 generate-on-prepared-ddp-model: ``model.generate(...)`` on the model ``accelerator.prepare``
returned, in a multi-process DDP job."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import examples
from preflight.rules.plan._pf537_support import (
    Scope,
    ddp_world,
    frozen_or_eval_mode,
    names_another_wrapper,
    prepared,
    rebound,
)


def _generates(ctx: FileContext, name: str, scope: Scope, after: int) -> Iterator[ast.Call]:
    """``name.generate(...)`` in ``scope`` after line ``after``, the name not bound again in between."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "generate" and target_text(func.value) == name \
                and ctx.enclosing_function(call) is scope and call.lineno > after \
                and not rebound(ctx, name, scope, after, call.lineno):
            yield call


def _handed_on(ctx: FileContext, name: str, scope: Scope, after: int) -> Iterator[tuple[ast.Call, ast.Call]]:
    """The model passed to a module-level function of the same file that calls ``param.generate``:
    (the passing call, the generate call)."""
    defs = {d.name: d for d in ctx.parsed.tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for call in ctx.nodes(ast.Call):
        if not (isinstance(call.func, ast.Name) and call.func.id in defs) or call.lineno <= after \
                or ctx.enclosing_function(call) is not scope or rebound(ctx, name, scope, after, call.lineno):
            continue
        fn = defs[call.func.id]
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        for i, arg in enumerate(call.args):
            if target_text(arg) == name and i < len(params):
                yield from ((call, g) for g in _generates(ctx, params[i], fn, fn.lineno))
        for kw in call.keywords:
            if kw.arg in params and target_text(kw.value) == name:
                yield from ((call, g) for g in _generates(ctx, kw.arg, fn, fn.lineno))


@register
class GenerateOnPreparedDdpModel(PlanRule):
    code = "PF537"
    name = "generate-on-prepared-ddp-model"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = "`model.generate(...)` on the model `accelerator.prepare` returned: under multi-GPU DDP it has no `generate`"
    explanation = """
## What it finds

`model.generate(...)` on the name `accelerator.prepare(model, ...)` returned (in the same function, or
in a function of the same file the prepared model is passed to), in a job whose launch runs several
processes with plain DDP (not DeepSpeed or FSDP).

## Why it matters

With more than one process, `accelerator.prepare` returns the model wrapped in
`torch.nn.parallel.DistributedDataParallel` (accelerate `Accelerator.prepare_model`). DDP does not
forward attribute lookups to the module it wraps, so `generate` (a `GenerationMixin` method of the
Hugging Face model) is not found: "AttributeError: 'DistributedDataParallel' object has no attribute
'generate'" (accelerate issue 109), typically after the first training epoch, when validation runs.
A single-process run is not wrapped and works, which is why the script passes its local test.
(DeepSpeed's engine and FSDP forward unknown attributes to the module; PF542 covers generation under
ZeRO-3.)

## How to fix it

```python
summary_ids = accelerator.unwrap_model(model).generate(**batch, max_new_tokens=128)
```

## When preflight stays silent

* The launch runs one process, or its world size is unknown, or the job shards with DeepSpeed or
  FSDP (a DeepSpeed/FSDP plugin in the script, or `dist.sharding` other than `ddp`).
* `generate` is called on `accelerator.unwrap_model(model)`, on `model.module`, or on a name bound
  again after `prepare`.
* The model is prepared with `evaluation_mode=True` or frozen with `model.requires_grad_(False)`:
  accelerate wraps a model in DDP only when some parameter requires a gradient
  (`any(p.requires_grad for p in model.parameters())` in `prepare_model`).
"""
    bad_examples = examples("preflight.rules.plan._pf537_examples", "PF537_BAD")
    good_examples = examples("preflight.rules.plan._pf537_examples", "PF537_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = ddp_world(pctx.plan)
        if world is None:
            return
        for script in pctx.scripts:
            if "generate" not in script.source.text or names_another_wrapper(script.source.text):
                continue
            ctx = pctx.file_context(script)
            seen: set[int] = set()
            for name, binding, scope in prepared(ctx):
                if frozen_or_eval_mode(ctx, name, binding):
                    continue
                found: list[tuple[Optional[ast.Call], ast.Call]] = [
                    (None, g) for g in _generates(ctx, name, scope, binding.lineno)]
                found += list(_handed_on(ctx, name, scope, binding.lineno))
                for passing, gen in found:
                    if id(gen) in seen:
                        continue
                    seen.add(id(gen))
                    evidence = [pctx.code_evidence(script, binding, "the model is wrapped here")]
                    if passing is not None:
                        evidence.append(pctx.code_evidence(script, passing, f"the prepared `{name}` is passed here"))
                    ev = pctx.fact_evidence(world, f"{world.value} processes")
                    if ev is not None:
                        evidence.append(ev)
                    yield pctx.code_finding(
                        self, script, gen,
                        f"`{ast.unparse(gen.func)}(...)` on the model `accelerator.prepare` returned: with "
                        f"{world.value} processes it is a DistributedDataParallel wrapper, which has no `generate`, "
                        "so this raises \"AttributeError: 'DistributedDataParallel' object has no attribute "
                        "'generate'\" (a single-process run is not wrapped and works). Call "
                        f"`accelerator.unwrap_model({target_text(gen.func.value)}).generate(...)`",  # type: ignore[attr-defined]
                        evidence=evidence)
