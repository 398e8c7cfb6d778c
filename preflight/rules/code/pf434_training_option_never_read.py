"""PF434 training-option-never-read: a training hyper-parameter option that the script declares and never reads."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import script_index
from preflight.rules.base import Rule, examples

# options whose value must reach the optimizer, the clipping or the schedule to mean anything
_HYPER = frozenset({
    "max_grad_norm", "clip_grad_norm", "grad_clip", "clip_grad", "gradient_clipping", "grad_norm_clip",
    "weight_decay", "warmup_steps", "warmup_ratio", "num_warmup_steps", "lr", "learning_rate",
    "gradient_accumulation_steps", "grad_accum_steps", "accumulation_steps", "label_smoothing",
    "momentum", "adam_beta1", "adam_beta2", "adam_epsilon", "adam_eps", "lr_scheduler_type",
})
_PARSE = frozenset({"parse_args", "parse_known_args"})
_TRAINS = frozenset({"backward", "initialize", "train", "fit", "step"})


def _namespaces(ctx: FileContext) -> Optional[set[str]]:
    """Names bound to ``parser.parse_args()``; None when one of them is used other than as
    ``args.option`` (passed whole, returned, ``vars(args)``): its options may be read elsewhere."""
    names: set[str] = set()
    for node in ctx.nodes(ast.Assign):
        value = node.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _PARSE):
            continue
        for target in node.targets:
            first = target.elts[0] if isinstance(target, (ast.Tuple, ast.List)) and target.elts else target
            if not isinstance(first, ast.Name):
                return None
            names.add(first.id)
    if not names:
        return None
    for name in ctx.nodes(ast.Name):
        if name.id in names and isinstance(name.ctx, ast.Load):
            parent = ctx.parent(name)
            if not (isinstance(parent, ast.Attribute) and parent.value is name):
                return None
    return names


@register
class TrainingOptionNeverRead(Rule):
    code = "PF434"
    needs_text = ("add_argument",)
    name = "training-option-never-read"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch", "deepspeed")
    summary = "A training hyper-parameter option is declared but the script never reads it"
    explanation = """
## What it finds

`parser.add_argument("--max_grad_norm", ...)` (or `--weight_decay`, `--warmup_steps`,
`--lr`, `--gradient_accumulation_steps`, ... a training hyper-parameter) in a script
that trains, when nothing in the file reads it: no `args.max_grad_norm`, no
`getattr(args, "max_grad_norm")`, and the parsed namespace is only ever used as
`args.<option>` (never passed whole, returned or turned into a dict).

## Why it matters

The user sets the option on the launch line and nothing changes: the clipping,
decay or schedule keep a helper's default (open-instruct PR 1598: `--max_grad_norm`
was parsed but never passed to the DeepSpeed config builder, whose
`gradient_clipping` kept its default of 1.0).

## How to fix it

Pass the option where it belongs (`get_train_ds_config(..., max_norm=args.max_grad_norm)`),
or remove it.

## When preflight stays silent

* The namespace is used whole anywhere (`train(args)`, `vars(args)`, `return args`):
  another module may read the option.
* The option's name appears as an attribute or a string anywhere in the file.
* Options that are not training hyper-parameters (paths, logging, `--local_rank`).
* The file does not train (no `backward`, `step`, `deepspeed.initialize`, `fit`, `train`).
"""
    bad_examples = examples("preflight.rules.code._pf434_examples", "PF434_BAD")
    good_examples = examples("preflight.rules.code._pf434_examples", "PF434_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        # the cheap tests on the tree first; the option index (a walk of its own) last
        if not any(isinstance(c.func, ast.Attribute) and c.func.attr in _TRAINS for c in ctx.nodes(ast.Call)):
            return
        if _namespaces(ctx) is None:
            return
        # an option's destination is spelt in some string of the file (`"--max-grad-norm"`,
        # `dest="lr"`, a name in a list the options are declared from): without one, the
        # option index (the adapters' literal resolver) is not built
        if not any(isinstance(c.value, str) and c.value.lstrip("-").replace("-", "_") in _HYPER
                   for c in ctx.nodes(ast.Constant)):
            return
        options = script_index(ctx).arguments
        hyper = {dest: specs for dest, specs in options.items() if dest in _HYPER and len(specs) == 1}
        if not hyper:
            return
        attrs = {n.attr for n in ctx.nodes(ast.Attribute)}
        strings = {n.value for n in ctx.nodes(ast.Constant) if isinstance(n.value, str)}
        calls = {c.lineno: c for c in ctx.nodes(ast.Call)
                 if isinstance(c.func, ast.Attribute) and c.func.attr == "add_argument"}
        for dest, (spec,) in sorted(hyper.items()):
            if dest in attrs:
                continue
            if any(s == dest for s in strings if s not in spec.options):
                continue
            node = calls.get(spec.line)
            if node is None:
                continue
            yield ctx.finding(
                self, node,
                f"`{spec.flag}` is declared but nothing in this script reads `{dest}`: a value given on the launch "
                "line changes nothing (the run keeps whatever default the code uses instead). Pass it where it "
                "belongs, or remove the option")
