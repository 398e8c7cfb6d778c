"""PF592 preprocess-logits-given-a-tuple: ``preprocess_logits_for_metrics`` uses its ``logits`` as one
tensor for a model whose evaluation outputs are a tuple."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf592_support import predictions_used_whole, resolve_metric_fn

_Fn = Union[ast.FunctionDef, ast.Lambda]
# tensor methods that fail on a tuple ("'tuple' object has no attribute 'argmax'")
_TENSOR_METHODS = frozenset({"argmax", "argmin", "softmax", "log_softmax", "max", "min", "topk", "sigmoid", "float",
                             "cpu", "detach", "view", "reshape", "size", "to", "squeeze", "unsqueeze", "gather",
                             "sum", "mean", "half", "numpy", "contiguous"})
_TENSOR_FUNCS = frozenset({"argmax", "argmin", "softmax", "log_softmax", "topk", "sigmoid", "max"})
# encoder-decoder classes: Seq2SeqLMOutput carries encoder_last_hidden_state next to the logits
_SEQ2SEQ = re.compile(r"^(AutoModelForSeq2SeqLM|(T5|MT5|UMT5|LongT5|Bart|MBart|Pegasus|PegasusX|Marian|LED|"
                      r"Blenderbot|BlenderbotSmall|ProphetNet|M2M100|NllbMoe|FSMT|PLBart|BigBirdPegasus)"
                      r"ForConditionalGeneration)$")


def _is_true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _tuple_outputs(ctx: FileContext) -> Optional[tuple[ast.Call, str]]:
    """A model load whose forward returns more than the logits (not counting what the Trainer
    drops): (the load, why)."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "from_pretrained" or not isinstance(call.func, ast.Attribute):
            continue
        owner = call.func.value
        cls = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        for key in ("output_hidden_states", "output_attentions"):
            if _is_true(kwarg(call, key)):
                return call, f"`{key}=True` adds the {key[7:].replace('_', ' ')} to every output"
        if _is_true(kwarg(call, "use_weighted_layer_sum")):
            return call, ("`use_weighted_layer_sum=True` makes the model compute and return the hidden states of "
                          "every layer")
        if _is_true(kwarg(call, "trust_remote_code")) and _is_true(kwarg(call, "use_cache")):
            return call, ("remote code with `use_cache=True` returns `past_key_values`, which the Trainer drops only "
                          "when the config lists them in `keys_to_ignore_at_inference`")
        if _SEQ2SEQ.match(cls) and "predict_with_generate" not in ctx.parsed.source.text:
            return call, (f"`{cls}` returns `encoder_last_hidden_state` next to the logits (only `past_key_values` "
                          "is in `keys_to_ignore_at_inference`)")
    return None


def _first_param(fn: _Fn) -> Optional[str]:
    args = fn.args.posonlyargs + fn.args.args
    if isinstance(fn, ast.FunctionDef) and args and args[0].arg == "self":
        args = args[1:]
    return args[0].arg if args else None


def _used_as_tensor(fn: _Fn, param: str) -> Optional[ast.AST]:
    """Where ``param`` is used as one tensor, when the function never looks inside a tuple
    (``isinstance(logits, tuple)``, ``logits[0]``, a rebinding of the name)."""
    body = fn.body if isinstance(fn.body, list) else [fn.body]
    use: Optional[ast.AST] = None
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == param and isinstance(node.ctx, ast.Store):
                return None  # rebound (logits = logits[0])
            if isinstance(node, ast.Call):
                name = call_last(node)
                if name in ("isinstance", "type", "len") and node.args and \
                        isinstance(node.args[0], ast.Name) and node.args[0].id == param:
                    return None
                method = isinstance(node.func, ast.Attribute) and node.func.attr in _TENSOR_METHODS and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == param
                function = name in _TENSOR_FUNCS and bool(node.args) and isinstance(node.args[0], ast.Name) and \
                    node.args[0].id == param
                if method or function:
                    use = use or node
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param and \
                    isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                return None  # logits[0]
    return use


@register
class PreprocessLogitsGivenATuple(Rule):
    code = "PF592"
    needs_text = ("preprocess_logits_for_metrics", "compute_metrics")
    name = "preprocess-logits-given-a-tuple"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`preprocess_logits_for_metrics` (or, without it, `compute_metrics`) calls `argmax` on what is a "
               "tuple for this model (extra outputs next to the logits): evaluation fails")
    explanation = """
## What it finds

A Trainer given `preprocess_logits_for_metrics=fn` (a function of the file, a lambda, or
one of the functions a factory of the file returns) where `fn` uses its first argument as
one tensor (`logits.argmax(dim=-1)`, `torch.softmax(logits, -1)`) and never looks for a
tuple (`isinstance(logits, tuple)`, `logits[0]`), in a file whose model returns more than
the logits at evaluation:

* a `from_pretrained(..., output_hidden_states=True)` / `output_attentions=True`, or
  `use_weighted_layer_sum=True` (audio classifiers: every layer's hidden states),
* remote code loaded with `use_cache=True` (`trust_remote_code=True`),
* an encoder-decoder class (`AutoModelForSeq2SeqLM`, `T5ForConditionalGeneration`,
  `BartForConditionalGeneration`, ...) evaluated without `predict_with_generate`.

The same when the Trainer has no `preprocess_logits_for_metrics` and its
`compute_metrics` uses the predictions as one array (`logits, labels = eval_pred`, then
`np.argmax(logits, axis=-1)`; or `eval_pred.predictions.argmax(-1)`).

## Why it matters

`Trainer.prediction_step` keeps every output except the loss and the config's
`keys_to_ignore_at_inference` (`logits = tuple(v for k, v in outputs.items() if k not in
ignore_keys + ["loss"])`) and unwraps the tuple only when one element is left. Hidden
states, attentions, `encoder_last_hidden_state` or un-ignored `past_key_values` leave a
tuple, `preprocess_logits_for_metrics` receives it, and the first evaluation fails with
"AttributeError: 'tuple' object has no attribute 'argmax'" after a full epoch of training
(transformers issue 15898, on run_clm.py; its fix is the `isinstance(logits, tuple)` check
the example now carries). Without `preprocess_logits_for_metrics` the tuple goes to
`compute_metrics` as `EvalPrediction.predictions`, after the whole evaluation set's
outputs (hidden states included) were gathered: memory grows with every layer kept, and
`np.argmax` of a tuple of differently shaped arrays fails (transformers issue 30104,
`use_weighted_layer_sum=True`: "your GPU memory explodes"; the maintainer's fix is a
`preprocess_logits_for_metrics` that returns `logits[0]`).

## How to fix it

`if isinstance(logits, tuple): logits = logits[0]` before using it (the logits always come
first), or drop the extra outputs (`use_cache=False`, `ignore_keys`).

## When preflight stays silent

* The function checks or indexes its argument (`isinstance`, `type`, `len`, `logits[0]`) or
  rebinds it; `compute_metrics` indexes its predictions (`preds[0]`) or rebinds them, or
  the file names `ignore_keys` or `prediction_loss_only`.
* No model load of the file is known to return extra outputs (a decoder-only
  transformers model drops its `past_key_values` through `keys_to_ignore_at_inference`), or
  the encoder-decoder model is evaluated with `predict_with_generate`.
* The function is not resolved in the file.
"""
    bad_examples = examples("preflight.rules.code._pf592_examples", "PF592_BAD")
    good_examples = examples("preflight.rules.code._pf592_examples", "PF592_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        outputs: Optional[tuple[ast.Call, str]] = None
        looked = False
        for call in ctx.nodes(ast.Call):
            expr = kwarg(call, "preprocess_logits_for_metrics")
            if not call_last(call).endswith("Trainer"):
                continue
            if expr is None:
                yield from self._compute_metrics(ctx, call)
                continue
            fn = resolve_metric_fn(ctx, expr, call)
            param = _first_param(fn) if fn is not None else None
            use = _used_as_tensor(fn, param) if fn is not None and param else None
            if use is None:
                continue
            if not looked:
                outputs, looked = _tuple_outputs(ctx), True
            if outputs is None:
                return
            load, why = outputs
            yield ctx.finding(
                self, use,
                f"`preprocess_logits_for_metrics` uses `{param}` as one tensor, but this model's evaluation "
                f"outputs hold more than the logits ({why}): the Trainer passes them as a tuple and evaluation "
                f"fails with \"'tuple' object has no attribute ...\". Start with `if isinstance({param}, tuple): "
                f"{param} = {param}[0]`",
                evidence=[ctx.evidence(load, "the model is loaded here"),
                          ctx.evidence(call, "the Trainer that passes the outputs")])

    def _compute_metrics(self, ctx: FileContext, call: ast.Call) -> Iterable[Finding]:
        """A Trainer without ``preprocess_logits_for_metrics`` whose ``compute_metrics`` argmaxes the
        predictions of a model that returns a tuple."""
        expr = kwarg(call, "compute_metrics")
        text = ctx.parsed.source.text
        if expr is None or "ignore_keys" in text or "prediction_loss_only" in text:
            return
        fn = resolve_metric_fn(ctx, expr, call)
        if not isinstance(fn, ast.FunctionDef):
            return
        use = predictions_used_whole(fn)
        if use is None:
            return
        outputs = _tuple_outputs(ctx)
        if outputs is None:
            return
        load, why = outputs
        yield ctx.finding(
            self, use,
            f"`compute_metrics` uses the predictions as one array, but this model's evaluation outputs hold more "
            f"than the logits ({why}) and the Trainer has no `preprocess_logits_for_metrics`: every output of the "
            f"whole evaluation set is gathered and `compute_metrics` receives a tuple, which `argmax` cannot take. "
            f"Pass `preprocess_logits_for_metrics=lambda logits, labels: (logits[0] if isinstance(logits, tuple) "
            f"else logits).argmax(-1)`, or take `predictions[0]`",
            evidence=[ctx.evidence(load, "the model is loaded here"),
                      ctx.evidence(call, "the Trainer that gathers the outputs")])
