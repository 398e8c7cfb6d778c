"""PF652 launch-budget-overwritten-by-other-option: the launch line gives two options that size the run
(``--max_train_steps`` and ``--max_train_epochs``, ``--max_steps`` and ``--num_train_epochs``), and the code,
whenever the second one is given, overwrites the first with a value derived from the second."""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import _flags

# options that give the run's length: max_train_steps, num_train_epochs, max_steps, epochs, niter, train_iters,
# total_steps; not the periods and sub-schedules named like them (warmup_steps, save_epochs, validation_steps,
# num_inference_steps, perform_rl_step)
_BUDGET = re.compile(r"^(?:max_|num_|total_|n_)?(?:train_|training_)?(?:steps|epochs|iters|iterations|niter|epoch|iter)$"
                     r"|^(?:max|num|total)_\w*(?:steps|epochs|iters|iterations)$")
_NOT_BUDGET = ("warmup", "inference", "valid", "eval", "save", "log", "sample", "decay", "ckpt", "checkpoint")
_NAMESPACES = ("args", "opt", "opts", "hparams", "cfg", "config")


def _budget(name: str) -> bool:
    low = name.lower()
    return bool(_BUDGET.match(low)) and not any(w in low for w in _NOT_BUDGET)


def _option_attr(node: ast.AST) -> Optional[str]:
    """``args.max_steps``, ``self.args.max_steps``, ``training_args.max_steps``: the option's name, when
    the object it is read from is an options namespace (its last name contains ``args``, or is ``opt``,
    ``hparams``, ``cfg``...)."""
    if not (isinstance(node, ast.Attribute) and _budget(node.attr)):
        return None
    owner = node.value
    last = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
    low = last.lower()
    return node.attr if ("args" in low or low in _NAMESPACES) else None


def _given(value: Any, test: ast.expr) -> bool:
    """Whether the guard ``test`` on option ``B`` holds for the launch line's value of ``B``."""
    if isinstance(value, str) and value.lower() in ("none", "null", ""):
        return False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, (ast.IsNot, ast.NotEq)) and isinstance(right, ast.Constant) and right.value is None:
            return True
        if isinstance(right, ast.Constant) and isinstance(right.value, (int, float)) \
                and not isinstance(right.value, bool) and isinstance(value, (int, float)):
            limit = right.value
            return bool((isinstance(op, ast.Gt) and value > limit) or (isinstance(op, ast.GtE) and value >= limit)
                        or (isinstance(op, ast.NotEq) and value != limit))
        return False
    return value not in (0, False, "0")  # `if args.max_train_epochs:`


def _guard(test: ast.expr) -> Optional[str]:
    """The option ``B`` of ``if args.B is not None:`` / ``if args.B:`` / ``if args.B > 0:``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return _option_attr(test.left)
    return _option_attr(test)


def _mentions(node: ast.AST, name: str) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr == name) or (isinstance(n, ast.Name) and n.id == name)
               for n in ast.walk(node))


def _overwrites(body: list[ast.stmt], guard: str) -> Iterator[tuple[ast.Assign, str, bool]]:
    """Assignments in ``body`` to another budget option (``args.A = ...``, or a local ``A = ...``) from a
    value that does not read ``A``; ``if`` statements that test ``A`` are not entered (the fix: the
    user's value is kept as a cap). Yields (assignment, A, local)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            if not any(_mentions(stmt.test, a) for a in _assigned_budgets(stmt)):
                yield from _overwrites(stmt.body, guard)
                yield from _overwrites(stmt.orelse, guard)
            continue
        if isinstance(stmt, (ast.With, ast.Try)):
            yield from _overwrites(stmt.body, guard)
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        target = stmt.targets[0]
        name = _option_attr(target)
        local = False
        if name is None and isinstance(target, ast.Name) and _budget(target.id):
            name, local = target.id, True
        if name is None or name == guard or _mentions(stmt.value, name):
            continue
        yield stmt, name, local


def _assigned_budgets(stmt: ast.If) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(stmt):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                name = _option_attr(t) or (t.id if isinstance(t, ast.Name) else None)
                if name:
                    out.add(name)
    return out


def _else_reads_option(orelse: list[ast.stmt], name: str) -> bool:
    """The ``else`` branch sets the local ``A`` from the option ``A`` (``num_train_epochs =
    self.args.num_train_epochs``): the local is the user's option whenever ``B`` is not given."""
    for stmt in orelse:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets) \
                    and any(_option_attr(v) == name for v in ast.walk(n.value)):
                return True
    return False


@register
class LaunchBudgetOverwrittenByOtherOption(PlanRule):
    code = "PF652"
    name = "launch-budget-overwritten-by-other-option"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch", "transformers", "accelerate")
    summary = ("The launch line sizes the run twice (`--max_train_steps` and `--max_train_epochs`) and the code "
               "replaces one with a value derived from the other: the user's value is silently discarded")
    explanation = """
## What it finds

A launch line that gives two options naming the run's length (`max_train_steps`,
`max_train_epochs`, `max_steps`, `num_train_epochs`, `epochs`, `niter`, `train_iters`...:
`--max_train_steps 2500 --max_train_epochs 10`, `--max_steps 1000 --num_train_epochs 2`), and code of the job that, under `if args.B is not None:` (or
`if args.B:`, `if args.B > 0:`) with `B` the second option, sets the first one from
something else:

* `args.A = ...` (any options namespace: `args`, `self.args`, `training_args`, `opt`,
  `hparams`, `cfg`), from a value that does not read `args.A`; or
* a local `A = ...` whose `else` branch reads `args.A` (`num_train_epochs =
  self.args.num_train_epochs`): the local is the user's option except when `B` is given.

The guard must hold for the launch line's value of `B` (`--max_steps 1000` for `if
args.max_steps > 0:`).

## Why it matters

One of the two lengths the user typed is thrown away without an error. kohya-ss
sd-scripts replaced `--max_train_steps 2500` by the 11,980 steps of `--max_train_epochs
10` (PR 2426: a 12 h Kaggle run sized for 33 h, killed at the wall clock, and its
schedule decaying over steps it never reached); LM-BFF's Trainer sizes the run by
`--max_steps 1000` whenever it is positive, so `--num_train_epochs 2` becomes 250 epochs
over 32 examples (LM-BFF issue 12). Both held-out-34.

## How to fix it

Give only the option that should size the run, or make the code keep the user's value
as a cap (`args.max_train_steps = min(args.max_train_steps, epoch_steps)`, or assign only
under `if args.max_train_steps is None:`).

## When preflight stays silent

* The launch line gives only one of the two options, or the guard does not hold for its
  value (`--max_steps -1` for `if args.max_steps > 0:`).
* The assignment reads the option it sets (`args.max_train_steps = min(args.max_train_steps,
  ...)`), or sits under an `if` that tests it (`if args.max_train_steps is None:`).
* A local of the option's name without an `else` branch that reads the option.
* Options that do not name the run's length: periods and sub-schedules named like one
  (`warmup_steps`, `save_epochs`, `validation_steps`, `num_inference_steps`), flags
  (`--fp16` setting `mixed_precision`).
"""
    bad_examples = examples("preflight.rules.plan._pf652_examples", "PF652_BAD")
    good_examples = examples("preflight.rules.plan._pf652_examples", "PF652_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        flags: dict[str, Any] = {}
        for script in pctx.scripts:
            tokens = pctx.project.script_args(script)
            if tokens:
                flags.update({k: v for k, v in _flags(tokens).items() if _budget(k)})
        if len(flags) < 2:
            return
        for script in pctx.scripts:
            for node in ast.walk(script.tree):
                if not isinstance(node, ast.If):
                    continue
                guard = _guard(node.test)
                if guard is None or guard not in flags or not _given(flags[guard], node.test):
                    continue
                for stmt, name, local in _overwrites(node.body, guard):
                    if name not in flags or (local and not _else_reads_option(node.orelse, name)):
                        continue
                    yield pctx.code_finding(
                        self, script, stmt,
                        f"the launch line gives `--{name} {flags[name]}` and `--{guard} {flags[guard]}`, and "
                        f"whenever `{guard}` is given this line replaces `{name}` with a value derived from it: "
                        f"the `--{name}` the user typed is silently discarded and the run is sized by "
                        f"`--{guard}` alone. Give only one of them, or keep the user's `{name}` as a cap",
                        evidence=[pctx.code_evidence(script, node.test, f"taken whenever `--{guard}` is given")])
