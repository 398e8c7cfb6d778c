"""PF180 best-metric-not-returned-by-compute-metrics: ``metric_for_best_model`` names a metric that the
Trainer's ``compute_metrics`` never returns, so the first evaluation ends training with a KeyError."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._samplers import bound_values

_TRAINERS = frozenset({"Trainer", "Seq2SeqTrainer"})
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")
# what the Trainer itself puts into the evaluation metrics beside compute_metrics' keys
# (transformers 4.55.2 trainer.py:4553-4560 loss/jit/preparation times, speed_metrics, Trainer.log's epoch)
_TRAINER_KEYS = frozenset({"loss", "runtime", "samples_per_second", "steps_per_second", "epoch",
                           "jit_compilation_time", "model_preparation_time"})
# evaluate/datasets metrics whose ``compute`` returns one key named after the metric
# (huggingface/evaluate metrics/<name>/<name>.py: accuracy:102, f1:130, precision:145, recall:135,
# matthews_correlation:140, exact_match:136, mse:121)
_ONE_KEY_METRICS = frozenset({"accuracy", "f1", "precision", "recall", "matthews_correlation", "exact_match",
                              "mse"})
# calls that only read the dict they are given
_READERS = frozenset({"print", "len", "str", "repr", "dumps", "info", "debug", "warning", "log", "format"})


def _own_nodes(fn: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a function, not those of the functions and lambdas defined inside it."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


def _one_key_metric(ctx: FileContext, receiver: ast.AST) -> Optional[str]:
    """``accuracy`` of a name bound once in the file to ``evaluate.load("accuracy")`` / ``load_metric(...)``."""
    if not isinstance(receiver, ast.Name):
        return None
    bound = [a.value for a in ctx.nodes(ast.Assign) if any(
        isinstance(t, ast.Name) and t.id == receiver.id for tgt in a.targets for t in ast.walk(tgt))]
    if len(bound) != 1 or not isinstance(bound[0], ast.Call) or call_last(bound[0]) not in ("load", "load_metric"):
        return None
    call = bound[0]
    name = call.args[0] if call.args else kwarg(call, "path")
    if len(call.args) > 1 or not isinstance(name, ast.Constant) or name.value not in _ONE_KEY_METRICS:
        return None
    return str(name.value)


def _keys(ctx: FileContext, fn: ast.AST, expr: Optional[ast.AST], depth: int = 0) -> Optional[set[str]]:
    """The keys of the dict ``expr`` evaluates to in ``fn``, None when they are not all known."""
    if isinstance(expr, ast.Dict):
        if any(not (isinstance(k, ast.Constant) and isinstance(k.value, str)) for k in expr.keys):
            return None  # ``**other`` (a None key) or a computed key
        return {str(k.value) for k in expr.keys if isinstance(k, ast.Constant)}
    if isinstance(expr, ast.Call):
        if call_last(expr) == "dict" and isinstance(expr.func, ast.Name) and not expr.args \
                and not has_unpacking(expr):
            return {str(k.arg) for k in expr.keywords}
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "compute":
            metric = _one_key_metric(ctx, expr.func.value)
            return {metric} if metric is not None else None
        return None
    if isinstance(expr, ast.Name) and depth == 0:
        return _name_keys(ctx, fn, expr.id)
    return None


def _name_keys(ctx: FileContext, fn: ast.AST, name: str) -> Optional[set[str]]:
    """The keys of a local dict: bound once, then only filled by ``d[k] = v`` and ``d.update(...)``."""
    keys: Optional[set[str]] = None
    for node in _own_nodes(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == name
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            if keys is not None or node.value is None:
                return None  # bound twice: which binding is returned is a question of flow
            keys = _keys(ctx, fn, node.value, depth=1)
            if keys is None:
                return None
    if keys is None:
        return None
    parents = {id(c): p for p in _own_nodes(fn) for c in ast.iter_child_nodes(p)}
    for node in _own_nodes(fn):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, ast.Store):
            if (isinstance(parent, ast.Assign) and node in parent.targets) or \
                    (isinstance(parent, ast.AnnAssign) and node is parent.target):
                continue  # the one binding, read above
            return None  # a loop target, a with target, an augmented assignment...
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if isinstance(parent.ctx, ast.Store):
                key = parent.slice
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    return None
                keys.add(key.value)
            elif isinstance(parent.ctx, ast.Del):
                return None
            continue
        if isinstance(parent, ast.Attribute) and parent.value is node:
            call = parents.get(id(parent))
            if parent.attr == "update" and isinstance(call, ast.Call) and call.func is parent:
                added = _keys(ctx, fn, call.args[0], depth=1) if len(call.args) == 1 and not call.keywords else None
                if added is None:
                    return None
                keys |= added
                continue
            if parent.attr in ("get", "items", "keys", "values", "copy"):
                continue
            return None  # pop, setdefault, clear, ...
        if isinstance(parent, ast.Return) or (isinstance(parent, ast.Call) and call_last(parent) in _READERS):
            continue
        if isinstance(parent, (ast.Compare, ast.FormattedValue)):
            continue
        return None  # handed to a function that may fill it
    return keys


def _returned_keys(ctx: FileContext, fn: ast.AST) -> Optional[set[str]]:
    """Every key any return of ``compute_metrics`` can hold; None when one return is not known."""
    if isinstance(fn, ast.Lambda):
        return _keys(ctx, fn, fn.body)
    returns = [n for n in _own_nodes(fn) if isinstance(n, ast.Return)]
    if not returns or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(fn)):
        return None
    out: set[str] = set()
    for ret in returns:
        keys = _keys(ctx, fn, ret.value)
        if keys is None:
            return None
        out |= keys
    return out


def _metric_fn(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[ast.AST]:
    """The one function of the file given as ``compute_metrics`` (a name, a lambda, ``partial(f, ...)``)."""
    if isinstance(expr, ast.Call) and call_last(expr) == "partial" and expr.args:
        expr = expr.args[0]
    if isinstance(expr, ast.Lambda):
        return expr
    if not isinstance(expr, ast.Name):
        return None
    defs = [d for d in ctx.nodes(ast.FunctionDef) if d.name == expr.id]
    return defs[0] if len(defs) == 1 else None


def _args_calls(ctx: FileContext, trainer: ast.Call) -> list[ast.Call]:
    """The TrainingArguments calls the Trainer's ``args`` can be: the call itself, or every value the name
    is bound to in the Trainer's function (``if ...: args = TrainingArguments(...) else: ...``); none when
    one of those values is something else."""
    expr = kwarg(trainer, "args") or (trainer.args[1] if len(trainer.args) > 1 else None)
    values: list[ast.expr] = [expr] if isinstance(expr, ast.Call) else []
    if isinstance(expr, ast.Name):
        values = bound_values(ctx.enclosing_function(trainer) or ctx.parsed.tree, expr.id)
    calls = [v for v in values if isinstance(v, ast.Call) and call_last(v) in _ARGS and not has_unpacking(v)]
    return calls if len(calls) == len(values) else []


def _evaluates(targs: ast.Call) -> bool:
    """The arguments make the Trainer evaluate while it trains."""
    best = kwarg(targs, "load_best_model_at_end")
    if isinstance(best, ast.Constant) and best.value is True:
        return True
    for key in ("eval_strategy", "evaluation_strategy"):
        value = kwarg(targs, key)
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.lower() != "no":
            return True
        if isinstance(value, ast.Attribute) and value.attr in ("STEPS", "EPOCH"):
            return True
    return False


@register
class BestMetricNotReturnedByComputeMetrics(Rule):
    code = "PF180"
    name = "best-metric-not-returned-by-compute-metrics"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`metric_for_best_model` names a metric the Trainer's `compute_metrics` never returns: the first "
               "evaluation ends training with a KeyError")
    needs_text = ("metric_for_best_model",)
    explanation = """
## What it finds

A `Trainer`/`Seq2SeqTrainer` whose `TrainingArguments` set `metric_for_best_model` to a literal
and make it evaluate (`load_best_model_at_end=True` or an `eval_strategy` other than `"no"`),
and whose `compute_metrics` is a function of the file every `return` of which builds a dict with
keys preflight can read: a dict literal, `dict(k=...)`, a local dict filled by `d["k"] = ...`
and `d.update(...)`, or `m.compute(...)` of an `evaluate.load("accuracy")` metric (`accuracy`,
`f1`, `precision`, `recall`, `matthews_correlation`, `exact_match`, `mse`: each returns one key
named after it), or that has no `compute_metrics` at all (the file never names it), where none
of those keys, nor a key the Trainer adds itself (`loss`, `runtime`, `samples_per_second`,
`steps_per_second`, `epoch`), is the metric.

## Why it matters

The Trainer prefixes every key `compute_metrics` returns with `eval_` (unless it already has
it) and looks the monitored metric up as `eval_<name>` after each evaluation
(`Trainer._determine_best_metric`, transformers 4.55.2 trainer.py:3199-3212; `_save_checkpoint`
in older releases). A name that is not there raises "KeyError: The `metric_for_best_model`
training argument is set to 'eval_f1', which is not found in the evaluation metrics" at the
first evaluation, after an epoch or `eval_steps` of training, and no best checkpoint is ever
chosen (transformers issue 40217). With a dict of eval datasets
(`eval_dataset={"custom_alpaca": ds}`) every metric is named after its set
(`eval_custom_alpaca_loss`), so even `eval_loss` is not there (LlamaFactory issue 7906).

## How to fix it

Return the metric from `compute_metrics` (`f1` for `metric_for_best_model="eval_f1"` or
`"f1"`), or monitor one of the keys it returns; with named eval datasets, monitor the
prefixed key (`eval_custom_alpaca_loss`).

## When preflight stays silent

* A return preflight cannot read: a dict comprehension, `**other`, a computed key, a dict
  handed to another function, an `evaluate` metric not listed above or `evaluate.combine`.
* The metric is a key the Trainer adds (`eval_loss`), or ends with `_<returned key>` or
  `_loss`.
* The `eval_dataset` is a dict literal and the metric carries one of its names
  (`eval_squad_f1`); a dict whose keys are not all string literals.
* The trainer is a subclass, a TRL trainer (they add metrics of their own), or a callback's
  `on_evaluate` may add keys; `compute_metrics` is a method or defined more than once.
"""
    bad_examples = examples("preflight.rules.code._pf180_examples", "PF180_BAD")
    good_examples = examples("preflight.rules.code._pf180_examples", "PF180_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("on_evaluate"):
            return
        for call in ctx.nodes(ast.Call):
            if call_last(call) not in _TRAINERS or any(k.arg is None for k in call.keywords):
                continue
            found = self._check_trainer(ctx, call)
            if found is not None:
                yield found

    def _check_trainer(self, ctx: FileContext, call: ast.Call) -> Optional[Finding]:
        eval_ds = kwarg(call, "eval_dataset")
        if isinstance(eval_ds, ast.Dict):
            names = [k.value for k in eval_ds.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            if not names or len(names) != len(eval_ds.keys):
                return None
            per_set = [self._check_named_sets(ctx, targs, eval_ds, names) for targs in _args_calls(ctx, call)]
            return per_set[0] if per_set and all(f is not None for f in per_set) else None
        given = kwarg(call, "compute_metrics")
        fn = _metric_fn(ctx, given)
        keys = _returned_keys(ctx, fn) if fn is not None else None
        if given is None and not ctx.mentions("compute_metrics"):
            fn, keys = call, set()  # no compute_metrics: only the Trainer's own keys
        found = [self._check_args(ctx, call, targs, fn, keys) for targs in _args_calls(ctx, call)]
        # every set of arguments the Trainer can get names a metric it never returns
        return found[0] if found and all(f is not None for f in found) else None

    def _check_named_sets(self, ctx: FileContext, targs: ast.Call, eval_ds: ast.Dict,
                          names: list[str]) -> Optional[Finding]:
        """A dict of eval datasets: every metric is named ``eval_<set>_<key>`` (``Trainer._evaluate`` evaluates
        each set with ``metric_key_prefix=f"eval_{name}"``), so a metric without a set's prefix is never there."""
        metric = kwarg(targs, "metric_for_best_model")
        if not isinstance(metric, ast.Constant) or not isinstance(metric.value, str) or not _evaluates(targs):
            return None
        wanted = metric.value if metric.value.startswith("eval_") else f"eval_{metric.value}"
        if any(wanted.startswith(f"eval_{name}_") for name in names):
            return None
        rest = wanted[len("eval_"):]
        named = ", ".join(f"`{n}`" for n in names)
        return ctx.finding(
            self, metric,
            f"`metric_for_best_model=\"{metric.value}\"`, but `eval_dataset` is a dict of named sets ({named}): the "
            f"Trainer evaluates each one under its own prefix (`eval_{names[0]}_loss`, `eval_{names[0]}_<metric>`), so "
            f"`{wanted}` is never among the evaluation metrics and the first evaluation ends training with "
            f"\"KeyError: The `metric_for_best_model` training argument is set to '{wanted}', which is not found in "
            f"the evaluation metrics\". Name the prefixed key (`eval_{names[0]}_{rest}`) or pass a single eval "
            "dataset",
            evidence=[ctx.evidence(eval_ds, "the named eval datasets: each one's metrics carry its name")])

    def _check_args(self, ctx: FileContext, call: ast.Call, targs: ast.Call, fn: Optional[ast.AST],
                    keys: Optional[set[str]]) -> Optional[Finding]:
        metric = kwarg(targs, "metric_for_best_model")
        if fn is None or keys is None or not isinstance(metric, ast.Constant) or not isinstance(metric.value, str) \
                or not _evaluates(targs):
            return None
        wanted = metric.value if metric.value.startswith("eval_") else f"eval_{metric.value}"
        have = {k if k.startswith("eval_") else f"eval_{k}" for k in keys | _TRAINER_KEYS}
        if wanted in have or any(wanted.endswith(f"_{k}") for k in keys | _TRAINER_KEYS):
            return None
        shown = ", ".join(f"`{k}`" for k in sorted(keys)) if keys else "nothing (none is given)"
        held = ", ".join(f"`{k}`" for k in sorted({k if k.startswith("eval_") else f"eval_{k}" for k in keys}))
        return ctx.finding(
            self, metric,
            f"`metric_for_best_model=\"{metric.value}\"`, but `compute_metrics` returns {shown}: the evaluation "
            f"metrics hold {held + ', ' if held else ''}`eval_loss` and the timings, never `{wanted}`, so the first evaluation "
            "ends training with \"KeyError: The `metric_for_best_model` training argument is set to "
            f"'{wanted}', which is not found in the evaluation metrics\". Return it from `compute_metrics` or "
            "monitor a returned key",
            evidence=[ctx.evidence(fn, "compute_metrics: the keys it returns"),
                      ctx.evidence(call, "the Trainer evaluates with it")] if fn is not call else
            [ctx.evidence(call, "the Trainer, without compute_metrics")])
