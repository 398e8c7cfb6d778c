"""PF154 predict-with-generate-without-labels: ``Seq2SeqTrainer.predict`` with ``predict_with_generate=True`` on
a dataset built in the script without labels, for a T5/Pegasus/Marian model, on transformers 4.15 to 4.23:
``prediction_step`` runs ``model(**inputs)`` for a loss even without labels, and those models cannot run a
forward pass without decoder inputs."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last, const_str, last_name
from preflight.rules.base import examples
from preflight.rules.plan._pinned_release import pinned_version, released_between

# trainer_seq2seq.py prediction_step calls `outputs = model(**inputs)` outside `if has_labels:` at 4.15.0 (:177),
# 4.21.2 (:212), 4.22.2 and 4.23.1 (:212); 4.24.0 moves it under `if has_labels:` (:211-213)
_LOW, _FIXED = (4, 15), (4, 24)
# encoder-decoder families whose forward needs decoder_input_ids (or labels) and does not derive them from
# input_ids (BART/mBART shift input_ids themselves and are left out)
_NEEDS_DECODER = re.compile(r"(?i)(^|[/\-_.])(m|by|flan-?|long)?t5|pegasus|opus-mt|marian|ul2")
_CLASSES = ("T5ForConditionalGeneration", "MT5ForConditionalGeneration", "PegasusForConditionalGeneration",
            "MarianMTModel", "LongT5ForConditionalGeneration")
_BUILDERS = ("from_dict", "from_list", "from_pandas", "from_generator")
_CHAIN = ("map", "remove_columns", "select", "filter", "with_format", "set_format", "shuffle", "rename_column")


def _model_needs_decoder(tree: ast.AST) -> Optional[str]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        last = call_last(node)
        head = node.func.value if isinstance(node.func, ast.Attribute) else None
        owner = last_name(head) if head is not None else ""
        if last == "from_pretrained" and owner in _CLASSES:
            return owner
        if last == "from_pretrained" and owner == "AutoModelForSeq2SeqLM" and node.args:
            name = const_str(node.args[0])
            if name is None and isinstance(node.args[0], ast.Name):
                name = _constant_of(tree, node.args[0].id)
            if name is not None and _NEEDS_DECODER.search(name):
                return name
    return None


def _constant_of(tree: ast.AST, name: str) -> Optional[str]:
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
    return const_str(values[0]) if len(values) == 1 else None


def _label_free(tree: ast.AST, name: str, depth: int = 0) -> bool:
    """Every binding of ``name`` is ``Dataset.from_dict/from_list(...)`` or a map/remove_columns/... of a name that
    is itself label free (the script never writes ``label`` anywhere: checked by the caller)."""
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
    if not values or depth > 5:
        return False
    for value in values:
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
            return False
        last = value.func.attr
        base = value.func.value
        if last in _BUILDERS and isinstance(base, ast.Name) and base.id in ("Dataset", "IterableDataset"):
            continue
        if last in _CHAIN and isinstance(base, ast.Name) \
                and (base.id == name or _label_free(tree, base.id, depth + 1)):
            continue
        return False
    return True


@register
class PredictWithGenerateWithoutLabels(PlanRule):
    code = "PF154"
    name = "predict-with-generate-without-labels"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers",)
    summary = ("`Seq2SeqTrainer.predict` with `predict_with_generate=True` on a label-free dataset for a T5-like "
               "model on transformers 4.15-4.23: `prediction_step` still runs the model for a loss and fails")
    explanation = """
## What it finds

`Seq2SeqTrainingArguments(predict_with_generate=True)` and `trainer.predict(ds)` where `ds`
is built in the script (`Dataset.from_dict`/`from_list` and then `map`, `remove_columns`,
...) and nothing in the script names a label (`labels`, `text_target`, ...), the model is a
T5, mT5, Flan-T5, LongT5, Pegasus or Marian checkpoint, and the project pins transformers
4.15 to 4.23.

## Why it matters

On these releases `Seq2SeqTrainer.prediction_step` generates and then always runs
`outputs = model(**inputs)` to compute a loss (trainer_seq2seq.py at v4.15.0, v4.21.2,
v4.22.2, v4.23.1). Without labels those models have no decoder inputs and their forward pass
raises ("You have to specify either decoder_input_ids or decoder_inputs_embeds"), so predict
fails before any text is returned (transformers issue 19714, "Seq2SeqTrainer predict with
generate fails to run without labels"). 4.24.0 runs the model only `if has_labels:`.

## How to fix it

Generate directly with `model.generate(...)`, or upgrade to transformers 4.24.

## When preflight stays silent

* The script names labels anywhere, or the dataset comes from files or the Hub (its columns are
  not known).
* BART/mBART (their forward derives decoder inputs from `input_ids`), or an unknown model.
* transformers not pinned, or pinned outside 4.15 to 4.23.
"""
    bad_examples = examples("preflight.rules.plan._pf154_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf154_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.source.text
            if "predict_with_generate" not in text or "Seq2SeqTrainer" not in text or "label" in text.lower() \
                    or "text_target" in text or "as_target" in text:
                continue
            tree = script.tree
            generate = [c for c in ast.walk(tree) if isinstance(c, ast.Call)
                        and call_last(c) == "Seq2SeqTrainingArguments"
                        and isinstance(kwarg(c, "predict_with_generate"), ast.Constant)
                        and getattr(kwarg(c, "predict_with_generate"), "value", None) is True]
            trainers = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and call_last(c) == "Seq2SeqTrainer"]
            if not generate or not trainers or any(kwarg(t, "data_collator") is not None for t in trainers):
                continue
            model = _model_needs_decoder(tree)
            if model is None:
                continue
            version = pinned_version(pctx, "transformers", script)
            if version is None or not released_between(version, _LOW, _FIXED):
                continue
            for call in ast.walk(tree):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "predict" and call.args and isinstance(call.args[0], ast.Name)):
                    continue
                if not _label_free(tree, call.args[0].id):
                    continue
                yield pctx.code_finding(self, script, call, (
                    f"`predict({call.args[0].id})` with `predict_with_generate=True` on a dataset built without labels: "
                    f"on {version.describe()} `Seq2SeqTrainer.prediction_step` still runs `model(**inputs)` for a loss, "
                    f"and `{model}` cannot run a forward pass without labels or decoder inputs, so predict raises "
                    "before returning any text (transformers issue 19714; 4.24.0 runs it only with labels). Call "
                    "`model.generate` directly, or upgrade"))
                break
