"""PyG GraphGym jobs: the ``--cfg`` YAML, the ``KEY VALUE`` options after it, the project's
``@register_config`` defaults and GraphGym's own, read for the loader and the accumulation.

rampasek/GraphGPS @ 2801570 ``main.py:112-142`` (``python main.py --cfg configs/GPS/zinc-GPS+RWSE.yaml wandb.use
False``): ``args = parse_args()`` (``torch_geometric.graphgym.cmd_args``: ``--cfg`` and ``opts`` of
``argparse.REMAINDER``), ``set_cfg(cfg)``, ``load_cfg(cfg, args)`` (the YAML, then the pairs), then
``loaders = create_loader()``: GraphGym's loaders take ``batch_size=cfg.train.batch_size`` and
``num_workers=cfg.num_workers`` (``torch_geometric/graphgym/loader.py`` ``get_loader``; ``set_cfg`` defaults
``cfg.train.batch_size = 16`` and ``cfg.num_workers = 0``). The project's ``@register_config`` functions add
keys with defaults (``graphgps/config/optimizers_config.py:12`` ``cfg.optim.batch_accumulation = 1``), which
its own loop reads (``graphgps/train/custom_train.py:34-39``).

Read when the entry script imports ``torch_geometric.graphgym``, calls ``load_cfg`` and ``create_loader``,
and one YAML read for the audit has a ``train`` section. Facts: ``batch.micro`` from ``train.batch_size``,
``data.num_workers`` from ``num_workers``, and ``batch.grad_accum`` from a ``register_config`` key named like
an accumulation count that the project's code reads as ``cfg.<section>.<key>``. Medium where the YAML or the
line gives the value or the project's own default does; ``low`` for GraphGym's library default (outside
the repository). Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_LIBRARY = {("train", "batch_size"): 16, ("num_workers",): 0}  # torch_geometric/graphgym/config.py set_cfg
_ACCUM = re.compile(r"^(batch_)?accum\w*$|^grad\w*_accum\w*$|^accumulat\w*$")


def _registered_defaults(code: list[tuple[str, str]]) -> dict[tuple, tuple[Any, str, int]]:
    """key path -> (literal, file, line) of ``cfg.a.b = literal`` in ``@register_config`` functions."""
    out: dict[tuple, tuple[Any, str, int]] = {}
    for display, text in code:
        if "register_config" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for fn in ast.walk(tree):
            if not (isinstance(fn, ast.FunctionDef) and any("register_config" in ast.unparse(d)
                                                            for d in fn.decorator_list) and fn.args.args):
                continue
            root = fn.args.args[0].arg
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                    continue
                parts: list[str] = []
                target: ast.AST = node.targets[0]
                while isinstance(target, ast.Attribute):
                    parts.append(target.attr)
                    target = target.value
                if not (isinstance(target, ast.Name) and target.id == root and parts):
                    continue
                try:
                    value = ast.literal_eval(node.value)
                except (ValueError, SyntaxError, TypeError):
                    continue
                out.setdefault(tuple(reversed(parts)), (value, display, node.lineno))
    return out


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


@register_adapter
class GraphGymAdapter(Adapter):
    name = "graphgym"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("torch_geometric.graphgym" in s.source.text and "load_cfg(" in s.source.text
                   and "create_loader(" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.config_key_families import code_text
        from preflight.adapters.launch_kv_overrides import apply_pairs, pairs_after

        configs = [(src, cfg) for src, cfg in project.configs if isinstance(cfg.data, dict)
                   and isinstance(cfg.data.get("train"), dict)]
        if len(configs) != 1:
            return
        _src, cfg = configs[0]
        data = cfg.data
        given: dict[tuple, str] = {}
        for script in project.scripts:
            words = [str(t) for t in project.script_args(script)]
            at = next((i for i, w in enumerate(words) if w.endswith((".yaml", ".yml"))
                       and i and words[i - 1] == "--cfg"), None)
            pairs = pairs_after(words, at) if at is not None else None
            if pairs:  # GraphGym's ``opts`` (argparse.REMAINDER): ``wandb.use False``
                data, given = apply_pairs(data, pairs)
        code = code_text(project)
        registered = _registered_defaults(code)

        def value_of(path: tuple, what: str) -> Optional[tuple[Any, Source, str]]:
            key = ".".join(path)
            if path in given:
                return _get(data, path), Source("cli", None, None, given[path], f"{key} after --cfg: {what}"), \
                    "medium"
            got = _get(data, path)
            if got is not None:
                return got, project.config_source(cfg, path, detail=f"{key}: {what}"), "medium"
            if path in registered:
                value, display, line = registered[path]
                return value, Source("default", display, line, key, f"@register_config default of {key}: {what}"), \
                    "medium"
            if path in _LIBRARY:
                return _LIBRARY[path], Source("default", None, None, key, f"GraphGym set_cfg default of {key} "
                                                                          f"(torch_geometric, outside the project): "
                                                                          f"{what}"), "low"
            return None

        for path, field, what in ((("train", "batch_size"), "batch.micro", "each GraphGym loader's batch "
                                   "(create_loader)"),
                                  (("num_workers",), "data.num_workers", "GraphGym's loader workers")):
            got = value_of(path, what)
            if got is not None and isinstance(got[0], int) and not isinstance(got[0], bool) and got[0] >= 0:
                self.add_checked(plan, field, got[0], got[1], got[2])
        accum = [p for p in registered if len(p) == 2 and _ACCUM.match(p[1])]
        for path in accum:
            read = re.compile(rf"\bcfg\.{re.escape(path[0])}\.{re.escape(path[1])}\b(?!\s*=[^=])")  # read, not set
            if not any(read.search(text) for _, text in code):
                continue
            got = value_of(path, "the project's own loop steps the optimizer every that many batches")
            if got is not None and isinstance(got[0], int) and not isinstance(got[0], bool) and got[0] >= 1:
                self.add_checked(plan, "batch.grad_accum", got[0], got[1], got[2])
            break
