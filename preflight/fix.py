"""Applying fixes: LibCST rewrites that leave every other byte alone.

A :class:`~preflight.diagnostics.Fix` is data: an operation name, the span of
the expression to rewrite (1-based lines, 1-based character columns, end
exclusive, in the analysed text) and parameters. :func:`apply_fixes` parses the
file with LibCST, finds each target expression by position, replaces it with
what the registered operation builds, and checks that the result still parses;
if anything about the file is off it applies nothing. Comments, blank lines,
CRLF line endings, tabs and the encoding are untouched outside the rewritten
expressions. :func:`write_atomic` puts the result on disk.

LibCST is imported only inside these functions: importing this module is free,
and analysing never pays for LibCST (about 0.5 s to import).
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from preflight._record import dataclass, field
from preflight.diagnostics import Applicability, Fix, Span
from preflight.sources import parses

if TYPE_CHECKING:
    import libcst

    from preflight.sources import SourceText

Operation = Callable[["libcst.CSTNode", "dict[str, str]"], "libcst.CSTNode"]
_OPERATIONS: dict[str, Operation] = {}


@dataclass
class FixOutcome:
    text: str  # the new text (the original when nothing was applied)
    applied: list[Fix] = field(default_factory=list)
    skipped: list[tuple[Fix, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def register_operation(name: str) -> Callable[[Operation], Operation]:
    """Decorator: make ``operation(node, params) -> node`` available to fixes as ``name``."""

    def decorate(func: Operation) -> Operation:
        _OPERATIONS[name] = func
        return func

    return decorate


def operations() -> list[str]:
    _load_operations()
    return sorted(_OPERATIONS)


def _load_operations() -> None:
    """Import every rule module (built-in and plugin), which registers their operations.

    Findings can come from a worker process or the cache, where the rule that made the fix
    ran in another process or never ran at all: its operation must be here all the same.
    """
    from preflight.registry import all_rules

    all_rules()


def apply_fixes(source: SourceText, fixes: Sequence[Fix], *, unsafe: bool = False) -> FixOutcome:
    """Apply what can be applied safely; say why each other fix was skipped.

    Fixes are taken in the order given; one whose target overlaps an earlier
    selected fix is skipped. Nothing is applied when the file (or the result)
    does not parse.
    """
    text = source.text
    outcome = FixOutcome(text)
    if not fixes:
        return outcome
    if source.kind != "python":
        outcome.skipped = [(f, "fixes are applied to Python files only") for f in fixes]
        return outcome
    if any(f.operation not in _OPERATIONS for f in fixes):
        _load_operations()
    selected: list[Fix] = []
    for fix in fixes:
        reason = _precheck(fix, selected, unsafe)
        if reason is None:
            selected.append(fix)
        else:
            outcome.skipped.append((fix, reason))
    if not selected:
        return outcome

    def give_up(reason: str) -> FixOutcome:
        outcome.skipped.extend((f, reason) for f in selected)
        outcome.skipped.sort(key=lambda item: _order(fixes, item[0]))
        return outcome

    if not parses(text):
        return give_up("the file does not parse; nothing was changed")
    import libcst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        module = libcst.parse_module(text)
    except (libcst.ParserSyntaxError, RecursionError, ValueError):
        return give_up("LibCST cannot parse the file; nothing was changed")
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    wanted = {_key(f.target): f for f in selected}
    found: dict[tuple[int, int, int, int], libcst.CSTNode] = {}
    for node, where in positions.items():
        # expressions, and function definitions (for decorator fixes: the ``def`` line
        # to the end of the body, as in ``ast``)
        if not isinstance(node, (libcst.BaseExpression, libcst.FunctionDef)):
            continue
        key = (where.start.line, where.start.column, where.end.line, where.end.column)
        if key in wanted and key not in found:
            found[key] = node
    replacements: dict[libcst.CSTNode, Fix] = {}
    applied: list[Fix] = []
    for fix in selected:
        hit = found.get(_key(fix.target))
        if hit is None:
            outcome.skipped.append((fix, "the expression to rewrite is not at the recorded position "
                                         "(was the file edited?)"))
            continue
        replacements[hit] = fix
        applied.append(fix)
    if not applied:
        outcome.skipped.sort(key=lambda item: _order(fixes, item[0]))
        return outcome

    failed: list[tuple[Fix, str]] = []

    class _Rewrite(libcst.CSTTransformer):
        def on_leave(self, original: Any, updated: Any) -> Any:
            fix = replacements.get(original)
            if fix is None:
                return updated
            try:
                return _OPERATIONS[fix.operation](updated, dict(fix.params))
            except Exception as exc:  # an operation that cannot handle this node
                failed.append((fix, f"the {fix.operation!r} rewrite failed: {exc}"))
                return updated

    new_module = module.visit(_Rewrite())
    new_text = new_module.code
    applied = [f for f in applied if all(f is not g for g, _ in failed)]
    outcome.skipped.extend(failed)
    if applied and not (parses(new_text) and _cst_parses(new_text)):
        selected_failed = [(f, "the rewritten file would not parse; nothing was changed") for f in applied]
        outcome.skipped.extend(selected_failed)
        outcome.skipped.sort(key=lambda item: _order(fixes, item[0]))
        return outcome
    outcome.text = new_text if applied else text
    outcome.applied = applied
    outcome.skipped.sort(key=lambda item: _order(fixes, item[0]))
    return outcome


class FileChangedError(Exception):
    """The file on disk is no longer the one the fixes were computed for."""


@contextlib.contextmanager
def _locked(target: Path) -> Any:
    """An exclusive advisory lock on ``target`` where the platform has ``flock``.

    Two ``--fix`` runs on one tree serialise here; the second then sees, by re-reading
    the path, that the file is no longer what it analysed, and leaves it alone.
    """
    try:
        import fcntl
    except ImportError:  # Windows: the re-check below still applies
        yield
        return
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_atomic(path: Path, source: SourceText, new_text: str) -> None:
    """Write ``new_text`` in the file's encoding (and BOM), atomically, keeping its mode.

    The bytes go to a temporary file in the same directory, which then replaces
    the original with ``os.replace``; a failure leaves the original untouched and
    no temporary file behind. A symbolic link is followed, not replaced. Under a lock,
    the file is re-read first: if it is no longer ``source`` (another process or an
    editor changed it), nothing is written and :class:`FileChangedError` is raised.
    """
    data = new_text.encode(source.encoding)
    if source.bom and not data.startswith(codecs.BOM_UTF8):
        data = codecs.BOM_UTF8 + data
    target = Path(os.path.realpath(path))
    try:
        mode: Optional[int] = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    import tempfile

    from preflight.sources import InputRefused, read_bytes_limited

    with _locked(target):
        try:
            current: Optional[bytes] = read_bytes_limited(target)
        except FileNotFoundError:
            current = None
        except InputRefused as exc:  # replaced by a FIFO, a device or a huge file meanwhile
            raise FileChangedError(f"{source.display} changed since preflight read it ({exc})") from None
        if current is not None and current != source.raw:
            raise FileChangedError(f"{source.display} changed since preflight read it")
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".preflight-tmp",
                                   dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


# -- helpers -------------------------------------------------------------------

def _precheck(fix: Fix, selected: list[Fix], unsafe: bool) -> Optional[str]:
    if fix.applicability == Applicability.UNSAFE and not unsafe:
        return "unsafe fix; applied only with --unsafe-fixes"
    if fix.operation not in _OPERATIONS:
        return f"unknown fix operation {fix.operation!r}"
    for other in selected:
        if other.target == fix.target and other.operation == fix.operation and (
                other.params == fix.params):
            return "the same fix is already applied at this place"
        if _overlaps(other.target, fix.target):
            return "overlaps another fix applied in this run; run the fix again afterwards"
    return None


def _overlaps(a: Span, b: Span) -> bool:
    a_start, a_end = (a.line, a.column), (a.end_line, a.end_column)
    b_start, b_end = (b.line, b.column), (b.end_line, b.end_column)
    return a_start < b_end and b_start < a_end


def _key(span: Span) -> tuple[int, int, int, int]:
    """A Span (1-based columns) as LibCST positions (0-based columns, end exclusive)."""
    return (span.line, span.column - 1, span.end_line, span.end_column - 1)


def _order(fixes: Sequence[Fix], fix: Fix) -> int:
    for i, f in enumerate(fixes):
        if f is fix:
            return i
    return len(fixes)


def _cst_parses(text: str) -> bool:
    import libcst

    try:
        libcst.parse_module(text)
    except (libcst.ParserSyntaxError, RecursionError, ValueError):
        return False
    return True


# -- operations ----------------------------------------------------------------

_ATOMS = ("Name", "Attribute", "Call", "Subscript", "List", "Dict", "Set", "ListComp", "SetComp",
          "DictComp", "SimpleString", "FormattedString")


def _method_call(node: libcst.CSTNode, method: str) -> libcst.CSTNode:
    import libcst

    if not isinstance(node, libcst.BaseExpression):
        raise TypeError(f"cannot call .{method}() on a {type(node).__name__}")
    value = node
    if not node.lpar and type(node).__name__ not in _ATOMS:
        value = node.with_changes(lpar=[libcst.LeftParen()], rpar=[libcst.RightParen()])
    return libcst.Call(func=libcst.Attribute(value=value, attr=libcst.Name(method)))


@register_operation("detach")
def _detach(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
    """``v`` -> ``v.detach()`` (parenthesised when needed: ``(a + b).detach()``)."""
    return _method_call(node, "detach")


@register_operation("item")
def _item(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
    """``v`` -> ``v.item()``: a Python number instead of a 0-dim tensor."""
    return _method_call(node, "item")
