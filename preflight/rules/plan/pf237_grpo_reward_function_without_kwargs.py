"""PF237 grpo-reward-function-without-kwargs: a reward function handed to trl's ``GRPOTrainer``
cannot take the keywords the trainer calls it with."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_files import job_files

_TRAINERS = frozenset({"GRPOTrainer"})
# what GRPOTrainer passes besides the dataset's columns (trl/trainer/grpo_trainer.py `_calculate_rewards`)
_ALWAYS = ("prompts", "completions", "completion_ids")

_Def = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _reward_names(tree: ast.AST, call: ast.Call) -> list[ast.Name]:
    """The plain function names in ``reward_funcs=[f, g]`` (or ``reward_funcs=f``, or a list bound to
    a name in the same file)."""
    value = next((kw.value for kw in call.keywords if kw.arg == "reward_funcs"), None)
    if value is None and len(call.args) >= 2:
        value = call.args[1]
    if isinstance(value, ast.Name):
        bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == value.id for t in n.targets)]
        if len(bound) == 1 and isinstance(bound[0], (ast.List, ast.Tuple)):
            value = bound[0]
    elts = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value] if value is not None else []
    return [e for e in elts if isinstance(e, ast.Name)]


def _rejects(fn: _Def) -> Optional[str]:
    """The keyword GRPOTrainer passes that ``fn`` cannot take, or None."""
    args = fn.args
    if args.kwarg is not None:
        return None
    named = {a.arg for a in (*args.args, *args.kwonlyargs)}  # positional-only ones cannot take keywords
    return next((k for k in _ALWAYS if k not in named), None)


@register
class GrpoRewardFunctionWithoutKwargs(PlanRule):
    code = "PF237"
    name = "grpo-reward-function-without-kwargs"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("trl",)
    summary = ("A reward function given to `GRPOTrainer` has no `**kwargs` and lacks a keyword the trainer "
               "always passes (`completion_ids`, ...): the first reward computation raises a TypeError")
    explanation = """
## What it finds

A function of the project passed in `GRPOTrainer(reward_funcs=[...])` (a list,
one function, or a list bound to a name) whose signature has no `**kwargs` and
does not name every keyword the trainer always passes: `prompts`, `completions`
and `completion_ids`. The function may live in another module of the project
(`from rewards import exact_match_reward`).

## Why it matters

trl's `GRPOTrainer` calls each plain reward function with keywords only:
`reward_func(prompts=prompts, completions=completions,
completion_ids=completion_ids_list, **reward_kwargs)`, where `reward_kwargs`
holds every other dataset column and `trainer_state`
(trl/trainer/grpo_trainer.py, `_calculate_rewards`, 0.24 read). A function written
as `def reward(prompts, completions, answer)` raises "TypeError: reward() got an
unexpected keyword argument 'completion_ids'" at the first generation step, after
the model and vLLM are up (trl issue 4939). trl's own reward functions take
`**kwargs` "to ensure compatibility with trainers like GRPOTrainer" (trl docs,
Reward Functions).

## How to fix it

Add `**kwargs` to the signature: `def reward(completions, answer, **kwargs)`.

## When preflight stays silent

* The function has `**kwargs`, or names `prompts`, `completions` and
  `completion_ids` itself (the other dataset columns cannot be seen statically).
* The reward is a model, a string (a Hub reward model), a lambda, a class
  instance or a function preflight cannot find in the project.
"""
    bad_examples = examples("preflight.rules.plan._pf237_examples", "PF237_BAD")
    good_examples = examples("preflight.rules.plan._pf237_examples", "PF237_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not any("GRPOTrainer" in ((s.text if s.text is not None else s.source.text) or "") for s in pctx.scripts):
            return
        files = job_files(pctx)
        defs: dict[str, list[tuple[str, _Def]]] = {}
        for display, tree in files:
            body = tree.body if isinstance(tree, ast.Module) else []
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs.setdefault(node.name, []).append((display, node))
        reported: set[tuple[str, int]] = set()
        for display, tree in files:
            for call in ast.walk(tree):
                if not (isinstance(call, ast.Call) and _callee(call) in _TRAINERS):
                    continue
                for name in _reward_names(tree, call):
                    found = defs.get(name.id, [])
                    if len(found) != 1:
                        continue  # unknown or ambiguous
                    where, fn = found[0]
                    missing = _rejects(fn)
                    if missing is None or (where, fn.lineno) in reported:
                        continue
                    reported.add((where, fn.lineno))
                    yield pctx.location_finding(
                        self, where, fn.lineno,
                        f"`{fn.name}` is a GRPOTrainer reward function without `**kwargs`: the trainer calls it "
                        f"as `{fn.name}(prompts=..., completions=..., completion_ids=..., <every other dataset "
                        f"column>=..., trainer_state=...)`, so it fails with \"TypeError: {fn.name}() got an "
                        f"unexpected keyword argument '{missing}'\". Add `**kwargs` to its signature",
                        evidence=[_evidence(display, call)])



def _evidence(display: str, call: ast.Call) -> Evidence:
    return Evidence(line=call.lineno, column=call.col_offset + 1, message="handed to GRPOTrainer here",
                    path=display)
