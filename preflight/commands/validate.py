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
                "lightning-trainer")


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
    from preflight.workspace import display_path

    root = Path.cwd()
    reports: list[FileReport] = []
    unrecognised: list[str] = []
    skipped: list[str] = []
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
        if report.error is None and not report.targets:
            if explicit:
                unrecognised.append(display)
            else:
                skipped.append(display)  # found in a folder: counted in the summary
            continue
        reports.append(report)

    problems = [p for r in reports for p in r.problems]
    failing = ("error", "warning", "note") if args.strict else ("error", "warning")
    errors = [r.error for r in reports if r.error is not None]
    if args.format == "json":
        doc = {
            "version": VALIDATE_VERSION,
            "files": [r.to_dict() for r in reports],
            "unrecognised": unrecognised,
            "skipped": skipped,
            "summary": {s: sum(1 for p in problems if p.severity == s) for s in ("error", "warning", "note")},
        }
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        out = []
        for report in reports:
            if report.error is not None:
                out.append(report.error.render())
            out.extend(p.render() for p in report.problems)
        for display in unrecognised:
            out.append(f"{display}: not validated: no DeepSpeed, accelerate, TrainingArguments/SFTConfig "
                       "or Lightning Trainer settings recognised (use --kind to say which it is)")
        checked = [r for r in reports if r.error is None]
        counts = {s: sum(1 for p in problems if p.severity == s) for s in ("error", "warning", "note")}
        summary = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n) or "no problems"
        kinds = sorted({k for r in checked for k in r.kinds})
        unread = len(reports) - len(checked)
        tail = f"; {unread} file{'s' if unread != 1 else ''} could not be read" if unread else ""
        out.append(_summary(len(checked), len(skipped), kinds, summary, tail))
        sys.stdout.write("\n".join(out) + "\n")
    if any(p.severity in failing for p in problems):
        return EXIT_FINDINGS
    if errors or unrecognised:
        return EXIT_INPUT
    return EXIT_CLEAN


def _summary(checked: int, skipped: int, kinds: list[str], problems: str, tail: str) -> str:
    """``Validated 1 of 34 files (deepspeed): no problems; 33 skipped: ...``: a folder's
    files that hold no recognised settings are counted, so a run that checked one file of
    many does not read as a clean bill for all of them."""
    files = f"{checked} file{'s' if checked != 1 else ''}"
    if skipped:
        total = checked + skipped
        files = f"{checked} of {total} file{'s' if total != 1 else ''}"
    line = f"Validated {files}" + (f" ({', '.join(kinds)})" if kinds else "") + f": {problems}{tail}"
    if skipped:
        line += (f"; {skipped} skipped: no DeepSpeed, accelerate, TrainingArguments/SFTConfig or "
                 "Lightning Trainer settings recognised (name a file, with --kind, to validate it)")
    return line


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
