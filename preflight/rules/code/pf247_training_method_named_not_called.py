"""PF247 training-method-named-not-called: ``optimizer.step`` / ``loss.backward`` / ``model.eval`` written as a
statement without the call parentheses: Python reads the attribute and throws it away, so nothing happens."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# method -> what the missing call leaves undone
_EFFECT = {
    "backward": "no gradient is computed, so the following optimizer step changes nothing (or applies stale "
                "gradients)",
    "step": "the step never happens: the weights (or the learning rate) never change",
    "zero_grad": "gradients are never cleared, so every step applies the sum of all earlier gradients",
    "eval": "the model stays in training mode: dropout stays on and batch norm keeps updating its statistics "
            "on the evaluation data",
    "train": "the model stays in the mode it was in (evaluation mode after a validation pass): dropout is off "
             "and batch norm statistics are frozen while it trains",
    "update": "the gradient scaler never updates its scale (a scale that overflowed is never lowered)",
    "unscale_": "the gradients are never unscaled before clipping",
    "wait_for_everyone": "there is no barrier: processes run ahead of each other (a rank reads a checkpoint the "
                         "main process has not finished writing, or exits while others still save)",
    "barrier": "there is no barrier: processes run ahead of each other (a rank reads a file the main process "
               "has not finished writing)",
}
# a Trainer's ``train`` is the whole run, not a mode switch
_TRAINER_TRAIN = ("the Trainer never trains: the script goes on to evaluate or save the untouched pretrained "
                  "model")
# receivers whose bare ``.update`` / ``.step`` is a training call (``.update`` is too common a name otherwise)
_SCALER_HINTS = ("scaler", "ema")
_FRAMEWORK_HINTS = ("torch", "lightning", "transformers", "accelerate")
# receivers that hold data or settings, not a model or optimizer: a bare `args.train` / `mnist.train` /
# `cfg.eval` is a displayed value (an exported notebook cell), not a forgotten call
_NOT_TRAINING_OBJECTS = ("data", "args", "cfg", "config", "split", "hparams", "opts", "flags", "df")


def _receiver_text(node: ast.Attribute) -> str:
    return ast.unparse(node.value)


@register
class TrainingMethodNamedNotCalled(Rule):
    code = "PF247"
    name = "training-method-named-not-called"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    needs_text = ("backward", "step", "zero_grad", "eval", "train", "update", "unscale_", "wait_for_everyone",
                  "barrier")
    summary = ("`optimizer.step` / `loss.backward` / `model.eval` written without `()`: the method is looked up "
               "and never called")
    explanation = """
## What it finds

A statement that names a training method without calling it: `loss.backward`,
`optimizer.step`, `scheduler.step`, `optimizer.zero_grad`, `model.eval`,
`model.train`, `trainer.train` (a Hugging Face Trainer), `scaler.update`,
`scaler.unscale_`, `accelerator.wait_for_everyone`, `dist.barrier`, in a
file that uses PyTorch (or Lightning, Transformers, Accelerate).

## Why it matters

In Python `model.eval` on its own line is an expression statement: it looks the bound
method up and discards it. No error, no warning, and the job trains on. Depending on the
method: without `backward` no gradient is ever computed, without `step` the weights
never change, without `zero_grad` gradients pile up over every step, without `eval` the
validation numbers come from a model with dropout on and batch norm updating on the
validation data, without `train` the model trains in evaluation mode after the first
validation pass, without `trainer.train` nothing trains at all, without
`wait_for_everyone` / `barrier` the processes race. Reports: PyTorch forums "model.eval vs model.eval()" questions and the
repeated Stack Overflow "loss does not change" threads where the loop reads
`optimizer.zero_grad` / `loss.backward` / `optimizer.step` without parentheses (e.g. the
loop quoted at taourl.com/read-2391810.html); end2end-asr-pytorch issue 4 (a step call
on the wrong object; same "never stepped" effect).

## How to fix it

Add the parentheses: `loss.backward()`, `optimizer.step()`, `model.eval()`.

## When preflight stays silent

* The name is called, assigned (`step_fn = optimizer.step`), passed on
  (`hooks.append(model.train)`), or read inside an expression.
* `.update` / `.step` on a receiver that is not a training object is still flagged for
  `.step`, but `.update` is only flagged on a scaler or EMA (`scaler.update`,
  `ema.update`): a bare `config.update` is left alone.
* The receiver holds data or settings (`mnist.train` with `mnist = datasets.MNIST(...)`,
  `args.eval`, `cfg.step`, `dataset.train`): a displayed value in an exported notebook cell, not a forgotten call.
* The file does not mention `torch` (or Lightning, Transformers, Accelerate).
"""
    bad_examples = examples("preflight.rules.code._pf247_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf247_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not any(ctx.mentions(hint) for hint in _FRAMEWORK_HINTS):
            return
        # names bound to a dataset (`mnist = datasets.MNIST(...)`): their `.train` is a split or a flag
        data_names = {t.id for a in ctx.nodes(ast.Assign) if isinstance(a.value, ast.Call)
                      and "dataset" in ast.unparse(a.value.func).lower()
                      for t in a.targets if isinstance(t, ast.Name)}
        for stmt in ctx.nodes(ast.Expr):
            node = stmt.value
            if not isinstance(node, ast.Attribute) or node.attr not in _EFFECT:
                continue
            receiver = _receiver_text(node)
            if node.attr == "update" and not any(h in receiver.lower() for h in _SCALER_HINTS):
                continue
            if node.attr == "unscale_" and "scaler" not in receiver.lower():
                continue
            if node.attr in {"train", "eval", "step", "update"} and (
                    any(word in receiver.lower() for word in _NOT_TRAINING_OBJECTS) or receiver in data_names):
                continue
            effect = _EFFECT[node.attr]
            if node.attr == "train" and "trainer" in receiver.lower():
                effect = _TRAINER_TRAIN
            if isinstance(node.value, ast.Name) and node.value.id in {"torch", "nn"}:
                continue  # `torch.step`-like module attributes, not a bound method of a training object
            yield ctx.finding(
                self, stmt,
                f"`{ast.unparse(node)}` names the method without calling it: Python looks it up and discards "
                f"it, so {effect}. Write `{ast.unparse(node)}()`")
