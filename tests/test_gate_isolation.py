"""The gate runs with more rights than the submitter and beside the submitter's files: it
never imports anything from the job's directory (issue 14, item 1), and when it fails the
cluster's failure policy decides (item 3). The generated job_submit.lua runs under a real
Lua 5.1 interpreter (Slurm's plugins link Lua 5.1) with a stand-in ``slurm`` table.

Before: ``job_submit.lua`` ran ``cd <work_dir>; python -m preflight gate ...``; ``-m`` puts the
current directory first on sys.path, so an ``argparse.py`` beside the job ran as the gate and a
``*.dist-info`` there with a ``preflight.rules`` entry point was loaded as a plugin.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from preflight.gate.lua_install import preflight_command, write_lua

SLURM = Path(__file__).resolve().parent / "fixtures" / "gate" / "slurm"
LUA = shutil.which("lua5.1")
needs_lua = pytest.mark.skipif(LUA is None, reason="no lua5.1 (.ci/slurm-setup.sh install adds it; apt lua5.1)")
pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX shell")

# modules preflight imports (stdlib and PyYAML) and the name of the package itself
SHADOWED = ("argparse", "typing", "json", "re", "ast", "pathlib", "shlex", "dataclasses", "enum", "functools",
            "collections", "tempfile", "subprocess", "textwrap", "hashlib", "logging", "warnings", "types",
            "importlib", "yaml", "tomllib", "tomli", "string", "fnmatch", "glob", "ssl", "http", "socket",
            "concurrent", "threading", "preflight_rules_evil")


def plant(job: Path) -> Path:
    """Stdlib-shadowing modules and a plugin dist-info in ``job``; each writes a canary."""
    canaries = job / "canaries"
    canaries.mkdir()
    for name in SHADOWED:
        (job / f"{name}.py").write_text(f"open({str(canaries / name)!r}, 'w').write('imported')\n")
    dist = job / "evil_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[preflight.rules]\nevil = preflight_rules_evil\n"
                                           "[preflight.adapters]\nevil = preflight_rules_evil\n")
    return canaries


def job_dir(tmp_path: Path, script: str = "job_good.sh") -> tuple[Path, Path]:
    job = tmp_path / "job"
    job.mkdir()
    for name in ("finetune_small.py", "finetune.py", "cluster.yaml", script):
        shutil.copy(SLURM / name, job / name)
    return job, plant(job)


def imported(canaries: Path) -> list[str]:
    return sorted(p.name for p in canaries.iterdir())


def test_the_generated_command_imports_nothing_from_the_job_directory(tmp_path):
    job, canaries = job_dir(tmp_path)
    proc = subprocess.run(f"{preflight_command()} gate --cluster cluster.yaml --format json job_good.sh",
                          shell=True, cwd=job, capture_output=True, text=True, timeout=120)
    assert imported(canaries) == []
    assert proc.returncode == 0 and json.loads(proc.stdout)["decision"] == "admit", proc.stderr


@pytest.mark.parametrize("command", [
    ["gate", "--cluster", "cluster.yaml", "job_good.sh"],
    ["check", "--no-cache", "."],
    ["audit", "--no-cache", "finetune_small.py"],
])
def test_python_m_preflight_from_the_job_directory_imports_nothing_from_it(tmp_path, command):
    """``python -m preflight`` (no ``-I``), e.g. an older generated plugin or a user's own
    invocation: the current directory is dropped from sys.path before anything is imported,
    and plugin discovery never looks there."""
    job, canaries = job_dir(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "preflight", *command], cwd=job, capture_output=True,
                          text=True, timeout=120)
    assert imported(canaries) == [], proc.stderr
    assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr


def test_preflight_sbatch_imports_nothing_from_the_job_directory(tmp_path):
    job, canaries = job_dir(tmp_path)
    submitted = tmp_path / "submitted"
    fake = tmp_path / "sbatch"
    fake.write_text(f"#!/bin/sh\necho \"$@\" > {submitted}\n")
    fake.chmod(0o755)
    for argv in ([sys.executable, "-m", "preflight"], [str(Path(sys.executable).parent / "preflight")]):
        if not Path(argv[-1]).exists() and argv[-1] != "preflight":
            continue
        proc = subprocess.run([*argv, "sbatch", "--cluster", "cluster.yaml", "--sbatch", str(fake), "--",
                               "job_good.sh"], cwd=job, capture_output=True, text=True, timeout=120)
        assert imported(canaries) == [], proc.stderr
        assert proc.returncode == 0 and submitted.read_text().split() == ["job_good.sh"], proc.stderr


def test_plugins_on_sys_path_still_load_but_not_from_the_current_directory(tmp_path, monkeypatch):
    from preflight import registry

    job, _ = job_dir(tmp_path)
    site = tmp_path / "site"
    shutil.copytree(job / "evil_plugin-1.0.dist-info", site / "evil_plugin-1.0.dist-info")
    monkeypatch.chdir(job)
    monkeypatch.setattr(sys, "path", ["", str(job), str(site)])
    found = registry._entry_points("preflight.rules")
    assert [(e.name, e.value) for e in found] == [("evil", "preflight_rules_evil")]  # from site only
    monkeypatch.setattr(sys, "path", ["", str(job)])
    assert registry._entry_points("preflight.rules") == []


# --------------------------------------------------------------------------- the lua plugin

DRIVER = r"""
-- a stand-in for slurmctld: the slurm table, a job_desc, and slurm_job_submit's answer
slurm = {SUCCESS = 0, ERROR = -1, messages = {}}
function slurm.log_user(fmt, ...) slurm.messages[#slurm.messages + 1] = string.format(fmt, ...) end
function slurm.log_info(fmt, ...) io.stderr:write(string.format(fmt, ...) .. "\n") end
dofile(arg[1])
local f = io.open(arg[2]); local script = f:read("*a"); f:close()
local work_dir = arg[3] ~= "" and arg[3] or nil
local job_desc = {script = script, work_dir = work_dir, partition = "a100", min_nodes = 1,
                  tres_per_node = "gres:gpu:a100:1"}
local rc = slurm_job_submit(job_desc, {}, 1000)
io.write(rc == slurm.SUCCESS and "ADMIT" or "REJECT", "\n", table.concat(slurm.messages, "\n"), "\n")
"""


def run_lua(tmp_path: Path, job: Path, script: str, *, work_dir: str = "use-job", **settings) -> tuple[str, str]:
    plugins = tmp_path / "plugins"
    write_lua(plugins, **settings)
    driver = tmp_path / "driver.lua"
    driver.write_text(DRIVER)
    proc = subprocess.run([LUA, str(driver), str(plugins / "job_submit.lua"), str(job / script),
                           str(job) if work_dir == "use-job" else work_dir],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    decision, _, messages = proc.stdout.partition("\n")
    return decision, messages


@needs_lua
def test_job_submit_lua_gates_from_the_job_directory_without_importing_from_it(tmp_path):
    job, canaries = job_dir(tmp_path, "job_oom.sh")
    shutil.copy(SLURM / "job_good.sh", job / "job_good.sh")
    decision, messages = run_lua(tmp_path, job, "job_good.sh", cluster=job / "cluster.yaml")
    assert decision == "ADMIT", messages
    decision, messages = run_lua(tmp_path, job, "job_oom.sh", cluster=job / "cluster.yaml")
    assert decision == "REJECT" and "PF705 batch script:10:" in messages
    assert imported(canaries) == []


def _cluster(job: Path, extra: str) -> Path:
    path = job / "cluster-policy.yaml"
    path.write_text((SLURM / "cluster.yaml").read_text() + extra)
    return path


CRASH = f"{shlex.quote(sys.executable)} -c 'import sys; sys.exit(70)'"
HANG = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"


@needs_lua
@pytest.mark.parametrize("how", ["crash", "timeout", "exit-2", "no-work-dir"])
def test_a_failing_gate_rejects_by_default_and_names_the_contact(tmp_path, how):
    job, _ = job_dir(tmp_path)
    cluster = _cluster(job, 'contact: "#hpc-help on chat, hpc-admins@example.com"\n')
    settings: dict = {"cluster": cluster}
    work_dir = "use-job"
    if how == "crash":
        settings["command"] = CRASH
    elif how == "timeout":
        settings.update(command=HANG, timeout=1)
    elif how == "exit-2":  # the cluster file is gone when the gate runs
        settings.update(fail_open=False, contact="#hpc-help on chat, hpc-admins@example.com")
    else:
        work_dir = ""
    if how == "exit-2":
        write_lua(tmp_path / "plugins", **settings)
        cluster.unlink()
    decision, messages = run_lua(tmp_path, job, "job_good.sh", work_dir=work_dir, **settings)
    assert decision == "REJECT", messages
    assert "preflight gate could not check this job" in messages
    assert "on_failure: reject" in messages and "#hpc-help on chat, hpc-admins@example.com" in messages
    if how == "timeout":
        assert "timed out after 1 s" in messages


@needs_lua
def test_on_failure_admit_admits_a_failing_gate_and_says_so(tmp_path):
    job, _ = job_dir(tmp_path)
    cluster = _cluster(job, "  on_failure: admit\n")
    decision, messages = run_lua(tmp_path, job, "job_good.sh", cluster=cluster, command=CRASH)
    assert decision == "ADMIT" and "on_failure: admit" in messages and "cluster's administrators" in messages


@needs_lua
def test_both_plugins_are_valid_lua_with_every_setting(tmp_path):
    luac = shutil.which("luac5.1")
    if luac is None:
        pytest.skip("no luac5.1")
    for path in write_lua(tmp_path, command='/opt/py "3"/bin/python -I -m preflight', fail_open=True,
                          contact='ops "team"\\ \n#help'):
        proc = subprocess.run([luac, "-p", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
