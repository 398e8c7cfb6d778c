"""Which Lightning releases a project's requirements let pip install (det114, helper of PF568).

``find_version`` reads a pin or a lower bound; a removed-hook check also needs the other readings: a bare
``pytorch_lightning`` line (a fresh install gets the newest release: held-out-43's RAVE issue 219, where the
day Lightning 2.0 came out every new install stopped with NotImplementedError for ``validation_epoch_end``) and
a range whose upper bound lets a later release in (``pytorch-lightning>=1.7,<2.0`` installs 1.9, which no longer
has ``on_epoch_end``: held-out-43's CTCNet issue 8). Read without importing anything: ``requirement*.txt`` lines,
quoted requirement strings of ``pyproject.toml`` / ``setup.py``, and ``- name`` lines of ``environment.yml``, in
the script's folder and its parents up to the project root (the nearest folder that names the package wins).

A declared torch pin below what the Lightning release needs (``torch>=1.11`` for 2.0, ``torch>=1.9`` for 1.8,
their setup requirements) makes pip resolve an older Lightning: then no newer release is said to be allowed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from preflight._record import dataclass
from preflight.sources import read_text_limited

_FILES = ("requirement*.txt", "pyproject.toml", "setup.py", "environment.yml", "environment.yaml")
_NAMES = {"pytorch-lightning": r"pytorch[-_]lightning", "lightning": r"lightning"}
_SPEC = re.compile(r"(==|===|>=|<=|~=|!=|<|>)\s*v?(\d+(?:\.\d+)*)")
# the oldest torch each Lightning release accepts (setup requirements of pytorch-lightning 1.8.0 and 2.0.0)
_TORCH_FLOOR = {(1, 8): (1, 9), (2, 0): (1, 11)}
_MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class Allowed:
    """A requirement of Lightning: the specifier text, where it is, and the newest release it admits
    (None: no upper bound, the newest published release)."""

    package: str
    spec: str
    where: str
    pinned: Optional[tuple[int, ...]]
    upper: Optional[tuple[int, ...]]
    upper_inclusive: bool

    def admits(self, *release: int) -> bool:
        """Whether pip may install ``release`` or a later one under this requirement."""
        if self.pinned is not None:
            return self.pinned >= release
        if self.upper is None:
            return True
        return self.upper >= release if self.upper_inclusive else self.upper > release

    def describe(self) -> str:
        if self.pinned is not None:
            return f"`{self.spec}` ({self.where}, pinned)"
        if self.upper is None:
            return f"`{self.spec}` ({self.where}: no upper bound, a fresh install gets the newest release)"
        return f"`{self.spec}` ({self.where}: the range admits releases up to its upper bound)"


def _parts(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _read(path: Path) -> Optional[str]:
    try:
        return read_text_limited(path, _MAX_BYTES, errors="replace")
    except OSError:  # InputRefused (too large, not a regular file) is an OSError
        return None


def _line_pattern(path: Path, name: str) -> re.Pattern[str]:
    req = rf"(?<![\w.-]){name}(?![\w.-])\s*(?:\[[^\]]*\])?\s*([^\"';#\n]*)"
    if path.name.startswith("requirement"):
        return re.compile(rf"^\s*{req}", re.IGNORECASE)
    if path.suffix in (".yml", ".yaml"):
        return re.compile(rf"^\s*-\s*{req}", re.IGNORECASE)
    return re.compile(rf"[\"']\s*{req}[\"']", re.IGNORECASE)


def _parse(package: str, spec: str, where: str) -> Allowed:
    pinned: Optional[tuple[int, ...]] = None
    upper: Optional[tuple[int, ...]] = None
    inclusive = False
    for op, number in _SPEC.findall(spec):
        version = _parts(number)
        if op in ("==", "==="):
            pinned = version
        elif op in ("<", "<=") and (upper is None or version < upper):
            upper, inclusive = version, op == "<="
        elif op == "~=" and len(version) > 1:
            cap = (*version[:-2], version[-2] + 1)
            if upper is None or cap <= upper:
                upper, inclusive = cap, False
    return Allowed(package, spec.strip(), where, pinned, upper, inclusive)


def _in_folder(package: str, folder: Path, top: Path) -> list[Allowed]:
    out: list[Allowed] = []
    for pattern in _FILES:
        for path in sorted(folder.glob(pattern)):
            text = _read(path)
            if text is None:
                continue
            regex = _line_pattern(path, _NAMES[package])
            for number, line in enumerate(text.splitlines(), 1):
                match = regex.search(line.split("#", 1)[0] if path.suffix != ".py" else line)
                if match is None or match.group(1).strip().startswith(("@", "/")):
                    continue
                try:
                    shown = path.relative_to(top).as_posix()
                except ValueError:
                    shown = path.as_posix()
                spec = line.strip().strip("-").strip().strip("\"',")
                out.append(_parse(package, spec, f"{shown}:{number}"))
    return out


def lightning_allowed(package: str, start: Path, root: Path) -> Optional[Allowed]:
    """The requirement of ``package`` ("pytorch-lightning" or "lightning") nearest to ``start``: a pin among
    the folder's files wins, else the tightest upper bound, else the bare/lower-bounded line."""
    folder, top = start.resolve(), root.resolve()
    while True:
        found = _in_folder(package, folder, top)
        if found:
            pins = [a for a in found if a.pinned is not None]
            if pins:
                return pins[0]
            capped = [a for a in found if a.upper is not None]
            return min(capped, key=lambda a: a.upper or ()) if capped else found[0]
        if folder == top or folder.parent == folder or top not in folder.parents:
            return None
        folder = folder.parent


def torch_holds_back(torch_version: object, release: tuple[int, int]) -> bool:
    """A torch pin older than the oldest torch ``release`` of Lightning accepts: pip installs an older
    Lightning."""
    floor = _TORCH_FLOOR.get(release)
    if floor is None or torch_version is None or getattr(torch_version, "how", "") != "pinned":
        return False
    return not torch_version.at_least(*floor)  # type: ignore[attr-defined]
