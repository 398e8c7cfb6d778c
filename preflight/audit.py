"""Building the TrainingPlan of one job: read every input once, run every adapter, format.

``build_plan`` is what ``preflight audit`` calls; it never raises on bad input: each
unreadable or unparsable file becomes a :class:`~preflight.diagnostics.FileError` in
``project.errors`` and the rest of the audit goes on.
"""

from __future__ import annotations

import ast
import os
import shlex
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from preflight.adapters_api import Project
from preflight.diagnostics import FileError
from preflight.loaders import load_config
from preflight.plan import Fact, Source, TrainingPlan, agree
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
    launch_at: Optional[tuple[str, int]] = None,
    launch_loop: Optional[Any] = None,
    unfound_launch: Optional[tuple[str, int, list[str]]] = None,
) -> tuple[TrainingPlan, Project]:
    """Read and parse each script and config once, run every detecting adapter (in name
    order) and return the plan and the project (whose ``errors`` hold per-file problems).

    ``argv`` is the launch command's arguments (the script's own, or a whole
    ``torchrun ... train.py --lr 1`` line). ``strict`` re-raises adapter exceptions
    (for tests); otherwise an adapter bug becomes an error entry, never a traceback.
    ``transformers_version`` is the version the user stated (``--transformers-version``,
    ``[tool.preflight] transformers-version``), used where the project declares none.
    ``read_roots`` confines what the inputs name (a Hydra ``config_path``) to these
    directories (the scheduler gate's job directories); None reads anywhere. ``launch_at`` is the
    launch script line ``argv`` was read from (display path, line), for the adapters that read it;
    ``launch_loop`` the shell loop around that line (:class:`preflight.adapters.shell_loops.ShellLoop`);
    ``unfound_launch`` (display path, line, tokens) of a launch line whose script is not in the job.
    """
    from preflight.adapters.ckpt_param_guard import forget

    forget()  # the project walks remembered for the previous plan: files may have changed since
    project = Project(root=root, argv=[str(a) for a in argv], transformers_version=transformers_version,
                      read_roots=None if read_roots is None else [Path(r) for r in read_roots],
                      launch_at=launch_at, launch_loop=launch_loop, unfound_launch=unfound_launch)
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
        _add_delegate(parsed, path, root, project, plan, seen)
    expanded: list[Path] = []
    for path in configs:
        path = Path(path)
        plain = _plain_config_dir(path, project) if os.path.isdir(path) else None
        expanded.extend(plain if plain is not None else [path])
    for path in expanded:
        if os.path.isdir(path):  # a Hydra config directory (--config conf/), read by the Hydra adapter
            project.config_dirs.append(path)
            continue
        source = _read(path, root, CONFIG_KINDS, "a config file (.json, .yaml, .yml, .toml)", project, seen)
        if source is None:
            continue
        loaded = load_config(source)
        if isinstance(loaded, FileError):
            project.errors.append(loaded)
            continue
        for base_source, base in _bases(path, loaded, root, project, seen, plan):
            project.configs.append((base_source, base))
            plan.add_input(base_source.display, base_source.kind, base_source.digest)
        project.configs.append((source, loaded))
        plan.add_input(source.display, source.kind, source.digest)
        for note in loaded.notes:
            plan.note(note)
    if project.argv:
        plan.add_input(shlex.join(project.argv), "argv")
    for entry in list(project.own_scripts()):
        _add_named_module(entry, root, project, plan, seen)
    _run_adapters(project, plan, strict)
    project.errors.sort(key=lambda e: e.sort_key())
    return plan, project


_PLAIN_DIR_FILES = 64


def _plain_config_dir(path: Path, project: Project) -> Optional[list[Path]]:
    """The config files of a ``--config DIR`` that is no Hydra config directory, to read one by
    one (ALBEF's ``configs/``, read by the script with ``yaml.load``): an audited script names one
    of its files, none names Hydra, the folder has no ``config.yaml`` and none of its files has a
    top-level ``defaults:`` list. None when it may be Hydra's (or holds too many files to say)."""
    import re

    from preflight.sources import InputRefused, read_text_limited

    texts = [script.text if script.text is not None else script.source.text for script in project.scripts]
    if not texts or any(text and "hydra" in text for text in texts):
        return None
    files: list[Path] = []
    for folder, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if os.path.splitext(name)[1] not in (".yaml", ".yml", ".json"):
                continue
            if name in ("config.yaml", "config.yml"):
                return None
            files.append(Path(folder) / name)
            if len(files) > _PLAIN_DIR_FILES:
                return None
    if not any(text and file.name in text for text in texts for file in files):
        return None  # no audited script names a file of the folder
    defaults = re.compile(r"^defaults\s*:", re.M)
    for file in files:
        if os.path.islink(file):
            return None  # read where it points only through the usual checks: leave the folder to Hydra
        try:
            head = read_text_limited(str(file), None, errors="replace")
        except (OSError, ValueError, InputRefused):
            return None
        if defaults.search(head):
            return None
    return files or None


def _add_delegate(entry: Any, path: Path, root: Path, project: Project, plan: TrainingPlan, seen: set[str]) -> None:
    """A thin entry script's work is in a project module: audit that module too, with the
    entry's launch arguments (:mod:`preflight.delegate`)."""
    from preflight.delegate import delegate_of, submitted_callee

    if entry.source.kind != "python" or not os.path.isfile(path):
        return
    found = delegate_of(entry.tree, path)
    submitted = found is None and isinstance(entry.tree, ast.Module)
    if submitted:
        found = submitted_callee(entry.tree, path)
    if found is None:
        _add_splat_callee(entry, path, root, project, plan, seen)
        return
    parsed = _audit_module(found, _relative(found, root), project, plan, seen, claim=True)
    if parsed is None:
        return
    project.delegates[id(parsed)] = entry
    source = parsed.source
    if submitted:
        plan.note(f"{entry.source.display}: submits a job that runs {source.display}'s code, which is audited with "
                  "its launch arguments")
    else:
        plan.note(f"{entry.source.display}: only calls {source.display}'s code, which is audited with its launch "
                  "arguments")


def _bases(path: Path, loaded: Any, root: Path, project: Project, seen: set[str],
           plan: TrainingPlan) -> list[tuple[Any, Any]]:
    """The ``_base_`` files a YAML config inherits, where the job's code honours the key
    (:mod:`preflight.config_bases`)."""
    from preflight.config_bases import base_key, base_names, code_honours_base, inherited

    if not base_names(loaded) or not code_honours_base(project.scripts, base_key(loaded) or "_base_"):
        return []

    def read(cand: Path) -> Optional[tuple[Any, Any]]:
        if not project.may_read(cand):
            return None
        source = _read(cand, root, ("yaml",), "a YAML file", project, seen)
        if source is None:
            return None
        got = load_config(source)
        if isinstance(got, FileError):
            project.errors.append(got)
            return None
        return source, got

    notes: list[str] = []
    out = inherited(path, loaded, read, notes)
    for note in notes:
        plan.note(note)
    return out


def _add_named_module(entry: Any, root: Path, project: Project, plan: TrainingPlan, seen: set[str]) -> None:
    """The entry loads its training module by a name its config gives (``import_module(f"app.{app}.train")``):
    audit that module too, as the entry's delegate (:mod:`preflight.adapters.named_module`)."""
    from preflight.adapters.named_module import named_module

    if entry.source.kind != "python" or id(entry) in project.delegates:
        return
    found = named_module(project, entry)
    if found is None:
        return
    parsed = _audit_module(found.path, display_path(found.path, root), project, plan, seen)
    if parsed is None:
        return
    project.delegates[id(parsed)] = entry
    plan.note(f"{found.call}: import_module builds {found.module} from `{found.key}` of {found.config}: "
              f"{parsed.source.display} is audited with {entry.source.display}'s launch arguments")


def _relative(path: Path, root: Path) -> str:
    """``path`` as seen from the job's root, ``..`` parts kept (``../../src/pkg/train.py``: where it is from
    the job)."""
    try:
        shown = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        shown = str(path)
    return shown.replace(os.sep, "/")


def _audit_module(path: Path, shown: str, project: Project, plan: TrainingPlan, seen: set[str],
                  accept: Optional[Callable[[Any], bool]] = None, claim: bool = False) -> Any:
    """Audit too the project module at ``path`` (shown as ``shown``) that an audited script hands its work
    to: the module read, parsed and added to the job's scripts and inputs, or None where the job may not
    read it, an input read it already, it does not read or parse, or ``accept`` refuses the parsed module.
    With ``claim`` the path counts as read before it is read (a later input naming it is skipped even
    where this read fails), else only once the module is added."""
    key = os.path.abspath(path)
    if not project.may_read(path) or key in seen:
        return None
    if claim:
        seen.add(key)
    source = read_source(path, shown, "python")
    if isinstance(source, FileError):
        return None
    parsed = parse_python(source)
    if isinstance(parsed, FileError) or (accept is not None and not accept(parsed)):
        return None
    seen.add(key)
    project.scripts.append(parsed)
    plan.add_input(source.display, source.kind, source.digest)
    return parsed


def _add_splat_callee(entry: Any, path: Path, root: Path, project: Project, plan: TrainingPlan,
                      seen: set[str]) -> None:
    """The entry hands a mapping whole to a project function (``training_loop(**c)``, the StyleGAN
    idiom): audit that function's module too, its parameters bound to the mapping's keys
    (:mod:`preflight.adapters.splat_call`)."""
    from preflight.adapters.splat_call import defines, splat_callee

    splat = splat_callee(entry.tree, path)
    if splat is None:
        return
    parsed = _audit_module(splat.path, _relative(splat.path, root), project, plan, seen,
                           accept=lambda module: defines(module.tree, splat))
    if parsed is None:
        return
    project.splats[id(parsed)] = (entry, splat)
    plan.note(f"{entry.source.display}:{splat.call.lineno}: {splat.function}(**...) of {parsed.source.display} is "
              f"handed {splat.mapping.origin}: that module is audited too, its parameters taken from the keys")


def _read(path: Path, root: Path, kinds: Sequence[str], expected: str, project: Project,
          seen: set[str]) -> Any:
    display = display_path(path, root)
    key = os.path.abspath(path)
    if key in seen:
        return None
    seen.add(key)
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        project.errors.append(FileError(display, "no such file"))
        return None
    except OSError:
        pass  # e.g. inside a directory preflight may not enter: reading it says so
    kind = kind_of(path)
    if kind is None and "json" in kinds:
        from preflight.config_sniff import sniffed_kind

        kind = sniffed_kind(path)  # ds_configs/stage2.config: a config named by its use is read by content
    if kind is None or kind not in kinds:
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
        if cls.frameworks:  # the detail of framework.names: the adapters that name a framework
            detected.append(name)
        frameworks.update(cls.frameworks)
    from preflight.adapters.derive import derive

    try:
        derive(plan, project)
    except Exception as exc:  # the derived facts are lost, the adapters' facts stay
        if strict:
            raise
        from preflight.engine import whom_to_tell

        project.errors.append(FileError("<derive>", f"internal error ({type(exc).__name__}: {exc}); the plan may be "
                                        f"incomplete; {whom_to_tell(derive.__module__)}"))
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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def format_plan_text(plan: TrainingPlan, width: Optional[int] = None) -> str:
    """The plan as a table: field, value, source, confidence, adapter, detail; the fact
    that wins first, then the others (``!`` a conflicting value, ``=`` the same value).

    With ``width`` (the terminal's columns), a table wider than that is printed as one
    block per fact instead, its detail wrapped to the width."""
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
            elif agree(field, fact.value, winner.value):
                mark = "  = same format"
            elif field in conflicts and fact in conflicts[field]:
                mark = "  ! conflict"
            else:
                mark = "  - overridden"
            rows.append(_row(mark, fact))
    header = ("FIELD", "VALUE", "SOURCE", "CONFIDENCE", "ADAPTER", "DETAIL")
    lines = [f"Training plan: {_plural(len(plan.fields()), 'field')}, {len(conflicts)} with "
             f"conflicting values"]
    if plan.inputs:
        lines.append("Inputs: " + ", ".join(i.path for i in plan.inputs))
    if rows:
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
        total = sum(widths) + 2 * 5 + max(len(r[5]) for r in [header, *rows])
        lines.append("")
        if width is not None and total > width:
            lines.extend(_vertical(rows, width))
        else:
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
        if width is None:
            lines.extend(f"  - {note}" for note in plan.notes)
        else:
            import textwrap

            for note in plan.notes:
                lines.extend(textwrap.wrap(note, max(width - 4, 20), initial_indent="  - ",
                                           subsequent_indent="    "))
    return "\n".join(lines) + "\n"


def _vertical(rows: list[tuple[str, str, str, str, str, str]], width: int) -> list[str]:
    """One block per fact, for a terminal narrower than the table: ``field = value``, then
    where it came from, then the detail, wrapped to ``width``."""
    import textwrap

    out: list[str] = []
    wrap = max(width - 4, 20)
    for label, value, source, confidence, adapter, detail in rows:
        head = f"{label} = {value}" if not label.startswith(" ") else f"  {label.strip()}: {value}"
        out.append(head)
        out.extend(textwrap.wrap(f"from {source} ({confidence}, {adapter})", wrap,
                                 initial_indent="    ", subsequent_indent="      "))
        if detail:
            out.extend(textwrap.wrap(detail, wrap, initial_indent="    ", subsequent_indent="    "))
    return out


def _row(label: str, fact: Fact) -> tuple[str, str, str, str, str, str]:
    return (label, format_value(fact.value), format_source(fact.source), fact.confidence, fact.adapter,
            fact.source.detail or "")


def add_plan(fmt: str, doc: dict, plan: TrainingPlan) -> None:
    """Put the plan into a JSON report (a ``plan`` key) or a SARIF log (run properties)."""
    if fmt == "json":
        doc["plan"] = plan.to_dict()
    elif fmt == "sarif":
        for run in doc.get("runs", []):
            run.setdefault("properties", {})["trainingPlan"] = plan.to_dict()


def attach_plan(fmt: str, report: str, plan: TrainingPlan, *, color: bool = False,
                quiet: bool = False, width: Optional[int] = None) -> str:
    """Add the plan to an audit report: a table after the text report, a ``plan`` key in
    JSON, run properties in SARIF; GitHub annotations carry findings only."""
    if fmt == "text":
        if quiet:
            return report
        sep = "\n" if report and not report.endswith("\n\n") else ""
        return report + sep + format_plan_text(plan, width)
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
