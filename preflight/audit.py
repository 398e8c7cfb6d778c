"""Building the TrainingPlan of one job: read every input once, run every adapter, format.

``build_plan`` is what ``preflight audit`` calls; it never raises on bad input: each
unreadable or unparsable file becomes a :class:`~preflight.diagnostics.FileError` in
``project.errors`` and the rest of the audit goes on.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.adapters_api import Project
from preflight.diagnostics import FileError
from preflight.loaders import load_config
from preflight.plan import Fact, Source, TrainingPlan
from preflight.sources import kind_of, parse_python, read_source
from preflight.workspace import display_path

SCRIPT_KINDS = ("python", "notebook")
CONFIG_KINDS = ("json", "yaml", "toml")


def build_plan(
    scripts: Sequence[Path],
    configs: Sequence[Path],
    *,
    root: Path,
    argv: Sequence[str] = (),
    strict: bool = False,
    transformers_version: Optional[str] = None,
    read_roots: Optional[Sequence[Path]] = None,
) -> tuple[TrainingPlan, Project]:
    """Read and parse each script and config once, run every detecting adapter (in name
    order) and return the plan and the project (whose ``errors`` hold per-file problems).

    ``argv`` is the launch command's arguments (the script's own, or a whole
    ``torchrun ... train.py --lr 1`` line). ``strict`` re-raises adapter exceptions
    (for tests); otherwise an adapter bug becomes an error entry, never a traceback.
    ``transformers_version`` is the version the user stated (``--transformers-version``,
    ``[tool.preflight] transformers-version``), used where the project declares none.
    ``read_roots`` confines what the inputs name (a Hydra ``config_path``) to these
    directories (the scheduler gate's job directories); None reads anywhere.
    """
    project = Project(root=root, argv=[str(a) for a in argv], transformers_version=transformers_version,
                      read_roots=None if read_roots is None else [Path(r) for r in read_roots])
    plan = TrainingPlan()
    seen: set[str] = set()
    for path in scripts:
        path = Path(path)
        source = _read(path, root, SCRIPT_KINDS, "a Python script or notebook (.py, .ipynb)", project, seen)
        if source is None:
            continue
        parsed = parse_python(source)
        if isinstance(parsed, FileError):
            project.errors.append(parsed)
            continue
        project.errors.extend(parsed.cell_errors)  # notebook cells that could not be parsed
        project.scripts.append(parsed)
        plan.add_input(source.display, source.kind, source.digest)
    for path in configs:
        path = Path(path)
        if path.is_dir():  # a Hydra config directory (--config conf/), read by the Hydra adapter
            project.config_dirs.append(path)
            continue
        source = _read(path, root, CONFIG_KINDS, "a config file (.json, .yaml, .yml, .toml)", project, seen)
        if source is None:
            continue
        loaded = load_config(source)
        if isinstance(loaded, FileError):
            project.errors.append(loaded)
            continue
        project.configs.append((source, loaded))
        plan.add_input(source.display, source.kind, source.digest)
        for note in loaded.notes:
            plan.note(note)
    if project.argv:
        plan.add_input(shlex.join(project.argv), "argv")
    _run_adapters(project, plan, strict)
    project.errors.sort(key=lambda e: e.sort_key())
    return plan, project


def _read(path: Path, root: Path, kinds: Sequence[str], expected: str, project: Project,
          seen: set[str]) -> Any:
    display = display_path(path, root)
    key = os.path.abspath(path)
    if key in seen:
        return None
    seen.add(key)
    if not path.exists() and not path.is_symlink():
        project.errors.append(FileError(display, "no such file"))
        return None
    kind = kind_of(path)
    if kind not in kinds:
        project.errors.append(FileError(display, f"not {expected}"))
        return None
    source = read_source(path, display, kind)
    if isinstance(source, FileError):
        project.errors.append(source)
        return None
    return source


def _run_adapters(project: Project, plan: TrainingPlan, strict: bool) -> None:
    from preflight.registry import all_adapters

    frameworks: set[str] = set()
    detected: list[str] = []
    for name, cls in sorted(all_adapters().items()):
        adapter = cls()
        try:
            if not adapter.detect(project):
                continue
            adapter.contribute(project, plan)
        except Exception as exc:
            if strict:
                raise
            from preflight.engine import whom_to_tell

            project.errors.append(FileError(f"<adapter {name}>",
                                            f"internal error ({type(exc).__name__}: {exc}); "
                                            f"the plan may be incomplete; {whom_to_tell(cls.__module__)}"))
            continue
        detected.append(name)
        frameworks.update(cls.frameworks)
    if frameworks:
        plan.add("framework.names", sorted(frameworks),
                 Source("derived", detail="detected by adapters: " + ", ".join(detected)), adapter="audit")


# --------------------------------------------------------------------------- text


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def format_source(source: Source) -> str:
    """``train.py:12``, ``ds.json:7 [zero_optimization.stage]``, ``cli --batch_size``, ..."""
    where = source.location() if source.path is not None else ""
    if source.key:
        where = f"{where} [{source.key}]" if where else source.key
    if source.kind in ("code", "config"):
        return where or source.kind
    return f"{source.kind} {where}".strip()


def format_plan_text(plan: TrainingPlan) -> str:
    """The plan as a table: field, value, source, confidence, adapter, detail; the fact
    that wins first, then the others (``!`` a conflicting value, ``=`` the same value)."""
    conflicts = plan.conflicts()
    rows: list[tuple[str, str, str, str, str, str]] = []
    for field in plan.fields():
        winner = plan.resolve(field)
        assert winner is not None
        rows.append(_row(field, winner))
        for fact in plan.facts(field):
            if fact is winner:
                continue
            if fact.value == winner.value:
                mark = "  = same"
            elif field in conflicts and fact in conflicts[field]:
                mark = "  ! conflict"
            else:
                mark = "  - overridden"
            rows.append(_row(mark, fact))
    header = ("FIELD", "VALUE", "SOURCE", "CONFIDENCE", "ADAPTER", "DETAIL")
    lines = [f"Training plan: {len(plan.fields())} fields, {len(conflicts)} with conflicting values"]
    if plan.inputs:
        lines.append("Inputs: " + ", ".join(i.path for i in plan.inputs))
    if rows:
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
        lines.append("")
        for row in [header, *rows]:
            cells = [row[i].ljust(widths[i]) for i in range(5)]
            lines.append("  ".join([*cells, row[5]]).rstrip())
    else:
        lines.append("")
        lines.append("(no facts: no adapter recognised the inputs)")
    if conflicts:
        lines.append("")
        lines.append("Conflicts (the first row of each field is the value used):")
        for field, facts in conflicts.items():
            values = " vs ".join(f"{format_value(f.value)} ({format_source(f.source)})" for f in facts)
            lines.append(f"  {field}: {values}")
    if plan.notes:
        lines.append("")
        lines.append("Notes:")
        lines.extend(f"  - {note}" for note in plan.notes)
    return "\n".join(lines) + "\n"


def _row(label: str, fact: Fact) -> tuple[str, str, str, str, str, str]:
    return (label, format_value(fact.value), format_source(fact.source), fact.confidence, fact.adapter,
            fact.source.detail or "")


def attach_plan(fmt: str, report: str, plan: TrainingPlan, *, color: bool = False,
                quiet: bool = False) -> str:
    """Add the plan to an audit report: a table after the text report, a ``plan`` key in
    JSON, run properties in SARIF; GitHub annotations carry findings only."""
    if fmt == "text":
        if quiet:
            return report
        sep = "\n" if report and not report.endswith("\n\n") else ""
        return report + sep + format_plan_text(plan)
    if fmt == "json":
        import json

        doc = json.loads(report)
        doc["plan"] = plan.to_dict()
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "sarif":
        import json

        doc = json.loads(report)
        for run in doc.get("runs", []):
            run.setdefault("properties", {})["trainingPlan"] = plan.to_dict()
        return json.dumps(doc, indent=2) + "\n"
    return report
