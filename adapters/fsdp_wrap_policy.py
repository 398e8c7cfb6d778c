"""FSDP's wrap policy as the job states it (plan ``dist.fsdp_wrap``), read from configs and code.

What one FSDP unit holds decides what is all-gathered at once (the estimate's
``EstimateInput.fsdp_wrap``, preflight/estimate/fsdp_wrap.py). The shapes read, each found in
real jobs first (docs/corpus.md, "FSDP wrap policy"):

- **Config blocks** ``fsdp_config:`` (an Accelerate config file, an axolotl config, the
  Trainer's ``fsdp_config`` dict or JSON file): ``fsdp_auto_wrap_policy`` /
  ``auto_wrap_policy`` ``TRANSFORMER_BASED_WRAP`` (block), ``SIZE_BASED_WRAP`` (size),
  ``NO_WRAP`` (none); a ``fsdp_transformer_layer_cls_to_wrap`` /
  ``transformer_layer_cls_to_wrap`` with no policy: block; a ``min_num_params`` above 0
  with no policy: size (the Trainer's rule, transformers ``Trainer.__init__`` fsdp setup).
- **Keyword ``auto_wrap_policy=``** of torch ``FullyShardedDataParallel``, Lightning
  ``FSDPStrategy`` and Accelerate ``FullyShardedDataParallelPlugin``:
  ``transformer_auto_wrap_policy`` (also inside ``functools.partial``), ``ModuleWrapPolicy``
  or a set of layer classes (Lightning): block; ``size_based_auto_wrap_policy``: size;
  ``always_wrap_policy``, ``lambda *a: True`` or ``lambda m, r, n: n >= 0`` (litgpt/Thunder's
  ``zero_bucket_wrap_policy``): module; the plugin's strings as in the config. A name bound
  once in the script to one of these counts; a policy a function of the project builds
  (``get_policies(...)``) is not read.
- **Per-block loops** (FSDP2 ``fully_shard`` or FSDP1 ``FullyShardedDataParallel`` called in a
  ``for`` loop): block; a loop over ``.modules()`` / ``.named_modules()``: module.

Values: ``block`` (one unit per decoder block, the estimate's default), ``module`` (every module
with parameters its own unit), ``size`` (units grouped by a parameter count), ``none`` (one unit:
the whole model). The estimate models ``block`` and ``module``; ``size`` and ``none`` stay plan
facts (the estimate keeps its default, a block).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CACHE = "fsdp_wrap_policy.found"

#: Accelerate's policy strings (``FSDP_AUTO_WRAP_POLICY``), upper-cased
STRING_POLICIES = {"TRANSFORMER_BASED_WRAP": "block", "SIZE_BASED_WRAP": "size", "NO_WRAP": "none"}
#: policy callables and classes by their last name
NAMED_POLICIES = {"transformer_auto_wrap_policy": "block", "ModuleWrapPolicy": "block",
                  "size_based_auto_wrap_policy": "size", "always_wrap_policy": "module"}
#: the calls that take ``auto_wrap_policy=``, by the end of their qualified name
_TAKERS = ("FullyShardedDataParallel", "FSDPStrategy", "FullyShardedDataParallelPlugin")
_LOOP_WRAPPERS = ("fsdp.fully_shard", "FullyShardedDataParallel")


def wrap_from_block(block: Any) -> Optional[tuple[str, str, str]]:
    """``(wrap, key, detail)`` from an ``fsdp_config`` mapping, or None when it states none."""
    if not isinstance(block, dict):
        return None
    for key in ("fsdp_auto_wrap_policy", "auto_wrap_policy", "fsdp_wrap_policy", "wrap_policy"):
        value = block.get(key)
        if isinstance(value, str) and value.strip().upper() in STRING_POLICIES:
            return STRING_POLICIES[value.strip().upper()], key, f"{key}: {value}"
    for key in ("fsdp_transformer_layer_cls_to_wrap", "transformer_layer_cls_to_wrap"):
        if block.get(key):
            return "block", key, f"{key}: one unit per {block[key]}"
    for key in ("fsdp_min_num_params", "min_num_params"):
        value = block.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return "size", key, f"{key}: {value} (size-based wrap)"
    return None


def _last(node: Any) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _lambda_wraps_all(node: ast.Lambda) -> bool:
    body = node.body
    if isinstance(body, ast.Constant):
        return body.value is True
    names = [a.arg for a in node.args.args]
    if (isinstance(body, ast.Compare) and len(body.ops) == 1 and isinstance(body.ops[0], ast.GtE)
            and isinstance(body.left, ast.Name) and len(names) >= 3 and body.left.id == names[2]):
        right = body.comparators[0]
        return isinstance(right, ast.Constant) and right.value == 0
    return False


def _bindings(tree: ast.AST, name: str) -> list[ast.AST]:
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name:
            out.append(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            out.append(node)
    return out


def classify(expr: Any, tree: Optional[ast.AST] = None, depth: int = 0) -> Optional[str]:
    """The wrap an ``auto_wrap_policy=`` value states, or None when it is not read."""
    if expr is None or depth > 3:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return STRING_POLICIES.get(expr.value.strip().upper())
    if isinstance(expr, ast.Lambda):
        return "module" if _lambda_wraps_all(expr) else None
    if isinstance(expr, (ast.Set, ast.List, ast.Tuple)) and expr.elts:
        # Lightning: a set of layer classes is a ModuleWrapPolicy over them
        return "block" if all(isinstance(e, (ast.Name, ast.Attribute)) for e in expr.elts) else None
    if isinstance(expr, ast.Call):
        last = _last(expr.func)
        if last == "partial" and expr.args:
            return classify(expr.args[0], tree, depth + 1)
        return "block" if last == "ModuleWrapPolicy" else None
    if isinstance(expr, (ast.Name, ast.Attribute)):
        last = _last(expr)
        if last in NAMED_POLICIES:
            return NAMED_POLICIES[last]
        if isinstance(expr, ast.Name) and tree is not None:
            found = set()
            for bound in _bindings(tree, expr.id):
                if isinstance(bound, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    ret = [n.value for n in ast.walk(bound) if isinstance(n, ast.Return)]
                    lam = ast.Lambda(args=bound.args, body=ret[0]) if len(ret) == 1 and ret[0] is not None else None
                    found.add("module" if lam is not None and _lambda_wraps_all(lam) else None)
                else:
                    found.add(classify(bound, tree, depth + 1))
            if len(found) == 1:
                return found.pop()
    return None


def _loop_wrap(loop: ast.For) -> Optional[str]:
    """block for a loop over the blocks; module for a loop over ``.modules()`` that wraps each;
    block when such a loop picks modules by class (``if isinstance(m, Block)``); None when it
    picks them otherwise."""
    it = loop.iter
    while isinstance(it, ast.Call) and _last(it.func) in ("enumerate", "list", "reversed") and it.args:
        it = it.args[0]
    if isinstance(it, ast.Call) and _last(it.func) in ("modules", "named_modules"):
        tests = [n.test for n in ast.walk(loop) if isinstance(n, ast.If)]
        if not tests:
            return "module"
        if any(isinstance(c, ast.Call) and _last(c.func) == "isinstance" for t in tests for c in ast.walk(t)):
            return "block"
        return None
    return "block"


def find(project: Project) -> list[tuple[str, Source]]:
    """Every stated wrap policy with its source, configs first."""
    found: list[tuple[str, Source]] = []
    for _, config in project.configs:
        data = config.data
        block = data.get("fsdp_config") if isinstance(data, dict) else None
        got = wrap_from_block(block)
        if got is not None:
            wrap, key, detail = got
            found.append((wrap, project.config_source(config, ["fsdp_config", key], detail=detail)))
    for script in project.scripts:
        if script.tree is None:
            continue
        idx = project.index(script)
        wrappers: dict[int, Any] = {}
        for site in idx.calls:
            q = site.qualified or ""
            if idx.runs(site) is False:
                continue
            if q.endswith(_TAKERS) and not q.startswith("preflight"):
                kw = next((k.value for k in site.call.keywords if k.arg == "auto_wrap_policy"), None)
                stated = classify(kw, script.tree)
                if stated is not None:
                    found.append((stated, project.source(script, kw, "code",
                                                         detail=f"{site.label}(auto_wrap_policy=...): {stated}")))
            if q.startswith("torch") and q.endswith(_LOOP_WRAPPERS):
                wrappers[id(site.call)] = site
        if wrappers:
            for node in ast.walk(script.tree):
                if not isinstance(node, ast.For):
                    continue
                inner = [wrappers[id(n)] for n in ast.walk(node) if id(n) in wrappers]
                looped = _loop_wrap(node) if inner else None
                if looped is not None:
                    site = inner[0]
                    found.append((looped, project.source(script, site.call, "code",
                                                         detail=f"{site.label}(...) per item of the loop at line "
                                                         f"{node.lineno}: {looped}")))
                    break
    return found


@register_adapter
class FsdpWrapPolicyAdapter(Adapter):
    name = "fsdp_wrap_policy"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        """The reading is done here, so that an adapter that writes nothing is not named among those detected."""
        texts = [s.source.text for s in project.scripts] + [c.text for c, _ in project.configs]
        if not any("wrap" in t or "fully_shard" in t or "FullyShardedDataParallel" in t for t in texts):
            project.cache[_CACHE] = []
            return False
        found = find(project)
        project.cache[_CACHE] = found
        return bool(found)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = project.cache.pop(_CACHE, None) or []
        if len({wrap for wrap, _ in found}) > 1:
            where = "; ".join(f"{s.location()} {w}" for w, s in found)
            self.note(plan, f"FSDP wrap policies disagree ({where}): the unit size is not read")
            return
        if found:
            wrap, source = found[0]
            self.add_checked(plan, "dist.fsdp_wrap", wrap, source, "high" if source.kind == "config" else "medium")
