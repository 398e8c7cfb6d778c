"""The improved-diffusion ``TrainLoop``: a local trainer class that splits each batch into microbatches and
steps once per batch, with its fp16 switch.

openai/improved-diffusion @ 1bc7bbb ``improved_diffusion/train_util.py`` (and openai/guided-diffusion,
openai/consistency_models ``cm/train_util.py``, sail-sg/MDT @ 7d26c21 ``masked_diffusion/train_util.py:51,
227-238``, and the many forks of these)::

    class TrainLoop:
        def __init__(self, *, model, diffusion, data, batch_size, microbatch, lr, ..., use_fp16=False, ...):
            self.microbatch = microbatch if microbatch > 0 else batch_size
            ...
            self.mp_trainer = MixedPrecisionTrainer(model=self.model, use_fp16=self.use_fp16, ...)

        def forward_backward(self, batch, cond):
            self.mp_trainer.zero_grad()
            for i in range(0, batch.shape[0], self.microbatch):
                micro = batch[i : i + self.microbatch]
                ...
                self.mp_trainer.backward(loss)

``run_step`` then takes one optimizer step: the gradients of ``batch_size / microbatch`` microbatches add up
(``microbatch`` -1, the scripts' default, "disables microbatches": one forward/backward of the whole batch).
The script builds the class once, ``TrainLoop(..., batch_size=args.batch_size, microbatch=args.microbatch,
use_fp16=args.use_fp16, ...)`` (``scripts/image_train.py``).

Read, never imported: the local modules the script imports, a class whose ``__init__`` assigns
``self.A = m if m > 0 else b`` (``m`` and ``b`` its parameters) and one of whose methods loops
``for i in range(0, X.shape[0], self.A)`` and runs a ``backward(`` call; the class built exactly once by the
script without ``*``/``**``, the values of ``m`` and ``b`` at that call known (the script's keyword, a value
the script's index knows, else the parameter's literal default). ``batch.grad_accum`` 1 when ``m <= 0``;
``b // m`` and ``batch.micro`` ``m`` when ``m > 0`` divides ``b`` (medium). ``precision.mode`` fp32 when the
class's ``use_fp16`` parameter is False at the call, the module drives fp16 only through that switch
(``MixedPrecisionTrainer``/``_setup_fp16``) and neither it nor the script names autocast or bfloat16.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, NamedTuple, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_FP16_DRIVER = re.compile(r"\bMixedPrecisionTrainer\s*\(|\b_setup_fp16\b")
_OTHER_PRECISION = re.compile(r"autocast|bfloat16|bf16|GradScaler", re.I)  # ``use_bf16`` too


class _Loop(NamedTuple):
    shown: str
    line: int
    klass: str
    micro: Any
    batch: Any
    fp16: Any
    fp16_line: Optional[int]


def _split_attr(init: ast.FunctionDef, params: set[str]) -> Optional[tuple[str, str, str, int]]:
    """(attribute, microbatch parameter, batch parameter, line) of ``self.A = m if m > 0 else b``."""
    for node in ast.walk(init):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.IfExp)):
            continue
        target, value = node.targets[0], node.value
        test = value.test
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Gt)
                and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value == 0 and isinstance(value.body, ast.Name)
                and isinstance(value.orelse, ast.Name)):
            continue
        micro, batch = value.body.id, value.orelse.id
        if test.left.id == micro and micro in params and batch in params and micro != batch:
            return target.attr, micro, batch, node.lineno
    return None


def _splits_batch(klass: ast.ClassDef, attr: str) -> bool:
    """A method loops ``for i in range(0, X.shape[0], self.attr)`` and calls ``backward(``."""
    for fn in klass.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        backward = any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
                       for c in ast.walk(fn))
        if not backward:
            continue
        for loop in (n for n in ast.walk(fn) if isinstance(n, ast.For)):
            it = loop.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" \
                    and len(it.args) == 3 and isinstance(it.args[0], ast.Constant) and it.args[0].value == 0 \
                    and isinstance(it.args[2], ast.Attribute) and it.args[2].attr == attr \
                    and isinstance(it.args[2].value, ast.Name) and it.args[2].value.id == "self" \
                    and isinstance(it.args[1], ast.Subscript) and isinstance(it.args[1].value, ast.Attribute) \
                    and it.args[1].value.attr == "shape":
                return True
    return False


def _word(raw: Any) -> Any:
    """A launch-line word as the parser converts it for the options read here (int, bool)."""
    if not isinstance(raw, str):
        return raw
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    try:
        return int(raw)
    except ValueError:
        return raw


def _option_values(project: Project, script: Any, call: ast.Call, params: dict[str, Any], unknown: Any) -> None:
    """Fill the parameters given ``args.NAME`` at ``call`` that the script's index left unknown from the
    script's declared options: the launch line's word, else the option's default (improved-diffusion declares
    them from a dict, ``add_dict_to_argparser``: :mod:`preflight.adapters.cliargs_dict_options`)."""
    from preflight.adapters.cliargs_options import _cli_values, declared_options

    decl = declared_options(script, project)
    given = _cli_values(project.script_args(script), decl)
    for kw in call.keywords:
        value = kw.value
        if kw.arg is None or params.get(kw.arg, unknown) is not unknown or not (
                isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "args"):
            continue
        opt = decl.options.get(value.attr)
        if value.attr in given:
            params[kw.arg] = _word(given[value.attr][0])
        elif opt is not None and opt.has_default:
            params[kw.arg] = opt.default


def find_loop(project: Project, script: Any, idx: Any) -> Optional[_Loop]:
    from preflight.adapters.pytorch_local import _imported_up
    from preflight.adapters.taken_arms import taken_tree
    from preflight.adapters.zero_redundancy_local import _NOT, _param_values, _script_calls

    from preflight.local_trees import parse_file
    from preflight.sources import read_text_limited

    if script.source.path is None or script.tree is None:
        return None
    root = Path(str(project.root)) if project.root else None
    tree = taken_tree(idx, script.tree)
    found: list[_Loop] = []
    for path in _imported_up(tree, Path(str(script.source.path)).resolve().parent, root):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            text = read_text_limited(path, _MAX_BYTES, errors="replace")
            if "> 0 else" not in text or "range(0" not in text:
                continue
            module = parse_file(path)
        except (OSError, SyntaxError, ValueError):
            continue
        for klass in (n for n in ast.walk(module) if isinstance(n, ast.ClassDef)):
            init = next((f for f in klass.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is None:
                continue
            names = {a.arg for a in [*init.args.args, *init.args.kwonlyargs]}
            split = _split_attr(init, names)
            if split is None or not _splits_batch(klass, split[0]):
                continue
            built = _script_calls(tree, klass.name)
            if len(built) != 1:
                return None
            params = _param_values(init, built[0], idx)
            if params is None:
                return None
            _option_values(project, script, built[0], params, _NOT)
            shown = os.path.relpath(path, root) if root is not None else path.name
            fp16 = params.get("use_fp16", _NOT) if "use_fp16" in names else _NOT
            if fp16 is not _NOT and (not _FP16_DRIVER.search(text) or _OTHER_PRECISION.search(text)
                                     or _OTHER_PRECISION.search(script.source.text)):
                fp16 = _NOT
            found.append(_Loop(shown, split[3], klass.name, params.get(split[1], _NOT), params.get(split[2], _NOT),
                               fp16, built[0].lineno))
    return found[0] if len(found) == 1 else None


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@register_adapter
class MicrobatchLoopAdapter(ScratchAdapter):
    name = "microbatch_loop"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return bool(project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            if script.tree is None:
                continue
            got = find_loop(project, script, project.index(script))
            if got is None:
                continue
            where = f"{got.klass}.__init__ in {got.shown}, built once by {script.source.display}"
            micro, batch = _int(got.micro), _int(got.batch)
            if micro is not None and micro <= 0:
                self.add_checked(plan, "batch.grad_accum", 1, Source(
                    "code", got.shown, got.line, "microbatch",
                    f"microbatch={micro} in {where}: `microbatch if microbatch > 0 else batch_size` keeps the "
                    "whole batch as one microbatch, one forward/backward and one optimizer step per batch"), "medium")
            elif micro is not None and batch is not None and micro > 0 and batch % micro == 0:
                detail = (f"batch_size={batch}, microbatch={micro} in {where}: the batch is split into "
                          f"{batch // micro} microbatches whose gradients add up before one optimizer step")
                self.add_checked(plan, "batch.grad_accum", batch // micro,
                                 Source("code", got.shown, got.line, "microbatch", detail), "medium")
                self.add_checked(plan, "batch.micro", micro,
                                 Source("code", got.shown, got.line, "microbatch", detail), "medium", 1)
            if got.fp16 is False:
                self.add_checked(plan, "precision.mode", "fp32", project.source(
                    script, got.fp16_line or 1, "code",
                    detail=f"use_fp16=False in {where}: its fp16 machinery (MixedPrecisionTrainer/_setup_fp16) is "
                           "off and nothing names autocast or bfloat16: the model trains in fp32"), "medium")
            return
