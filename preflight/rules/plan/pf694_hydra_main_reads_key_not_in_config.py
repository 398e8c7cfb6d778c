"""PF694 hydra-main-reads-key-not-in-config: the ``@hydra.main`` function reads ``cfg.a.key`` where the
composed config (primary config, defaults list and the launch's overrides) has the node ``cfg.a`` but no
``key`` under it: Hydra hands the app a struct-mode config, so the read raises ``ConfigAttributeError: Key
'key' is not in struct``."""

from __future__ import annotations

import ast
import os
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps

# names whose presence in a script means the app may open the struct flag or add keys to the config it reads
_OPENS = ("open_dict", "set_struct", "flag_override", "read_write", "merge_with", "OmegaConf.update",
          "set_readonly", "allow_objects")
# DictConfig's own attributes: ``cfg.keys()``, ``cfg.get(...)``; not keys
_API = frozenset({"get", "keys", "values", "items", "pop", "copy", "setdefault", "update", "pretty",
                  "merge_with", "merge_with_dotlist", "items_ex"})


def _launched(project: Any, script: Any) -> bool:
    """The launch line runs this script, with every override written out (no ``$VAR``, ``"$@"``)."""
    argv = list(project.argv or [])
    if not argv:
        return False
    name = os.path.basename(str(script.source.path))
    stem = os.path.splitext(name)[0]
    named = any(os.path.basename(tok) == name for tok in argv) or any(
        argv[i] == "-m" and argv[i + 1].rsplit(".", 1)[-1] == stem for i in range(len(argv) - 1))
    if not named:
        return False
    return not any("$" in tok or "`" in tok for tok in project.script_args(script))


def _guarded(fn: ast.FunctionDef) -> set[int]:
    """ids of the nodes inside a ``try`` body of the function (a failing read may be caught)."""
    inside: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Try) and node.handlers:
            for stmt in node.body:
                inside.update(id(n) for n in ast.walk(stmt))
    return inside


def _rebinds(fn: ast.FunctionDef, root: str) -> bool:
    """The function rebinds its config parameter (``cfg = OmegaConf.merge(...)``, ``for cfg in ...``)."""
    for node in ast.walk(fn):
        targets: list[ast.AST] = []
        if isinstance(node, (ast.Assign,)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension)):
            targets = [node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
        elif isinstance(node, ast.NamedExpr):
            targets = [node.target]
        for target in targets:
            if any(isinstance(n, ast.Name) and n.id == root for n in ast.walk(target)):
                return True
    return False


def _strings(tree: ast.AST) -> set[str]:
    """String constants of the script, and each dotted part of them (``OmegaConf.select(cfg, "a.key")``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 200:
            out.add(node.value)
            out.update(node.value.split("."))
    return out


def _assigned(fn: ast.FunctionDef) -> set[str]:
    """Attribute names the function assigns on any object (``cfg.a.key = ...``)."""
    names: set[str] = set()
    for node in ast.walk(fn):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for n in ast.walk(target):
                if isinstance(n, ast.Attribute):
                    names.add(n.attr)
    return names


def _reads(fn: ast.FunctionDef, root: str) -> list[tuple[ast.Attribute, tuple[str, ...]]]:
    """The longest ``root.a.b`` attribute chains the function loads (not a method call's callee)."""
    callees = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call)}
    inner: set[int] = set()
    chains: list[tuple[ast.Attribute, tuple[str, ...]]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            chain = config_chain(node, root)
            if chain is None:
                continue
            sub: ast.AST = node
            while isinstance(sub, ast.Attribute):
                inner.add(id(sub))
                sub = sub.value
            if id(node) in callees:
                if chain[-1] in _API or chain[-1].startswith("_"):
                    chain = chain[:-1]  # ``cfg.model.get(...)``: the read is ``cfg.model``
                    node = node.value
                    if not chain or not isinstance(node, ast.Attribute):
                        continue
                else:
                    continue
            chains.append((node, chain))
    return chains


def _missing(config: Any, chain: tuple[str, ...]) -> Optional[int]:
    """Index of the first part of ``chain`` that its (dict) parent node lacks, or None (present, or a node
    on the way that is not a mapping: a list, a scalar, None, an interpolation)."""
    node = config
    for i, part in enumerate(chain):
        if not isinstance(node, dict):
            return None
        if part not in node:
            return i
        node = node[part]
    return None


@register
class HydraMainReadsKeyNotInConfig(PlanRule):
    code = "PF694"
    name = "hydra-main-reads-key-not-in-config"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The `@hydra.main` function reads `cfg.key` that the composed config (with the launch's "
               "overrides) does not define: Hydra's struct-mode config raises ConfigAttributeError")
    explanation = """
## What it finds

In a job launched with a command line that runs a `@hydra.main` script, a read
`cfg.a.key` in the decorated function (`cfg` its config parameter) where the config
preflight composes for that launch (primary config, defaults list, the launch's
`key=value` / `+key=value` overrides) has the node `cfg.a` as a mapping but no `key`
under it (or no top-level `key` for `cfg.key`).

## Why it matters

Hydra hands the app its config in struct mode: reading a key that is not in it raises
`omegaconf.errors.ConfigAttributeError: Key 'key' is not in struct` (astra-vision/MonoScene
issue 89: `fp_loss=config.fp_loss` with no `fp_loss` in `monoscene.yaml` and none added by
the command; facebookresearch/hydra discussions of "is not in struct"). The job fails at
that line, after whatever the function did before it (data set up, checkpoint loaded),
and after it waited in the queue.

## How to fix it

Define the key in the config (`fp_loss: true`), add it on the command line
(`+fp_loss=true`), or read it with a default (`cfg.get("fp_loss", True)`).

## When preflight stays silent

* No launch line runs the script, or its overrides are not all written out (`$ARGS`,
  `"$@"`): an override preflight cannot see may add the key.
* A script of the job uses `ConfigStore` (configs registered at import time), or an override
  `+group/sub=option` names a group preflight could not find (it composes as a plain value).
* The config is not composed (a group file or a ConfigStore schema not in view), or was
  composed by preflight's own composer rather than hydra-core (it covers a documented subset
  of Hydra; a key it drops must not read as a missing key).
* A node on the way is not a mapping (a list, `None`, an interpolation, `???`).
* The script opens the struct flag or adds keys (`open_dict`, `OmegaConf.set_struct`,
  `flag_override`, `read_write`, `merge_with`, `OmegaConf.update`), rebinds the config
  parameter (`cfg = OmegaConf.merge(...)`), assigns the attribute anywhere in the function,
  or names the key in a string (`"key" in cfg`, `cfg.get("key")`, `getattr(cfg, "key", None)`,
  `OmegaConf.select(cfg, "a.key")`).
* A second read on a line already reported (one finding a line).
* The read is inside a `try` block, is a DictConfig method (`cfg.get`, `cfg.keys()`), a
  private name, or under `cfg.hydra`.
"""
    bad_examples = examples("preflight.rules.plan._pf694_examples", "PF694_BAD")
    good_examples = examples("preflight.rules.plan._pf694_examples", "PF694_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        if not project.argv:
            return
        for comp, script, fn in hydra_main_apps(project):
            if not _launched(project, script):
                continue
            if not str(getattr(comp.composition, "method", "")).startswith("hydra-core"):
                continue  # preflight's own composer covers a subset of Hydra: a key it drops is not a missing key
            text = script.source.text or ""
            if any(word in text for word in _OPENS):
                continue
            root = fn.args.args[0].arg
            if _rebinds(fn, root):
                continue
            config = comp.config
            if not isinstance(config, dict) or not config or any("/" in str(k) for k in config):
                continue  # ``+group/sub=option`` composed as a plain value: a group preflight could not find
            if any("ConfigStore" in (s.source.text or "") for s in project.scripts):
                continue  # configs registered by code at import time are not in preflight's composition
            named = _strings(script.tree)
            assigned = _assigned(fn)
            guarded = _guarded(fn)
            reported: set[tuple[str, ...]] = set()
            lines: set[int] = set()
            for node, chain in sorted(_reads(fn, root), key=lambda r: (r[0].lineno, r[0].col_offset)):
                if chain[0] == "hydra" or id(node) in guarded:
                    continue
                at = _missing(config, chain)
                if at is None:
                    continue
                path = chain[:at + 1]
                key = path[-1]
                if key.startswith("_") or key in named or key in assigned or path in reported \
                        or node.lineno in lines:
                    continue  # one finding a line: the first key read there that the config lacks
                reported.add(path)
                lines.add(node.lineno)
                parent = ".".join(path[:-1])
                where = f"under `{parent}`" if parent else "at the top level"
                evidence = []
                origin = comp.origins.get(path[:-1]) if parent else None
                if origin is not None and origin[1]:
                    evidence.append(Evidence(line=origin[1], path=origin[0], message=f"`{parent}` is defined here"))
                elif comp.app.line is not None:
                    evidence.append(Evidence(line=comp.app.line, path=script.source.display,
                                             message=f"{comp.app.how} composes the config"))
                yield pctx.code_finding(
                    self, script, node,
                    f"`{root}.{'.'.join(path)}` is read here, but the composed Hydra config (with this launch's "
                    f"overrides) has no `{key}` {where}: Hydra passes the config in struct mode, so this read "
                    f"raises ConfigAttributeError (\"Key '{key}' is not in struct\") and the job stops here. "
                    f"Define `{'.'.join(path)}` in the config, add it at launch (`+{'.'.join(path)}=...`), or read "
                    f"it with a default (`{root}{'.' + parent if parent else ''}.get(\"{key}\", ...)`)",
                    evidence=evidence)
