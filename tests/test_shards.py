"""PREFLIGHT_TEST_SHARD splits the suite in disjoint halves that cover it (.ci/run runs the
oldest and newest Pythons' suites as the two halves)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys

from conftest import REPO

TARGET = ["tests/test_rules_meta.py", "-k", "PF101 or PF102 or PF104"]


@functools.cache
def collected(shard: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "PREFLIGHT_TEST_SHARD"}
    if shard:
        env["PREFLIGHT_TEST_SHARD"] = shard
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          *TARGET], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return [line for line in out.stdout.splitlines() if "::" in line]


def test_two_shards_are_disjoint_and_cover_the_suite():
    whole, first, second = collected(""), collected("0/2"), collected("1/2")
    assert first and second
    assert not set(first) & set(second)
    assert sorted(first + second) == sorted(whole)


def test_the_tests_of_one_rule_example_share_a_shard():
    first = collected("0/2")
    ids = {line.split("[", 1)[1] for line in first if "good_example" in line}
    for example in ids:
        both = [line for line in first if line.endswith(f"[{example}")]
        assert len(both) == 2, (example, both)  # is_silent and draws_no_other_warning
