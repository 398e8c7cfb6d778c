"""PF202 sampler-without-set-epoch: a shuffling DistributedSampler never gets set_epoch."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import LoaderAnalysis, LoaderUse, loader_analysis
from preflight.analysis.value_resolver import Leaf
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class SamplerWithoutSetEpoch(Rule):
    code = "PF202"
    name = "sampler-without-set-epoch"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    summary = "A shuffling DistributedSampler is used across epochs without set_epoch"
    frameworks = ("pytorch",)
    explanation = """
## What it finds

A training loop that runs once per epoch iterates a `DataLoader` whose sampler is
a `DistributedSampler` (with its default `shuffle=True`), and nothing in the file
calls `set_epoch` on that sampler (directly, or as `loader.sampler.set_epoch`).
The epoch loop may be around the batch loop or around a call of the helper that
holds it, or be the `while True:` of a generator that re-iterates the loader forever
for a training function (`def sample_data(loader): while True: for batch in loader:
yield batch`, StyleGAN2). A sampler built by a helper counts when every call of the
helper asks for shuffling (`data_sampler(dataset, shuffle=True, ...)`). The finding is on the epoch loop, where the `set_epoch` call belongs; the
sampler is in its evidence.

## Why it matters

`DistributedSampler` seeds its shuffle with `seed + epoch`, and the epoch only
changes through `set_epoch`. Without it every epoch visits the samples in exactly
the same order on every rank: the shuffle happens once. The torch documentation
says calling `set_epoch()` at the beginning of each epoch "is necessary to make
shuffling work properly across multiple epochs". Training runs, but with less
randomness than intended, which can hurt convergence and generalisation.

## How to fix it

Call `sampler.set_epoch(epoch)` (or `loader.sampler.set_epoch(epoch)`) at the
start of every epoch, before iterating the loader.

## When preflight stays silent

* The sampler is built with `shuffle=False`, there is no epoch loop, or the
  loop is not a training loop (evaluation order does not matter).
* The epoch loop runs once (`for epoch in range(1):`, a one-epoch reward-model
  run of DeepSpeedExamples): the sampler's epoch 0 is the only one used, so
  `set_epoch` would change nothing. Also when the count is an argparse option
  (`range(args.num_train_epochs)`) and every launch script beside the file that runs
  it passes 1, or leaves an argparse default of 1 (DeepSpeed-Chat's step-1 `main.py`
  launched with `--num_train_epochs 1`); without a launch script the count is unknown.
* Any `set_epoch` call in the file could reach this sampler (a call on an
  object preflight cannot follow counts).
* The loader went through `accelerator.prepare` (Accelerate calls `set_epoch`),
  or is handed to Lightning or the HF Trainer (they call it).
"""
    bad_examples = examples("preflight.rules.code._pf202_examples", "PF202_BAD")
    good_examples = examples("preflight.rules.code._pf202_examples", "PF202_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        uses = list(la.uses) + _zipped_uses(la)
        if not uses:
            return
        calls = [c for c in ctx.nodes(ast.Call)
                 if isinstance(c.func, ast.Attribute) and c.func.attr == "set_epoch"]
        done: set[int] = set()
        for use in uses:
            epoch = _endless_generator(la, use)
            if epoch is None:
                if not use.loop.training:
                    continue
                epoch = la.epoch_loop(use)
            if epoch is None or _runs_once(epoch) or _launched_for_one_epoch(ctx, epoch):
                continue
            missing = []
            for leaf, sampler in [(lf, s) for lf in use.loaders
                                  for s in self._distributed_samplers(la, lf)]:
                if id(sampler.node) in done:
                    continue
                if self._covered(la, calls, sampler):
                    continue
                done.add(id(sampler.node))
                missing.append((leaf, sampler))
            if not missing:
                continue
            evidence = []
            for leaf, sampler in missing:
                evidence += [ctx.evidence(sampler.node, "a DistributedSampler that shuffles (the default)"),
                             ctx.evidence(leaf.node, "the loader uses it")]
            evidence += [ctx.evidence(epoch, "this loop repeats the epochs"),
                         ctx.evidence(use.loop.node, "the training loop iterates the loader")]
            names = [(_sampler_name(ctx, s.node), getattr(s.node, "lineno", "?")) for _, s in missing]
            loop_var = _loop_var(epoch)
            if len(names) == 1:
                name, line = names[0]
                what = (f"a loader whose sampler `{name}` (a DistributedSampler, line {line}) shuffles "
                        "with `seed + epoch`, but nothing calls `set_epoch` on it")
            else:
                listed = ", ".join(f"`{n}` (line {ln})" for n, ln in names)
                what = (f"loaders whose samplers {listed} are DistributedSamplers that shuffle with "
                        "`seed + epoch`, but nothing calls `set_epoch` on them")
            calls_fix = " and ".join(f"`{n if n.isidentifier() else 'sampler'}.set_epoch({loop_var})`"
                                     for n, _ in names)
            message = (f"this epoch loop iterates {what}, so every epoch visits the data in the same "
                       f"order on every rank. Call {calls_fix} at the start of each epoch")
            yield ctx.finding(self, epoch, message, evidence=evidence)

    @staticmethod
    def _distributed_samplers(la: LoaderAnalysis, leaf: Leaf) -> list[Leaf]:
        """The shuffling DistributedSamplers the loader may get (any path)."""
        loader = leaf.node
        assert isinstance(loader, ast.Call)
        expr = la.kwarg(loader, "sampler")
        leaves = la.follow(expr, leaf.fn) if expr is not None else None
        out = []
        for found in leaves or ():
            call = found.node
            if isinstance(call, ast.Call) and _is_distributed_sampler(la, call):
                shuffle = la.kwarg(call, "shuffle")
                if shuffle is None or (isinstance(shuffle, ast.Constant) and shuffle.value is True):
                    out.append(found)
                elif isinstance(shuffle, ast.Name):  # a helper's parameter: every caller passes True
                    values = la.follow(shuffle, found.fn)
                    if values and all(isinstance(v.node, ast.Constant) and v.node.value is True for v in values):
                        out.append(found)
        return out

    @staticmethod
    def _covered(la: LoaderAnalysis, calls: list[ast.Call], sampler: Leaf) -> bool:
        """True when some set_epoch call may reach ``sampler``."""
        for call in calls:
            receiver = call.func.value  # type: ignore[attr-defined]
            fn = la.scopes.function_of(call)
            leaves = la.follow(receiver, fn)
            if leaves is None or any(leaf.node is sampler.node for leaf in leaves):
                return True
            if not all(_is_distributed_sampler(la, leaf.node) for leaf in leaves):
                return True  # e.g. loader.sampler.set_epoch(...): cannot tell which
        return False


def _zipped_uses(la: LoaderAnalysis) -> list[LoaderUse]:
    """Loops over ``zip(loader_a, loader_b)`` (also inside ``enumerate``/``tqdm``): FixMatch-style
    semi-supervised training walks a labeled and an unlabeled loader together. Each argument that is
    a ``DataLoader(...)`` on every path is iterated by the loop (``itertools.cycle`` is not followed:
    it replays its first pass and never re-iterates the loader)."""
    out: list[LoaderUse] = []
    if not la.loader_calls:
        return out
    for node, loop in la.scopes.loops.items():
        if not isinstance(node, (ast.For, ast.AsyncFor)):
            continue
        it: ast.AST = node.iter
        while (isinstance(it, ast.Call) and it.args
               and (la.qualify(it.func) or "") in ("enumerate", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm")):
            it = it.args[0]
        if not (isinstance(it, ast.Call) and la.qualify(it.func) in ("zip", "itertools.zip_longest")):
            continue
        found: list[Leaf] = []
        for arg in it.args:
            got = la.loader_leaves(arg, loop.function)
            if got:
                found.extend(got)
        if found:
            out.append(LoaderUse(loop, loop.function, tuple(found)))
    return out


def _endless_generator(la: LoaderAnalysis, use) -> ast.AST | None:
    """``while True: for batch in loader: yield batch`` (StyleGAN2's ``sample_data``): a generator
    that re-iterates the loader forever for a caller that trains. The ``while`` repeats the epochs."""
    loop = use.loop.node
    parent = use.loop.parent
    if parent is None or not isinstance(parent.node, ast.While) or not (
            isinstance(parent.node.test, ast.Constant) and parent.node.test.value is True):
        return None
    if not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for stmt in loop.body for n in ast.walk(stmt)):
        return None
    if not use.fn.call_sites or not any(site.caller.trains for site in use.fn.call_sites):
        return None
    return parent.node


def _sampler_name(ctx: FileContext, node: ast.AST) -> str:
    """``train_sampler`` for ``train_sampler = DistributedSampler(...)``, else the call's callee."""
    parent = ctx.parent(node)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    func = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(func)


def _runs_once(loop: ast.AST) -> bool:
    """``for epoch in range(1):`` / ``range(0, 1)`` (literal bounds): one epoch, no order to repeat."""
    it = getattr(loop, "iter", None)
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and 1 <= len(it.args) <= 2 and not it.keywords):
        return False
    bounds = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None for a in it.args]
    if any(b is None for b in bounds):
        return False
    start, stop = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
    return stop - start <= 1  # type: ignore[operator]


def _launched_for_one_epoch(ctx: FileContext, loop: ast.AST) -> bool:
    """``for epoch in range(args.num_train_epochs):`` where every launch line beside the script sets
    the option to 1, or leaves it at an argparse default of 1 (DeepSpeed-Chat's step-1 ``main.py``
    launched with ``--num_train_epochs 1``): the job trains one epoch. Without a launch line the
    count is not known and the loop counts as repeating."""
    from preflight.analysis.launch_world import launch_script_args
    from preflight.rules._pf4_support import script_index
    from preflight.script_argv import from_argv

    it = getattr(loop, "iter", None)
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and not it.keywords and 1 <= len(it.args) <= 2):
        return False
    if len(it.args) == 2 and not (isinstance(it.args[0], ast.Constant) and it.args[0].value == 0):
        return False
    count = it.args[-1]
    if not (isinstance(count, ast.Attribute) and isinstance(count.value, ast.Name)):
        return False
    index = script_index(ctx)
    specs = index.arguments.get(count.attr) or []
    if count.value.id not in index.parsed_args or len(specs) != 1 or not specs[0].takes_value:
        return False
    spec = specs[0]
    lines = launch_script_args(ctx)
    if not lines:
        return False
    for args in lines:
        given = from_argv(spec, index.arguments, args)
        if given is None:
            default = spec.default
            if not (isinstance(default, ast.Constant) and type(default.value) is int and default.value == 1):
                return False
        elif given[0] is None or given[0].strip() != "1":
            return False
    return True


def _loop_var(loop: ast.AST) -> str:
    target = getattr(loop, "target", None)
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
        return target.elts[0].id
    return "epoch"


def _is_distributed_sampler(la: LoaderAnalysis, node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    qual = la.qualify(node.func) or ""
    return qual.rsplit(".", 1)[-1] == "DistributedSampler" and (
        qual.startswith("torch.utils.data") or qual == "DistributedSampler")
