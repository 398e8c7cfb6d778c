"""PF590 trainer-default-collator-on-ragged-rows: a Trainer without ``data_collator`` gets a dataset
whose rows were tokenized to different lengths."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, is_from, kwarg, target_text
from preflight.rules._pf414_support import const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._input_ids import is_input_ids

_TRAINERS = ("Trainer", "Seq2SeqTrainer")
# Trainer(model, args, data_collator, train_dataset, eval_dataset, processing_class/tokenizer, ...)
_COLLATOR_POS, _TRAIN_POS, _EVAL_POS, _TOKENIZER_POS = 2, 3, 4, 5
_INPUT_ONLY_COLLATORS = ("DataCollatorWithPadding", "DataCollatorForLanguageModeling")


def _trainer_classes(ctx: FileContext) -> set[str]:
    """Local subclasses of the transformers Trainer (``class WeightedTrainer(Trainer)``)."""
    return {cls.name for cls in ctx.nodes(ast.ClassDef)
            if any(ast.unparse(b).rsplit(".", 1)[-1] in _TRAINERS for b in cls.bases)}


def _arg(call: ast.Call, name: str, pos: int) -> Optional[ast.expr]:
    value = kwarg(call, name)
    if value is None and len(call.args) > pos:
        value = call.args[pos]
    return value


def _is_tokenizer_call(call: ast.Call) -> bool:
    """``tokenizer(...)``, ``self.tokenizer(...)``, ``tokenizer.encode(...)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("encode", "__call__", "encode_plus", "apply_chat_template"):
        func = func.value
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name.lower().endswith("tokenizer")


def _pads(call: ast.Call) -> bool:
    """Any padding asked of the tokenizer (``max_length`` pads every row alike; ``True`` pads a
    batched map's rows alike within a batch): the rows may be equal, so the rule stays out."""
    padding = kwarg(call, "padding")
    if padding is not None and not (isinstance(padding, ast.Constant) and padding.value in (False, None)) and \
            const_str(padding) != "do_not_pad":
        return True
    legacy = kwarg(call, "pad_to_max_length")
    return legacy is not None and not (isinstance(legacy, ast.Constant) and legacy.value is False)


def _input_only_collator(ctx: FileContext, expr: Optional[ast.expr], before: ast.AST) -> Optional[str]:
    """``DataCollatorWithPadding(...)`` / ``DataCollatorForLanguageModeling(...)`` (inline, or a name
    bound to one before the Trainer): collators that pad through ``tokenizer.pad``, which pads the
    model inputs and converts every other key (``labels``) as it is."""
    if isinstance(expr, ast.Name):
        bound = [n for n in ctx.nodes(ast.Assign) if n.lineno < getattr(before, "lineno", 0)
                 and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        expr = max(bound, key=lambda n: n.lineno).value if bound else None
    if isinstance(expr, ast.Call):
        func = expr.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in _INPUT_ONLY_COLLATORS:
            return name
    return None


def _map_function(ctx: FileContext, call: ast.Call) -> Optional[ast.FunctionDef]:
    """The function of the file a ``ds.map(fn, ...)`` runs: ``fn`` defined here, or the inner
    function a factory of the file returns (``ds.map(build_example(tokenizer))``)."""
    fn = call.args[0] if call.args else kwarg(call, "function")
    defs = {d.name: d for d in ctx.nodes(ast.FunctionDef)}
    if isinstance(fn, ast.Name):
        return defs.get(fn.id)
    if isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name) and fn.func.id in defs:
        factory = defs[fn.func.id]
        inner = {d.name: d for d in factory.body if isinstance(d, ast.FunctionDef)}
        for node in ast.walk(factory):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id in inner:
                return inner[node.value.id]
    return None


def _unwrap_copy(expr: ast.AST) -> ast.AST:
    """``list(x)``, ``x.copy()``, ``x[:]``, ``copy.deepcopy(x)`` -> ``x``."""
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("copy", "clone") and not expr.args:
            return _unwrap_copy(expr.func.value)
        name = expr.func.id if isinstance(expr.func, ast.Name) else \
            expr.func.attr if isinstance(expr.func, ast.Attribute) else ""
        if name in ("list", "deepcopy") and len(expr.args) == 1:
            return _unwrap_copy(expr.args[0])
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice) and expr.slice.lower is None \
            and expr.slice.upper is None:
        return _unwrap_copy(expr.value)
    return expr


def _masked_label_lists(fn: ast.FunctionDef, name: str) -> bool:
    """``name`` is bound in ``fn`` to label lists built with -100 (``[[-100] * len(p) + f[len(p):]
    for p, f in ...]``): one list per row, as long as its text."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and isinstance(node.value, (ast.ListComp, ast.List, ast.BinOp)):
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.UnaryOp) and isinstance(sub.op, ast.USub) and \
                        isinstance(sub.operand, ast.Constant) and sub.operand.value == 100:
                    return True
    return False


def _labels_from_ids(fn: ast.FunctionDef) -> bool:
    """The function returns token-level labels copied from its ids (``"labels": list(input_ids)``,
    or the same list as the row's ``"input_ids"``): a list per row that ``DataCollatorWithPadding``
    does not pad."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Dict):
            entries = {const_str(k): v for k, v in zip(node.keys, node.values) if k is not None}
            labels, ids = entries.get("labels"), entries.get("input_ids")
            if labels is None:
                continue
            if is_input_ids(labels):
                return True
            if ids is not None and ast.dump(_unwrap_copy(labels)) == ast.dump(_unwrap_copy(ids)):
                return True
            if isinstance(labels, ast.Name) and _masked_label_lists(fn, labels.id):
                return True
        elif isinstance(node, ast.Assign) and (is_input_ids(node.value) or _copied_rows(node.value)) and any(
                isinstance(t, ast.Subscript) and const_str(t.slice) == "labels" for t in node.targets):
            return True
    return False


def _copied_rows(expr: ast.AST) -> bool:
    """A batched map's row-by-row copy of the ids: ``[ids.copy() for ids in enc["input_ids"]]``,
    ``[list(x) for x in input_ids]`` (transformers issue 24546)."""
    if not (isinstance(expr, ast.ListComp) and len(expr.generators) == 1):
        return False
    gen = expr.generators[0]
    copied = _unwrap_copy(expr.elt)
    return not gen.ifs and is_input_ids(gen.iter) and isinstance(gen.target, ast.Name) \
        and isinstance(copied, ast.Name) and copied.id == gen.target.id


def _ragged_map(ctx: FileContext, name: str, before: ast.AST) -> Optional[tuple[ast.Call, ast.FunctionDef]]:
    """The ``name = ds.map(fn, ...)`` that last binds ``name`` before ``before``, when ``fn`` (a
    function of this file) tokenizes without padding: its rows keep each text's length."""
    last: Optional[ast.Assign] = None
    for node in ctx.nodes(ast.Assign):
        if node.lineno >= getattr(before, "lineno", 0):
            continue
        if any(target_text(t) == name for t in node.targets) and (last is None or node.lineno > last.lineno):
            last = node
    if last is None or not isinstance(last.value, ast.Call):
        return None
    value = last.value
    if not (isinstance(value.func, ast.Attribute) and value.func.attr == "map"):
        return None
    fn = _map_function(ctx, value)
    if fn is None:
        return None
    tokenizes = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and _is_tokenizer_call(c)]
    if not tokenizes or any(_pads(c) for c in tokenizes):
        return None
    return value, fn


def _dataset_name(node: Optional[ast.expr]) -> Optional[str]:
    if isinstance(node, ast.Subscript):  # ds["train"] of a mapped DatasetDict
        return target_text(node.value)
    return target_text(node) if node is not None else None


@register
class TrainerDefaultCollatorOnRaggedRows(Rule):
    code = "PF590"
    needs_text = ("Trainer",)
    name = "trainer-default-collator-on-ragged-rows"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("The HF Trainer gets no `data_collator` for rows tokenized to different lengths: the default "
               "collator cannot stack them and the first batch fails")
    explanation = """
## What it finds

`Trainer(...)` / `Seq2SeqTrainer(...)` (or a subclass of the file) with no `data_collator`
(or with `DataCollatorWithPadding`/`DataCollatorForLanguageModeling`),
whose `train_dataset`/`eval_dataset` is the result of `ds.map(fn, ...)` where `fn` is a
function of the same file (or the inner function a factory of the file returns) that calls
the tokenizer without any padding, and either

* no collator and no tokenizer is passed to the Trainer (`processing_class=`/`tokenizer=`), or
* `fn` also returns token-level `labels` (copied from its ids, `"labels": list(input_ids)`,
  or lists built with -100 for the prompt).

## Why it matters

transformers' `Trainer.__init__` picks `DataCollatorWithPadding(processing_class)` when a
tokenizer is given and `default_data_collator` otherwise (`trainer.py`: `default_collator =
DataCollatorWithPadding(processing_class) if processing_class is not None and isinstance(...,
PreTrainedTokenizerBase) else default_data_collator`). `default_data_collator` only stacks:
`torch.tensor([f[k] for f in features])` on rows of different lengths raises "expected
sequence of length ..." / "Unable to create tensor, you should probably activate truncation
and/or padding". `DataCollatorWithPadding` pads the tokenizer's inputs but hands `labels`
to the same conversion, so variable-length labels fail the same way; so does
`DataCollatorForLanguageModeling`, which pads through `tokenizer.pad` before it builds its
own labels (a long-context SFT run: "expected sequence of length 15757 at dim 1 (got
16242)"). The job dies on its
first batch, after the model was loaded (unslothai/notebooks#27: the Orpheus TTS notebook
needed `DataCollatorForSeq2Seq`).

## How to fix it

Pass a collator that pads every key: `data_collator=DataCollatorForSeq2Seq(tokenizer,
padding=True, label_pad_token_id=-100)` (pads `labels` with -100), or
`DataCollatorForLanguageModeling(tokenizer, mlm=False)` when the labels are the ids; or
tokenize with `padding="max_length"`.

## When preflight stays silent

* A `data_collator` other than `DataCollatorWithPadding`/`DataCollatorForLanguageModeling`
  is given (or the Trainer's arguments are unpacked from `**kwargs`).
* The tokenizer call in `fn` pads (`padding="max_length"`, `True`, `"longest"`).
* The dataset given to the Trainer is not the direct result of a tokenizing `map` of this
  file (`group_texts` blocks as in `run_clm.py`, a dataset class, a function of another file).
* A tokenizer (or one of those two collators) is given and `fn` returns no token-level
  labels: `DataCollatorWithPadding` pads `input_ids`/`attention_mask` itself, and
  `DataCollatorForLanguageModeling` builds its labels after padding.
"""
    bad_examples = examples("preflight.rules.code._pf590_examples", "PF590_BAD")
    good_examples = examples("preflight.rules.code._pf590_examples", "PF590_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        local = _trainer_classes(ctx)
        for call, qual in calls(ctx):
            if not (any(is_from(qual, "transformers", t) for t in _TRAINERS)
                    or (isinstance(call.func, ast.Name) and call.func.id in local)):
                continue
            if has_unpacking(call):
                continue
            given = _arg(call, "data_collator", _COLLATOR_POS)
            collator = _input_only_collator(ctx, given, call) if given is not None else None
            if given is not None and collator is None:
                continue
            tokenizer = _arg(call, "processing_class", _TOKENIZER_POS) or kwarg(call, "tokenizer")
            for kw, pos in (("train_dataset", _TRAIN_POS), ("eval_dataset", _EVAL_POS)):
                name = _dataset_name(_arg(call, kw, pos))
                found = _ragged_map(ctx, name, call) if name else None
                if found is None:
                    continue
                mapped, fn = found
                if (tokenizer is not None or collator is not None) and not _labels_from_ids(fn):
                    continue
                if collator is not None:
                    head = f"this Trainer's `{collator}` pads only the tokenizer's inputs, and its"
                    why = f"the token-level `labels` that `{fn.name}` builds are converted unpadded"
                else:
                    head = "this Trainer has no `data_collator` and its"
                    why = ("the tokenizer given to it pads input_ids but not the token-level `labels` that "
                           f"`{fn.name}` builds" if tokenizer is not None else
                           "with no tokenizer given, it uses `default_data_collator`, which only stacks rows")
                yield ctx.finding(
                    self, call,
                    f"{head} `{kw}` `{name}` holds rows that `{fn.name}` "
                    f"tokenized without padding (one length per text): {why}, so the first batch fails "
                    "(\"expected sequence of length\" / \"Unable to create tensor\"). Pass "
                    "`data_collator=DataCollatorForSeq2Seq(tokenizer, padding=True, label_pad_token_id=-100)`",
                    evidence=[ctx.evidence(mapped, f"`{name}` is mapped by `{fn.name}` here"),
                              ctx.evidence(fn, f"`{fn.name}` tokenizes without padding")])
                break
