"""PF156 t5-tokenizer-truncates-at-legacy-512: a ``t5-small/base/large/3b/11b`` tokenizer called with
``truncation=True`` and no ``max_length`` in a file that asks for longer inputs (``MAX_SOURCE_LENGTH = 2048``):
the tokenizer's legacy ``model_max_length`` of 512 cuts every longer input silently."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    UNKNOWN,
    calls,
    has_unpacking,
    is_from,
    kwarg,
    literal,
    target_text,
)
from preflight.rules.base import Rule, examples

# transformers' T5 tokenizers: the checkpoints of ``max_model_input_sizes`` whose ``model_max_length`` is the
# deprecated 512 (``_eventually_correct_t5_max_length`` warns "you SHOULD NOT rely on t5-large automatically
# truncating your input to 512")
_LEGACY = frozenset({"t5-small", "t5-base", "t5-large", "t5-3b", "t5-11b"})
_LOADERS = ("AutoTokenizer", "T5Tokenizer", "T5TokenizerFast")
_ENCODE = frozenset({"__call__", "encode", "encode_plus", "batch_encode_plus"})
_TRUNCATE = (True, "longest_first", "only_first", "only_second")
_LEGACY_LENGTH = 512
# names of a length the inputs should have (not the targets): MAX_SOURCE_TOKENS, max_input_length, max_src_len
_INPUT_LENGTH = re.compile(r"max_?(source|input|src|seq|context|encoder)|(source|input|src|context|encoder)_?(max_?)?len",
                           re.IGNORECASE)


def _longer_input_length(ctx: FileContext) -> Optional[tuple[ast.AST, str, int]]:
    """(node, name, value) of an input length above 512 the file declares: ``MAX_SOURCE_TOKENS = 2048``, a
    keyword ``max_source_length=1024``, ``add_argument("--max_input_length", default=1024)``."""
    def big(node: Optional[ast.AST]) -> Optional[int]:
        value: Any = node.value if isinstance(node, ast.Constant) else None
        return value if type(value) is int and value > _LEGACY_LENGTH else None

    for node in ctx.nodes(ast.Assign, ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
            length = big(node.value)
            if name and _INPUT_LENGTH.search(name) and length is not None:
                return node, name, length
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "add_argument" and call.args \
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str) \
                and _INPUT_LENGTH.search(call.args[0].value):
            length = big(kwarg(call, "default"))
            if length is not None:
                return call, call.args[0].value.lstrip("-"), length
    return None


def _legacy_tokenizers(ctx: FileContext) -> dict[str, tuple[ast.Call, str]]:
    """Bound name (``tokenizer``, ``self.tok``) -> (from_pretrained call, checkpoint) of the T5 tokenizers loaded
    from a legacy checkpoint name without ``model_max_length``."""
    out: dict[str, tuple[ast.Call, str]] = {}
    for call, qual in calls(ctx):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "from_pretrained"):
            continue
        owner = qual.rsplit(".", 1)[0] if qual else ""
        if not any(is_from(owner, "transformers", name) for name in _LOADERS):
            continue
        if not call.args or kwarg(call, "model_max_length") is not None or has_unpacking(call):
            continue
        checkpoint = literal(ctx, call.args[0])
        if checkpoint is UNKNOWN or not isinstance(checkpoint, str) or checkpoint not in _LEGACY:
            continue
        parent = ctx.parent(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            name = target_text(parent.targets[0])
            if name:
                out[name] = (call, checkpoint)
    return out


def _length_set_later(ctx: FileContext, name: str) -> bool:
    """``<name>.model_max_length = N`` somewhere in the file."""
    for node in ctx.nodes(ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "model_max_length" \
                    and target_text(target.value) == name:
                return True
    return False


def _receiver(call: ast.Call) -> Optional[str]:
    """``tokenizer`` of ``tokenizer(...)`` / ``tokenizer.encode_plus(...)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _ENCODE:
        return target_text(func.value)
    return target_text(func)


@register
class T5TokenizerTruncatesAtLegacy512(Rule):
    code = "PF156"
    name = "t5-tokenizer-truncates-at-legacy-512"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("t5-", "truncation")
    summary = ("A t5-small/base/large/3b/11b tokenizer truncates with no `max_length` in a job that declares longer "
               "inputs: the legacy `model_max_length` of 512 cuts every longer input silently")
    explanation = """
## What it finds

A tokenizer loaded with `AutoTokenizer`/`T5Tokenizer`/`T5TokenizerFast.from_pretrained` from
one of the original T5 checkpoint names (`t5-small`, `t5-base`, `t5-large`, `t5-3b`,
`t5-11b`) without `model_max_length`, called with `truncation=True` and no `max_length`, in
a file that declares an input length above 512 (`MAX_SOURCE_TOKENS = 2048`,
`max_input_length = 1024`, `--max_source_length` with a default above 512) that the call
does not use.

## Why it matters

For these names transformers keeps the deprecated `model_max_length` of 512
(`_eventually_correct_t5_max_length`: "This tokenizer was incorrectly instantiated with a
model max length of 512 ... you SHOULD NOT rely on t5-large automatically truncating your
input to 512 when padding/encoding"; neulab/prompt2model issue 87). `truncation=True` with
no `max_length` truncates to that value, so every input longer than 512 tokens is cut and
the rest never reaches the model, although T5's relative positions accept the longer
inputs the job was written for. Nothing fails; the model trains and is evaluated on
truncated documents.

## How to fix it

Pass the length the job means (`max_length=MAX_SOURCE_TOKENS`) to the tokenizer call, or
load the tokenizer with `model_max_length=...`.

## When preflight stays silent

* The call passes `max_length`, the tokenizer is loaded with `model_max_length` (or it is
  assigned later), or the call does not truncate.
* The checkpoint is not one of the five legacy names (`google/flan-t5-*`,
  `google/t5-v1_1-*`, a local path: their `model_max_length` comes from their own files).
* The file declares no input length above 512: truncating at 512 may be what the job wants.
"""
    bad_examples = examples("preflight.rules.code._pf156_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf156_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        tokenizers = _legacy_tokenizers(ctx)
        if not tokenizers:
            return
        wanted = _longer_input_length(ctx)
        if wanted is None:
            return
        where, length_name, length = wanted
        for call in ctx.nodes(ast.Call):
            name = _receiver(call)
            if name is None or name not in tokenizers or _length_set_later(ctx, name):
                continue
            truncation = kwarg(call, "truncation")
            if not (isinstance(truncation, ast.Constant) and truncation.value in _TRUNCATE):
                continue
            if kwarg(call, "max_length") is not None or has_unpacking(call):
                continue
            if any(isinstance(n, ast.Name) and n.id == length_name for n in ast.walk(call)):
                continue
            loaded, checkpoint = tokenizers[name]
            yield ctx.finding(
                self, call,
                f"`{name}` is the `{checkpoint}` tokenizer loaded without `model_max_length`, so `truncation=True` "
                f"with no `max_length` truncates to its legacy `model_max_length` of 512 (transformers warns: \"you "
                f"SHOULD NOT rely on {checkpoint} automatically truncating your input to 512\"), while the job "
                f"declares `{length_name}` = {length} (line {getattr(where, 'lineno', 0)}): every input longer than "
                f"512 tokens is cut silently. Pass `max_length={length_name}` (or load the tokenizer with "
                "`model_max_length=...`)",
                evidence=[ctx.evidence(loaded, f"{checkpoint}: model_max_length 512"),
                          ctx.evidence(where, f"{length_name} = {length}")])
