"""Plan rules: rules over a whole job (the TrainingPlan, its config files and scripts).

A code rule (:class:`~preflight.rules.base.Rule`) reads one Python file. Some bugs
only show when several inputs are read together: a DeepSpeed batch triple against
the launch's world size, a ZeRO-3 config and a script that loads the model before
the config exists, a removed keyword under the transformers version that
``requirements.txt`` pins. A :class:`PlanRule` is registered with the same
``@register`` decorator and carries the same metadata (code, explanation,
examples), so ``preflight rules``, ``preflight explain`` and ``docs/rules.md``
list it; it runs in ``preflight audit`` (where a plan is built), not in
``preflight check`` (one file at a time, no plan)::

    @register
    class BatchTriple(PlanRule):
        code = "PF502"
        ...
        def check_plan(self, pctx):
            for config, block, prefix in pctx.deepspeed_configs():
                ...
                yield pctx.config_finding(self, config, (*prefix, "train_batch_size"), "message")

Examples of a plan rule are small projects: files separated by ``# --- <path>``
lines (``# --- launch`` holds a launch command). :func:`example_findings` builds
the project in a temporary folder and runs the rule, which is how the examples
tests execute them.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence, Union

from preflight.diagnostics import Evidence, FileError, Finding, Severity, Span
from preflight.rules.base import Rule

if TYPE_CHECKING:
    from preflight.adapters_api import Project, ScriptIndex
    from preflight.analysis.context import FileContext
    from preflight.engine import Selection
    from preflight.loaders import LoadedConfig
    from preflight.plan import Fact, TrainingPlan
    from preflight.sources import ParsedPython, SourceText

EXAMPLE_MARK = "# --- "
LAUNCH = "launch"
EXPECT = "expect"


PLAN_RULE_NOTE = """
## Where it runs

This rule reads the whole job (scripts, config files, the launch command), so
`preflight audit` runs it and `preflight check` (one file at a time) does not. The
examples below are small projects: their files are separated by `# --- <path>` lines,
and `# --- launch` holds the launch command given after `--`. A trailing `# error: PFxxx`
comment marks the line a finding is reported on; `# --- expect` lists the findings on lines
that cannot hold a comment (JSON, the launch command) as `path:line: severity: code`.
"""


class PlanRule(Rule):
    """A rule over the plan, the configs and the scripts of one job (runs in ``audit``)."""

    scope = "job"
    kind = "plan"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.explanation.strip() and "## Where it runs" not in cls.explanation:
            cls.explanation = cls.explanation.rstrip() + "\n" + PLAN_RULE_NOTE

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        return ()  # nothing to see in one file alone

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        raise NotImplementedError


class ConfigRule(PlanRule):
    """A plan rule that checks one config file at a time against the schema of the library
    that reads it (the problems ``preflight validate`` reports, as audit findings)."""

    kind = "config"


class PlanContext:
    """What a plan rule reads, with helpers that turn places into findings and evidence."""

    def __init__(self, plan: TrainingPlan, project: Optional[Project] = None) -> None:
        from preflight.adapters_api import Project

        self.plan = plan
        self.project = project if project is not None else Project(root=Path.cwd())
        self._contexts: dict[int, FileContext] = {}
        self._texts = {cfg.path: src for src, cfg in self.project.configs}
        self._versions: dict[tuple[str, str], Any] = {}

    # -- inputs --------------------------------------------------------------
    @property
    def scripts(self) -> list[ParsedPython]:
        return list(self.project.scripts)

    @property
    def configs(self) -> list[LoadedConfig]:
        return [cfg for _, cfg in self.project.configs]

    def index(self, script: ParsedPython) -> ScriptIndex:
        return self.project.index(script)

    def file_context(self, script: ParsedPython) -> FileContext:
        """The per-file analysis context of a script (built once, shared by plan rules)."""
        from preflight.analysis.context import FileContext

        found = self._contexts.get(id(script))
        if found is None:
            found = self._contexts[id(script)] = FileContext(script)
        return found

    def deepspeed_configs(self) -> list[tuple[LoadedConfig, dict[str, Any], tuple[str, ...]]]:
        """Every DeepSpeed block among the configs: (config, block, key prefix)."""
        from preflight.adapters.deepspeed import deepspeed_block

        out = []
        for cfg in self.configs:
            found = deepspeed_block(cfg)
            if found is not None:
                prefix, block = found
                out.append((cfg, block, prefix))
        return out

    def version(self, package: str, script: Optional[ParsedPython] = None) -> Any:
        """The declared version of ``package`` (``adapters.transformers_version.Version``)
        nearest to ``script`` (or the project root); for transformers, else the version the
        user stated (``--transformers-version``), as the transformers adapter does; else None."""
        from preflight.adapters.transformers_version import find_version

        root = self.project.root
        folder = Path(script.source.path).parent if script is not None else root
        key = (package, str(folder))
        if key not in self._versions:
            try:
                found = find_version(package, folder, root)
            except OSError:
                found = None
            stated = getattr(self.project, "transformers_version", None)
            if found is None and package == "transformers" and stated:
                from preflight.adapters.transformers_version import Version

                found = Version("transformers", stated, "stated by the user",
                                "--transformers-version / [tool.preflight] transformers-version")
            self._versions[key] = found
        return self._versions[key]

    # -- findings ------------------------------------------------------------
    def code_finding(self, rule: Union[Rule, type[Rule]], script: ParsedPython, node: ast.AST,
                     message: str, *, evidence: Optional[list[Evidence]] = None) -> Finding:
        return self.file_context(script).finding(rule, node, message, evidence=evidence)

    def code_evidence(self, script: ParsedPython, node: ast.AST, message: str,
                      *, same_file: bool = False) -> Evidence:
        ev = self.file_context(script).evidence(node, message)
        if same_file:
            return ev
        return Evidence(line=ev.line, column=ev.column, message=ev.message, path=script.source.display)

    def config_finding(self, rule: Union[Rule, type[Rule]], config: LoadedConfig, key_path: Sequence[Any],
                       message: str, *, evidence: Optional[list[Evidence]] = None) -> Finding:
        """A finding on the line of ``key_path`` in a config file (its nearest ancestor's line)."""
        line = config.line_of(tuple(key_path), nearest=True) or 1
        return self.location_finding(rule, config.path, line, message, evidence=evidence)

    def config_evidence(self, config: LoadedConfig, key_path: Sequence[Any], message: str) -> Evidence:
        line = config.line_of(tuple(key_path), nearest=True) or 1
        return Evidence(line=line, message=message, path=config.path)

    def location_finding(self, rule: Union[Rule, type[Rule]], path: str, line: int, message: str,
                         *, evidence: Optional[list[Evidence]] = None) -> Finding:
        text = self._line_text(path, line)
        column = len(text) - len(text.lstrip()) + 1 if text.strip() else 1
        end = len(text.rstrip()) + 1 if text.strip() else 1
        return Finding(code=rule.code, severity=rule.severity, category=rule.category, path=path,
                       span=Span(line, column, line, max(end, column)), message=message,
                       evidence=list(evidence or []), source_line=text, analysed_lines=(line, line))

    def fact_evidence(self, fact: Fact, message: str) -> Optional[Evidence]:
        """Evidence at a fact's file and line, or None when the fact has no file line."""
        src = fact.source
        if src.path is None or src.line is None or ":cell " in src.path:
            return None
        return Evidence(line=src.line, message=message, path=src.path)

    def fact_finding(self, rule: Union[Rule, type[Rule]], fact: Fact, message: str,
                     *, evidence: Optional[list[Evidence]] = None) -> Optional[Finding]:
        """A finding at a fact's file and line, or None when the fact has none."""
        src = fact.source
        if src.path is None or src.line is None or ":cell " in src.path:
            return None
        return self.location_finding(rule, src.path, src.line, message, evidence=evidence)

    def _line_text(self, path: str, line: int) -> str:
        source: Optional[SourceText] = self._texts.get(path)
        if source is None:
            for script in self.project.scripts:
                if script.source.display == path:
                    source = script.source
                    break
        if source is None:
            return _disk_line(self.project.root / path, line)
        lines = source.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _disk_line(path: Path, line: int) -> str:
    """A line of a file no input holds (a config an adapter found itself), or ""."""
    try:
        if path.stat().st_size > 2_000_000:
            return ""
        from preflight.sources import read_text_limited

        lines = read_text_limited(path, 2_000_000, errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _comments(project: Project) -> dict[str, dict[int, str]]:
    return {s.source.display: s.comment_lines for s in project.scripts}


def run_plan_rules(plan: TrainingPlan, project: Optional[Project], selection: Selection) -> list[Finding]:
    """Run the selected plan rules; suppressions, per-file ignores and severity overrides applied.

    A rule that raises is skipped with one error on stderr naming the rule and whom to tell
    (tests call :func:`check_plan_rule`, which lets the exception through), so neither a bug
    in a built-in rule nor one in a plugin stops the audit.
    """
    from preflight.engine import _per_file_ignored, is_suppressed
    from preflight.registry import all_rules

    registry = all_rules()
    pctx = PlanContext(plan, project)
    comments = _comments(pctx.project)
    overrides = dict(selection.severity_overrides)
    out: list[Finding] = []
    for code in selection.codes:
        cls = registry.get(code)
        if cls is None or not issubclass(cls, PlanRule):
            continue
        try:
            produced = list(cls().check_plan(pctx))
        except Exception as exc:
            from preflight.engine import rule_failure

            sys.stderr.write(f"preflight: warning: {rule_failure(code, cls.__module__, exc, 'this job')}\n")
            continue
        for finding in produced:
            if is_suppressed(finding, comments.get(finding.path, {})):
                continue
            if _per_file_ignored(finding.path, finding.code, selection.per_file_ignores):
                continue
            if finding.code in overrides:
                finding.severity = Severity.parse(overrides[finding.code])
            out.append(finding)
    return _dedupe(out)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[Any, ...]] = set()
    out = []
    for f in sorted(findings, key=lambda f: f.sort_key()):
        key = (f.code, f.path, f.span.line, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def check_plan_rule(code: str, plan: TrainingPlan, project: Optional[Project] = None) -> list[Finding]:
    """One plan rule's findings, exceptions propagated (for tests)."""
    from preflight.registry import all_rules

    cls = all_rules()[code]
    assert issubclass(cls, PlanRule), f"{code} is not a plan rule"
    return list(cls().check_plan(PlanContext(plan, project)))


# --------------------------------------------------------------------------- examples


def split_example(example: str) -> tuple[dict[str, str], list[str]]:
    """The files of an example project and its launch command (``# --- <path>`` sections; the
    ``# --- expect`` section, the findings the example pins on lines that cannot hold a comment,
    is no file: see :func:`example_sections`)."""
    import textwrap  # examples only: kept off the check path

    text = textwrap.dedent(example).strip("\n") + "\n"
    files: dict[str, list[str]] = {}
    current = "train.py"
    for line in text.splitlines(keepends=True):
        if line.startswith(EXAMPLE_MARK):
            current = line[len(EXAMPLE_MARK):].strip()
            files.setdefault(current, [])
            continue
        files.setdefault(current, []).append(line)
    launch = "".join(files.pop(LAUNCH, [])).strip()
    files.pop(EXPECT, None)
    out = {name: "".join(lines) for name, lines in files.items() if "".join(lines).strip()}
    import shlex

    return out, shlex.split(launch) if launch else []


def example_sections(example: str) -> list[tuple[str, int, str]]:
    """Each line of an example project as (file, line in that file, text), in order: what
    ``split_example`` writes, with the ``launch`` and ``expect`` sections as pseudo-files."""
    import textwrap

    text = textwrap.dedent(example).strip("\n") + "\n"
    current, number = "train.py", 0
    out = []
    for line in text.splitlines():
        if line.startswith(EXAMPLE_MARK):
            current, number = line[len(EXAMPLE_MARK):].strip(), 0
            continue
        number += 1
        out.append((current, number, line))
    return out


def build_example(example: str, root: Path) -> tuple[TrainingPlan, Project]:
    """Write an example project under ``root`` and build its plan as ``audit`` would.

    The project goes two empty folders below ``root`` (``root/example/project``): a project
    without a root marker is read from its folder and the two above it (validate_project), so a
    project written straight into a shared temporary folder would read whatever Python files lie
    beside it there (``/tmp/*.py``) and the example's findings would depend on the machine."""
    files, argv = split_example(example)
    return build_files(files, argv, root / "example" / "project")


def build_files(files: dict[str, str], argv: list[str], root: Path,
                strict: bool = True) -> tuple[TrainingPlan, Project]:
    """Write ``files`` (path -> text) under ``root`` and build their plan as ``audit`` would, with
    ``argv`` as the launch command (``strict=False`` keeps going past unreadable inputs)."""
    from preflight.audit import CONFIG_KINDS, SCRIPT_KINDS, build_plan
    from preflight.sources import kind_of

    scripts: list[Path] = []
    configs: list[Path] = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        kind = kind_of(path)
        if kind in SCRIPT_KINDS:
            scripts.append(path)
        elif kind in CONFIG_KINDS and not name.startswith(("requirements", "pyproject")):
            configs.append(path)
    return build_plan(scripts, configs, root=root, argv=argv, strict=strict)


def example_findings(code: str, example: str) -> list[Finding]:
    """The findings of rule ``code`` on an example project (its files in a temporary folder)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="preflight-example-") as tmp:
        plan, project = build_example(example, Path(tmp))
        bad = [e for e in project.errors if isinstance(e, FileError)]
        if bad:
            raise AssertionError("example project has unreadable inputs: "
                                 + "; ".join(e.render() for e in bad))
        return [f for f in check_plan_rule(code, plan, project) if f.code == code]
