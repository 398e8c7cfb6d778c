"""The pre-commit hooks of ``.pre-commit-hooks.yaml``, run by the real pre-commit.

Each test makes a throwaway git repository holding a copy of this working tree
(committed there, so pre-commit can clone it at a ``rev``, exactly as it clones a
hook repository from GitHub) and a user project whose ``.pre-commit-config.yaml``
points at it. The hooks' entry, arguments, file types and serial flag come from
the manifest.

Offline by default: the config overrides the manifest's ``language: python`` with
``language: system`` so that ``preflight`` is the one of the environment running
the tests, instead of a fresh virtualenv that pip fills from PyPI (tests never
reach the network). ``test_hook_installs_from_the_repository`` does the real,
unmodified install; it needs PyPI and runs only with ``PREFLIGHT_NETWORK_TESTS=1``
(about 30 s, most of it pip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import LEAKY, REPO, write

pytest.importorskip("pre_commit")
if shutil.which("git") is None:  # pragma: no cover - every CI machine has git
    pytest.skip("git is not installed", allow_module_level=True)

MANIFEST = REPO / ".pre-commit-hooks.yaml"
BIN = str(Path(sys.executable).parent)  # where this environment's `preflight` lives

NOTEBOOK_WITH_LEAK = """{
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# training"]},
  {"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [],
   "source": %s}
 ],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5
}
"""


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update({
        "PATH": BIN + os.pathsep + env.get("PATH", ""),
        "PRE_COMMIT_HOME": str(home / "pre-commit-home"),
        "PREFLIGHT_NO_CACHE": "1",
        "NO_COLOR": "1",
        "GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    })
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def _snapshot_of_working_tree(dest: Path, env: dict[str, str]) -> str:
    """Commit a copy of this working tree (tracked and untracked, not ignored) in ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, timeout=120)
    if listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:  # not a git checkout (an sdist): the files the hooks need
        names = [str(p.relative_to(REPO)) for p in REPO.rglob("*")
                 if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts]
    for name in names:
        source = REPO / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    _git(dest, env, "init", "-q", ".")
    _git(dest, env, "add", "-A")
    _git(dest, env, "commit", "-q", "-m", "snapshot of the working tree")
    return _git(dest, env, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    where = tmp_path_factory.mktemp("hook-repo")
    return where, _snapshot_of_working_tree(where, _env(where))


def _project(tmp_path: Path, hook_repo: tuple[Path, str], files: dict[str, str],
             language: str | None = "system") -> tuple[Path, dict[str, str]]:
    repo_path, rev = hook_repo
    env = _env(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    hooks = []
    for hook_id in ("preflight", "preflight-fix"):
        hook: dict[str, str] = {"id": hook_id}
        if language is not None:
            hook["language"] = language
        hooks.append(hook)
    config = {"repos": [{"repo": str(repo_path), "rev": rev, "hooks": hooks}]}
    write(project / ".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    for name, text in files.items():
        write(project / name, text)
    _git(project, env, "init", "-q", ".")
    _git(project, env, "add", "-A")
    return project, env


def _pre_commit(project: Path, env: dict[str, str], *args: str,
                timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_manifest_is_valid_for_pre_commit():
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_manifest_declares_check_and_fix_hooks_for_python_and_notebooks():
    hooks = {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    assert set(hooks) == {"preflight", "preflight-fix"}
    assert hooks["preflight"]["entry"] == "preflight check"
    assert hooks["preflight-fix"]["entry"] == "preflight check --fix"
    for hook in hooks.values():
        assert hook["language"] == "python"  # users get an isolated install from the repo
        # the check hook also sees config files (DeepSpeed JSON, accelerate YAML, ...); fixes are Python-only
        expected = ["python", "jupyter", "json", "yaml"] if hook["entry"] == "preflight check" else ["python", "jupyter"]
        assert hook["types_or"] == expected


def test_check_hook_fails_on_a_bug_and_fix_hook_repairs_it(tmp_path, hook_repo):
    project, env = _project(tmp_path, hook_repo, {"train.py": LEAKY, "README.md": "losses.append(loss)\n"})

    failed = _pre_commit(project, env, "run", "preflight", "--all-files")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "preflight" in failed.stdout and "Failed" in failed.stdout
    assert "train.py:10:9: PF101" in failed.stdout
    assert "README.md" not in failed.stdout  # only Python files and notebooks are passed

    fixed = _pre_commit(project, env, "run", "preflight-fix", "--all-files")
    assert fixed.returncode == 1  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in fixed.stdout
    assert (project / "train.py").read_text(encoding="utf-8") == LEAKY.replace(
        "losses.append(loss)", "losses.append(loss.detach())")

    _git(project, env, "add", "-A")
    passed = _pre_commit(project, env, "run", "preflight", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_check_hook_reads_notebooks(tmp_path, hook_repo):
    import json

    cell = json.dumps(LEAKY.splitlines(keepends=True))
    project, env = _project(tmp_path, hook_repo, {"explore.ipynb": NOTEBOOK_WITH_LEAK % cell})
    proc = _pre_commit(project, env, "run", "preflight", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "explore.ipynb:cell 2:10:9: PF101" in proc.stdout


def test_hook_runs_on_commit(tmp_path, hook_repo):
    project, env = _project(tmp_path, hook_repo, {"train.py": LEAKY})
    assert _pre_commit(project, env, "install").returncode == 0
    commit = subprocess.run(["git", "commit", "-q", "-m", "add training"], cwd=project, env=env,
                            capture_output=True, text=True, timeout=300)
    assert commit.returncode != 0
    assert "PF101" in commit.stdout + commit.stderr
    assert _git(project, env, "rev-list", "--all") == ""  # nothing was committed


@pytest.mark.skipif(os.environ.get("PREFLIGHT_NETWORK_TESTS") != "1",
                    reason="installs the hook repository from PyPI; set PREFLIGHT_NETWORK_TESTS=1")
def test_hook_installs_from_the_repository(tmp_path, hook_repo):
    """The manifest unmodified: pre-commit builds a virtualenv and pip-installs the repo."""
    project, env = _project(tmp_path, hook_repo, {"train.py": LEAKY}, language=None)
    failed = _pre_commit(project, env, "run", "preflight", "--all-files", timeout=900)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "train.py:10:9: PF101" in failed.stdout
    assert _pre_commit(project, env, "run", "preflight-fix", "--all-files",
                       timeout=300).returncode == 1
    _git(project, env, "add", "-A")
    passed = _pre_commit(project, env, "run", "preflight", "--all-files", timeout=300)
    assert passed.returncode == 0, passed.stdout + passed.stderr
