"""Command line: ``preflight check|audit|explain|rules`` and the commands of ``preflight.commands``.

Exit codes (stable; see docs/exit-codes.md):
  0  no findings at or above --fail-on, every input analysed
  1  findings at or above --fail-on (or fixes pending with --diff)
  2  usage or settings error (bad flag, unknown rule code, bad [tool.preflight])
  3  no such findings, but some input could not be analysed (syntax error,
     unreadable, binary, not UTF-8, ...); each is listed with file and line
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Optional, Sequence

from preflight import __version__

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INPUT = 3


class UsageError(Exception):
    pass


if TYPE_CHECKING:
    import argparse


def _parser_class() -> type[argparse.ArgumentParser]:
    """argparse's parser with preflight's usage-error exit code (argparse is imported here:
    a plain ``check`` does not need it, see :func:`_fast_check_args`)."""
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.print_usage(sys.stderr)
            sys.stderr.write(f"preflight: error: {message}\n")
            raise SystemExit(EXIT_USAGE)

    return _Parser


# The options `check` and `audit` share, as data: `_add_lint_options` builds argparse's
# groups from it and `_fast_check_args` parses a plain `check` command line with it.
# Each entry: (flags, argparse keyword arguments).
_LINT_OPTIONS: tuple[tuple[str, tuple[tuple[tuple[str, ...], dict], ...]], ...] = (
    ("rule selection", (
        (("--select",), dict(metavar="CODES", help="comma-separated rule codes or prefixes to enable (default: all); "
                                                     "a complete code (PF100) names that rule only, a shorter one "
                                                     "(PF1) is a prefix")),
        (("--extend-select",), dict(metavar="CODES", help="codes or prefixes to enable on top of the settings")),
        (("--ignore",), dict(metavar="CODES", help="comma-separated rule codes or prefixes to disable")),
        (("--exclude",), dict(metavar="GLOBS", help="comma-separated glob patterns to skip (added to settings)")),
        (("--settings",), dict(metavar="FILE", type=Path,
                               help="read settings from this TOML file instead of the nearest pyproject.toml")),
    )),
    ("output", (
        (("--format",), dict(choices=("text", "json", "sarif", "github"), default=None,
                             help="output format (default: text; env PREFLIGHT_OUTPUT_FORMAT)")),
        (("--output", "-o"), dict(metavar="FILE", type=Path, help="write the report to FILE")),
        (("--statistics",), dict(action="store_true", help="print counts per rule instead of findings")),
        (("--no-color",), dict(action="store_true", help="never colour the output (NO_COLOR is honoured too)")),
        (("--color",), dict(choices=("auto", "always", "never"), default=None,
                            help="colour: auto (on a terminal; NO_COLOR, FORCE_COLOR honoured), "
                                 "always or never")),
        (("-q", "--quiet"), dict(action="store_true", help="print findings only: no summary, no progress")),
    )),
    ("exit status", (
        (("--fail-on",), dict(choices=("error", "warning", "note"), default=None,
                              help="lowest severity that makes the exit status 1 (default: warning)")),
        (("--exit-zero",), dict(action="store_true", help="exit 0 even with findings or unreadable inputs")),
    )),
    ("fixes", (
        (("--fix",), dict(action="store_true", help="apply safe fixes in place")),
        (("--unsafe-fixes",), dict(action="store_true", help="also apply fixes marked unsafe")),
        (("--diff",), dict(action="store_true", help="print the fixes as a unified diff, write nothing")),
    )),
    ("adoption", (
        (("--baseline",), dict(metavar="FILE", type=Path, help="report only findings not in this baseline")),
        (("--write-baseline",), dict(metavar="FILE", type=Path, help="record current findings as the baseline")),
    )),
    ("performance", (
        (("-j", "--jobs"), dict(type=int, default=None, metavar="N",
                                help="worker processes for large trees (default: number of CPUs)")),
        (("--no-cache",), dict(action="store_true", help="do not read or write .preflight_cache")),
    )),
)


def _add_lint_options(p: argparse.ArgumentParser) -> None:
    for title, options in _LINT_OPTIONS:
        group = p.add_argument_group(title)
        for flags, kwargs in options:
            group.add_argument(*flags, **kwargs)


def _dest(flags: tuple[str, ...]) -> str:
    """The attribute argparse stores an option in: its first long flag, dashes to underscores."""
    long = next((f for f in flags if f.startswith("--")), flags[0])
    return long.lstrip("-").replace("-", "_")


def _fast_check_args(argv: Sequence[str]) -> Optional[SimpleNamespace]:
    """The namespace argparse would give for a plain ``check`` command line, or None.

    argparse costs a one-file ``check`` about 20 ms (its import, gettext, a help
    formatter per option), more than the analysis. This parser reads the common forms
    (exact flags, ``--flag=value``, a separate value, paths in one run) from the same
    option table and gives up (None) on anything else (help, abbreviations, bundled
    short flags, a value that looks like a flag, a bad value, paths on both sides of
    an option), which argparse then parses or reports as before. A property test checks
    that whenever this returns a namespace, argparse returns the same one.
    """
    if not argv or argv[0] != "check":
        return None
    specs: dict[str, tuple[str, dict]] = {}
    values: dict[str, object] = {"command": "check"}
    for _title, options in _LINT_OPTIONS:
        for flags, kwargs in options:
            dest = _dest(flags)
            values[dest] = False if kwargs.get("action") == "store_true" else kwargs.get("default")
            for flag in flags:
                specs[flag] = (dest, kwargs)
    paths: list[Path] = []
    paths_done = False  # paths form one run; argparse rejects more after an option
    i = 1
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            if paths_done:
                return None
            paths.append(Path(arg))
            continue
        if paths:
            paths_done = True
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        spec = specs.get(flag)
        if spec is None:
            return None
        dest, kwargs = spec
        if kwargs.get("action") == "store_true":
            if eq:
                return None
            values[dest] = True
            continue
        if not eq:
            if i >= len(argv):
                return None
            value = argv[i]
            i += 1
        if value.startswith("-"):
            return None
        choices = kwargs.get("choices")
        if choices is not None and value not in choices:
            return None
        convert = kwargs.get("type")
        try:
            values[dest] = value if convert is None else convert(value)
        except ValueError:
            return None
    values["paths"] = paths
    return SimpleNamespace(**values)


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

    parser_class = _parser_class()
    parser = parser_class(
        prog="preflight",
        description="Static auditor for PyTorch training jobs: silent bugs and VRAM fit, "
                    "without running anything.",
    )
    parser.add_argument("--version", action="version", version=f"preflight {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=parser_class)

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
    fast = _fast_check_args(args_list) if not launch else None
    # a SimpleNamespace from the fast path reads like argparse's Namespace
    args: argparse.Namespace = fast  # type: ignore[assignment]
    if fast is None:
        first = next((a for a in args_list if not a.startswith("-")), None)
        known = first in _BUILTIN or first in _COMMANDS
        parser = build_parser(only=first if known and "-h" not in args_list[:1] else None)
        try:
            args = parser.parse_args(args_list)
        except SystemExit as exc:
            return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
    args.launch = launch
    if args.command not in ("check", "explain", "rules") and not _installed():
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
    sys.stderr.write(f"preflight: error: unknown command {args.command!r}\n")
    return EXIT_USAGE


def _installed() -> bool:
    """Whether the top-level folders ``adapters/``, ``hardware/`` and ``architectures/`` of the
    source tree are importable as ``preflight.adapters`` ... (the install maps them; running a
    checkout with ``PYTHONPATH=.`` does not). When they are not, one line says to install."""
    import importlib.util

    missing = []
    for name in ("adapters", "hardware", "architectures"):
        try:
            found = importlib.util.find_spec(f"preflight.{name}") is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    if missing:
        sys.stderr.write(
            f"preflight: error: preflight is not installed in this Python ({sys.executable}): "
            f"{', '.join(f'preflight.{m}' for m in missing)} cannot be imported (the source tree's "
            "top-level folders become preflight.* only when installed); run `pip install -e .` "
            "in the checkout, then `preflight ...`\n")
        return False
    return True


def entry() -> None:
    """Console-script entry point: :func:`main`, then a prompt exit.

    Tearing down the interpreter (freeing every module and object one by one) costs
    about 20 ms after a one-file ``check``, as much as the analysis itself. Once the
    output is flushed nothing is left to do, so the process ends with ``os._exit``,
    as mypy does. The normal exit is kept where it can matter: when another thread
    is alive (it may still be working), when coverage is measuring, or when
    ``PREFLIGHT_NORMAL_EXIT`` is set.
    """
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_broken_pipe()
    except OSError as exc:  # e.g. the disk holding a redirected stdout is full
        sys.stderr.write(f"preflight: error: cannot write the output: {exc.strerror or exc}\n")
        _silence_broken_pipe()  # the unwritten rest must not fail again at exit
        code = EXIT_USAGE
    except ValueError:  # stdout closed
        pass
    import contextlib  # already loaded by typing

    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    threading = sys.modules.get("threading")  # not imported: no thread was started with it
    # an interrupted run has stopped its workers already (engine._stop_pool); the pool's
    # management thread is the one left, and on Python 3.9 its exit hook writes to the pipe the
    # stop closed (a traceback after "preflight: interrupted", seen in CI): end at once
    if code != 130 and ((threading is not None and threading.active_count() > 1) or "coverage" in sys.modules
                        or os.environ.get("PREFLIGHT_NORMAL_EXIT")):
        raise SystemExit(code)
    os._exit(code)


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
