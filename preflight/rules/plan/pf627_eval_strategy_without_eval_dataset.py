"""PF627 eval-strategy-without-eval-dataset: TrainingArguments that evaluate (``eval_strategy``
"steps"/"epoch") for a Trainer given no ``eval_dataset``: ``Trainer.__init__`` raises."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_branch_none import launch_branch_none
from preflight.rules.plan._pf508_support import (
    ARG_CLASSES,
    ArgsSite,
    args_sites,
    known,
    launch_site,
)

_FROM = ("transformers.", "trl.")
_EVAL_DATASET_POSITION = 4  # Trainer(model, args, data_collator, train_dataset, eval_dataset, ...)


def _strategy(site: ArgsSite) -> Optional[str]:
    """The evaluation strategy the values turn on ("steps"/"epoch"), None when "no" or unknown."""
    v = site.values
    raw = v.get("eval_strategy", v.get("evaluation_strategy", "no"))
    if not known(raw) or not isinstance(raw, str):
        return None
    value = raw.rsplit(".", 1)[-1].lower()
    return value if value in ("steps", "epoch") else None


def _unpacks(call: ast.Call) -> bool:
    return any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)


_ABSENT = object()  # the unpacked dict has no eval_dataset key


def _dict_value(node: ast.expr, key: str) -> Any:
    """The value a ``dict(k=v, ...)`` call or a ``{"k": v}`` literal gives ``key``: _ABSENT when the dict
    has no such key, None when the dict's keys cannot all be read (``**more``, a computed key)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and not node.args:
        if any(kw.arg is None for kw in node.keywords):
            return None
        return next((kw.value for kw in node.keywords if kw.arg == key), _ABSENT)
    if isinstance(node, ast.Dict):
        if any(k is None or not (isinstance(k, ast.Constant) and isinstance(k.value, str)) for k in node.keys):
            return None
        return next((v for k, v in zip(node.keys, node.values) if k.value == key), _ABSENT)  # type: ignore[union-attr]
    return None


def _none_in(fn: Optional[ast.AST], expr: ast.expr) -> bool:
    """``expr`` is the constant None, or a name that ``fn`` (the function returning it) binds only to None."""
    if isinstance(expr, ast.Constant):
        return expr.value is None
    if fn is None or not isinstance(expr, ast.Name):
        return False
    args = fn.args  # type: ignore[attr-defined]
    if any(a.arg == expr.id for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
        return False
    bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name) and t.id == expr.id]
    other = [n for n in ast.walk(fn) if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With,
                                                          ast.NamedExpr, ast.Tuple))
             and any(isinstance(t, ast.Name) and t.id == expr.id and isinstance(t.ctx, ast.Store)
                     for t in ast.walk(n))]
    return len(bound) == 1 and not other and isinstance(bound[0], ast.Constant) and bound[0].value is None


def _unpacked_eval_dataset(idx: Any, call: ast.Call) -> Optional[tuple[ast.AST, bool]]:
    """``Trainer(..., **data_module)`` where ``data_module`` is bound once, in this script, to a dict
    literal or to the call of a function of the script whose every ``return`` is a dict literal (the
    Stanford Alpaca ``make_supervised_data_module`` shape): (where the dict says it, given) when every
    such dict leaves ``eval_dataset`` out or sets it to None (given: the key is there), else None."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg == "eval_dataset" for kw in call.keywords):
        return None
    unpacked = [kw.value for kw in call.keywords if kw.arg is None]
    if len(unpacked) != 1 or not isinstance(unpacked[0], ast.Name) or idx.param_count.get(unpacked[0].id, 0):
        return None
    bound = idx.assigns.get(unpacked[0].id, [])
    if len(bound) != 1 or bound[0] is None:
        return None
    dicts: list[tuple[Optional[ast.AST], ast.expr]] = []
    value = bound[0]
    if isinstance(value, (ast.Dict, ast.Call)) and _dict_value(value, "eval_dataset") is not None:
        dicts.append((None, value))
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        defs = idx.functions.get(value.func.id) or []
        if len(defs) != 1 or not isinstance(defs[0], ast.FunctionDef):
            return None
        returns = [n.value for n in ast.walk(defs[0]) if isinstance(n, ast.Return)]
        if not returns or any(r is None for r in returns):
            return None
        dicts.extend((defs[0], r) for r in returns if r is not None)
    else:
        return None
    anchor: Optional[tuple[ast.AST, bool]] = None
    for fn, node in dicts:
        found = _dict_value(node, "eval_dataset")
        if found is None:
            return None
        if found is _ABSENT:
            anchor = anchor or (node, False)
        elif _none_in(fn, found):
            anchor = (found, True) if anchor is None or not anchor[1] else anchor
        else:
            return None
    return anchor


@register
class EvalStrategyWithoutEvalDataset(PlanRule):
    code = "PF627"
    name = "eval-strategy-without-eval-dataset"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("transformers", "trl")
    summary = ("TrainingArguments with `eval_strategy` \"steps\"/\"epoch\" for a Trainer given no `eval_dataset`: "
               "`Trainer.__init__` raises before training starts")
    explanation = """
## What it finds

A `Trainer` (or a TRL trainer built on it: `SFTTrainer`, `DPOTrainer`, ...) called with no
`eval_dataset` or with `eval_dataset=None`, while the TrainingArguments it runs with turn
evaluation on: `eval_strategy` (or the old `evaluation_strategy`) `"steps"` or `"epoch"` in the
script's `TrainingArguments(...)`/`SFTConfig(...)` call or on the launch line that
`HfArgumentParser(...).parse_args_into_dataclasses()` reads (`--eval_strategy steps`).
The trainer's datasets may come unpacked from a dict, `Trainer(..., **data_module)`, as in
Stanford Alpaca's `train.py` and the many projects built on it: when `data_module` is bound
once to a dict literal, or to a call of a function of the same script whose every `return`
is a dict literal, and each of those dicts sets `eval_dataset` to None (or leaves it out),
the trainer gets no eval set either. A name passed as `eval_dataset` that is bound in the two
branches of one `if args.val_size > 0:` / `else:` (an argument compared with a number, or its
truth) is None when the launch line's value (or, left out, the field's literal dataclass default)
picks the branch that binds it to None (LlamaFactory issue 744: `--val_size 0` with
`--evaluation_strategy steps`).

## Why it matters

`Trainer.__init__` checks it (transformers `trainer.py`): `if args.eval_strategy is not None and
args.eval_strategy != "no" and self.eval_dataset is None: raise ValueError("You have set
`args.eval_strategy` to steps but you didn't pass an `eval_dataset` to `Trainer`. Either set
`args.eval_strategy` to `no` or pass an `eval_dataset`.")`. Releases before that check fail
later, at the first evaluation ("Trainer: evaluation requires an eval_dataset."), after the
first `eval_steps` of training. The usual shape: a launch script adds `--eval_strategy steps`
to get evaluation during training while the code still builds the trainer with
`eval_dataset=None` (Qwen3-VL issue 1936).

## How to fix it

Build an evaluation split and pass it (`eval_dataset=split["test"]`), or leave
`eval_strategy` at `"no"`.

## When preflight stays silent

* `eval_dataset` is passed as anything but `None` (a variable that may be None is not known
  to be None), `*args` or enough positional arguments reach it, or `**kwargs` that preflight
  cannot read to the end: a parameter, a dict built with `**more` or computed keys, a function
  with a `return` that is not a dict literal, one dict of several that passes an eval set.
* The strategy is `"no"`, not given, or not readable (a variable, `**kwargs`); arguments read
  from a JSON/YAML file or `sys.argv` by hand.
* The trainer's `args` cannot be tied to one TrainingArguments call of the script (or to the
  launch line when the script has no such call); a trainer class of the project's own.
"""
    bad_examples = examples("preflight.rules.plan._pf627_examples", "PF627_BAD")
    good_examples = examples("preflight.rules.plan._pf627_examples", "PF627_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        sites = list(args_sites(pctx))
        launch = launch_site(pctx)
        for script in pctx.scripts:
            idx = pctx.index(script)
            mine = [s for s in sites if s.script is script and s.call is not None]
            for call_site in idx.calls:
                qualified = call_site.qualified or ""
                if not (qualified.endswith("Trainer") and qualified.startswith(_FROM)):
                    continue
                call = call_site.call
                if len(call.args) > _EVAL_DATASET_POSITION:
                    continue
                unpacked: Optional[tuple[ast.AST, bool]] = None
                if _unpacks(call):
                    unpacked = _unpacked_eval_dataset(idx, call)
                    if unpacked is None:
                        continue
                expr = next((kw.value for kw in call.keywords if kw.arg == "eval_dataset"), None)
                site = self._args_site(call, mine, launch, script)
                if site is None:
                    continue
                branch = None
                if expr is not None and not self._is_none(idx, expr):
                    # a name the launch line's value sends down the branch that binds it to None
                    if not (isinstance(expr, ast.Name) and site.anchor is not None):
                        continue
                    branch = launch_branch_none(script.tree, expr.id, site.values)
                    if branch is None:
                        continue
                strategy = _strategy(site)
                if strategy is None:
                    continue
                yield self._finding(pctx, script, call_site, expr, site, strategy, unpacked, branch)

    @staticmethod
    def _is_none(idx: Any, expr: ast.expr) -> bool:
        if isinstance(expr, ast.Constant):
            return expr.value is None
        if not isinstance(expr, ast.Name) or idx.param_count.get(expr.id, 0):
            return False
        bound = idx.assigns.get(expr.id, [])
        return len(bound) == 1 and isinstance(bound[0], ast.Constant) and bound[0].value is None

    @staticmethod
    def _args_site(call: ast.Call, mine: list[ArgsSite], launch: Optional[ArgsSite],
                   script: Any) -> Optional[ArgsSite]:
        expr = next((kw.value for kw in call.keywords if kw.arg == "args"), None)
        if expr is None and len(call.args) >= 2:
            expr = call.args[1]
        if expr is None:
            return None
        if isinstance(expr, ast.Call):
            return next((s for s in mine if s.call.call is expr), None)
        if not isinstance(expr, ast.Name):
            return None
        named = [s for s in mine if s.call.target == expr.id]
        if len(named) == 1:
            return named[0]
        if named or any(s.call.last in ARG_CLASSES for s in mine):
            return None
        if launch is not None and launch.script is script:
            return launch
        return None

    def _finding(self, pctx: PlanContext, script: Any, call_site: Any, expr: Optional[ast.expr],
                 site: ArgsSite, strategy: str, unpacked: Optional[tuple[ast.AST, bool]] = None,
                 branch: Optional[tuple[ast.If, str, Any]] = None) -> Finding:
        where = "on the launch line" if site.anchor is not None else "in its TrainingArguments"
        given = "`eval_dataset=None`" if expr is not None else "no `eval_dataset`"
        if branch is not None and expr is not None:
            said = "on the launch line" if branch[1] in site.values else "by default (the line leaves it out)"
            given = (f"`eval_dataset={ast.unparse(expr)}`, which is None because `{branch[1]}` is {branch[2]} "
                     f"{said} (the branch at line {branch[0].lineno} binds it to None)")
        if unpacked is not None:
            name = next(ast.unparse(kw.value) for kw in call_site.call.keywords if kw.arg is None)
            given = (f"`**{name}`, whose dict sets `eval_dataset` to None (line {unpacked[0].lineno})"  # type: ignore[attr-defined]
                     if unpacked[1] else f"`**{name}`, whose dict has no `eval_dataset` (line "
                     f"{unpacked[0].lineno})")  # type: ignore[attr-defined]
            expr = unpacked[0]  # type: ignore[assignment]
        message = (
            f"`{call_site.label}(...)` gets {given} while `eval_strategy=\"{strategy}\"` is set {where}: "
            f"Trainer.__init__ raises \"You have set `args.eval_strategy` to {strategy} but you didn't pass "
            "an `eval_dataset` to `Trainer`\" before the first step (older transformers: \"evaluation requires "
            "an eval_dataset\" at the first evaluation). Pass an evaluation split, or leave `eval_strategy` "
            "at \"no\"")
        anchor = site.call.call if site.call is not None else site.anchor
        evidence = [pctx.code_evidence(script, anchor, "the TrainingArguments that turn evaluation on")] \
            if anchor is not None else None
        return pctx.code_finding(self, script, expr if expr is not None else call_site.call, message,
                                 evidence=evidence)
