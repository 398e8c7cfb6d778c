"""PF305 unseeded-training: a training script that draws randomness and never seeds."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.bindings import MODULE
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, ScopeIndex, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_TORCH_DRAWS = frozenset({
    "torch.rand", "torch.randn", "torch.randint", "torch.randperm", "torch.normal",
    "torch.bernoulli", "torch.multinomial", "torch.rand_like", "torch.randn_like",
    "torch.randint_like", "torch.nn.functional.dropout", "torch.utils.data.RandomSampler",
    "torch.utils.data.random_split", "torch.utils.data.sampler.RandomSampler",
    "torch.utils.data.dataset.random_split",
})
_RANDOM_DRAWS = frozenset({
    "random.random", "random.randint", "random.shuffle", "random.choice", "random.choices",
    "random.sample", "random.uniform", "random.gauss", "random.randrange",
})
# Keywords that hand a seed or a seeded generator to something.
_SEED_KEYWORDS = frozenset({"seed", "generator", "random_state", "rng", "random_seed"})
_LIGHTNING_TRAINERS = ("lightning.Trainer", "lightning.pytorch.Trainer",
                       "pytorch_lightning.Trainer", "lightning.pytorch.trainer.Trainer",
                       "pytorch_lightning.trainer.Trainer")


def _qual(scopes: ScopeIndex, call: ast.Call) -> str:
    return scopes.imports.qualify(call.func) or ""


def _seed_call(scopes: ScopeIndex, call: ast.Call) -> bool:
    """``torch.manual_seed``, ``set_seed``, ``seed_everything``, ``np.random.seed``... or a
    generator built from a seed (``np.random.default_rng(seed)``)."""
    qual = _qual(scopes, call)
    last = qual.rsplit(".", 1)[-1] if qual else (
        call.func.attr if isinstance(call.func, ast.Attribute) else "")
    if "seed" in last.lower():
        return True
    if last in ("default_rng", "RandomState", "Random", "PRNGKey") and (call.args or call.keywords):
        return True
    return any(k.arg in _SEED_KEYWORDS for k in call.keywords)


def _draw(scopes: ScopeIndex, call: ast.Call) -> Optional[str]:
    """What random draw a call makes, if it is one."""
    qual = _qual(scopes, call)
    for kw in call.keywords:
        if kw.arg == "shuffle" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
            return "`shuffle=True`"
    if qual in _TORCH_DRAWS or qual in _RANDOM_DRAWS:
        return f"`{qual}(...)`"
    if qual.startswith("torch.nn.init.") or (qual.startswith("torch.nn.Dropout")):
        return f"`{qual}(...)`"
    if qual.startswith("numpy.random.") and qual.rsplit(".", 1)[-1] not in (
            "seed", "default_rng", "RandomState", "Generator", "SeedSequence", "get_state",
            "set_state"):
        return f"`{qual}(...)`"
    if qual in ("numpy.random.default_rng",) and not (call.args or call.keywords):
        return "`numpy.random.default_rng()` without a seed"
    return None


def _random_init(scopes: ScopeIndex) -> Optional[tuple[ast.AST, str]]:
    """A model built from scratch (random weights): a local nn.Module class or a torch.nn layer."""
    best: Optional[tuple[ast.AST, str]] = None
    for b in scopes.bindings.names.values():
        if b.kind != MODULE or b.inner is not None or not isinstance(b.node, ast.Call):
            continue
        qual = _qual(scopes, b.node)
        local = b.cls is not None and b.cls.is_module and isinstance(b.node.func, ast.Name)
        layer = qual.startswith("torch.nn.") and not b.param_free
        if (local or layer) and (best is None or b.node.lineno < best[0].lineno):  # type: ignore[attr-defined]
            best = (b.node, f"`{ast.unparse(b.node.func)}(...)` starts from random weights")
    return best


def _lightning_fit_functions(scopes: ScopeIndex) -> set[FunctionInfo]:
    """Functions that call ``trainer.fit(...)`` on a Lightning Trainer, and their callers."""
    trainers: set[tuple[FunctionInfo, str]] = set()
    for node in scopes.ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and _qual(scopes, node.value) in _LIGHTNING_TRAINERS:
            fn = scopes.function_of(node)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    trainers.add((scopes.scope_of_name(target.id, fn), target.id))
    out: set[FunctionInfo] = set()
    if not trainers:
        return out
    for call, fn in scopes.bindings.call_functions:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "fit" and isinstance(
                func.value, ast.Name) and (scopes.scope_of_name(func.value.id, fn),
                                           func.value.id) in trainers:
            out.add(fn)
    queue = list(out)
    while queue:
        fn = queue.pop()
        for site in fn.call_sites:
            if site.caller not in out:
                out.add(site.caller)
                queue.append(site.caller)
    return out


def training_entry(scopes: ScopeIndex) -> Optional[ast.AST]:
    """The module-level statement that starts training (a loop, or a call of a function
    that trains), or None for a library module."""
    fits = _lightning_fit_functions(scopes)
    if scopes.module in fits:
        for call, fn in scopes.bindings.call_functions:
            if fn is scopes.module and isinstance(call.func, ast.Attribute) and call.func.attr == "fit":
                return scopes.statement_of(call)
    candidates: list[ast.AST] = []
    for tc in scopes.training_calls:
        if tc.function is scopes.module:
            loop = scopes.loop_of(tc.call)
            while loop is not None and loop.parent is not None:
                loop = loop.parent
            if loop is None:
                candidates.append(tc.call)
            else:
                node = loop.node
                candidates.append(node.iter if isinstance(node, (ast.For, ast.AsyncFor)) else node.test)
            break
    for call, fn in scopes.bindings.call_functions:
        if fn is not scopes.module:
            continue
        target = scopes.bindings.target_of(call)
        if target is not None and (target.trains or target in fits):
            candidates.append(scopes.statement_of(call) or call)
            break
    if not candidates:
        return None
    return min(candidates, key=lambda n: n.lineno)  # type: ignore[attr-defined]


@register
class UnseededTraining(Rule):
    code = "PF305"
    name = "unseeded-training"
    severity = Severity.NOTE
    category = Category.CORRECTNESS
    summary = "A training script draws randomness but never sets a seed"
    explanation = """
## What it finds

A script that trains -- it starts a training loop (backward or optimizer step)
or a Lightning `trainer.fit(...)` from module level or `if __name__ == "__main__":`
-- and draws randomness (random weights of a model built from scratch,
`shuffle=True`, `RandomSampler`, `random_split`, dropout, `torch.rand*`,
`numpy.random.*`, `random.*`), but never seeds any generator. One note per
file, at the statement that starts training.

## Why it matters

Without a seed every run starts from different weights and sees the batches in
a different order. Two runs of the same commit disagree, a regression cannot be
told from noise, and a failure seen once cannot be reproduced (PyTorch
"Reproducibility" notes: "you can use `torch.manual_seed()` to seed the RNG for
all devices"; seed Python's `random` and NumPy too).

## How to fix it

At the start of the entry point: `torch.manual_seed(seed)`, `random.seed(seed)`,
`np.random.seed(seed)` -- or one helper: `transformers.set_seed(seed)`,
`lightning.seed_everything(seed)` (`L.seed_everything`, `pl.seed_everything`),
`accelerate.utils.set_seed(seed)`.

## When preflight stays silent

* A seeding call of every generator the script draws from: seeding only
  `torch.manual_seed` while `random.*` or `numpy.random.*` also draw is reported
  (the unseeded generators are named). Any of: `torch.manual_seed`, `torch.cuda.manual_seed_all`,
  `np.random.seed`, `random.seed`, `set_seed`, `seed_everything`, a project
  helper whose name contains `seed` (`init_seeds(...)`), a seeded generator
  (`np.random.default_rng(seed)`, `torch.Generator().manual_seed(seed)`), or a
  `seed=` / `generator=` / `random_state=` argument passed anywhere.
* Hugging Face `Trainer`: it seeds itself from `TrainingArguments.seed` (42 by
  default) and is not treated as unseeded training.
* Library modules: a file whose training function is not started at module
  level (the entry script seeds, or not, elsewhere).
* No random draw is visible (e.g. a pretrained model fine-tuned on an
  unshuffled loader).
"""
    bad_examples = examples("preflight.rules.code._pf305_examples", "PF305_BAD")
    good_examples = examples("preflight.rules.code._pf305_examples", "PF305_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes = scope_index(ctx)
        entry = training_entry(scopes)
        if entry is None:
            return
        draw: Optional[tuple[ast.AST, str]] = None
        seeded: set[str] = set()
        draws: dict[str, tuple[ast.AST, str]] = {}
        for call, _fn in scopes.bindings.call_functions:
            if _seed_call(scopes, call):
                seeded.add(_seed_family(scopes, call))
                continue
            what = _draw(scopes, call)
            if what is not None:
                draws.setdefault(_draw_family(scopes, call), (call, what))
                if draw is None:
                    draw = (call, f"random draw: {what}")
        if seeded:
            if "all" not in seeded:
                yield from self._partly_seeded(ctx, entry, seeded, draws)
            return
        init = _random_init(scopes)
        if draw is None and init is None:
            return
        sources = [d for d in (init, draw) if d is not None]
        sources.sort(key=lambda d: d[0].lineno)  # type: ignore[attr-defined]
        message = (
            "This script trains and draws randomness ("
            + "; ".join(f"{d[1]} at {_where(ctx, d[0])}" for d in sources)
            + ") but never seeds a random generator: two runs of the same code will differ. "
              "Seed once at the start, e.g. `torch.manual_seed(seed)`, `random.seed(seed)`, "
              "`np.random.seed(seed)`, or `transformers.set_seed` / `L.seed_everything`")
        evidence = [ctx.evidence(entry, "training starts here")]
        evidence += [ctx.evidence(d[0], d[1]) for d in sources]
        yield ctx.finding(self, entry, message, evidence=evidence)

    def _partly_seeded(self, ctx: FileContext, entry: ast.AST, seeded: set[str],
                       draws: dict[str, tuple[ast.AST, str]]) -> Iterable[Finding]:
        """Some generators are seeded, but the script also draws from one that is not
        (``torch.manual_seed(0)`` with ``random.random()`` / ``np.random.*`` augmentation)."""
        missing = [(family, draws[family]) for family in ("numpy", "random") if family in draws
                   and family not in seeded]
        if not missing:
            return
        names = {"numpy": "`np.random.seed(seed)`", "random": "`random.seed(seed)`"}
        message = (
            f"This script seeds {', '.join(sorted(seeded))} but also draws from "
            + " and ".join(f"{fam} ({what} at {_where(ctx, node)})" for fam, (node, what) in missing)
            + ", which is never seeded: data order or augmentation still differ between runs. Add "
            + " and ".join(names[fam] for fam, _ in missing)
            + ", or seed everything at once with `transformers.set_seed` / `L.seed_everything`")
        evidence = [ctx.evidence(entry, "training starts here")]
        evidence += [ctx.evidence(node, f"unseeded {fam} draw") for fam, (node, _) in missing]
        yield ctx.finding(self, entry, message, evidence=evidence)


def _seed_family(scopes: ScopeIndex, call: ast.Call) -> str:
    """Which generator a seeding call seeds: "torch", "numpy", "random" or "all" (a helper
    such as ``set_seed`` / ``seed_everything`` / a project's ``init_seeds``, or a seed handed
    to something)."""
    qual = _qual(scopes, call)
    if qual.startswith(("torch.manual_seed", "torch.cuda.manual_seed", "torch.random.manual_seed")):
        return "torch"
    if qual == "numpy.random.seed":
        return "numpy"
    if qual == "random.seed":
        return "random"
    return "all"


def _draw_family(scopes: ScopeIndex, call: ast.Call) -> str:
    qual = _qual(scopes, call)
    if qual.startswith("numpy.random."):
        return "numpy"
    if qual.startswith("random."):
        return "random"
    return "torch"


def _where(ctx: FileContext, node: ast.AST) -> str:
    cell, span = ctx.user_span(ctx.span(node))
    return f"cell {cell}, line {span.line}" if cell is not None else f"line {span.line}"
