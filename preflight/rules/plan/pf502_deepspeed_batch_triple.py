"""PF502 deepspeed-batch-triple: train_batch_size != micro x accumulation x world size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

if TYPE_CHECKING:
    from preflight.plan import Fact

_T, _M, _G = "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def world_fact(pctx: PlanContext) -> Optional[Fact]:
    """The launch's world size, from anything but the DeepSpeed JSON itself or a default."""
    facts = [f for f in pctx.plan.facts("dist.world_size")
             if f.adapter != "deepspeed" and f.source.kind not in ("default",)]
    if not facts:
        return None
    best = facts[0]
    for f in facts[1:]:
        if f.rank() < best.rank():
            best = f
    return best


def per_node_fact(pctx: PlanContext) -> Optional[Fact]:
    """Processes per node from a deepspeed launch that does not give the node count: the
    world size is then a multiple of it. A node count guessed at low confidence (the launcher's
    "this machine alone unless /job/hostfile exists") leaves it a multiple."""
    if any(f.source.kind not in ("default",) and f.confidence != "low" for f in pctx.plan.facts("dist.nodes")):
        return None
    for f in pctx.plan.facts("dist.devices_per_node"):
        if f.adapter != "deepspeed" and f.source.kind == "cli" and "deepspeed" in (
                f.source.detail or ""):
            return f
    return None


def _hostfile(pctx: PlanContext) -> bool:
    return any(tok.split("=", 1)[0] in ("--hostfile", "-H") for tok in pctx.project.argv)


_MP_FLAGS = ("--tensor-model-parallel-size", "--tensor_model_parallel_size", "--pipeline-model-parallel-size",
             "--pipeline_model_parallel_size", "--tp", "--pp", "--tp_size", "--pp_size", "--num_stages")


def _model_parallel(pctx: PlanContext) -> bool:
    """Tensor or pipeline parallelism: DeepSpeed's world size is then the data-parallel group,
    smaller than the process count, and preflight does not derive it."""
    if any(tok.split("=", 1)[0] in _MP_FLAGS for tok in pctx.project.argv):
        return True
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            q = site.qualified or ""
            if q.startswith("deepspeed.") and site.last == "initialize" and site.kwarg("mpu") is not None:
                return True
            if q.startswith("deepspeed.pipe") or site.last == "PipelineModule":
                return True
    return False


@register
class DeepSpeedBatchTriple(PlanRule):
    code = "PF502"
    name = "deepspeed-batch-triple"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "The DeepSpeed batch triple cannot hold for the launch's world size"
    explanation = """
## What it finds

A DeepSpeed config whose explicit `train_batch_size`,
`train_micro_batch_size_per_gpu` and `gradient_accumulation_steps` cannot satisfy
DeepSpeed's check `train_batch_size == micro x accumulation x world size` for
the data-parallel world size of the launch (torchrun, `deepspeed`, `accelerate
launch`, SLURM, Lightning devices x nodes): all three given and the product is
off, or two given and the third cannot be derived (DeepSpeed derives it with
integer division and then asserts). The config is the one `--config` or the launch line
names, a dict the script builds for `deepspeed.initialize`, or a JSON whose path the script
builds from its options and hands to `HfDeepSpeedConfig` / `deepspeed.initialize`
(`f"dsconfig/stage_{args['stage']}.json"` with `--stage 1` on the launch line).

When the launch gives only the processes per node (`deepspeed --num_gpus 4` without
`--num_nodes`), the world size is a multiple of it: the triple must hold for some node
count (error otherwise), and when it holds only on more than one node while neither
`--num_nodes` nor `--hostfile` is given (the launcher then runs on this machine alone
unless `/job/hostfile` exists) the rule warns.
Without a known world size the rule checks what holds for every world size:
`train_batch_size` must be a multiple of micro x accumulation (all three given)
or of the micro-batch (accumulation derived).

## Why it matters

`deepspeed.initialize` fails with an AssertionError ("Check batch related
parameters. train_batch_size is not equal to micro_batch_per_gpu *
gradient_acc_step * world_size") after the job got its nodes and loaded the
model.

## How to fix it

Give two of the three and let DeepSpeed derive the third, or use `"auto"` under
the HF Trainer / Accelerate, which fill all three from the arguments and the
world size.

## When preflight stays silent

* `"auto"` or missing values that DeepSpeed can derive; a world size known only
  from the DeepSpeed JSON itself.
* The world size is unknown and some world size would make the numbers hold.
* Tensor or pipeline parallelism (`deepspeed.initialize(mpu=...)`, a `PipelineModule`,
  `--tensor-model-parallel-size`/`--pipeline-model-parallel-size` on the launch): DeepSpeed
  then counts only the data-parallel ranks, so only the multiple check above is made.
"""
    bad_examples = examples("preflight.rules.plan._pf502_examples", "PF502_BAD")
    good_examples = examples("preflight.rules.plan._pf502_examples", "PF502_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the batch numbers each DeepSpeed config (JSON, YAML block or a
        dict built in Python) states, as the deepspeed adapter recorded them."""
        parallel = _model_parallel(pctx)
        world = None if parallel else world_fact(pctx)
        if world is not None and world.confidence == "low" and per_node_fact(pctx) is not None:
            world = None  # ``--num_gpus K`` alone: K on this machine, or a multiple through a hostfile
        w = world.value if world is not None else None
        per_node = None if parallel or world is not None else per_node_fact(pctx)
        groups: dict[str, dict[str, Fact]] = {}
        for field, key in (("batch.global", _T), ("batch.micro", _M), ("batch.grad_accum", _G)):
            for fact in pctx.plan.facts(field):
                if fact.adapter == "deepspeed" and fact.source.kind == "config" and fact.source.path:
                    groups.setdefault(fact.source.path, {}).setdefault(key, fact)
        # under the HF Trainer's DeepSpeed integration the micro-batch and accumulation that the config
        # leaves out or sets to "auto" are the TrainingArguments' (integrations/deepspeed.py
        # `trainer_config_process`: fill_match of train_micro_batch_size_per_gpu, gradient_accumulation_steps
        # and train_batch_size = world x micro x accumulation)
        hf: dict[str, Fact] = {}
        for field, key in (("batch.micro", _M), ("batch.grad_accum", _G)):
            given = next((f for f in pctx.plan.facts(field) if f.adapter == "transformers"
                          and f.source.kind not in ("derived", "default") and _int(f.value) is not None), None)
            if given is not None:
                hf[key] = given
        for facts in groups.values():
            if _T in facts and len(hf) == 2:
                facts = dict(facts)
                for key, given in hf.items():
                    if key not in facts or _int(facts[key].value) is None:
                        facts[key] = given
            t, m, g = (_int(facts[k].value) if k in facts else None for k in (_T, _M, _G))
            problem = self._problem(t, m, g, w)
            severity = None
            if problem is None and per_node is not None:
                problem, severity = self._per_node_problem(t, m, g, per_node, _hostfile(pctx))
            if problem is None:
                continue
            if world is not None:
                from preflight.audit import format_source

                how = world.source.detail or format_source(world.source)
                problem += f" (world size {w}: {how})"
            anchor = next(facts[k] for k in (_T, _M, _G) if k in facts)
            evidence = [e for e in (pctx.fact_evidence(facts[k], f"{k} = {facts[k].value}")
                                    for k in (_T, _M, _G) if k in facts) if e is not None]
            if world is not None:
                ev = pctx.fact_evidence(world, f"world size {w}")
                if ev is not None:
                    evidence.append(ev)
            if per_node is not None:
                ev = pctx.fact_evidence(per_node, f"{per_node.value} processes per node, node count not given")
                if ev is not None:
                    evidence.append(ev)
            finding = pctx.fact_finding(self, anchor, problem, evidence=evidence)
            if finding is not None:
                if severity is not None:
                    finding.severity = severity
                yield finding

    @classmethod
    def _per_node_problem(cls, t: Optional[int], m: Optional[int], g: Optional[int], per_node: Fact,
                          hostfile: bool) -> tuple[Optional[str], Optional[Severity]]:
        """The world size is a multiple of the processes per node (``deepspeed --num_gpus K``
        without ``--num_nodes``): no node count may satisfy the triple (error), or only more
        nodes than this machine when no hostfile is named (warning: the launcher then runs on
        this machine alone unless /job/hostfile exists)."""
        k = per_node.value
        if not isinstance(k, int) or k < 1:
            return None, None
        how = f"deepspeed {per_node.source.key or '--num_gpus'} {k} without --num_nodes"
        if t is not None and m is not None and g is not None:
            unit = m * g * k
            if t % unit:
                return (f"train_batch_size {t} is not a multiple of {m} (micro) x {g} (accumulation) x "
                        f"{k} (processes per node, {how}) = {unit}, so no node count satisfies it; "
                        "`deepspeed.initialize` asserts train_batch_size == micro x accumulation x world "
                        "size. Give two of the three (or \"auto\") and let the third be derived"), None
            if t != unit and not hostfile:
                return (f"train_batch_size {t} != {m} (micro) x {g} (accumulation) x {k} (processes per "
                        f"node, {how}) = {unit} on one node: without --num_nodes or --hostfile the "
                        f"deepspeed launcher runs on this machine alone (unless /job/hostfile exists), and "
                        f"the numbers hold only on {t // unit} nodes; `deepspeed.initialize` asserts "
                        "train_batch_size == micro x accumulation x world size"), Severity.WARNING
            return None, None
        if t is not None and (m is not None or g is not None):
            known = m if m is not None else g
            assert known is not None
            if t % (known * k):
                name = "micro" if m is not None else "accumulation"
                return (f"train_batch_size {t} is not a multiple of the {name} {known} x {k} (processes per "
                        f"node, {how}) = {known * k}, so DeepSpeed cannot derive the third value for any "
                        "node count; give two of the three (or \"auto\")"), None
        return None, None

    @staticmethod
    def _problem(t: Optional[int], m: Optional[int], g: Optional[int], w: Optional[int]) -> Optional[str]:
        tail = ("; `deepspeed.initialize` asserts train_batch_size == micro x accumulation x world size. "
                "Give two of the three (or \"auto\") and let the third be derived")
        if t is not None and m is not None and g is not None:
            if w is not None and t != m * g * w:
                return (f"train_batch_size {t} != {m} (micro) x {g} (accumulation) x {w} (world size) = "
                        f"{m * g * w}" + tail)
            if w is None and t % (m * g):
                return (f"train_batch_size {t} is not a multiple of {m} (micro) x {g} (accumulation) = "
                        f"{m * g}, so no world size satisfies it" + tail)
            return None
        if t is not None and (m is not None or g is not None):
            known, name = (m, "micro") if m is not None else (g, "accumulation")
            assert known is not None
            other = "accumulation" if m is not None else "micro-batch"
            if w is not None:
                derived = t // (known * w)
                if derived < 1 or derived * known * w != t:
                    return (f"train_batch_size {t} with {name} {known} on {w} processes: DeepSpeed derives the "
                            f"{other} as {t} // ({known} x {w}) = {derived}, and {derived} x {known} x {w} != {t}"
                            + tail)
            elif t % known:
                return (f"train_batch_size {t} is not a multiple of the {name} {known}, so DeepSpeed cannot "
                        f"derive the {other} for any world size" + tail)
        return None
