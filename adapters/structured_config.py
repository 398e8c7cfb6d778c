"""An OmegaConf *structured* config: the script merges its own dataclass with the YAML the launch
line names and the command line's ``key=value`` arguments,

    cli_args = OmegaConf.from_cli()
    file_cfg = OmegaConf.load(cli_args.config)
    cfg = OmegaConf.merge(OmegaConf.structured(TrainArgs()), file_cfg, cli_args)

(facebookresearch/lingua @ 437d680 ``apps/main/train.py:644-651``, launched as ``torchrun ... -m
apps.main.train config=apps/main/configs/debug.yaml``). A value is the command line's ``a.b=v``,
else the file's, else the dataclass's literal default (nested dataclasses through
``field(default_factory=Cls)``), each with where it was set.

The keys are then read with lingua's meaning (``lingua/distributed.py`` ``DistributedArgs`` and
``parallelize_model``, ``apps/main/train.py`` ``TrainArgs``; the same names in its forks):

- ``distributed.fsdp_type``: ``full_shard`` is FSDP2 ``fully_shard`` over the data-parallel ranks
  (``fsdp_full``; ``fsdp_hybrid`` when both ``dp_shard`` and ``dp_replicate`` are set above 1),
  ``no_shard`` replicates the parameters (``ddp``);
- ``distributed.model_dtype`` is the ``MixedPrecisionPolicy(param_dtype=...)`` over fp32 sharded
  parameters (``bf16`` -> ``amp_bf16``, ``fp16`` -> ``amp_fp16``, ``fp32``); a ``float8_recipe``
  leaves the precision unknown;
- ``distributed.compile`` (``model.compile()``), ``distributed.selective_activation_checkpointing``;
- ``data.batch_size`` (per rank), ``data.seq_len``, ``grad_acc_steps``.

Read only when the script has that merge (a structured dataclass merged with a loaded file) and
the merged tree has a ``distributed`` section with ``fsdp_type``. ``medium``: the meaning of the
keys is the project's. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.recipes import _bool, _is_int

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.loaders import LoadedConfig
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_DEPTH = 4
_DTYPES = {"bf16": "amp_bf16", "bfloat16": "amp_bf16", "fp16": "amp_fp16", "float16": "amp_fp16",
           "fp32": "fp32", "float32": "fp32"}


def _structured_class(tree: ast.AST) -> Optional[str]:
    """The class of ``OmegaConf.structured(Cls())`` when the module also loads a file and merges."""
    name, loads, merges = None, False, False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = dotted_name(node.func) or ""
        if func.endswith("OmegaConf.structured") and node.args:
            arg = node.args[0]
            target = arg.func if isinstance(arg, ast.Call) else arg
            if isinstance(target, ast.Name):
                name = target.id
        loads = loads or func.endswith(("OmegaConf.load", "yaml.safe_load", "yaml.load"))
        merges = merges or func.endswith("OmegaConf.merge")
    return name if name and loads and merges else None


def _classes(script: Path, tree: ast.Module, root: Path) -> dict[str, tuple[ast.ClassDef, Path]]:
    """Classes of the script and of the project modules it imports (``from a.b import C``)."""
    out: dict[str, tuple[ast.ClassDef, Path]] = {}
    todo: list[tuple[Path, ast.Module, int]] = [(script, tree, 0)]
    seen = {script.resolve()}
    while todo:
        path, mod, level = todo.pop()
        for node in mod.body:
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, (node, path))
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level and level < 2:
                rel = Path(*node.module.split("."))
                for base in (root, script.parent):
                    cand = base / rel.with_suffix(".py")
                    if not cand.is_file():
                        cand = base / rel / "__init__.py"
                    if cand.is_file() and cand.resolve() not in seen:
                        seen.add(cand.resolve())
                        with contextlib.suppress(OSError, SyntaxError, ValueError, RecursionError):
                            todo.append((cand, parse_file(cand, _MAX_BYTES), level + 1))
                        break
    return out


def _defaults(cls: str, classes: dict, root: Path, depth: int = 0) -> dict[str, Any]:
    """key -> (value, file, line) of the dataclass's literal defaults; nested classes as dicts."""
    out: dict[str, Any] = {}
    if cls not in classes or depth > _DEPTH:
        return out
    node, path = classes[cls]
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name) or stmt.value is None:
            continue
        value = stmt.value
        nested = None
        if isinstance(value, ast.Call) and dotted_name(value.func) in ("field", "dataclasses.field"):
            for kw in value.keywords:
                if kw.arg == "default_factory" and isinstance(kw.value, ast.Name):
                    nested = kw.value.id
                elif kw.arg == "default":
                    value = kw.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
            nested = value.func.id
        if nested is not None:
            out[stmt.target.id] = _defaults(nested, classes, root, depth + 1)
            continue
        try:
            literal = ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError):
            continue
        out[stmt.target.id] = (literal, _display(path, root), stmt.lineno)
    return out


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


@register_adapter
class StructuredConfigAdapter(Adapter):
    name = "structured_config"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("OmegaConf.structured" in s.source.text for s in project.scripts) and any(
            isinstance(cfg.data, dict) and isinstance(cfg.data.get("distributed"), dict) for _, cfg in project.configs)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            path = Path(str(script.source.path))
            cls = _structured_class(script.tree)
            if cls is None or not path.is_file():
                continue
            cfg = next((c for _, c in project.configs if isinstance(c.data, dict)
                        and isinstance(c.data.get("distributed"), dict)), None)
            if cfg is None:
                return
            root = Path(project.root)
            classes = _classes(path, script.tree, root)
            _Lingua(self, project, plan, cfg, _defaults(cls, classes, root), cls).run()
            return


class _Lingua:
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfg: LoadedConfig,
                 defaults: dict, cls: str) -> None:
        self.adapter, self.project, self.plan, self.cfg = adapter, project, plan, cfg
        self.defaults, self.cls = defaults, cls
        self.cli: dict[str, str] = {}
        for tok in project.argv:
            key, eq, value = tok.partition("=")
            if eq and not key.startswith("-") and "." in key:
                self.cli[key] = value

    def get(self, *keys: str) -> tuple[Any, Optional[Source]]:
        flag = ".".join(keys)
        if flag in self.cli:
            text = self.cli[flag]
            value: Any = text
            if text.lstrip("-").isdigit():
                value = int(text)
            elif _bool(text) is not None:
                value = _bool(text)
            return value, Source("cli", None, None, flag, f"{flag}= on the launch line (OmegaConf.from_cli)")
        if self.cfg.has(keys):
            return self.cfg.get(keys), self.project.config_source(self.cfg, keys)
        cur: Any = self.defaults
        for k in keys:
            if not isinstance(cur, dict) or k not in cur:
                return None, None
            cur = cur[k]
        if isinstance(cur, tuple) and len(cur) == 3:
            value, file, line = cur
            return value, Source("default", file, line, flag,
                                 f"{flag} not set: the default of the structured config {self.cls}")
        return None, None

    def add(self, field: str, value: Any, source: Optional[Source]) -> None:
        if source is not None:
            self.adapter.add_checked(self.plan, field, value, source, "medium")

    def run(self) -> None:
        fsdp, src = self.get("distributed", "fsdp_type")
        if not isinstance(fsdp, str) or src is None:
            return
        shard, _ = self.get("distributed", "dp_shard")
        replicate, _ = self.get("distributed", "dp_replicate")
        if fsdp == "full_shard":
            hybrid = _is_int(shard) and _is_int(replicate) and shard > 1 and replicate > 1
            self.add("dist.sharding", "fsdp_hybrid" if hybrid else "fsdp_full", src)
        elif fsdp == "no_shard":
            self.add("dist.sharding", "ddp", src)
        float8, _ = self.get("distributed", "float8_recipe")
        dtype, dsrc = self.get("distributed", "model_dtype")
        if float8 is None and isinstance(dtype, str) and dtype.lower() in _DTYPES:
            self.add("precision.mode", _DTYPES[dtype.lower()], dsrc)
        for key, field in (("compile", "compile.enabled"),
                           ("selective_activation_checkpointing", "memory.gradient_checkpointing")):
            value, vsrc = self.get("distributed", key)
            if _bool(value) is not None:
                self.add(field, _bool(value), vsrc)
        for keys, field in ((("data", "batch_size"), "batch.micro"), (("data", "seq_len"), "data.seq_len"),
                            (("grad_acc_steps",), "batch.grad_accum")):
            value, vsrc = self.get(*keys)
            if _is_int(value) and value > 0:
                self.add(field, value, vsrc)
