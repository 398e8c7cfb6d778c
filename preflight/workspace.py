"""Finding the files to analyse.

Discovery walks the given paths once, skips what never holds user training code
(VCS metadata, virtual environments, build output, installed packages) and what
the configuration excludes, and reports unreadable paths and symlink loops as
per-file errors instead of stopping.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path, PurePosixPath
from typing import Iterable, Optional, Sequence

from preflight._record import dataclass, field
from preflight.diagnostics import FileError
from preflight.sources import kind_of, kind_of_name

# Directory names that never hold the user's own sources. A virtual environment is
# recognised by its pyvenv.cfg whatever its name; bare names such as "env" or
# "dist" are not excluded, because real projects keep training code there.
DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr",
        ".venv", "__pycache__", ".tox", ".nox", ".eggs",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".preflight_cache",
        ".ipynb_checkpoints", "build", "site-packages", "node_modules",
    }
)


@dataclass(frozen=True)
class Discovered:
    path: Path  # as given or found (not resolved, so links keep their names)
    display: str  # relative to the project root when inside it, POSIX separators
    kind: str


@dataclass
class Discovery:
    files: list[Discovered] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)

    def of_kind(self, *kinds: str) -> list[Discovered]:
        return [f for f in self.files if f.kind in kinds]


def display_path(path: Path, root: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive on Windows
        return path.as_posix()
    if rel.startswith(".."):
        return os.path.abspath(path).replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def _prefix(directory: Path, root: Path) -> Optional[str]:
    """What :func:`display_path` gives for an entry of ``directory``, less the entry's name:
    its path relative to ``root`` when it is ``root`` or below it, its absolute path when
    nothing below it is in ``root``; None when not known without asking per entry."""
    try:
        folder = os.path.abspath(directory)
        rel = os.path.relpath(folder, root)
    except ValueError:  # another drive on Windows
        return None
    if not rel.startswith(".."):
        return "" if rel == "." else rel.replace(os.sep, "/") + "/"
    top = os.path.abspath(root)
    if (rel != ".." and not rel.startswith(".." + os.sep)) or top.startswith(os.path.join(folder, "")):
        return None  # a folder named "..x", or root lies below this folder
    return os.path.join(folder, "").replace(os.sep, "/")


def _matches(rel: str, patterns: Sequence[str]) -> bool:
    if not patterns:
        return False
    name = rel.rsplit("/", 1)[-1]
    pure = PurePosixPath(rel)
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(rel, pat):
            return True
        if "/" in pat and pure.match(pat):
            return True
        # a pattern naming a directory excludes everything below it
        if rel.startswith(pat + "/"):
            return True
    return False


def discover(
    paths: Iterable[Path],
    root: Path,
    exclude: Sequence[str] = (),
    kinds: frozenset[str] = frozenset({"python", "notebook", "json", "yaml", "toml", "shell"}),
) -> Discovery:
    """Files under ``paths`` whose kind is in ``kinds``, sorted, without duplicates.

    A file named explicitly is always taken if its kind is known (as ruff does);
    ``exclude`` patterns apply to what a directory walk finds.
    """
    out = Discovery()
    seen: set[str] = set()

    def add(path: Path, display: Optional[str] = None, kind: Optional[str] = None,
            key: Optional[str] = None) -> None:
        if kind is None:
            kind = kind_of(path)
        if kind is None or kind not in kinds:
            return
        if key is None:
            key = os.path.abspath(path)
        if key in seen:
            return
        seen.add(key)
        out.files.append(Discovered(path, display_path(path, root) if display is None else display, kind))

    for given in paths:
        disp = display_path(given, root)
        try:
            st = os.stat(given)  # os.stat, as the rest of the walk (pathlib binds its own on 3.9)
        except OSError as exc:
            import errno

            if exc.errno == errno.ELOOP:
                out.errors.append(FileError(disp, "symbolic link loop; skipped"))
            elif exc.errno == errno.ENOENT:
                out.errors.append(FileError(disp, "no such file or directory"))
            else:
                from preflight.sources import _os_reason

                out.errors.append(FileError(disp, _os_reason(exc)))
            continue
        import stat as _stat

        if _stat.S_ISDIR(st.st_mode):
            _walk(given, root, exclude, add, out)
        elif kind_of(given) is None:
            out.errors.append(FileError(disp, "not a file type preflight reads "
                                        "(.py, .ipynb, .json, .yaml, .yml, .toml, .sh, .sbatch)"))
        else:
            add(given)
    out.files.sort(key=lambda f: f.display)
    out.errors.sort(key=lambda e: e.sort_key())
    return out


def _is_venv(directory: Path) -> bool:
    """Whether ``directory`` holds a virtual environment; False when it cannot be looked into
    (a mode-000 directory: listing it then says so, once, and the walk goes on)."""
    try:
        return (directory / "pyvenv.cfg").is_file()
    except OSError:  # Path.is_file raises PermissionError before Python 3.14
        return False


def _walk(top: Path, root: Path, exclude: Sequence[str], add, out: Discovery) -> None:
    visited: set[tuple[int, int]] = set()
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            st = directory.stat()
        except OSError as exc:
            out.errors.append(FileError(display_path(directory, root), f"cannot read directory: {exc.strerror or exc}"))
            continue
        ident = (st.st_dev, st.st_ino)
        if ident in visited:
            out.errors.append(
                FileError(display_path(directory, root), "symbolic link loop (directory already visited); skipped")
            )
            continue
        visited.add(ident)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            reason = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
            out.errors.append(FileError(display_path(directory, root), f"cannot list directory: {reason}; skipped"))
            continue
        subdirs: list[Path] = []
        prefix = _prefix(directory, root)
        folder = os.path.abspath(directory)
        for entry in entries:
            # strings until an entry is kept: a Path per entry costs more than the rest of the walk
            name = entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir:
                if name in DEFAULT_EXCLUDED_DIRS or name.endswith(".egg-info"):
                    continue
            else:
                kind = kind_of_name(name)
                if kind is None:
                    continue
            if prefix is None or (not prefix and name.startswith("..")):
                rel = display_path(Path(entry.path), root)
            else:
                rel = prefix + name
            if _matches(rel, exclude):
                continue
            path = directory / name  # parses the name only, not the whole path again
            if is_dir:
                if _is_venv(path):
                    continue
                subdirs.append(path)
                continue
            if entry.is_symlink() and not os.path.exists(path):
                try:
                    os.stat(path)
                except OSError as exc:
                    import errno

                    if exc.errno == errno.ELOOP:
                        out.errors.append(FileError(rel, "symbolic link loop; skipped"))
                    else:
                        out.errors.append(FileError(rel, "broken symbolic link; skipped"))
                continue
            add(path, rel, kind, os.path.join(folder, name))
        stack.extend(reversed(subdirs))
