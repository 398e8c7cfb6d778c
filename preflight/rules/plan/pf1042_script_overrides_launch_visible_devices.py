"""PF1042 script-overrides-launch-visible-devices: the launch chooses the GPUs (``CUDA_VISIBLE_DEVICES=1 python
train.py``, or ``export CUDA_VISIBLE_DEVICES=...`` in the launch script) and the training script overwrites the
variable unconditionally with another fixed or computed value: the launch's choice is discarded."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._job_batch_scripts import job_shell_scripts
from preflight.rules.plan._visible_devices import visible_device_count

_VAR = "CUDA_VISIBLE_DEVICES"
_EXPORT = re.compile(r"^\s*export\s+CUDA_VISIBLE_DEVICES=([^\s;#]+)\s*(?:#.*)?$")
# names that carry the user's own choice into the script: the value then follows the command line or a config
_CHOICE = re.compile(r"\b(args|opt|opts|options|cfg|config|conf|hparams|params|flags|FLAGS|sys)\b")


def _launch_value(pctx: PlanContext) -> Optional[tuple[str, str]]:
    """(value, where) of the CUDA_VISIBLE_DEVICES the launch sets for the job: on the launch line, else one
    top-level ``export`` in the job's shell script(s)."""
    argv = pctx.project.argv
    if argv and any(_VAR in tok for tok in argv):
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        value = info.env.get(_VAR)
        if value is not None:
            at = pctx.project.launch_at
            return value, (f"{at[0]}:{at[1]}" if at else "the launch line")
    found: set[str] = set()
    where = ""
    for display, text in job_shell_scripts(pctx):
        for number, line in enumerate(text.splitlines(), 1):
            m = _EXPORT.match(line)
            if m:
                found.add(m.group(1).strip("\"'"))
                where = f"{display}:{number}"
    if len(found) == 1:
        return found.pop(), where
    return None


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _main_guard(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


def _unconditional(node: ast.AST, parents: dict[int, ast.AST]) -> Optional[ast.AST]:
    """The enclosing function (or the module) when no ``if``/loop/``try``/``with`` other than the
    ``__main__`` guard encloses ``node``; None otherwise."""
    cur = parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            return cur
        if isinstance(cur, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.AsyncFor, ast.AsyncWith)) \
                and not _main_guard(cur):
            return None
        cur = parents.get(id(cur))
    return None


def _overrides(tree: ast.AST) -> Iterable[tuple[ast.Assign, ast.expr]]:
    """``os.environ["CUDA_VISIBLE_DEVICES"] = value`` assignments run unconditionally whose value is neither the
    user's choice (an argument, a config, a parameter of the function) nor read from the variable itself."""
    parents = _parents(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t = node.targets[0]
        if not (isinstance(t, ast.Subscript) and ast.unparse(t.value) in ("os.environ", "environ")
                and isinstance(t.slice, ast.Constant) and t.slice.value == _VAR):
            continue
        scope = _unconditional(node, parents)
        if scope is None:
            continue
        text = ast.unparse(node.value)
        if isinstance(node.value, ast.Constant) and not str(node.value.value).strip():
            continue  # "" hides every GPU on purpose (a CPU-only worker)
        if _VAR in text or _CHOICE.search(text) or "input(" in text or "environ" in text:
            continue
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]}
            if scope.args.vararg:
                params.add(scope.args.vararg.arg)
            if scope.args.kwarg:
                params.add(scope.args.kwarg.arg)
            if any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(node.value)):
                continue
        names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        if names & _assigned_from_choice(tree):
            continue
        yield node, node.value


def _assigned_from_choice(tree: ast.AST) -> set[str]:
    """Module names bound from the user's choice (``gpu = args.gpu``): a value built from them follows it."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and (_CHOICE.search(ast.unparse(node.value)) or "environ" in
                                             ast.unparse(node.value)):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


@register
class ScriptOverridesLaunchVisibleDevices(PlanRule):
    code = "PF1042"
    name = "script-overrides-launch-visible-devices"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("torch", "accelerate", "deepspeed", "lightning", "transformers")
    summary = ("The launch sets CUDA_VISIBLE_DEVICES and the script overwrites it unconditionally with another "
               "value: the launch's GPU choice is discarded and the job runs on other GPUs")
    explanation = """
## What it finds

A job whose launch sets `CUDA_VISIBLE_DEVICES` to a literal list (`CUDA_VISIBLE_DEVICES=1 python
train.py`, or one `export CUDA_VISIBLE_DEVICES=...` in the launch script) while the training
script (or a local module it imports) assigns `os.environ["CUDA_VISIBLE_DEVICES"]` outside any
`if`/loop/`try` with a value of its own: a different string (`"2"`), or one computed from
something other than the user's choice (`f"{MPI.COMM_WORLD.Get_rank() % GPUS_PER_NODE}"`).

## Why it matters

The assignment replaces the whole variable before CUDA starts, so the GPUs the launch chose are
never used: the job lands on the script's GPU instead, on a shared node the GPU another user or
job is on, on a smaller machine "No CUDA GPUs are available" (YoujiaZhang/Ref-GS issue 4, a
`train.py` that hard-codes `"2"`; jychoi118/P2-weighting issue 18, guided-diffusion's
`dist_util.setup_dist` setting it from the MPI rank, "when I use CUDA_VISIBLE_DEVICES=x, it still
works on GPU 0").

## How to fix it

Drop the assignment and let the launch choose, or only fill it in when the launch did not:
`os.environ.setdefault("CUDA_VISIBLE_DEVICES", "2")` / `if "CUDA_VISIBLE_DEVICES" not in
os.environ:`; or take the GPU from a command-line option.

## When preflight stays silent

* The script's value equals the launch's, is empty (`""` hides the GPUs on purpose), is `setdefault`, sits under an `if`/`try`/loop, or is
  built from the user's choice (`args.gpu`, a config, a function parameter, another environment
  variable) or from the variable itself.
* The launch sets no literal `CUDA_VISIBLE_DEVICES` (or several different ones), or sets none.
"""
    bad_examples = examples("preflight.rules.plan._pf1042_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf1042_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        launch = _launch_value(pctx)
        if launch is None or visible_device_count(launch[0]) is None:
            return
        value, where = launch
        for script in pctx.scripts:
            if _VAR not in script.source.text:
                continue
            for node, expr in _overrides(script.tree):
                if isinstance(expr, ast.Constant) and str(expr.value).replace(" ", "") == value.replace(" ", ""):
                    continue
                yield pctx.location_finding(
                    self, script.source.display, node.lineno,
                    f"the launch sets CUDA_VISIBLE_DEVICES={value} ({where}) but the script overwrites it here "
                    f"with `{ast.unparse(expr)}` unconditionally: the launch's GPU choice is discarded and the job "
                    "runs on the script's GPU(s) instead (on a shared node another job's GPU, on a smaller machine "
                    "\"No CUDA GPUs are available\"); remove the assignment or use "
                    f"`os.environ.setdefault(\"{_VAR}\", ...)`")
