"""PF488 padded-input-ids-copied-as-labels: labels copied from input_ids padded to max_length, the pad
positions never set to -100."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._input_ids import is_input_ids

# collators that rebuild the labels themselves (pads -> -100): PF421/PF465 judge those
_REBUILDERS = ("DataCollatorForLanguageModeling", "DataCollatorForCompletionOnlyLM", "DataCollatorForWholeWordMask")


def _pads_to_max_length(call: ast.Call) -> bool:
    padding = kwarg(call, "padding")
    if padding is not None and const_str(padding) == "max_length":
        return True
    legacy = kwarg(call, "pad_to_max_length")
    return isinstance(legacy, ast.Constant) and legacy.value is True


def _pads_dynamically(call: ast.Call) -> bool:
    padding = kwarg(call, "padding")
    if padding is None:
        return False
    return const_str(padding) == "longest" or (isinstance(padding, ast.Constant) and padding.value is True)


def _is_list_of_texts(expr: Optional[ast.AST], scope: ast.AST) -> bool:
    """``[e["text"] for e in examples]``, or a name the same function binds to such a comprehension
    (or to ``list(...)`` of one) or fills with ``.append`` from ``[]``: several texts, so
    ``padding=True`` pads every shorter row."""
    if isinstance(expr, ast.ListComp):
        return True
    if not isinstance(expr, ast.Name):
        return False
    empty = appended = False
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
            value = node.value
            if isinstance(value, ast.Call) and call_last(value) == "list" and len(value.args) == 1:
                value = value.args[0]
            if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
                return True
            empty = empty or (isinstance(value, ast.List) and not value.elts)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == expr.id:
            appended = True
    return empty and appended


def _batch_text(call: ast.Call) -> Optional[ast.AST]:
    """The texts a tokenizer call encodes: its first positional argument, else ``text=``/``text_target=``."""
    if call.args:
        return call.args[0]
    return kwarg(call, "text") or kwarg(call, "text_target")


def _pads(ctx: FileContext, call: ast.Call) -> bool:
    """A tokenizer call whose rows carry padding: ``padding="max_length"`` always; ``padding=True`` (or
    ``"longest"``) when it encodes a list of several texts built in the same function (a
    collator's batch), where every row shorter than the longest is padded."""
    if _pads_to_max_length(call):
        return True
    if not _pads_dynamically(call):
        return False
    scope = ctx.enclosing_function(call)
    return scope is not None and _is_list_of_texts(_batch_text(call), scope)


def _bound_once(scope: ast.AST) -> dict[str, ast.AST]:
    """Names the scope binds exactly once (plain ``name = value``), with their value."""
    seen: dict[str, list[ast.AST]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    seen.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            seen.setdefault(node.target.id, []).extend([node, node])
    return {name: values[0] for name, values in seen.items() if len(values) == 1}


def _labels_sites(scope: ast.AST) -> list[ast.AST]:
    """Where ``labels`` get input_ids: ``labels = <ids copy>``, ``x["labels"] = <ids>``, a ``labels=<ids>``
    keyword, a ``{"labels": <ids>}`` entry."""
    out: list[ast.AST] = []
    bound = _bound_once(scope)
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in bound and \
                isinstance(bound[node.value.id], ast.Call) and is_input_ids(bound[node.value.id]) and any(
                    isinstance(t, ast.Subscript) and const_str(t.slice) == "labels" for t in node.targets):
            out.append(node)  # `y = target["input_ids"].squeeze(0)`, then `item["labels"] = y`
        elif isinstance(node, ast.Assign) and is_input_ids(node.value):
            for target in node.targets:
                if (isinstance(target, ast.Name) and target.id == "labels") or (
                        isinstance(target, ast.Subscript) and const_str(target.slice) == "labels"):
                    if isinstance(target, ast.Name) and not isinstance(node.value, ast.Call):
                        continue  # `labels = input_ids` alone is an alias; its use is judged
                    out.append(node)
        elif isinstance(node, ast.keyword) and node.arg == "labels" and is_input_ids(node.value):
            out.append(node.value)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if key is not None and const_str(key) == "labels" and is_input_ids(value) and \
                        not isinstance(value, ast.Name):
                    out.append(value)
    return out


def _masks(ctx: FileContext) -> bool:
    """The file writes -100 (or an ignore index) somewhere: it masks labels itself."""
    text = ctx.parsed.source.text
    if "ignore_index" in text.lower() or any(name in text for name in _REBUILDERS):
        return True
    if "import flax" in text or "from flax" in text or "import jax" in text:
        return True  # the Flax examples weight their own loss by the (decoder) attention mask
    for node in ctx.nodes(ast.UnaryOp):
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and node.operand.value == 100:
            return True
    return False


@register
class PaddedInputIdsCopiedAsLabels(Rule):
    code = "PF488"
    name = "padded-input-ids-copied-as-labels"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("max_length", "padding", "pad_token_id")
    summary = "labels copied from input_ids padded to max_length: the loss is computed on the padding"
    explanation = """
## What it finds

A function that tokenizes with `padding="max_length"` (or `pad_to_max_length=True`), or
that pads a list of several texts it built itself to the longest one (`padding=True` or
`"longest"` on `[e["summary"] for e in examples]`, as a hand-written collator does), and
uses the padded `input_ids` as the labels (`labels = input_ids.clone()`,
`enc["labels"] = enc["input_ids"].copy()`, `model(..., labels=input_ids)`,
`{"labels": ...input_ids...}`, or through a name the function binds once to such ids:
`y = target["input_ids"].squeeze(0)` then `item["labels"] = y`, as a T5 summary Dataset
handed to the Trainer does), in a file that never writes `-100` (nor an
`ignore_index`) and uses no collator that rebuilds the labels.

Also a Trainer subclass's `compute_loss` that copies the batch's ids as the labels of its own
loss (`labels = input_ids.clone()` then `F.cross_entropy(..., labels[:, 1:]...)`, or `labels=` to
the model) in a file that tokenizes with `padding="max_length"`, when the function never masks
them (no `torch.where`/`masked_fill`, no comparison with the attention mask or the pad id, no
write into the labels, no `ignore_index` other than -100): TRL PR 1625, "[ORPO] Correct label
mask for pad tokens" (the NLL term copied input_ids into labels and the loss included padding).

## Why it matters

transformers' language-model losses ignore only label `-100` (`CrossEntropyLoss`'s
default `ignore_index`; `loss_utils.py` `ForCausalLMLoss`); the attention mask does not
reach the loss. Every pad position of a max-length row stays a target, so most of the
loss is "predict the pad token after a pad token": the reported loss drops fast for the
wrong reason and, with pad = EOS, the model learns to emit EOS runs
(hengjiUSTC/learn-llm#2, open-jarvis/OpenJarvis#521). A seq2seq collator that pads the
targets with `tokenizer(text_target=..., padding=True)` and uses their `input_ids` as
labels trains the model to emit pad tokens after each summary: `DataCollatorForSeq2Seq`
pads labels with `label_pad_token_id=-100` for this reason (JulesBelveze/bert-squeeze#80).

## How to fix it

`labels[attention_mask == 0] = -100` (or pad labels with `-100`, or let
`DataCollatorForLanguageModeling(mlm=False)` build them).

## When preflight stays silent

* The file writes `-100` or mentions an `ignore_index`, or uses
  `DataCollatorForLanguageModeling`/`DataCollatorForCompletionOnlyLM` (which rebuild the labels).
* The file imports Flax/JAX (the Flax examples weight their own loss by the attention mask).
* The tokenizer call pads dynamically (`padding=True`/`"longest"`) texts it did not build
  as a list itself (one example, or a parameter: a row may have no padding at all), or
  does not pad at all (`group_texts` blocks, as `run_clm.py`).
* The tokenizer call and the labels are in different functions, except in a Trainer subclass's
  `compute_loss` (below).
* A row padded by hand (`padded = ids + [tokenizer.pad_token_id] * n`) and copied as
  the labels (`label = padded.copy()`) is reported even when the function masks the
  prompt with -100 (OneRec-Think issue 8: only the text before the user turn was
  masked); it stays silent when the function compares with the pad id, pads labels
  with `[-100] * n`, or writes from a lower bound on (`label[len(ids):] = ...`) or
  through a mask (`label[mask == 0] = -100`), or when the file names an `ignore_index`
  (a VLM collator that pads labels with the pad id for a model whose own loss is
  `CrossEntropyLoss(ignore_index=pad_token_id)`, found in public code, is correct).
* Rows padded by `pad_sequence(..., padding_value=pad_id)` and copied as labels: the
  collators found this way (sam-byron/finance_chatbot) pad fixed-size chunks of the
  block size, where nothing is padded; PF125 judges `pad_sequence` targets of a
  cross-entropy.
"""
    bad_examples = examples("preflight.rules.code._pf488_examples", "PF488_BAD")
    good_examples = examples("preflight.rules.code._pf488_examples", "PF488_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        yield from self._hand_padded(ctx)
        pads = [c for c in ctx.nodes(ast.Call) if _pads(ctx, c)]
        if not pads:
            return
        yield from self._compute_loss(ctx, pads)
        if _masks(ctx):
            return
        seen: set[int] = set()
        for pad in pads:
            scope: Optional[ast.AST] = ctx.enclosing_function(pad) or ctx.tree
            if scope is None or id(scope) in seen:
                continue
            seen.add(id(scope))
            for site in _labels_sites(scope):
                if ctx.enclosing_function(site) is not ctx.enclosing_function(pad):
                    continue
                how = "to max_length" if _pads_to_max_length(pad) else "to the batch's longest row"
                where = ("padded to max_length here" if _pads_to_max_length(pad) else
                         "a list of texts padded to its longest row here")
                yield ctx.finding(
                    self, site,
                    f"the labels are a copy of `input_ids` padded {how} and no pad position is set to -100: "
                    "the language-model loss ignores only -100, so every padding token is a training target (the "
                    "loss drops for the wrong reason; with pad = EOS the model learns to emit EOS). Set "
                    "`labels[attention_mask == 0] = -100`",
                    evidence=[ctx.evidence(pad, where)])
                return

    def _compute_loss(self, ctx: FileContext, pads: list[ast.Call]) -> Iterable[Finding]:
        """A Trainer subclass's ``compute_loss`` that copies ``input_ids`` as the labels of its own loss
        (TRL PR 1625), in a file whose rows are padded to max_length and no collator rebuilds labels."""
        from preflight.rules.code._pf488_compute_loss import compute_loss_copies

        text = ctx.parsed.source.text
        padded = [p for p in pads if _pads_to_max_length(p)]
        if not padded or "compute_loss" not in text or any(name in text for name in _REBUILDERS):
            return
        for site in compute_loss_copies(ctx.tree):
            yield ctx.finding(
                self, site,
                "`compute_loss` copies the batch's `input_ids` as the labels of its loss and never masks the pad "
                "positions, while the rows are padded to max_length: every padding token is a target (with pad = "
                "EOS the loss is dominated by predicting padding and reads misleadingly low; `ignore_index=-100` "
                "ignores nothing, no label is -100). Set the labels to -100 where `attention_mask == 0`",
                evidence=[ctx.evidence(padded[0], "the rows are padded to max_length here")])

    def _hand_padded(self, ctx: FileContext) -> Iterable[Finding]:
        """A row padded by hand with the pad id and copied as the labels (a custom collator)."""
        from preflight.rules.code._pf488_manual import hand_padded_label_copies

        text = ctx.parsed.source.text
        if "pad" not in text or "ignore_index" in text:
            return  # a loss of the file's own may ignore the pad id (`CrossEntropyLoss(ignore_index=pad_id)`)
        for fn in [*ctx.nodes(ast.FunctionDef), *ctx.nodes(ast.AsyncFunctionDef)]:
            for copy, pad in hand_padded_label_copies(fn):
                yield ctx.finding(
                    self, copy,
                    "the labels are a copy of a row padded by hand with the pad id, and no pad position of the copy "
                    "is set to -100: the language-model loss ignores only -100, so every padding token is a "
                    "training target. Pad the labels with -100 instead (`list(ids) + [-100] * n`)",
                    evidence=[ctx.evidence(pad, "the row is padded with the pad id here")])
