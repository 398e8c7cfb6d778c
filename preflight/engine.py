"""The check engine: files in, findings and errors out.

One file is read once, parsed once (stdlib ``ast``), indexed once, and every
selected rule runs over that shared context. Large trees are split over a
process pool whose output is identical to a single-process run, and results
are cached by content hash so an unchanged tree re-checks quickly.
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Sequence, Union

from preflight._record import dataclass, field
from preflight.diagnostics import FileError, Finding, Severity
from preflight.sources import ParsedPython, SourceText, parse_python, read_source
from preflight.workspace import Discovered

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

POOL_THRESHOLD = 24  # fewer files than this are checked in-process

_SKIP_FILE_RE = re.compile(r"#\s*preflight:\s*skip-file\b", re.I)


@dataclass(frozen=True)
class Selection:
    """Which rules run, how severe they are, and which files ignore which codes."""

    codes: tuple[str, ...]
    severity_overrides: tuple[tuple[str, str], ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    plugins: tuple[str, ...] = ()  # registry.plugin_fingerprint(): cached results follow plugin edits

    def fingerprint(self) -> str:
        known = _FINGERPRINTS.get(self)  # asked once per file of a cached run: computed once
        if known is not None:
            return known
        from preflight._build_id import build_id
        from preflight._hash import blake2b

        text = repr((build_id(), self.codes, self.severity_overrides, self.per_file_ignores,
                     self.plugins))
        value = blake2b(text.encode(), digest_size=12).hexdigest()
        if len(_FINGERPRINTS) > 64:
            _FINGERPRINTS.clear()
        _FINGERPRINTS[self] = value
        return value


_FINGERPRINTS: dict[Selection, str] = {}


@dataclass
class FileResult:
    display: str
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    cached: bool = False
    skipped: bool = False  # '# preflight: skip-file'
    digest: Optional[str] = None  # of the bytes analysed (fixes refuse a file that changed since)


@dataclass
class RunResult:
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files_checked: int = 0
    files_cached: int = 0
    files_skipped: int = 0
    fixes_applied: int = 0
    elapsed: float = 0.0
    suppressed_by_baseline: int = 0
    no_python_files: bool = False  # `check` found no Python file or notebook to check
    digests: dict[str, str] = field(default_factory=dict)  # display -> digest analysed

    def sort(self) -> None:
        self.findings.sort(key=lambda f: f.sort_key())
        self.errors.sort(key=lambda e: e.sort_key())

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "note": 0}
        for f in self.findings:
            out[f.severity.label] += 1
        return out


# -- suppressions -------------------------------------------------------------

_KNOWN_CODES: list[tuple[str, ...]] = []


def _known_codes() -> tuple[str, ...]:
    if not _KNOWN_CODES:
        from preflight.registry import rule_codes

        _KNOWN_CODES.append(tuple(rule_codes()))
    return _KNOWN_CODES[0]


def suppressed_codes(comment: str) -> Optional[set[str]]:
    """Codes a comment suppresses: None for none, empty set for all (see
    :mod:`preflight.suppressions`; an invalid code silences nothing)."""
    from preflight.suppressions import interpret

    found = interpret(comment, _known_codes())
    if found is None:
        return None
    if found.codes is None:
        return set()
    return set(found.codes) if found.codes else None


def _suppressing(finding: Finding, comments: dict[int, str]) -> Optional[tuple[int, str]]:
    """The (line, code or prefix; '' for a bare comment) that silences ``finding``, or None."""
    if not comments:
        return None
    from preflight.suppressions import interpret, silences

    first, last = finding.analysed_lines if finding.analysed_lines != (0, 0) else (
        finding.span.line, finding.span.end_line)
    for line in range(first, last + 1):
        comment = comments.get(line)
        if comment is None:
            continue
        by = silences(interpret(comment, _known_codes()), finding.code)
        if by is not None:
            return line, by
    return None


def is_suppressed(finding: Finding, comments: dict[int, str]) -> bool:
    return _suppressing(finding, comments) is not None


def _per_file_ignored(display: str, code: str, per_file: Sequence[tuple[str, tuple[str, ...]]]) -> bool:
    from preflight.codes import code_matches
    from preflight.workspace import _matches

    return any(_matches(display, (pattern,)) and any(code_matches(code, c) for c in codes)
               for pattern, codes in per_file)


# -- one file -----------------------------------------------------------------

_RULE_INSTANCES: dict[tuple[str, ...], list] = {}
_INSTANCE_OF: dict[type, Any] = {}


def _rules_for(codes: tuple[str, ...]) -> list:
    rules = _RULE_INSTANCES.get(codes)
    if rules is None:
        from preflight.registry import file_rules

        rules = []
        for cls in file_rules(codes):  # one instance per rule class, whatever the subset
            rule = _INSTANCE_OF.get(cls)
            if rule is None:
                rule = _INSTANCE_OF[cls] = cls()
            rules.append(rule)
        _RULE_INSTANCES[codes] = rules
    return rules


def _codes_for_text(codes: tuple[str, ...], ctx: FileContext) -> tuple[str, ...]:
    """The codes among ``codes`` whose rule can fire on the file: a built-in rule whose
    ``needs_text`` (from the generated ``_needs.py``) holds no string the file mentions is left out,
    so its module is not even imported. ``FileContext.mentions`` reads the text as written
    and in the NFKC form in which Python reads identifiers (``ｌｒ`` is ``lr``)."""
    from preflight.rules._needs import NEEDS

    found = ctx.mentioned(_needed_strings())
    kept = []
    for code in codes:
        needs = NEEDS.get(code)
        if needs is None or not found.isdisjoint(needs):
            kept.append(code)
    return codes if len(kept) == len(codes) else tuple(kept)


_NEEDED: list[frozenset[str]] = []


def _needed_strings() -> frozenset[str]:
    """Every string some rule's ``needs_text`` names: each is looked for once per file."""
    if not _NEEDED:
        from preflight.rules._needs import NEEDS

        _NEEDED.append(frozenset(n for needs in NEEDS.values() for n in needs))
    return _NEEDED[0]


def whom_to_tell(module: str) -> str:
    """Where a bug in the rule or adapter defined in ``module`` should be reported."""
    if module.startswith("preflight."):
        return "please report this to preflight"
    return f"report this to the authors of the plugin that provides it ({module})"


def rule_failure(code: str, module: str, exc: BaseException, where: str = "this file") -> str:
    """The message for a rule that raised: which rule, what, and whom to tell."""
    return (f"rule {code} failed on {where} ({type(exc).__name__}: {exc}); its findings are "
            f"missing, the other rules ran; {whom_to_tell(module)}")


def analyse_parsed(parsed: ParsedPython, selection: Selection,
                   errors: Optional[list[FileError]] = None) -> list[Finding]:
    """Run the selected rules over one parsed file; suppressions applied.

    A rule that raises is one error in ``errors`` (the other rules still run), so neither
    a bug in a built-in rule nor one in a plugin stops a run; without ``errors`` (the
    tests) the exception propagates.
    """
    from preflight.analysis.context import FileContext

    if parsed.may_skip_file() and any(_SKIP_FILE_RE.search(c) for c in parsed.comment_lines.values()):
        return []
    ctx = FileContext(parsed)
    overrides = dict(selection.severity_overrides)
    out: list[Finding] = []
    used: set[tuple[int, str]] = set()
    for rule in _rules_for(_codes_for_text(selection.codes, ctx)):
        try:
            produced = list(rule.check(ctx))
        except RecursionError:
            continue  # pathological nesting: the rule gives up on this file, quietly
        except Exception as exc:
            if errors is None:
                raise
            errors.append(FileError(parsed.source.display, rule_failure(rule.code, type(rule).__module__, exc)))
            continue
        for finding in produced:
            by = _suppressing(finding, parsed.comment_lines)
            if by is not None:
                used.add(by)
                continue
            if finding.code in overrides:
                finding.severity = Severity.parse(overrides[finding.code])
            out.append(finding)
    # invalid and unused suppression codes: only a file that mentions one is tokenized
    if ({"PF901", "PF902"} & set(selection.codes)) and parsed.may_suppress() and parsed.comment_lines:
        from preflight.rules.meta.pf901_invalid_suppression import suppression_findings

        for finding in suppression_findings(ctx, selection.codes, used, _known_codes()):
            if not is_suppressed(finding, parsed.comment_lines):
                if finding.code in overrides:
                    finding.severity = Severity.parse(overrides[finding.code])
                out.append(finding)
    ctx.release()  # the file's tree and analyses go by reference counting (see _check_each)
    out.sort(key=lambda f: f.sort_key())
    return out


def check_one(item: Discovered, selection: Selection, cache_dir: Optional[str]) -> FileResult:
    result = FileResult(item.display)
    source = read_source(item.path, item.display, item.kind)
    if isinstance(source, FileError):
        result.errors.append(source)
        return result
    key = None
    digest = source.digest  # a hash of the whole file: computed once
    if cache_dir is not None:
        from preflight import cache

        key = cache.key(selection.fingerprint(), item.display, digest)
        hit = cache.load(cache_dir, key)
        if hit is not None:
            hit.cached = True
            hit.digest = digest
            return hit
    result.digest = digest
    parsed = parse_python(source)
    if isinstance(parsed, FileError):
        result.errors.append(parsed)
    else:
        result.errors.extend(parsed.cell_errors)  # notebook cells that could not be parsed
        if parsed.may_skip_file() and any(_SKIP_FILE_RE.search(c) for c in parsed.comment_lines.values()):
            result.skipped = True
        from preflight.analysis.project_imports import begin_reads, reads_other_files

        begin_reads()
        findings = analyse_parsed(parsed, selection, result.errors)
        result.findings = [f for f in findings
                           if not _per_file_ignored(item.display, f.code, selection.per_file_ignores)]
        if reads_other_files():
            key = None  # the result depends on another module of the project: not cached by this file's bytes
    if key is not None and cache_dir is not None:
        from preflight import cache

        cache.store(cache_dir, key, result)
    return result


def parse_file(item: Discovered) -> Union[ParsedPython, FileError]:
    source = read_source(item.path, item.display, item.kind)
    if isinstance(source, (FileError,)):
        return source
    assert isinstance(source, SourceText)
    return parse_python(source)


# -- many files ---------------------------------------------------------------

def _worker_init() -> None:
    import contextlib
    import signal

    with contextlib.suppress(ValueError, OSError):  # Ctrl-C reaches the whole process group:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone stops the pool
    from preflight.registry import rule_codes

    rule_codes()  # plugins register here too (a spawned worker starts empty)


def _check_chunk(args: tuple[list[Discovered], Selection, Optional[str]]) -> list[FileResult]:
    items, selection, cache_dir = args
    return list(_check_each(items, selection, cache_dir))


def _check_each(items: Iterable[Discovered], selection: Selection,
                cache_dir: Optional[str]) -> Iterator[FileResult]:
    """``check_one`` over ``items`` with the garbage collector run by hand: off while a file
    is analysed, and its youngest generation collected after each file. A file's syntax tree
    and analyses are freed together then, in time proportional to that file; the automatic
    collector would instead move them to older generations and rescan the whole heap in full
    collections, whose cost grows with the tree being checked. ``FileContext.release`` breaks
    the analyses' cycles at the end of each file, so that collection finds almost nothing."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        for i, item in enumerate(items, start=1):
            result = check_one(item, selection, cache_dir)
            # what a file left reachable for a moment moved on to generation 1: swept now and then
            gc.collect(1 if i % 100 == 0 else 0)
            yield result
    finally:
        if enabled:
            gc.enable()


def check_files(
    files: Sequence[Discovered],
    selection: Selection,
    *,
    jobs: int = 1,
    cache_dir: Optional[str] = None,
    progress=None,
) -> RunResult:
    """Check Python sources and notebooks; the result is sorted and deterministic."""
    start = time.perf_counter()
    run = RunResult()
    results: Iterable[FileResult]
    if jobs > 1 and len(files) >= POOL_THRESHOLD:
        results = _pooled(list(files), selection, jobs, cache_dir, progress)
    else:
        results = _serial(files, selection, cache_dir, progress)
    try:
        for res in results:
            run.files_checked += 1
            run.files_cached += int(res.cached)
            run.files_skipped += int(res.skipped)
            run.findings.extend(res.findings)
            run.errors.extend(res.errors)
            if res.digest is not None:
                run.digests[res.display] = res.digest
    finally:
        # A Ctrl-C that lands here, between two results, leaves the generator suspended: close it
        # now, so that a pool stops its workers at once (its ``finally``) instead of whenever the
        # generator is collected, after the interpreter's exit has waited for the queued chunks.
        close = getattr(results, "close", None)
        if close is not None:
            close()
    run.sort()
    run.elapsed = time.perf_counter() - start
    return run


def _serial(files, selection, cache_dir, progress):
    for i, result in enumerate(_check_each(files, selection, cache_dir), start=1):
        yield result
        if progress is not None:
            progress(i, len(files))


def _pooled(files: list[Discovered], selection: Selection, jobs: int, cache_dir, progress):
    import concurrent.futures as cf
    import multiprocessing

    # Chunks of roughly equal byte size keep the workers evenly loaded.
    n_chunks = max(jobs * 4, 1)
    chunks: list[list[Discovered]] = [[] for _ in range(n_chunks)]
    sizes = [0] * n_chunks
    def _size(d: Discovered) -> int:
        try:
            return os.stat(d.path).st_size
        except OSError:
            return 0
    for item in sorted(files, key=_size, reverse=True):
        i = sizes.index(min(sizes))
        chunks[i].append(item)
        sizes[i] += _size(item) + 1
    chunks = [c for c in chunks if c]
    try:
        ctx = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
        executor = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init)
    except (OSError, ValueError):
        yield from _serial(files, selection, cache_dir, progress)
        return
    done = 0
    pending = set(range(len(chunks)))
    finished = False
    try:
        futures = {executor.submit(_check_chunk, (chunk, selection, cache_dir)): i
                   for i, chunk in enumerate(chunks)}
        try:
            for fut in cf.as_completed(futures):
                results = fut.result()
                pending.discard(futures[fut])
                for res in results:
                    done += 1
                    yield res
                if progress is not None:
                    progress(done, len(files))
        except cf.process.BrokenProcessPool:
            pass  # a worker died (memory, signal): finish what is left in-process
        finished = True
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:  # Ctrl-C, or the caller stopped early: do not wait for the queued chunks
            _stop_pool(executor)
    for i in sorted(pending):
        yield from _serial(chunks[i], selection, cache_dir, None)


def _stop_pool(executor) -> None:
    """Cancel what is queued and end the workers now, leaving none behind."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    try:
        executor.shutdown(wait=False, cancel_futures=True)
    except TypeError:  # pragma: no cover - Python 3.8 had no cancel_futures
        executor.shutdown(wait=False)
    for proc in processes:
        proc.terminate()
    for proc in processes:
        proc.join(timeout=1.0)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=1.0)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


