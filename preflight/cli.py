"""Command line: ``preflight check|audit|explain|rules`` and the commands of ``preflight.commands``.

Exit codes (stable; see docs/exit-codes.md):
  0  no findings at or above --fail-on, every input analysed
  1  findings at or above --fail-on (or fixes pending with --diff)
  2  usage or settings error (bad flag, unknown rule code, bad [tool.preflight])
  3  no such findings, but some input could not be analysed (syntax error,
     unreadable, binary, not UTF-8, ...); each is listed with file and line
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from preflight import __version__

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INPUT = 3


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"preflight: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _add_lint_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rule selection")
    g.add_argument("--select", metavar="CODES", help="comma-separated rule codes or prefixes to enable (default: all)")
    g.add_argument("--extend-select", metavar="CODES", help="codes or prefixes to enable on top of the settings")
    g.add_argument("--ignore", metavar="CODES", help="comma-separated rule codes or prefixes to disable")
    g.add_argument("--exclude", metavar="GLOBS", help="comma-separated glob patterns to skip (added to settings)")
    g.add_argument("--settings", metavar="FILE", type=Path,
                   help="read settings from this TOML file instead of the nearest pyproject.toml")
    o = p.add_argument_group("output")
    o.add_argument("--format", choices=("text", "json", "sarif", "github"), default=None,
                   help="output format (default: text; env PREFLIGHT_OUTPUT_FORMAT)")
    o.add_argument("--output", "-o", metavar="FILE", type=Path, help="write the report to FILE")
    o.add_argument("--statistics", action="store_true", help="print counts per rule instead of findings")
    o.add_argument("--no-color", action="store_true", help="never colour the output (NO_COLOR is honoured too)")
    o.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary, no progress")
    e = p.add_argument_group("exit status")
    e.add_argument("--fail-on", choices=("error", "warning", "note"), default=None,
                   help="lowest severity that makes the exit status 1 (default: warning)")
    e.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings or unreadable inputs")
    f = p.add_argument_group("fixes")
    f.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    f.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes marked unsafe")
    f.add_argument("--diff", action="store_true", help="print the fixes as a unified diff, write nothing")
    b = p.add_argument_group("adoption")
    b.add_argument("--baseline", metavar="FILE", type=Path, help="report only findings not in this baseline")
    b.add_argument("--write-baseline", metavar="FILE", type=Path, help="record current findings as the baseline")
    r = p.add_argument_group("performance")
    r.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="worker processes for large trees (default: number of CPUs)")
    r.add_argument("--no-cache", action="store_true", help="do not read or write .preflight_cache")


def _add_audit_arguments(audit: argparse.ArgumentParser) -> None:
    audit.add_argument("scripts", nargs="*", type=Path, metavar="SCRIPT", help="training script(s)")
    audit.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                       help="a training config (DeepSpeed JSON, YAML, TOML); repeatable")
    audit.add_argument("--emit-plan", choices=("json", "yaml"), help="print the TrainingPlan and exit")
    audit.add_argument("--plan", type=Path, metavar="FILE", help="load a TrainingPlan (JSON/YAML) instead of building one")
    audit.add_argument("--gpu", metavar="NAME|INSTANCE",
                       help="GPU or cloud instance the job must fit (default: target-gpu in settings)")
    audit.add_argument("--transformers-version", metavar="VERSION",
                       help="transformers version for version-dependent defaults when the project's "
                            "requirement files declare none (default: transformers-version in settings)")
    _add_lint_options(audit)


_BUILTIN = ("check", "audit", "explain", "rules")


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The command-line parser; with ``only``, just that command's sub-parser.

    Building every sub-parser (and importing every command module) costs more than a
    one-file ``check`` analysis, so a run that names its command builds only that one;
    ``preflight --help`` and unknown commands get the full parser.
    """
    def wanted(name: str) -> bool:
        return only is None or only == name

    parser = _Parser(
        prog="preflight",
        description="Static auditor for PyTorch training jobs: silent bugs and VRAM fit, "
                    "without running anything.",
    )
    parser.add_argument("--version", action="version", version=f"preflight {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    if wanted("check"):
        check = sub.add_parser("check", help="lint training code (Python files and notebooks)",
                               description="Lint training code: Python files and notebooks under PATHS.")
        check.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                           help="files or directories (default: .)")
        _add_lint_options(check)

    if wanted("audit"):
        audit = sub.add_parser(
            "audit", help="audit a whole job: code rules, configs, the TrainingPlan",
            description="Audit a training job: the script's code rules plus the TrainingPlan built "
                        "from the script, its configs and its launch arguments (given after --).",
        )
        _add_audit_arguments(audit)

    if wanted("explain"):
        explain = sub.add_parser("explain", help="explain a rule",
                                 description="Explain a rule: what, why, how to fix.")
        explain.add_argument("code", metavar="CODE")
        explain.add_argument("--format", choices=("text", "json"), default="text")

    if wanted("rules"):
        rules = sub.add_parser("rules", help="list all rules", description="List every rule.")
        rules.add_argument("--format", choices=("text", "json"), default="text")
    for name, module in _command_modules(None if only is None else (only,)).items():
        p = sub.add_parser(name, help=module.HELP, description=module.DESCRIPTION)
        module.add_arguments(p)
    return parser


# Commands that live in their own module under preflight/commands/, in the order `--help`
# lists them. Each module is import-light (argparse only at module level) and defines
# HELP, DESCRIPTION, add_arguments(parser) and run(args) -> exit code.
_COMMANDS = ("estimate", "fit", "gpus", "validate", "gate", "sbatch", "serve", "lsp")


def _command_modules(names: Optional[Sequence[str]] = None) -> dict:
    import importlib

    found = {}
    for name in _COMMANDS if names is None else [n for n in names if n in _COMMANDS]:
        qualified = f"preflight.commands.{name}"
        try:
            found[name] = importlib.import_module(qualified)
        except ModuleNotFoundError as exc:
            if exc.name != qualified:
                raise
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    launch: list[str] = []
    if "--" in args_list:
        cut = args_list.index("--")
        args_list, launch = args_list[:cut], args_list[cut + 1:]
    first = next((a for a in args_list if not a.startswith("-")), None)
    known = first in _BUILTIN or first in _COMMANDS
    parser = build_parser(only=first if known and "-h" not in args_list[:1] else None)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    args.launch = launch
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        if args.command == "explain":
            return _explain(args)
        if args.command == "rules":
            return _rules(args)
        from preflight import runner

        if args.command == "check":
            return runner.run_check(args)
        if args.command == "audit":
            return runner.run_audit(args)
        if args.command in _COMMANDS:
            return int(_command_modules((args.command,))[args.command].run(args))
    except UsageError as exc:
        sys.stderr.write(f"preflight: error: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        _silence_broken_pipe()
        return EXIT_CLEAN
    except KeyboardInterrupt:
        sys.stderr.write("preflight: interrupted\n")
        return 130
    parser.error(f"unknown command {args.command!r}")
    return EXIT_USAGE


def _silence_broken_pipe() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def _explain(args: argparse.Namespace) -> int:
    import difflib
    import json

    from preflight.registry import documented_rules

    rules = documented_rules()
    code = args.code.strip().upper()
    by_name = {cls.name: c for c, cls in rules.items()}
    code = by_name.get(args.code.strip().lower(), code)
    cls = rules.get(code)
    if cls is None:
        close = difflib.get_close_matches(code, list(rules) + list(by_name), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        sys.stderr.write(f"preflight: error: unknown rule code '{args.code}'{hint}; see 'preflight rules'\n")
        return EXIT_USAGE
    if args.format == "json":
        meta = cls.metadata()
        import textwrap

        meta["bad_examples"] = [textwrap.dedent(e) for e in cls.bad_examples]
        meta["good_examples"] = [textwrap.dedent(e) for e in cls.good_examples]
        sys.stdout.write(json.dumps(meta, indent=2) + "\n")
        return EXIT_CLEAN
    from preflight.docs import rule_markdown

    sys.stdout.write(rule_markdown(cls))
    return EXIT_CLEAN


def _rules(args: argparse.Namespace) -> int:
    import json

    from preflight.registry import documented_rules, plugin_errors

    rules = documented_rules()
    for err in plugin_errors():
        sys.stderr.write(f"preflight: warning: {err}\n")
    if args.format == "json":
        sys.stdout.write(json.dumps([cls.metadata() for cls in rules.values()], indent=2) + "\n")
        return EXIT_CLEAN
    width = max((len(cls.name) for cls in rules.values()), default=4)
    for code, cls in rules.items():
        fix = "fix" if cls.fixable else "   "
        sys.stdout.write(f"{code}  {cls.name:<{width}}  {cls.severity.label:<7}  {cls.category.value:<11}  "
                         f"{fix}  {cls.summary}\n")
    return EXIT_CLEAN
