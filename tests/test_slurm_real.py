"""The gate in front of a real Slurm: slurmctld + slurmd + munged on loopback, fake GPUs.

`.ci/slurm-setup.sh start` writes a private slurm.conf (one node, `Gres=gpu:a100:4`,
`JobSubmitPlugins=lua`, `CliFilterPlugins=lua`) under a temporary folder and starts the
daemons from it; the fixture stops exactly those daemons (their pid files) afterwards.
Needs root and the Debian packages (`.ci/slurm-setup.sh install`, which `.ci/run` calls).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SETUP = REPO / ".ci" / "slurm-setup.sh"
FIXTURES = REPO / "tests" / "fixtures" / "gate" / "slurm"


def _missing() -> str:
    if os.name != "posix" or os.geteuid() != 0:
        return "needs root (slurmd runs the jobs; CI runs as root)"
    for binary in ("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged"):
        if not os.path.exists(binary):
            return f"{binary} is not installed (run .ci/slurm-setup.sh install)"
    if shutil.which("sbatch") is None:
        return "sbatch is not installed (run .ci/slurm-setup.sh install)"
    return ""


pytestmark = pytest.mark.skipif(bool(_missing()), reason=f"real Slurm test skipped: {_missing()}")

PASS_JOB_SUBMIT = """\
function slurm_job_submit(job_desc, part_list, submit_uid) return slurm.SUCCESS end
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid) return slurm.SUCCESS end
"""
PASS_CLI_FILTER = """\
function slurm_cli_setup_defaults(options, early_pass) return slurm.SUCCESS end
function slurm_cli_pre_submit(options, pack_offset) return slurm.SUCCESS end
function slurm_cli_post_submit(offset, job_id, step_id) return slurm.SUCCESS end
"""


class Slurm:
    def __init__(self, state: Path, lua: Path, work: Path) -> None:
        self.state, self.lua, self.work = state, lua, work
        self.env = {**os.environ, "SLURM_CONF": str(state / "slurm.conf")}

    def use(self, job_submit: str, cli_filter: str) -> None:
        """Install the gate ("gate"), a pass-through ("pass") or the given plugin text for each plugin."""
        # slurmctld's job_submit/lua reloads a script whose mtime (in seconds) is newer than
        # its last load: never write twice within one second
        time.sleep(1.1)
        (self.state / "job_submit.lua").write_text(
            (self.lua / "job_submit.lua").read_text() if job_submit == "gate" else
            PASS_JOB_SUBMIT if job_submit == "pass" else job_submit)
        (self.state / "cli_filter.lua").write_text(
            (self.lua / "cli_filter.lua").read_text() if cli_filter == "gate" else PASS_CLI_FILTER)
        self.run("scontrol", "reconfigure")

    def run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(list(argv), cwd=self.work, env=self.env, capture_output=True, text=True, timeout=120)
        if check and proc.returncode != 0:
            raise AssertionError(f"{argv} failed ({proc.returncode}): {proc.stderr}")
        return proc

    def job_state(self, job_id: str, timeout: float = 90) -> str:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            out = self.run("scontrol", "show", "job", job_id, check=False).stdout
            state = next((w.split("=", 1)[1] for w in out.split() if w.startswith("JobState=")), "")
            if state in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"):
                return state
            time.sleep(0.5)
        return state


def _free_port() -> int:
    """A port nothing listens on now (the daemons bind it a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    base = tmp_path_factory.mktemp("slurm")
    state, lua, work = base / "state", base / "lua", base / "work"
    work.mkdir()
    for f in FIXTURES.iterdir():
        shutil.copy(f, work / f.name)
    subprocess.run([sys.executable, "-m", "preflight", "gate", "--write-lua", str(lua),
                    "--cluster", str(work / "cluster.yaml")], check=True, capture_output=True, text=True)
    ports = {"PREFLIGHT_SLURMCTLD_PORT": str(_free_port()), "PREFLIGHT_SLURMD_PORT": str(_free_port())}
    started = subprocess.run(["bash", str(SETUP), "start", str(state), str(lua)], capture_output=True,
                             text=True, timeout=300, env={**os.environ, **ports})
    if started.returncode != 0:
        subprocess.run(["bash", str(SETUP), "stop", str(state)], capture_output=True, timeout=120)
        pytest.fail(f"Slurm did not start: {started.stdout}{started.stderr}")
    try:
        yield Slurm(state, lua, work)
    finally:
        subprocess.run(["bash", str(SETUP), "stop", str(state)], capture_output=True, timeout=120)


def test_job_submit_rejects_a_projected_oom_with_the_reason_on_stderr(slurm):
    slurm.use(job_submit="gate", cli_filter="pass")
    proc = slurm.run("sbatch", "job_oom.sh", check=False)
    assert proc.returncode != 0, proc.stdout
    assert "Batch job submission failed" in proc.stderr
    assert "REJECT" in proc.stderr and "PF705" in proc.stderr, proc.stderr
    assert "Llama-2-7B" in proc.stderr and "a100-80gb" in proc.stderr, proc.stderr
    queue = slurm.run("squeue", "-h", "-n", "finetune-7b").stdout
    assert queue.strip() == ""


def test_job_submit_admits_a_good_job_which_runs(slurm):
    slurm.use(job_submit="gate", cli_filter="pass")
    proc = slurm.run("sbatch", "--parsable", "job_good.sh")
    job_id = proc.stdout.strip().split(";")[0]
    assert job_id.isdigit(), proc.stdout
    assert slurm.job_state(job_id) == "COMPLETED"
    out = (slurm.work / f"finetune-gpt2-{job_id}.out").read_text()
    assert f"job {job_id} on pfnode with 1 GPU(s)" in out
    assert "dry run: arguments ok" in out


def test_job_submit_sees_command_line_options_over_directives(slurm):
    # --gres on the sbatch command line wins over the script's #SBATCH --gres=gpu:a100:1;
    # one python process on 2 GPUs leaves one idle: a warning, still admitted
    slurm.use(job_submit="gate", cli_filter="pass")
    proc = slurm.run("sbatch", "--parsable", "--gres=gpu:a100:2", "job_good.sh")
    job_id = proc.stdout.strip().split(";")[0]
    assert "PF701" in proc.stderr and "2 GPUs requested per node but only 1" in proc.stderr, proc.stderr
    assert slurm.job_state(job_id) == "COMPLETED"


def test_cli_filter_rejects_before_submission(slurm):
    slurm.use(job_submit="pass", cli_filter="gate")
    proc = slurm.run("sbatch", "job_oom.sh", check=False)
    assert proc.returncode != 0
    assert "PF705" in proc.stderr and "cli_filter plugin terminated with error" in proc.stderr, proc.stderr
    assert "Batch job submission failed" not in proc.stderr  # stopped before reaching slurmctld
    good = slurm.run("sbatch", "--parsable", "job_good.sh")
    assert slurm.job_state(good.stdout.strip().split(";")[0]) == "COMPLETED"


def test_preflight_sbatch_wrapper_gates_then_submits(slurm):
    slurm.use(job_submit="pass", cli_filter="pass")
    bad = slurm.run(sys.executable, "-m", "preflight", "sbatch", "--cluster", "cluster.yaml", "--",
                    "job_oom.sh", check=False)
    assert bad.returncode == 1 and "PF705" in bad.stdout + bad.stderr
    assert slurm.run("squeue", "-h", "-n", "finetune-7b").stdout.strip() == ""
    good = slurm.run(sys.executable, "-m", "preflight", "sbatch", "--cluster", "cluster.yaml", "--",
                     "--parsable", "job_good.sh")
    job_id = good.stdout.strip().splitlines()[-1].split(";")[0]
    assert job_id.isdigit(), good.stdout
    assert slurm.job_state(job_id) == "COMPLETED"


def test_job_submit_imports_nothing_from_the_job_directory(slurm, tmp_path):
    """An ``argparse.py`` or ``typing.py`` and a ``*.dist-info`` plugin beside the job: the gate
    (run by slurmctld, as its user) imports none of them (issue 14, item 1)."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_gate_isolation import imported, plant

    sys.path.remove(str(REPO / "tests"))
    work = tmp_path / "planted"
    work.mkdir()
    for name in ("job_good.sh", "job_oom.sh", "finetune_small.py", "finetune.py", "cluster.yaml"):
        shutil.copy(FIXTURES / name, work / name)
    canaries = plant(work)
    slurm.use(job_submit="gate", cli_filter="pass")
    bad = subprocess.run(["sbatch", "job_oom.sh"], cwd=work, env=slurm.env, capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode != 0 and "PF705" in bad.stderr, bad.stderr
    good = subprocess.run(["sbatch", "--parsable", "--hold", "job_good.sh"], cwd=work, env=slurm.env,
                          capture_output=True, text=True, timeout=120)  # held: the job's own python never runs
    assert good.returncode == 0, good.stderr
    slurm.run("scancel", good.stdout.strip().split(";")[0])
    assert imported(canaries) == []


def test_a_failing_gate_rejects_and_names_the_contact(slurm, tmp_path):
    """The gate crashes (here: a command that exits 70): the cluster's failure policy
    (default reject) decides and the message says whom to tell (issue 14, item 3)."""
    from preflight.gate.lua_install import render

    cluster = tmp_path / "cluster.yaml"
    cluster.write_text((FIXTURES / "cluster.yaml").read_text() + 'contact: "#hpc-help, hpc-admins@example.com"\n')
    crash = f"{sys.executable} -c 'import sys; sys.exit(70)'"
    slurm.use(job_submit=render("job_submit.lua", cluster=cluster, command=crash), cli_filter="pass")
    proc = slurm.run("sbatch", "job_good.sh", check=False)
    assert proc.returncode != 0 and "Batch job submission failed" in proc.stderr
    assert "could not check this job (exit 70)" in proc.stderr and "on_failure: reject" in proc.stderr
    assert "#hpc-help, hpc-admins@example.com" in proc.stderr, proc.stderr
    admit = render("job_submit.lua", cluster=cluster, command=crash, fail_open=True)
    slurm.use(job_submit=admit, cli_filter="pass")
    proc = slurm.run("sbatch", "--parsable", "--hold", "job_good.sh")
    assert "on_failure: admit" in proc.stderr, proc.stderr
    slurm.run("scancel", proc.stdout.strip().split(";")[0])
