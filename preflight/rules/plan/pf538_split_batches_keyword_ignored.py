"""PF538 split-batches-keyword-ignored: ``Accelerator(split_batches=...)`` on accelerate 1.x, which accepts
the keyword and ignores it."""

from __future__ import annotations

import ast
import textwrap
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import version_gate
from preflight.rules.base import examples

_ACCELERATOR = ("accelerate.Accelerator", "accelerate.accelerator.Accelerator")


@register
class SplitBatchesKeywordIgnored(PlanRule):
    code = "PF538"
    name = "split-batches-keyword-ignored"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("accelerate",)
    summary = "`Accelerator(split_batches=...)` is accepted but ignored since accelerate 1.0: use `DataLoaderConfiguration`"
    explanation = textwrap.dedent("""
    ## What it finds

    `Accelerator(split_batches=...)` in a project that declares accelerate 1.0 or later (a warning), or no
    accelerate version at all (a note: the latest release is what gets installed).

    ## Why it matters

    accelerate 1.0 ("The Great Deprecation", huggingface/accelerate PR 3098) moved the data-loader options
    to `DataLoaderConfiguration`. `dispatch_batches`, `even_batches` and `use_seedable_sampler` were
    removed from `Accelerator.__init__` (passing them raises a TypeError), but `split_batches` stayed in its
    signature and the code that applied it was removed: the keyword is accepted and does nothing
    (`src/accelerate/accelerator.py` of v1.0.0 to v1.9.0; accelerate issue 3177: "You can pass
    Accelerator(split_batches=True), but it will still be False"). A script that builds its loader with
    the global batch and relies on the split then gives every process the whole batch: with 4 processes
    the effective batch, and the step count per epoch, change by a factor of 4 without any message.

    ## How to fix it

    ```python
    from accelerate.utils import DataLoaderConfiguration
    accelerator = Accelerator(dataloader_config=DataLoaderConfiguration(split_batches=True))
    ```

    ## When preflight stays silent

    * The project declares an accelerate release before 1.0 (`accelerate==0.34.2`), or a lower bound
      below 1.0 (either line may be installed).
    * The launch runs one process (nothing is split then).
    * `split_batches` is passed inside `DataLoaderConfiguration(...)`, or is a literal `False` (the default,
      so ignoring it changes nothing).
""")
    bad_examples = examples("preflight.rules.plan._pf538_examples", "PF538_BAD")
    good_examples = examples("preflight.rules.plan._pf538_examples", "PF538_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        world = pctx.plan.resolve("dist.world_size")
        if world is not None and world.value == 1:
            return
        for script in pctx.scripts:
            if "split_batches" not in script.source.text:
                continue
            for site in pctx.index(script).calls:
                if (site.qualified or "") not in _ACCELERATOR:
                    continue
                expr = site.kwarg("split_batches")
                if expr is None or (isinstance(expr, ast.Constant) and expr.value is False):
                    continue  # ignoring `False` changes nothing: it is the default
                gate = version_gate(pctx, "accelerate", script, (1,), "1.x")
                if gate is None:
                    continue
                how, declared = gate
                finding = pctx.code_finding(
                    self, script, expr,
                    f"`Accelerator(split_batches=...)` does nothing since accelerate 1.0 ({how}): the keyword is "
                    "still accepted, but the batch split is read only from `DataLoaderConfiguration`, so every "
                    "process draws the loader's whole batch and the effective batch grows with the number of "
                    "processes. Pass `dataloader_config=DataLoaderConfiguration(split_batches=...)`")
                if not declared:
                    finding.severity = Severity.NOTE
                yield finding
