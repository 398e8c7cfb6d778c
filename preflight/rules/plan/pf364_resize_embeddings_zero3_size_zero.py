"""PF364 resize-embeddings-zero3-size-zero: ``resize_token_embeddings`` under ZeRO-3 on a transformers pin
from 4.32.0 to 4.33.3, the releases that build the enlarged embedding inside ``zero.Init`` and then read a
size from its partitioned weight, whose local shape is 0."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._zero3_resizes import zero3_resizing_scripts

# What each release range reads from the partitioned weight's shape (0 under ZeRO-3), from
# transformers' modeling_utils.py at each tag (wheels 4.32.0, 4.32.1, 4.33.0-4.33.3, 4.34.0 read for det71):
# (first release, first release past the range, what breaks, the report, the fix a script can make)
_RELEASES = (
    ((4, 32), (4, 33, 2),
     "the untied output layer is resized to `new_embeddings.weight.shape[0]`, which is 0: the LM head loses "
     "every row",
     "transformers issue 25977, fixed by PR 26024 in 4.33.2", None),
    ((4, 33, 2), (4, 34),
     "`config.vocab_size` is set from `model_embeds.weight.shape[0]`, which is 0, and the first step fails "
     "at `logits.view(-1, self.config.vocab_size)` (\"shape '[-1, 0]' is invalid\")",
     "transformers issue 26398, fixed by PR 26259 in 4.34.0", "vocab_size"),
)


def _resizes(fn_body: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(fn_body) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "resize_token_embeddings"]


def _sets_vocab_size_after(tree: ast.AST, call: ast.Call) -> bool:
    """``model.config.vocab_size = ...`` (or ``setattr``-free attribute assignment) after the resize."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and node.lineno > call.lineno:
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "vocab_size":
                    return True
    return False


def _in_range(parts: tuple[int, ...], low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    padded = parts + (0,) * (3 - len(parts))
    return low + (0,) * (3 - len(low)) <= padded[:3] < high + (0,) * (3 - len(high))


@register
class ResizeEmbeddingsZero3SizeZero(PlanRule):
    code = "PF364"
    name = "resize-embeddings-zero3-size-zero"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "deepspeed")
    summary = ("`resize_token_embeddings` under ZeRO-3 on transformers 4.32.0-4.33.3: a size is read from the "
               "partitioned embedding weight, whose local shape is 0")
    explanation = """
## What it finds

`model.resize_token_embeddings(...)` in a job whose DeepSpeed config is ZeRO stage 3, in a
project that pins transformers from 4.32.0 to 4.33.3. The finding is on the resize call.

## Why it matters

From 4.32.0 (PR 25394) the enlarged embedding is built inside `deepspeed.zero.Init`, so its
weight is partitioned at once and `weight.shape[0]` is 0 on every rank. Two releases read a
size from it:

* 4.32.0 to 4.33.1: the untied output layer (Llama, Mistral, ...) is resized to
  `new_embeddings.weight.shape[0]`, i.e. to 0 rows (transformers issue 25977, fixed by PR
  26024 in 4.33.2).
* 4.33.2 and 4.33.3: `config.vocab_size` is set from `model_embeds.weight.shape[0]`, i.e. 0,
  and the first training step fails at `logits.view(-1, self.config.vocab_size)` with
  "shape '[-1, 0]' is invalid" (transformers issue 26398, fixed by PR 26259 in 4.34.0,
  which builds the new embedding outside `zero.Init`).

Read from `modeling_utils.py` of the 4.32.0, 4.32.1, 4.33.0, 4.33.1, 4.33.2, 4.33.3 and 4.34.0
wheels. Pins before 4.32 have another ZeRO-3 resize bug (PF348).

## How to fix it

Upgrade transformers to 4.34.0 or later. On 4.33.2/4.33.3, set
`model.config.vocab_size = len(tokenizer)` right after the resize (the workaround in issue
26398).

## When preflight stays silent

* No ZeRO-3 in the plan, no transformers pin, a pin outside 4.32.0-4.33.3, or a lower bound.
* On 4.33.2/4.33.3, the script assigns `...vocab_size` after the resize.
"""
    bad_examples = examples("preflight.rules.plan._pf364_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf364_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for zero3, script, version in zero3_resizing_scripts(pctx):
            row: Optional[tuple] = next((r for r in _RELEASES if _in_range(version.parts, r[0], r[1])), None)
            if row is None:
                continue
            _, _, breaks, report, workaround = row
            for node in _resizes(script.tree):
                if workaround == "vocab_size" and _sets_vocab_size_after(script.tree, node):
                    continue
                evidence = [e for e in [pctx.fact_evidence(zero3, "ZeRO stage 3")] if e is not None]
                fix = ("set `model.config.vocab_size = len(tokenizer)` after the resize, or upgrade to 4.34.0"
                       if workaround else "upgrade transformers to 4.34.0 or later")
                yield pctx.code_finding(self, script, node, (
                    f"`{ast.unparse(node)}` under ZeRO-3 on {version.describe()}: this release builds the enlarged "
                    f"embedding inside `zero.Init`, so its weight is partitioned and its local shape is 0, and "
                    f"{breaks} ({report}). Fix: {fix}"), evidence=evidence)
