"""PF554 instantiate-passes-listconfig: Hydra's ``instantiate`` without ``_convert_`` hands a YAML list to a
diffusers model as an OmegaConf ``ListConfig``, which the model keeps in its config and cannot save."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import (
    config_chain,
    hydra_main_apps,
    lookup,
    targeted_tops,
)
from preflight.rules.plan._hydra_instantiate import is_instantiate


def _keeps_lists(target: Any) -> Optional[str]:
    """What the built object does with a list argument, for targets whose storing is known."""
    if not isinstance(target, str):
        return None
    if target.startswith("diffusers."):
        return ("diffusers registers it in the model's config, and `save_pretrained` fails in `json.dumps` "
                "(a ListConfig is no list; configuration_utils.py `to_json_saveable` converts lists, arrays "
                "and paths only)")
    return None


def _saved(text: str) -> bool:
    """Whether the file writes the model's config (``save_pretrained``)."""
    return "save_pretrained" in text


def _last_name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def _dataclass_nodes(tree: ast.Module) -> dict[str, dict[str, Any]]:
    """Structured configs of the file: field name -> {"_target_": ..., list/tuple fields: True} for the
    dataclass a field of another dataclass defaults to (``optimizer: Any = field(default_factory=AdamConfig)``)."""
    classes: dict[str, dict[str, Any]] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        fields: dict[str, Any] = {}
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                value = stmt.value
                if isinstance(value, ast.Constant):
                    fields[stmt.target.id] = value.value
                elif isinstance(value, (ast.Tuple, ast.List)):
                    fields[stmt.target.id] = [None] * len(value.elts)
                elif isinstance(value, ast.Call) and ast.unparse(value.func).endswith("field"):
                    factory = kwarg(value, "default_factory")
                    if isinstance(factory, ast.Name):
                        fields[stmt.target.id] = ("factory", factory.id)
                    elif isinstance(factory, ast.Lambda) and isinstance(factory.body, (ast.Tuple, ast.List)):
                        fields[stmt.target.id] = [None] * len(factory.body.elts)
        classes[cls.name] = fields
    out: dict[str, dict[str, Any]] = {}
    for fields in classes.values():
        for name, value in fields.items():
            if isinstance(value, tuple) and value[0] == "factory" and value[1] in classes:
                out[name] = {k: v for k, v in classes[value[1]].items() if not isinstance(v, tuple)}
    return out


@register
class InstantiatePassesListConfig(PlanRule):
    code = "PF554"
    name = "instantiate-passes-listconfig"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`instantiate` without `_convert_` passes a config list to a diffusers model as an OmegaConf "
               "ListConfig, which `save_pretrained` cannot write")
    explanation = """
## What it finds

`hydra.utils.instantiate(cfg.model)` without `_convert_` where the node's `_target_` is
a `diffusers` class and one of its arguments is a list (`block_out_channels: [128,
256]`, `down_block_types: [...]`), not passed again in the call, in a file that calls
`save_pretrained`. The node is read from the composed Hydra config (through the
`@hydra.main` function's config, or by the node's name when the call reads it from
another object such as `self.hparams.model`), or from a structured config (`@dataclass`
with `_target_`) in the same file.

## Why it matters

`instantiate`'s default is `_convert_="none"`: "Passed objects are DictConfig and
ListConfig" (hydra/_internal/instantiate/_instantiate2.py `_convert_node` converts only
under `all`/`partial`/`object`). A diffusers model registers its arguments in its
config, and `save_pretrained` writes that config with `json.dumps` after
`to_json_saveable`, which converts lists, arrays and paths only
(diffusers `configuration_utils.py`): "Object of type ListConfig is not JSON
serializable" at the first save (diffusers issue 6793).

Optimizers are not reported: current torch converts `betas` itself (torch/optim/adam.py:
`betas = tuple(map(_to_scalar, betas))`, checked on the installed torch 2.13), so the
ListConfig of older releases (pytorch issue 167319, hydra issue 1011) no longer reaches
`param_groups`; the release that changed it was not looked up, so no version gate.

## How to fix it

`instantiate(cfg.optimizer, params=..., _convert_="all")`, `_convert_: all` in the
node, or pass the value converted (`betas=tuple(cfg.optimizer.betas)`).

## When preflight stays silent

* `_convert_` is given in the call or the node; the list argument is passed in the call.
* The target is not a `diffusers` class (an optimizer converts `betas` itself in current
  torch; other classes often read a ListConfig like a list and keep nothing).
* The node cannot be found (a helper builds it, the name matches no top-level node).
* Nothing in the file calls `save_pretrained`.
"""
    bad_examples = examples("preflight.rules.plan._pf554_examples", "PF554_BAD")
    good_examples = examples("preflight.rules.plan._pf554_examples", "PF554_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        apps = list(hydra_main_apps(pctx.project))
        tops = targeted_tops(apps)
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "instantiate" not in text:
                continue
            ctx = pctx.file_context(script)
            roots = {fn.args.args[0].arg: comp for comp, s, fn in apps if s is script}
            structured = _dataclass_nodes(script.tree) if "_target_" in text else {}
            for call, qual in calls(ctx):
                if not is_instantiate(qual, call) or not call.args or has_unpacking(call) \
                        or kwarg(call, "_convert_") is not None:
                    continue
                found = self._node(call.args[0], roots, tops, structured)
                if found is None:
                    continue
                comp, node, path = found
                why = _keeps_lists(node.get("_target_"))
                if why is None or "_convert_" in node or not _saved(text):
                    continue
                given = {kw.arg for kw in call.keywords}
                lists = [k for k, v in node.items() if isinstance(v, list) and not k.startswith("_") and k not in given]
                if not lists:
                    continue
                key = lists[0]
                also = f" (and {', '.join(lists[1:])})" if len(lists) > 1 else ""
                evidence = []
                origin = comp.origins.get((*path, key)) if comp is not None else None
                if origin and origin[1]:
                    evidence.append(Evidence(line=origin[1], message=f"`{key}` is a list", path=origin[0]))
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)[:90]}` builds `{node['_target_']}` without `_convert_`, so its list "
                    f"argument `{key}`{also} arrives as an OmegaConf ListConfig: {why}. Pass "
                    "`_convert_=\"all\"` (or the value as a tuple)", evidence=evidence or None)

    @staticmethod
    def _node(arg: ast.AST, roots: dict[str, Any], tops: dict[str, tuple[Any, dict[str, Any], tuple[str, ...]]],
              structured: dict[str, dict[str, Any]]) -> Optional[tuple[Any, dict[str, Any], tuple[str, ...]]]:
        for root, comp in roots.items():
            path = config_chain(arg, root)
            node = lookup(comp.config, path) if path else None
            if path and isinstance(node, dict):
                return comp, node, path
        name = _last_name(arg)
        if name is None:
            return None
        if name in structured and "_target_" in structured[name]:
            return None, structured[name], (name,)
        return tops.get(name)
