"""Every read of a user's file goes through the bounded, regular-file-only reader.

A FIFO named as a config blocks ``open`` forever and ``/dev/zero`` named as a script fills
memory (issue 14, item 5): ``preflight.sources.read_bytes_limited`` and its text and stream
forms refuse both. This test keeps new code on that path: it lists every ``open(...)``,
``Path.read_text()`` and ``Path.read_bytes()`` in the package and the adapters, and only the
reads of preflight's own package data (and one 64-byte head of a file already checked to be
regular) may stay outside it.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (file, the enclosing function): reads of preflight's own files, or bounded by construction
ALLOWED = {
    ("preflight/gate/lua_install.py", "render"),   # the lua templates shipped in the package
    ("preflight/validate_schema_files.py", "load_schema"),  # the JSON schemas shipped in the package
    ("preflight/plan.py", "main"),            # the plan schema, a developer's command
    ("preflight/job_files.py", "is_shell_script"),         # 64 bytes of a file os.path.isfile accepted
}


@functools.cache  # the two tests below read the same sources: parse them once
def _reads() -> tuple[tuple[str, str, int], ...]:
    found = []
    for base in ("preflight", "adapters"):
        for path in sorted((ROOT / base).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("preflight/guard/", "preflight/calibration/")) or rel.endswith("_examples.py"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            stack: list[tuple[ast.AST, str]] = [(tree, "")]
            while stack:
                node, fn = stack.pop()
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    fn = node.name
                if isinstance(node, ast.Call):
                    f = node.func
                    if (isinstance(f, ast.Name) and f.id == "open") or (
                            isinstance(f, ast.Attribute) and f.attr in ("read_text", "read_bytes")):
                        found.append((rel, fn, node.lineno))
                stack.extend((child, fn) for child in ast.iter_child_nodes(node))
    return tuple(found)


def test_user_files_are_read_only_through_the_bounded_reader() -> None:
    unbounded = [f"{rel}:{line} (in {fn or 'module'})" for rel, fn, line in _reads()
                 if (rel, fn) not in ALLOWED]
    assert unbounded == [], ("read these through preflight.sources.read_text_limited / "
                             "read_bytes_limited (regular files only, bounded): " + ", ".join(unbounded))


def test_the_allowed_reads_still_exist() -> None:
    # an entry whose read was removed must leave the list, so the list stays the truth
    places = {(rel, fn) for rel, fn, _ in _reads()}
    assert places >= ALLOWED, sorted(ALLOWED - places)


def test_a_fifo_among_the_projects_python_files_does_not_block_validate(tmp_path: Path) -> None:
    # validate reads the project's own @dataclass fields for a TrainingArguments YAML: every
    # .py file of the project, one of which is a FIFO with no writer (before: open() blocked)
    import os
    import subprocess
    import sys

    if not hasattr(os, "mkfifo"):
        return
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'job'\n", encoding="utf-8")
    (tmp_path / "args.py").write_text("from dataclasses import dataclass\n\n\n@dataclass\nclass Extra:\n"
                                      "    lora_rank: int = 8\n", encoding="utf-8")
    os.mkfifo(tmp_path / "blocked.py")
    (tmp_path / "train.yaml").write_text("output_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 1.0e-4\n"
                                         "num_train_epochs: 1\nlora_rank: 16\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "preflight", "validate", "train.yaml"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 0, (r.stdout, r.stderr)  # lora_rank is the project's own field


def test_a_regular_file_whose_size_is_reported_as_zero_is_read_whole() -> None:
    # the first read asks for the size fstat gives plus one byte; files of /proc say 0 and still
    # hold text: the read goes on until the end of the file
    from preflight.sources import read_bytes_limited

    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("no /proc")
    assert os.stat(status).st_size == 0
    data = read_bytes_limited(status)
    assert b"Name:" in data and len(data) > 100


def test_a_file_is_read_whole_at_any_size_up_to_the_limit(tmp_path: Path) -> None:
    from preflight.sources import InputRefused, read_bytes_limited

    for size in (0, 1, 4095, 65536, 65537, 300_000):
        path = tmp_path / f"f{size}"
        path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        assert read_bytes_limited(path, limit=300_000) == path.read_bytes()
    with pytest.raises(InputRefused):
        read_bytes_limited(tmp_path / "f300000", limit=299_999)
