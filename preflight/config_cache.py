"""Cached results of ``check`` on one config file, valid while everything they read is unchanged.

Checking a config reads more than the file itself: a TrainingArguments file makes
:func:`preflight.validate_project.declared_fields` read every ``@dataclass`` of its project,
a Hydra file reads the files of its defaults list, PF60x reads the project's pins. Which
files those are is decided by the code, not declared anywhere, so the dependencies are
recorded while the config is checked:

- every file opened and every directory listed (``open``, ``os.listdir`` and ``os.scandir``
  audit events of the checking thread: whichever adapter or rule does the reading, and a
  file that was looked for and missing too, since the event comes before the open);
- the folder of each file opened, the config's folder and those above it up to the run's
  root, and each folder probed for a file by ``stat`` alone (:func:`note`: the project-root
  markers): a file appearing in them, such as a ``pyproject.toml`` that moves the project
  root or a defaults file that now exists, changes the folder's modification time;
- what a memoised helper read when it first ran (:func:`recorded_memo`).

Not recorded: what Python's import system reads (a module imported for the first time during
a check, its ``__pycache__`` and the ``sys.path`` folders) and what the registries and the
architecture catalog read when loaded (:class:`unrecorded`): preflight's own code and data,
covered by the cache key's build id and plugin fingerprint, and read only by whichever check
comes first in a process.

The entry (key: the cache's format, preflight's version and rule selection, the run's root,
the config's display name and content hash) stores the result with each dependency's
``stat`` (inode, size, modification and change times, or absent). It is used only while
every stamp is the same, so editing, touching, creating or removing any of them checks
the config again. A result whose dependencies were modified within the last two seconds is
not stored (a write in the same timestamp tick as the read would go unseen).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable, Optional, TypeVar

FORMAT = 1
_RECENT_NS = 2_000_000_000
_local = threading.local()
_hooked = False
_hook_lock = threading.Lock()
T = TypeVar("T")


class _Recorder:
    def __init__(self) -> None:
        self.paths: set[str] = set()  # opened files and listed folders
        self.opened: set[str] = set()


def _hook(event: str, args: tuple) -> None:
    rec = getattr(_local, "rec", None)
    if rec is None or event not in ("open", "os.listdir", "os.scandir"):
        return
    try:
        if _importing(sys._getframe(1)):
            return
        path = args[0] if args else None
        if path is None:
            path = "."
        if isinstance(path, int):  # a descriptor: what it names was recorded when opened
            return
        full = os.path.abspath(os.fsdecode(path))
    except Exception:  # an audit hook must never break the operation it watches
        return
    rec.paths.add(full)
    if event == "open":
        rec.opened.add(full)


def _importing(frame: Any) -> bool:
    """Whether Python's import system is on the stack: what it reads (a module's source or
    bytecode, the ``sys.path`` and package folders it lists, a file a module reads as it is
    imported) is preflight's and its libraries' code, loaded once per process whichever check
    comes first, never the checked project's (preflight does not import it). Recorded, it made
    a result depend on the process's history and on ``__pycache__`` folders other processes
    write into."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


class unrecorded:
    """Context manager: what the current thread reads inside it is no dependency of the
    recordings around it (the registries' one-time loading of rule and adapter modules and
    plugins: keyed by the build and the plugin fingerprint, not by a stamp)."""

    def __enter__(self) -> None:
        self.outer = getattr(_local, "rec", None)
        _local.rec = None

    def __exit__(self, *exc: Any) -> None:
        _local.rec = self.outer


def _install() -> None:
    global _hooked
    with _hook_lock:
        if not _hooked:
            sys.addaudithook(_hook)
            _hooked = True


class recording:
    """Context manager: what the current thread reads inside it (nested: the outer one too)."""

    def __enter__(self) -> _Recorder:
        _install()
        self.outer = getattr(_local, "rec", None)
        self.rec = _Recorder()
        _local.rec = self.rec
        return self.rec

    def __exit__(self, *exc: Any) -> None:
        _local.rec = self.outer
        if self.outer is not None:
            self.outer.paths |= self.rec.paths
            self.outer.opened |= self.rec.opened


def note_opened(path: str) -> None:
    """Record a file as read when its content comes from an in-process cache (a parse kept
    by :mod:`preflight.local_trees`) rather than from an ``open`` the audit events show."""
    rec = getattr(_local, "rec", None)
    if rec is not None:
        full = os.path.abspath(path)
        rec.paths.add(full)
        rec.opened.add(full)


def note(path: str) -> None:
    """Record a dependency the audit events do not show (a folder probed with ``stat``)."""
    rec = getattr(_local, "rec", None)
    if rec is not None:
        rec.paths.add(os.path.abspath(path))


def recorded_memo(fn: Callable[[str], T]) -> Callable[[str], T]:
    """Memoise a one-argument helper that reads files (like ``functools.lru_cache``), and
    replay what it read into the active recording on every later call, so a cached config
    result depends on those files whether or not this run computed the value.

    A held value is used only while everything it read keeps its stamp: a long-running
    process (``preflight lsp``, ``serve``) that re-checks after a module of the project was
    rewritten, added or removed computes it again instead of answering from the old files.
    A value whose files were written within the last two seconds is recomputed on every call
    (a write in the same timestamp tick as the read would not change the stamp)."""
    memo: dict[str, tuple[T, frozenset[str], frozenset[str], Optional[dict[str, Optional[list[int]]]]]] = {}
    lock = threading.Lock()

    def fresh(held: tuple[Any, frozenset[str], frozenset[str], Optional[dict[str, Optional[list[int]]]]]) -> bool:
        stamps = held[3]
        return stamps is not None and all(_stamp(path) == stamp for path, stamp in stamps.items())

    def wrapper(arg: str) -> T:
        held = memo.get(arg)
        if held is None or not fresh(held):
            with recording() as rec:
                value = fn(arg)
            held = (value, frozenset(rec.paths), frozenset(rec.opened), _read_stamps(rec))
            with lock:
                if len(memo) >= 8:
                    memo.clear()
                memo[arg] = held
        else:
            active = getattr(_local, "rec", None)
            if active is not None:
                active.paths |= held[1]
                active.opened |= held[2]
        return held[0]

    wrapper.cache_clear = memo.clear  # type: ignore[attr-defined]
    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _read_stamps(rec: _Recorder) -> Optional[dict[str, Optional[list[int]]]]:
    """Stamp of each file and folder a memoised helper read (and the folders of the files it
    opened: a file added beside them); None when one was written too recently to trust."""
    paths = set(rec.paths)
    paths.update(os.path.dirname(p) for p in rec.opened)
    now = time.time_ns()
    out: dict[str, Optional[list[int]]] = {}
    for path in sorted(paths):
        stamp = _stamp(path)
        if stamp is not None and now - stamp[2] < _RECENT_NS:
            return None
        out[path] = stamp
    return out


def _stamp(path: str) -> Optional[list[int]]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def dependencies(rec: _Recorder, config: str, root: str) -> Optional[dict[str, Optional[list[int]]]]:
    """Path -> stamp of everything a check depended on; None when one of them changed too
    recently to trust its stamp."""
    paths = set(rec.paths)
    paths.update(os.path.dirname(p) for p in rec.opened)
    folder = os.path.dirname(os.path.abspath(config))
    top = os.path.abspath(root)
    paths.add(folder)
    while folder.startswith(top + os.sep):  # the folders up to the run's root
        folder = os.path.dirname(folder)
        paths.add(folder)
    now = time.time_ns()
    out: dict[str, Optional[list[int]]] = {}
    for path in sorted(paths):
        stamp = _stamp(path)
        if stamp is not None and now - stamp[2] < _RECENT_NS:  # written within the last 2 s
            return None
        out[path] = stamp
    return out


class Stamps:
    """The stamps seen in this run (one ``stat`` per path however many entries name it)."""

    def __init__(self) -> None:
        self.seen: dict[str, Optional[list[int]]] = {}

    def unchanged(self, deps: Any) -> bool:
        if not isinstance(deps, dict):
            return False
        for path, stamp in deps.items():
            if path not in self.seen:
                self.seen[path] = _stamp(path)
            if self.seen[path] != stamp:
                return False
        return True
