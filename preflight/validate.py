"""Config validation: unknown keys, wrong types and invalid values, with ``file:line``.

The schemas in ``preflight/schemas/config/`` are generated from the real libraries by
``tools/gen_schemas.py`` (each records the library version it came from) and checked
here with ``jsonschema``. What a library does with a key it does not know decides the
severity: an error where it raises (accelerate config, Lightning ``Trainer``, DeepSpeed
blocks with pydantic ``extra="forbid"``), a warning where the key is silently ignored
(DeepSpeed top level, accelerate nested blocks). HfArgumentParser files may hold the keys
of the script's own dataclasses too, so an unknown key there is reported only when it is
close to a real field (a typo), and never when the script declares it.

YAML 1.1 traps are reported by how the file is read: PyYAML (HfArgumentParser YAML,
accelerate config) reads ``1e-4`` as a string, ``yes``/``no``/``on``/``off`` as booleans,
``010`` as octal 8 and ``1:30`` as 90; OmegaConf (Hydra) reads ``1e-4`` as a float but
keeps the other three.

Which kind a file (or a node in it) is, and the kinds themselves, are in
:mod:`preflight.validate_kinds`. Nothing is imported from the libraries; validation never runs
user code.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from preflight.diagnostics import FileError
from preflight.loaders import LoadedConfig, load_config
from preflight.sources import SourceText
from preflight.validate_kinds import KINDS, Target, detect
from preflight.validate_readers import MIXED, deepspeed_reader, mixed_float
from preflight.validate_schema import (
    _accepts,
    _describe,
    _dotted,
    _json_type,
    _lax_converts,
    _matching_branch,
    _show,
    _subschema,
    _suggest,
    yaml11_float,
)
from preflight.validate_schema_files import load_schema, schema_fields, schema_info
from preflight.validate_yaml import Scalar, filled_template, template_placeholders, yaml_scalars

__all__ = ["FileReport", "Problem", "Scalar", "Target", "dataclass_fields", "load_schema", "schema_fields",
           "template_placeholders", "validate_loaded", "validate_source", "yaml_scalars"]

VALIDATE_VERSION = 1

SEVERITIES = ("error", "warning", "note")

HYDRA_META_KEYS = ("_target_", "_partial_", "_recursive_", "_convert_", "_args_")

FLOAT_12 = re.compile(r"^[-+]?(?:\d[\d_]*)?(?:\.\d*)?[eE][-+]?\d+$")  # 1e-4, 5e8, 1.5E+3
_OCTAL_11 = re.compile(r"^[-+]?0[0-7_]+$")
_BOOL_WORDS = ("yes", "no", "on", "off")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a config, at ``path:line``."""

    path: str
    line: Optional[int]
    key: str  # dotted key path in the file ("" for the whole file)
    severity: str  # error, warning, note
    code: str  # unknown-key, wrong-type, invalid-value, yaml11-float, yaml11-bool, yaml11-octal, ...
    message: str
    kind: str = ""

    def sort_key(self) -> tuple[Any, ...]:
        return (self.path, self.line or 0, self.key, self.code, self.message)

    def render(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}: {self.message} [{self.code}]"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "key": self.key, "severity": self.severity,
                "code": self.code, "message": self.message, "kind": self.kind}


@dataclass
class FileReport:
    path: str
    targets: list[Target] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    error: Optional[FileError] = None
    skipped: str = ""  # why a recognised file was not validated (a kind without a schema)
    template: tuple[str, ...] = ()  # the placeholders of a template file (filled by a script before use)

    @property
    def kinds(self) -> list[str]:
        return sorted({t.kind for t in self.targets})

    @property
    def checked(self) -> bool:
        """Recognised and validated against a schema."""
        return self.error is None and not self.template and not self.skipped and bool(self.targets)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "kinds": [{"kind": t.kind, "key": ".".join(str(k) for k in t.prefix), "detected_by": t.why,
                       "schema": schema_info(t.kind)} for t in self.targets],
            "problems": [p.to_dict() for p in sorted(self.problems, key=Problem.sort_key)],
        }
        if self.error is not None:
            out["error"] = self.error.to_dict()
        if self.skipped:
            out["skipped"] = self.skipped
        if self.template:
            out["template"] = list(self.template)
        return out


# --------------------------------------------------------------------------- validation


def _skipped(value: Any, kind: str, reader: str) -> bool:
    if not isinstance(value, str):
        return False
    text = value.strip()
    if reader == "omegaconf" and ("${" in text or text == "???"):
        return True
    return kind in ("deepspeed", "gpt-neox") and text.lower() == "auto"


class _Validation:
    def __init__(self, config: LoadedConfig, target: Target, reader: str, scalars: dict[tuple[Any, ...], Scalar],
                 known_extra: frozenset[str], flags_from: str = "",
                 overridden: Optional[Mapping[str, Mapping[str, str]]] = None) -> None:
        self.config = config
        self.flags_from = flags_from  # the project's loader that turns YAML keys into --flags (path:line)
        # per kind, the top-level keys whose value is set again after the file is read, each with
        # the reason (:mod:`preflight.validate_overrides`)
        self.overridden = overridden or {}
        self.target = target
        self.kind = KINDS[target.kind]
        self.reader = reader
        self.scalars = scalars
        self.known_extra = known_extra
        self.schema = load_schema(target.kind)
        if target.kind == "gpt-neox":
            # inside a GPT-NeoX checkout (or a fork's), the checkout's own NeoXArgs read the file
            from preflight.validate_neox import checkout_schema

            self.schema = checkout_schema(Path(config.path)) or self.schema
        self.problems: list[Problem] = []
        self.trapped: set[tuple[Any, ...]] = set()

    def add(self, rel: Sequence[Any], severity: str, code: str, message: str) -> None:
        full = (*self.target.prefix, *rel)
        why = self.overridden.get(self.target.kind, {}).get(str(rel[0])) \
            if len(rel) == 1 and not self.target.prefix and severity != "note" else None
        if why is not None:
            # the value is set again after the file is read (the launch line, the project's code)
            severity = "note"
            message += "; " + why
        self.problems.append(Problem(self.config.path, self.config.line_of(full, nearest=True), _dotted(full), severity, code,
                                     message, self.target.kind))

    def run(self) -> list[Problem]:
        data = self._prepared(self.target.data, ())
        self.traps()
        from jsonschema import Draft202012Validator

        validator = Draft202012Validator(self.schema)
        for error in validator.iter_errors(data):
            self.translate(error)
        return self.problems

    def _prepared(self, value: Any, rel: tuple[Any, ...]) -> Any:
        """The data as the library reads it: Hydra meta keys out of the targeted node,
        OmegaConf floats (``1e-4``) as floats, accelerate's legacy keys rewritten, DeepSpeed
        autotuning lists checked value by value."""
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if not rel and self._dropped(k, v, value):
                    continue
                out[k] = self._prepared(v, (*rel, k))
            return out
        if isinstance(value, list):
            if self._tuning_list(rel):
                return self._tuned(value, rel)
            return [self._prepared(v, (*rel, i)) for i, v in enumerate(value)]
        if self.reader in ("omegaconf", "yaml11") and isinstance(value, str):
            scalar = self.scalars.get((*self.target.prefix, *rel))
            if scalar is not None and scalar.plain and FLOAT_12.match(scalar.text):
                try:
                    return float(scalar.text.replace("_", ""))
                except ValueError:
                    return value
        return value

    def _dropped(self, key: Any, value: Any, node: dict[str, Any]) -> bool:
        """Top-level keys of the node that the library itself consumes before reading the rest."""
        if key in HYDRA_META_KEYS and (self.reader == "omegaconf" or self.target.prefix or "_target_" in node):
            return True
        # a Hydra config file's own defaults list (the node is the file's root): Hydra reads it,
        # the Trainer never sees it; nested deeper it would be a Trainer argument
        if key == "defaults" and not self.target.prefix and isinstance(value, list) \
                and self.target.why.startswith("_target_"):
            return True
        # accelerate's BaseConfig.process_config rewrites the legacy keys before checking the rest:
        # `fp16` is dropped (it set mixed_precision), `dynamo_backend` becomes dynamo_config
        return self.target.kind in ("accelerate", "accelerate-sagemaker") and key in ("fp16", "dynamo_backend")

    def _tuning_list(self, rel: tuple[Any, ...]) -> bool:
        """A DeepSpeed autotuning config lists the values to try (``"stage": [2, 3]``, documented
        in DeepSpeed's autotuning tutorial): the autotuner reads ``zero_optimization`` lists."""
        data = self.target.data
        return (self.target.kind == "deepspeed" and len(rel) == 2 and rel[0] == "zero_optimization"
                and isinstance(data, dict) and isinstance(data.get("autotuning"), dict))

    def _tuned(self, values: list[Any], rel: tuple[Any, ...]) -> Any:
        from jsonschema import Draft202012Validator

        sub = _subschema(self.schema, rel)
        if sub is None or "array" in _accepts(sub) or not values:
            return values
        checker = Draft202012Validator(sub)
        for i, v in enumerate(values):
            if not _skipped(v, "deepspeed", self.reader) and not checker.is_valid(v):
                self.add((*rel, i), "error", "invalid-value",
                         f"{_dotted((*self.target.prefix, *rel))}[{i}] is {_show(v)}, expected {_describe(sub)}; "
                         f"the autotuner tries each listed value" + self._source_note())
        return values[0] if checker.is_valid(values[0]) else sub.get("default")

    def traps(self) -> None:
        if self.reader == "json":
            return  # JSON text (a .yaml file written in JSON, opened with json.load): no YAML 1.1 reading
        prefix = self.target.prefix
        n = len(prefix)
        for path, scalar in self.scalars.items():
            if path[:n] != prefix or not scalar.plain:
                continue
            rel = path[n:]
            expected = _accepts(_subschema(self.schema, rel))
            text = scalar.text
            if scalar.tag == "str" and FLOAT_12.match(text) and self.reader in ("pyyaml", MIXED):
                if "string" in expected and "any" not in expected:
                    continue
                severity = "error" if expected & {"number", "integer"} else "warning"
                self.trapped.add(rel)
                fixed = yaml11_float(text)
                if self.reader == MIXED:
                    self.add(rel, "note", "yaml11-float", mixed_float(text, fixed, self.config.path))
                    continue
                if self.target.kind == "axolotl":
                    # axolotl's pydantic models turn the string into a float where the field is a
                    # number (lax mode; `learning_rate: str | float` has its own float() validator)
                    self.add(rel, "note", "yaml11-float",
                             f"{text} is read as the string {text!r} by {self.kind.loader}; axolotl's pydantic "
                             f"models convert it to a number where the field is one, but {fixed} is clearer")
                    continue
                if self.flags_from and self.target.kind in ("training-args", "sft-config"):
                    self.add(rel, "note", "yaml11-float",
                             f"{text} is the string {text!r} in YAML 1.1, but the project's loader "
                             f"({self.flags_from}) passes each key as a --flag (or, with TrlParser, as an "
                             f"argparse default), where argparse reads it as a "
                             f"number; a script that hands the file to HfArgumentParser.parse_yaml_file would "
                             f"get the string: {fixed} is safe either way")
                    continue
                self.add(rel, severity, "yaml11-float",
                         f"{text} is read as the string {text!r}, not a number: YAML 1.1 floats need a "
                         f"dot and this file is read by {self.kind.loader}; write {fixed}")
            elif scalar.tag == "bool" and text.lower() in _BOOL_WORDS:
                if expected & {"boolean", "any"}:
                    continue
                self.trapped.add(rel)
                value = text.lower() in ("yes", "on")
                if self.target.kind.startswith("accelerate") and rel == ("distributed_type",) and not value:
                    self.add(rel, "note", "yaml11-bool",
                             f"{text} is the boolean false in YAML 1.1 (PyYAML), not the string 'NO'; accelerate "
                             "launch treats it the same (no distributed launcher is chosen), but quote it: 'NO'")
                    continue
                self.add(rel, "error", "yaml11-bool",
                         f"{text} is the boolean {str(value).lower()} in YAML 1.1 ({self._reader_name()}), "
                         f"but {_dotted(path)} expects {_describe(_subschema(self.schema, rel) or {})}; "
                         f"quote it: '{text}'")
            elif scalar.tag == "int" and _OCTAL_11.match(text) and text.strip("+-0_"):
                self.trapped.add(rel)
                self.add(rel, "warning", "yaml11-octal",
                         f"{text} is read as the octal number {int(text.replace('_', ''), 8)} in YAML 1.1 "
                         f"({self._reader_name()}); drop the leading zero, or quote it for a string")
            elif scalar.tag in ("int", "float") and ":" in text:
                self.trapped.add(rel)
                self.add(rel, "warning", "yaml11-sexagesimal",
                         f"{text} is a base-60 number in YAML 1.1 ({self._reader_name()}); quote it for a string")

    def _string_bool(self, rel: Sequence[Any], name: str, value: str) -> None:
        """A string where TrainingArguments types a bool (uclaml/SPPO ``do_eval: "no"``):
        HfArgumentParser's file readers hand the file's values to the dataclass as they are
        (``parse_dict``: ``dtype(**inputs)``, no conversion), so any non-empty string is true;
        a project loader that turns keys into --flags gets argparse's ``string_to_bool`` instead."""
        if self.flags_from:
            self.add(rel, "note", "wrong-type",
                     f'{name} is "{value}" (string); the project\'s loader ({self.flags_from}) passes it as a '
                     f"--flag, where it is read as a boolean, but a script that hands the file to "
                     f"HfArgumentParser.parse_yaml_file would keep the string: write true or false")
            return
        if value.strip().lower() in ("no", "false", "0", "off", "n", "f"):
            effect = f"a non-empty string is true, so {name} is on, the opposite of what it says"
        else:
            effect = "any non-empty string is true"
        self.add(rel, "warning", "wrong-type",
                 f'{name} is "{value}" (string), not a boolean: HfArgumentParser keeps a file\'s values as '
                 f"written, and {effect}; write true or false")

    def _reader_name(self) -> str:
        return {"omegaconf": "OmegaConf/Hydra", "pyyaml": "PyYAML", MIXED: "PyYAML or OmegaConf"}.get(self.reader,
                                                                                                 "YAML 1.1")

    def translate(self, error: Any) -> None:
        rel = tuple(error.absolute_path)
        if _skipped(error.instance, self.target.kind, self.reader):
            return  # `"auto"` (filled in by the HF integration), `${...}`: no literal value to judge
        if self.target.kind == "deepspeed" and not self.target.prefix and rel:
            from preflight.validate_unknown import legacy_deepspeed_section

            if legacy_deepspeed_section(self, error, rel):
                return
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            self.unknown_keys(error, rel)
            return
        if rel in self.trapped or _skipped(error.instance, self.target.kind, self.reader):
            return
        sub = error.schema if isinstance(error.schema, dict) else {}
        if error.validator == "anyOf":
            branch = _matching_branch(sub, error.instance)
            if branch is not None and error.context:
                for inner in error.context:
                    if inner.relative_schema_path and inner.relative_schema_path[0] == branch:
                        self.translate(inner)
                return
        name = _dotted((*self.target.prefix, *rel)) or "the file"
        value = error.instance
        if error.validator == "type" and sub.get("x-lax") and _lax_converts(value, sub):
            self.add(rel, "note", "converted-value",
                     f"{name} is {_show(value)} ({_json_type(value)}); {self.kind.owner} converts it to "
                     f"{_describe(sub)} (pydantic lax mode), but a plain JSON value is clearer"
                     + _precision_switch_caveat(self.kind.owner, rel))
            return
        wrong_type = error.validator == "type" or (
            error.validator == "anyOf" and _json_type(value) not in _accepts(sub))
        if wrong_type and value is None and self.target.kind.startswith("accelerate") and len(rel) == 1:
            # ClusterConfig(**yaml) keeps None and `accelerate launch` fills an unset value from the
            # command line (`--num_processes`), the way its own default -1 asks to (config_args.py)
            self.add(rel, "note", "unset-value",
                     f"{name} is null: accelerate treats it as not set here, so `accelerate launch` must get "
                     f"--{rel[-1]} on the command line (or its default applies)")
            return
        if wrong_type and value is None and sub.get("x-null-is-unset"):
            # DeepSpeedConfig reads the batch triple with get_scalar_param(config, key, None): null is the
            # same as an absent key, derived from the other two (an unset triple is a batch-rule matter)
            self.add(rel, "note", "unset-value",
                     f"{name} is null: {self.kind.owner} reads it as not set (the same as leaving the key out) "
                     f"and derives it from the other batch keys")
            return
        if wrong_type and isinstance(value, str) and self.target.kind in ("training-args", "sft-config") \
                and "boolean" in _accepts(sub) and "string" not in _accepts(sub):
            self._string_bool(rel, name, value)
            return
        if wrong_type:
            advisory = self.schema.get("x-types") == "advisory"
            self.add(rel, "warning" if advisory else "error", "wrong-type",
                     f"{name} is {_show(value)} ({_json_type(value)}), expected {_describe(sub)}"
                     + self._source_note())
            return
        if error.validator in ("enum", "anyOf") and sub.get("x-case-insensitive") and isinstance(value, str) \
                and value.lower() in {str(o).lower() for o in sub.get("enum", ())}:
            return
        if error.validator in ("enum", "anyOf"):
            options = list(sub.get("enum", ()))
            for branch in sub.get("anyOf", ()):
                options.extend(branch.get("enum", ()))
            hint = _suggest(value, options) if isinstance(value, str) else None
            extra = f" (did you mean {hint!r}?)" if hint else ""
            from preflight.validate_unknown import REMOVED_VALUES

            removed = REMOVED_VALUES.get((self.target.kind, name, value)) if isinstance(value, str) else None
            if removed is not None:
                from preflight.validate_project import pinned_before_removal

                pinned = pinned_before_removal(Path(self.config.path), self.target.kind, name, value)
                if pinned:
                    self.add(rel, "note", "invalid-value",
                             f"{name} is {_show(value)}: {removed}; the project pins {pinned}, which still "
                             "accepts it: change it before upgrading")
                    return
                extra = f": {removed}"
            self.add(rel, "error", "invalid-value",
                     f"{name} is {_show(value)}, expected {_describe(sub)}{extra}" + self._source_note())
            return
        self.add(rel, "error", "invalid-value", f"{name}: {error.message}" + self._source_note())

    def _source_note(self) -> str:
        meta = self.schema.get("x-preflight", {})
        return f" ({meta.get('library')} {meta.get('version')})" if meta else ""

    def unknown_keys(self, error: Any, rel: tuple[Any, ...]) -> None:
        from preflight.validate_unknown import unknown_keys

        unknown_keys(self, error, rel)

# --------------------------------------------------------------------------- entry points


def validate_loaded(config: LoadedConfig, text: Optional[str] = None, *, kind: Optional[str] = None,
                    reader: Optional[str] = None, known_extra: Iterable[str] = (),
                    targets: Optional[list[Target]] = None, hf_reader: Optional[str] = None,
                    flags_from: str = "",
                    overridden: Optional[Mapping[str, Mapping[str, str]]] = None) -> FileReport:
    """Validate one loaded config. ``kind`` forces a kind for the whole file; ``reader``
    says how the file is read ("pyyaml" or "omegaconf"; default: the kind's reader, or
    OmegaConf for a Hydra node found by ``_target_``); ``known_extra`` are keys the
    script's own dataclasses declare (HfArgumentParser files); ``hf_reader`` is how a
    TrainingArguments/SFTConfig file is read when the scripts say (``omegaconf`` when they
    load it with OmegaConf rather than HfArgumentParser)."""
    report = FileReport(config.path)
    if targets is None:
        targets = [Target(kind, (), config.data, "--kind")] if kind is not None else detect(config)
    report.targets = targets
    scalars = yaml_scalars(text) if text is not None and config.kind == "yaml" else {}
    from preflight.validate_kinds import SCRIPT_FIELDS

    extra = frozenset(known_extra) | SCRIPT_FIELDS
    for target in targets:
        if not KINDS[target.kind].schema:
            from preflight.validate_kinds import SKIPPED_WHY

            report.skipped = f"{KINDS[target.kind].label} recognised, not validated: {SKIPPED_WHY[target.kind]}"
            continue
        how = reader or target.reader or ("omegaconf" if target.why.startswith("_target_")
                                          else KINDS[target.kind].reader)
        if hf_reader and reader is None and target.reader is None \
                and target.kind in ("training-args", "sft-config") and not target.why.startswith("_target_"):
            how = hf_reader
        if config.kind == "json":
            how = "json"
        elif target.kind == "deepspeed" and config.kind == "yaml" and reader is None and target.reader is None:
            # a whole file written in JSON is opened with json.load; a nested block by the project's loader
            how = deepspeed_reader(config.path, target.prefix, text,
                                   any(t.kind in ("training-args", "sft-config") for t in targets)) or how
            if how == "json" and text is not None:
                target = replace(target, data=json.loads(text))  # the values json.load gives
        known = extra
        if target.kind == "training-args":
            from preflight.validate_kinds import preference_fields

            known = extra | preference_fields(target.data)
        report.problems.extend(_Validation(config, target, how, scalars, known, flags_from, overridden).run())
    report.problems.sort(key=Problem.sort_key)
    return report


def load_kind(source: SourceText) -> str:
    """The reader ``load_config`` uses for a source: its kind, else its suffix's."""
    from preflight.sources import kind_of

    return source.kind if source.kind in ("json", "yaml", "toml") else (kind_of(Path(source.display)) or "")


def validate_source(source: SourceText, *, kind: Optional[str] = None) -> FileReport:
    loaded = load_config(source)
    if isinstance(loaded, FileError):
        placeholders = template_placeholders(source.text) if source.text else ()
        if placeholders:
            # filled in, a YAML template parses; an error that stays is the file's own (a Jinja template is
            # never filled: its blocks decide what the file is). A JSON template is not filled: its
            # placeholders are any name a script's sed replaces (DeepSpeedExamples' `QuantW_FORWARD`)
            filled = filled_template(source.text) if source.text and loaded.line is not None \
                and load_kind(source) == "yaml" else None
            still = load_config(SourceText(path=source.path, display=source.display, kind=source.kind,
                                           raw=filled.encode("utf-8"), text=filled)) if filled is not None else None
            if isinstance(still, FileError) and still.line is not None:
                return FileReport(source.display, error=FileError(
                    still.path, f"{still.message} (with its placeholders filled in)", still.line, still.column))
            return FileReport(source.display, template=placeholders)
        return FileReport(source.display, error=loaded)
    targets = [Target(kind, (), loaded.data, "--kind")] if kind is not None else detect(loaded, Path(source.path))
    known: frozenset[str] = frozenset()
    flags_from = ""
    hf_reader: Optional[str] = None
    if any(t.kind in ("training-args", "sft-config") for t in targets):
        from preflight.validate_project import declared_fields, yaml_reader, yaml_to_flags

        known = declared_fields(Path(source.path))
        flags_from = yaml_to_flags(Path(source.path)) if loaded.kind == "yaml" else ""
        hf_reader = yaml_reader(Path(source.path)) if loaded.kind == "yaml" else None
    from preflight.validate_overrides import overrides_for

    overridden = overrides_for(Path(source.path), targets)
    report = validate_loaded(loaded, source.text, known_extra=known, targets=targets, flags_from=flags_from,
                             hf_reader=hf_reader, overridden=overridden)
    return drop_allowed_extra_keys(report, targets, Path(source.path))


def drop_allowed_extra_keys(report: Any, targets: list[Any], config_path: Path) -> Any:
    """A TrainingArguments/SFTConfig file whose project parses it with ``allow_extra_keys=True``:
    HfArgumentParser ignores the keys no dataclass declares, so unknown-key problems are dropped."""
    from preflight.validate_project import extra_keys_allowed

    if not targets or not all(t.kind in ("training-args", "sft-config") for t in targets):
        return report
    if not any(p.code == "unknown-key" for p in report.problems) or not extra_keys_allowed(config_path):
        return report
    report.problems[:] = [p for p in report.problems if p.code != "unknown-key"]
    return report


def dataclass_fields(tree: Any) -> set[str]:
    """Field names of the ``@dataclass`` classes of a script (HfArgumentParser's own
    argument classes), read from its syntax tree."""
    import ast

    from preflight.analysis.syntax import walk  # ast.walk's nodes in its order, faster

    out: set[str] = set()
    for node in walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        decorated = any((isinstance(d, ast.Name) and d.id == "dataclass")
                        or (isinstance(d, ast.Attribute) and d.attr == "dataclass")
                        or (isinstance(d, ast.Call) and getattr(d.func, "id", getattr(d.func, "attr", "")) == "dataclass")
                        for d in node.decorator_list)
        if not decorated:
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                out.add(stmt.target.id)
    return out


def _precision_switch_caveat(owner: str, rel: tuple[Any, ...]) -> str:
    """What the lax-mode note adds for a DeepSpeed ``fp16``/``bf16`` ``enabled`` switch written as a string:
    DeepSpeed releases before 0.17.1 read the raw value (``"false"`` is on) and the HF Trainer's config check
    rejects a string (PF670 reports both where the job shows them)."""
    if owner == "DeepSpeed" and len(rel) >= 2 and rel[-1] == "enabled" and rel[-2] in ("fp16", "bf16"):
        return ('; releases before 0.17.1 read the raw string ("false" is on) and the HF Trainer\'s config '
                "check rejects a string (PF670)")
    return ""
