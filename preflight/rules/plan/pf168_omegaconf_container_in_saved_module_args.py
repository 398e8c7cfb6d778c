"""PF168 omegaconf-container-in-saved-module-args: a PhysicsNeMo/Modulus model is built in a ``@hydra.main``
app with a config list or mapping passed straight from ``cfg`` (a ``ListConfig``/``DictConfig``) and later
saved: ``Module.save`` JSON-dumps the constructor arguments and fails after the whole training."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import dotted_text, qualify, target_text
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps

_PACKAGES = ("physicsnemo.", "modulus.")
# models that convert an OmegaConf argument into their recorded arguments themselves (physicsnemo PR 1314:
# DoMINO stores ``model_parameters`` as a plain Config in ``self._args``)
_CONVERTING = frozenset({"DoMINO"})
_MOVES = frozenset({"to", "cuda", "cpu", "float", "double", "half", "train", "eval", "requires_grad_"})


def _main_function(tree: ast.AST) -> Optional[tuple[ast.FunctionDef, str]]:
    """The ``@hydra.main`` function and the name of its config parameter."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.args.args \
                and any("hydra.main" in ast.unparse(d) for d in node.decorator_list):
            return node, node.args.args[0].arg
    return None


def _model_class(ctx: Any, call: ast.Call) -> Optional[str]:
    """``physicsnemo.models.fno.FNO`` (a class of the PhysicsNeMo/Modulus packages) for ``FNO(...)``."""
    qual = qualify(ctx, call.func)
    last = qual.rsplit(".", 1)[-1] if qual else ""
    if qual.startswith(_PACKAGES) and last[:1].isupper() and last not in _CONVERTING:
        return qual
    return None


def _bound_name(ctx: Any, call: ast.Call) -> Optional[str]:
    """The name the model is bound to: ``model = FNO(...)``, ``model = FNO(...).cuda()``."""
    node: ast.AST = call
    parent = ctx.parent(node)
    while isinstance(parent, ast.Attribute) and parent.attr in _MOVES:
        grand = ctx.parent(parent)
        if not isinstance(grand, ast.Call):
            return None
        node, parent = grand, ctx.parent(grand)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return target_text(parent.targets[0])
    return None


def _saved(fn: ast.AST, name: str) -> Optional[ast.Call]:
    """``<name>.save(...)``, or ``save_checkpoint(..., models=<name>)`` (which calls the module's save)."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "save" and target_text(func.value) == name:
            return node
        callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if callee == "save_checkpoint" and any(isinstance(n, ast.Name) and n.id == name
                                               for a in [*node.args, *(k.value for k in node.keywords)]
                                               for n in ast.walk(a)):
            return node
    return None


def _config_value(config: Any, path: tuple[str, ...]) -> Any:
    node = config
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


@register
class OmegaconfContainerInSavedModuleArgs(PlanRule):
    code = "PF168"
    name = "omegaconf-container-in-saved-module-args"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("hydra",)
    summary = ("A PhysicsNeMo/Modulus model gets a list or mapping straight from the Hydra config (a "
               "ListConfig/DictConfig) and is saved: `Module.save` JSON-dumps its arguments and fails after training")
    explanation = """
## What it finds

In a `@hydra.main` app, a model class of `physicsnemo` (or its former name `modulus`)
constructed with a keyword argument read straight from the config (`decoder_layer_sizes=
cfg.arch.decoder.layer_sizes`) whose composed value is a list or a mapping, where the same
function later saves the model (`model.save(...)`, or `save_checkpoint(..., models=model)`).

## Why it matters

A PhysicsNeMo `Module` records its constructor arguments and `save()` writes them with
`json.dumps` into the checkpoint. Hydra hands lists and mappings over as OmegaConf
`ListConfig`/`DictConfig` objects, which `json` cannot serialise: after the whole training
run, `model.save(...)` raises "TypeError: Object of type ListConfig is not JSON serializable"
and no model is written (NVIDIA/physicsnemo issue 133; PR 1314: "domino uses the hydra
configs directly in model construction. These aren't JSON serializable").

## How to fix it

Convert the value: `OmegaConf.to_container(cfg.arch.decoder.layer_sizes, resolve=True)`
(or `list(...)`), or build the model with `hydra.utils.instantiate(..., _convert_="all")`.

## When preflight stays silent

* The argument is a scalar in the composed config, or wrapped in a conversion
  (`OmegaConf.to_container`, `list(...)`, `dict(...)`).
* The model is not a PhysicsNeMo/Modulus class, converts its OmegaConf arguments itself
  (DoMINO, physicsnemo PR 1314), or the function never saves it.
"""
    bad_examples = examples("preflight.rules.plan._pf168_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf168_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            if "physicsnemo" not in script.source.text and "modulus" not in script.source.text:
                continue
            found = _main_function(script.tree)
            if found is None:
                continue
            fn, cfg = found
            ctx = pctx.file_context(script)
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call):
                    continue
                cls = _model_class(ctx, call)
                if cls is None:
                    continue
                name = _bound_name(ctx, call)
                saved = _saved(fn, name) if name else None
                if saved is None:
                    continue
                for kw in call.keywords:
                    text = dotted_text(kw.value)
                    if kw.arg is None or not text or not text.startswith(cfg + "."):
                        continue
                    path = tuple(text.split(".")[1:])
                    value = _config_value(comp.config, path)
                    if not isinstance(value, (list, dict)):
                        continue
                    kind = "ListConfig" if isinstance(value, list) else "DictConfig"
                    evidence = [pctx.code_evidence(script, saved, "save() JSON-dumps the constructor arguments")]
                    origin = comp.origins.get(path)
                    if origin is not None and origin[1]:
                        evidence.append(Evidence(line=origin[1], path=origin[0], message=f"{'.'.join(path)}: a "
                                                 f"{'list' if kind == 'ListConfig' else 'mapping'}"))
                    yield pctx.code_finding(
                        self, script, kw.value,
                        f"`{kw.arg}={text}` hands an OmegaConf `{kind}` to `{cls.rsplit('.', 1)[-1]}`, a "
                        f"PhysicsNeMo/Modulus Module that records its constructor arguments, and `{name}` is saved "
                        f"(line {saved.lineno}): `Module.save` JSON-dumps those arguments, so after the whole "
                        f"training it raises \"Object of type {kind} is not JSON serializable\" and no model is "
                        f"written (NVIDIA/physicsnemo issue 133). Pass `OmegaConf.to_container({text}, "
                        "resolve=True)`",
                        evidence=evidence)
