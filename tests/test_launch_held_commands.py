"""Launch lines that real scripts hold in variables, strings and chains (issue 15).

Found by auditing the 770 launch scripts of 45 public repositories (docs/realworld.md, "Launch
scripts of 45 repositories"): before these shapes were read, 203 of them had no launch line and
286 none that named a script. Each test is modelled on the repository it cites and has a
silent twin: a line that only looks like one must not become a launch.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.adapters.shell import read_shell

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    from transformers import AutoModelForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="gpt2")
    p.add_argument("--per_device_train_batch_size", type=int, default=1)
    p.add_argument("--validation_prompt", default="")
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.per_device_train_batch_size)
    for batch in loader:
        loss = model(batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
""")


def job(tmp_path: Path, script: str, name: str = "scripts/run.sh") -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(script))


def plan_of(cli, name: str, cwd: Path) -> dict:
    res = cli("audit", name, "--emit-plan", "json", cwd=cwd)
    assert res.code == 0, res.out + res.err
    return json.loads(res.out)


def value(plan: dict, field: str):
    facts = plan["fields"].get(field)
    return facts[0]["value"] if facts else None


def launches(text: str, args: tuple[str, ...] = ()) -> list[list[str]]:
    return [ln.tokens for ln in read_shell(textwrap.dedent(text), "run.sh", args=args).launches]


def test_a_command_held_in_a_variable_and_run_by_eval(cli, tmp_path):
    """FlagEmbedding examples/finetune/embedder/decoder_only/base.sh @ e5e1a4e: option groups in
    variables, `cmd="torchrun --nproc_per_node $num_gpus ... $training_args"`, `echo $cmd`,
    `eval $cmd`."""
    job(tmp_path, """\
        num_gpus=2
        model_args="\\
            --model_name_or_path facebook/opt-350m \\
        "
        training_args="\\
            --per_device_train_batch_size 4 \\
        "
        cmd="torchrun --nproc_per_node $num_gpus \\
            train.py \\
            $model_args \\
            $training_args \\
        "
        echo $cmd
        eval $cmd
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 2
    assert value(plan, "batch.micro") == 4
    assert value(plan, "model.ref") == "facebook/opt-350m"


def test_printing_a_held_command_is_not_running_it(cli, tmp_path):
    job(tmp_path, """\
        cmd="torchrun --nproc_per_node 2 train.py"
        echo $cmd
        echo "would run: $cmd"
        """)
    res = cli("audit", "scripts/run.sh", cwd=tmp_path)
    assert res.code == 3
    assert "run.sh:1: error: no launch line found" in res.out + res.err


def test_a_heredoc_command_run_from_its_variable_with_more_words():
    assert launches("""\
        read -r -d '' CMD <<EOF
        torchrun --nproc_per_node 8 train.py --per_device_train_batch_size 2
        EOF
        $CMD --model_name_or_path gpt2
        """) == [["torchrun", "--nproc_per_node", "8", "train.py", "--per_device_train_batch_size", "2",
                  "--model_name_or_path", "gpt2"]]


def test_eval_of_a_quoted_command_and_of_plain_words():
    """bigscience data/catalogue/merge_dataset_per_languages.slurm @ 4d1b2d8 runs
    `eval "python ..."`; eval joins its words, expands them and runs the result."""
    assert launches("""\
        OUT=/data/out
        eval "python train.py --output_dir $OUT"
        """) == [["python", "train.py", "--output_dir", "/data/out"]]
    assert launches('eval torchrun --nproc_per_node 4 train.py "$@"\n', ("--x", "1")) == [
        ["torchrun", "--nproc_per_node", "4", "train.py", "--x", "1"]]
    assert launches('eval "cp -r $A $B"\neval "git tag -a v1"\n') == []


def test_srun_bash_c_runs_the_launcher_and_command_variables(cli, tmp_path):
    """bigscience train/tr8-104B-wide/tr8b-104B-pile.slurm @ 4d1b2d8 and the other Megatron-
    DeepSpeed recipes: `export LAUNCHER="python -u -m torch.distributed.launch --nproc_per_node
    $GPUS_PER_NODE --nnodes $NNODES ..."`, `export CMD="train.py ..."`, then
    `clear; srun --jobid $SLURM_JOBID bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD'`."""
    job(tmp_path, """\
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        #SBATCH --gres=gpu:8
        GPUS_PER_NODE=8
        NNODES=$SLURM_NNODES
        export LAUNCHER="python -u -m torch.distributed.launch \\
            --nproc_per_node $GPUS_PER_NODE \\
            --nnodes $NNODES \\
            "
        export CMD=" \\
            train.py \\
            --per_device_train_batch_size 2 \\
            "
        clear; srun --jobid $SLURM_JOBID bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD' 2>&1 | tee log.txt
        """, name="train.slurm")
    plan = plan_of(cli, "train.slurm", cwd=tmp_path)
    assert value(plan, "dist.nodes") == 4
    assert value(plan, "dist.world_size") == 32
    assert value(plan, "batch.micro") == 2


def test_bash_c_that_runs_no_launcher_and_a_remote_shell_stay_commands():
    (line,) = read_shell('srun bash -c "nvidia-smi; hostname"\n', "r.sh").launches
    assert line.info.script is None and line.tokens[1:3] == ["bash", "-c"]  # srun alone, as before
    assert launches('CMD="torchrun train.py"\nssh node1 bash -c "$CMD"\n') == []


def test_a_quoted_value_holding_then_or_do_stays_whole(cli, tmp_path):
    """finetrainers examples/_legacy/training/train_text_to_video_lora.sh @ 7e4bdb3: in a loop
    over learning rates, `cmd="accelerate launch ... --validation_prompt \\"... The goat then
    engages ...\\" ..."` then `eval $cmd`; the word `then` inside the prompt cut the value."""
    job(tmp_path, """\
        LEARNING_RATES=("1e-4" "1e-3")
        for learning_rate in "${LEARNING_RATES[@]}"; do
            cmd="accelerate launch --num_processes 2 train.py \\
              --validation_prompt \\"The goat then engages with Mickey, who does a dance\\" \\
              --per_device_train_batch_size 3"
            echo "Running command: $cmd"
            eval $cmd
        done
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "batch.micro") == 3
    assert value(plan, "dist.world_size") == 2


def test_commands_chained_on_one_line():
    assert launches("cd scripts && torchrun --nproc_per_node 2 train.py\n") == [
        ["torchrun", "--nproc_per_node", "2", "train.py"]]
    assert read_shell("cd src && torchrun train.py\n", "r.sh").launches[0].cwd == "src"
    # a one-line loop: the command after `do` (the loop variable is not followed)
    assert launches("for s in 1 2; do python train.py --seed $s; done\n") == [["python", "train.py", "--seed", "$s"]]


def test_a_default_after_and_and_does_not_override_a_value():
    """`[ -z "$N" ] && N=1` sets N only when it is empty; it was read as an assignment once
    the line's commands were cut at `&&`."""
    (tokens,) = launches('N=8\n[ -z "$N" ] && N=1\ntorchrun --nproc_per_node $N train.py\n')
    assert tokens[2] == "8"
    (tokens,) = launches('[ -z "$N" ] && N=1\ntorchrun --nproc_per_node $N train.py\n')
    assert tokens[2] == "1"


def test_time_with_its_path_and_options_and_ray_job_submit():
    """bigscience data/oscar/oscar-jsonl-to-meg-gpt2.slurm @ 4d1b2d8: `/usr/bin/time -v python
    tools/preprocess_data.py`; xtuner examples/v1/scripts/run_rl_submit.sh: `ray job submit
    --address=... -- python xtuner/v1/train/cli/rl.py --config $CONFIG_PATH`."""
    assert launches("/usr/bin/time -v python train.py --a 1\n") == [["python", "train.py", "--a", "1"]]
    assert launches('CONFIG_PATH=c.py\nray job submit --address="http://127.0.0.1:8265" \\\n'
                    '   -- python rl.py --config $CONFIG_PATH 2>&1 | tee log\n') == [
        ["python", "rl.py", "--config", "c.py"]]
    assert launches("ray job submit --address=x -- echo hi\n") == []


def test_bash_c_after_environment_words():
    assert launches('CUDA_VISIBLE_DEVICES=0,1 bash -c "torchrun --nproc_per_node 2 train.py"\n') == [
        ["CUDA_VISIBLE_DEVICES=0,1", "torchrun", "--nproc_per_node", "2", "train.py"]]


def test_the_scripts_own_folder_and_an_argument_slice(cli, tmp_path):
    """OpenMMLab's tools/dist_train.sh (InternVideo InternVideo1/Downstream/Open-Set-Action-
    Recognition/tools/dist_train.sh @ its mirror commit): `python -m torch.distributed.launch
    --nproc_per_node=$GPUS ... $(dirname "$0")/train.py $CONFIG --launcher pytorch ${@:3}`."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text(TRAIN)
    (tmp_path / "tools" / "dist_train.sh").write_text(textwrap.dedent("""\
        #!/usr/bin/env bash
        CONFIG=$1
        GPUS=$2
        PORT=${PORT:-29500}
        PYTHONPATH="$(dirname $0)/..":$PYTHONPATH \\
        python -m torch.distributed.launch --nproc_per_node=$GPUS --master_port=$PORT \\
            $(dirname "$0")/train.py $CONFIG --launcher pytorch ${@:3}
        """))
    res = cli("audit", "tools/dist_train.sh", "--emit-plan", "json", "--", "cfg.py", "4",
              "--per_device_train_batch_size", "5", cwd=tmp_path)
    assert res.code == 0, res.out + res.err
    plan = json.loads(res.out)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "batch.micro") == 5
    (line,) = read_shell('DIR=$(cd "$(dirname "$0")" && pwd)\npython $DIR/train.py\n', "a/b/run.sh").launches
    assert line.info.script == "a/b/train.py"
    (line,) = read_shell("python $(dirname $OTHER)/train.py\n", "a/run.sh").launches
    assert line.info.script != "a/train.py"  # another file's folder: not the script's


def test_lines_with_letters_of_any_script_are_read_to_the_end():
    """A word outside quotes that starts with a non-ASCII letter (`echo 训练完成`) once stopped
    the line's cutter from moving on: the reader must finish every line, in linear time."""

    sh = read_shell("echo 训练完成; torchrun --nproc_per_node 2 train.py\nécho x\n", "r.sh")
    assert [ln.tokens for ln in sh.launches] == [["torchrun", "--nproc_per_node", "2", "train.py"]]
    assert read_shell("X=1; " + "é d t e " * 2000 + "\n", "r.sh").variables["X"] == "1"


def test_a_script_that_runs_the_projects_launcher_wrapper(cli, tmp_path):
    """InternVideo2 multi_modality/scripts/evaluation/.../eval_*.sh run `bash torchrun.sh
    --nnodes=1 --nproc_per_node=8 tasks/retrieval.py $(dirname $0)/config.py ...`; the
    project's `torchrun.sh` runs `torchrun --rdzv_endpoint=${MASTER_NODE}:10069 $@`. The job
    is the wrapper's launch line with the outer script's arguments."""
    job(tmp_path, """\
        #!/bin/bash
        MASTER_NODE=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        torchrun --rdzv_endpoint=${MASTER_NODE}:10069 $@
        """, name="torchrun.sh")
    job(tmp_path, """\
        NUM_GPUS=4
        bash torchrun.sh \\
            --nnodes=1 \\
            --nproc_per_node=${NUM_GPUS} \\
            train.py \\
            --per_device_train_batch_size 6
        """, name="scripts/eval.sh")
    res = cli("audit", "scripts/eval.sh", "--emit-plan", "json", cwd=tmp_path)
    assert res.code == 0, res.out + res.err
    plan = json.loads(res.out)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "batch.micro") == 6
    assert any("scripts/eval.sh:2 runs torchrun.sh" in n for n in plan["notes"])


def test_a_script_that_runs_a_script_without_a_launch_is_still_one_clear_error(cli, tmp_path):
    job(tmp_path, "echo preparing\n", name="prepare.sh")
    job(tmp_path, "bash prepare.sh --fast\nbash scripts/run.sh\n", name="scripts/run.sh")
    res = cli("audit", "scripts/run.sh", cwd=tmp_path)
    assert res.code == 3
    assert "run.sh:1: error: no launch line found" in res.out + res.err


def test_a_quoted_environment_prefix_is_not_an_assignment():
    """OpenMMLab's dist_train.sh starts its command with `PYTHONPATH="$(dirname $0)/..":$PYTHONPATH
    \\`: the quoted value is the command's environment, not a variable set for the lines after;
    read as one, the launch line's prefix doubled (`PYTHONPATH=tools/..:tools/..:$PYTHONPATH`).
    Several assignments on one line (`A="x" B=2`) all set their variables."""
    (line,) = read_shell('PYTHONPATH="$(dirname $0)/..":$PYTHONPATH python tools/train.py\necho $PYTHONPATH\n',
                         "tools/dist_train.sh").launches
    assert line.tokens[0] == "PYTHONPATH=tools/..:$PYTHONPATH"
    sh = read_shell('A="x" B=2\nexport C=3 D="4"\ntorchrun --nproc_per_node $B train.py --a "$A" --c $C$D\n', "r.sh")
    assert sh.launches[0].tokens == ["torchrun", "--nproc_per_node", "2", "train.py", "--a", "x", "--c", "34"]
