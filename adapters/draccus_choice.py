"""A draccus config whose section is a ``ChoiceRegistry`` chosen on the command line: the script's
``@draccus.wrap()`` dataclass has ``model: ModelConfig = field(default_factory=
ModelConfig.get_choice_class(ModelRegistry.X.model_id))``, and ``--model.type NAME`` picks the
registered subclass whose ``model_id`` is ``NAME`` (``ModelConfig.register_subclass(variant.model_id,
variant.value)`` over an Enum of the classes); ``--model.key value`` then replaces one key. Real
shape: TRI-ML/prismatic-vlms @ 874c5bb ``scripts/pretrain.py:47-55,120`` with
``prismatic/conf/models.py`` (``Exp_7B_One_Stage(LLaVa_v15_Reproduction_7B)``: values by class
inheritance) and the launch line ``--model.type one-stage+7b --model.llm_backbone_id vicuna-v15-7b``.

The chosen class's values (its literal defaults and its bases' in the same module, then the
command line) are read with prismatic's meaning (``PretrainConfig.__post_init__`` copies the
``{stage}_*`` keys of the script's ``stage``, default or ``--stage``; the same names in its forks
such as OpenVLA):

- ``{stage}_per_device_batch_size`` -> ``batch.micro``; ``{stage}_global_batch_size`` -> ``batch.global``;
- ``{stage}_train_strategy``: ``fsdp-full-shard`` is ``ShardingStrategy.HYBRID_SHARD``
  (``prismatic/training/strategies/fsdp.py:85-86``): a full shard inside one node (``fsdp_full``
  on a one-node launch, else ``fsdp_hybrid``); ``fsdp-shard-grad-op`` likewise ``fsdp_grad_op``
  on one node; ``ddp`` is ``ddp``;
- ``llm_max_length`` -> ``data.seq_len``; ``enable_gradient_checkpointing``;
  ``enable_mixed_precision_training`` (FSDP ``MixedPrecision(param_dtype=bf16)`` over fp32
  parameters: ``amp_bf16``).

Read only when the chosen class is found without doubt (one class defines that id). ``medium``.
Nothing is imported or executed.
"""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.recipes import _bool, _flags, _is_int

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_STRATEGY = {"fsdp-full-shard": ("fsdp_full", "fsdp_hybrid"), "fsdp-shard-grad-op": ("fsdp_grad_op", None),
             "ddp": ("ddp", "ddp")}


def _wrapped_config(tree: ast.Module) -> Optional[ast.ClassDef]:
    """The dataclass the ``@draccus.wrap()`` entry function takes."""
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            continue
        if not any((dotted_name(d.func if isinstance(d, ast.Call) else d) or "").endswith("draccus.wrap")
                   for d in node.decorator_list):
            continue
        ann = node.args.args[0].annotation
        if isinstance(ann, ast.Name) and ann.id in classes:
            return classes[ann.id]
    return None


def _choice_fields(cls: ast.ClassDef) -> dict[str, tuple[str, ast.AST]]:
    """field -> (registry base class, the default_factory argument) of ``Base.get_choice_class(X)``."""
    out: dict[str, tuple[str, ast.AST]] = {}
    for stmt in cls.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        call = stmt.value
        if not isinstance(call, ast.Call):
            continue
        for kw in call.keywords:
            v = kw.value
            if kw.arg == "default_factory" and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
                    and v.func.attr == "get_choice_class" and isinstance(v.func.value, ast.Name) and v.args:
                out[stmt.target.id] = (v.func.value.id, v.args[0])
    return out


def _literal_default(cls: ast.ClassDef, name: str) -> Any:
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name \
                and stmt.value is not None:
            with contextlib.suppress(ValueError, SyntaxError, TypeError):
                return ast.literal_eval(stmt.value)
    return None


def _module_of(base: str, script: Path, tree: ast.Module, root: Path) -> Optional[tuple[Path, ast.Module]]:
    """The project module that defines class ``base`` (through ``from pkg import Base``)."""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
            continue
        if not any(a.name == base for a in node.names):
            continue
        rel = Path(*node.module.split("."))
        for top in (root, script.parent, script.parent.parent):
            cands = [top / rel.with_suffix(".py")]
            if (top / rel).is_dir():
                cands += sorted((top / rel).glob("*.py"))
            for cand in cands:
                if not cand.is_file():
                    continue
                try:
                    mod = parse_file(cand, _MAX_BYTES)
                except (OSError, SyntaxError, ValueError, RecursionError):
                    continue
                if any(isinstance(n, ast.ClassDef) and n.name == base for n in mod.body):
                    return cand, mod
    return None


class _Registry:
    """The dataclasses of one module, their bases and literal defaults."""

    def __init__(self, mod: ast.Module) -> None:
        self.classes = {n.name: n for n in mod.body if isinstance(n, ast.ClassDef)}
        self.enums: dict[str, dict[str, str]] = {}
        for cls in self.classes.values():
            members = {}
            for stmt in cls.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                        and isinstance(stmt.value, ast.Name) and stmt.value.id in self.classes:
                    members[stmt.targets[0].id] = stmt.value.id
            if members:
                self.enums[cls.name] = members

    def chain(self, name: str) -> list[ast.ClassDef]:
        out: list[ast.ClassDef] = []
        while name in self.classes and len(out) < 16:
            cls = self.classes[name]
            out.append(cls)
            bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in self.classes]
            if not bases:
                break
            name = bases[0]
        return out

    def subclass_of(self, name: str, base: str) -> bool:
        return any(c.name == base for c in self.chain(name)[1:])

    def by_id(self, base: str, ident: str) -> Optional[str]:
        hits = [n for n, cls in self.classes.items() if self.subclass_of(n, base)
                and any(isinstance(s, ast.AnnAssign) and isinstance(s.value, ast.Constant) and s.value.value == ident
                        and isinstance(s.target, ast.Name) and s.target.id.endswith("_id") for s in cls.body)]
        return hits[0] if len(hits) == 1 else None

    def value(self, name: str, key: str) -> tuple[Any, Optional[int]]:
        for cls in self.chain(name):
            for stmt in cls.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == key \
                        and stmt.value is not None:
                    try:
                        return ast.literal_eval(stmt.value), stmt.lineno
                    except (ValueError, SyntaxError, TypeError):
                        return None, None
        return None, None


@register_adapter
class DraccusChoiceAdapter(Adapter):
    name = "draccus_choice"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any("draccus" in s.source.text and "get_choice_class" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            path = Path(str(script.source.path))
            cfg_cls = _wrapped_config(script.tree) if path.is_file() else None
            if cfg_cls is None:
                continue
            choice = _choice_fields(cfg_cls).get("model")
            if choice is None:
                continue
            found = _module_of(choice[0], path, script.tree, Path(project.root))
            if found is None:
                continue
            _Prismatic(self, project, plan, cfg_cls, choice, found).run()
            return


class _Prismatic:
    def __init__(self, adapter: Adapter, project: Project, plan: TrainingPlan, cfg_cls: ast.ClassDef,
                 choice: tuple[str, ast.AST], found: tuple[Path, ast.Module]) -> None:
        self.adapter, self.project, self.plan, self.cfg_cls = adapter, project, plan, cfg_cls
        self.base, self.default = choice
        self.path, self.reg = found[0], _Registry(found[1])
        self.cli = _flags(list(project.argv))
        root = Path(project.root).resolve()
        try:
            self.display = str(self.path.resolve().relative_to(root))
        except ValueError:
            self.display = str(self.path)

    def chosen(self) -> Optional[tuple[str, Source]]:
        ident = self.cli.get("model.type")
        if ident is not None:
            name = self.reg.by_id(self.base, ident)
            return None if name is None else (name, Source("cli", None, None, "--model.type",
                                                           f"--model.type {ident} picks {name}"))
        d = self.default  # ModelRegistry.X.model_id
        if isinstance(d, ast.Attribute) and isinstance(d.value, ast.Attribute) and isinstance(d.value.value, ast.Name):
            name = self.reg.enums.get(d.value.value.id, {}).get(d.value.attr)
            if name is not None:
                return name, Source("default", None, None, "model", f"the default choice {d.value.attr} = {name}")
        return None

    def get(self, name: str, key: str, why: Source) -> tuple[Any, Optional[Source]]:
        flag = f"model.{key}"
        if flag in self.cli:
            return self.cli[flag], Source("cli", None, None, "--" + flag, f"launch line ({why.detail})")
        value, line = self.reg.value(name, key)
        if value is None:
            return None, None
        return value, Source("config", self.display, line, key, f"{key} of {name} ({why.detail})")

    def add(self, field: str, value: Any, source: Optional[Source]) -> None:
        if source is not None:
            self.adapter.add_checked(self.plan, field, value, source, "medium")

    def accumulation(self, got: dict[str, tuple[int, Source]]) -> None:
        """``global // per_device // world`` (prismatic ``training/strategies/base_strategy.py:83``)."""
        from preflight.adapters.launchers import parse_launch

        world = parse_launch(list(self.project.argv)).total_procs if self.project.argv else None
        if "batch.micro" not in got or "batch.global" not in got or world is None or not _is_int(world) \
                or world <= 0:
            return
        (micro, _), (total, gsrc) = got["batch.micro"], got["batch.global"]
        if total % (micro * world) == 0:
            self.add("batch.grad_accum", total // (micro * world),
                     Source("derived", gsrc.path, gsrc.line, gsrc.key,
                            f"global batch {total} // {micro} per device // {world} processes of the launch"))

    def run(self) -> None:
        picked = self.chosen()
        if picked is None:
            return
        name, why = picked
        stage = self.cli.get("stage", _literal_default(self.cfg_cls, "stage"))
        if not isinstance(stage, str):
            return
        prefix = "align" if stage == "align" else "finetune" if stage.endswith("finetune") else None
        if prefix is None:
            return
        got: dict[str, tuple[int, Source]] = {}
        for key, field in ((f"{prefix}_per_device_batch_size", "batch.micro"),
                           (f"{prefix}_global_batch_size", "batch.global"), ("llm_max_length", "data.seq_len")):
            value, src = self.get(name, key, why)
            if isinstance(value, str) and value.isdigit():
                value = int(value)
            if _is_int(value) and value > 0 and src is not None:
                self.add(field, value, src)
                got[field] = (value, src)
        self.accumulation(got)
        strategy, src = self.get(name, f"{prefix}_train_strategy", why)
        if isinstance(strategy, str) and strategy in _STRATEGY:
            from preflight.adapters.launchers import parse_launch

            info = parse_launch(list(self.project.argv)) if self.project.argv else None
            # torchrun without --nnodes is one node (its default), as is a plain python process
            one_node = info is not None and (info.nodes == 1 or (info.nodes is None and (
                info.total_procs is not None or info.launcher == "python")))
            value = _STRATEGY[strategy][0 if one_node else 1]
            if value is not None:
                self.add("dist.sharding", value, src)
        for key, field in (("enable_gradient_checkpointing", "memory.gradient_checkpointing"),
                           ("enable_mixed_precision_training", "precision.mode")):
            value, src = self.get(name, key, why)
            flag = _bool(value)
            if flag is None:
                continue
            if field == "precision.mode":
                if flag:
                    self.add(field, "amp_bf16", src)
            else:
                self.add(field, flag, src)
