"""The ``check`` and ``audit`` pipelines: settings, discovery, rules, fixes, report."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from preflight.cli import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT, UsageError
from preflight.config import Settings, SettingsError, load_settings, resolve_codes
from preflight.diagnostics import FileError, Finding, Severity
from preflight.engine import RunResult, Selection, check_files, default_jobs
from preflight.workspace import Discovered, Discovery, discover

if TYPE_CHECKING:
    import argparse

    from preflight.adapters_api import Project
    from preflight.plan import TrainingPlan


def _split(value: Optional[str]) -> list[str]:
    if not value:
        return []
    return [v.strip() for v in value.split(",") if v.strip()]


def _selectors(value: Optional[str]) -> list[str]:
    """``--select``/``--ignore`` items as codes: ``PF101``, ``pf1``, ``ALL``, or a rule's name
    as ``preflight explain`` takes it (``retained-graph``). Names load the rules' metadata;
    codes do not. An unknown name is left as written, for the usual error."""
    import re

    out = []
    names: Optional[dict[str, str]] = None
    for item in _split(value):
        if re.fullmatch(r"[A-Za-z]{1,4}[0-9]*", item) and (item.isupper() or item[-1].isdigit()
                                                           or item.lower() in ("pf", "all")):
            out.append(item.upper())
            continue
        if names is None:
            from preflight.registry import all_rules

            names = {cls.name: code for code, cls in all_rules().items()}
        out.append(names.get(item.strip().lower(), item))
    return out


def _settings(args: argparse.Namespace) -> Settings:
    try:
        settings = load_settings(args.settings)
    except SettingsError as exc:
        raise UsageError(exc.render()) from None
    if args.fail_on:
        settings.fail_on = Severity.parse(args.fail_on)
    settings.exclude = settings.exclude + _split(args.exclude)
    return settings


def _gate_rule_selected(select: list[str], origin: str, settings: Settings, cli_ignore: list[str],
                        available: list[str], where: str) -> Optional[SettingsError]:
    """The error to show when a selector that matched nothing names a scheduler-gate rule
    (PF70x: ``preflight rules`` lists them, ``check``/``audit`` do not run them), else None."""
    from preflight.gate.rules import job_rules

    gate = {code: "`preflight gate` (the scheduler gate)" for code in job_rules()}
    try:
        resolve_codes([], settings.ignore, available, ignore_origin=f"ignore{where}", elsewhere=gate)
        resolve_codes(select, settings.ignore + cli_ignore, available, origin=origin,
                      ignore_origin="--ignore", elsewhere=gate)
    except SettingsError as exc:
        return exc if "which this command does not run" in exc.message else None
    return None


def _selection(settings: Settings, args: argparse.Namespace) -> Selection:
    from preflight.registry import plugin_errors, plugin_fingerprint, rule_codes

    available = rule_codes()
    for err in plugin_errors():
        sys.stderr.write(f"preflight: warning: {err}\n")
    where = f" (in {settings.source})" if settings.source else ""
    try:
        if args.select:
            select, origin = _selectors(args.select), "--select"
        else:
            select, origin = settings.select, f"select{where}"
        select = select + settings.extend_select + _selectors(args.extend_select)
        cli_ignore = _selectors(args.ignore)
        resolve_codes([], settings.ignore, available, ignore_origin=f"ignore{where}")
        codes = resolve_codes(select, settings.ignore + cli_ignore, available, origin=origin,
                              ignore_origin="--ignore")
        for pattern, prefixes in settings.per_file_ignores.items():
            resolve_codes(prefixes, [], available, origin=f"per-file-ignores '{pattern}'{where}")
        for code in settings.severity:
            resolve_codes([code], [], available, origin=f"severity{where}")
    except SettingsError as exc:
        if "unknown rule code or prefix" in exc.message:
            exc = _gate_rule_selected(select, origin, settings, cli_ignore, available, where) or exc
        raise UsageError(exc.message) from None
    return Selection(
        codes=tuple(codes),
        severity_overrides=tuple(sorted((c, s.label) for c, s in settings.severity.items())),
        per_file_ignores=tuple(sorted((p, tuple(c)) for p, c in settings.per_file_ignores.items())),
        plugins=plugin_fingerprint(),
    )


def _color(args: argparse.Namespace, stream) -> bool:
    from preflight.report.color import use_color

    choice = "never" if args.no_color else getattr(args, "color", None)
    return use_color(choice, stream, to_file=args.output is not None)


def terminal_width(args: argparse.Namespace) -> Optional[int]:
    """Columns the text output should fit: ``COLUMNS`` when set, else the terminal's width
    when writing to one; None (no limit) for a file or a pipe."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if getattr(args, "output", None) is None and sys.stdout.isatty():
        try:
            return os.get_terminal_size(sys.stdout.fileno()).columns
        except (OSError, ValueError):
            return None
    return None


def _progress(args: argparse.Namespace, total: int):
    if args.quiet or total < 200 or not sys.stderr.isatty():
        return None
    step = max(total // 100, 1)

    def show(done: int, total: int) -> None:
        if done % step == 0 or done == total:
            sys.stderr.write(f"\rpreflight: checked {done}/{total} files")
            if done == total:
                sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    return show


def _cache_dir(settings: Settings, args: argparse.Namespace) -> Optional[str]:
    if args.no_cache or os.environ.get("PREFLIGHT_NO_CACHE"):
        return None
    from preflight import cache

    return cache.default_dir(settings.root)


def _jobs(args: argparse.Namespace) -> int:
    if args.jobs is not None:
        if args.jobs < 1:
            raise UsageError("-j/--jobs must be at least 1")
        return args.jobs
    return default_jobs()


def _check(files: Sequence[Discovered], selection: Selection, settings: Settings,
           args: argparse.Namespace, use_cache: bool = True) -> RunResult:
    return check_files(
        files, selection, jobs=_jobs(args),
        cache_dir=_cache_dir(settings, args) if use_cache else None,
        progress=_progress(args, len(files)),
    )


_CHANGED = "not fixed: the file changed while preflight ran (another process or an editor); run again"


def _apply_fixes(run: RunResult, files: Sequence[Discovered], selection: Selection,
                 settings: Settings, args: argparse.Namespace) -> tuple[RunResult, str]:
    """Apply (or, with --diff, show) the fixes; returns the updated run and a diff."""
    import difflib

    from preflight import fix as fixer
    from preflight.sources import read_source

    by_path: dict[str, list[Finding]] = {}
    for f in run.findings:
        if f.fix is not None and (args.unsafe_fixes or f.fix.applicability.value == "safe"):
            by_path.setdefault(f.path, []).append(f)
    item_of = {d.display: d for d in files}
    diffs: list[str] = []
    changed: list[Discovered] = []
    applied = 0
    for display in sorted(by_path):
        item = item_of.get(display)
        if item is None or item.kind != "python":
            continue
        source = read_source(item.path, item.display, item.kind)
        if isinstance(source, FileError):
            run.errors.append(source)
            continue
        if run.digests.get(display, source.digest) != source.digest:
            run.errors.append(FileError(display, _CHANGED))
            continue
        outcome = fixer.apply_fixes(source, [f.fix for f in by_path[display] if f.fix],
                                    unsafe=args.unsafe_fixes)
        for fx, reason in outcome.skipped:
            sys.stderr.write(f"preflight: {display}:{fx.target.line}: fix not applied: {reason}\n")
        if not outcome.applied or outcome.text == source.text:
            continue
        if args.diff:
            applied += len(outcome.applied)
            diffs.extend(difflib.unified_diff(
                source.text.splitlines(keepends=True), outcome.text.splitlines(keepends=True),
                fromfile=f"a/{display}", tofile=f"b/{display}"))
        else:
            try:
                fixer.write_atomic(item.path, source, outcome.text)
            except fixer.FileChangedError:
                run.errors.append(FileError(display, _CHANGED))
                continue
            except OSError as exc:
                run.errors.append(FileError(display, f"cannot write fix: {exc.strerror or exc}"))
                continue
            applied += len(outcome.applied)  # only what reached the disk counts as applied
            changed.append(item)
    if args.diff:
        run.fixes_applied = 0
        return run, "".join(diffs) + (f"Would fix {applied} finding(s).\n" if applied else "")
    if changed:
        again = check_files(changed, selection, jobs=1, cache_dir=None)
        keep = {d.display for d in changed}
        run.findings = [f for f in run.findings if f.path not in keep] + again.findings
        run.errors = [e for e in run.errors if e.path not in keep] + again.errors
        run.sort()
    run.fixes_applied = applied
    return run, ""


def _baseline(run: RunResult, args: argparse.Namespace) -> None:
    if args.write_baseline is None and args.baseline is None:
        return
    from preflight import baseline

    if args.write_baseline is not None:
        n = baseline.write(args.write_baseline, run.findings)
        if not args.quiet:
            sys.stderr.write(f"preflight: wrote {n} finding(s) to baseline {args.write_baseline}\n")
    if args.baseline is not None:
        try:
            known = baseline.load(args.baseline)
        except baseline.BaselineError as exc:
            raise UsageError(str(exc)) from None
        run.findings, run.suppressed_by_baseline = baseline.filter_new(run.findings, known)


def _emit(text: str, args: argparse.Namespace) -> None:
    if args.output is not None:
        try:
            # a file name that is not UTF-8 is written back as its own bytes
            args.output.write_text(text, encoding="utf-8", errors="surrogateescape")
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:  # e.g. the disk holding a redirected stdout is full
            from preflight.cli import _silence_broken_pipe

            _silence_broken_pipe()  # what is still buffered must not fail again at exit
            raise UsageError(f"cannot write the report: {exc.strerror or exc}") from None


def _exit_code(run: RunResult, settings: Settings, args: argparse.Namespace, diff: str) -> int:
    if args.exit_zero:
        return EXIT_CLEAN
    if args.diff and diff:
        return EXIT_FINDINGS
    if any(f.severity >= settings.fail_on for f in run.findings):
        return EXIT_FINDINGS
    if run.errors:
        return EXIT_INPUT
    return EXIT_CLEAN


def _report(run: RunResult, settings: Settings, args: argparse.Namespace, extra=None) -> str:
    from preflight.report import render

    fmt = args.format or os.environ.get("PREFLIGHT_OUTPUT_FORMAT") or "text"
    if fmt not in ("text", "json", "sarif", "github"):
        raise UsageError(f"unknown output format {fmt!r} (PREFLIGHT_OUTPUT_FORMAT)")
    if extra is not None and fmt in ("json", "sarif") and hasattr(extra, "document"):
        import json

        from preflight.report import json_safe, render_document

        doc = render_document(run, fmt, root=Path.cwd())
        extra.document(fmt, doc)
        return json.dumps(json_safe(doc), indent=2) + "\n"
    text = render(run, fmt, root=Path.cwd(), color=_color(args, sys.stdout),
                  statistics=args.statistics, show_summary=not args.quiet)
    if extra is not None:
        text = extra(fmt, text)
    return text


def run_check(args: argparse.Namespace) -> int:
    settings = _settings(args)
    selection = _selection(settings, args)
    paths = args.paths or [Path(".")]
    job_errors: list[FileError] = []
    if any(os.path.isfile(p) and _is_launch_script(p) for p in paths):
        from preflight.jobs import resolve_job

        resolved: list[Path] = []
        for p in paths:
            if os.path.isfile(p) and _is_launch_script(p):
                job = resolve_job([p], [], [], Path.cwd())
                resolved.extend(job.scripts)
                job_errors.extend(job.errors)
            else:
                resolved.append(p)
        if not resolved:  # a launch script that names no Python script: nothing to walk
            return _finish([], job_errors, selection, settings, args)
        paths = resolved
    # one walk: the Python files, and the config files of the tree (each recognised one gets
    # the per-file config rules)
    walked = discover(paths, Path.cwd(), settings.exclude,
                      kinds=frozenset({"python", "notebook", "json", "yaml"}))
    found = Discovery(walked.of_kind("python", "notebook"), walked.errors)
    configs = Discovery(walked.of_kind("json", "yaml"), [])
    line = ""
    config_findings: list[Finding] = []
    config_errors: list[FileError] = []
    config_counts: Optional[dict] = None
    if configs.files:  # imported only when there are configs (a Python-only check starts faster)
        from preflight.config_check import check_configs

        checked = check_configs(configs.files, selection, Path.cwd(), cache_dir=_cache_dir(settings, args))
        line, config_findings, config_errors = checked.summary(), checked.findings, checked.errors
        config_counts = checked.counts()

    def extra(fmt: str, text: str) -> str:
        if fmt != "text" or not line or args.quiet:
            return text
        return text.rstrip("\n") + "\n" + line + "\n"

    def document(fmt: str, doc: dict) -> None:
        """JSON: a ``configs`` key with the counts of the text's ``Configs:`` line; SARIF: the
        run property ``configs``. Absent when the tree has no JSON/YAML file (as the line is)."""
        if config_counts is None:
            return
        if fmt == "json":
            doc["configs"] = config_counts
        elif fmt == "sarif":
            for run in doc.get("runs", []):
                run.setdefault("properties", {})["configs"] = config_counts

    extra.document = document  # type: ignore[attr-defined]

    if not found.files and not found.errors and not configs.files and not job_errors and not args.quiet:
        named = ", ".join(str(p) for p in paths)
        sys.stderr.write(f"preflight: warning: no Python files found under {named} "
                         "(nothing was checked)\n")
    return _finish(found.files, found.errors + config_errors + job_errors, selection, settings,
                   args, extra, config_findings, configs_seen=bool(configs.files))


def _is_launch_script(path: Path) -> bool:
    if str(path).lower().endswith((".py", ".ipynb")):
        return False  # the common case, without importing the job resolver
    from preflight.jobs import is_shell_script

    return is_shell_script(path)


def _finish(files: Sequence[Discovered], errors: list[FileError], selection: Selection,
            settings: Settings, args: argparse.Namespace, extra=None,
            plan_findings: Sequence[Finding] = (), configs_seen: bool = False, one_process: bool = False) -> int:
    run = _check(files, selection, settings, args)
    if one_process:
        from preflight.registry import file_rules

        multi = {r.code for r in file_rules(sorted({f.code for f in run.findings})) if r.multi_process_only}
        run.findings = [f for f in run.findings if f.code not in multi]
    run.no_python_files = args.command == "check" and not files and not errors and not configs_seen
    run.findings.extend(plan_findings)
    run.errors.extend(errors)
    run.sort()
    diff = ""
    if args.fix or args.diff:
        run, diff = _apply_fixes(run, files, selection, settings, args)
    _baseline(run, args)
    if args.diff:
        _emit(diff, args)
    else:
        _emit(_report(run, settings, args, extra), args)
    return _exit_code(run, settings, args, diff)


def run_audit(args: argparse.Namespace) -> int:
    settings = _settings(args)
    selection = _selection(settings, args)
    if not args.scripts and not args.config and args.plan is None and not args.launch:
        raise UsageError("audit needs a training script, a launch script, a directory, a --config file, "
                         "a launch line after -- or a --plan")
    from preflight import audit

    root = Path.cwd()
    if args.plan is not None:
        from preflight.plan import load_plan

        loaded = load_plan(args.plan)
        if isinstance(loaded, FileError):
            sys.stderr.write(loaded.render() + "\n")
            return EXIT_INPUT
        plan = loaded
        errors: list[FileError] = []
        project: Optional[Project] = None
    else:
        from preflight.jobs import resolve_job

        job = resolve_job(args.scripts, args.config, args.launch, root)
        args.scripts = job.scripts
        plan, project = audit.build_plan(
            job.scripts, job.configs, root=root, argv=job.argv,
            transformers_version=getattr(args, "transformers_version", None) or settings.transformers_version,
            launch_at=job.launch_at(), launch_loop=job.launch_loop, unfound_launch=job.unfound_launch)
        for note in job.notes:
            plan.note(note)
        errors = sorted(list(project.errors) + job.errors, key=lambda e: e.sort_key())
    if args.emit_plan:
        text = plan.to_yaml() if args.emit_plan == "yaml" else plan.to_json()
        _emit(text, args)
        for err in errors:
            sys.stderr.write(err.render() + "\n")
        return EXIT_INPUT if errors and not args.exit_zero else EXIT_CLEAN
    found = discover(args.scripts, root, (), kinds=frozenset({"python", "notebook"}))
    script_errors = [e for e in found.errors if e.path not in {x.path for x in errors}]

    def extra(fmt: str, text: str) -> str:
        from preflight.estimate.audit_hook import attach_estimate

        text = audit.attach_plan(fmt, text, plan, color=_color(args, sys.stdout), quiet=args.quiet,
                                 width=terminal_width(args))
        return attach_estimate(fmt, text, plan, getattr(args, "gpu", None) or settings.target_gpu,
                               quiet=args.quiet, color=_color(args, sys.stdout))

    def document(fmt: str, doc: dict) -> None:
        """JSON/SARIF: the plan and the (one) estimate go into the report's data, dumped once."""
        from preflight.estimate.audit_hook import add_estimate, audit_estimate

        audit.add_plan(fmt, doc, plan)
        add_estimate(fmt, doc, audit_estimate(plan, getattr(args, "gpu", None) or settings.target_gpu))

    extra.document = document  # type: ignore[attr-defined]

    from preflight.plan_rules import run_plan_rules

    target_gpu = getattr(args, "gpu", None) or settings.target_gpu
    if target_gpu:
        from preflight.plan import Source

        _check_gpu_name(target_gpu, "--gpu" if getattr(args, "gpu", None) else
                        f"target-gpu in {settings.source or 'the settings'}")

        where = Source("cli", key="--gpu") if getattr(args, "gpu", None) else \
            Source("config", path=settings.source, key="target-gpu")
        plan.add("target.gpu", target_gpu, where, adapter="audit")
    plan_findings = run_plan_rules(plan, project, selection)
    return _finish(found.files, errors + script_errors, selection, settings, args, extra, plan_findings,
                   one_process=_one_process(plan))


def _one_process(plan: TrainingPlan) -> bool:
    """Every launch line the job was given starts one process (``accelerate launch --num_processes 1``,
    ``torchrun --nproc_per_node 1``): the process count read from a launch line, and all of them 1."""
    facts = [f for f in plan.facts("dist.world_size") if f.source.kind == "cli"]
    return bool(facts) and all(f.value == 1 for f in facts)


def _check_gpu_name(name: str, where: str) -> None:
    """A GPU name the catalog lacks is a usage error (exit 2) with close names, as in
    ``estimate`` and ``fit``; it is not silently an audit without an estimate."""
    try:
        from preflight import hardware
    except ImportError:
        return
    if hardware.find(name) is None:
        raise UsageError(f"{where}: {hardware.unknown_message(name)}")
