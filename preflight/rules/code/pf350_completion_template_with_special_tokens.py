"""PF350 completion-template-with-special-tokens: a ``DataCollatorForCompletionOnlyLM`` template passed as
token ids that were encoded with the tokenizer's special tokens (a leading BOS), which no example contains."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._collator_templates import collator_templates
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules.base import Rule, examples

# tokenizers whose encode() adds no BOS: the ids of the template are those of its text (GPT-2 BPE and its
# descendants, Qwen, Falcon, Phi, StarCoder, CodeGen)
_NO_BOS = ("gpt2", "gpt-neo", "gpt-j", "gptj", "pythia", "neox", "qwen", "falcon", "phi-", "/phi", "starcoder",
           "codegen", "santacoder", "cerebras-gpt", "distilgpt")


def _special_tokens_off(call: ast.Call) -> bool:
    flag = kwarg(call, "add_special_tokens")
    if flag is None:
        return any(kw.arg is None for kw in call.keywords)  # **kwargs: cannot tell, stay silent
    return not (isinstance(flag, ast.Constant) and flag.value is True)


def _encoding_call(expr: ast.AST) -> Optional[ast.Call]:
    """``tok.encode(s)``, ``tok(s).input_ids``, ``tok(s)["input_ids"]`` (not sliced): the encoding call."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "encode":
        return expr
    if isinstance(expr, ast.Attribute) and expr.attr == "input_ids" and isinstance(expr.value, ast.Call):
        return expr.value
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call):
        key = expr.slice
        if isinstance(key, ast.Constant) and key.value == "input_ids":
            return expr.value
    return None


def _receiver(call: ast.Call) -> Optional[str]:
    func = call.func.value if isinstance(call.func, ast.Attribute) and call.func.attr == "encode" else call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


def _target(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _last_binding(ctx: FileContext, before: ast.expr, name: str) -> Optional[ast.Assign]:
    scopes = {ctx.enclosing_function(before), None}
    best: Optional[ast.Assign] = None
    for assign in ctx.nodes(ast.Assign):
        if ctx.enclosing_function(assign) not in scopes or assign.lineno > before.lineno:
            continue
        if any(_target(t) == name for t in assign.targets) and (best is None or assign.lineno >= best.lineno):
            best = assign
    return best


def _tokenizer_adds_no_bos(ctx: FileContext, call: ast.Call, name: Optional[str]) -> bool:
    """The tokenizer is loaded from a model whose encode() adds no BOS, or with ``add_bos_token=False``."""
    if name is None:
        return False
    bound = _last_binding(ctx, call, name)
    if bound is None or not isinstance(bound.value, ast.Call):
        return False
    load = bound.value
    bos = kwarg(load, "add_bos_token")
    if isinstance(bos, ast.Constant) and bos.value is False:
        return True
    if not load.args:
        return False
    model = literal(ctx, load.args[0])
    return isinstance(model, str) and any(key in model.lower() for key in _NO_BOS)


@register
class CompletionTemplateWithSpecialTokens(Rule):
    code = "PF350"
    needs_text = ("DataCollatorForCompletionOnlyLM",)
    name = "completion-template-with-special-tokens"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("a `DataCollatorForCompletionOnlyLM` template given as ids encoded with the tokenizer's special "
               "tokens (a leading BOS): never found in an example, every label is masked")
    url = "https://github.com/huggingface/transformers/issues/27733"
    explanation = """
## What it finds

`DataCollatorForCompletionOnlyLM(response_template=ids, ...)` (TRL), or its
`instruction_template`, where `ids` is `tokenizer.encode(template)`,
`tokenizer(template).input_ids` or `tokenizer(template)["input_ids"]` (in the call, or
bound to a name before it) without `add_special_tokens=False` and not sliced.

## Why it matters

When the template is a string, the collator encodes it itself with
`add_special_tokens=False` (TRL 0.7 and later, `trl/trainer/utils.py`). Ids are used as
given, and the collator looks for that exact id sequence in every example. Encoded with the
special tokens, the sequence starts with the tokenizer's BOS (`<s>` for Llama, Mistral,
Gemma, OPT...), which occurs only at the start of an example, never in front of the
template. The collator warns "Could not find response key ... This instance will be ignored
in loss calculation", sets every label to -100, and the loss is 0 at every step:
nothing is learned (transformers issue 27733).

## How to fix it

Pass the string, or encode it as it appears in context:
`tokenizer.encode(template, add_special_tokens=False)` (TRL's documentation takes the ids of
`"\\n" + template` and drops the first ones).

## When preflight stays silent

* `add_special_tokens=False` (or `**kwargs`) on the encoding call, or the ids are sliced.
* The tokenizer is loaded, in this file, from a model whose tokenizer adds no BOS (GPT-2,
  GPT-Neo/J/NeoX, Pythia, Qwen, Falcon, Phi, StarCoder, CodeGen) or with
  `add_bos_token=False`.
* The template is a string.
"""
    bad_examples = examples("preflight.rules.code._pf350_examples", "PF350_BAD")
    good_examples = examples("preflight.rules.code._pf350_examples", "PF350_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, key, arg in collator_templates(ctx):
            where: ast.AST = arg
            encoded = _encoding_call(arg)
            if encoded is None and isinstance(arg, ast.Name):
                bound = _last_binding(ctx, call, arg.id)
                if bound is not None:
                    encoded = _encoding_call(bound.value)
                    where = bound.value
            if encoded is None or _special_tokens_off(encoded):
                continue
            if _tokenizer_adds_no_bos(ctx, encoded, _receiver(encoded)):
                continue
            evidence = [] if where is arg else [ctx.evidence(call, "the collator that searches for these ids")]
            yield ctx.finding(self, where, (
                f"the {key} is given as token ids encoded with the tokenizer's special tokens: for a "
                "tokenizer that adds a BOS (Llama, Mistral, Gemma, OPT...) the ids start with it, and "
                "DataCollatorForCompletionOnlyLM searches every example for that exact sequence; BOS "
                "never stands in front of the template, so no example matches, every label becomes -100 "
                "and the loss is 0 at every step. Encode it with add_special_tokens=False (or pass the "
                "string)"), evidence=evidence)
