"""Launch-script shapes the thirteenth held-out set showed (issue 15): a launch line held in a
string and run by ``eval`` after a variable set nowhere (VisualGLM-6B), bash arrays of Trainer
flags with ``+=`` appends under ``if`` (ProLong), and a GPU count computed with ``nvidia-smi``
or ``jq`` in an sbatch script whose ``#SBATCH --gres`` fixes it (ProLong). Each shape is read
by the one launch reader (:func:`preflight.adapters.shell.read_shell`) that audit and the gate
share; nothing is executed. Each has twins that must stay unknown.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.adapters.shell import condition, read_shell

TRAIN = textwrap.dedent("""\
    from dataclasses import dataclass, field
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")

    parser = HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()
""")


def job(tmp_path: Path, script: str, name: str = "run.sh") -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / name).write_text(textwrap.dedent(script))


def plan_of(cli, name: str, cwd: Path) -> dict:
    res = cli("audit", name, "--emit-plan", "json", cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def value(plan: dict, field: str):
    facts = plan["fields"].get(field)
    return facts[0]["value"] if facts else None


def launches(text: str, args: tuple[str, ...] = ()) -> list[list[str]]:
    return [ln.tokens for ln in read_shell(textwrap.dedent(text), "run.sh", args=args).launches]


# -- 1. a launch line in a string run by eval, after a variable set nowhere --------------------

VISUALGLM = """\
    #! /bin/bash
    MP_SIZE=1
    MODEL_TYPE="visualglm-6b"
    # OPTIONS_SAT="SAT_HOME=$1" #"SAT_HOME=/raid/dm/sat_models"
    OPTIONS_NCCL="NCCL_DEBUG=info NCCL_IB_DISABLE=0 NCCL_NET_GDR_LEVEL=2"
    HOST_FILE_PATH="hostfile"
    HOST_FILE_PATH="hostfile_single"

    gpt_options=" \\
           --experiment-name finetune-$MODEL_TYPE \\
           --model-parallel-size ${MP_SIZE} \\
           --batch-size 4 \\
           --fp16 \\
           --use_lora
    "

    run_cmd="${OPTIONS_NCCL} ${OPTIONS_SAT} deepspeed --master_port 16666 --hostfile ${HOST_FILE_PATH} train.py ${gpt_options}"
    echo ${run_cmd}
    eval ${run_cmd}

    set +x
    """


def test_eval_of_a_command_after_a_variable_set_nowhere_is_the_launch_line():
    """VisualGLM-6B finetune/finetune_visualglm.sh:54-56 @ e314fb9 (and the same lines in CogVLM,
    CogAgent and SwissArmyTransformer's examples): `OPTIONS_SAT` is commented out, so
    `${OPTIONS_SAT}` expands to nothing before `deepspeed`."""
    script = read_shell(textwrap.dedent(VISUALGLM), "finetune/finetune_visualglm.sh")
    assert [ln.line for ln in script.launches] == [19]
    tokens = script.launches[0].tokens
    assert tokens[:7] == ["NCCL_DEBUG=info", "NCCL_IB_DISABLE=0", "NCCL_NET_GDR_LEVEL=2", "deepspeed",
                         "--master_port", "16666", "--hostfile"]
    assert tokens[8:] == ["train.py", "--experiment-name", "finetune-visualglm-6b", "--model-parallel-size", "1",
                          "--batch-size", "4", "--fp16", "--use_lora"]
    assert script.launches[0].info.launcher == "deepspeed"
    assert any("${OPTIONS_SAT} before the command is not set in the script" in n for n in script.notes)


def test_the_eval_job_is_runnable(cli, tmp_path):
    job(tmp_path, VISUALGLM)
    res = cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    assert "no launch line found" not in res.out + res.err


def test_a_variable_in_command_position_before_a_script_is_not_dropped():
    """`$LAUNCHER train.py`: the variable may be the launcher itself (`torchrun --nproc_per_node
    8`); reading `python train.py` would guess one process. No launch line."""
    assert launches("$LAUNCHER train.py --lr 1\n") == []
    assert launches("${RUNNER} train.py\n") == []


def test_a_known_prefix_variable_still_expands_to_its_words():
    assert launches("""\
        OPTIONS_NCCL="NCCL_DEBUG=info"
        $OPTIONS_NCCL torchrun --nproc_per_node 2 train.py
        """) == [["NCCL_DEBUG=info", "torchrun", "--nproc_per_node", "2", "train.py"]]


def test_printing_the_held_command_only_is_no_launch():
    assert launches("""\
        run_cmd="${OPTIONS_SAT} deepspeed train.py --batch-size 4"
        echo ${run_cmd}
        """) == []


# -- 2. bash arrays --------------------------------------------------------------------------

PROLONG = """\
    #!/bin/bash -l
    #SBATCH -J train_64K
    #SBATCH -N 1
    #SBATCH --gres=gpu:8

    model=${MODEL:-princeton-nlp/Llama-3-8B-ProLong-512k-Base}
    bsz=${BSZ:-64}
    seq=${SEQ:-1} # per-device batch size

    if [ -z "$CUDA_VISIBLE_DEVICES" ]; then
        num_gpus=$(nvidia-smi -L | wc -l)
    else
        num_gpus=$(jq -n "[$CUDA_VISIBLE_DEVICES] | length")
    fi
    num_gpus=${NUM_GPUS:-$num_gpus}

    num_nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l)
    if [ $num_nodes == 0 ]; then
        num_nodes=1
    fi
    accu=$(($bsz / $seq / $num_gpus / $num_nodes))
    fsdp=${FSDP:-"1"}
    gc=${GC:-"1"}

    if [ $num_nodes -gt 1 ]; then
        header="srun torchrun \\
        --nnodes=$num_nodes \\
        --nproc-per-node=$num_gpus \\
        train.py"
    else
        header="torchrun \\
        --nnodes=1 \\
        --nproc-per-node=$num_gpus \\
        train.py"
    fi

    base_arguments=(
        --report_to wandb

        --model_name_or_path $model
        --config_overrides_json "$overrides"
        --gradient_accumulation_steps $accu
        --per_device_train_batch_size $seq

        --bf16
        --dataloader_num_workers 1

        --apply_instruct_masks # mask out the tokens from instructions (instead of responses)
    )

    if [ $fsdp -ne 0 ]; then
        export FSDP_SHARDING_STRATEGY=$fsdp
        base_arguments+=( --fsdp "auto_wrap" )
    fi

    if [ $gc -ne 0 ]; then
        base_arguments+=( --gradient_checkpointing )
    fi

    base_arguments+=( --tokenized_mds_train )
    for domain in "${domains[@]}"; do
        base_arguments+=( $dataset/$domain )
    done

    base_arguments+=( $@ )

    echo command: "${header} ${base_arguments[@]}"
    ${header} "${base_arguments[@]}" 2>&1 | tee -a $out_dir/log.out
    """


def test_a_bash_array_of_trainer_flags_on_the_launch_line():
    """ProLong train_sft.sh:98-164 @ princeton-nlp/ProLong: a multi-line array with comments,
    `+=` appends under tests over known values, a loop appending data paths, `$@`, and
    `"${base_arguments[@]}"` after the launcher held in `${header}`."""
    script = read_shell(textwrap.dedent(PROLONG), "train_sft.sh", args=("--seed", "7"))
    assert [ln.line for ln in script.launches] == [68]
    assert script.launches[0].tokens == [
        "torchrun", "--nnodes=1", "--nproc-per-node=8", "train.py",
        "--report_to", "wandb", "--model_name_or_path", "princeton-nlp/Llama-3-8B-ProLong-512k-Base",
        "--config_overrides_json", "$overrides", "--gradient_accumulation_steps", "8",
        "--per_device_train_batch_size", "1", "--bf16", "--dataloader_num_workers", "1", "--apply_instruct_masks",
        "--fsdp", "auto_wrap", "--gradient_checkpointing", "--tokenized_mds_train", "$dataset/$domain",
        "--seed", "7"]
    info = script.launches[0].info
    assert (info.procs_per_node, info.nodes) == (8, 1)


def test_the_array_job_reads_the_trainer_flags(cli, tmp_path):
    job(tmp_path, PROLONG, "train_sft.sh")
    plan = plan_of(cli, "train_sft.sh", cwd=tmp_path)
    assert value(plan, "batch.micro") == 1
    assert value(plan, "batch.grad_accum") == 8
    assert value(plan, "dist.world_size") == 8
    assert value(plan, "memory.gradient_checkpointing") is True


def test_an_append_of_options_under_an_unknown_test_makes_the_array_unknown():
    """`if [ -n "$USE_FSDP" ]` tests the environment: the reader cannot say whether `--fsdp` is
    passed, so the array stays as written on the line."""
    script = read_shell(textwrap.dedent("""\
        args=( --per_device_train_batch_size 2 )
        if [ -n "$USE_FSDP" ]; then
            args+=( --fsdp full_shard )
        fi
        torchrun --nproc_per_node 2 train.py "${args[@]}"
        """), "run.sh")
    assert script.launches[0].tokens == ["torchrun", "--nproc_per_node", "2", "train.py", "${args[@]}"]
    assert any("passes the bash array args" in n for n in script.notes)


def test_the_flags_of_an_unknown_array_are_unknown_never_the_defaults(cli, tmp_path):
    """Before: the Trainer's defaults (micro 8, accumulation 1, no checkpointing) were taken at
    medium confidence in place of the flags the array holds."""
    job(tmp_path, """\
        args=( --per_device_train_batch_size 1 --gradient_accumulation_steps 8 )
        if [ "$(hostname)" == "big" ]; then
            args+=( --gradient_checkpointing )
        fi
        torchrun --nproc_per_node 2 train.py "${args[@]}"
        """)
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert value(plan, "batch.micro") is None
    assert value(plan, "batch.grad_accum") is None
    assert value(plan, "memory.gradient_checkpointing") is None
    assert value(plan, "dist.world_size") == 2


def test_a_flag_whose_value_the_shell_computes_at_run_time_takes_no_default(cli, tmp_path):
    """`--gradient_accumulation_steps $accu` with `accu=$(($bsz / $(nvidia-smi -L | wc -l)))`
    outside Slurm: given, to a value not known statically; not the default 1."""
    job(tmp_path, """\
        num_gpus=$(nvidia-smi -L | wc -l)
        accu=$((64 / $num_gpus))
        torchrun --nproc_per_node 2 train.py --gradient_accumulation_steps $accu --per_device_train_batch_size 4
        """)
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert value(plan, "batch.grad_accum") is None
    assert value(plan, "batch.micro") == 4


def test_an_array_branch_whose_test_is_false_is_not_taken():
    assert launches("""\
        fsdp=0
        args=( --bf16 )
        if [ $fsdp -ne 0 ]; then
            args+=( --fsdp auto_wrap )
        elif [ "$fsdp" = "0" ]; then
            args+=( --ddp_backend nccl )
        else
            args+=( --deepspeed ds.json )
        fi
        python train.py ${args[*]}
        """) == [["python", "train.py", "--bf16", "--ddp_backend", "nccl"]]


def test_an_array_inside_a_held_command_string():
    """A run_cmd string holding `${MODEL_ARGS[@]}` and run by `eval` (a shape of slime-style
    launch scripts): the known elements, quoted where needed, split back by eval."""
    assert launches("""\
        MODEL_ARGS=(--model_name_or_path gpt2 --run_name "a b")
        run_cmd="torchrun --nproc_per_node 4 train.py ${MODEL_ARGS[@]}"
        eval ${run_cmd}
        """) == [["torchrun", "--nproc_per_node", "4", "train.py", "--model_name_or_path", "gpt2", "--run_name",
                  "a b"]]


def test_conditions_over_known_values():
    env = {"a": "1", "s": ""}
    assert condition("if [ $a -ne 0 ]", env, set()) is True
    assert condition("if [[ $a -gt 1 ]]", env, set()) is False
    assert condition('if [ -z "$s" ]', env, set()) is True
    assert condition('if [ "$a" == "1" ]', env, set()) is True
    assert condition('if [ -z "$CUDA_VISIBLE_DEVICES" ]', env, set()) is None  # the environment decides
    assert condition("if [ $(nproc) -gt 4 ]", env, set()) is None
    assert condition("if grep -q x f", env, set()) is None


# -- 3. the GPU count computed by a command ---------------------------------------------------

def test_a_gpu_count_command_under_sbatch_gres_is_the_allocation():
    script = read_shell(textwrap.dedent("""\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --gres=gpu:4
        NGPU=$(nvidia-smi -L | wc -l)
        torchrun --nproc_per_node=$NGPU train.py
        """), "job.sbatch")
    assert script.launches[0].info.procs_per_node == 4
    assert any("counts the GPUs #SBATCH gives each node: 4" in n for n in script.notes)


def test_a_gpu_count_without_sbatch_stays_unknown():
    script = read_shell(textwrap.dedent("""\
        NGPU=$(nvidia-smi -L | wc -l)
        torchrun --nproc_per_node=$NGPU train.py
        """), "run.sh")
    assert script.launches[0].info.procs_per_node is None


def test_other_nvidia_smi_queries_are_not_counts():
    script = read_shell(textwrap.dedent("""\
        #!/bin/bash
        #SBATCH --gres=gpu:4
        MEM=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader | head -1)
        torchrun --nproc_per_node=$MEM train.py
        """), "job.sbatch")
    assert script.launches[0].info.procs_per_node is None


def test_one_line_if_elif_else_over_known_values():
    assert launches("""\
        a=1
        if [ $a -eq 1 ]; then X=one; else X=two; fi
        if [ $a -eq 2 ]; then Y=one; elif [ $a -eq 1 ]; then Y=mid; else Y=two; fi
        python train.py --x $X --y $Y
        """) == [["python", "train.py", "--x", "one", "--y", "mid"]]


def test_an_assignment_under_an_unknown_test_stays_a_default_only():
    """The reader's older rule holds where the test is not known: a value set inside the block
    applies only when the variable is still unset or empty."""
    assert launches("""\
        NPROC=4
        if [ -n "$SLURM_JOB_ID" ]; then NPROC=8; fi
        torchrun --nproc_per_node $NPROC train.py
        """) == [["torchrun", "--nproc_per_node", "4", "train.py"]]


# -- 4. Lightning 1.x: Trainer(**cfg[section]) from the YAML the line names, DDPPlugin ---------

VAE_RUN = textwrap.dedent("""\
    import argparse
    import yaml
    from pytorch_lightning import Trainer, LightningModule
    from pytorch_lightning.plugins import DDPPlugin

    parser = argparse.ArgumentParser()
    parser.add_argument('--config', '-c', dest="filename", default='configs/vae.yaml')
    args = parser.parse_args()
    with open(args.filename, 'r') as file:
        config = yaml.safe_load(file)

    class Experiment(LightningModule):
        pass

    runner = Trainer(logger=None,
                     strategy=DDPPlugin(find_unused_parameters=False),
                     **config['trainer_params'])
    runner.fit(Experiment())
""")

VAE_YAML = textwrap.dedent("""\
    model_params:
      name: 'VanillaVAE'

    trainer_params:
      gpus: [1]
      max_epochs: 100
""")


def _vae(tmp_path: Path, yaml_text: str = VAE_YAML, run: str = VAE_RUN) -> None:
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "vae.yaml").write_text(yaml_text)
    (tmp_path / "run.py").write_text(run)


def _facts(cli, cwd: Path) -> dict:
    res = cli("audit", "run.py", "--emit-plan", "json", "--", "-c", "configs/vae.yaml", cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def test_a_trainer_built_from_a_yaml_section_reads_its_keys(cli, tmp_path):
    """PyTorch-VAE run.py:45-54 @ AntixK/PyTorch-VAE (pytorch-lightning 1.5.6): `Trainer(...,
    strategy=DDPPlugin(...), **config['trainer_params'])` with `gpus: [1]` in configs/vae.yaml."""
    _vae(tmp_path)
    plan = _facts(cli, tmp_path)
    devices = plan["fields"]["dist.devices_per_node"][0]
    assert devices["value"] == 1
    assert (devices["source"]["path"], devices["source"]["line"], devices["source"]["key"]) == (
        "configs/vae.yaml", 5, "trainer_params.gpus")
    assert value(plan, "dist.world_size") == 1
    assert value(plan, "dist.sharding") == "ddp"
    assert value(plan, "batch.grad_accum") == 1  # no accumulate_grad_batches in the section: Lightning's 1


def test_a_section_key_given_in_the_yaml_wins_over_the_default(cli, tmp_path):
    _vae(tmp_path, VAE_YAML + "  accumulate_grad_batches: 4\n  num_nodes: 2\n")
    plan = _facts(cli, tmp_path)
    assert value(plan, "batch.grad_accum") == 4
    assert value(plan, "dist.world_size") == 2


def test_a_mapping_no_config_holds_is_not_followed_and_takes_no_defaults(cli, tmp_path):
    _vae(tmp_path, VAE_YAML.replace("trainer_params", "trainer"))
    plan = _facts(cli, tmp_path)
    assert value(plan, "batch.grad_accum") is None
    assert value(plan, "dist.world_size") is None
    assert value(plan, "dist.sharding") == "ddp"  # the written strategy= is still read
    assert any("arguments passed as a mapping are not followed" in n for n in plan["notes"])


def test_a_mapping_built_by_a_call_is_not_followed(cli, tmp_path):
    _vae(tmp_path, run=VAE_RUN.replace("**config['trainer_params']", "**dict(gpus=[0, 1])"))
    plan = _facts(cli, tmp_path)
    assert value(plan, "dist.devices_per_node") is None
    assert value(plan, "batch.grad_accum") is None


def test_the_gate_reads_the_same_shapes_in_an_sbatch_script():
    """The scheduler gate reads the launch through the same reader: ProLong's GPU count and
    array reach the launch it checks against the allocation."""
    from preflight.gate.slurm import job_from_sbatch, parse_sbatch

    sj = parse_sbatch(textwrap.dedent(PROLONG), "train_sft.sh")
    assert len(sj.launches) == 1
    launch = sj.launches[0]
    assert launch.line == 68 and launch.info.script == "train.py"
    assert job_from_sbatch(sj).launch.procs_per_node == 8
