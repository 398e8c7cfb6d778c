"""Content-hash cache of per-file results.

A file's entry is keyed by the running build of preflight (its version and the
size and modification time of every file of the package: ``_build_id``), the rule
selection and the file's bytes, so any change to one of them misses. Entries are written
atomically; an unreadable or corrupt entry is a miss, never an error.

The cache directory is untrusted input like any other file preflight reads (it
sits in the checked tree): each entry carries a keyed BLAKE2b hash of its key and
its content, under a secret of 32 random bytes in ``<cache>/key`` (created
``0600``; refused when another user owns it or others may read or write it). An
entry whose hash does not match (edited to drop a finding, copied from another
file's entry, written without the key) is ignored and the file checked again; an
entry is read with the same size limit as a source file and parsed without
recursion limits killing the run.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Optional

from preflight._hash import blake2b, compare_digest
from preflight.diagnostics import (
    Applicability,
    Category,
    Evidence,
    FileError,
    Finding,
    Fix,
    Severity,
    Span,
)

CACHE_DIR_NAME = ".preflight_cache"
FORMAT = 2
KEY_NAME = "key"
_MAGIC = b"preflight-cache 2 "
# cache dir -> (what the key file was when read, its secret or None: this cache is not used)
_KEYS: dict[str, tuple[Optional[tuple[int, ...]], Optional[bytes]]] = {}


def default_dir(root: Path) -> Optional[str]:
    path = root / CACHE_DIR_NAME
    try:
        path.mkdir(exist_ok=True)
        gitignore = path / ".gitignore"
        if not gitignore.exists():
            gitignore.write_text("# created by preflight\n*\n")
    except OSError:
        return None
    return str(path)


def key(selection: str, display: str, digest: str) -> str:
    text = f"{FORMAT}\0{selection}\0{display}\0{digest}"
    return blake2b(text.encode(), digest_size=16).hexdigest()


def _entry(cache_dir: str, k: str) -> str:
    return os.path.join(cache_dir, k[:2], k + ".json")


def secret(cache_dir: str) -> Optional[bytes]:
    """The cache's secret key, created on first use; None when it cannot be trusted (another
    user owns it, others may read or write it, it is not a regular file) or made."""
    path = os.path.join(cache_dir, KEY_NAME)
    memo = cache_dir if os.path.isabs(cache_dir) else os.path.abspath(cache_dir)  # no getcwd per entry
    stamp = _stamp(path)
    known = _KEYS.get(memo)
    if known is not None and stamp is not None and known[0] == stamp:
        return known[1]  # one stat per entry: a cache directory removed and made again is seen
    value: Optional[bytes] = None
    try:
        if os.name == "posix":
            import stat

            st = os.stat(cache_dir)
            if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
                raise PermissionError("anyone may replace the key")  # the cache is not used
        value = _read_key(path)
    except FileNotFoundError:
        # written whole to a private name, then linked into place: a concurrent run either
        # sees no key yet or the complete one, and exactly one key wins
        tmp = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
        with contextlib.suppress(OSError):
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(32))
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        with contextlib.suppress(OSError):
            value = _read_key(path)
    except OSError:
        value = None
    _KEYS[memo] = (_stamp(path), value)
    return value


def _stamp(path: str) -> Optional[tuple[int, ...]]:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_mode, st.st_uid)


def _read_key(path: str) -> Optional[bytes]:
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if os.name == "posix" and (st.st_uid != os.geteuid() or st.st_mode & 0o077):
            return None
        data = os.read(fd, 64)
    finally:
        os.close(fd)
    return data if len(data) == 32 else None


def _mac(key: bytes, k: str, payload: bytes) -> bytes:
    return blake2b(k.encode() + b"\0" + payload, key=key, digest_size=32).hexdigest().encode()


def load_payload(cache_dir: str, k: str):
    """The JSON value stored under ``k`` when its hash holds, else None."""
    from preflight.sources import read_bytes_limited

    key = secret(cache_dir)
    if key is None:
        return None
    try:
        raw = read_bytes_limited(_entry(cache_dir, k))
        head, _, payload = raw.partition(b"\n")
        if not head.startswith(_MAGIC) or not compare_digest(head[len(_MAGIC):], _mac(key, k, payload)):
            return None  # edited, moved, or not written by this cache: check the file again
        return json.loads(payload.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def load(cache_dir: str, k: str):
    from preflight.engine import FileResult

    data = load_payload(cache_dir, k)
    if data is None:
        return None
    try:
        return FileResult(
            display=data["display"],
            findings=[_finding(d) for d in data["findings"]],
            errors=[FileError(**e) for e in data["errors"]],
            skipped=bool(data.get("skipped")),
        )
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
        return None


def store(cache_dir: str, k: str, result) -> None:
    data = {
        "display": result.display,
        "findings": [_dump(f) for f in result.findings],
        "errors": [{"path": e.path, "message": e.message, "line": e.line, "column": e.column}
                   for e in result.errors],
        "skipped": result.skipped,
    }
    store_payload(cache_dir, k, data)


def store_payload(cache_dir: str, k: str, data) -> None:
    """Store a JSON value under ``k``, with its keyed hash."""
    key = secret(cache_dir)
    if key is None:
        return
    payload = json.dumps(data, separators=(",", ":")).encode("utf-8")
    path = _entry(cache_dir, k)
    # a private temporary name beside the entry, then an atomic rename (``tempfile`` would
    # cost a one-file check more than the write itself)
    tmp = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC + _mac(key, k, payload) + b"\n" + payload)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _dump(f: Finding) -> dict:
    return {
        "code": f.code, "severity": f.severity.label, "category": f.category.value,
        "path": f.path, "span": [f.span.line, f.span.column, f.span.end_line, f.span.end_column],
        "message": f.message,
        "evidence": [[e.line, e.column, e.message, e.path] for e in f.evidence],
        "fix": None if f.fix is None else {
            "description": f.fix.description, "operation": f.fix.operation,
            "target": [f.fix.target.line, f.fix.target.column, f.fix.target.end_line, f.fix.target.end_column],
            "applicability": f.fix.applicability.value, "params": [list(p) for p in f.fix.params],
        },
        "cell": f.cell, "source_line": f.source_line, "analysed_lines": list(f.analysed_lines),
    }


def _finding(d: dict) -> Finding:
    fix = d["fix"]
    return Finding(
        code=d["code"], severity=Severity.parse(d["severity"]), category=Category(d["category"]),
        path=d["path"], span=Span(*d["span"]), message=d["message"],
        evidence=[Evidence(line=e[0], column=e[1], message=e[2], path=e[3]) for e in d["evidence"]],
        fix=None if fix is None else Fix(
            description=fix["description"], operation=fix["operation"], target=Span(*fix["target"]),
            applicability=Applicability(fix["applicability"]),
            params=tuple((p[0], p[1]) for p in fix["params"])),
        cell=d["cell"], source_line=d["source_line"], analysed_lines=tuple(d["analysed_lines"]),
    )


finding_dump = _dump
finding_from = _finding
