"""A process wrapper in front of the launcher (jobs set 49, jamesafranke/ViT_clouds
``run/exec_run_v2.bash:29`` @ b5fa83d: ``time $PROFILE $OUTPUT torchrun --nnodes=1 --nproc_per_node=4
... $appdir/torchrun_test.py`` with ``PROFILE="nsys profile --trace=cuda,nvtx --force-overwrite true"``
and ``appdir=${HOME}/ViT_clouds/scripts``): the wrapped command is the job, and a script named under an
unknown directory variable is the job's file with the same path ending. A wrapper whose command is
no launcher, and a bare file name under an unknown directory, stay unread."""

from __future__ import annotations

import pytest
from preflight.adapters.launch_line import parse_launch
from preflight.adapters.shell import read_shell
from test_launch_held_commands import job, plan_of, value

_WRAPPED = [
    "numactl --cpunodebind=0 --membind=0",
    "numactl -N 0 -m 0",
    "taskset -c 0-7",
    "timeout 2h",
    "timeout -s INT -k 5m 47h",
    "stdbuf -oL -eL",
    "nice -n 10",
    "ionice -c2 -n7",
    "nsys profile -t cuda,nvtx -o prof --force-overwrite true",
    "nsys profile --force-overwrite --capture-range=cudaProfilerApi",
    "ncu --set full -o prof",
    "xvfb-run -a",
    "conda run -n train --no-capture-output",
    "time numactl --cpunodebind=1",
]


@pytest.mark.parametrize("wrapper", _WRAPPED)
def test_the_wrapped_launcher_is_the_job(wrapper):
    (line,) = read_shell(f"{wrapper} torchrun --nproc_per_node=4 train.py --lr 1\n", "run.sh").launches
    assert line.info.launcher == "torchrun" and line.info.script == "train.py"
    assert line.info.script_args == ["--lr", "1"] and line.info.total_procs == 4


def test_a_wrapper_inside_srun_and_its_note():
    info = parse_launch(["srun", "-N", "1", "-G", "8", "--ntasks-per-node=1", "nsys", "profile", "-t", "cuda,nvtx",
                         "-o", "rep", "torchrun", "--nproc-per-node=8", "train.py"])
    assert info.launcher == "torchrun" and info.script == "train.py" and info.total_procs == 8
    assert any(n.startswith("nsys profile: runs the command after it") for n in info.notes)
    info = parse_launch(["numactl", "--physcpubind=0-15", "python", "-u", "train.py", "--bs", "8"])
    assert info.launcher == "python" and info.script == "train.py" and info.script_args == ["--bs", "8"]


def test_wrappers_of_other_commands_stay_commands():
    assert read_shell("nsys profile -o rep bash run.sh\n", "p.sh").launches == []
    assert read_shell("timeout 60 nvidia-smi\n", "p.sh").launches == []
    assert read_shell("taskset -c 0 ./build/bench --iters 10\n", "p.sh").launches == []
    # `conda activate` is no runner; `nsys stats` runs nothing
    assert parse_launch(["conda", "activate", "env"]).script is None
    assert read_shell("nsys stats rep.nsys-rep\n", "p.sh").launches == []


def test_profiled_sbatch_job_with_the_script_under_home(cli, tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "torchrun_test.py").write_text(
        "import argparse\nimport torch\n"
        "p = argparse.ArgumentParser()\np.add_argument('--batch_size', type=int, default=8)\n"
        "a = p.parse_args()\nloader = torch.utils.data.DataLoader(range(10), batch_size=a.batch_size)\n")
    job(tmp_path, """\
        #!/bin/bash
        #SBATCH --gres=gpu:4
        appdir=${HOME}/ViT_clouds/scripts
        batch_size=60
        PROFILE="nsys profile --trace=cuda,nvtx --force-overwrite true"
        OUTPUT="-o nsys-rep-B${batch_size}"
        time $PROFILE $OUTPUT torchrun --nnodes=1 --nproc_per_node=4 $appdir/torchrun_test.py \\
                --batch_size ${batch_size}
        """, name="exec_run.bash")
    plan = plan_of(cli, "exec_run.bash", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "batch.micro") == 60


def test_a_bare_file_under_an_unknown_directory_is_not_guessed(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        torchrun --nproc_per_node=2 $WORK/train.py
        """, name="run.sh")
    r = cli("audit", "run.sh", cwd=tmp_path)
    assert "runs $WORK/train.py, which was not found" in r.out + r.err
