"""Generate the JSON Schemas of ``preflight/schemas/config/`` from the real libraries.

Run in the dev environment (it imports transformers, trl, lightning, accelerate and
deepspeed; preflight itself never does)::

    .venv/bin/python tools/gen_schemas.py            # write the files
    .venv/bin/python tools/gen_schemas.py --check    # exit 1 when a file would change

Each schema records, under ``x-preflight``, the library and version it was generated
from and how (``method``). Each object schema says what the library does with a key it
does not know (``x-unknown-keys``: ``error`` when the library raises, ``ignored`` when it
silently drops the key, ``other-dataclass`` for HfArgumentParser files whose extra keys
may belong to the script's own dataclasses).

How each file is made:

* ``training_arguments.json`` / ``sft_config.json``: ``dataclasses.fields`` and
  ``typing.get_type_hints`` of ``transformers.TrainingArguments`` / ``trl.SFTConfig``;
  ``Enum`` members (``OptimizerNames``, ``IntervalStrategy``...) become ``enum`` lists
  (``__post_init__`` converts the strings and rejects others), ``metadata["choices"]``
  too. Defaults are recorded when JSON-serialisable.
* ``lightning_trainer.json``: ``inspect.signature(lightning.pytorch.Trainer.__init__)``
  with its resolved annotations (``Literal`` precision values become ``enum``).
* ``accelerate_config.json``: the fields of
  ``accelerate.commands.config.config_args.ClusterConfig`` (``from_yaml_file`` raises
  on unknown top-level keys; types are not checked there, so ``x-types: advisory``, and
  ``downcast_bf16`` also takes the ``'no'`` that ``accelerate config`` writes); the nested ``deepspeed_config`` / ``fsdp_config`` /
  ``fp8_config`` / ``dynamo_config`` / ``megatron_lm_config`` / ``parallelism_config``
  keys are the ``dest`` names of the matching argument groups of
  ``accelerate.commands.launch.launch_command_parser()`` plus the prefixed ``args.<name>``
  attributes that ``accelerate/commands/launch.py`` and ``accelerate/utils/launch.py``
  read (``accelerate launch`` copies those blocks onto its arguments, so other keys are
  ignored); their values are not typed (the arguments are typed for the command line, the
  file holds YAML values).
* ``accelerate_sagemaker_config.json``: the fields of ``SageMakerConfig`` (the class
  ``load_config_from_file`` picks for ``compute_environment: AMAZON_SAGEMAKER``).
* ``deepspeed.json``: the top-level keys are the keys ``deepspeed.runtime.config.
  DeepSpeedConfig(...)`` looks up, recorded by running it on a minimal config with a
  dict that logs every lookup (DeepSpeed ignores other top-level keys); scalar types
  come from the ``*_DEFAULT`` constants in ``deepspeed.runtime.constants``; the blocks
  validated by pydantic models (``zero_optimization``, ``fp16``, ``bf16``,
  ``tensorboard``, ``wandb``, ``csv_monitor``, ``comet``, ``comms_logger``,
  ``compile``, ``hybrid_engine``, ``timers.throughput``) come from the models'
  ``model_fields`` (aliases included, deprecated fields marked; ``extra="forbid"``
  makes unknown keys an error). ``optimizer``/``scheduler`` are ``{type, params}``.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import importlib
import inspect
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any, Optional

OUT = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
GENERATOR = "tools/gen_schemas.py"


# --------------------------------------------------------------------------- types


def _json_default(value: Any) -> Any:
    """The default as JSON, or None when it is not representable."""
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
            return None
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (bool, int, float, str)) for v in value):
        return list(value)
    if isinstance(value, dict) and not value:
        return {}
    return None


def _merge_union(parts: list[dict[str, Any]]) -> dict[str, Any]:
    if any(not p for p in parts):
        return {}  # one member accepts anything
    simple = all(set(p) == {"type"} for p in parts)
    if simple:
        names: list[str] = []
        for p in parts:
            for t in p["type"] if isinstance(p["type"], list) else [p["type"]]:
                if t not in names:
                    names.append(t)
        if "integer" in names and "number" in names:
            names.remove("integer")
        return {"type": names[0] if len(names) == 1 else names}
    out: list[dict[str, Any]] = []
    for p in parts:
        if p not in out:
            out.append(p)
    return out[0] if len(out) == 1 else {"anyOf": out}


def type_schema(tp: Any, *, enum_exclusive: bool = True) -> dict[str, Any]:
    """JSON Schema of a Python annotation, as far as JSON/YAML can express it.

    Classes that cannot come from a JSON/YAML file (an ``Accelerator`` object, a
    callable) accept anything: a Hydra config builds them with ``_target_``.
    ``enum_exclusive``: ``Union[SomeEnum, str]`` accepts only the enum's values
    (TrainingArguments converts such strings and raises on others).
    """
    if tp is Any or tp is object or tp is inspect.Parameter.empty:
        return {}
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value if isinstance(m.value, (str, int, float, bool)) else m.name for m in tp]}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return {"enum": [a.value if isinstance(a, enum.Enum) else a for a in args]}
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is getattr(types, "UnionType", None)):
        enums = [a for a in args if isinstance(a, type) and issubclass(a, enum.Enum)]
        rest = [a for a in args if a not in enums]
        if enums and enum_exclusive and all(a in (str, type(None)) for a in rest):
            values: list[Any] = []
            for e in enums:
                values.extend(type_schema(e)["enum"])
            parts = [{"enum": values}]
            if type(None) in rest:
                parts.append({"type": "null"})
            return _merge_union(parts) if len(parts) > 1 else parts[0]
        return _merge_union([type_schema(a, enum_exclusive=enum_exclusive) for a in args])
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple, set):
        item_types = [a for a in args if a is not Ellipsis]
        out: dict[str, Any] = {"type": "array"}
        if len(item_types) == 1:
            item = type_schema(item_types[0], enum_exclusive=enum_exclusive)
            if item:
                out["items"] = item
        return out
    if origin in (dict,) or tp is dict:
        return {"type": "object"}
    try:
        import collections.abc as abc

        if origin in (abc.Sequence, abc.MutableSequence, abc.Iterable):
            return {"type": "array"}
        if origin in (abc.Mapping, abc.MutableMapping):
            return {"type": "object"}
    except ImportError:  # pragma: no cover
        pass
    pyd = _pydantic_schema(tp)
    if pyd is not None:
        return pyd
    return {}


def _field_entry(tp: Any, default: Any, *, choices: Optional[list[Any]] = None,
                 deprecated: Optional[str] = None) -> dict[str, Any]:
    schema = dict(type_schema(tp))
    if choices:
        schema = {**{k: v for k, v in schema.items() if k != "type"}, "enum": list(choices)}
    if default is None:
        schema = _nullable(schema)  # `x: list[str] = None`: the hint omits Optional, the default says it
    if default is not dataclasses.MISSING and default is not inspect.Parameter.empty:
        value = _json_default(default)
        if value is not None or default is None:
            schema["default"] = value
    if deprecated:
        schema["deprecated"] = True
        schema["x-deprecated"] = deprecated
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if not schema or "null" in str(schema.get("type")) or {"type": "null"} in schema.get("anyOf", []):
        return dict(schema)
    if set(schema) == {"type"}:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        return {"type": [*types, "null"]}
    if set(schema) == {"enum"}:
        return {"enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, Any], unknown: str, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "x-unknown-keys": unknown, **extra}


def _document(title: str, library: str, version: str, method: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": DRAFT, "title": title,
            "x-preflight": {"library": library, "version": version, "generator": GENERATOR,
                            "method": method},
            **body}


# --------------------------------------------------------------------------- dataclasses


# fields whose type hint is narrower than what the class accepts at run time:
# TrainingArguments.fsdp is hinted `str | None`, but __post_init__ takes a string, a list of
# FSDP options (`isinstance(self.fsdp, (str, list))`) or `True`; `resume_from_checkpoint` is hinted
# `str | None`, but TrainingArguments keeps it as given and the scripts hand it to
# `Trainer.train(resume_from_checkpoint=...)`, which takes a bool (`true`: the last checkpoint in
# output_dir; `false`: start fresh)
RUNTIME_TYPES: dict[str, dict[str, Any]] = {
    "fsdp": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}},
                       {"type": "boolean"}, {"type": "null"}]},
    "resume_from_checkpoint": {"type": ["string", "boolean", "null"]},
}


def dataclass_schema(cls: type, unknown: str) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    import transformers

    runtime = RUNTIME_TYPES if issubclass(cls, transformers.TrainingArguments) else {}
    props: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        default = f.default
        if default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            try:
                default = f.default_factory()  # type: ignore[misc]
            except Exception:
                default = dataclasses.MISSING
        choices = f.metadata.get("choices") if f.metadata else None
        props[f.name] = _field_entry(hints.get(f.name, Any), default,
                                     choices=list(choices) if choices is not None else None)
        if f.name in runtime:
            props[f.name] = {**runtime[f.name], **({"default": props[f.name]["default"]}
                                                   if "default" in props[f.name] else {})}
    return _object(props, unknown)


def training_arguments() -> dict[str, Any]:
    import transformers

    body = dataclass_schema(transformers.TrainingArguments, "other-dataclass")
    return _document("transformers.TrainingArguments", "transformers", transformers.__version__,
                     "dataclasses.fields + typing.get_type_hints of transformers.TrainingArguments", body)


def sft_config() -> dict[str, Any]:
    import trl

    body = dataclass_schema(trl.SFTConfig, "other-dataclass")
    return _document("trl.SFTConfig", "trl", trl.__version__,
                     "dataclasses.fields + typing.get_type_hints of trl.SFTConfig "
                     "(a TrainingArguments subclass)", body)


# --------------------------------------------------------------------------- Lightning


def lightning_trainer() -> dict[str, Any]:
    import lightning
    from lightning.pytorch import Trainer

    init = Trainer.__init__
    try:
        hints = typing.get_type_hints(init)
    except Exception:
        hints = {}
    props: dict[str, Any] = {}
    for name, param in inspect.signature(init).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        props[name] = _field_entry(hints.get(name, Any), param.default)
    return _document("lightning.pytorch.Trainer keyword arguments", "lightning", lightning.__version__,
                     "inspect.signature + typing.get_type_hints of lightning.pytorch.Trainer.__init__",
                     _object(props, "error"))


# --------------------------------------------------------------------------- accelerate

_ACCEL_GROUPS = {
    "deepspeed_config": ("DeepSpeed Arguments", None),
    "fsdp_config": ("FSDP Arguments", "fsdp_"),
    "fp8_config": ("FP8 Arguments", "fp8_"),
    "megatron_lm_config": ("Megatron-LM Arguments", None),
    "parallelism_config": ("ParallelismConfig Arguments", None),
    "dynamo_config": ("Resource Selection Arguments", "dynamo_"),
}


def _launch_args_read() -> set[str]:
    """Attribute names the launch code reads from its ``args`` (``args.fsdp_x``,
    ``getattr(args, "fsdp_x", ...)``): keys of a config block copied onto the arguments
    are used when they are read there, even without a command-line flag."""
    import ast

    import accelerate.commands.launch as launch_module
    import accelerate.utils.launch as launch_utils

    names: set[str] = set()
    for module in (launch_module, launch_utils):
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "args":
                names.add(node.attr)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                    "getattr", "hasattr") and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id == "args" and isinstance(node.args[1], ast.Constant) \
                    and isinstance(node.args[1].value, str):
                names.add(node.args[1].value)
    return names


def accelerate_config() -> dict[str, Any]:
    import accelerate
    from accelerate.commands.config.config_args import ClusterConfig
    from accelerate.commands.launch import launch_command_parser

    read_args = _launch_args_read()
    body = dataclass_schema(ClusterConfig, "error")
    # ClusterConfig(**yaml) does not check types, so type mismatches are advisory; and
    # `accelerate config` itself writes downcast_bf16: 'no' into this bool field.
    body["x-types"] = "advisory"
    body["properties"]["downcast_bf16"] = {"type": ["boolean", "string"], "default": False}
    parser = launch_command_parser()
    groups = {g.title: g for g in parser._action_groups}
    for key, (title, prefix) in _ACCEL_GROUPS.items():
        group = groups.get(title)
        if group is None or key not in body["properties"]:
            continue
        props: dict[str, Any] = {}
        names = [a.dest for a in group._group_actions]
        if prefix:  # also the args.<prefix>... attributes the launch code reads
            names += sorted(n for n in read_args if n.startswith(prefix) and n not in names)
        for dest in names:
            if prefix and not dest.startswith(prefix):
                continue
            # Keys only: the launch arguments are typed for the command line (strings
            # such as "false", choices "1"/"2"), while the config file holds YAML values.
            entry: dict[str, Any] = {}
            props[dest] = entry
            if prefix and dest.startswith(prefix):
                props.setdefault(dest[len(prefix):], entry)  # launch adds the prefix back
        nested = _object(props, "ignored")
        nested["type"] = ["object", "null"]
        body["properties"][key] = nested
    return _document("accelerate config file (accelerate config / --config_file)", "accelerate",
                     accelerate.__version__,
                     "dataclasses.fields of accelerate.commands.config.config_args.ClusterConfig; "
                     "nested blocks from the argument groups of accelerate.commands.launch."
                     "launch_command_parser()", body)


def accelerate_sagemaker_config() -> dict[str, Any]:
    import accelerate
    from accelerate.commands.config.config_args import SageMakerConfig

    body = dataclass_schema(SageMakerConfig, "error")
    body["x-types"] = "advisory"
    return _document("accelerate config file for Amazon SageMaker (compute_environment: AMAZON_SAGEMAKER)",
                     "accelerate", accelerate.__version__,
                     "dataclasses.fields of accelerate.commands.config.config_args.SageMakerConfig", body)


# --------------------------------------------------------------------------- DeepSpeed


def _pydantic_schema(tp: Any) -> Optional[dict[str, Any]]:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover
        return None
    if not (isinstance(tp, type) and issubclass(tp, BaseModel)):
        return None
    return pydantic_model_schema(tp)


def pydantic_model_schema(model: Any) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        deprecated = None
        if extra.get("deprecated"):
            deprecated = f"deprecated; use {extra.get('new_param')}" if extra.get("new_param") else "deprecated"
        default = info.default
        try:
            from pydantic_core import PydanticUndefined

            if default is PydanticUndefined:
                default = dataclasses.MISSING
        except ImportError:  # pragma: no cover
            pass
        entry = _field_entry(info.annotation, default, deprecated=deprecated)
        _add_bounds(entry, info)
        entry["x-lax"] = True  # pydantic (lax mode) converts "true", "1", 1.0 ... to the field type
        props[name] = entry
        if info.alias and info.alias != name:
            props[info.alias] = entry
    forbid = model.model_config.get("extra") == "forbid"
    return _object(props, "error" if forbid else "ignored", **{"x-model": f"{model.__module__}.{model.__name__}"})


def _add_bounds(entry: dict[str, Any], info: Any) -> None:
    for meta in getattr(info, "metadata", ()):
        for attr, key in (("ge", "minimum"), ("gt", "exclusiveMinimum"), ("le", "maximum"), ("lt", "exclusiveMaximum")):
            value = getattr(meta, attr, None)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                entry[key] = value


def _deepspeed_top_keys() -> list[str]:
    from deepspeed.runtime.config import DeepSpeedConfig

    seen: set[str] = set()

    class _Keys(list):
        def __contains__(self, key: object) -> bool:
            if isinstance(key, str):
                seen.add(key)
            return super().__contains__(key)

    class _Logged(dict):
        def __contains__(self, key: object) -> bool:
            if isinstance(key, str):
                seen.add(key)
            return super().__contains__(key)

        def get(self, key: Any, default: Any = None) -> Any:
            if isinstance(key, str):
                seen.add(key)
            return super().get(key, default)

        def __getitem__(self, key: Any) -> Any:
            if isinstance(key, str):
                seen.add(key)
            return super().__getitem__(key)

        def keys(self) -> Any:  # type: ignore[override]
            return _Keys(super().keys())

    DeepSpeedConfig(_Logged({"train_batch_size": 1, "train_micro_batch_size_per_gpu": 1}))
    return sorted(seen)


def _deepspeed_constant_types() -> dict[str, dict[str, Any]]:
    import deepspeed.runtime.constants as constants

    out: dict[str, dict[str, Any]] = {}
    names = vars(constants)
    for name, value in names.items():
        if not (name.isupper() and isinstance(value, str)):
            continue
        default = names.get(name + "_DEFAULT", dataclasses.MISSING)
        if isinstance(default, bool):
            out.setdefault(value, {"type": "boolean"})
        elif isinstance(default, int):
            out.setdefault(value, {"type": "integer"})
        elif isinstance(default, float):
            out.setdefault(value, {"type": "number"})
        elif isinstance(default, str):
            out.setdefault(value, {"type": "string"})
    return out


def deepspeed_config() -> dict[str, Any]:
    import deepspeed
    from deepspeed.comm.config import CommsLoggerConfig
    from deepspeed.compile.config import CompileConfig
    from deepspeed.monitor.config import CometConfig, CSVConfig, TensorBoardConfig, WandbConfig
    from deepspeed.runtime.config import HybridEngineConfig
    from deepspeed.runtime.precision_config import DeepSpeedBF16Config, DeepSpeedFP16Config
    from deepspeed.runtime.zero.config import DeepSpeedZeroConfig
    from deepspeed.utils.config import DeepSpeedThroughputTimerConfig

    models = {
        "zero_optimization": DeepSpeedZeroConfig, "fp16": DeepSpeedFP16Config, "bf16": DeepSpeedBF16Config,
        "bfloat16": DeepSpeedBF16Config, "tensorboard": TensorBoardConfig, "wandb": WandbConfig,
        "csv_monitor": CSVConfig, "comet": CometConfig, "comms_logger": CommsLoggerConfig,
        "compile": CompileConfig, "hybrid_engine": HybridEngineConfig,
    }
    typed = _deepspeed_constant_types()
    props: dict[str, Any] = {}
    # keys DeepSpeedConfig reads only where torch.distributed is up (the minimal config above runs without it):
    # `"sequence_parallel_size" in config` sizes the data-parallel world of an HF zero.init run (config.py,
    # DeepSpeed 0.17+); seen in DeepSpeedExamples benchmarks/autosp/configs/autosp_config.json (hunt46)
    unrecorded = {"sequence_parallel_size": {"type": "integer", "minimum": 1}}
    for key in sorted({*_deepspeed_top_keys(), *unrecorded}):
        if key in unrecorded:
            props[key] = dict(unrecorded[key])
        elif key in models:
            props[key] = pydantic_model_schema(models[key])
        else:
            props[key] = dict(typed.get(key, {}))
    # legacy form `"zero_optimization": true` (read_zero_config_deprecated)
    props["zero_optimization"] = {"anyOf": [props["zero_optimization"], {"type": "boolean"}]}
    props["timers"] = _object({"throughput": pydantic_model_schema(DeepSpeedThroughputTimerConfig)}, "ignored")
    for key in ("optimizer", "scheduler"):
        props[key] = _object({"type": {"type": "string"}, "params": {"type": "object"}}, "ignored")
    # the batch triple is read with get_scalar_param(param_dict, KEY, None) (*_DEFAULT = None): a JSON null
    # is the same as leaving the key out, and DeepSpeed derives it from the other two
    for key in ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"):
        props[key] = {"type": "integer", "minimum": 1, "x-null-is-unset": True}
    props["gradient_clipping"] = {"type": "number"}
    return _document("DeepSpeed config (ds_config.json)", "deepspeed", deepspeed.__version__,
                     "top-level keys: the lookups DeepSpeedConfig makes on a minimal config "
                     "(recorded with a logging dict); scalar types from deepspeed.runtime.constants "
                     "*_DEFAULT; blocks from the pydantic models' model_fields", _object(props, "ignored"))


# --------------------------------------------------------------------------- main

SCHEMAS = {
    "training_arguments": training_arguments,
    "sft_config": sft_config,
    "lightning_trainer": lightning_trainer,
    "accelerate_config": accelerate_config,
    "accelerate_sagemaker_config": accelerate_sagemaker_config,
    "deepspeed": deepspeed_config,
}


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed schema is out of date")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"schemas to generate: {', '.join(SCHEMAS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in SCHEMAS]
    if unknown:
        parser.error(f"unknown schema name(s): {', '.join(unknown)}")
    OUT.mkdir(parents=True, exist_ok=True)
    stale = 0
    for name in args.names or list(SCHEMAS):
        try:
            doc = SCHEMAS[name]()
        except ImportError as exc:
            print(f"{name}: skipped ({exc}); install it in the dev environment", file=sys.stderr)
            stale += 1
            continue
        text = render(doc)
        path = OUT / f"{name}.json"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} is out of date")
                stale += 1
            continue
        path.write_text(text, encoding="utf-8")
        meta = doc["x-preflight"]
        print(f"wrote {path.relative_to(OUT.parent.parent.parent)} "
              f"({meta['library']} {meta['version']}, {len(doc.get('properties', {}))} keys)")
    return 1 if stale else 0


if __name__ == "__main__":
    importlib.invalidate_caches()
    raise SystemExit(main())
