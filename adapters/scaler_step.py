"""The optimizer step done by timm's loss scaler: facebookresearch/deit @ 7e160fe ``main.py:353``
``loss_scaler = NativeScaler()`` (``from timm.utils import NativeScaler``), handed to
``engine.py:20-68`` ``train_one_epoch(..., loss_scaler, ...)``, whose loop calls
``loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters(), ...)`` (``:63-64``)
under ``with torch.cuda.amp.autocast():`` (``:46``). timm's ``NativeScaler.__call__`` is
``GradScaler.scale(loss).backward()``, an optional clip, ``GradScaler.step(optimizer)`` and
``update()`` (timm ``utils/cuda.py``), every call unless ``update_grad=False`` is passed (MAE's
``util/misc.py`` variant takes ``update_grad`` for accumulation). The same shape is in DeiT,
ConvNeXt, BEiT, PoolFormer and many timm-based repositories (``from timm.utils import NativeScaler``).

Read (never imported): the scaler built by the script (``timm.utils.NativeScaler``/``ApexScaler``,
unconditionally or under ``if`` tests not decided false) and its calls with a loss and an optimizer,
in the script or in the function of a local module it is handed to (by position or keyword; the
function found from the script's folder upward). Each such call inside a loop, with no
``update_grad=`` given, steps the optimizer on every pass: ``batch.grad_accum`` 1 (medium). A
``torch.cuda.amp.autocast()``/``torch.autocast("cuda")`` with no dtype (or float16), enabled, in the
same function: ``precision.mode`` amp_fp16 (medium; the scaler only makes sense for fp16). The loop is
then the project's own, which :mod:`preflight.adapters.visible_code` reads for its absences.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_SCALERS = ("timm.utils.NativeScaler", "timm.utils.cuda.NativeScaler", "timm.utils.ApexScaler",
            "timm.utils.cuda.ApexScaler")
_AUTOCAST = ("autocast",)
_MAX_BYTES = 1_000_000
_CACHE = "scaler_step.found"


@dataclass
class ScalerStep:
    built_line: int  # the scaler's construction in the script
    where: str  # "engine.py:63" of the first step call
    steps: list[ast.Call]  # the step calls
    in_loop: bool  # every step call is inside a for/while of its function
    fn: Optional[ast.AST]  # the function holding them (None: the script's module level)
    what: str = "timm's loss scaler"
    call: Optional[ast.Call] = None  # the script's call of ``fn`` (None: the steps are in the script)


def _loops_around(fn: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            inside.update(id(n) for n in ast.walk(node))
    return inside


def _step_calls(fn: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == name and len(n.args) >= 2]


def _local_function(idx: Any, call: ast.Call) -> Optional[tuple[Path, ast.AST]]:
    from preflight.local_trees import parse_file
    from preflight.script_parsers import _module_file

    name = dotted_name(call.func)
    path = idx.script.source.path
    if not name or path is None or name.partition(".")[0] not in idx.imports:
        return None
    module, _, fname = (idx.qualify(name) or "").rpartition(".")
    if not module:
        return None
    found = _module_file(Path(str(path)).parent, module)
    if found is None:
        return None
    try:
        if found.stat().st_size > _MAX_BYTES:
            return None
        tree = parse_file(found)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fname]
    return (found, defs[0]) if len(defs) == 1 else None


def _local_scaler(idx: Any, qualified: Optional[str]) -> bool:
    """``qualified`` names a class of a local module that is timm's loss scaler again: MAE's
    ``util/misc.py`` ``NativeScalerWithGradNormCount`` (copied by LTH14/mar @ fe470ac ``util/misc.py:247-267``,
    imported as ``from util.misc import NativeScalerWithGradNormCount as NativeScaler``): ``__init__``
    builds a ``GradScaler``, ``__call__(self, loss, optimizer, ...)`` does ``.scale(loss).backward(...)`` and
    ``.step(optimizer)``."""
    from preflight.local_trees import parse_file
    from preflight.script_parsers import _module_file

    if not qualified or "Scaler" not in qualified.rsplit(".", 1)[-1] or "." not in qualified:
        return False
    module, _, cname = qualified.rpartition(".")
    path = idx.script.source.path
    found = _module_file(Path(str(path)).parent, module) if path is not None else None
    if found is None:
        return False
    try:
        if found.stat().st_size > _MAX_BYTES:
            return False
        tree = parse_file(found)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    klass = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cname]
    if len(klass) != 1:
        return False
    methods = {n.name: n for n in klass[0].body if isinstance(n, ast.FunctionDef)}
    init, call = methods.get("__init__"), methods.get("__call__")
    if init is None or call is None or len(call.args.args) < 3:
        return False
    if not any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").endswith("GradScaler") for n in ast.walk(init)):
        return False
    loss, optimizer = call.args.args[1].arg, call.args.args[2].arg
    backward = step = False
    for n in ast.walk(call):
        if not isinstance(n, ast.Call) or not isinstance(n.func, ast.Attribute):
            continue
        inner = n.func.value
        if n.func.attr == "backward" and isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
                and inner.func.attr == "scale" and inner.args and isinstance(inner.args[0], ast.Name) \
                and inner.args[0].id == loss:
            backward = True
        if n.func.attr == "step" and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == optimizer:
            step = True
    return backward and step


def _param(fn: Any, call: ast.Call, name: str) -> Optional[str]:
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if isinstance(arg, ast.Name) and arg.id == name:
            return positional[i] if i < len(positional) else None
    for kw in call.keywords:
        if kw.arg is not None and isinstance(kw.value, ast.Name) and kw.value.id == name:
            return kw.arg
    return None


def scaler_step(project: Project, script: Any) -> Optional[ScalerStep]:
    """The timm loss scaler's step calls of ``script``'s job, or None."""
    cache = project.cache.setdefault(_CACHE, {})
    if id(script) in cache:
        return cache[id(script)]
    found = _find(project, script)
    cache[id(script)] = found
    return found


def _find(project: Project, script: Any) -> Optional[ScalerStep]:
    if script.tree is None or script.source.path is None or "Scaler" not in script.source.text:
        return None
    idx = project.index(script)
    built = [s for s in idx.calls if (s.qualified in _SCALERS or _local_scaler(idx, s.qualified)) and s.target
             and "." not in s.target and idx.runs(s) is not False]
    if len(built) != 1:
        return None
    site = built[0]
    name = site.target
    assert name is not None
    what = "timm's loss scaler" if site.qualified in _SCALERS else \
        f"the project's loss scaler {site.qualified} (timm's NativeScaler, copied)"
    here = _step_calls(script.tree, name)
    if here:
        loops = _loops_around(script.tree)
        return ScalerStep(site.line, f"{script.source.display}:{here[0].lineno}", here,
                          all(id(c) in loops for c in here), None, what)
    for other in idx.calls:
        got = None
        if any(isinstance(a, ast.Name) and a.id == name for a in (*other.call.args, *(k.value for k in
                                                                                     other.call.keywords))):
            got = _local_function(idx, other.call)
        if got is None:
            continue
        path, fn = got
        param = _param(fn, other.call, name)
        if param is None:
            continue
        steps = _step_calls(fn, param)
        if steps:
            loops = _loops_around(fn)
            return ScalerStep(site.line, f"{path.name}:{steps[0].lineno}", steps,
                              all(id(c) in loops for c in steps), fn, what, other.call)
    return None


def _guarded_off(fn: Any, node: ast.AST, call: Optional[ast.Call], idx: Any) -> bool:
    """``node`` sits under ``if P:`` (or the ``else`` of ``if not P:``) of a parameter ``P`` of ``fn``
    that the script's ``call`` is not known to pass true: HorNet ``engine.py:51-52`` ``if use_amp: with
    torch.cuda.amp.autocast():`` reached by ``train_one_epoch(..., use_amp=args.use_amp)`` with
    ``--use_amp`` default False (``main.py:187,421``), where ConvNeXt's ``--use_amp true`` takes it."""
    if call is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    for branch in ast.walk(fn):
        if not isinstance(branch, ast.If):
            continue
        test, negated = branch.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, True
        if not (isinstance(test, ast.Name) and test.id in params):
            continue
        in_body = any(node is n for b in branch.body for n in ast.walk(b))
        in_else = any(node is n for b in branch.orelse for n in ast.walk(b))
        if not (in_body or in_else):
            continue
        given = _passed(fn, call, test.id, params)
        truth = idx.truth(given) if given is not None else _default_of(fn, test.id)
        if truth is None or truth != (in_body != negated):
            return True  # not known to be taken
    return False


def _passed(fn: Any, call: ast.Call, name: str, params: list[str]) -> Optional[ast.expr]:
    """The expression ``call`` passes for parameter ``name`` of ``fn`` (None: not passed)."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    at = params.index(name)
    if fn.args.args and fn.args.args[0].arg in ("self", "cls"):
        at -= 1
    plain = [a for a in call.args if not isinstance(a, ast.Starred)]
    return plain[at] if 0 <= at < len(plain) and len(plain) == len(call.args) else None


def _default_of(fn: Any, name: str) -> Optional[bool]:
    """The truth of parameter ``name``'s constant default (None: no default, or not a constant)."""
    args = [*fn.args.posonlyargs, *fn.args.args]
    defaults = dict(zip([a.arg for a in args][len(args) - len(fn.args.defaults):], fn.args.defaults))
    value = defaults.get(name)
    return bool(value.value) if isinstance(value, ast.Constant) else None


def _autocast_fp16(fn: ast.AST, call: Optional[ast.Call] = None, idx: Any = None) -> Optional[int]:
    """The line of an enabled CUDA autocast with the default (fp16) dtype in ``fn``; None if there is
    none, or one whose dtype or switch is not known to be that (nor the parameter it is guarded by)."""
    found: Optional[int] = None
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        name = dotted_name(node.func) or ""
        if name.rsplit(".", 1)[-1] not in _AUTOCAST or not name.startswith(("torch.", "autocast", "amp.")):
            continue
        if name in ("torch.autocast", "torch.amp.autocast") and not (
                node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "cuda"):
            return None
        for kw in node.keywords:
            if kw.arg == "dtype" and (dotted_name(kw.value) or "") not in ("torch.float16", "torch.half"):
                return None
            if kw.arg == "enabled" and not (isinstance(kw.value, ast.Constant) and kw.value.value is True):
                return None
            if kw.arg is None:
                return None
        if len(node.args) > (1 if name in ("torch.autocast", "torch.amp.autocast") else 0):
            return None
        if idx is not None and _guarded_off(fn, node, call, idx):
            return None
        found = found or node.lineno
    return found


@register_adapter
class ScalerStepAdapter(Adapter):
    name = "scaler_step"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """Whether a step was found (an adapter that writes nothing is not named among those detected)."""
        return any("Scaler" in s.source.text and scaler_step(project, s) is not None for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            found = scaler_step(project, script)
            if found is None:
                continue
            # ``update_grad=True`` (LTH14/mar engine_mar.py:77) steps like no ``update_grad`` at all
            if found.in_loop and not any(k.arg == "update_grad" and not (isinstance(k.value, ast.Constant)
                                                                         and k.value.value is True)
                                         for c in found.steps for k in c.keywords):
                detail = (f"{found.what} (line {found.built_line}) called with the loss and the optimizer at "
                          f"{found.where}, in the loop: backward() and the optimizer's step() on every call")
                self.add_checked(plan, "batch.grad_accum", 1,
                                 project.source(script, found.built_line, "code", detail=detail), "medium")
            line = _autocast_fp16(found.fn, found.call, project.index(script)) if found.fn is not None else None
            if line is not None:
                detail = (f"autocast() with CUDA's default fp16 (line {line} of the step's function, "
                          f"{found.where.split(':')[0]}) and {found.what} (line {found.built_line}), a GradScaler")
                self.add_checked(plan, "precision.mode", "amp_fp16",
                                 project.source(script, found.built_line, "code", detail=detail), "medium")
            return
