"""PF275 instantiate-key-not-a-parameter: ``hydra.utils.instantiate`` of a config node whose ``_target_`` is a
class or function of the project that has no parameter for one of the node's keys."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.local_trees import module_file, parse_project_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import hydra_main_apps, targeted_tops
from preflight.rules.plan._hydra_instantiate import is_instantiate
from preflight.rules.plan.pf554_instantiate_passes_listconfig import InstantiatePassesListConfig

_Callable = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def _target_def(folders: list[Path], target: str) -> Optional[tuple[Path, ast.AST]]:
    """The top-level class or function ``target`` (``pkg.mod.Name``) names in a project module."""
    module, _, name = target.rpartition(".")
    if not module or not name:
        return None
    for folder in folders:
        path = module_file(folder, module)
        if path is None:
            continue
        tree = parse_project_file(path)
        if tree is None:
            return None
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return path, node
        return None
    return None


def _parameters(node: ast.AST) -> Optional[tuple[set[str], _Callable]]:
    """The keyword names a class's ``__init__`` (or a function) accepts, with that function; None when
    they cannot be told (``**kwargs``, a decorator, a class that inherits its ``__init__``)."""
    func: Optional[_Callable] = None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        func = node
    elif isinstance(node, ast.ClassDef):
        if node.decorator_list or node.keywords:
            return None  # a dataclass, attrs, a metaclass: the signature is made elsewhere
        func = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and s.name == "__init__"), None)
        if func is None:
            return None  # inherited from a base (nn.Module's accepts nothing, others are unknown)
    if func is None or (func.decorator_list and not isinstance(node, ast.ClassDef)):
        return None
    args = func.args
    if args.kwarg is not None:
        return None
    names = [a.arg for a in [*args.args, *args.kwonlyargs]]
    if isinstance(node, ast.ClassDef) and names:
        names = names[1:]  # self
    return set(names), func


def _nodes(node: dict[str, Any], path: tuple[str, ...]) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    """The node and, unless ``_recursive_: false``, the ``_target_`` nodes nested in it (instantiate builds
    them first, with their own keys)."""
    out = [(node, path)]
    if node.get("_recursive_") is False:
        return out
    for key, value in node.items():
        if isinstance(key, str) and not key.startswith("_") and isinstance(value, dict) and "_target_" in value:
            out.extend(_nodes(value, (*path, key)))
    return out


@register
class InstantiateKeyNotAParameter(PlanRule):
    code = "PF275"
    name = "instantiate-key-not-a-parameter"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.utils.instantiate` of a node with a key its project `_target_` does not accept: the "
               "call fails with \"unexpected keyword argument\"")
    explanation = """
## What it finds

`hydra.utils.instantiate(cfg.model)` (also `instantiate(cfg.x, ...)` on a node found by
name, see PF554) where the node's `_target_` is a class or function defined in the
project (`seg.models.UNet` in `seg/models.py`), its `__init__` (or the function) takes
no `**kwargs`, and the node holds a key that is none of its parameters (a bookkeeping
`name: unet_small` kept beside the constructor arguments). Nested `_target_` nodes,
which `instantiate` builds first with their own keys, are read the same way (unless
`_recursive_: false`, or the call passes that argument itself).

## Why it matters

`instantiate` passes every key of the node that does not start with `_` as a keyword
argument to the target: the call fails at start-up with "Error in call to target
'seg.models.UNet': TypeError(\"__init__() got an unexpected keyword argument
'name'\")". Hydra has no filter for such keys; the maintainer: the config must match
the object you instantiate, or clean it up before calling instantiate (hydra issue
1777).

## How to fix it

Move the key out of the instantiated node (`model_name: unet_small` next to `model:`),
or drop it before the call (`cfg = OmegaConf.to_container(cfg.model); cfg.pop("name")`),
or accept it in the constructor.

## When preflight stays silent

* The target is not defined in the project (a library class: its signature is not read),
  or cannot be read: `**kwargs`, a decorated class (`@dataclass`), a class without its own
  `__init__` (inherited), a decorated function.
* The call unpacks arguments (`**extra`), or its node cannot be found (a container built
  from the node, `instantiate(model_cfg)` after `pop`).
* Keys that start with `_` (`_target_`, `_partial_`, `_convert_`, `_recursive_`) are
  Hydra's own.
"""
    bad_examples = examples("preflight.rules.plan._pf275_examples", "PF275_BAD")
    good_examples = examples("preflight.rules.plan._pf275_examples", "PF275_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        apps = list(hydra_main_apps(pctx.project))
        if not apps:
            return
        tops = targeted_tops(apps)
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "instantiate" not in text:
                continue
            ctx = pctx.file_context(script)
            roots = {fn.args.args[0].arg: comp for comp, s, fn in apps if s is script}
            folders = [Path(script.source.path).resolve().parent]
            root = getattr(pctx.project, "root", None)
            if root is not None and Path(root).resolve() not in folders:
                folders.append(Path(root).resolve())
            for call, qual in calls(ctx):
                if not is_instantiate(qual, call) or not call.args or has_unpacking(call):
                    continue
                found = InstantiatePassesListConfig._node(call.args[0], roots, tops, {})
                if found is None:
                    continue
                comp, top, top_path = found
                given = {kw.arg for kw in call.keywords}
                for node, path in _nodes(top, top_path):
                    if path[len(top_path):len(top_path) + 1] and path[len(top_path)] in given:
                        continue  # the call passes that argument itself
                    hit = self._extra_keys(folders, node)
                    if hit is None:
                        continue
                    target, extra, defined, names, func = hit
                    key = extra[0]
                    also = f" (and {', '.join(extra[1:])})" if len(extra) > 1 else ""
                    evidence = [Evidence(line=func.lineno, path=str(defined),
                                         message=f"`{func.name}` takes {', '.join(sorted(names)) or 'no arguments'}")]
                    origin = comp.origins.get((*path, key)) if comp is not None else None
                    if origin and origin[1]:
                        evidence.insert(0, Evidence(line=origin[1], message=f"`{key}` is set here", path=origin[0]))
                    where = "" if path == top_path else f" (its nested node `{'.'.join(path[len(top_path):])}`)"
                    yield pctx.code_finding(
                        self, script, call,
                        f"`{ast.unparse(call)[:90]}` passes every key of its node{where} to `{target}`, including "
                        f"`{key}`{also}, which it has no parameter for: the call fails with \"TypeError: "
                        f"got an unexpected keyword argument '{key}'\". Move the key out of the node or drop it "
                        "before instantiating", evidence=evidence)

    @staticmethod
    def _extra_keys(folders: list[Path], node: dict[str, Any]
                    ) -> Optional[tuple[str, list[str], Path, set[str], _Callable]]:
        """(target, keys it does not accept, its file, its parameters, its function) for a node whose project
        target's signature is known and lacks some of the node's keys."""
        target = node.get("_target_")
        if not isinstance(target, str):
            return None
        defined = _target_def(folders, target)
        if defined is None:
            return None
        accepted = _parameters(defined[1])
        if accepted is None:
            return None
        names, func = accepted
        extra = [k for k in node if isinstance(k, str) and not k.startswith("_") and k not in names]
        if not extra:
            return None
        return target, extra, defined[0], names, func
