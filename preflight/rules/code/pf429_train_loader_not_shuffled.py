"""PF429 train-loader-not-shuffled: a DataLoader built with ``shuffle=False`` feeds the training loop."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import MAP, SHARDED, Style, loader_analysis
from preflight.analysis.value_resolver import Leaf
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf27x_support import lightning_classes, method

_ORDERS = frozenset({"shuffle", "permutation", "randperm", "sample", "sort", "sorted", "sort_by", "sortish"})


def _split_subset(la, loader: ast.Call, fn) -> bool:
    """``train_set, val_set = random_split(ds, ...)`` in the loader's function, and the loader reads
    one of those names (the analysis does not follow tuple unpacking)."""
    dataset = loader.args[0] if loader.args else la.kwarg(loader, "dataset")
    if not isinstance(dataset, ast.Name):
        return False
    for node in ast.walk(fn.node):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and (la.qualify(node.value.func) or "").rsplit(".", 1)[-1] == "random_split" \
                and any(isinstance(t, (ast.Tuple, ast.List)) and any(
                    isinstance(e, ast.Name) and e.id == dataset.id for e in t.elts) for t in node.targets):
            return True
    return False


_TORCH_DRAWS = frozenset({"randn", "rand", "randint", "randn_like", "rand_like", "normal"})


def _is_draw(call: ast.Call) -> bool:
    """``torch.randn(...)``, ``np.random.randint(...)``, ``random.random()``."""
    text = ast.unparse(call.func)
    return "random." in text or (text.startswith("torch.") and text.rsplit(".", 1)[-1] in _TORCH_DRAWS)


def _toy_data(la, styles: list) -> bool:
    """Data whose order cannot matter: a list written in the code (``[1 for _ in range(10)]``), or a
    local Dataset class that draws its samples at random (Lightning's ``RandomDataset``)."""
    for style in styles:
        node = style.node
        if isinstance(node, (ast.List, ast.ListComp, ast.Tuple)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            cls = la.scopes.classes_by_name.get(node.func.id)
            if cls is not None and any(isinstance(n, ast.Call) and _is_draw(n)
                                       for method in cls.methods.values() for n in ast.walk(method.node)):
                return True
            getitem = cls.methods.get("__getitem__") if cls is not None else None
            if getitem is not None and _ignores_index(getitem.node):
                return True
    return False


def _ignores_index(getitem: ast.AST) -> bool:
    """``def __getitem__(self, idx): return copy.deepcopy(self.batch)``: every index gives the same
    sample (alphaflow's ``DummyDataset``), so the order cannot matter."""
    args = getattr(getitem, "args", None)
    if args is None or len(args.args) < 2:
        return False
    index = args.args[1].arg
    return not any(isinstance(n, ast.Name) and n.id == index for n in ast.walk(getitem))


def _one_epoch(la, fit: ast.Call, fn) -> bool:
    """``Trainer(max_epochs=1)``: a single pass, the order is never repeated."""
    if not isinstance(fit.func, ast.Attribute):
        return False
    for owner in la.follow(fit.func.value, fn) or []:
        if isinstance(owner.node, ast.Call):
            epochs = la.kwarg(owner.node, "max_epochs")
            if isinstance(epochs, ast.Constant) and epochs.value == 1:
                return True
    return False


def _omitted(loader: ast.Call) -> bool:
    """No ``shuffle``/``sampler``/``batch_sampler`` and no ``**kwargs``: the loader's default order."""
    return not any(kw.arg in (None, "shuffle", "sampler", "batch_sampler") for kw in loader.keywords) \
        and len(loader.args) <= 2  # DataLoader(ds, bs, shuffle, sampler, ...) positionally: not judged


def _shuffle_false(loader: ast.Call) -> ast.keyword | None:
    for kw in loader.keywords:
        if kw.arg == "shuffle" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
            return kw
    return None


@register
class TrainLoaderNotShuffled(Rule):
    code = "PF429"
    needs_text = ("shuffle", "DataLoader")
    name = "train-loader-not-shuffled"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "The DataLoader of the training loop is built with `shuffle=False` and no sampler"
    explanation = """
## What it finds

A `DataLoader(dataset, shuffle=False)` with no `sampler`/`batch_sampler`, iterated
by a training loop (a loop that calls `backward()`/`step()`) that an epoch loop
repeats. Also a loader that leaves `shuffle` out (the default is False) when its
dataset is known to be map-style (torchvision datasets, `TensorDataset`, `Subset`,
`random_split`, non-streaming `load_dataset`, a local `Dataset` class with
`__getitem__`), iterated the same way or given to a Lightning `trainer.fit(model,
loader)` or returned by the `train_dataloader` hook of a `LightningDataModule` /
`LightningModule` subclass (Lightning keeps the loader's order, and its distributed
sampler copies it).

## Why it matters

Every epoch then presents the samples in the same order - for datasets stored by
class (ImageFolder, most label-sorted files) whole batches hold one class, and SGD
drifts toward the last classes of each epoch. Accuracy stalls well below what the
same model reaches with shuffling (XNOR-Net-PyTorch issue 38: `trainloader` was
built with `shuffle=False`).

## How to fix it

`shuffle=True` for the training loader (`DistributedSampler(shuffle=True)` and
`set_epoch` under DDP); keep `shuffle=False` for validation and test loaders.

## When preflight stays silent

* Loaders only iterated without backward/step (evaluation), or not repeated by an
  epoch loop; loaders with a `sampler` or `batch_sampler`.
* Iterable or sharded datasets (they cannot be shuffled by the loader); with
  `shuffle` left out, also datasets whose kind the file does not show.
* Loaders given positionally more than `(dataset, batch_size)`, or with `**kwargs`.
* With `shuffle` left out: data written in the code (a list literal) or drawn at
  random by a local Dataset class (Lightning's `RandomDataset`), and a
  `Trainer(max_epochs=1)` (one pass: no order is repeated).
* With `shuffle` left out, a file that wraps the model in DDP/FSDP or calls
  `deepspeed.initialize`: a loader without a sampler there is PF201's finding, and
  its fix (a `DistributedSampler`) shuffles.
* The function that builds the loader shuffles, permutes or sorts its data itself
  (`ds.shuffle(seed)`, `np.random.permutation`, a length-sorted curriculum).
"""
    bad_examples = examples("preflight.rules.code._pf429_examples", "PF429_BAD")
    good_examples = examples("preflight.rules.code._pf429_examples", "PF429_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        la = loader_analysis(ctx)
        done: set[int] = set()
        for use in la.uses:
            if not use.loop.training or la.epoch_loop(use) is None:
                continue
            for leaf in use.loaders:
                found = self._judge(ctx, la, leaf, done)
                if found is not None:
                    node, message = found
                    yield ctx.finding(self, node, message,
                                      evidence=[ctx.evidence(use.loop.node, "the training loop iterates it")])
        for loop, leaf in self._by_name(ctx, la):
            found = self._judge(ctx, la, leaf, done, omitted_only=True)
            if found is not None:
                node, message = found
                yield ctx.finding(self, node, message, evidence=[ctx.evidence(
                    loop.node, f"the training loop iterates `{loop.node.iter.id}`, the name the builder returns")])
        for leaf in self._hooked(ctx, la):
            found = self._judge(ctx, la, leaf, done, omitted_only=True)
            if found is not None:
                node, message = found
                yield ctx.finding(self, node, message, evidence=[ctx.evidence(
                    leaf.fn.node, "Lightning trains on the loader this `train_dataloader` hook returns")])
        for fit, fit_fn, leaf in self._fitted(ctx, la):
            if _one_epoch(la, fit, fit_fn):
                continue
            found = self._judge(ctx, la, leaf, done, omitted_only=True)
            if found is not None:
                node, message = found
                yield ctx.finding(self, node, message,
                                  evidence=[ctx.evidence(fit, "`trainer.fit` trains on it")])

    @staticmethod
    def _by_name(ctx: FileContext, la) -> list:
        """A training loop (repeated by an epoch loop) over a parameter of a function no call of this
        file reaches, and a function of the same file that returns a ``DataLoader(...)`` under that
        very name (``train_dataloader = DataLoader(...)`` ... ``return ..., train_dataloader, ...``):
        the loader built here is the one the caller, elsewhere, passes in."""
        out: list = []
        if not la.loader_calls:
            return out
        returned: dict[str, list] = {}
        # loader calls assigned to one name; then the names each function returns (its nested
        # functions' returns included), found from the returns up, not by walking every function
        assigns = []
        for call in la.loader_calls:
            parent = ctx.parent(call)
            if isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1 \
                    and isinstance(parent.targets[0], ast.Name):
                assigns.append(parent)
        if not assigns:
            return out
        defs = (ast.FunctionDef, ast.AsyncFunctionDef)
        returned_names: dict[ast.AST, set[str]] = {}
        for ret in ctx.nodes(ast.Return):
            if ret.value is None:
                continue
            elts = ret.value.elts if isinstance(ret.value, ast.Tuple) else [ret.value]
            names = {e.id for e in elts if isinstance(e, ast.Name)}
            if names:
                for anc in ctx.ancestors(ret):
                    if isinstance(anc, defs):
                        returned_names.setdefault(anc, set()).update(names)
        for assign in assigns:
            target = assign.targets[0]
            assert isinstance(target, ast.Name)  # the only assignments collected above
            name = target.id
            for anc in ctx.ancestors(assign):
                fn = la.scopes.functions.get(anc) if isinstance(anc, defs) else None
                if fn is not None and name in returned_names.get(anc, ()):
                    returned.setdefault(name, []).append(Leaf(assign.value, fn, ()))
        if not returned:
            return out
        for node, loop in la.scopes.loops.items():
            if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Name) or not loop.training:
                continue
            fn = loop.function
            if node.iter.id not in fn.params or fn.call_sites or loop.parent is None:
                continue
            if any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.iter.id
                                                     for t in n.targets) for n in ast.walk(fn.node)):
                continue  # rebound inside the function
            leaves = returned.get(node.iter.id, [])
            if len(leaves) == 1:
                out.append((loop, leaves[0]))
        return out

    @staticmethod
    def _hooked(ctx: FileContext, la) -> list:
        """The ``DataLoader(...)`` a ``train_dataloader`` method of a LightningDataModule/LightningModule
        subclass returns directly: the loader Lightning trains on, every epoch, in its own order."""
        out: list = []
        # a Trainer told not to inject its sampler: the unsharded loader is PF201's finding
        own_sampler = {id(leaf.node) for _trainer, leaf in la.lightning_loaders()}
        for cls in lightning_classes(ctx):
            hook = method(cls, "train_dataloader")
            fn = la.scopes.functions.get(hook) if hook is not None else None
            if hook is None or fn is None:
                continue
            for ret in ast.walk(hook):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Call) \
                        and ret.value in la.loader_calls and id(ret.value) not in own_sampler:
                    out.append(Leaf(ret.value, fn, ()))
        return out

    @staticmethod
    def _fitted(ctx: FileContext, la) -> list:
        """(``trainer.fit(...)`` call, DataLoader leaf) for the train loader given to a Lightning Trainer."""
        out: list = []
        if not la.loader_calls:
            return out
        for call, fn in la.scopes.bindings.call_functions:
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "fit"):
                continue
            owner = la.follow(call.func.value, fn) or []
            if not any(isinstance(o.node, ast.Call) and (la.qualify(o.node.func) or "").startswith(
                    ("lightning.", "pytorch_lightning.")) and (la.qualify(o.node.func) or "").endswith(".Trainer")
                    for o in owner):
                continue
            arg = call.args[1] if len(call.args) > 1 else la.kwarg(call, "train_dataloaders")
            if arg is not None:
                out.extend((call, fn, leaf) for leaf in la.loader_leaves(arg, fn) or ())
        return out

    def _judge(self, ctx: FileContext, la, leaf, done: set, omitted_only: bool = False):
        loader = leaf.node
        if not isinstance(loader, ast.Call) or id(loader) in done:
            return None
        kw = None if omitted_only else _shuffle_false(loader)
        omitted = kw is None and _omitted(loader)
        if kw is None and not omitted:
            return None
        if omitted and la.markers:
            return None  # a data-parallel file: the missing sampler is the finding (PF201), which also shuffles
        if la.kwarg(loader, "sampler") is not None or la.kwarg(loader, "batch_sampler") is not None:
            return None
        styles = la.dataset_style(loader, leaf.fn)
        if omitted and _split_subset(la, loader, leaf.fn):
            styles = [Style(MAP, loader, "a `random_split` subset is map-style")]
        if any(s.kind == SHARDED for s in styles):
            return None
        if omitted and not all(s.kind == MAP for s in styles):
            return None  # the default order of a dataset that may be iterable: not judged
        if omitted and _toy_data(la, styles):
            return None
        scope = ctx.enclosing_function(loader) or ctx.tree
        if any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", ""))
               in _ORDERS for n in ast.walk(scope)):
            return None
        done.add(id(loader))
        if kw is not None:
            return kw, ("this DataLoader feeds the training loop but is built with `shuffle=False` and no sampler: "
                        "every epoch sees the samples in the same order (class-sorted data gives one-class "
                        "batches), and training converges worse. Use `shuffle=True` for the training loader")
        return loader, ("this DataLoader of a map-style dataset feeds the training loop without `shuffle=True` "
                        "(the default is False) and without a sampler: every epoch sees the samples in the same "
                        "order (class-sorted data gives one-class batches). Pass `shuffle=True` to the training "
                        "loader")
