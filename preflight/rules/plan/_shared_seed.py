"""The seeding check PF326 and PF638 share: a multi-process job whose script seeds every process with
the same value (no rank, no process index, no ``device_specific=True`` in any seeding call of the file).
Split out of :mod:`pf326_shared_seed_noise_on_every_rank` by concern."""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Optional

from preflight.diagnostics import Evidence
from preflight.plan_rules import PlanContext
from preflight.rules.plan._loader_datasets import text_of
from preflight.rules.plan._schedule_support import processes
from preflight.sources import ParsedPython

_RANK_WORDS = ("rank", "process_index", "local_process_index", "device_specific")

# the condition both rules' explanations state ("What it finds"), completed by each rule
SEEDED_ALIKE = """A job launched on several processes (a known process count above one) whose training
script seeds the global RNG with the same value on every process (`set_seed(args.seed)`,
`torch.manual_seed(seed)`, `seed_everything(seed)`: no rank, no process index, no
`device_specific=True` in any seeding call of the file), and"""


def seeded_alike(pctx: PlanContext, mentions: Callable[[str], bool]) -> Iterator[tuple[Any, ParsedPython,
                                                                                        ast.Call]]:
    """(world size fact, script, first seeding call) of every script that :func:`shared_seed` finds seeding
    each process alike, in a job whose process count is known and above one; ``mentions`` screens a
    script's text first."""
    world = processes(pctx)
    if world is None:
        return
    for script in pctx.scripts:
        text = text_of(script)
        if not mentions(text):
            continue
        seed = shared_seed(script.tree, text)
        if seed is not None:
            yield world, script, seed


def world_evidence(pctx: PlanContext, world: Any) -> list[Evidence]:
    """The evidence line of the process count, where the plan says where it came from."""
    found = pctx.fact_evidence(world, f"{world.value} processes")
    return [found] if found is not None else []


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


def shared_seed(tree: ast.AST, text: str) -> Optional[ast.Call]:
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
