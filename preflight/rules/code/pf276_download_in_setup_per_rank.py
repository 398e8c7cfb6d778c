"""PF276 download-in-setup-per-rank: a Lightning ``setup()`` that downloads a dataset
(``download=True``) in a multi-process run, with no ``prepare_data``."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf27x_support import lightning_classes, method, multi_process_trainer


def _downloads(fn: ast.FunctionDef) -> list[ast.Call]:
    """Calls in ``fn`` with a literal ``download=True``."""
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "download" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                    out.append(node)
    return out


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
`download=True` call), while the class defines no `prepare_data()` hook, in a file whose one
Lightning `Trainer` runs several processes (`devices=4`, `devices=-1`, a list of several
devices, `num_nodes=2`, or a `ddp`/`fsdp`/`deepspeed` strategy).

## Why it matters

Lightning calls `prepare_data()` once per node (on local rank 0, before the others go on) and
`setup()` on every process. A download in `setup()` therefore runs on every rank at once, into
the same directory: the ranks write and extract the same archive concurrently, and one rank can
read a file another is still writing (truncated archives, "File not found or corrupted",
different data on different ranks). Lightning's own README example had this shape and was fixed
by moving the download into `prepare_data` (Lightning-AI/pytorch-lightning PR 17766: "If run on
a distributed environment, the downloading step creates a race condition that can corrupt
data"); the Lightning docs say the same ("download, tokenize... in `prepare_data`; `setup` is
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
"""
    bad_examples = examples("preflight.rules.code._pf276_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf276_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = [c for c in lightning_classes(ctx) if method(c, "setup") is not None
                   and method(c, "prepare_data") is None]
        if not classes:
            return
        multi = multi_process_trainer(ctx)
        if multi is None:
            return
        trainer, why = multi
        for cls in classes:
            setup = method(cls, "setup")
            assert setup is not None
            for call in _downloads(setup):
                yield ctx.finding(
                    self, call,
                    f"`{cls.name}.setup()` downloads with `{ast.unparse(call.func)}(..., download=True)`, and "
                    f"Lightning runs `setup()` on every process: the Trainer runs several "
                    f"(`{ast.unparse(why)}`, line {trainer.lineno}), so every rank downloads and extracts into "
                    "the same directory at once and can corrupt the files or read half-written ones. Download "
                    "in `prepare_data()` (run once per node) and only load in `setup()`",
                    evidence=[ctx.evidence(setup, "`setup()` runs on every process"),
                              ctx.evidence(why, "the Trainer runs several processes")])
