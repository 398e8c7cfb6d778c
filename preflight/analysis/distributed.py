"""Distributed data loading: which loop iterates which DataLoader, and is it sharded.

Built once per file (``loader_analysis(ctx)``) on top of
:mod:`preflight.analysis.value_resolver` (reaching definitions, parameters through call
sites, helper return values):

* ``markers``: calls that make a process one of several data-parallel ranks
  that must each see a different shard: ``DistributedDataParallel`` /
  ``FullyShardedDataParallel`` / ``fully_shard`` (torch, with import aliases) and
  ``deepspeed.initialize``. ``init_process_group`` alone is not one (it is also
  used for model parallelism and collective-only jobs).
* ``uses``: every ``for`` loop whose iterable is, on every path, a
  ``DataLoader(...)`` built in this file (through names, ``enumerate``/``tqdm``/
  ``iter``, ``self.x``, helpers that return it, tuple returns). A loader that
  went through ``accelerator.prepare``, ``fabric.setup_dataloaders`` or came out of
  ``deepspeed.initialize`` is not a ``DataLoader(...)`` call, so it is never a use:
  those frameworks shard it and call ``set_epoch`` themselves. Lightning and the
  HF Trainer iterate loaders themselves, so their loaders are never uses either.
* ``dataset_style(call)``: whether a DataLoader's dataset is *sharded or
  iterable* (``split_dataset_by_node``, ``streaming=True``, ``.shard()``,
  ``to_iterable_dataset()``, an ``IterableDataset`` subclass, rank/world-size
  arguments, a local class that asks for the rank), *map-style* (torchvision
  datasets, ``TensorDataset``/``Subset``/``ConcatDataset``, lists, non-streaming
  ``load_dataset``, a local class with ``__getitem__``), or unknown.
* ``related(fn, marker)``: whether a marker can apply to the loop in ``fn``: same
  function, same class, module level, or connected in the in-file call graph.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight._record import dataclass
from preflight.analysis.scopes import ClassInfo, FunctionInfo, LoopInfo, scope_index
from preflight.analysis.value_resolver import Leaf, ValueResolver, value_resolver

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

_MARKERS = frozenset({"DistributedDataParallel", "DDP", "FullyShardedDataParallel", "FSDP",
                      "fully_shard"})
_MARKER_ROOTS = ("torch.", "apex.", "fairscale.")
_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader",
                      "DataLoader"})
ITER_WRAPPERS = frozenset({"enumerate", "iter", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm",
                            "tqdm.notebook.tqdm", "itertools.islice"})
_PLAIN_SAMPLERS = frozenset({"RandomSampler", "SequentialSampler", "WeightedRandomSampler",
                             "SubsetRandomSampler"})
_RANK_KWARGS = frozenset({"rank", "local_rank", "global_rank", "world_size", "num_replicas",
                          "shard_id", "num_shards", "shard_index", "node_rank", "process_index",
                          "num_processes", "rank_id", "num_ranks"})
_RANK_CALLS = frozenset({"get_rank", "get_world_size", "get_local_rank", "get_global_rank",
                         "get_data_parallel_rank", "get_data_parallel_world_size"})
_STYLE_KEEP = frozenset({"map", "filter", "shuffle", "select", "with_format", "set_format",
                         "remove_columns", "rename_column", "rename_columns", "cast_column",
                         "with_transform", "set_transform", "sort", "flatten_indices"})
_MAP_TORCH = frozenset({"TensorDataset", "Subset", "ConcatDataset", "StackDataset",
                        "random_split"})

_RANDOM = frozenset({"torch.randn", "torch.rand", "torch.randint", "torch.empty", "torch.normal",
                     "torch.randn_like", "torch.rand_like", "torch.randint_like"})
_SEEDS = frozenset({"manual_seed", "manual_seed_all", "seed_everything", "set_seed"})

SHARDED, MAP, UNKNOWN = "sharded", "map", "unknown"


@dataclass(frozen=True)
class Marker:
    call: ast.Call
    fn: FunctionInfo
    label: str


@dataclass(frozen=True)
class LoaderUse:
    loop: LoopInfo
    fn: FunctionInfo
    loaders: tuple[Leaf, ...]  # every DataLoader(...) call the iterable may be


@dataclass(frozen=True)
class Style:
    kind: str  # SHARDED | MAP | UNKNOWN
    node: Optional[ast.AST] = None
    reason: str = ""


class LoaderAnalysis:
    """See the module docstring."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.scopes = scope_index(ctx)
        self.qualify = self.scopes.imports.qualify
        aliases = self.scopes.imports.aliases
        words = _MARKER_WORDS | {a for a, t in aliases.items() if t.rsplit(".", 1)[-1] in _MARKERS}
        loaders = {"DataLoader"} | {a for a, t in aliases.items() if t in _LOADERS}
        called = ctx.call_names()  # most files call no marker and no loader: no pass over their calls
        self.markers = [m for m in (self._marker(c, f) for c, f in self.scopes.bindings.call_functions
                                    if _last_name(c.func) in words) if m is not None] if not called.isdisjoint(words) else []
        self.uses: list[LoaderUse] = []
        self._related: dict[FunctionInfo, set[FunctionInfo]] = {}
        self._graph: Optional[tuple[dict, dict]] = None
        self._class_styles: dict[int, Style] = {}
        self.loader_calls = [c for c in ctx.nodes(ast.Call) if _last_name(c.func) in loaders
                             and self.is_loader(c)] if not called.isdisjoint(loaders) else []
        if not self.loader_calls:
            return
        for node, loop in self.scopes.loops.items():
            if isinstance(node, (ast.For, ast.AsyncFor)):
                found = self.loader_leaves(node.iter, loop.function)
                if found:
                    self.uses.append(LoaderUse(loop, loop.function, tuple(found)))
        self.uses.extend(self._next_uses(called))

    def _next_uses(self, called: frozenset[str]) -> list[LoaderUse]:
        """Loops that consume a loader by hand: ``batches = iter(loader)`` inside an outer loop,
        then ``next(batches)`` in an inner one (LambdaLabs' distributed-training-guide
        ``for step in range(len(dataloader)): batch = next(batches)``). The inner loop is the use;
        the iterator must be made afresh inside the loop around it, which then repeats the epochs
        (an iterator made once, before every loop, is one pass over the data, not an epoch per
        outer iteration)."""
        if "next" not in called or "iter" not in called:
            return []
        out: list[LoaderUse] = []
        seen: set[int] = set()
        for call in self.ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == "next" and len(call.args) >= 1
                    and isinstance(call.args[0], ast.Name)):
                continue
            if self.qualify(call.func) != "next":
                continue
            loop = self.scopes.loop_of(call)
            if loop is None or loop.parent is None or id(loop.node) in seen:
                continue
            made = self.values.sources(call.args[0], loop.function)
            if not made or not all(isinstance(leaf.node, ast.Call) and isinstance(leaf.node.func, ast.Name)
                                   and leaf.node.func.id == "iter" and leaf.node.args for leaf in made):
                continue
            outer = loop.parent.node
            if not all(_inside(leaf.node, outer) and not _inside(leaf.node, loop.node) for leaf in made):
                continue
            found = self.loader_leaves(call.args[0], loop.function)
            if found:
                seen.add(id(loop.node))
                out.append(LoaderUse(loop, loop.function, tuple(found)))
        return out

    @property
    def values(self) -> ValueResolver:
        return value_resolver(self.ctx)

    # -- markers -----------------------------------------------------------
    def _marker(self, call: ast.Call, fn: FunctionInfo) -> Optional[Marker]:
        qual = self.qualify(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if last in _MARKERS and (qual == last or qual.startswith(_MARKER_ROOTS)):
            return Marker(call, fn, f"`{last}(...)` makes this a data-parallel job")
        if qual == "deepspeed.initialize":
            return Marker(call, fn, "`deepspeed.initialize(...)` makes this a data-parallel job")
        if last == "Fabric" and qual.startswith(_FABRIC_ROOTS) and fabric_data_parallel(call):
            return Marker(call, fn, "`Fabric(...)` on several devices makes this a data-parallel job")
        return None

    def related(self, fn: FunctionInfo) -> list[Marker]:
        """Markers that can apply to a loop in ``fn``."""
        near = self._related.get(fn)
        if near is None:
            near = self._reach(fn)
            self._related[fn] = near
        cls = fn.method_class()
        return [m for m in self.markers if m.fn in near or m.fn.is_module_scope or (
            cls is not None and m.fn.method_class() is cls)]

    def _reach(self, start: FunctionInfo) -> set[FunctionInfo]:
        if self._graph is None:
            callees: dict[FunctionInfo, list[FunctionInfo]] = {}
            callers: dict[FunctionInfo, list[FunctionInfo]] = {}
            for call, (target, _) in self.scopes.bindings.calls.items():
                caller = self.scopes.function_of(call)
                callees.setdefault(caller, []).append(target)
                callers.setdefault(target, []).append(caller)
            self._graph = (callees, callers)
        callees, callers = self._graph
        out = {start}
        for graph in (callees, callers):
            stack = [start]
            seen = {start}
            while stack:
                cur = stack.pop()
                for nxt in graph.get(cur, ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            out |= seen
        return out

    # -- loaders -----------------------------------------------------------
    def is_loader(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        qual = self.qualify(node.func) or ""
        if qual not in _LOADERS:
            return False
        return qual != "DataLoader" or "DataLoader" not in self.scopes.classes_by_name

    def follow(self, expr: ast.AST, fn: FunctionInfo, depth: int = 0) -> Optional[list[Leaf]]:
        """Leaves of ``expr`` with iteration wrappers and helper returns looked through."""
        leaves = self.values.sources(expr, fn, depth)
        if leaves is None or depth > 16:
            return None
        out: list[Leaf] = []
        for leaf in leaves:
            node = leaf.node
            if isinstance(node, ast.Call):
                qual = self.qualify(node.func) or ""
                if qual in ITER_WRAPPERS and node.args:
                    got = self.follow(node.args[0], leaf.fn, depth + 1)
                    if got is None:
                        return None
                    out.extend(got)
                    continue
                resolved = self.scopes.bindings.resolve_call(node, leaf.fn)
                if resolved is not None and not resolved[1]:
                    target = resolved[0]
                    rets = [r for r in self.values.returns.get(target, []) if r.value is not None]
                    if not rets:
                        return None
                    for ret in rets:
                        assert ret.value is not None
                        got = self.follow(ret.value, target, depth + 1)
                        if got is None:
                            return None
                        out.extend(got)
                    continue
            out.append(leaf)
        return out

    def loader_leaves(self, expr: ast.AST, fn: FunctionInfo) -> Optional[list[Leaf]]:
        """Every DataLoader(...) call ``expr`` may be; None unless all paths are one."""
        leaves = self.follow(expr, fn)
        if not leaves or not all(self.is_loader(leaf.node) for leaf in leaves):
            return None
        return leaves

    # -- samplers and datasets --------------------------------------------
    @staticmethod
    def kwarg(call: ast.Call, name: str) -> Optional[ast.expr]:
        return next((k.value for k in call.keywords if k.arg == name), None)

    def sampler_expr(self, loader: ast.Call) -> Optional[ast.expr]:
        for name in ("sampler", "batch_sampler"):
            value = self.kwarg(loader, name)
            if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
                return value
        return None

    def plain_sampler(self, expr: ast.expr, fn: FunctionInfo) -> bool:
        """True when every path builds a torch sampler that does not shard."""
        leaves = self.follow(expr, fn)
        if not leaves:
            return False
        for leaf in leaves:
            node = leaf.node
            if not isinstance(node, ast.Call):
                return False
            qual = self.qualify(node.func) or ""
            last = qual.rsplit(".", 1)[-1]
            if not (qual.startswith("torch.utils.data") or qual == last):
                return False
            if last == "BatchSampler" and node.args:
                if not self.plain_sampler(node.args[0], leaf.fn):
                    return False
            elif last not in _PLAIN_SAMPLERS or self._rank_args(node):
                return False
        return True

    def _rank_args(self, call: ast.Call) -> bool:
        if any(k.arg in _RANK_KWARGS for k in call.keywords):
            return True
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            for sub in ast.walk(arg):
                if isinstance(sub, ast.Call):
                    name = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(
                        sub.func, "id", "")
                    if name in _RANK_CALLS:
                        return True
        return False

    def dataset_style(self, loader: ast.Call, fn: FunctionInfo) -> list[Style]:
        """Style of every dataset the loader may get (UNKNOWN when it cannot tell)."""
        dataset = loader.args[0] if loader.args else self.kwarg(loader, "dataset")
        if dataset is None or isinstance(dataset, ast.Starred):
            return [Style(UNKNOWN)]
        return self._styles(dataset, fn, 0)

    def _styles(self, expr: ast.expr, fn: FunctionInfo, depth: int) -> list[Style]:
        leaves = self.follow(expr, fn) if depth < 8 else None
        if not leaves:
            return [Style(UNKNOWN)]
        out: list[Style] = []
        for leaf in leaves:
            out.extend(self._style(leaf.node, leaf.fn, depth))
        return out

    def _style(self, node: ast.AST, fn: FunctionInfo, depth: int) -> list[Style]:
        if isinstance(node, (ast.List, ast.ListComp, ast.Tuple)):
            return [Style(MAP, node, "a Python list is a map-style dataset")]
        if isinstance(node, ast.Subscript):
            return self._styles(node.value, fn, depth + 1)
        if not isinstance(node, ast.Call):
            return [Style(UNKNOWN)]
        func = node.func
        qual = self.qualify(func) or ""
        last = qual.rsplit(".", 1)[-1]
        if last == "split_dataset_by_node":
            return [Style(SHARDED, node, "`split_dataset_by_node` shards it per rank")]
        if self._rank_args(node):
            return [Style(SHARDED, node, "the dataset is given the rank")]
        if qual.startswith(("webdataset.", "wds.")) or last in ("IterableDataset",
                                                                "to_iterable_dataset", "shard"):
            return [Style(SHARDED, node, "an iterable or sharded dataset")]
        if last == "load_dataset":
            streaming = self.kwarg(node, "streaming")
            if streaming is None or (isinstance(streaming, ast.Constant) and streaming.value is False):
                return [Style(MAP, node, "`load_dataset` without streaming gives map-style data")]
            return [Style(SHARDED if isinstance(streaming, ast.Constant) else UNKNOWN, node)]
        if qual.startswith("torchvision.datasets.") and last[:1].isupper():
            return [Style(MAP, node, f"`{last}` is a map-style dataset")]
        if last == "TensorDataset" and self._synthetic(node, fn) and not self._seeded_alike(node, fn):
            return [Style(SHARDED, node, "random tensors generated on each rank")]
        if last in _MAP_TORCH and (qual.startswith("torch.utils.data") or qual == last):
            return [Style(MAP, node, f"`{last}` is a map-style dataset")]
        if isinstance(func, ast.Attribute) and func.attr in _STYLE_KEEP:
            return self._styles(func.value, fn, depth + 1)
        if isinstance(func, ast.Name) and self.scopes.scope_of_name(func.id, fn).is_module_scope:
            cls = self.scopes.classes_by_name.get(func.id)
            if cls is not None:
                return [self._class_style(cls, node)]
        return [Style(UNKNOWN)]

    def _synthetic(self, node: ast.Call, fn: FunctionInfo) -> bool:
        """A TensorDataset of random tensors: each rank makes its own data (benchmarks, tests)."""
        for arg in node.args:
            leaves = self.values.sources(arg, fn) or []
            for leaf in leaves:
                for sub in ast.walk(leaf.node):
                    if isinstance(sub, ast.Call):
                        qual = self.qualify(sub.func) or ""
                        if qual in _RANDOM or (isinstance(sub.func, ast.Attribute) and sub.func.attr in (
                                "random_", "normal_", "uniform_")):
                            return True
        return False

    def _seeded_alike(self, node: ast.Call, fn: FunctionInfo) -> bool:
        """Every rank seeded its generator with the same constant before drawing the data
        (``torch.manual_seed(0)``, ``seed_everything(42)``): the "random" tensors are then
        identical on every rank, not a per-rank shard."""
        where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        for call, caller in self.scopes.bindings.call_functions:
            if caller is not fn and not caller.is_module_scope:
                continue
            if caller is fn and (call.lineno, call.col_offset) >= where:
                continue
            name = (self.qualify(call.func) or "").rsplit(".", 1)[-1]
            if name not in _SEEDS or not call.args:
                continue
            words = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(call.args[0])
                     if isinstance(n, (ast.Name, ast.Attribute))}
            if not any("rank" in w.lower() or w in ("process_index", "local_process_index") for w in words):
                return True
        return False

    def _class_style(self, cls: ClassInfo, node: ast.Call) -> Style:
        found = self._class_styles.get(id(cls))
        if found is None:
            found = self._class_styles[id(cls)] = self._compute_class_style(cls, node)
        return found

    def _compute_class_style(self, cls: ClassInfo, node: ast.Call) -> Style:
        getitem = False
        for c in cls.mro():
            if any(b.rsplit(".", 1)[-1] in ("IterableDataset", "IterDataPipe") for b in c.bases):
                return Style(SHARDED, c.node, f"`{c.name}` is an IterableDataset")
            for method in c.methods.values():
                getitem = getitem or method.name == "__getitem__"
                for sub in ast.walk(method.node):
                    if isinstance(sub, ast.Call) and isinstance(sub.func, (ast.Attribute, ast.Name)):
                        name = sub.func.attr if isinstance(sub.func, ast.Attribute) else sub.func.id
                        if name in _RANK_CALLS:
                            return Style(SHARDED, sub, f"`{c.name}` asks for the rank")
        if getitem and any(b.rsplit(".", 1)[-1] == "Dataset" for c in cls.mro() for b in c.bases):
            return Style(MAP, node, f"`{cls.name}` is a map-style dataset (`__getitem__`)")
        return Style(UNKNOWN)

    # -- Lightning with use_distributed_sampler=False ---------------------
    def lightning_loaders(self) -> list[tuple[ast.Call, Leaf]]:
        """(Trainer, DataLoader) pairs where Lightning was told not to inject its sampler."""
        trainers = [c for c in self.ctx.nodes(ast.Call) if _last_name(c.func) == "Trainer"
                    and self._no_sampler_trainer(c)] if "Trainer" in self.ctx.call_names() else []
        if not trainers or not self.loader_calls:
            return []
        out: list[tuple[ast.Call, Leaf]] = []
        for cls in self.scopes.classes.values():
            method = cls.methods.get("train_dataloader")
            if method is None or not (cls.is_lightning or any(
                    b.endswith(("LightningDataModule", "LightningModule")) for b in cls.bases)):
                continue
            for ret in self.values.returns.get(method, []):
                if ret.value is not None:
                    out.extend((trainers[0], leaf) for leaf in self.loader_leaves(ret.value, method) or ())
        for call, fn in self.scopes.bindings.call_functions:
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "fit"):
                continue
            owner = self.follow(call.func.value, fn) or []
            trainer = next((t for t in trainers if any(leaf.node is t for leaf in owner)), None)
            arg = call.args[1] if len(call.args) > 1 else self.kwarg(call, "train_dataloaders")
            if trainer is not None and arg is not None:
                out.extend((trainer, leaf) for leaf in self.loader_leaves(arg, fn) or ())
        return out

    def _no_sampler_trainer(self, call: ast.Call) -> bool:
        qual = self.qualify(call.func) or ""
        if not qual.startswith(("lightning.", "pytorch_lightning.")):
            return False
        flag = self.kwarg(call, "use_distributed_sampler") or self.kwarg(call, "replace_sampler_ddp")
        if not (isinstance(flag, ast.Constant) and flag.value is False):
            return False
        devices, nodes = self.kwarg(call, "devices"), self.kwarg(call, "num_nodes")
        strategy = self.kwarg(call, "strategy")
        if isinstance(nodes, ast.Constant) and isinstance(nodes.value, int) and nodes.value > 1:
            return True
        if isinstance(devices, (ast.List, ast.Tuple)):
            return len(devices.elts) > 1
        if isinstance(devices, ast.Constant):
            value = devices.value
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, int) and not isinstance(value, bool):
                return value > 1 or value == -1
        return isinstance(strategy, ast.Constant) and isinstance(strategy.value, str) and any(
            w in strategy.value for w in ("ddp", "fsdp", "deepspeed")) and devices is None

    # -- epochs ------------------------------------------------------------
    def epoch_loop(self, use: LoaderUse) -> Optional[ast.AST]:
        """The loop around ``use.loop`` that repeats it (in the function or at a call site)."""
        if use.loop.parent is not None:
            return use.loop.parent.node
        if use.loop.depth == 1 and use.fn.call_sites:
            for site in use.fn.call_sites:
                outer = self.scopes.loop_of(site.call)
                if outer is not None:
                    return outer.node
        return None


_MARKER_WORDS = _MARKERS | {"initialize", "Fabric"}
_FABRIC_ROOTS = ("lightning.", "lightning_fabric.", "pytorch_lightning.")
_FABRIC_SHARDED = ("ddp", "fsdp", "deepspeed")


def fabric_data_parallel(call: ast.Call) -> bool:
    """``Fabric(devices=4, strategy="ddp")``: literal devices above one (or several nodes) and no
    strategy other than a DDP/FSDP/DeepSpeed one (``dp`` keeps one process)."""
    kwargs = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
    if len(kwargs) != len(call.keywords) or call.args:
        return False
    strategy = kwargs.get("strategy")
    if strategy is not None and not (isinstance(strategy, ast.Constant) and isinstance(strategy.value, str)
                                     and strategy.value.startswith(_FABRIC_SHARDED)):
        return False
    devices, nodes = kwargs.get("devices"), kwargs.get("num_nodes")
    many = isinstance(devices, ast.Constant) and isinstance(devices.value, int) and not isinstance(
        devices.value, bool) and devices.value > 1
    many = many or (isinstance(devices, (ast.List, ast.Tuple)) and len(devices.elts) > 1)
    many = many or (isinstance(nodes, ast.Constant) and isinstance(nodes.value, int) and nodes.value > 1)
    return many


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    """Whether ``node``'s lines lie within ``outer``'s (both from one file)."""
    line, end = getattr(node, "lineno", None), getattr(outer, "end_lineno", None)
    return line is not None and end is not None and outer.lineno <= line <= end  # type: ignore[attr-defined]


def _last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def loader_analysis(ctx: FileContext) -> LoaderAnalysis:
    return ctx.cached("loaders", lambda: LoaderAnalysis(ctx))
