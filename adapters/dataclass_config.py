"""A config file loaded into the project's own dataclass: ``args = TrainArgs.load(config)``
(mistralai/mistral-finetune ``train.py:59-60`` with ``finetune/args.py``'s ``TrainArgs`` and
the YAML of the launch line, ``example/7B.yaml``), also ``Cls.from_yaml/from_file/from_json/
parse_file(path)``.

The values are the file's where it sets a key, else the class's literal defaults (nested
classes through ``field(default_factory=Cls)`` or ``= Cls()``); the file is the YAML/JSON config
the job reads whose top-level keys are mostly the class's fields. What the code then does
with ``args.x.y`` gives the facts, as for a Hydra config (:mod:`preflight.adapters.hydra_reads`:
a sequence bound or accumulation key the code reads, ``checkpoint=args.checkpoint``, a data
loader's ``batch_size=``, ``getattr(torch.optim, ...)``, ``from_pretrained(args.x)``, guards).
Medium; nothing is imported or executed.
"""

from __future__ import annotations

import ast
import os
from functools import partial
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import nodes_of, parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_LOADERS = ("load", "from_yaml", "from_file", "from_json", "parse_file", "load_yaml")
_MAX_BYTES = 500_000
_NO_DEFAULT = object()


def _literal(node: Optional[ast.AST]) -> Any:
    if node is None:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return _NO_DEFAULT


class _Classes:
    """Class definitions of the script and the local modules it imports, by name."""

    def __init__(self, trees: list[tuple[Path, ast.AST]]) -> None:
        self.defs: dict[str, tuple[Path, ast.ClassDef]] = {}
        for path, tree in trees:
            for node in nodes_of(tree):
                if isinstance(node, ast.ClassDef):
                    self.defs.setdefault(node.name, (path, node))

    def defaults(self, name: str, depth: int = 0) -> Optional[tuple[dict[str, Any], dict[str, tuple[Path, int]]]]:
        """(field -> literal default or nested defaults, field -> (file, line)) of a dataclass-like class."""
        got = self.defs.get(name)
        if got is None or depth > 4:
            return None
        path, klass = got
        values: dict[str, Any] = {}
        lines: dict[str, tuple[Path, int]] = {}
        for stmt in klass.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            key = stmt.target.id
            lines[key] = (path, stmt.lineno)
            value = stmt.value
            if isinstance(value, ast.Call) and (dotted_name(value.func) or "").endswith("field"):
                kw = {k.arg: k.value for k in value.keywords if k.arg}
                if "default" in kw:
                    value = kw["default"]
                elif "default_factory" in kw:
                    factory = dotted_name(kw["default_factory"]) or ""
                    nested = self.defaults(factory.rsplit(".", 1)[-1], depth + 1)
                    if nested is not None:
                        values[key] = nested[0]
                    continue
                else:
                    continue
            if isinstance(value, ast.Call) and not value.args and not value.keywords:
                nested = self.defaults((dotted_name(value.func) or "").rsplit(".", 1)[-1], depth + 1)
                if nested is not None:
                    values[key] = nested[0]
                continue
            lit = _literal(value)
            if lit is not _NO_DEFAULT:
                values[key] = lit
        return (values, lines) if lines else None


def _merge(base: dict[str, Any], over: Any) -> dict[str, Any]:
    out = dict(base)
    if isinstance(over, dict):
        for k, v in over.items():
            out[k] = _merge(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out


def _read(path: Path) -> Optional[ast.AST]:
    try:
        return parse_file(path) if path.stat().st_size <= _MAX_BYTES else None
    except (OSError, SyntaxError, ValueError):
        return None


@register_adapter
class DataclassConfigAdapter(Adapter):
    name = "dataclass_config"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return bool(project.configs) and any(
            s.tree is not None and any(f".{m}(" in s.source.text for m in _LOADERS) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.hydra_reads import read_object_facts
        from preflight.adapters.pytorch_local import _imported_local

        for script in project.scripts:
            if script.tree is None or script.source.path is None:
                continue
            here = Path(str(script.source.path)).parent
            trees: list[tuple[Path, ast.AST]] = [(Path(str(script.source.path)), script.tree)]
            for local in _imported_local(script.tree, here)[:12]:
                tree = _read(local)
                if tree is not None:
                    trees.append((local, tree))
            # and the modules those import (a field's class one module further: mistralai/mistral-finetune
            # finetune/args.py ``from model.args import LoraArgs``), bounded
            for _, tree in list(trees[1:]):
                for local in _imported_local(tree, here)[:6]:
                    if len(trees) < 24 and local not in {t[0] for t in trees}:
                        more = _read(local)
                        if more is not None:
                            trees.append((local, more))
            classes = _Classes(trees)
            for node in nodes_of(script.tree):
                if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call)):
                    continue
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                call = node.value
                if not (isinstance(target, ast.Name) and isinstance(call.func, ast.Attribute)
                        and call.func.attr in _LOADERS and isinstance(call.func.value, ast.Name)):
                    continue
                got = classes.defaults(call.func.value.id)
                if got is None:
                    continue
                defaults, lines = got
                config = self._config_for(project, set(lines))
                if config is None:
                    continue
                source, loaded = config
                values = _merge(defaults, loaded.data)
                self.note(plan, f"{script.source.display}:{node.lineno}: {call.func.value.id}.{call.func.attr}() "
                                f"reads {source.display}; the class's defaults fill the keys it leaves out")
                self._lora(project, plan, source, loaded, lines, values)
                read_object_facts(script.tree, Path(str(script.source.path)), script.source.display,
                                  (target.id,), partial(_get, values),
                                  partial(self._add, project, plan, source, loaded, lines),
                                  partial(_is_null, values))
                return

    def _lora(self, project: Project, plan: TrainingPlan, source: Any, loaded: Any, lines: dict,
              values: dict[str, Any]) -> None:
        """The project's own LoRA section switched on in the file or by the class's default (mistralai/
        mistral-finetune ``example/7B.yaml:9-10`` ``lora: {rank: 64}``, ``finetune/args.py`` ``LoraArgs.enable``
        default True): :mod:`preflight.adapters.lora_switch` over the merged values."""
        from preflight.adapters.lora_switch import switched_sections

        found = switched_sections(values)
        if len(found) != 1 or not found[0][2]:
            return
        path, switch, _, rank_key, rank = found[0]
        detail = f"{'.'.join(path)}.{switch} true: the project's own LoRA, rank {rank}"
        for field, value, key in (("peft.method", "lora", switch), ("peft.rank", rank, rank_key),
                                  ("task.mode", "lora", switch)):
            self._add(project, plan, source, loaded, lines, field, value, (*path, key), detail, "medium")

    def _config_for(self, project: Project, fields: set[str]) -> Optional[tuple[Any, Any]]:
        best = None
        for source, loaded in project.configs:
            data = loaded.data
            if not isinstance(data, dict) or not data:
                continue
            share = sum(1 for k in data if k in fields) / len(data)
            if share >= 0.5 and (best is None or share > best[0]):
                best = (share, source, loaded)
        return None if best is None else (best[1], best[2])

    def _add(self, project: Project, plan: TrainingPlan, source: Any, loaded: Any, lines: dict, field: str,
             value: Any, path: tuple, detail: str, conf: str) -> None:
        if loaded.has(path):
            src = Source("config", source.display, loaded.line_of(path, nearest=True), ".".join(map(str, path)),
                         f"{detail} (the config file)")
        else:
            file, line = lines.get(path[0], (None, None))
            shown = os.path.relpath(file, project.root) if file is not None and project.root else None
            src = Source("code", shown, line, ".".join(map(str, path)), f"{detail} (the class default)")
        self.add_checked(plan, field, value, src, conf)


def _get(values: dict[str, Any], path: tuple) -> Any:
    node: Any = values
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _is_null(values: dict[str, Any], path: tuple) -> bool:
    node: Any = values
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    return isinstance(node, dict) and path[-1] in node and node[path[-1]] is None
