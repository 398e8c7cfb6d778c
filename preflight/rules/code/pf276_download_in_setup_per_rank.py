"""PF276 download-in-setup-per-rank: a Lightning ``setup()`` that downloads a dataset
(``download=True``) in a multi-process run, with no ``prepare_data``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples
from preflight.rules.code._metric_sync import is_lightning_qual
from preflight.rules.code._pf27x_support import lightning_classes, method, multi_process_trainer

_GUARD_WORDS = ("rank", "zero", "exists", "isdir", "isfile")


def _guarded(fn: ast.FunctionDef, node: ast.AST) -> bool:
    """``node`` sits under an ``if`` of ``fn`` whose test names a rank or a file check
    (``if self.trainer.is_global_zero:``, ``if not os.path.exists(CACHE):``)."""
    for stmt in ast.walk(fn):
        if isinstance(stmt, ast.If) and any(w in ast.unparse(stmt.test).lower() for w in _GUARD_WORDS) \
                and any(n is node for branch in (stmt.body, stmt.orelse) for s in branch for n in ast.walk(s)):
            return True
    return False


def _downloads(fn: ast.FunctionDef) -> list[tuple[ast.Call, str]]:
    """Calls in ``fn`` with a literal ``download=True``, and Hugging Face ``datasets`` writes to one
    path on every rank (``ds.save_to_disk(path)``), not under a rank or file-exists guard."""
    out = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call) or _guarded(fn, node):
            continue
        for kw in node.keywords:
            if kw.arg == "download" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                out.append((node, "download"))
        if isinstance(node.func, ast.Attribute) and node.func.attr == "save_to_disk" and node.args \
                and not any("rank" in ast.unparse(a).lower() for a in node.args):
            out.append((node, "save"))
    return out


def _trainer_beside(ctx: FileContext, names: set[str]) -> Optional[tuple[FileContext, ast.Call, ast.AST]]:
    """The one multi-process Lightning ``Trainer`` of the scripts beside a file that has none, when
    that script names one of the file's Lightning classes (``from data import MyData``)."""
    from preflight.analysis.project_imports import sibling_modules

    if any(q.rsplit(".", 1)[-1] == "Trainer" and is_lightning_qual(q) for _c, q in calls(ctx)):
        return None
    found = []
    for other, _display in sibling_modules(ctx, "Trainer"):
        if other is ctx:
            continue
        multi = multi_process_trainer(other)
        used = any(isinstance(n, ast.Name) and n.id in names for n in other.nodes(ast.Name)) or any(
            a.name in names for n in other.nodes(ast.ImportFrom) for a in n.names)
        if any(q.rsplit(".", 1)[-1] == "Trainer" and is_lightning_qual(q) for _c, q in calls(other)):
            found.append((other, multi, used))
    if len(found) != 1 or found[0][1] is None or not found[0][2]:
        return None
    other, multi, _used = found[0]
    assert multi is not None
    return other, multi[0], multi[1]


@register
class DownloadInSetupPerRank(Rule):
    code = "PF276"
    name = "download-in-setup-per-rank"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    summary = ("A Lightning `setup()` downloads the dataset (`download=True`) on every process of a "
               "multi-process run, with no `prepare_data`")
    frameworks = ("lightning",)
    needs_text = ("download", "setup")
    explanation = """
## What it finds

A `LightningDataModule` or `LightningModule` whose `setup()` builds a dataset with a literal
`download=True` (`torchvision.datasets.MNIST(root, download=True)`, and any other
`download=True` call), or saves a Hugging Face dataset to one path (`tok.save_to_disk(CACHE)`, not
under a rank or file-exists check, the path not naming the rank), while the class defines no
`prepare_data()` hook, in a file whose one Lightning `Trainer` runs several processes
(`devices=4`, `devices=-1`, a list of several devices, `num_nodes=2`, or a
`ddp`/`fsdp`/`deepspeed` strategy). When the class's file has no Trainer, the one Lightning
Trainer of the scripts beside it counts, if that script names the class
(`from data import TextData`).

## Why it matters

Lightning calls `prepare_data()` once per node (on local rank 0, before the others go on) and
`setup()` on every process. A download in `setup()` therefore runs on every rank at once, into
the same directory: the ranks write and extract the same archive concurrently, and one rank can
read a file another is still writing (truncated archives, "File not found or corrupted",
different data on different ranks). Lightning's own README example had this shape and was fixed
by moving the download into `prepare_data` (Lightning-AI/pytorch-lightning PR 17766: "If run on
a distributed environment, the downloading step creates a race condition that can corrupt
data"). lightning-transformers issue 7 ("Ensure load_dataset only downloads data on one process
when using DDP") is the `datasets` form: tokenised Arrow files written in `setup()` by every rank.
The Lightning docs say the same ("download, tokenize... in `prepare_data`; `setup` is
called on every process").

## How to fix it

```python
def prepare_data(self):
    MNIST(self.data_dir, train=True, download=True)   # once per node

def setup(self, stage):
    full = MNIST(self.data_dir, train=True, transform=self.transform)   # every process: load only
```

## When preflight stays silent

* The class defines `prepare_data()` (the download there has already run when `setup()`
  checks the files: torchvision's `download=True` skips a complete download).
* The file's Trainer runs one process (no `devices` above one, no distributed strategy), or the
  file has no Trainer or several (the run is configured elsewhere: not known to be
  multi-process).
* `download=` is not the literal `True` (a flag read from the configuration).
* `load_dataset(...)` and `.map(...)` alone (`datasets` locks its own download and cache files);
  a `save_to_disk` under `if self.trainer.is_global_zero:` or `if not os.path.exists(...)`, or to
  a path that names the rank.
* The Trainer script beside the class's file does not name the class, or there are several
  Trainer scripts.
"""
    bad_examples = examples("preflight.rules.code._pf276_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf276_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = [c for c in lightning_classes(ctx) if method(c, "setup") is not None
                   and method(c, "prepare_data") is None]
        if not classes:
            return
        multi = multi_process_trainer(ctx)
        wctx = ctx
        if multi is None:
            beside = _trainer_beside(ctx, {c.name for c in classes})
            if beside is None:
                return
            wctx, trainer, why = beside
            where = f"{wctx.path.rsplit('/', 1)[-1]}:{trainer.lineno}"
        else:
            trainer, why = multi
            where = f"line {trainer.lineno}"
        for cls in classes:
            setup = method(cls, "setup")
            assert setup is not None
            for call, kind in _downloads(setup):
                what = (f"downloads with `{ast.unparse(call.func)}(..., download=True)`" if kind == "download"
                        else f"writes the dataset to one path with `{ast.unparse(call.func)}(...)`")
                act = ("downloads and extracts into the same directory at once and can corrupt the files or "
                       "read half-written ones" if kind == "download" else
                       "writes the same files at once (and reads them back while another rank is still "
                       "writing): they overwrite each other or are read half-written")
                yield ctx.finding(
                    self, call,
                    f"`{cls.name}.setup()` {what}, and Lightning runs `setup()` on every process: the Trainer "
                    f"runs several (`{ast.unparse(why)}`, {where}), so every rank {act}. "
                    "Download and write in `prepare_data()` (run once per node) and only load in `setup()`",
                    evidence=[ctx.evidence(setup, "`setup()` runs on every process")]
                    + ([ctx.evidence(why, "the Trainer runs several processes")] if wctx is ctx else []))
