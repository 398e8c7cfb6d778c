"""The rule API.

A rule is a class with metadata and a ``check`` method::

    @register
    class RetainedGraph(Rule):
        code = "PF101"
        name = "retained-graph"
        severity = Severity.ERROR
        category = Category.MEMORY
        summary = "A value that carries an autograd graph outlives its training step"
        explanation = "...markdown..."
        bad_examples = ["...code that must produce this finding..."]
        good_examples = ["...code that must stay silent..."]

        def check(self, ctx):
            for call in ctx.nodes(ast.Call):
                ...
                yield ctx.finding(self, call, "message", evidence=[...], fix=...)

The examples are executable documentation: the test suite runs every bad
example (it must produce this rule's code) and every good one (it must not),
the way Fixit rules carry VALID/INVALID cases.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Iterable, Optional, Sequence

from preflight.diagnostics import Category, Finding, Severity

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

CODE_RE = re.compile(r"^[A-Z]{1,4}[0-9]{3,4}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class examples:
    """Examples kept in another module, imported on first use.

    ``bad_examples = examples("preflight.rules.code._pf101_examples", "BAD_EXAMPLES")``: the
    example programs are only needed by ``explain``, the docs, SARIF rule help and the tests,
    so a ``check`` run does not pay for loading them.
    """

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __get__(self, obj: object, owner: type) -> Sequence[str]:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    category: ClassVar[Category] = Category.CORRECTNESS
    summary: ClassVar[str] = ""
    explanation: ClassVar[str] = ""
    frameworks: ClassVar[Sequence[str]] = ("pytorch",)
    fixable: ClassVar[bool] = False
    # "file": reads one Python file (`check`, `audit`); "job": reads a whole job (`audit` only)
    scope: ClassVar[str] = "file"
    # what the rule reads, set by its base class; a built-in rule lives in the folder of its kind
    # (preflight/rules/code/, plan/, config/, meta/): "code" (one Python file), "plan" (a whole
    # job, PlanRule), "config" (one config file, ConfigRule), "meta" (suppression comments,
    # MetaRule), "job" (a submitted scheduler job, the gate's JobRule)
    kind: ClassVar[str] = "code"
    bad_examples: ClassVar[Sequence[str]] = ()
    good_examples: ClassVar[Sequence[str]] = ()
    # a fixable rule: what `--fix --unsafe-fixes` makes of each bad example, in their order, pin
    # comments removed (None: that example offers no fix); the meta-test compares them
    fixed_examples: ClassVar[Sequence[Optional[str]]] = ()
    # examples whose file name matters (e.g. a notebook); path -> code
    url: ClassVar[str] = ""
    # A file rule that can only fire on a file whose text holds one of these strings (the names
    # its findings need, e.g. ``("configure_optimizers",)``): ``check`` neither imports nor runs it
    # on any other file (an ASCII text; a non-ASCII one may spell a name another way, so every
    # rule runs). Empty: every file. Each string must be a necessary condition, not a heuristic.
    needs_text: ClassVar[tuple[str, ...]] = ()
    # the finding describes what goes wrong only with more than one process (padded shards, ranks that
    # disagree): ``preflight audit`` drops it when every launch line of the job starts one process
    multi_process_only: ClassVar[bool] = False

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        raise NotImplementedError

    @classmethod
    def metadata(cls) -> dict[str, object]:
        return {
            "code": cls.code,
            "name": cls.name,
            "severity": cls.severity.label,
            "category": cls.category.value,
            "summary": cls.summary,
            "explanation": cls.explanation.strip(),
            "frameworks": list(cls.frameworks),
            "fixable": cls.fixable,
        }


class MetaRule(Rule):
    """A rule about preflight's own input in a file (its suppression comments), not about
    the training code; it runs with the code rules."""

    kind = "meta"


def _raw_attribute(cls: type, name: str) -> object:
    """``name`` as stored on ``cls`` or a base, without running a descriptor."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def validate_metadata(cls: type[Rule]) -> None:
    from preflight.registry import RegistryError

    problems = []
    if not CODE_RE.match(cls.code or ""):
        problems.append(f"code {cls.code!r} must look like PF101")
    if not NAME_RE.match(cls.name or ""):
        problems.append(f"name {cls.name!r} must be kebab-case")
    if not cls.summary:
        problems.append("summary is empty")
    if not cls.explanation.strip():
        problems.append("explanation is empty")
    if not isinstance(cls.severity, Severity):
        problems.append("severity must be a Severity")
    if not isinstance(cls.category, Category):
        problems.append("category must be a Category")
    for attr in ("bad_examples", "good_examples"):
        value = _raw_attribute(cls, attr)
        if not isinstance(value, examples) and not value:  # lazy examples are checked on use
            problems.append("bad_examples and good_examples must each hold at least one example")
            break
    if problems:
        raise RegistryError(f"rule {cls.__module__}.{cls.__qualname__}: " + "; ".join(problems))
