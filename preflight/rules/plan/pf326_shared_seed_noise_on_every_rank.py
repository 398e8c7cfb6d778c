"""PF326 shared-seed-noise-on-every-rank: every process of a multi-process job seeded with the same value,
then the training loop draws its noise from the global torch RNG: all ranks draw the same noise."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._shared_seed import SEEDED_ALIKE, seeded_alike, world_evidence

# draws from the global torch RNG (a `generator=` keyword takes them off it)
_DRAWS = frozenset({"randn", "randn_like", "rand", "rand_like", "randint", "randint_like", "randperm",
                    "normal", "bernoulli", "multinomial"})


def _global_draw(call: ast.Call) -> bool:
    """``torch.randn(...)``/``torch.randint(...)``/... without ``generator=``."""
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr in _DRAWS and isinstance(func.value, ast.Name) \
        and func.value.id == "torch" and not any(k.arg == "generator" for k in call.keywords)


def _is_backward(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward"


def _gated_on_rank(loop: ast.AST, draw: ast.Call) -> bool:
    """The draw sits under an ``if`` inside the loop that tests the rank or the main process."""
    for node in ast.walk(loop):
        if isinstance(node, ast.If) and any(n is draw for s in node.body for n in ast.walk(s)):
            text = ast.unparse(node.test).lower()
            if "rank" in text or "main_process" in text or "is_global_zero" in text or "process_index" in text:
                return True
    return False


def _loop_draw(tree: ast.AST) -> Optional[ast.Call]:
    """The first global-RNG draw in a training loop (a loop whose body calls ``backward``) that feeds the
    step, outside any rank test."""
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        nodes = [n for s in loop.body for n in ast.walk(s)]
        if not any(_is_backward(n) for n in nodes):
            continue
        draws = [n for n in nodes if isinstance(n, ast.Call) and _global_draw(n) and not _gated_on_rank(loop, n)]
        if draws:
            return min(draws, key=lambda n: (n.lineno, n.col_offset))
    return None


# tensor/sequence parallelism splits one model over the ranks of a group, which must all see the same input:
# seeding every rank alike is then how the input is kept identical (pytorch/examples' tensor_parallel_example.py)
_TENSOR_PARALLEL = ("parallelize_module", "ColwiseParallel", "RowwiseParallel", "SequenceParallel",
                    "tensor_model_parallel")


def _tensor_parallel(tree: ast.AST) -> bool:
    """The script shards the model with tensor/sequence parallelism (``parallelize_module``, Megatron's
    ``tensor_model_parallel``): identical draws on the ranks of a TP group are required there."""
    for node in ast.walk(tree):
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else \
            node.name if isinstance(node, ast.alias) else None
        if name and any(name.startswith(t) or name.endswith(t) for t in _TENSOR_PARALLEL):
            return True
    return False


def _mentions(text: str) -> bool:
    return "seed" in text and "backward" in text \
        and any(f"torch.{d}" in text for d in ("rand", "normal", "bernoulli", "multinomial"))


@register
class SharedSeedNoiseOnEveryRank(PlanRule):
    code = "PF326"
    name = "shared-seed-noise-on-every-rank"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("Every process is seeded with the same value and the training loop draws its noise from the "
               "global torch RNG: all ranks draw identical noise and timesteps at every step")
    explanation = """
## What it finds

""" + SEEDED_ALIKE + """ whose training loop (a loop
that calls `backward`) draws from the global torch RNG: `torch.randn`, `torch.randn_like`,
`torch.rand`, `torch.randint`, `torch.randperm`, `torch.normal`... without `generator=`,
outside a test of the rank or the main process. Reported on the seeding call (the line
the fix changes), with the draw as evidence.

## Why it matters

Seeding makes each process's RNG stream a function of the seed alone: with the same seed,
every rank draws the same numbers in the same order. The diffusion noise and timesteps, the
flow-matching noise, masks or random crops drawn in the loop are then identical on all
GPUs at every step: the global batch repeats the same corruption N times, and the extra
ranks add no noise diversity (accelerate issue 236, which added `device_specific=True` to
`set_seed` for this; lingbot-vla issue 41: "all GPUs use identical noise and timesteps").

## How to fix it

Seed per process after the shared initialisation: `set_seed(args.seed, device_specific=True)`
(accelerate adds the process index), `torch.manual_seed(seed + rank)`, or draw the noise
from a per-rank `torch.Generator` (`generator=g`).

## When preflight stays silent

* One process, or a process count preflight cannot read.
* The file never seeds, or one of its seeding calls involves the rank or
  `device_specific=True`, directly or through a variable the file assigns from the rank
  (`seed = args.global_seed * world_size + rank`, as DiT's `train.py` does; a reseed per
  rank after building the model is the usual fix).
* The seeding is done by a project helper (its body may add the rank; only torch's,
  accelerate's, transformers' and Lightning's seeding calls are read), or with a function
  parameter (`def train(rank, seed): torch.manual_seed(seed)`: the caller decides).
* The script shards the model with tensor or sequence parallelism (`parallelize_module`,
  `ColwiseParallel`, Megatron's `tensor_model_parallel`): the ranks of a tensor-parallel group
  must draw the same input, and seeding them alike is how pytorch/examples' tensor-parallel
  example keeps it identical (pytorch/examples PR 1424).
* The draws take a `generator=`, or run under an `if` on the rank or the main process, or
  outside any loop that calls `backward` (initialisation, evaluation).
"""
    bad_examples = examples("preflight.rules.plan._pf326_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf326_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for world, script, seed in seeded_alike(pctx, _mentions):
            draw = _loop_draw(script.tree)
            if draw is None or (_tensor_parallel(script.tree)):
                continue
            evidence = [pctx.code_evidence(script, draw, "a draw from the global torch RNG in the training loop",
                                           same_file=True), *world_evidence(pctx, world)]
            yield pctx.code_finding(
                self, script, seed,
                f"`{ast.unparse(seed)}` seeds every one of the {world.value} processes alike, and the training loop "
                f"draws from the global torch RNG (`{ast.unparse(draw.func)}`, line {draw.lineno}): all ranks draw "
                "identical noise at every step, so the global batch repeats the same random draws and the extra "
                "ranks add no noise diversity. Seed per process (`set_seed(seed, device_specific=True)`, "
                "`torch.manual_seed(seed + rank)`) or draw from a per-rank `torch.Generator`",
                evidence=evidence)
