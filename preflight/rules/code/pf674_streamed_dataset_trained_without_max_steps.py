"""PF674 streamed-dataset-trained-without-max-steps: a ``load_dataset(..., streaming=True)`` training set handed to
the HF Trainer whose literal ``TrainingArguments`` give no ``max_steps``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, is_from, kwarg
from preflight.rules.base import Rule, examples

_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")
_TRAINERS = ("Trainer", "Seq2SeqTrainer")
# IterableDataset methods that return another IterableDataset (still without a length)
_KEEPS_STREAM = frozenset({"map", "filter", "cast_column", "cast", "shuffle", "remove_columns", "rename_column",
                           "rename_columns", "select_columns", "with_format", "take", "skip", "batch"})


def _streaming_load(call: ast.AST, qual_of: dict[int, str]) -> Optional[bool]:
    """True for ``load_dataset(..., split=..., streaming=True)``, False for one without ``split`` (a dict of
    streams), None otherwise."""
    if not isinstance(call, ast.Call) or not is_from(qual_of.get(id(call), ""), "datasets", "load_dataset"):
        return None
    flag = kwarg(call, "streaming")
    if not (isinstance(flag, ast.Constant) and flag.value is True):
        return None
    return kwarg(call, "split") is not None


def _streamed_names(ctx: FileContext, qual_of: dict[int, str]) -> tuple[set[str], set[str]]:
    """(names bound to a stream, names bound to a dict of streams), in line order of the assignments."""
    streams: set[str] = set()
    dicts: set[str] = set()
    assigns = sorted((n for n in ctx.nodes(ast.Assign) if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)),
                     key=lambda n: (n.lineno, n.col_offset))
    for node in assigns:
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        name, value = target.id, node.value
        loaded = _streaming_load(value, qual_of)
        is_stream = loaded is True or (loaded is None and _is_stream(value, streams, dicts))
        streams.discard(name)
        dicts.discard(name)
        if is_stream:
            streams.add(name)
        elif loaded is False:
            dicts.add(name)
    return streams, dicts


def _is_stream(value: ast.AST, streams: set[str], dicts: set[str]) -> bool:
    if isinstance(value, ast.Name):
        return value.id in streams
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        return value.value.id in dicts and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _KEEPS_STREAM:
        return _is_stream(value.func.value, streams, dicts)
    return False


@register
class StreamedDatasetTrainedWithoutMaxSteps(Rule):
    code = "PF674"
    name = "streamed-dataset-trained-without-max-steps"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("streaming", "TrainingArguments")
    summary = ("a `load_dataset(..., streaming=True)` training set given to the Trainer while `TrainingArguments` "
               "set no `max_steps`: \"The train_dataset does not implement __len__, max_steps has to be specified\"")
    explanation = """
## What it finds

A script whose training set comes from `datasets.load_dataset(..., streaming=True)` (an
`IterableDataset`, also after `.map`/`.filter`/`.cast_column`/`.shuffle`/`.take`..., or
`ds["train"]` of a streamed `IterableDatasetDict`) and is passed as `train_dataset=` to
`transformers.Trainer`/`Seq2SeqTrainer`, while every `TrainingArguments`/`Seq2SeqTrainingArguments`
call of the file is literal and has no `max_steps`.

## Why it matters

A streamed dataset has no length, so the Trainer cannot turn `num_train_epochs` into a number of
optimizer steps for the learning-rate schedule. `Trainer.__init__` checks `if train_dataset is not
None and not has_length(train_dataset) and args.max_steps <= 0` and raises "ValueError: The
train_dataset does not implement __len__, max_steps has to be specified. The number of steps needs
to be known in advance for the learning rate scheduler." (datasets issue 5773, a Whisper
fine-tune). `max_steps` defaults to -1.

## How to fix it

Give `max_steps=` (the stream is then repeated or cut to that many optimizer steps), or load the
dataset without `streaming=True`.

## When preflight stays silent

* Any arguments call passes `max_steps` or `**kwargs`, the file sets `.max_steps` on an object, or
  the arguments come from `HfArgumentParser` (the launch line may give `--max_steps`).
* The training set is not traced to a streamed `load_dataset` by name in this file (a helper
  function, `Dataset.from_generator`, a materialised `Dataset.from_list(list(stream))`).
"""
    bad_examples = examples("preflight.rules.code._pf674_examples", "PF674_BAD")
    good_examples = examples("preflight.rules.code._pf674_examples", "PF674_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        pairs = list(calls(ctx))
        qual_of = {id(call): qual for call, qual in pairs}
        arg_calls = [c for c, q in pairs if any(is_from(q, "transformers", a) for a in _ARGS)]
        if not arg_calls or any(is_from(q, "transformers", "HfArgumentParser") for _, q in pairs):
            return
        if any(kwarg(c, "max_steps") is not None or has_unpacking(c) for c in arg_calls):
            return
        if any(isinstance(t, ast.Attribute) and t.attr == "max_steps"
               for node in ctx.nodes(ast.Assign) for t in node.targets):
            return
        streams, dicts = _streamed_names(ctx, qual_of)
        if not streams and not dicts:
            return
        for call, qual in pairs:
            if not any(is_from(qual, "transformers", t) for t in _TRAINERS):
                continue
            train = kwarg(call, "train_dataset")
            if train is None or not _is_stream(train, streams, dicts):
                continue
            yield ctx.finding(
                self, arg_calls[0],
                "these training arguments set no `max_steps` (default -1), but the Trainer's train_dataset "
                f"`{ast.unparse(train)}` is a streamed IterableDataset (load_dataset(..., streaming=True)) with no "
                "length: the Trainer cannot size the schedule from num_train_epochs and raises \"The train_dataset "
                "does not implement __len__, max_steps has to be specified\". Set max_steps=",
                evidence=[ctx.evidence(call, "the Trainer gets the stream here")])
            return
