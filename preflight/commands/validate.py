"""``preflight validate PATHS``: check config files against schemas generated from the libraries."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

HELP = "validate config files (DeepSpeed, accelerate, TrainingArguments/SFTConfig, Lightning, Hydra)"
DESCRIPTION = (
    "Validate config files against JSON Schemas generated from the libraries themselves: "
    "unknown keys (with 'did you mean'), wrong types, invalid values and YAML 1.1 traps, each "
    "with file:line. The kind of each file is detected from its keys (or a Hydra _target_); "
    "directories are searched for .json/.yaml/.yml files. Exit status: 0 valid, 1 problems "
    "found, 2 usage error, 3 a file could not be read or its kind was not recognised."
)

KIND_CHOICES = ("deepspeed", "accelerate", "accelerate-sagemaker", "training-args", "sft-config",
                "lightning-trainer", "gpt-neox", "axolotl")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="config files or directories")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--kind", choices=KIND_CHOICES, default=None,
                        help="validate every file as this kind instead of detecting it")
    parser.add_argument("--strict", action="store_true",
                        help="also fail (exit 1) on notes; by default errors and warnings fail")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from preflight.cli import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT
    from preflight.diagnostics import FileError
    from preflight.sources import kind_of, read_source
    from preflight.validate import VALIDATE_VERSION, FileReport, validate_source
    from preflight.validate_broken import family_error
    from preflight.validate_kinds import looks_like_config
    from preflight.workspace import display_path

    root = Path.cwd()
    reports: list[FileReport] = []
    unrecognised: list[str] = []
    not_recognised_files: list[str] = []  # found in a folder, kind not recognised
    not_recognised_why: dict[str, str] = {}  # each of those -> why it was not validated (one line each)
    not_recognised = 0  # files of a folder whose kind was not recognised (counted, never an error)
    for path, explicit in _expand(args.paths):
        display = display_path(path, root)
        if not os.path.lexists(path):
            reports.append(FileReport(display, error=FileError(display, "no such file")))
            continue
        kind = kind_of(path)
        if kind not in ("json", "yaml"):
            if explicit:
                reports.append(FileReport(display, error=FileError(
                    display, "not a config file preflight validates (.json, .yaml, .yml)")))
            continue
        source = read_source(path, display, kind)
        if isinstance(source, FileError):
            reports.append(FileReport(display, error=source))
            continue
        report = validate_source(source, kind=args.kind)
        if not explicit and args.kind is None and report.error is not None \
                and not looks_like_config(path.name, source.text or ""):
            # a config of its folder's family that does not parse (its siblings of the same shape do)
            family = family_error(path, source.text or "", report.error)
            if family is not None:
                reports.append(FileReport(display, error=family))
                continue
        if not explicit and args.kind is None and (report.error is not None or report.template) \
                and not looks_like_config(path.name, source.text or ""):
            # found in a folder, does not parse (or only as a template) and is no training config by its
            # name or keys: a tsconfig.json with comments, JSON Lines data, a Helm template
            not_recognised += 1
            not_recognised_files.append(display)
            not_recognised_why[display] = (
                f"it does not parse ({report.error.message}"
                + (f", line {report.error.line})" if report.error.line else ")") if report.error is not None
                else "it parses only as a template") + " and neither its name nor its keys are a training config's"
            continue
        if report.error is None and not report.targets and not report.template:
            if explicit:
                unrecognised.append(display)
            else:
                not_recognised += 1
                not_recognised_files.append(display)
                not_recognised_why[display] = _NO_SETTINGS
            continue
        reports.append(report)

    problems = [p for r in reports for p in r.problems]
    failing = ("error", "warning", "note") if args.strict else ("error", "warning")
    errors = [r.error for r in reports if r.error is not None]
    counts = {
        "checked": sum(1 for r in reports if r.checked),
        "not_recognised": not_recognised + len(unrecognised),
        "skipped": sum(1 for r in reports if r.skipped and r.error is None),
        "templates": sum(1 for r in reports if r.template),
        "unreadable": len(errors),
    }
    # nothing to validate under the folders named (no .json/.yaml/.yml at all): not a green run
    empty = not reports and not unrecognised and not not_recognised
    if empty:
        named = ", ".join(str(p) for p in args.paths)
        sys.stderr.write(f"preflight: warning: no config files (.json, .yaml, .yml) found under {named} "
                         "(nothing was validated)\n")
    if args.format == "json":
        doc = {
            "version": VALIDATE_VERSION,
            "files": [r.to_dict() for r in reports],
            "unrecognised": unrecognised,
            "not_recognised": not_recognised_files,
            "not_recognised_why": not_recognised_why,
            "summary": {s: sum(1 for p in problems if p.severity == s) for s in ("error", "warning", "note")},
            "counts": counts,
        }
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        out = []
        skipped_kinds: dict[str, int] = {}
        for report in reports:
            if report.error is not None:
                out.append(report.error.render())
            if report.template:
                out.append(f"{report.path}: note: a template, not validated: its placeholders "
                           f"({', '.join(report.template[:6])}{', ...' if len(report.template) > 6 else ''}) "
                           "are filled in by a script before use [template]")
            if report.skipped:
                for kind in report.kinds:
                    skipped_kinds[kind] = skipped_kinds.get(kind, 0) + 1
                out.append(f"{report.path}: note: {report.skipped} [not-validated]")
            out.extend(p.render() for p in report.problems)
        for display in unrecognised:
            out.append(f"{display}: not validated: {_NO_SETTINGS} (use --kind to say which it is)")
        for display in not_recognised_files:  # found in a folder: one line each, never an error
            out.append(f"{display}: note: not validated: {not_recognised_why[display]} [not-recognised]")
        checked = [r for r in reports if r.checked]
        sev = {s: sum(1 for p in problems if p.severity == s) for s in ("error", "warning", "note")}
        summary = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in sev.items() if n) or "no problems"
        kinds = sorted({k for r in checked for k in r.kinds})
        tail = []
        if counts["unreadable"]:
            tail.append(_plural(counts["unreadable"], "file") + " could not be read")
        for kind, n in sorted(skipped_kinds.items()):
            tail.append(f"{_plural(n, kind + ' config')} recognised, not validated (no schema)")
        if counts["templates"]:
            tail.append(_plural(counts["templates"], "template") + " not validated")
        if counts["not_recognised"]:
            tail.append(_plural(counts["not_recognised"], "file") + " not recognised as a config")
        if empty:
            out.append("No config files found: nothing was validated.")
        else:
            out.append(f"Validated {_plural(len(checked), 'file')}"
                       + (f" ({', '.join(kinds)})" if kinds else "") + f": {summary}"
                       + "".join("; " + t for t in tail))
        sys.stdout.write("\n".join(out) + "\n")
    if any(p.severity in failing for p in problems):
        return EXIT_FINDINGS
    if errors or unrecognised:
        return EXIT_INPUT
    return EXIT_CLEAN


_NO_SETTINGS = ("no DeepSpeed, accelerate, TrainingArguments/SFTConfig, Lightning Trainer or GPT-NeoX settings "
                "recognised")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _expand(paths: list[Path]) -> list[tuple[Path, bool]]:
    """Files to validate, and whether each was named explicitly (not found in a folder)."""
    out: list[tuple[Path, bool]] = []
    for path in paths:
        if os.path.isdir(path):
            for suffix in ("*.json", "*.yaml", "*.yml"):
                out.extend((p, False) for p in sorted(path.rglob(suffix))
                           if not any(part.startswith(".") for part in p.relative_to(path).parts))
        else:
            out.append((path, True))
    seen: set[Path] = set()
    unique = []
    for p, explicit in sorted(out, key=lambda item: str(item[0])):
        if p not in seen:
            seen.add(p)
            unique.append((p, explicit))
    return unique
