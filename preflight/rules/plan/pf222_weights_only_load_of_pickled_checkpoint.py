"""PF222 weights-only-load-of-pickled-checkpoint: ``torch.load`` with the PyTorch 2.6 default
``weights_only=True`` on a checkpoint the same file saves with an ``argparse.Namespace`` or NumPy
RNG state in it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import examples
from preflight.sources import ParsedPython

_FLIPPED_IN = (2, 6)  # torch 2.6 release notes: "torch.load now uses weights_only=True by default"
_ARG_NAMES = frozenset({"args", "opt", "opts", "hparams"})


def _parse_args_names(tree: ast.AST) -> set[str]:
    """Names bound to ``<parser>.parse_args()`` / ``parse_known_args()[0]``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value.value if isinstance(node.value, ast.Subscript) else node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in ("parse_args", "parse_known_args"):
                out.add(node.targets[0].id)
    return out


def _pickled_only(tree: ast.AST, value: ast.AST, namespaces: set[str]) -> Optional[str]:
    """What in a saved value the weights-only unpickler refuses: an argparse Namespace
    (``"args": args``) or NumPy's RNG state (``np.random.get_state()``: a tuple holding an ndarray)."""
    if isinstance(value, ast.Name) and (value.id in namespaces):
        return f"the argparse Namespace `{value.id}`"
    if isinstance(value, ast.Call) and ast.unparse(value.func) in ("np.random.get_state", "numpy.random.get_state"):
        return "NumPy's RNG state (`np.random.get_state()`)"
    return None


def _saved_dict(tree: ast.AST, call: ast.Call) -> Optional[ast.Dict]:
    if not call.args:
        return None
    obj = call.args[0]
    if isinstance(obj, ast.Dict):
        return obj
    if isinstance(obj, ast.Name):
        scope: ast.AST = tree  # the innermost function holding the save
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and fn.lineno <= call.lineno <= (fn.end_lineno or fn.lineno):
                scope = fn
        bound = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and n.lineno < call.lineno
                 and any(isinstance(t, ast.Name) and t.id == obj.id for t in n.targets)]
        if bound:
            last = max(bound, key=lambda n: n.lineno)
            if isinstance(last.value, ast.Dict):
                return last.value
    return None


def _refused(tree: ast.AST, saved: ast.Dict, namespaces: set[str]) -> Optional[tuple[ast.AST, str]]:
    stack = [saved]
    while stack:
        d = stack.pop()
        for key, value in zip(d.keys, d.values):
            if isinstance(value, ast.Dict):
                stack.append(value)
                continue
            names = set(namespaces)
            if isinstance(key, ast.Constant) and key.value == "args" and isinstance(value, ast.Name) \
                    and value.id in _ARG_NAMES:
                names.add(value.id)  # Megatron's `"args": args`, the parsed arguments handed in
            what = _pickled_only(tree, value, names)
            if what is not None:
                return value, what
    return None


@register
class WeightsOnlyLoadOfPickledCheckpoint(PlanRule):
    code = "PF222"
    name = "weights-only-load-of-pickled-checkpoint"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`torch.load` without `weights_only=False` on torch >= 2.6 of a checkpoint the file saves with an "
               "argparse Namespace or NumPy RNG state: the weights-only unpickler refuses it")
    explanation = """
## What it finds

A file that `torch.save`s a dict holding an `argparse.Namespace` (a name bound to
`parser.parse_args()`, or Megatron's `"args": args`) or NumPy's RNG state
(`np.random.get_state()`), and `torch.load`s a checkpoint without `weights_only=`, in a project
that declares torch 2.6 or later (requirements, pyproject, `environment.yml`, lock files).

## Why it matters

PyTorch 2.6 flipped the default of `torch.load` to `weights_only=True` (release notes:
"torch.load now uses weights_only=True by default"): the restricted unpickler accepts tensors,
containers and primitive types only, and refuses any other global, so loading such a
checkpoint fails with `UnpicklingError: Weights only load failed ... Unsupported global:
GLOBAL argparse.Namespace` (or `numpy.core.multiarray._reconstruct`). Resuming the run breaks
after the upgrade (ROCm/Megatron-LM PR 56: "explicitly set weights_only to False during
checkpoint loading to support PyTorch 2.6").

## How to fix it

For checkpoints the run wrote itself, `torch.load(path, map_location="cpu",
weights_only=False)`; or allowlist the classes with `torch.serialization.add_safe_globals([...])`;
or save `vars(args)` and plain data instead.

## When preflight stays silent

* `weights_only` is passed to the load (either value), or the file calls `add_safe_globals`
  / uses `safe_globals`.
* No torch version is declared, or one before 2.6.
* The saved dict holds only tensors, state dicts, numbers and strings (`vars(args)` too).
"""
    bad_examples = examples("preflight.rules.plan._pf222_examples", "PF222_BAD")
    good_examples = examples("preflight.rules.plan._pf222_examples", "PF222_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "torch.load" not in text or "torch.save" not in text or "safe_globals" in text:
                continue
            yield from self._check_script(pctx, script)

    def _check_script(self, pctx: PlanContext, script: ParsedPython) -> Iterable[Finding]:
        tree = script.tree
        idx = pctx.index(script)
        namespaces = _parse_args_names(tree)
        refused = None
        loads = []
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            qual = idx.qualify(ast.unparse(call.func)) or ""
            if qual == "torch.save" and refused is None:
                saved = _saved_dict(tree, call)
                refused = _refused(tree, saved, namespaces) if saved is not None else None
            elif qual == "torch.load" and kwarg(call, "weights_only") is None \
                    and not any(k.arg is None for k in call.keywords):
                loads.append(call)
        if refused is None or not loads:
            return
        version = pctx.version("torch", script)
        if version is None or not version.at_least(*_FLIPPED_IN):
            return
        node, what = refused
        for load in loads:
            yield pctx.code_finding(self, script, load, (
                f"`torch.load` without `weights_only=` on torch >= 2.6 ({version.describe()}) uses the weights-only "
                f"unpickler by default, and the checkpoint this file saves holds {what} (line {getattr(node, 'lineno', 0)}): loading it "
                "fails with \"Weights only load failed ... Unsupported global\". Pass `weights_only=False` for the "
                "run's own checkpoints (or allowlist the class with `torch.serialization.add_safe_globals`)"),
                evidence=[pctx.code_evidence(script, node, "saved into the checkpoint here", same_file=True)])
