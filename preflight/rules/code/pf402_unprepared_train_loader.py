"""PF402 unprepared-train-loader: a training DataLoader that never goes through ``accelerator.prepare``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import ScopeIndex, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._node_split import split_by_node
from preflight.rules._pf4_support import (
    LOADER_WRAPPERS,
    accelerator_calls,
    qualify,
    target_text,
)
from preflight.rules.base import Rule, examples

_PREPARE = ("prepare", "prepare_data_loader")


def _loop_source(ctx: FileContext, it: ast.expr) -> Optional[ast.expr]:
    """The loader a ``for`` iterates: ``loader``, ``enumerate(loader)``, ``tqdm(loader)``."""
    for _ in range(4):
        if isinstance(it, ast.Call) and it.args and qualify(ctx, it.func) in LOADER_WRAPPERS:
            it = it.args[0]
            continue
        break
    return it if target_text(it) is not None else None


def _dataset_arg(ctor: ast.Call) -> Optional[ast.expr]:
    if ctor.args:
        return ctor.args[0]
    return next((kw.value for kw in ctor.keywords if kw.arg == "dataset"), None)


def _tensors_handed_in(ctx: FileContext, ctor: ast.Call) -> bool:
    """The loader's dataset is a ``TensorDataset`` of tensors its function receives as arguments
    (``TensorDataset(*[rollouts[key] for key in keys])``, directly or through one local): data made at
    run time by the caller on this process, such as the rollouts each process of an RL trainer generates
    from its own prompts (alpaca_farm's ``get_rollouts_dataloader``: "Do not prepare, since we don't need to
    shard the rollouts sampled on each batch"). Whether it is already per process is not in the file."""
    fn = ctx.enclosing_function(ctor)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} - {"self", "cls"}
    data = _dataset_arg(ctor)
    if isinstance(data, ast.Name):
        bound = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign) and
                 any(isinstance(t, ast.Name) and t.id == data.id for t in a.targets)]
        data = bound[0] if len(bound) == 1 else None
    if not (isinstance(data, ast.Call) and qualify(ctx, data.func).endswith("TensorDataset") and data.args):
        return False
    local = {n.id for comp in ast.walk(data) if isinstance(comp, ast.comprehension)
             for n in ast.walk(comp.target) if isinstance(n, ast.Name)}
    loaded = [n.id for arg in data.args for n in ast.walk(arg) if isinstance(n, ast.Name)]
    return bool(loaded) and bool(set(loaded) & params) and set(loaded) <= params | local


_RANK_ATTRS = frozenset({"process_index", "local_process_index", "num_processes"})
_RANK_CALLS = frozenset({"get_rank", "get_world_size", "get_local_rank"})
_RANK_KEYWORDS = frozenset({"rank", "world_size", "num_replicas", "num_shards", "shard_id", "local_rank"})


def _sharded_by_hand(ctx: FileContext, ctor: ast.Call) -> bool:
    """The loader's dataset is built for this process: its constructor (directly or through one local
    of the same function) receives ``rank=``/``world_size=`` keywords or the accelerator's
    ``process_index``/``num_processes`` or ``dist.get_rank()`` (musubi-tuner's bucket manager takes
    ``rank`` and ``world_size`` and yields only this rank's batches). ``prepare`` would shard it again."""
    data = _dataset_arg(ctor)
    if split_by_node(ctx.enclosing_function(ctor) or ctx.tree, ctor) is not None:
        return True  # `split_dataset_by_node(...)`: each process already holds its own split
    built: list[ast.expr] = [data] if data is not None else []
    if isinstance(data, ast.Name):
        scope = ctx.enclosing_function(ctor) or ctx.tree
        built = [a.value for a in ast.walk(scope) if isinstance(a, ast.Assign) and
                 any(isinstance(t, ast.Name) and t.id == data.id for t in a.targets)]
    return bool(built) and all(_built_for_rank(call) for call in built)


def _generated_here(ctx: FileContext, ctor: ast.Call, prepared: set[str]) -> bool:
    """The loader is rebuilt inside a loop over a dataset this process generates with the model it
    trains: the dataset (directly or through one local of the same function) is a call that receives
    the prepared model or ``accelerator.unwrap_model(...)`` (``RolloutBuffer.collect(unwrap_model(model),
    ...)``, PPO's rollouts). Each process samples its own rollouts from its own prompts, so the data is
    per process by construction and ``prepare`` would shard it a second time."""
    if not any(isinstance(a, (ast.For, ast.While)) for a in ctx.ancestors(ctor)):
        return False
    data = _dataset_arg(ctor)
    built: list[ast.expr] = [data] if data is not None else []
    if isinstance(data, ast.Name):
        scope = ctx.enclosing_function(ctor) or ctx.tree
        built = [a.value for a in ast.walk(scope) if isinstance(a, ast.Assign) and
                 any(isinstance(t, ast.Name) and t.id == data.id for t in a.targets)]
    return bool(built) and all(_takes_model(call, prepared) for call in built)


def _takes_model(call: ast.expr, prepared: set[str]) -> bool:
    if not isinstance(call, ast.Call):
        return False
    for arg in (*call.args, *(kw.value for kw in call.keywords)):
        if isinstance(arg, ast.Name) and arg.id in prepared:
            return True
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "unwrap_model":
            return True
    return False


def _built_for_rank(call: ast.expr) -> bool:
    if not isinstance(call, ast.Call):
        return False
    if any(kw.arg in _RANK_KEYWORDS for kw in call.keywords):
        return True
    for arg in (*call.args, *(kw.value for kw in call.keywords)):
        for node in ast.walk(arg):
            if isinstance(node, ast.Attribute) and node.attr in _RANK_ATTRS:
                return True
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) and \
                    (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) in _RANK_CALLS:
                return True
    return False


def _handed_to_calls(ctx: FileContext, scopes: ScopeIndex, loaders: dict[str, list[ast.Call]]) -> set[str]:
    """The loaders (by ``target_text``) that appear anywhere inside an argument of a call that is
    no loader constructor or wrapper (``train(loader)``, ``f(x=wrap(loader))``). Found from each
    mention of a loader up through its enclosing calls, instead of walking every argument of
    every call in the file."""
    names = {t for t in loaders if "." not in t}
    attrs = {t for t in loaders if "." in t}
    mentions: list[tuple[ast.AST, str]] = [(n, n.id) for n in ctx.unordered(ast.Name) if n.id in names]
    if attrs:
        for a in ctx.unordered(ast.Attribute):
            text = target_text(a)
            if text in attrs:
                mentions.append((a, text))
    qualify = scopes.imports.qualify
    handed: set[str] = set()
    for node, text in mentions:
        if text in handed:
            continue
        child, cur = node, ctx.parent(node)
        while cur is not None and not isinstance(cur, ast.stmt):
            if isinstance(cur, ast.Call) and child is not cur.func:
                qual = qualify(cur.func) or ""
                if not (qual in LOADER_WRAPPERS or qual.endswith("DataLoader")):
                    handed.add(text)
                    break
            child, cur = cur, ctx.parent(cur)
    return handed


@register
class UnpreparedTrainLoader(Rule):
    code = "PF402"
    needs_text = ('prepare',)
    name = "unprepared-train-loader"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = "A training DataLoader is never passed to `accelerator.prepare`"
    explanation = """
## What it finds

A script that prepares its model and optimizer with `accelerator.prepare(...)`
and trains on a `DataLoader` that never goes through `accelerator.prepare` (or
`accelerator.prepare_data_loader`).

## Why it matters

`prepare` is what shards a loader over the processes (each rank gets its own
slice of every batch), moves batches to the right device, calls `set_epoch` on
the sampler every epoch and tells gradient accumulation where the loader ends.
An unprepared loader gives every process the whole dataset in the same order:
with N GPUs each sample is seen N times per "epoch", the effective batch is N
copies of the same batch, and the data-parallel speed-up is lost. Nothing fails.

## How to fix it

Pass the loader with the model and optimizer:
`model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)`.

## When preflight stays silent

* The loader is passed to `prepare`/`prepare_data_loader` anywhere in the file, or
  reassigned from its result.
* The loader is handed to a function preflight does not follow (it might prepare
  it there), or the loop does not train (no backward).
* The loader has a `sampler=`/`batch_sampler=` of its own (a `DistributedSampler` built
  from `accelerator.num_processes` and `process_index` shards it by hand).
* A file without an `Accelerator` that prepares something.
* The loader's dataset is a `TensorDataset` of tensors its function receives as arguments
  (`TensorDataset(*[rollouts[k] for k in keys])`): data made at run time by the caller on each
  process, such as an RL trainer's rollouts generated from that process's own prompts, which
  must not be sharded again; the file does not say whether it is already per process.
* The loader's dataset is built for this process: its constructor receives `rank=`/`world_size=`
  (or `num_replicas=`, `shard_id=`) or the accelerator's `process_index`/`num_processes` or
  `dist.get_rank()` (a bucketed batch manager that yields only this rank's batches, as
  kohya-ss/musubi-tuner's trainers build theirs); preparing it would shard it a second time.
* The loader's dataset was split per process by `datasets.distributed.split_dataset_by_node`
  (accelerate issue 3547's workaround: such a loader must not be prepared; PF447 reports it
  when it is).
"""
    bad_examples = examples("preflight.rules.code._pf40x_examples", "PF402_BAD")
    good_examples = examples("preflight.rules.code._pf40x_examples", "PF402_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepares = [c for m in _PREPARE for c in accelerator_calls(ctx, m)]
        if not prepares:
            return
        scopes = scope_index(ctx)
        loaders: dict[str, list[ast.Call]] = {}
        for assign in ctx.nodes(ast.Assign):
            if isinstance(assign.value, ast.Call) and qualify(ctx, assign.value.func).endswith("DataLoader"):
                for tgt in assign.targets:
                    text = target_text(tgt)
                    if text:
                        loaders.setdefault(text, []).append(assign.value)
        if not loaders:
            return
        handed = _handed_to_calls(ctx, scopes, loaders)
        prepared: set[str] = set()
        for assign in ctx.nodes(ast.Assign):
            if isinstance(assign.value, ast.Call) and any(assign.value is c for c in prepares):
                for tgt in assign.targets:
                    for node in ast.walk(tgt):
                        text = target_text(node)
                        if text:
                            handed.add(text)
                            prepared.add(text)
        training_loops: set[int] = set()
        for tc in scopes.training_calls:
            info = scopes.loop_of(tc.call)
            if tc.kind in ("backward", "helper") and info is not None:
                training_loops.add(id(info.node))
        reported: set[str] = set()
        for loop in ctx.nodes(ast.For):
            if id(loop) not in training_loops:
                continue
            src = _loop_source(ctx, loop.iter)
            name = target_text(src) if src is not None else None
            if name is None or name not in loaders or name in handed or name in reported:
                continue
            if len(loaders[name]) != 1 or any(kw.arg in ("sampler", "batch_sampler") or kw.arg is None
                                               for kw in loaders[name][0].keywords):
                continue  # a sampler of its own may shard by rank already
            if _tensors_handed_in(ctx, loaders[name][0]) or _sharded_by_hand(ctx, loaders[name][0]) or \
                    _generated_here(ctx, loaders[name][0], prepared):
                continue
            reported.add(name)
            ctor = loaders[name][0]
            message = (
                f"`{name}` feeds this training loop but never goes through `accelerator.prepare`: every "
                "process iterates the whole dataset in the same order (no sharding, no per-epoch "
                "`set_epoch`, no device placement), so with N processes each sample is trained on N times "
                f"per epoch. Prepare it with the model: `model, optimizer, {name} = "
                f"accelerator.prepare(model, optimizer, {name})`")
            evidence = [ctx.evidence(ctor, f"`{name}` is built here"),
                        ctx.evidence(prepares[0], f"`accelerator.prepare` does not receive `{name}`"),
                        ctx.evidence(loop.iter, "the training loop iterates it")]
            yield ctx.finding(self, loop.iter, message, evidence=evidence)
