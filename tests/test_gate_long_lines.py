"""A 5 MB launch line took the gate over 30 s (shlex tokenizes at ~30 us a token), past the
Slurm plugin's timeout (issue 14, smaller items). Command lines over MAX_COMMAND_LINE are
refused with the file and line, at once; a long line under the bound is still read."""

from __future__ import annotations

import time

from preflight.gate.cluster import cluster_from_data
from preflight.gate.job import MAX_COMMAND_LINE
from preflight.gate.k8s import job_from_object
from preflight.gate.verdict import GateRequest, gate

CLUSTER = cluster_from_data({"partitions": {"a100": "a100-80gb"}})
HEAD = "#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --gres=gpu:a100:1\n"


def args(n: int) -> str:
    return " ".join(f"--opt{i}=v" for i in range(n))


def test_a_5_mb_launch_line_is_refused_at_once_with_its_line(tmp_path):
    text = HEAD + "srun python train.py " + args(500_000) + "\n"
    assert len(text) > 5_000_000
    start = time.perf_counter()
    result = gate(GateRequest(job_text=text, display="job.sh", kind="slurm", root=tmp_path, cluster=CLUSTER))
    elapsed = time.perf_counter() - start
    assert elapsed < 5, f"{elapsed:.1f} s"
    assert result.decision == "reject"
    assert any(r.startswith("job.sh:4: a command line of ") and "over the 128 KiB the gate reads" in r
               for r in result.reasons), result.reasons


def test_a_huge_directive_is_refused_too(tmp_path):
    text = "#!/bin/bash\n#SBATCH --comment=" + "x" * 3_000_000 + "\n#SBATCH --gres=gpu:1\npython t.py\n"
    start = time.perf_counter()
    result = gate(GateRequest(job_text=text, display="job.sh", kind="slurm", root=tmp_path, cluster=CLUSTER))
    assert time.perf_counter() - start < 5
    assert any(r.startswith("job.sh:2: a command line of ") for r in result.reasons)


def test_a_long_line_under_the_bound_is_read(tmp_path):
    line = "srun python train.py " + args(10_000)
    assert len(line) < MAX_COMMAND_LINE
    result = gate(GateRequest(job_text=HEAD + line + "\n", display="job.sh", kind="slurm", root=tmp_path,
                              cluster=CLUSTER))
    assert result.job.launch is not None and result.job.launch.info.script == "train.py"
    assert not any("command line of" in r for r in result.reasons)


def test_a_manifest_with_megabytes_of_args_is_refused():
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
           "spec": {"containers": [{"name": "pytorch", "command": ["torchrun", "train.py"],
                                    "args": [f"--opt{i}=v" for i in range(200_000)],
                                    "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}
    job = job_from_object(obj, "Pod/default/p")
    assert job.launches == [] and job.rejections and "command line of" in job.rejections[0]
