"""A container runtime between ``srun`` and the training command (issue 15, set 38: NVlabs/FourCastNet
``interactive_train.sh:12`` @ 93360c1, ``srun -n $ngpu ... shifter --image=${image} bash -c "source
export_DDP_vars.sh && $cmd"``): the command inside the image is the job; ``singularity run`` (the
image's own runscript) and a runtime with nothing after it are not read as one."""

from __future__ import annotations

import textwrap

from preflight.adapters.launch_line import parse_launch
from preflight.adapters.shell import read_shell
from test_launch_held_commands import job, plan_of, value


def test_srun_shifter_bash_c_runs_the_held_command(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        export MASTER_ADDR=$(hostname)
        image=nersc/pytorch:ngc-22.02-v0
        ngpu=4
        cmd="python train.py --per_device_train_batch_size 16"
        srun -n $ngpu --cpus-per-task=32 --gpus-per-node $ngpu shifter --image=${image} bash -c "source env.sh && $cmd"
        """, name="interactive_train.sh")
    plan = plan_of(cli, "interactive_train.sh", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "batch.micro") == 16


def test_singularity_and_apptainer_exec_with_their_options():
    info = parse_launch(["srun", "-N", "2", "--ntasks-per-node", "1", "singularity", "exec", "--nv", "-B",
                         "/data:/data", "img.sif", "torchrun", "--nproc_per_node", "8", "train.py", "--lr", "1"])
    bare = parse_launch(["srun", "-N", "2", "--ntasks-per-node", "1", "torchrun", "--nproc_per_node", "8",
                         "train.py", "--lr", "1"])
    assert info.launcher == "torchrun" and info.script == "train.py" and info.script_args == ["--lr", "1"]
    assert (info.total_procs, info.procs_per_node, info.nodes) == (bare.total_procs, bare.procs_per_node, bare.nodes)
    info = parse_launch(["apptainer", "exec", "--bind=/scratch", "--cleanenv", "img.sif", "python", "train.py"])
    assert info.launcher == "python" and info.script == "train.py"
    info = parse_launch(["shifter", "--image", "docker:x/y:1", "--volume=/a:/b", "python", "-u", "train.py"])
    assert info.launcher == "python" and info.script == "train.py"
    assert any("container image docker:x/y:1" in n for n in info.notes)


def test_a_container_runtime_before_bash_c():
    """Noza23/myovision-sam ``train.sh`` (found by the code search): ``singularity exec --pwd $(pwd)
    --nv -B /myovision:/mnt image bash -c "cd /mnt/myovision-sam && torchrun ... train.py"``."""
    (line,) = read_shell(textwrap.dedent("""\
        singularity exec --pwd $(pwd) --nv \\
          -B /myovision:/mnt \\
          image \\
          bash -c "cd /mnt/myovision-sam && torchrun --standalone --nproc_per_node=4 train.py"
        """), "train.sh").launches
    assert line.info.launcher == "torchrun" and line.info.script == "train.py" and line.info.total_procs == 4
    # a runtime's own command that is no launcher stays a command
    assert read_shell('singularity exec img.sif bash -c "nvidia-smi; hostname"\n', "r.sh").launches == []


def test_runscripts_and_bare_runtimes_stay_unread():
    # `singularity run IMG ARGS` hands ARGS to the image's runscript: not read as a command
    assert parse_launch(["singularity", "run", "img.sif", "python", "train.py"]).script is None
    assert parse_launch(["shifter", "--image=x"]).script is None  # nothing runs inside
    assert parse_launch(["singularity", "exec", "img.sif"]).script is None
    text = textwrap.dedent("""\
        singularity run --nv img.sif python train.py
        docker run --gpus all img python train.py
        """)
    assert all(ln.info.script is None for ln in read_shell(text, "run.sh").launches)
