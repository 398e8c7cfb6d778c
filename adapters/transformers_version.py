"""Which transformers / TRL / torch version a project declares (helper of the transformers adapter).

Searched, without importing anything, in the script's folder and its parents up to the
project root: ``requirements*.txt`` (and the singular ``requirement.txt``, MAOJIASONG/TinyZero-TRL
@ dd318ba), ``pyproject.toml``, ``setup.py``, ``environment.yml`` and lock files (``poetry.lock``,
``uv.lock``, ``Pipfile.lock``), and last in each folder a ``pip install pkg==X`` line of a
``README*.md`` (the setup steps a user follows). A pin (``==``) is exact;
a lower bound (``>=``, ``~=``) is used as the version and said to be a bound.

A project audited from a sub-folder of its repository (ChatGLM-6B ``ptuning/``,
Chinese-LLaMA-Alpaca-2 ``scripts/training/``) pins its versions in the repository root's
``requirements.txt``: when nothing is found up to the project root, the search goes on up
to ``_ABOVE_ROOT`` more folders, stopping at a repository root (a folder holding ``.git``)
and never into the user's home folder or the filesystem root.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

from preflight._record import dataclass

_FILES = ("requirement*.txt", "pyproject.toml", "setup.py", "setup.cfg", "environment.yml", "environment.yaml")
_LOCKS = ("poetry.lock", "uv.lock")
_MAX_BYTES = 2_000_000
_ABOVE_ROOT = 2


@dataclass(frozen=True)
class Version:
    """A declared version: the numbers, how it was declared, and where."""

    package: str
    text: str  # "4.57.6"
    how: str  # "pinned" or "lower bound"
    where: str  # display path:line

    @property
    def parts(self) -> tuple[int, ...]:
        out: list[int] = []
        for piece in self.text.split("."):
            digits = re.match(r"\d+", piece)
            if digits is None:
                break
            out.append(int(digits.group()))
        return tuple(out) or (0,)

    def at_least(self, *numbers: int) -> bool:
        return self.parts >= numbers

    def describe(self) -> str:
        return f"{self.package} {self.text} ({self.how}, {self.where})"


def default_optim(tv: Optional[Version], torch: Optional[Version]) -> tuple[Optional[str], str]:
    """The ``TrainingArguments.optim`` default for the declared versions: (name, detail), or
    (None, why not) when it cannot be said. ``adamw_hf`` before 4.32 (huggingface/transformers
    #25109), then ``adamw_torch``; the fused default of later releases needs torch >= 2.8, so a
    torch pinned below 2.8 keeps ``adamw_torch`` whatever the transformers version."""
    version = tv.describe() if tv is not None else "transformers 5.x (assumed)"
    if tv is not None and not tv.at_least(4, 32):
        return "adamw_hf", f"optim=adamw_hf (transformers < 4.32; {version})"
    if tv is not None and not tv.at_least(4, 46):
        return "adamw_torch", f"optim=adamw_torch (transformers 4.32 to <= 4.45; {version})"
    if torch is not None and not torch.at_least(2, 8):
        return "adamw_torch", f"optim=adamw_torch ({version}, torch {torch.text} < 2.8)"
    if tv is not None and not tv.at_least(4, 57):
        return None, (f"default optim for {version} (between 4.45 and 4.57) not verified: adamw_torch, or "
                      "adamw_torch_fused with recent torch")
    if torch is None:
        return None, (f"default optim in {version}: adamw_torch_fused with torch >= 2.8, else adamw_torch; torch "
                      "version not found, so not recorded")
    return "adamw_torch_fused", f"optim=adamw_torch_fused ({version}, torch {torch.text} >= 2.8)"


def default_optim_algorithm(detail: str) -> tuple[str, str]:
    """When :func:`default_optim` cannot name the ``optim`` default (a release between 4.45 and 4.57, or torch's
    version not found), every default it could be (``adamw_hf``, ``adamw_torch``, ``adamw_torch_fused``) runs the
    AdamW algorithm with the same two moment buffers per parameter: ``"AdamW"``, the algorithm, is known
    (scripts with no pinned versions: huggingface/cosmopedia @ 38789ca
    ``classification/train_edu_bert.py:90-108``, TrainingArguments without ``optim``)."""
    return "AdamW", (f"the default optim is one of transformers' AdamW implementations ({detail}); which one is not "
                     "known, the algorithm is")


def _spec_regex(package: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(package)}(?:\[[^\]]*\])?\s*(==|>=|~=|===)\s*v?(\d+(?:\.\d+)*)",
                      re.IGNORECASE)


def _display(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _read(path: Path) -> Optional[str]:
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        from preflight.sources import read_text_limited

        return read_text_limited(path, _MAX_BYTES, errors="replace")
    except OSError:
        return None


def _from_text(package: str, text: str, shown: str) -> Optional[Version]:
    pattern = _spec_regex(package)
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split("#", 1)[0]
        match = pattern.search(stripped)
        if match:
            how = "pinned" if match.group(1) in ("==", "===") else "lower bound"
            # est71: a torch pin's CUDA build tag (``torch==1.13.1+cu116``) says which CUDA runtime
            # the wheel carries (before 11.7: no lazy module loading, estimate/gpu_facts.py)
            tag = re.match(r"\+cu\d+\b", stripped[match.end():]) if how == "pinned" and package == "torch" else None
            return Version(package, match.group(2) + (tag.group() if tag else ""), how, f"{shown}:{number}")
    return None


def _from_lock(package: str, text: str, shown: str) -> Optional[Version]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower() == f'name = "{package}"':
            for j in range(i + 1, min(i + 4, len(lines))):
                match = re.match(r'\s*version\s*=\s*"(\d+(?:\.\d+)*)', lines[j])
                if match:
                    return Version(package, match.group(1), "pinned", f"{shown}:{j + 1}")
    return None


def _from_pipfile_lock(package: str, text: str, shown: str) -> Optional[Version]:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    entry = data.get("default", {}).get(package) if isinstance(data, dict) else None
    spec = entry.get("version") if isinstance(entry, dict) else None
    if isinstance(spec, str) and spec.startswith("=="):
        return Version(package, spec[2:], "pinned", shown)
    return None


_INSTALL = re.compile(r"^\s*(?:[$>]\s*)?(?:!\s*)?(?:uv\s+)?(?:python3?\s+-m\s+)?pip3?\s+install\b")


def _from_readme(package: str, text: str, shown: str) -> Optional[Version]:
    """``pip install transformers==4.31.0`` on a line of a README (AetherCortex/Llama-X
    README.md:151): the release its setup steps install, when no requirements file names the package.
    Only an exact pin on a ``pip install`` line counts; prose and lower bounds do not."""
    pattern = _spec_regex(package)
    for number, line in enumerate(text.splitlines(), 1):
        if not _INSTALL.match(line.replace("`", " ")):
            continue
        match = pattern.search(line.split("#", 1)[0])
        if match and match.group(1) in ("==", "==="):
            return Version(package, match.group(2), "pinned", f"{shown}:{number}")
    return None


def _in_folder(package: str, folder: Path, top: Path) -> Optional[Version]:
    for pattern in _FILES:
        for path in sorted(folder.glob(pattern)):
            text = _read(path)
            if text is not None:
                found = _from_text(package, text, _display(path, top))
                if found is not None:
                    return found
    for name in _LOCKS:
        text = _read(folder / name)
        if text is not None:
            found = _from_lock(package, text, _display(folder / name, top))
            if found is not None:
                return found
    text = _read(folder / "Pipfile.lock")
    if text is not None:
        found = _from_pipfile_lock(package, text, _display(folder / "Pipfile.lock", top))
        if found is not None:
            return found
    for path in sorted(folder.glob("README*.md")):
        text = _read(path)
        if text is not None:
            found = _from_readme(package, text, _display(path, top))
            if found is not None:
                return found
    from preflight.adapters.vendored_package import vendored_version

    copy = vendored_version(package, folder, _read, lambda p: _display(p, top))
    if copy is not None:
        return Version(package, copy[0], "pinned", copy[1])
    return None


def _display_above(path_where: str, folder: Path, top: Path) -> str:
    import os

    return os.path.relpath(folder, top).replace(os.sep, "/") + "/" + path_where.rsplit("/", 1)[-1]


def find_version(package: str, start: Path, root: Path) -> Optional[Version]:
    """The version of ``package`` declared nearest to ``start`` (a folder), up to ``root``,
    then up to the repository root above it (at most ``_ABOVE_ROOT`` folders)."""
    folder = start.resolve()
    top = root.resolve()
    while True:
        found = _in_folder(package, folder, top)
        if found is not None:
            return found
        if folder == top or folder.parent == folder or top not in folder.parents:
            break
        folder = folder.parent
    if (top / ".git").exists():
        return None  # the project root is the repository root
    home = Path.home().resolve()
    folder = top
    for _ in range(_ABOVE_ROOT):
        folder = folder.parent
        if folder == folder.parent or folder == home:
            return None
        found = _in_folder(package, folder, top)
        if found is not None:
            return Version(found.package, found.text, found.how, _display_above(found.where, folder, top))
        if (folder / ".git").exists():
            return None
    return None
