"""The data that flows out of every analysis: findings, evidence, fixes, errors.

Everything here is plain data (picklable, JSON-serialisable) so that findings can
cross process boundaries, live in the cache and be written by any reporter.
Lines and columns are 1-based; columns count characters (code points); an end
column points one past the last character, as in SARIF.
"""

from __future__ import annotations

import enum
from typing import Any, Optional

from preflight._record import dataclass, field
from preflight.codes import code_sort_key


class Severity(enum.IntEnum):
    """How bad a finding is. ``--fail-on`` compares against this order."""

    NOTE = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown severity {text!r} (expected one of: error, warning, note)"
            ) from None


class Category(str, enum.Enum):
    """What a finding is about."""

    MEMORY = "memory"  # leaks, OOM, wasted VRAM
    CORRECTNESS = "correctness"  # silently wrong training
    DISTRIBUTED = "distributed"  # sharding, sampling, world size
    PERFORMANCE = "performance"  # slow but correct
    CONFIG = "config"  # configuration that will fail or be ignored


class Applicability(str, enum.Enum):
    SAFE = "safe"  # applied by --fix
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes


@dataclass(frozen=True)
class Span:
    """A source range: 1-based lines and columns, end column exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def contains_line(self, line: int) -> bool:
        return self.line <= line <= self.end_line


@dataclass(frozen=True)
class Evidence:
    """One link in the chain that led to a verdict: a place and what it shows."""

    line: int
    message: str
    column: int = 1
    path: Optional[str] = None  # None: the finding's own file

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "column": self.column, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        return out


@dataclass(frozen=True)
class Fix:
    """A rewrite offered for a finding.

    ``operation`` names a LibCST transformation in :mod:`preflight.fix`, applied to
    the node that exactly covers ``target``; ``params`` are its arguments. Keeping
    the fix as data lets findings be cached and sent between processes; the CST
    work happens only when a fix is applied.
    """

    description: str
    operation: str
    target: Span
    applicability: Applicability = Applicability.SAFE
    params: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"description": self.description, "applicability": self.applicability.value}


@dataclass
class Finding:
    code: str
    severity: Severity
    category: Category
    path: str  # display path (relative to the project root where possible)
    span: Span
    message: str
    evidence: list[Evidence] = field(default_factory=list)
    fix: Optional[Fix] = None
    cell: Optional[int] = None  # notebooks: 1-based cell number (all cells); span is cell-relative
    source_line: str = ""  # the text of the first line, for fingerprints and frames
    # lines of the analysed text (differs from span for notebooks), for suppressions
    analysed_lines: tuple[int, int] = (0, 0)

    def sort_key(self) -> tuple[Any, ...]:
        return (self.path, self.cell or 0, self.span.line, self.span.column, code_sort_key(self.code), self.message)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.label,
            "category": self.category.value,
            "path": self.path,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "message": self.message,
            "evidence": [e.to_dict() for e in self.evidence],
            "fix": self.fix.to_dict() if self.fix else None,
        }
        if self.cell is not None:
            out["cell"] = self.cell
        return out


@dataclass(frozen=True)
class FileError:
    """A file (or config value) preflight could not analyse. Never a finding."""

    path: str
    message: str
    line: Optional[int] = None
    column: Optional[int] = None

    def sort_key(self) -> tuple[Any, ...]:
        return (self.path, self.line or 0, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "message": self.message}

    def render(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: error: {self.message}"
