from __future__ import annotations

import os
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# The suite starts a few hundred Python subprocesses (`python -m preflight`, bench tools, docs
# commands). Where the environment sets PYTHONDONTWRITEBYTECODE (some CI sandboxes do), each of
# them compiles the ~900 modules of the rule and adapter registries again: 1.9 CPU-s for
# `all_rules(); all_adapters()` against 0.4 s from the cached bytecode. The tests' subprocesses
# get Python's default (write and reuse __pycache__, ignored by git); nothing is asserted about it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@dataclass
class CliResult:
    code: int
    out: str
    err: str


# Tests that take seconds each and do not depend on the Python version: the linear-time
# checks (they time large inputs), the ones that build virtualenvs, git repositories or a
# Slurm cluster, start a Language Server, or fuzz with hypothesis. They carry the `slow`
# marker: `.ci/run` runs them once, on its main Python, and the suite on the oldest and
# newest Pythons with `-m "not slow"`. A file name marks the whole file. Measured with
# `pytest --durations=30` (.ci/run prints it); add a test here when it joins the top.
# Not here, though slow: tests whose outcome can depend on the Python version (the
# no-framework-import guarantee, recursion limits on deep input, fixes over `ast`).
SLOW = frozenset({
    "test_precommit.py", "test_slurm_real.py", "test_lsp.py", "test_webhook_fuzz.py",
    "test_loss_dist.py::test_speed_is_linear_in_the_number_of_functions",
    "test_optim_steps.py::test_linear_in_the_number_of_steps",
    "test_loaders.py::test_json_scanner_is_linear",
    "test_pf101.py::test_large_file_scales_linearly",
    "test_perf_hygiene.py::test_linear_time",
    "test_accum_eval.py::test_the_four_rules_scale_linearly",
    "test_arch.py::test_any_config_reads_or_raises_one_architecture_error",
    "test_plugins.py::test_plan_rule_plugin_runs_in_audit_and_not_in_check",
    "test_plugins.py::test_entry_point_rule_is_listed_and_runs",
    "test_plugins.py::test_the_check_cache_follows_an_edited_plugin",
    "test_hub.py::test_revision_pinning_reads_the_commit_asked_for",
    "test_fix_safety.py::test_concurrent_fix_runs_fix_each_file_once",
    # bench/bugs/score.py's scoring (preflight subprocesses per case variant; 24 s and 2 x 7.5 s
    # in CI's --durations=30): the bench tool runs on the main Python only
    "test_bench_bugs.py::test_scoring_on_threads_gives_the_sequential_result",
    "test_bench_bugs.py::test_a_still_buggy_twin_is_counted_apart_only_for_its_labelled_codes",
})


def shard_key(item) -> str:
    """What puts a test in a shard: its file and parameter id, so that the tests of one rule
    example (bad, good, no-other-warning) land in the same shard and share its analysis."""
    callspec = getattr(item, "callspec", None)
    file = item.nodeid.partition("::")[0]
    return f"{file}[{callspec.id}]" if callspec is not None else item.nodeid


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.nodeid.split("/")[-1]
        file, _, rest = name.partition("::")
        if file in SLOW or f"{file}::{rest.split('[')[0]}" in SLOW:
            item.add_marker(pytest.mark.slow)
    # PREFLIGHT_TEST_SHARD=K/N keeps shard K of N (a stable hash of shard_key): .ci/run runs the
    # oldest and newest Pythons' suites as the two halves of one suite, each test on one of them
    # (and every test on the README's Python).
    shard = os.environ.get("PREFLIGHT_TEST_SHARD", "")
    if shard:
        k, _, n = shard.partition("/")
        kept, dropped = [], []
        for item in items:
            (kept if zlib.crc32(shard_key(item).encode()) % int(n) == int(k) else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept


@pytest.fixture
def cli(capsys, monkeypatch, tmp_path):
    """Run the CLI in-process (fast) from a working directory, default tmp_path."""
    monkeypatch.delenv("COLUMNS", raising=False)  # a test that wants a width sets it

    def run(*args: str, cwd: Path | None = None) -> CliResult:
        from preflight.cli import main

        monkeypatch.chdir(cwd or tmp_path)
        monkeypatch.delenv("PREFLIGHT_OUTPUT_FORMAT", raising=False)
        monkeypatch.setenv("NO_COLOR", "1")
        code = main(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def run_subprocess(*args: str, cwd: Path, env: dict[str, str] | None = None,
                   timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    full_env.pop("COLUMNS", None)  # the text output's layout must not follow the developer's shell
    full_env["NO_COLOR"] = "1"
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, *args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


LEAKY = '''\
import torch

def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
    print(f"mean loss {sum(losses) / len(losses)}")
'''

CLEAN = '''\
import torch

def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
'''


def cpu_cost(run, repeat: int = 5) -> float:
    """Best-of-``repeat`` CPU seconds of ``run()``, garbage collection paused.

    For scaling checks only (does doubling the input roughly double the cost?);
    absolute speed targets live in bench/, not in tests.
    """
    import gc
    import time

    best = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return best


# Hypothesis: CI runs the property tests derandomized (the same examples every run, so a
# red CI is never a coin toss); elsewhere each run explores new examples, and
# HYPOTHESIS_PROFILE=stress explores many more (a longer hunt for crashes).
try:
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("ci", derandomize=True, deadline=None)
    _hypothesis_settings.register_profile("stress", max_examples=2000, deadline=None)
    _profile = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else None)
    if _profile:
        _hypothesis_settings.load_profile(_profile)
except ImportError:  # hypothesis is a dev dependency
    pass
