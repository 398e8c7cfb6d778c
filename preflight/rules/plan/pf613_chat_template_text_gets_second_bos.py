"""PF613 chat-template-text-gets-second-bos: text rendered by ``apply_chat_template(tokenize=False)``
tokenized again with the default ``add_special_tokens=True``, for a model whose template writes the
BOS token itself."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# chat templates that begin with `{{ bos_token }}` on tokenizers that also prepend BOS when encoding
# (Llama 2/3.x, Mistral/Mixtral, Gemma: tokenizer_config.json `add_bos_token: true` or the Llama-3
# post-processor); Qwen, ChatGLM, Phi-3 and others write no BOS in their template or add none
_BOS_FAMILIES = ("llama-2", "llama2", "llama-3", "llama3", "mistral", "mixtral", "gemma")
_ENCODERS = frozenset({"encode", "encode_plus", "batch_encode_plus", "__call__"})


def _scope_of(tree: ast.AST, node: ast.AST) -> ast.AST:
    best: ast.AST = tree
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and fn.lineno <= getattr(node, "lineno", 0) <= (fn.end_lineno or fn.lineno) \
                and (best is tree or fn.lineno >= best.lineno):  # type: ignore[attr-defined]
            best = fn
    return best


def _rendered(call: ast.AST) -> bool:
    """``<tokenizer>.apply_chat_template(..., tokenize=False)``: the template's text."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "apply_chat_template"):
        return False
    value = kwarg(call, "tokenize")
    return isinstance(value, ast.Constant) and value.value is False


def _leftmost(expr: ast.AST) -> ast.AST:
    while isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        expr = expr.left
    return expr


def _template_texts(tree: ast.AST) -> dict[tuple[int, str], ast.AST]:
    """(scope id, name) -> the ``apply_chat_template`` call whose text the name begins with
    (``prompt = tok.apply_chat_template(...)``, then ``full = prompt + answer``)."""
    out: dict[tuple[int, str], ast.AST] = {}
    assigns = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                      and isinstance(n.targets[0], ast.Name)), key=lambda n: n.lineno)
    for node in assigns:
        scope = id(_scope_of(tree, node))
        name = node.targets[0].id  # type: ignore[attr-defined]
        head = _leftmost(node.value)
        if _rendered(head):
            out[(scope, name)] = head
        elif isinstance(head, ast.Name) and (scope, head.id) in out:
            out[(scope, name)] = out[(scope, head.id)]
        else:
            out.pop((scope, name), None)  # re-bound to something else
    return out


def _encodes(call: ast.Call) -> bool:
    """A tokenizer encoding call: ``tokenizer(text, ...)``, ``self.tokenizer(...)``, ``tok.encode(...)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _ENCODERS:
        return "tok" in ast.unparse(func.value).lower()
    text = ast.unparse(func).lower()
    return text.rsplit(".", 1)[-1] in ("tokenizer", "tok", "processing_class")


def _model_ids(pctx: PlanContext) -> list[str]:
    """The hub ids the job loads (``*.from_pretrained("<id>")`` of transformers classes, resolved)."""
    out = []
    for script in pctx.scripts:
        idx = pctx.index(script)
        for site in idx.calls:
            if not (site.name or "").endswith(".from_pretrained") \
                    or not (site.qualified or "").startswith("transformers."):
                continue
            found = idx.resolve(site.arg(0, "pretrained_model_name_or_path"))
            if found is not None and isinstance(found.value, str):
                out.append(found.value)
    return out


@register
class ChatTemplateTextGetsSecondBos(PlanRule):
    code = "PF613"
    name = "chat-template-text-gets-second-bos"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("Text from `apply_chat_template(tokenize=False)` tokenized again with special tokens, for a "
               "model whose template already writes BOS: every sequence starts with two BOS tokens")
    explanation = """
## What it finds

A string bound from `tokenizer.apply_chat_template(..., tokenize=False)` (or a
concatenation that starts with it, `full = prompt + answer + eos`) and then encoded in
the same function by a tokenizer call (`tokenizer(text, ...)`, `self.tokenizer(...)`,
`tok.encode(...)`) without `add_special_tokens=False`, in a job whose models
(`from_pretrained("<id>")` of transformers classes) are all of a family whose chat template
begins with the BOS token: Llama 2, Llama 3.x, Mistral/Mixtral, Gemma.

## Why it matters

These templates write `{{ bos_token }}` as their first token, so the rendered text already
starts with `<s>` / `<|begin_of_text|>` / `<bos>`; their tokenizers also prepend BOS when
encoding with the default `add_special_tokens=True`. Every training sequence then starts
with two BOS tokens, a pattern the model never saw in pre-training or at inference
(OpenRLHF issue 393 with Llama 3: input ids start `128000, 128000`). The Transformers chat
templating guide says it directly: text formatted with `apply_chat_template(tokenize=False)`
and tokenized afterwards should be tokenized with `add_special_tokens=False`, or the special
tokens are duplicated.

## How to fix it

Tokenize with `add_special_tokens=False`, or let the template tokenize
(`apply_chat_template(messages, tokenize=True)`).

## When preflight stays silent

* The encoding call passes `add_special_tokens` (any value: the author chose), or `**kwargs`.
* The text is not the template's rendering at its start (`answer + prompt`), or the name is
  bound again to something else before the call, or it is encoded in another function.
* No model id of the job is known, or one of them is of another family (Qwen, ChatGLM, Phi,
  ...: their templates write no BOS or their tokenizers add none).
"""
    bad_examples = examples("preflight.rules.plan._pf613_examples", "PF613_BAD")
    good_examples = examples("preflight.rules.plan._pf613_examples", "PF613_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = [s for s in pctx.scripts if "apply_chat_template" in (s.text or s.source.text)]
        if not scripts:
            return
        ids = _model_ids(pctx)
        if not ids or not all(any(f in i.lower() for f in _BOS_FAMILIES) for i in ids):
            return
        for script in scripts:
            yield from self._check_script(pctx, script, ids[0])

    def _check_script(self, pctx: PlanContext, script: ParsedPython, model_id: str) -> Iterable[Finding]:
        tree = script.tree
        texts = _template_texts(tree)
        if not texts:
            return
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or not call.args or not isinstance(call.args[0], ast.Name) \
                    or not _encodes(call) or kwarg(call, "add_special_tokens") is not None \
                    or any(k.arg is None for k in call.keywords):
                continue
            rendered = texts.get((id(_scope_of(tree, call)), call.args[0].id))
            if rendered is None or getattr(rendered, "lineno", 0) > call.lineno:
                continue
            yield pctx.code_finding(self, script, call, (
                f"`{call.args[0].id}` begins with the text `apply_chat_template(..., tokenize=False)` rendered "
                f"(line {getattr(rendered, 'lineno', 0)}), which for `{model_id}` already starts with the BOS token; this call "
                "encodes it with the default `add_special_tokens=True`, so the tokenizer prepends a second BOS and "
                "every sequence starts with two. Pass `add_special_tokens=False` (or let `apply_chat_template` "
                "tokenize)"),
                evidence=[pctx.code_evidence(script, rendered, "the chat template's text, BOS included",
                                             same_file=True)])
