"""PF201 unsharded-distributed-loader: a data-parallel training loop over a loader with no sharding."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import (
    ITER_WRAPPERS,
    MAP,
    SHARDED,
    LoaderAnalysis,
    loader_analysis,
)
from preflight.analysis.launch_world import single_process_launch
from preflight.analysis.project_imports import imported_function
from preflight.analysis.scopes import FunctionInfo
from preflight.analysis.value_resolver import Leaf, text
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _only_returned(ctx: FileContext, loader: ast.Call, fn: FunctionInfo, depth: int = 0) -> bool:
    """The loader leaves ``fn`` only through its return value: returned directly (alone or in a
    tuple), or bound to a name that is returned and never handed to a call in ``fn``
    (``accelerator.prepare(loader)``, ``Trainer(..., loader)`` shard or take it over); the
    same holds for the in-file callers of ``fn`` that receive it."""
    if not _leaves_by_return(ctx, loader, fn):
        return False
    if depth > 3:
        return True
    return all(_only_returned(ctx, site.call, site.caller, depth + 1) or _dropped(ctx, site.call)
               for site in fn.call_sites)


def _dropped(ctx: FileContext, call: ast.Call) -> bool:
    """``build(...)`` as a statement of its own: its result goes nowhere."""
    return isinstance(ctx.parent(call), ast.Expr)


def _leaves_by_return(ctx: FileContext, loader: ast.Call, fn: FunctionInfo) -> bool:
    parent = ctx.parent(loader)
    if isinstance(parent, ast.Tuple):
        parent = ctx.parent(parent)
    if isinstance(parent, ast.Return):
        return True
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(
            parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    returned = False
    for node in ast.walk(fn.node):
        if isinstance(node, ast.Return) and node.value is not None and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value)):
            returned = True
        if isinstance(node, ast.Call) and any(
                isinstance(a, ast.Name) and a.id == name
                for a in [*node.args, *(k.value for k in node.keywords)]):
            return False
    return returned


Origin = tuple[ast.Call, Optional[int]]


def _drawn_with_next(loop: ast.AST) -> Optional[ast.Name]:
    """The one name a loop draws its batches from with ``next(name)`` (``batch, cond = next(data)``)."""
    names = {node.args[0].id: node.args[0] for node in ast.walk(loop)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next"
             and len(node.args) == 1 and isinstance(node.args[0], ast.Name)}
    return next(iter(names.values())) if len(names) == 1 else None


def _yields_param(fdef: ast.FunctionDef) -> bool:
    """A generator that only re-yields the batches of its first parameter (``while True: yield from loader``,
    ``for batch in loader: yield batch``): an endless or one-pass view of that loader."""
    if not fdef.args.args:
        return False
    param = fdef.args.args[0].arg
    yields = [n for n in ast.walk(fdef) if isinstance(n, (ast.Yield, ast.YieldFrom))]
    if not yields:
        return False
    for node in yields:
        if isinstance(node, ast.YieldFrom):
            if not (isinstance(node.value, ast.Name) and node.value.id == param):
                return False
        else:
            loop = next((f for f in ast.walk(fdef) if isinstance(f, ast.For) and isinstance(f.iter, ast.Name)
                         and f.iter.id == param and any(y is node for y in ast.walk(f))), None)
            if loop is None:
                return False
    return True


def _unwrap_iterator(tree: ast.AST, value: ast.expr) -> ast.expr:
    """``iter(loader)``, ``itertools.cycle(loader)`` or a module generator that re-yields its first argument
    (``infinite_loader(loader)``) returned for a loader: the loader itself, whose sampler decides the data."""
    for _ in range(3):
        if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
            return value
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("iter", "cycle"):
            value = value.args[0]
            continue
        fdef = next((n for n in getattr(tree, "body", []) if isinstance(n, ast.FunctionDef) and n.name == name),
                    None)
        if fdef is None or not _yields_param(fdef):
            return value
        value = value.args[0]
    return value


def _imported_origins(la: LoaderAnalysis, expr: ast.AST, fn: FunctionInfo, depth: int = 0) -> Optional[list[Origin]]:
    """The calls of functions the file does not define (imported ones) that ``expr`` may come from,
    with the element taken when the call's tuple is unpacked (``a, b, train_loader = build(cfg)``),
    through names, iteration wrappers (``enumerate(loader)``) and the parameters of in-file
    functions; None when some path leads elsewhere."""
    if depth > 12:
        return None
    scopes = la.scopes
    if isinstance(expr, ast.Call):
        qual = la.qualify(expr.func) or ""
        if qual in ITER_WRAPPERS and expr.args:
            return _imported_origins(la, expr.args[0], fn, depth + 1)
        if scopes.bindings.resolve_call(expr, fn) is not None:
            return None
        return [(expr, None)]
    if not isinstance(expr, ast.Name):
        return None
    defs = la.values.reaching(expr, fn)
    if not defs:
        return None
    scope = scopes.scope_of_name(expr.id, fn)
    out: list[Origin] = []
    for d in defs:
        if d.param is not None:
            if scope.is_module_scope or not scope.call_sites or d.param in ("self", "cls"):
                return None
            for site in scope.call_sites:
                arg = dict(scopes.bindings.iter_arg_params(site.call, scope)).get(d.param)
                got = None if arg is None else _imported_origins(la, arg, site.caller, depth + 1)
                if got is None:
                    return None
                out.extend(got)
        elif d.value is None:
            return None
        elif d.index is not None:
            if not isinstance(d.value, ast.Call) or scopes.bindings.resolve_call(d.value, scope) is not None:
                return None
            out.append((d.value, d.index))
        else:
            got = _imported_origins(la, d.value, scope, depth + 1)
            if got is None:
                return None
            out.extend(got)
    return out or None


def _single_rank_class(fn: FunctionInfo) -> bool:
    """The loop is a method of a class that declares ``world_size = 1`` (DeepSpeed's
    ``DistributedTest`` starts that many processes): one rank, nothing is iterated twice."""
    cls = fn.method_class()
    if cls is None:
        return False
    for stmt in cls.node.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "world_size"
                                                for t in stmt.targets):
            return isinstance(stmt.value, ast.Constant) and stmt.value.value == 1
    return False


def _rank_sliced(loader: ast.Call) -> Optional[ast.Subscript]:
    """A ``x[rank::world_size]`` slice inside the loader's dataset argument (a shard made by hand)."""
    dataset = loader.args[0] if loader.args else next((k.value for k in loader.keywords if k.arg == "dataset"), None)
    if dataset is None:
        return None
    for node in ast.walk(dataset):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            lower, step = node.slice.lower, node.slice.step
            if lower is not None and step is not None and "rank" in ast.unparse(lower).lower() \
                    and any(w in ast.unparse(step).lower() for w in ("world", "size", "replicas", "num_gpus")):
                return node
    return None


@register
class UnshardedDistributedLoader(Rule):
    code = "PF201"
    name = "unsharded-distributed-loader"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    summary = "A DDP/FSDP/DeepSpeed training loop iterates a DataLoader that does not shard the data"
    frameworks = ("pytorch", "deepspeed")
    explanation = """
## What it finds

A script wraps its model for data-parallel training (`DistributedDataParallel`,
`FullyShardedDataParallel` / `fully_shard`, `deepspeed.initialize`, or a Lightning
`Fabric(devices=4, strategy="ddp")` with literal devices or nodes above one and a
DDP/FSDP/DeepSpeed or default strategy) and its
training loop iterates a `DataLoader(...)` that has no sampler and whose dataset
is map-style (`shuffle=True`, a torchvision dataset, `TensorDataset`, a local
`Dataset` with `__getitem__`, a non-streaming `load_dataset`). The loader may be
built in the same function or in a helper that returns it.

The loader may also come from a function of another module of the project that the
script imports (`from dataset import build_loader`, `import data` then
`data.get_dataloader(...)`), followed one level: the module is read (beside the script or
up to two folders above it, a package's `__init__.py` and the modules beside it, a few
files of at most 1 MiB) and every loader the function returns (the element the script
unpacks) must lack a sampler that shards (warning, reported at the call). The result of
such a file is not cached, so editing the module is seen on the next run. The function may
return the loader wrapped in `iter(loader)`, `itertools.cycle(loader)` or a generator of its
module that only re-yields it (`def infinite_loader(dl): while True: yield from dl`), and the
loop may draw from it by hand (`for step in range(n): batch = next(data)`: DiffuSeq issue 12).

A helper that sets up data-parallel training and returns a loader built with
`shuffle=True` and no sampler, for a training loop in another file (`return model,
loader`), is reported too (warning), unless the loader is handed to a call in the
file first (`accelerator.prepare`, a `Trainer`).

## Why it matters

Every rank iterates the whole dataset. An epoch does `world_size` times the work
it should, each sample is seen `world_size` times per epoch, and when the ranks
share a seed (the usual `seed_everything`) they draw identical batches, so the
extra GPUs average identical gradients and add nothing. Nothing fails; the job
just costs N times more and learning-rate schedules measured in epochs are off.

When the dataset is sharded by hand (`Dataset(files[rank::world_size])`) every rank does read
its own part, and the finding says so: the risk there is different batch counts per rank (the
item count not a multiple of the world size), and DDP's gradient all-reduce then waits forever
on the ranks that finished first.

## How to fix it

Give the loader a `DistributedSampler(dataset)` (and call
`sampler.set_epoch(epoch)` each epoch, see PF202), or shard the dataset itself
(`split_dataset_by_node`, a rank-aware `IterableDataset`). With DeepSpeed you can
pass `training_data=dataset` to `deepspeed.initialize` and use the loader it
returns.

## When preflight stays silent

* The loader has any `sampler=` / `batch_sampler=` other than a plain
  `RandomSampler`/`SequentialSampler`, or the dataset is an `IterableDataset`,
  streaming, split by node, `.shard()`-ed, or given the rank.
* The dataset is random tensors each rank draws itself (`TensorDataset(torch.randn(...))`),
  unless every rank seeded its generator with the same constant first
  (`torch.manual_seed(0)`, `seed_everything(42)`): then the "random" data is identical
  on every rank. A seed that involves the rank (`manual_seed(seed + rank)`) keeps it a shard.
* The dataset's style is unknown and the loader does not shuffle.
* A `Fabric` on one device, with `strategy="dp"`, or with devices/strategy preflight cannot read.
* The loader went through `accelerator.prepare`, `fabric.setup_dataloaders` or
  came from `deepspeed.initialize` (they shard it), or is handed to Lightning or
  the HF Trainer (they inject the sampler). The one Lightning case reported is a
  `Trainer(use_distributed_sampler=False)` (or the old `replace_sampler_ddp=False`)
  with several devices, nodes or a ddp/fsdp/deepspeed strategy, whose
  `train_dataloader()` or `fit(..., loader)` loader does not shard.
* No data-parallel wrapper is connected to the loop (same function, same class,
  module level, or a caller/callee of the loop's function). Words in comments or
  names never change the verdict.
* The loader is built differently on different paths and one of them shards.
* The loader comes from another module and the loop is a method of a class declaring
  `world_size = 1` (DeepSpeed's `DistributedTest` runs that many processes).
* Every launch line beside the script that runs it (the `.sh`/`.sbatch`/`.slurm` files of
  its folder) starts one process: `deepspeed --num_gpus 1` (or `--num_gpus=1`, no
  `--num_nodes`, no hostfile), `deepspeed --include localhost:0`, `torchrun
  --nproc_per_node 1`, `accelerate launch --num_processes 1`. A plain `python train.py`
  line or an `srun`/`mpirun` wrapper does not count as one process.
* The loader comes from a function preflight cannot read: an installed library, a module
  more than one import away, a file that does not parse, or a function that returns
  anything other than loaders on some path.
"""
    bad_examples = examples("preflight.rules.code._pf201_examples", "PF201_BAD")
    good_examples = examples("preflight.rules.code._pf201_examples", "PF201_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        if (la.markers or la.lightning_loaders()) and single_process_launch(ctx):
            return  # `deepspeed --num_gpus 1 train.py`: one process, nothing to shard
        done: set[int] = set()
        for trainer, leaf in la.lightning_loaders():
            reason = self._unsharded(la, leaf.node, leaf.fn)  # type: ignore[arg-type]
            if reason is not None and id(leaf.node) not in done:
                done.add(id(leaf.node))
                yield self._report_lightning(ctx, trainer, leaf.node, reason)
        if not la.markers:
            return
        yield from self._returned_loaders(ctx, la, done)
        yield from self._imported_loaders(ctx, la, done)
        for use in la.uses:
            if not use.loop.training:
                continue
            markers = la.related(use.fn)
            if not markers:
                continue
            reasons = []
            for leaf in use.loaders:
                loader = leaf.node
                assert isinstance(loader, ast.Call)
                reason = self._unsharded(la, loader, leaf.fn)
                if reason is None:
                    break
                reasons.append(reason)
            else:
                first = use.loaders[0].node
                if id(first) in done:
                    continue
                done.add(id(first))
                yield self._report(ctx, use, markers[0], reasons[0])

    def _returned_loaders(self, ctx: FileContext, la: LoaderAnalysis, done: set[int]) -> Iterable[Finding]:
        """A builder that wraps the model in DDP and returns a shuffling loader without a
        sampler, for a training loop in another file (``return model, loader``)."""
        iterated = {id(leaf.node) for use in la.uses for leaf in use.loaders}
        scopes = la.scopes
        for loader in la.loader_calls:
            if id(loader) in iterated or id(loader) in done:
                continue
            fn = scopes.function_of(loader)
            if fn.is_module_scope:
                continue
            markers = la.related(fn)
            if not markers or not _only_returned(ctx, loader, fn):
                continue
            shuffle = la.kwarg(loader, "shuffle")
            if not (isinstance(shuffle, ast.Constant) and shuffle.value is True):
                continue
            if self._unsharded(la, loader, fn) is None:
                continue
            done.add(id(loader))
            message = (f"`{text(loader)}` shuffles without a distributed sampler and is returned "
                       f"by `{fn.name}()` in a file that sets up data-parallel training: "
                       "every rank will iterate the whole dataset. Pass "
                       "`sampler=DistributedSampler(dataset)` (and call `sampler.set_epoch(epoch)` "
                       "each epoch) instead of `shuffle=True`")
            evidence = [ctx.evidence(markers[0].call, markers[0].label),
                        ctx.evidence(loader, "built with `shuffle=True` and no sampler, then returned")]
            yield ctx.finding(self, loader, message, evidence=evidence, severity=Severity.WARNING)

    def _imported_loaders(self, ctx: FileContext, la: LoaderAnalysis, done: set[int]) -> Iterable[Finding]:
        """A data-parallel training loop iterating a loader that a function of another project
        module builds and returns (``from dataset import build_loader``), read one level deep."""
        for node, loop in la.scopes.loops.items():
            if not loop.training or not isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
                continue
            markers = la.related(loop.function)
            if not markers or _single_rank_class(loop.function):
                continue
            # the loop's iterable, else (``for step in range(n): batch = next(data)``) the one iterator the
            # loop draws from by hand
            sources: list[ast.AST] = [node.iter] if isinstance(node, (ast.For, ast.AsyncFor)) else []
            drawn = _drawn_with_next(node)
            if drawn is not None:
                sources.append(drawn)
            for source in sources:
                origins = _imported_origins(la, source, loop.function)
                if not origins:
                    continue
                found: list[tuple[str, ast.Call, str]] = []
                for call, index in origins:
                    got = self._helper_unsharded(ctx, call, index)
                    if got is None:
                        break
                    found.append(got)
                else:
                    break
            else:
                continue
            call = origins[0][0]
            if id(call) in done:
                continue
            done.add(id(call))
            display, loader, why = found[0]
            where = f"`{display}:{loader.lineno}`"
            message = (f"`{text(call)}` returns `{text(loader)}` ({where}), which has no distributed "
                       "sampler, yet it feeds a data-parallel training loop: every rank iterates the "
                       "whole dataset, so an epoch does world_size times the work and ranks with the "
                       "same seed train on identical batches. Pass `sampler=DistributedSampler(dataset)` "
                       f"in {where} (and call `sampler.set_epoch(epoch)` each epoch) or shard the "
                       "dataset per rank")
            evidence = [ctx.evidence(markers[0].call, markers[0].label),
                        ctx.evidence(call, f"the loader comes from here: {where}, {why}"),
                        ctx.evidence(node, "the training loop iterates it")]
            yield ctx.finding(self, call, message, evidence=evidence, severity=Severity.WARNING)

    def _helper_unsharded(self, ctx: FileContext, call: ast.Call,
                          index: Optional[int]) -> Optional[tuple[str, ast.Call, str]]:
        """(module path, loader call, reason) when the imported function returns (at ``index`` of its
        tuple) only loaders that do not shard, on every path; ``None`` elements are skipped."""
        found = imported_function(ctx, call)
        if found is None:
            return None
        other, fdef, display = found
        la2 = loader_analysis(other)
        fn2 = la2.scopes.functions.get(fdef)
        if fn2 is None:
            return None
        rets = [r.value for r in la2.values.returns.get(fn2, []) if r.value is not None]
        if not rets:
            return None
        leaves: list[Leaf] = []
        for value in rets:
            if index is not None:
                if not (isinstance(value, ast.Tuple) and len(value.elts) > index):
                    return None
                value = value.elts[index]
            value = _unwrap_iterator(other.tree, value)
            got = la2.follow(value, fn2)
            if got is None:
                return None
            leaves.extend(leaf for leaf in got if not (isinstance(leaf.node, ast.Constant) and leaf.node.value is None))
        if not leaves or not all(la2.is_loader(leaf.node) for leaf in leaves):
            return None
        first: Optional[tuple[str, ast.Call, str]] = None
        for leaf in leaves:
            assert isinstance(leaf.node, ast.Call)
            reason = self._unsharded(la2, leaf.node, leaf.fn)
            if reason is None:
                return None
            if first is None:
                first = (display, leaf.node, reason[1])
        return first

    @staticmethod
    def _unsharded(la: LoaderAnalysis, loader: ast.Call, fn: FunctionInfo) -> Optional[tuple[ast.AST, str]]:
        if any(k.arg is None for k in loader.keywords) or len(loader.args) > 3:
            return None
        sampler = la.sampler_expr(loader)
        if sampler is not None and not la.plain_sampler(sampler, fn):
            return None
        styles = la.dataset_style(loader, fn)
        if any(s.kind == SHARDED for s in styles):
            return None
        shuffle = la.kwarg(loader, "shuffle")
        if isinstance(shuffle, ast.Constant) and shuffle.value is True:
            return loader, "`shuffle=True`: a map-style dataset, loaded whole by every rank"
        if all(s.kind == MAP for s in styles) and styles[0].node is not None:
            return styles[0].node, styles[0].reason
        return None

    def _report_lightning(self, ctx: FileContext, trainer: ast.Call, loader: ast.AST,
                          reason: tuple[ast.AST, str]) -> Finding:
        node, why = reason
        evidence = [ctx.evidence(trainer, "`use_distributed_sampler=False` on a multi-device "
                                          "Trainer: Lightning does not add a DistributedSampler")]
        if node is not loader:
            evidence.append(ctx.evidence(node, why))
        evidence.append(ctx.evidence(loader, "the training loader has no sampler that shards"))
        message = (f"`{text(loader)}` has no distributed sampler and the Trainer is told not to "
                   "inject one (`use_distributed_sampler=False` with several devices): every rank "
                   "iterates the whole dataset. Pass `sampler=DistributedSampler(dataset)` or "
                   "drop `use_distributed_sampler=False`")
        return ctx.finding(self, loader, message, evidence=evidence)

    def _report(self, ctx: FileContext, use, marker, reason) -> Finding:
        loader = use.loaders[0].node
        node, why = reason
        evidence = [ctx.evidence(marker.call, marker.label)]
        if node is not loader:
            evidence.append(ctx.evidence(node, why))
        evidence.append(ctx.evidence(loader, "built without a sampler that shards the data"
                                     if node is not loader else f"built without a sampler; {why}"))
        tc = use.loop.evidence
        evidence.append(ctx.evidence(use.loop.node, "the training loop iterates it" + (
            f" ({tc.describe()})" if tc is not None else "")))
        sliced = _rank_sliced(loader)
        if sliced is not None:
            evidence.append(ctx.evidence(sliced, "the data is sharded by hand: each rank keeps every world_size-th item"))
            message = (f"`{text(loader)}` reads a hand-made shard (`{ast.unparse(sliced)}`) in a data-parallel "
                       "training loop: when the item count is not a multiple of the world size some ranks get "
                       "more items, and possibly one batch more, than others, and DDP's gradient all-reduce in "
                       "`backward()` then waits forever on the ranks that finished; give every rank the same "
                       "number of batches (`DistributedSampler`, or truncate the list to a multiple of the world "
                       "size)")
            return ctx.finding(self, loader, message, evidence=evidence)
        message = (f"`{text(loader)}` has no distributed sampler, yet it feeds a data-parallel "
                   "training loop: every rank iterates the whole dataset, so an epoch does "
                   "world_size times the work and ranks with the same seed train on identical "
                   "batches. Pass `sampler=DistributedSampler(dataset)` (and call "
                   "`sampler.set_epoch(epoch)` each epoch) or shard the dataset per rank")
        return ctx.finding(self, loader, message, evidence=evidence)
