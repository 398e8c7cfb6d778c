"""PF160 hydra-compose-reads-hydra-resolver: a script composes a config with Hydra's Compose API
(``initialize`` + ``compose``) and reads a key whose value uses the ``${hydra:...}`` resolver, which needs the
runtime HydraConfig that only ``@hydra.main`` sets."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import LoadedConfig, load_config_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_run_dirs import RESOLVER as _RESOLVER
from preflight.rules.plan._hydra_run_dirs import chain as _chain


def _last(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _const(call: ast.Call, name: str, index: int) -> Optional[str]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value.value if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str) else None
    if len(call.args) > index:
        arg = call.args[index]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return None


def _override_keys(call: ast.Call) -> Optional[set[str]]:
    """Keys the ``overrides=[...]`` of a compose call set; None when the list is not literal."""
    for kw in call.keywords:
        if kw.arg == "overrides":
            value = kw.value
            if not isinstance(value, (ast.List, ast.Tuple)):
                return None
            keys = set()
            for elt in value.elts:
                if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
                    return None
                keys.add(elt.value.lstrip("+~").split("=", 1)[0])
            return keys
    return set()


def _dotted(node: ast.expr) -> Optional[tuple[str, list[str]]]:
    """``cfg.a.b`` as (``cfg``, [a, b])."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and parts:
        return node.id, parts[::-1]
    return None


@register
class HydraComposeReadsHydraResolver(PlanRule):
    code = "PF160"
    name = "hydra-compose-reads-hydra-resolver"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config composed with Hydra's Compose API is read at a key that uses `${hydra:...}`: outside "
               "`@hydra.main` HydraConfig is not set and the read raises")
    explanation = """
## What it finds

A script that composes a config with the Compose API (`with initialize(config_path=...)`:
`cfg = compose(config_name=...)`) and reads `cfg.a.b`, where the primary config file
gives `a.b` a value that uses the `hydra:` resolver (`outputs/${hydra:job.name}/eval`),
directly or through other keys of the file, and the compose call's `overrides` do not
replace the key.

## Why it matters

The `hydra:` resolver reads the runtime HydraConfig, which `@hydra.main` sets before it
calls the app. `compose` does not set it, so resolving the key raises "ValueError:
HydraConfig was not set" (OmegaConf wraps it in InterpolationResolutionError) at the
read (Hydra issue 716: the training app's config used `${hydra:job.name}`, and loading
it with the Compose API in a notebook or an evaluation script failed). The training
entry point works, so the mistake shows in the second script only.

## How to fix it

Give the key a plain value in the compose call
(`compose(config_name="config", overrides=["eval.output_dir=outputs/evaluate/eval"])`),
pass `return_hydra_config=True` and set it with `HydraConfig.instance().set_config(cfg)`,
or keep `hydra:` interpolations out of keys other scripts read.

## When preflight stays silent

* The compose call's `overrides` set the key, or are not a literal list.
* The script sets the HydraConfig itself (`HydraConfig.instance().set_config(...)`), or the
  app is a `@hydra.main` function.
* The key comes from a config group option (not the primary file), or `config_path` is not
  a literal: not followed.
"""
    bad_examples = examples("preflight.rules.plan._pf160_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf160_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "compose" not in text or "initialize" not in text or "set_config" in text or "hydra.main" in text:
                continue
            fctx = pctx.file_context(script)
            yield from self._script(pctx, script, fctx)

    def _script(self, pctx: PlanContext, script: Any, fctx: Any) -> Iterable[Finding]:
        for with_node in fctx.nodes(ast.With):
            config_path = None
            for item in with_node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and _last(call) == "initialize":
                    config_path = _const(call, "config_path", 0)
            if config_path is None:
                continue
            for stmt in ast.walk(with_node):
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0],
                                                                                               ast.Name)):
                    continue
                call = stmt.value
                if not isinstance(call, ast.Call) or _last(call) != "compose":
                    continue
                name = _const(call, "config_name", 0)
                keys = _override_keys(call)
                if name is None or keys is None:
                    continue
                loaded = self._primary(pctx, script, config_path, name)
                if loaded is None or not isinstance(loaded.data, dict):
                    continue
                yield from self._reads(pctx, script, fctx, stmt.targets[0].id, loaded, keys)

    @staticmethod
    def _primary(pctx: PlanContext, script: Any, config_path: str, name: str) -> Optional[LoadedConfig]:
        from preflight.workspace import display_path

        folder = (Path(script.source.path).parent / config_path).resolve()
        stem = name[:-5] if name.endswith(".yaml") else name
        path = folder / f"{stem}.yaml"
        if ".." in stem or not pctx.project.may_read(path):
            return None
        return load_config_file(path, display_path(path, pctx.project.root), "yaml")

    def _reads(self, pctx: PlanContext, script: Any, fctx: Any, var: str, loaded: LoadedConfig,
               keys: set[str]) -> Iterable[Finding]:
        for node in fctx.nodes(ast.Attribute):
            dotted = _dotted(node)
            if dotted is None or dotted[0] != var or isinstance(getattr(node, "ctx", None), ast.Store):
                continue
            key = ".".join(dotted[1])
            value = loaded.get(tuple(dotted[1]))
            if not isinstance(value, str) or key in keys:
                continue
            chain = [key] if _RESOLVER.search(value) else _chain(loaded.data, value)
            if not chain or any(k in keys for k in chain):
                continue
            resolver = _RESOLVER.search(str(loaded.get(tuple(chain[-1].split(".")))))
            shown = resolver.group() if resolver else "${hydra:...}"
            message = (f"`{var}` comes from Hydra's Compose API, and `{key}` is `{value}` in {loaded.path}"
                       + (f" (through `{'` -> `'.join(chain)}`)" if chain != [key] else "")
                       + f", which uses `{shown}`: outside @hydra.main the HydraConfig is not set, so reading it "
                         f"raises \"ValueError: HydraConfig was not set\" (Hydra issue 716). Override the key in the "
                         f"compose call (`overrides=[\"{key}=...\"]`) or keep `hydra:` out of it")
            evidence = [pctx.config_evidence(loaded, tuple(chain[-1].split(".")), "the `hydra:` resolver is here")]
            yield pctx.code_finding(self, script, node, message, evidence=evidence)
            return
