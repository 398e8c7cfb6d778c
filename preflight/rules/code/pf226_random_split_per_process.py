"""PF226 random-split-per-process: a train/validation split drawn from the process's own RNG in a
multi-process script, so every process gets a different partition."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, kwarg
from preflight.rules._pf414_support import last_name
from preflight.rules.base import Rule, examples

_RANDOM_SPLITS = frozenset({"torch.utils.data.random_split", "torch.utils.data.dataset.random_split"})
_SKLEARN_SPLIT = "sklearn.model_selection.train_test_split"
_DIST_INIT = frozenset({"torch.distributed.init_process_group", "accelerate.PartialState",
                        "accelerate.state.PartialState"})
# seeding calls by the RNGs they seed (torch: the default generator random_split draws from; numpy: the
# global state datasets' train_test_split and sklearn's draw from without a seed)
_SEEDS = {
    "torch.manual_seed": ("torch",), "torch.random.manual_seed": ("torch",),
    "numpy.random.seed": ("numpy",),
    "accelerate.utils.set_seed": ("torch", "numpy"), "accelerate.utils.random.set_seed": ("torch", "numpy"),
    "transformers.set_seed": ("torch", "numpy"), "transformers.trainer_utils.set_seed": ("torch", "numpy"),
}
_SEED_NAMES = frozenset({"set_seed", "seed_everything", "seed_all", "set_random_seed", "setup_seed", "fix_seed",
                         "init_seeds", "set_seeds", "seed_torch", "random_seed"})


def _per_rank(node: ast.AST) -> Optional[ast.AST]:
    """The part of ``node`` that differs between processes (a rank, a process index)."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Name, ast.Attribute)):
            name = last_name(sub).lower()
            if name in ("rank", "local_rank", "global_rank", "process_index", "local_process_index") \
                    or name.endswith("_rank") or name == "get_rank":
                return sub
    return None


def _seed_per_rank_inside(fn: ast.FunctionDef) -> Optional[ast.AST]:
    """A rank term in what a local seeding helper assigns or passes to a seeding call
    (``seed += accelerator.process_index * 12345``; ``torch.manual_seed(seed + rank)``)."""
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            part = _per_rank(node.value)
        elif isinstance(node, ast.Call) and "seed" in last_name(node.func).lower():
            part = next((p for a in node.args if (p := _per_rank(a)) is not None), None)
        else:
            continue
        if part is not None:
            return part
    return None


def _rank_gated(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` runs under an ``if`` that tests the rank or the main process (one process splits)."""
    for parent in ctx.ancestors(node):
        if isinstance(parent, (ast.If, ast.IfExp)):
            text = ast.unparse(parent.test).lower()
            if "rank" in text or "main_process" in text or "process_index" in text or "is_global_zero" in text \
                    or "master" in text:
                return True
    return False


def _in_lightning_setup(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` is in the ``setup`` method of a Lightning DataModule or module, which Lightning calls
    on every process ("setup is called from every process across all the nodes")."""
    fn = ctx.enclosing_function(node)
    cls = ctx.enclosing(node, ast.ClassDef)
    if not isinstance(fn, ast.FunctionDef) or fn.name != "setup" or cls is None:
        return False
    return any(ast.unparse(b).endswith(("LightningDataModule", "LightningModule")) for b in cls.bases)


def _multi_process_trainer(ctx: FileContext, seeded: dict[str, object]) -> Optional[ast.Call]:
    """A multi-device Lightning ``Trainer(...)`` in the file or a script beside it (``devices`` > 1 or
    ``-1``, ``num_nodes`` > 1, or a ``ddp``/``fsdp``/``deepspeed`` strategy); the seeding calls
    of that script are merged into ``seeded``."""
    from preflight.analysis.project_imports import sibling_modules

    for other in [ctx, *(o for o, _ in sibling_modules(ctx, "Trainer") if o is not ctx)]:
        imports = scope_index(other).imports
        for call in other.nodes(ast.Call):
            qual = imports.qualify(call.func) or ""
            if not (qual.startswith(("lightning.", "pytorch_lightning.")) and qual.endswith(".Trainer")):
                continue
            devices, nodes, strategy = kwarg(call, "devices"), kwarg(call, "num_nodes"), kwarg(call, "strategy")
            many = (isinstance(devices, ast.Constant) and isinstance(devices.value, int)
                    and (devices.value > 1 or devices.value == -1)) \
                or (isinstance(devices, ast.Constant) and devices.value == "-1") \
                or (isinstance(devices, (ast.List, ast.Tuple)) and len(devices.elts) > 1) \
                or (isinstance(nodes, ast.Constant) and isinstance(nodes.value, int) and nodes.value > 1) \
                or (isinstance(strategy, ast.Constant) and isinstance(strategy.value, str)
                    and strategy.value.startswith(("ddp", "fsdp", "deepspeed")))
            if not many:
                continue
            for rng, state in (RandomSplitPerProcess._seeding(other).items() if other is not ctx else ()):
                if state == "shared" or rng not in seeded:
                    seeded[rng] = state
            return call
    return None


def _lightning_fit_then_test(ctx: FileContext) -> Optional[tuple[FileContext, ast.Call]]:
    """A Lightning ``Trainer`` script (this file, or one beside it) that calls ``.fit(...)`` and then
    ``.test(...)`` in one process: the file and the ``test`` call."""
    from preflight.analysis.project_imports import sibling_modules

    for other in [ctx, *(o for o, _ in sibling_modules(ctx, "Trainer") if o is not ctx)]:
        imports = scope_index(other).imports
        if not any((imports.qualify(c.func) or "").startswith(("lightning.", "pytorch_lightning."))
                   and (imports.qualify(c.func) or "").endswith(".Trainer") for c in other.nodes(ast.Call)):
            continue
        attrs = [c for c in other.nodes(ast.Call) if isinstance(c.func, ast.Attribute)]
        fits = [c.lineno for c in attrs if isinstance(c.func, ast.Attribute) and c.func.attr == "fit"]
        tests = [c for c in attrs if isinstance(c.func, ast.Attribute) and c.func.attr == "test"
                 and fits and c.lineno > min(fits)]
        if tests:
            return other, tests[0]
    return None


def _redrawn_for_test(ctx: FileContext, splits: list[tuple[ast.Call, str, str]]
                      ) -> Iterable[tuple[ast.Call, str, list]]:
    """An unseeded ``random_split`` in a DataModule's ``setup`` that makes the test split, not under a
    guard, in a job whose script runs ``trainer.test`` after ``trainer.fit``: Lightning calls ``setup``
    again for the test stage and the split is drawn anew (Lightning issue 9865)."""
    candidates = []
    for call, rng, fix in splits:
        if rng != "torch" or not _in_lightning_setup(ctx, call):
            continue
        fn = ctx.enclosing_function(call)
        guarded = False
        for above in ctx.ancestors(call):
            if above is fn:
                break
            if isinstance(above, (ast.If, ast.IfExp)):
                guarded = True  # a stage test or an "already split" guard
                break
        if guarded:
            continue
        parent = ctx.parent(call)
        targets = parent.targets if isinstance(parent, ast.Assign) else []
        if not any("test" in ast.unparse(t).lower() for t in targets):
            continue
        candidates.append((call, fix))
    if not candidates:
        return
    found = _lightning_fit_then_test(ctx)
    if found is None:
        return
    other, test = found
    where = "" if other is ctx else f" ({other.path}:{test.lineno})"
    for call, fix in candidates:
        evidence = [ctx.evidence(test, "trainer.test runs setup() again")] if other is ctx else []
        yield call, (
            f"`{ast.unparse(call)[:90]}` in `setup()` draws the train/val/test split from the global RNG, and the "
            f"job calls `trainer.test(...)` after `trainer.fit(...)`{where}: Lightning runs `setup()` again for the "
            "test stage, so the test split is a fresh draw that overlaps the samples the model trained on and the "
            f"test metric is inflated. Pass {fix}, or split once (in `__init__`/`prepare_data`, or only when the "
            "splits do not exist yet)"), evidence


@register
class RandomSplitPerProcess(Rule):
    code = "PF226"
    needs_text = ("split",)
    name = "random-split-per-process"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate", "pytorch")
    summary = ("A random train/validation split is drawn on every process of a distributed script from an RNG "
               "that is not seeded alike on all processes: each process gets a different partition")
    explanation = """
## What it finds

In a script that runs as several processes (it builds an `Accelerator`, a
`PartialState` or calls `torch.distributed.init_process_group`), or in the `setup`
method of a `LightningDataModule` (Lightning calls it on every process) whose folder
holds a script that builds a multi-device `Trainer` (`devices` > 1, `num_nodes` > 1, a
`ddp`/`fsdp`/`deepspeed` strategy; Lightning issue 7728), a random split drawn on every
process from the process's global RNG:

* `torch.utils.data.random_split(dataset, lengths)` without `generator=`,
* `dataset.train_test_split(test_size=...)` (Hugging Face `datasets`) without
  `seed=` or `generator=`,
* `sklearn.model_selection.train_test_split(...)` without `random_state=`,

while that RNG is either never seeded in the file or seeded with a value that
involves the rank (`set_seed(seed + accelerator.process_index)`,
`set_seed(seed, device_specific=True)`, or a local seeding helper that adds the
process index).

The same split is reported in a single-process job when it makes the test split in a
DataModule's `setup()` (not under an `if`) and the Trainer script beside it (or the same
file) calls `trainer.test(...)` after `trainer.fit(...)`: Lightning calls `setup()` again
for the test stage, and an unseeded `random_split` draws a new partition whose test part
overlaps what the model trained on (Lightning issue 9865, "Only invoke setup() once, not
in both trainer.fit() and trainer.test()"). Seeding the global RNG once at the start does
not help there: the generator has moved on by the time of the second draw.

## Why it matters

`random_split` permutes the indices with `randperm(..., generator=default_generator)`
(torch/utils/data/dataset.py), the global torch generator of the process. Without a
seed or generator, `datasets`' `Dataset.train_test_split` derives its generator from
`np.random.get_state()` (datasets arrow_dataset.py `train_test_split` and the
fingerprint of randomized transforms in fingerprint.py), and sklearn's
`train_test_split(random_state=None)` uses NumPy's global `RandomState`. Each process a
launcher starts has its own RNG state, seeded from the OS or from a per-rank seed, so
every process draws a different partition: the validation examples of one rank are in
the training shard of another, and the reported validation metric is partly measured on
trained-on data (datasets issue "train_test_split without seed under accelerate",
accelerate forum; OpenTau seeds `seed + process_index * 12345` before its split).

## How to fix it

Give the split its own fixed generator, identical on every process:
`random_split(ds, lengths, generator=torch.Generator().manual_seed(seed))`,
`ds.train_test_split(test_size=0.05, seed=seed)`, `train_test_split(..., random_state=seed)`;
or seed the global RNGs with the same value on every process before the split and
decorrelate only the augmentation afterwards.

## When preflight stays silent

* The split has `generator=` / `seed=` / `random_state=`, or `shuffle=False`.
* The RNG the split draws from is seeded in the file with a value that does not involve
  the rank (`set_seed(args.seed)`, `torch.manual_seed(0)`), or by a seeding helper
  preflight cannot read (`seed_everything(cfg.seed)` from another package).
* The split runs under a rank or main-process test (one process splits and shares it).
* The script never starts a process group (a single-process script); for a DataModule, no
  script beside it builds a multi-device Trainer, or that script seeds alike on every process
  (`seed_everything(42)`).
"""
    bad_examples = examples("preflight.rules.code._pf226_examples", "PF226_BAD")
    good_examples = examples("preflight.rules.code._pf226_examples", "PF226_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        imports = scope_index(ctx).imports
        splits: list[tuple[ast.Call, str, str]] = []
        distributed = bool(accelerators(ctx))
        for call in ctx.nodes(ast.Call):
            qual = imports.qualify(call.func) or ""
            if qual in _DIST_INIT:
                distributed = True
            split = self._split(call, qual)
            if split is not None:
                splits.append((call, *split))
        if not splits:
            return
        redrawn = list(_redrawn_for_test(ctx, splits))
        for call, message, pointers in redrawn:
            yield ctx.finding(self, call, message, evidence=pointers)
        done = {id(c) for c, _, _ in redrawn}
        splits = [s for s in splits if id(s[0]) not in done]
        seeded = self._seeding(ctx)
        if not distributed:
            # a LightningDataModule's `setup` runs on every process; the multi-device Trainer and any
            # seeding are in the script beside it
            splits = [s for s in splits if _in_lightning_setup(ctx, s[0])]
            trainer = _multi_process_trainer(ctx, seeded) if splits else None
            if trainer is None:
                return
        for call, rng, fix in splits:
            state = seeded.get(rng)
            if state == "shared" or _rank_gated(ctx, call):
                continue
            if state is None:
                why = f"the {'torch' if rng == 'torch' else 'NumPy'} global RNG it draws from is never seeded here"
                evidence = None
            elif isinstance(state, tuple):
                node: ast.AST = state[0]
                part: ast.AST = state[1]
                why = (f"the {'torch' if rng == 'torch' else 'NumPy'} global RNG it draws from is seeded per process "
                       f"(`{ast.unparse(part)[:60]}`)")
                evidence = [ctx.evidence(node, "the RNG is seeded with a value that differs between processes")]
            else:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)[:90]}` draws the split on every process and {why}: under a multi-process "
                "launch each process gets a different partition, so examples one rank validates on are trained on "
                f"by the others. Pass {fix} with the same seed on every process",
                evidence=evidence)

    @staticmethod
    def _split(call: ast.Call, qual: str) -> Optional[tuple[str, str]]:
        """(rng, fix) when ``call`` is a random split without its own seed."""
        shuffle = kwarg(call, "shuffle")
        if isinstance(shuffle, ast.Constant) and shuffle.value is False:
            return None
        if qual in _RANDOM_SPLITS:
            if kwarg(call, "generator") is None and len(call.args) < 3:
                return "torch", "`generator=torch.Generator().manual_seed(seed)`"
            return None
        if qual == _SKLEARN_SPLIT:
            return None if kwarg(call, "random_state") is not None else ("numpy", "`random_state=seed`")
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "train_test_split" and not qual.startswith("sklearn") \
                and kwarg(call, "seed") is None and kwarg(call, "generator") is None \
                and not any(isinstance(a, ast.Starred) for a in call.args) \
                and not any(k.arg is None for k in call.keywords):
            return "numpy", "`seed=seed`"
        return None

    @staticmethod
    def _seeding(ctx: FileContext) -> dict[str, object]:
        """rng -> "shared" (seeded alike on every process somewhere in the file) or (call, per-rank part)."""
        imports = scope_index(ctx).imports
        local = {fn.name: fn for fn in ctx.nodes(ast.FunctionDef) if "seed" in fn.name.lower()}  # seeding helpers
        out: dict[str, object] = {}

        def note(rngs: Iterable[str], call: ast.Call, part: Optional[ast.AST]) -> None:
            for rng in rngs:
                if part is None:
                    out[rng] = "shared"
                elif out.get(rng) != "shared":
                    out[rng] = (call, part)

        called = {c.func.id for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id in local}
        for call in ctx.nodes(ast.Call):
            fn = ctx.enclosing_function(call)
            if isinstance(fn, ast.FunctionDef) and fn.name in called and local.get(fn.name) is fn:
                continue  # inside a local helper: read where the helper is called
            qual = imports.qualify(call.func) or ""
            name = last_name(call.func)
            device_specific = kwarg(call, "device_specific")
            per_call = next((p for a in [*call.args, *(k.value for k in call.keywords if k.arg != "device_specific")]
                             if (p := _per_rank(a)) is not None), None)
            if isinstance(device_specific, ast.Constant) and device_specific.value is True:
                per_call = device_specific
            if qual in _SEEDS:
                note(_SEEDS[qual], call, per_call)
            elif isinstance(call.func, ast.Name) and name in local:
                body = local[name]
                inner = [imports.qualify(c.func) or "" for c in ast.walk(body) if isinstance(c, ast.Call)]
                rngs = {r for q in inner for r in _SEEDS.get(q, ())}
                if not rngs and not any(last_name(c.func) in _SEED_NAMES for c in ast.walk(body)
                                        if isinstance(c, ast.Call)):
                    continue
                part = per_call or _seed_per_rank_inside(body)
                note(rngs or ("torch", "numpy"), call, part)
            elif name in _SEED_NAMES or "seed_everything" in qual:
                note(("torch", "numpy"), call, per_call)  # an unread helper: assumed to seed both
        return out
