"""PF597 omegaconf-merge-keeps-default-entries: a run config given on the launch line is combined with
the project's default config by ``OmegaConf.merge``, and a dictionary of named entries it sets (a dict of
losses) shares no entry with the default's: the merge keeps both sets, and the code iterates them."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._omegaconf_chains import config_at
from preflight.rules.plan._omegaconf_merge import YAML_NAME, is_omegaconf


def _merges(tree: ast.AST) -> Iterator[tuple[ast.Call, str]]:
    """(merge call, basename of the default file) for ``OmegaConf.merge(default, ..., override)`` whose first
    argument is a name the same function binds to ``OmegaConf.load(<... "default.yaml" ...>)``."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        loads: dict[str, str] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call) and is_omegaconf(node.value.func, "load") \
                    and node.value.args:
                match = YAML_NAME.search(ast.unparse(node.value.args[0]))
                if match:
                    loads[node.targets[0].id] = os.path.basename(match.group(1))
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and is_omegaconf(node.func, "merge") and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in loads:
                yield node, loads[node.args[0].id]


def _registries(data: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(path, mapping) of every non-empty mapping whose values are all mappings (named entries)."""
    if not isinstance(data, dict):
        return
    if prefix and data and all(isinstance(v, dict) for v in data.values()):
        yield prefix, data
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _registries(value, (*prefix, str(key)))


def _iterated(texts: list[str], path: tuple[str, ...]) -> bool:
    """Some script iterates the node: ``x.losses.items()``, ``for k in cfg.y.losses:``."""
    last = re.escape(path[-1])
    pattern = re.compile(rf"\.{last}\s*\.(?:items|keys|values)\(|\bin\s+[\w.]*\.{last}\s*[:)\]]")
    return any(pattern.search(t) for t in texts)


def _replaced(texts: list[str], path: tuple[str, ...]) -> bool:
    """Some script replaces the node after merging: ``OmegaConf.update(cfg, "a.b", v, merge=False)``."""
    dotted = re.escape(".".join(path))
    pattern = re.compile(rf"""OmegaConf\.update\([^)]*["']{dotted}["'][^)]*merge\s*=\s*False""", re.S)
    return any(pattern.search(t) for t in texts)


@register
class OmegaConfMergeKeepsDefaultEntries(PlanRule):
    code = "PF597"
    name = "omegaconf-merge-keeps-default-entries"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A run config merged over the default config with `OmegaConf.merge` sets a dictionary of named "
               "entries that shares none with the default's: the merge keeps both sets, and the code iterates them")
    explanation = """
## What it finds

A script that builds its config with `OmegaConf.merge(default, ..., override)`, where
`default` is `OmegaConf.load(...)` of a YAML file of the project and the override is a
file named on the audited launch line (`python train.py --config configs/jepa.yml`),
when that file sets a dictionary of named entries (`validation_config.losses:
{LossLatentSSLStudentTeacher: {...}}`) that has no entry in common with the default's
dictionary at the same key (`{LossPhysical: {...}}`), and a script of the job iterates
that dictionary (`.losses.items()`, `for name in cfg.x.losses:`).

## Why it matters

`OmegaConf.merge` merges mappings key by key: it never replaces a dictionary. The merged
node holds the default's entries and the run config's, so a loop over it computes the
default's loss too (ecmwf/WeatherGenerator issue 1510: "--config should replace config,
not merge them ... We get the two configs appended", "which is not the intended
outcome"). Nothing fails: the run trains or validates on a different objective.

## How to fix it

Replace the node after merging: `OmegaConf.update(cfg, "validation_config.losses",
OmegaConf.select(override, "validation_config.losses"), merge=False)`; or list the
default's entries in the run config with a switch (`weight: 0.0`, `enabled: false`).

## When preflight stays silent

* The run config's dictionary repeats an entry of the default's (a partial update: the
  author counts on the merge), or the default's dictionary is empty.
* No script iterates the dictionary, or a script replaces it after the merge
  (`OmegaConf.update(..., "a.b", ..., merge=False)`).
* The override file is not named on the launch line (`check DIR`: the run config is not known).
* Adding an entry to a default dictionary on purpose looks the same; it is reported, as the
  config cannot say which was meant: keep an entry of the default in the run config, or
  replace the node, to make the intent explicit.
"""
    bad_examples = examples("preflight.rules.plan._pf597_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf597_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        argv = [str(a) for a in (project.argv or ())]
        if not argv:
            return
        named = {os.path.basename(a.partition("=")[2] or a) for a in argv}
        texts = [t for t in (s.text if s.text is not None else s.source.text for s in project.scripts) if t]
        done: set[tuple[str, int]] = set()
        for script in project.scripts:
            if script.tree is None:
                continue
            for call, default_name in _merges(script.tree):
                default = config_file(project, script, default_name)
                if default is None:
                    continue
                for source, config in project.configs:
                    name = os.path.basename(str(source.path))
                    if name == default_name or name not in named or config.kind != "yaml":
                        continue
                    for path, entries in _registries(config.data):
                        base = config_at(default.data, path)
                        if not (isinstance(base, dict) and base and all(isinstance(v, dict) for v in base.values())):
                            continue
                        if set(map(str, base)) & set(map(str, entries)):
                            continue
                        if not _iterated(texts, path) or _replaced(texts, path):
                            continue
                        key = ".".join(path)
                        if (key, call.lineno) in done:
                            continue
                        done.add((key, call.lineno))
                        evidence = [Evidence(line=config.line_of(path, nearest=True) or 1, path=config.path,
                                             message=f"the run config's `{key}`: {', '.join(map(str, entries))}"),
                                    Evidence(line=default.line_of(path, nearest=True) or 1, path=default.path,
                                             message=f"the default's `{key}`: {', '.join(map(str, base))}")]
                        yield pctx.code_finding(self, script, call, (
                            f"`OmegaConf.merge` merges {config.path} into {default.path} key by key, so `{key}` "
                            f"ends up with the default's {', '.join(map(str, base))} beside the run config's "
                            f"{', '.join(map(str, entries))} (no entry in common: the run config looks meant to "
                            f"replace them), and the code iterates `{path[-1]}`: the run silently computes both. "
                            f"Replace the node after merging (`OmegaConf.update(cfg, \"{key}\", ..., merge=False)`) "
                            "or name the default's entries in the run config"), evidence=evidence)


def config_file(project: Any, script: Any, name: str) -> Optional[Any]:
    """The config file ``name`` (a file name, or a relative path as the script writes it): an audited
    config, else the file beside the script (or in its ``config``/``configs`` folder, or under the root)."""
    for source, config in project.configs:
        shown = str(source.path).replace(os.sep, "/")
        if (shown == name or shown.endswith("/" + name.lstrip("./"))) and isinstance(config.data, dict):
            return config
    from preflight.adapters.hydra_compose import relative
    from preflight.diagnostics import FileError
    from preflight.loaders import load_config
    from preflight.sources import read_source

    folder = Path(str(script.source.path)).resolve().parent
    for candidate in (folder / name, folder / "config" / name, folder / "configs" / name,
                      Path(str(project.root)) / name):
        if not candidate.is_file() or not project.may_read(candidate):
            continue
        source = read_source(candidate, relative(candidate, Path(str(project.root))), "yaml")
        if isinstance(source, FileError):
            return None
        loaded = load_config(source)
        return None if isinstance(loaded, FileError) or not isinstance(loaded.data, dict) else loaded
    return None
