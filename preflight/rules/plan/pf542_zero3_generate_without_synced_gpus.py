"""PF542 zero3-generate-without-synced-gpus: ``generate()`` on a ZeRO-3 engine outside the HF integration."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_engines import enclosing_scope, engine_names_in, parent_map
from preflight.rules.plan._job_files import job_files
from preflight.sources import ParsedPython

# what registers the DeepSpeed config with transformers (`is_deepspeed_zero3_enabled()`), so that
# `generate()` turns `synced_gpus` on by itself (transformers PR 22242, 4.28)
_INTEGRATIONS = ("Trainer", "TrainingArguments", "Seq2SeqTrainingArguments", "HfDeepSpeedConfig", "Accelerator",
                 "SFTConfig", "SFTTrainer", "DPOTrainer", "GRPOTrainer", "PPOTrainer", "Seq2SeqTrainer")


def _before_auto_sync(pctx: PlanContext, script: ParsedPython) -> bool:
    """transformers pinned before 4.28: `generate()` does not read the ZeRO-3 state that
    `HfDeepSpeedConfig` registers (PR 22242 made `synced_gpus` default to it), so the registration
    alone does not keep the ranks in step."""
    version = pctx.version("transformers", script)
    return version is not None and version.how == "pinned" and not version.at_least(4, 28)


_RANK_WORDS = ("rank", "is_main_process", "is_local_main_process", "main_process")


def _under_rank_test(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """The call runs under ``if dist.get_rank() == 0:`` / ``if args.local_rank in (-1, 0):``: one rank
    generates alone, which `synced_gpus` cannot fix (PF553 reports it)."""
    child, above = node, parents.get(node)
    while above is not None:
        if isinstance(above, ast.If) and child in above.body and any(
                w in ast.unparse(above.test) for w in _RANK_WORDS):
            return True
        child, above = above, parents.get(above)
    return False


def _prepared_names(tree: ast.AST) -> set[tuple[str, Optional[ast.AST]]]:
    """Names bound by ``model, opt, loader = accelerator.prepare(...)``: under an Accelerate DeepSpeed config
    the prepared model is the ZeRO engine (only a model has ``generate``, so any of them may be the one)."""
    parents = parent_map(tree)
    out: set[tuple[str, Optional[ast.AST]]] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "prepare"):
            continue
        for target in node.targets:
            for elt in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                if isinstance(elt, ast.Name):
                    out.add((elt.id, enclosing_scope(node, parents)))
                elif isinstance(elt, ast.Attribute):
                    out.add((ast.unparse(elt), None))
    return out


def _receiver(call: ast.Call) -> str:
    """The model ``generate`` is called on, through ``accelerator.unwrap_model(model)``."""
    value = call.func.value if isinstance(call.func, ast.Attribute) else call.func
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "unwrap_model" \
            and len(value.args) == 1:
        value = value.args[0]
    return ast.unparse(value)


def _is_engine(receiver: str, fn: Optional[ast.AST], engines: set[tuple[str, Optional[ast.AST]]]) -> bool:
    """``engine``, ``engine.module``, or a local name bound to one of them in the function
    (``model = engine.module``)."""
    base = receiver[:-len(".module")] if receiver.endswith(".module") else receiver
    if (base, None) in engines or (base, fn) in engines:
        return True
    if fn is None or "." in receiver:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == receiver:
            value = ast.unparse(node.value)
            value = value[:-len(".module")] if value.endswith(".module") else value
            if value != receiver and ((value, None) in engines or (value, fn) in engines):
                return True
    return False


def _handed_engines(files: list[tuple[str, ast.AST]],
                    engines: dict[str, set[tuple[str, Optional[ast.AST]]]]) -> dict[str, set[int]]:
    """Function name -> positions where a call passes an engine name (``rollout(engine, ...)``)."""
    out: dict[str, set[int]] = {}
    for display, tree in files:
        found = engines[display]
        if not found:
            continue
        parents = parent_map(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name is None:
                continue
            fn = enclosing_scope(node, parents)
            for index, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and ((arg.id, None) in found or (arg.id, fn) in found):
                    out.setdefault(name, set()).add(index)
    return out


_ENCODERS = ("tokenizer", "processor", "tok")


def _encoding(value: ast.AST) -> bool:
    """``tokenizer(...)`` / ``self.tokenizer(...)`` / ``processor(...)``, possibly ``.to(...)``:
    a BatchEncoding, whose keys are model inputs (``input_ids``, ``attention_mask``)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to":
        value = value.func.value
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name.lower() in _ENCODERS or name.lower().endswith("tokenizer")


def _splat_says(fn: Optional[ast.AST], call: ast.Call) -> bool:
    """Whether a ``**kwargs`` of the call may carry ``synced_gpus``: true unless every splatted name
    is bound, in the enclosing function (the module for a module-level call; every binding in the
    file then counts), only to a ``dict(...)``/``{...}`` without that key."""
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
            if _encoding(value):
                continue  # `enc = tokenizer(prompts, return_tensors="pt").to(device)`: input tensors only
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
    frameworks = ("deepspeed", "accelerate")
    summary = "`generate()` on a ZeRO-3 DeepSpeed engine without `synced_gpus=True` hangs when ranks stop at different lengths"
    explanation = """
## What it finds

`engine.generate(...)` (or `engine.module.generate(...)`) on the engine
`deepspeed.initialize` returned, in a job whose DeepSpeed config uses ZeRO stage 3
on more than one process, without `synced_gpus=True`, where nothing registers the
config with transformers (no HF `Trainer`/`TrainingArguments`, `HfDeepSpeedConfig`
or Accelerate `Accelerator`). The engine is followed into a helper function it is
handed to, in the script or a project module it imports (`rollout(engine, tokenizer,
prompts)` whose body runs `model = engine.module; model.generate(**enc, ...)`: the
rollout helper of an on-policy distillation loop, OPSD issue's shape).

Also an Accelerate DeepSpeed ZeRO-3 job (`zero_stage: 3` in the `accelerate launch`
config) on transformers pinned before 4.28: `model.generate(...)` or
`accelerator.unwrap_model(model).generate(...)` on a model `accelerator.prepare` returned
(transformers issue 22231, "Detect Accelerate's DeepSpeed level 3 Env Vars and warn if
synced_gpus is False": the RLHF rollout hung).

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

* `synced_gpus=` is given, or a `**kwargs` that may hold it (a splatted tokenizer or
  processor output, `**enc` from `enc = tokenizer(prompts, return_tensors="pt")`,
  holds only model inputs and does not count).
* ZeRO stage 1/2, one process, or a world size preflight does not know.
* The call runs under a rank test (`if dist.get_rank() == 0:`): one rank generating
  alone is PF553's finding, and `synced_gpus` does not fix it.
* The job builds the HF Trainer, `TrainingArguments`, `HfDeepSpeedConfig` or an
  Accelerate `Accelerator` (transformers 4.28 and later default `synced_gpus` to the
  registered ZeRO-3 state). `HfDeepSpeedConfig` (or `Accelerator`) alone does not count when
  the project pins transformers before 4.28, where `generate()` did not read it.
* An Accelerate DeepSpeed ZeRO-3 job (`accelerate launch` with `zero_stage: 3`) whose
  transformers is not pinned below 4.28.
"""
    bad_examples = examples("preflight.rules.plan._pf542_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf542_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plan = pctx.plan
        zero3 = next((f for f in plan.facts("dist.sharding")
                      if f.value == "zero3" and f.adapter in ("deepspeed", "accelerate")), None)
        world = plan.resolve("dist.world_size")
        if zero3 is None or world is None or not isinstance(world.value, int) or world.value <= 1:
            return
        # an Accelerate DeepSpeed config: the prepared model is the engine; its ZeRO-3 state reaches
        # `generate()` only from transformers 4.28 on, so the rule needs a pin below it
        accelerate = zero3.adapter == "accelerate"
        scripts = pctx.scripts
        for script in scripts:
            built = {site.last for site in pctx.index(script).calls} & set(_INTEGRATIONS)
            registers_only = {"HfDeepSpeedConfig", "Accelerator"} if accelerate else {"HfDeepSpeedConfig"}
            if (built or accelerate) and not (built <= registers_only and _before_auto_sync(pctx, script)):
                return
        files = job_files(pctx)
        engines: dict[str, set[tuple[str, Optional[ast.AST]]]] = {}
        for display, tree in files:
            engines[display] = _prepared_names(tree) if accelerate else engine_names_in(tree)
        # an engine handed to a helper function (`rollout(engine, tokenizer, prompts)` with the
        # helper in another module): the parameter in that position is the engine inside it
        handed = _handed_engines(files, engines)
        for display, tree in files:
            found = engines[display]
            parents = parent_map(tree)
            for fn in ast.walk(tree):
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
                    for index in handed.get(fn.name, ()):
                        if index < len(params):
                            found.add((params[index], fn))
            if not found:
                continue
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "generate"):
                    continue
                receiver = _receiver(node)
                scope = enclosing_scope(node, parents)
                if not _is_engine(receiver, scope, found):
                    continue
                # a module-level call: the names it splats are bound at module level
                if any(kw.arg == "synced_gpus" for kw in node.keywords) \
                        or _splat_says(scope if scope is not None else tree, node) \
                        or _under_rank_test(node, parents):
                    continue
                message = (f"`{receiver}.generate(...)` runs on a ZeRO stage 3 DeepSpeed engine over {world.value} "
                           "processes without `synced_gpus=True`: ranks that finish decoding first stop joining the "
                           "parameter all-gathers and the others hang (transformers only turns it on when the HF "
                           "integration registered the config). Pass `synced_gpus=True`")
                evidence = [e for e in (pctx.fact_evidence(zero3, "ZeRO stage 3: parameters are partitioned"),
                                        pctx.fact_evidence(world, f"{world.value} processes"))
                            if e is not None]
                yield pctx.location_finding(self, display, node.lineno, message, evidence=evidence)
