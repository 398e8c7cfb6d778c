"""PF326 shared-seed-noise-on-every-rank: every process of a multi-process job seeded with the same value,
then the training loop draws its noise from the global torch RNG: all ranks draw the same noise."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._loader_datasets import text_of
from preflight.rules.plan._schedule_support import processes

# draws from the global torch RNG (a `generator=` keyword takes them off it)
_DRAWS = frozenset({"randn", "randn_like", "rand", "rand_like", "randint", "randint_like", "randperm",
                    "normal", "bernoulli", "multinomial"})
_RANK_WORDS = ("rank", "process_index", "local_process_index", "device_specific")


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _per_rank(node: ast.AST) -> bool:
    """``node`` names something that differs between processes (a rank, a process index)."""
    text = ast.unparse(node).lower()
    return any(w in text for w in _RANK_WORDS)


def _library_seeder(call: ast.Call, text: str) -> bool:
    """A seeding call whose effect is known: ``torch.manual_seed``/``torch.cuda.manual_seed(_all)``,
    accelerate's or transformers' ``set_seed``, Lightning's ``seed_everything`` (a project helper of
    another module may add the rank inside: not read)."""
    name = _callee(call)
    func = ast.unparse(call.func)
    if name in ("manual_seed", "manual_seed_all"):
        return func.startswith("torch.")
    if name == "set_seed":
        return "accelerate" in text or "transformers" in text
    if name == "seed_everything":
        return func.startswith(("pl.", "L.", "lightning", "pytorch_lightning")) or "lightning" in text
    return False


def _shared_seed(tree: ast.AST, text: str) -> Optional[ast.Call]:
    """The first library seeding call of the file when no seeding call of the file involves the rank
    (``set_seed(seed + accelerator.process_index)``, ``set_seed(seed, device_specific=True)``, a seed
    variable assigned from the rank: ``seed = args.global_seed * world_size + rank``)."""
    # what the file assigns from a rank: `seed = base * world + rank`, `args.seed += rank`
    ranked: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None \
                and _per_rank(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            ranked.update(ast.unparse(t) for t in targets)
    params: dict[int, set[str]] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
            for sub in ast.walk(fn):
                params.setdefault(id(sub), set()).update(names)
    first: Optional[ast.Call] = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or "seed" not in _callee(node).lower():
            continue
        if isinstance(node.func, ast.Attribute) and "generator" in ast.unparse(node.func.value).lower():
            continue  # a generator of its own, not the global RNG
        args = [*node.args, *(k.value for k in node.keywords)]
        if _per_rank(node) or any(ast.unparse(sub) in ranked for a in args for sub in ast.walk(a)):
            return None
        if not _library_seeder(node, text):
            continue
        if any(isinstance(sub, ast.Name) and sub.id in params.get(id(node), set()) for a in args
               for sub in ast.walk(a)):
            continue  # seeded with a parameter (a helper's `seed`, `train(rank, ...)`): decided by the caller
        if first is None or (node.lineno, node.col_offset) < (first.lineno, first.col_offset):
            first = node
    return first


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

A job launched on several processes (a known process count above one) whose training
script seeds the global RNG with the same value on every process (`set_seed(args.seed)`,
`torch.manual_seed(seed)`, `seed_everything(seed)`: no rank, no process index, no
`device_specific=True` in any seeding call of the file), and whose training loop (a loop
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
* The draws take a `generator=`, or run under an `if` on the rank or the main process, or
  outside any loop that calls `backward` (initialisation, evaluation).
"""
    bad_examples = examples("preflight.rules.plan._pf326_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf326_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = processes(pctx)
        if world is None:
            return
        for script in pctx.scripts:
            text = text_of(script)
            if "seed" not in text or "backward" not in text \
                    or not any(f"torch.{d}" in text for d in ("rand", "normal", "bernoulli", "multinomial")):
                continue
            seed = _shared_seed(script.tree, text)
            if seed is None:
                continue
            draw = _loop_draw(script.tree)
            if draw is None:
                continue
            evidence = [pctx.code_evidence(script, draw, "a draw from the global torch RNG in the training loop",
                                           same_file=True)]
            world_ev = pctx.fact_evidence(world, f"{world.value} processes")
            if world_ev is not None:
                evidence.append(world_ev)
            yield pctx.code_finding(
                self, script, seed,
                f"`{ast.unparse(seed)}` seeds every one of the {world.value} processes alike, and the training loop "
                f"draws from the global torch RNG (`{ast.unparse(draw.func)}`, line {draw.lineno}): all ranks draw "
                "identical noise at every step, so the global batch repeats the same random draws and the extra "
                "ranks add no noise diversity. Seed per process (`set_seed(seed, device_specific=True)`, "
                "`torch.manual_seed(seed + rank)`) or draw from a per-rank `torch.Generator`",
                evidence=evidence)
