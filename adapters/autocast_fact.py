"""Whether autocast runs around the training forward (plan ``precision.autocast``; the
estimator's ``autocast``, ``estimate.terms.autocast_on``), a derive step (after every adapter).

``amp_bf16``/``amp_fp16`` says the model computes in 16 bits over fp32 weights; it does not say
how. Two mechanisms give that, and they differ for the loss:

- autocast (``torch.autocast``, ``torch.cuda.amp.autocast``, ``accelerator.autocast()``; the
  frameworks that wrap the forward in it: accelerate's ``mixed_precision`` (``prepare_model``
  wraps ``model.forward`` in autocast when ``native_amp``, FSDP included), the Trainer's
  ``bf16``/``fp16`` through accelerate, Lightning's ``*-mixed`` precision plugins): ``log_softmax``
  / ``cross_entropy`` are on autocast's fp32 list, so a loss on 16-bit logits upcasts them;
- FSDP's ``MixedPrecision(param_dtype=bf16)`` / FSDP2 ``MixedPrecisionPolicy(param_dtype=bf16)``
  alone: the gathered weights are cast, the model computes in 16 bits, and nothing upcasts a
  loss the script computes on the 16-bit logits (IDRIS Democratizing-LLM-FT ``FSDP_sAC.py`` at
  932e1bd: ``MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)`` at
  line 136, ``criterion(logits.view(...), labels.view(...))`` at line 254, no autocast in the
  repository: the held-out-27 72B rows that est60 found charged with autocast's fp32 copies).

Written:

- True (``medium``), beside an ``amp_*`` precision only: an autocast context or decorator in code
  that trains (a function calling ``backward``) in the scripts or the local modules they import,
  called without ``enabled=`` (or ``enabled=True``); or a precision fact written by
  accelerate, the Trainer or Lightning (their own autocast), unless the job uses DeepSpeed
  (its bf16/fp16 engine is not autocast: ``derive._deepspeed_precision``);
- False (``medium``): the job shards with FSDP, the code builds ``MixedPrecision(param_dtype=...)``
  or ``MixedPrecisionPolicy(param_dtype=...)``, and neither the scripts nor their local modules
  mention autocast at all, and no framework that autocasts (accelerate, Lightning, the Trainer)
  set the precision.

An autocast bound conditionally (llama-cookbook ``train_utils.py:97`` ``autocast =
torch.cuda.amp.autocast if train_config.use_fp16 else nullcontext``) or an ``enabled=``
expression is a mention, not a context: nothing is written. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import nodes_of, parse_file
from preflight.plan import FIELDS, Source, TrainingPlan

FIELD = "precision.autocast"
_MAX_BYTES = 500_000
#: adapters whose precision fact means the framework runs the forward under autocast
_AUTOCASTING = ("accelerate", "transformers", "lightning")
_MP_CLASSES = ("MixedPrecision", "MixedPrecisionPolicy")


def _files(project: Any) -> list[tuple[str, ast.AST, str]]:
    """(shown path, tree, text) of the scripts and the local modules they import."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    root = Path(str(project.root)) if project.root else None
    out: list[tuple[str, ast.AST, str]] = []
    seen: set[str] = set()
    for script in project.scripts:
        if script.tree is None:
            continue
        shown = script.source.display
        out.append((shown, script.tree, script.source.text))
        if script.source.path is None:
            continue
        seen.add(str(Path(str(script.source.path)).resolve()))
        for path in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root):
            if str(path) in seen:
                continue
            seen.add(str(path))
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                text = read_text_limited(path, _MAX_BYTES, errors="replace")
                tree = parse_file(path)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            out.append((os.path.relpath(path, root) if root is not None else path.name, tree, text))
    return out


def _autocast_call(call: ast.AST) -> Optional[bool]:
    """True: a call that enters autocast (``torch.autocast(...)``, ``torch.cuda.amp.autocast()``,
    ``autocast(...)``, ``accelerator.autocast()``) with no ``enabled=`` or ``enabled=True``;
    False: ``enabled=False``; None: not an autocast call, or ``enabled=`` an expression."""
    if not isinstance(call, ast.Call):
        return None
    name = dotted_name(call.func) or ""
    if name.rsplit(".", 1)[-1] != "autocast":
        return None
    enabled = next((k.value for k in call.keywords if k.arg == "enabled"), None)
    if enabled is None:
        return True
    if isinstance(enabled, ast.Constant) and isinstance(enabled.value, bool):
        return enabled.value
    return None


def _autocast_site(tree: ast.AST) -> Optional[ast.AST]:
    """The first ``with ...autocast(...):`` or ``@...autocast(...)`` that surely enters autocast in code
    that trains: a function (or the module's own code) that calls ``backward``. An autocast in an
    evaluation or logging function (diffusers ``log_validation``, LMFlow's ``evaluator.py:204``) says
    nothing about the training forward. A bare ``autocast(...)`` counts only when the name is not
    bound in the file (llama-cookbook ``train_utils.py:97`` binds ``autocast = torch.cuda.amp.autocast
    if train_config.use_fp16 else nullcontext``: only under fp16)."""
    from preflight.adapters.kept_outputs import _module_level, _walk_local

    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    scopes: list[list[ast.AST]] = []
    if isinstance(tree, ast.Module):
        scopes.append(list(_module_level(tree)))
    scopes.extend(list(_walk_local(fn)) for fn in nodes_of(tree)
                  if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)))
    for nodes in scopes:
        if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
                   for n in nodes):
            continue
        for node in nodes:
            items: list[ast.expr] = []
            if isinstance(node, (ast.With, ast.AsyncWith)):
                items = [item.context_expr for item in node.items]
                if any((dotted_name(e.func) or "").rsplit(".", 1)[-1] in ("no_grad", "inference_mode")
                       for e in items if isinstance(e, ast.Call)):
                    continue  # sampling beside the training step (F5-TTS trainer.py:413), not its forward
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                items = list(node.decorator_list)
            for expr in items:
                if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in bound:
                    continue
                if _autocast_call(expr) is True:
                    return expr
    return None


def _mixed_precision_site(tree: ast.AST) -> Optional[ast.Call]:
    """``MixedPrecision(param_dtype=...)`` / ``MixedPrecisionPolicy(param_dtype=...)``."""
    for node in nodes_of(tree):
        if isinstance(node, ast.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] in _MP_CLASSES \
                and any(k.arg == "param_dtype" for k in node.keywords):
            return node
    return None


def autocast_fact(plan: TrainingPlan, project: Any) -> None:
    from preflight.adapters.derive import uses_deepspeed

    if FIELD not in FIELDS or project is None or uses_deepspeed(plan):
        return
    files = _files(project)
    precision = plan.resolve("precision.mode")
    amp = precision is not None and str(precision.value).startswith("amp_")
    for shown, tree, _text in files:
        # (an autocast under ``if self.args.use_amp:`` while the plan reads use_amp False and fp32, PatchTST
        # exp/exp_main.py:146-147: no autocast runs; True is written only beside an amp precision)
        site = _autocast_site(tree) if amp else None
        if site is not None:
            plan.add(FIELD, True, Source("code", shown, getattr(site, "lineno", None), None,
                                         f"`{ast.unparse(site)[:80]}`: the forward runs under autocast"),
                     "medium", adapter="derive")
            return
    framework = amp and precision is not None and precision.adapter.startswith(_AUTOCASTING)
    if framework:
        assert precision is not None
        src = precision.source
        plan.add(FIELD, True, Source(src.kind, src.path, src.line, src.key,
                                     f"{precision.adapter} runs the forward under autocast for "
                                     f"{precision.value} ({src.detail or 'its mixed precision'})"),
                 "medium", adapter="derive")
        return
    sharding = plan.resolve("dist.sharding")
    if sharding is None or not str(sharding.value).startswith("fsdp"):
        return
    if any("autocast" in text for _shown, _tree, text in files):
        return  # a mention this reading does not follow (a conditional alias, enabled=expr)
    for shown, tree, _text in files:
        call = _mixed_precision_site(tree)
        if call is not None:
            cls = (dotted_name(call.func) or "").rsplit(".", 1)[-1]
            plan.add(FIELD, False, Source("code", shown, call.lineno, None,
                                          f"{cls}(param_dtype=...) casts the weights for compute and no "
                                          "autocast appears in the scripts or the local modules they "
                                          "import: a loss on the 16-bit logits stays 16-bit"),
                     "medium", adapter="derive")
            return
