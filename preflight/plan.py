"""The TrainingPlan: one typed model of a training job that adapters fill and rules read.

Every field holds *facts*: a value, where it came from (:class:`Source`), how sure the
adapter is, and which adapter said it. Facts are never overwritten: when a script
says batch 8 and a DeepSpeed JSON says 4, the plan keeps both, :meth:`TrainingPlan.conflicts`
reports the disagreement and :meth:`TrainingPlan.resolve` picks the one that wins.

Resolution order
    1. ``Fact.priority`` (higher wins). It is 0 unless an adapter knows the framework's
       own precedence (for example "an explicit ``Accelerator(mixed_precision=...)``
       beats the accelerate config file"); such adapters give their facts an explicit
       priority, which beats the generic order below.
    2. Source kind: user > cli > env > config > code > hub > derived > default.
       (``user`` is a value the user stated for the audit itself, e.g. ``--set``.)
    3. Confidence: high > medium > low.
    4. The fact added first.

The field table :data:`FIELDS` is the plan's schema. Adding a fact for an unknown
field, or of the wrong type, raises :class:`ValueError`: that is a bug in an adapter,
not bad user input. The committed JSON Schema ``preflight/schemas/plan.schema.json``
is generated from the table (``python -m preflight.plan --write-schema``) and a test
keeps the two equal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight._record import dataclass
from preflight.diagnostics import FileError
from preflight.plan_fields import (  # noqa: F401  (moved; re-exported)
    _FIELD_LIST,
    FIELDS,
    FSDP_MODES,
    SHARDING_VALUES,
    accepts,
    field_spec,
    sharding_value,
)

PLAN_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "plan.schema.json"
SCHEMA_ID = "urn:preflight-audit:schema:plan:1"

# Highest precedence first.
SOURCE_KINDS: tuple[str, ...] = ("user", "cli", "env", "config", "code", "hub", "derived", "default")
CONFIDENCES: tuple[str, ...] = ("high", "medium", "low")
_KIND_RANK = {k: i for i, k in enumerate(SOURCE_KINDS)}
_CONF_RANK = {c: i for i, c in enumerate(CONFIDENCES)}

















# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class Source:
    """Where a fact comes from. ``path`` is a display path; ``key`` a config key path
    (``zero_optimization.stage``) or a CLI flag; ``detail`` free text."""

    kind: str
    path: Optional[str] = None
    line: Optional[int] = None
    key: Optional[str] = None
    detail: Optional[str] = None

    def __post_init__(self) -> None:
        if self.kind not in _KIND_RANK:
            raise ValueError(f"unknown source kind {self.kind!r} (expected one of {', '.join(SOURCE_KINDS)})")
        if self.line is not None and (not isinstance(self.line, int) or isinstance(self.line, bool)
                                      or self.line < 1):
            raise ValueError(f"source line must be a positive int, got {self.line!r}")
        for name in ("path", "key", "detail"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"source {name} must be a string, got {value!r}")

    def location(self) -> str:
        """``file:line`` (or the file, or the kind) for messages."""
        if self.path is None:
            return self.kind
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "line": self.line, "key": self.key,
                "detail": self.detail}


@dataclass(frozen=True)
class Fact:
    """One statement about a plan field. List values are held as tuples of str."""

    value: Any
    source: Source
    confidence: str = "high"
    adapter: str = ""
    priority: int = 0  # beats source-kind precedence when set (framework-specific order)

    def __post_init__(self) -> None:
        if self.confidence not in _CONF_RANK:
            raise ValueError(f"unknown confidence {self.confidence!r} (expected high, medium or low)")

    def rank(self) -> tuple[int, int, int]:
        """Smaller is stronger (without the insertion-order tie-break)."""
        return (-self.priority, _KIND_RANK[self.source.kind], _CONF_RANK[self.confidence])

    def json_value(self) -> Any:
        return list(self.value) if isinstance(self.value, tuple) else self.value

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.json_value(), "source": self.source.to_dict(),
                "confidence": self.confidence, "adapter": self.adapter, "priority": self.priority}


@dataclass(frozen=True)
class PlanInput:
    """A file (or the launch command) the plan was built from."""

    path: str
    kind: str  # python, notebook, json, yaml, toml, argv, ...
    digest: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "digest": self.digest}


# --------------------------------------------------------------------------- the plan


class TrainingPlan:
    """All facts about one training job, per field, in the order they were added."""

    def __init__(self) -> None:
        self._facts: dict[str, list[Fact]] = {}
        self.inputs: list[PlanInput] = []
        self.notes: list[str] = []

    # -- writing ---------------------------------------------------------
    def add(
        self,
        field: str,
        value: Any,
        source: Source,
        confidence: str = "high",
        *,
        adapter: str,
        priority: int = 0,
    ) -> Fact:
        """Record a fact. Returns it (or the identical fact already recorded)."""
        spec = field_spec(field)
        problem = spec.check(value)
        if problem is not None:
            raise ValueError(f"plan field {field!r}: {problem}")
        if not isinstance(source, Source):
            raise ValueError(f"plan field {field!r}: source must be a Source, got {source!r}")
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError(f"plan field {field!r}: priority must be an int, got {priority!r}")
        if spec.type == "list[str]":
            value = tuple(value)
        fact = Fact(value=value, source=source, confidence=confidence, adapter=adapter,
                    priority=priority)
        facts = self._facts.setdefault(field, [])
        for existing in facts:
            if existing.source == source and _same(existing.value, value):
                return existing
        facts.append(fact)
        return fact

    def add_input(self, path: str, kind: str, digest: Optional[str] = None) -> None:
        item = PlanInput(path, kind, digest)
        if item not in self.inputs:
            self.inputs.append(item)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # -- reading ---------------------------------------------------------
    def fields(self) -> list[str]:
        """Fields that hold at least one fact, in schema order."""
        return [name for name in FIELDS if self._facts.get(name)]

    def __contains__(self, field: str) -> bool:
        return bool(self._facts.get(field))

    def facts(self, field: str) -> list[Fact]:
        field_spec(field)
        return list(self._facts.get(field, ()))

    def resolve(self, field: str) -> Optional[Fact]:
        """The fact that wins: priority, then source kind, then confidence, then first added."""
        facts = self.facts(field)
        if not facts:
            return None
        best = facts[0]
        for fact in facts[1:]:
            if fact.rank() < best.rank():
                best = fact
        return best

    def value(self, field: str, default: Any = None) -> Any:
        fact = self.resolve(field)
        return default if fact is None else fact.value

    def capped(self, confidence: str, *fields: str) -> str:
        """``confidence`` lowered to that of the weakest winning fact of ``fields``: a value
        derived from a guess is never more certain than the guess (a field with no fact leaves
        it as it is)."""
        rank = _CONF_RANK[confidence]
        for field in fields:
            fact = self.resolve(field)
            if fact is not None and _CONF_RANK.get(fact.confidence, rank) > rank:
                rank = _CONF_RANK[fact.confidence]
        return CONFIDENCES[rank]

    def conflicts(self, include_defaults: bool = False) -> dict[str, list[Fact]]:
        """Fields whose facts disagree on the value, with those facts.

        A framework default (source kind ``default``) that an explicit value overrides
        is not a conflict, so default facts are left out unless ``include_defaults``; nor is
        a fact that the ``derive`` step re-reads at the same place.
        """
        out: dict[str, list[Fact]] = {}
        for name in self.fields():
            # a fact the ``derive`` step re-reads at the same place (ZeRO's parameter offload below
            # stage 3: the config's cpu is none in effect) is one reading of that place, not two
            reread = {(f.source.path, f.source.line, f.source.key) for f in self._facts[name]
                      if f.adapter == "derive" and f.source.kind == "derived"}
            facts = [f for f in self._facts[name] if (include_defaults or f.source.kind != "default")
                     and (f.adapter == "derive" or (f.source.path, f.source.line, f.source.key) not in reread)]
            if len(facts) < 2:
                continue
            first = facts[0].value
            if any(not agree(name, f.value, first) for f in facts[1:]):
                out[name] = facts
        return out

    # -- serialisation ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": PLAN_VERSION,
            "fields": {name: [f.to_dict() for f in self._facts[name]]
                       for name in sorted(self._facts) if self._facts[name]},
            "inputs": [i.to_dict() for i in self.inputs],
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_yaml(self) -> str:
        import yaml

        return yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=False,
                              allow_unicode=True, width=100)

    @classmethod
    def from_dict(cls, data: Any) -> TrainingPlan:
        """Rebuild a plan; raises ValueError naming the offending path on bad data."""
        if not isinstance(data, dict):
            raise ValueError("$: a plan must be a mapping")
        check_version(data)
        plan = cls()
        fields = data.get("fields", {})
        if not isinstance(fields, dict):
            raise ValueError("$.fields: expected a mapping of field name to facts")
        for name, facts in fields.items():
            where = f"$.fields[{json.dumps(name)}]"
            if name not in FIELDS:
                raise ValueError(f"{where}: unknown plan field {name!r}")
            if not isinstance(facts, list):
                raise ValueError(f"{where}: expected a list of facts")
            for i, raw in enumerate(facts):
                _fact_from_dict(plan, name, raw, f"{where}[{i}]")
        for i, raw in enumerate(data.get("inputs", []) or []):
            if not isinstance(raw, dict) or not isinstance(raw.get("path"), str) \
                    or not isinstance(raw.get("kind"), str):
                raise ValueError(f"$.inputs[{i}]: expected {{path, kind, digest}}")
            digest = raw.get("digest")
            plan.add_input(raw["path"], raw["kind"], digest if isinstance(digest, str) else None)
        for i, note in enumerate(data.get("notes", []) or []):
            if not isinstance(note, str):
                raise ValueError(f"$.notes[{i}]: expected a string")
            plan.note(note)
        return plan


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same type (so True != 1 and 1 != 1.0 for facts)."""
    return type(a) is type(b) and a == b


# precision modes that name the same 16-bit format: TrainingArguments(bf16=True) (amp_bf16) and
# the DeepSpeed engine's bf16 it turns into (bf16 weights, fp32 master copies) say the same thing
PRECISION_FAMILY = {"amp_bf16": "bf16", "bf16": "bf16", "amp_fp16": "fp16", "fp16": "fp16"}


def agree(field: str, a: Any, b: Any) -> bool:
    """Whether two values of ``field`` say the same thing (no conflict between them)."""
    if field == "precision.mode" and isinstance(a, str) and isinstance(b, str):
        return PRECISION_FAMILY.get(a, a) == PRECISION_FAMILY.get(b, b)
    return _same(a, b)


def check_version(data: dict[str, Any]) -> None:
    version = data.get("version")
    if version != PLAN_VERSION or isinstance(version, bool):
        if version is None:
            raise ValueError(f"$.version: missing; this preflight reads plan version {PLAN_VERSION}")
        raise ValueError(f"$.version: unsupported plan version {version!r}; "
                         f"this preflight reads plan version {PLAN_VERSION}")


def _fact_from_dict(plan: TrainingPlan, name: str, raw: Any, where: str) -> None:
    if not isinstance(raw, dict) or "value" not in raw or not isinstance(raw.get("source"), dict):
        raise ValueError(f"{where}: expected a fact with 'value' and 'source'")
    src = raw["source"]
    value = raw["value"]
    if FIELDS[name].type == "int" and isinstance(value, float) and value.is_integer():
        value = int(value)
    line = src.get("line")
    if isinstance(line, float) and line.is_integer():
        line = int(line)
    priority = raw.get("priority", 0)
    if isinstance(priority, float) and priority.is_integer():
        priority = int(priority)
    try:
        source = Source(kind=src.get("kind"), path=src.get("path"), line=line,
                        key=src.get("key"), detail=src.get("detail"))
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError(f"priority must be an integer, got {priority!r}")
        plan.add(name, value, source, raw.get("confidence", "high"),
                 adapter=str(raw.get("adapter", "")), priority=priority)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


# --------------------------------------------------------------------------- schema


def plan_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a serialised plan, built from :data:`FIELDS`."""
    nullable_str = {"type": ["string", "null"]}
    field_props: dict[str, Any] = {}
    for spec in _FIELD_LIST:
        field_props[spec.name] = {
            "description": spec.description,
            "type": "array",
            "items": {"$ref": "#/$defs/fact", "properties": {"value": spec.value_schema()}},
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "preflight TrainingPlan",
        "description": "Facts about one PyTorch training job, each with its source. "
                       "Generated from preflight/plan.py; do not edit by hand.",
        "type": "object",
        "required": ["version", "fields"],
        "additionalProperties": False,
        "properties": {
            "version": {"const": PLAN_VERSION},
            "fields": {"type": "object", "additionalProperties": False, "properties": field_props},
            "inputs": {"type": "array", "items": {"$ref": "#/$defs/input"}},
            "notes": {"type": "array", "items": {"type": "string"}},
        },
        "$defs": {
            "source": {
                "type": "object",
                "required": ["kind"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"enum": list(SOURCE_KINDS)},
                    "path": nullable_str,
                    "line": {"type": ["integer", "null"], "minimum": 1},
                    "key": nullable_str,
                    "detail": nullable_str,
                },
            },
            "fact": {
                "type": "object",
                "required": ["value", "source"],
                "additionalProperties": False,
                "properties": {
                    "value": True,
                    "source": {"$ref": "#/$defs/source"},
                    "confidence": {"enum": list(CONFIDENCES)},
                    "adapter": {"type": "string"},
                    "priority": {"type": "integer"},
                },
            },
            "input": {
                "type": "object",
                "required": ["path", "kind"],
                "additionalProperties": False,
                "properties": {"path": {"type": "string"}, "kind": {"type": "string"},
                               "digest": nullable_str},
            },
        },
    }


def schema_text() -> str:
    """The schema exactly as committed (stable key order, trailing newline)."""
    return json.dumps(plan_json_schema(), indent=2, ensure_ascii=False) + "\n"


def validate_plan_data(data: Any) -> Optional[tuple[str, tuple[Union[str, int], ...]]]:
    """The first schema violation as (message, path), or None when ``data`` is valid."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    validator = Draft202012Validator(plan_json_schema())
    error = best_match(validator.iter_errors(data))
    if error is None:
        return None
    path = tuple(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        extra = sorted((k for k in error.instance if k not in known), key=str)
        if extra:
            path = (*path, extra[0])
            what = "plan field" if path[:1] == ("fields",) and len(path) == 2 else "key"
            message = f"unknown {what} {extra[0]!r}"
            import difflib

            close = difflib.get_close_matches(str(extra[0]), [str(k) for k in known], n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
    return f"{_json_path(path)}: {message}", path


def _json_path(path: Sequence[Union[str, int]]) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def load_plan(path: Path, display: Optional[str] = None) -> Union[TrainingPlan, FileError]:
    """Read a plan written by ``--emit-plan`` (or by hand): JSON, or YAML by suffix."""
    from preflight.loaders import load_config
    from preflight.sources import read_source

    display = display or str(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        return FileError(display, "a plan file must end in .json, .yaml or .yml")
    kind = "json" if suffix == ".json" else "yaml"
    source = read_source(path, display, kind)
    if isinstance(source, FileError):
        return source
    loaded = load_config(source)
    if isinstance(loaded, FileError):
        return loaded
    data = loaded.data
    if not isinstance(data, dict):
        return FileError(display, "not a preflight plan: expected a mapping with 'version' and 'fields'",
                         line=1)
    try:
        check_version(data)
    except ValueError as exc:
        return FileError(display, f"invalid plan: {exc}", line=loaded.line_of(("version",)) or 1)
    problem = validate_plan_data(data)
    if problem is not None:
        message, where = problem
        return FileError(display, f"invalid plan: {message}", line=loaded.line_of(where, nearest=True))
    try:
        return TrainingPlan.from_dict(data)
    except ValueError as exc:
        return FileError(display, f"invalid plan: {exc}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--write-schema"]:
        SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
        return 0
    if args == ["--check-schema"]:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != schema_text():
            print(f"{SCHEMA_PATH} is out of date; run: python -m preflight.plan --write-schema")
            return 1
        return 0
    print("usage: python -m preflight.plan --write-schema | --check-schema", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
