"""The README's example output is what preflight really prints (docs cannot rot)."""

from __future__ import annotations

import re

from conftest import REPO, run_subprocess


def _block_after(marker: str) -> tuple[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, re.S)
    for block in blocks:
        first, _, rest = block.partition("\n")
        if marker in first:
            return first, rest
    raise AssertionError(f"no console block with {marker!r}")


def test_quickstart_output_matches_readme():
    first, expected = _block_after("preflight check examples/quickstart")
    assert first.endswith(".venv/bin/preflight check examples/quickstart")
    proc = run_subprocess("-m", "preflight", "check", "examples/quickstart", "--no-cache", cwd=REPO)
    assert proc.returncode == 1
    assert proc.stdout == expected


def test_readme_test_command_is_what_ci_runs():
    first, _ = _block_after("pytest")
    command = first.removeprefix("$ ") if hasattr(first, "removeprefix") else first[2:]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    # CI runs the command's parts (`install && pytest`) as lines of their own, in order (it
    # starts the other Pythons' suites between them, after the last install)
    parts = command.split(" && ")
    assert all(part in ci for part in parts), (parts, "not each a line of .ci/run")
    assert [ci.index(part) for part in parts] == sorted(ci.index(part) for part in parts)
