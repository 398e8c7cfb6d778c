"""`preflight audit run.sh`: the job as users launch it (issue 15 part 1).

Each test writes a small job the way real repositories lay them out (a launch script in a
sub-directory that runs `main.py` from the directory above, configs named on the line) and
checks what the user sees: exit code, the plan's facts and where they came from.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.adapters.shell import command_tokens, expand, read_shell

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    from transformers import AutoModelForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="gpt2")
    p.add_argument("--per_device_train_batch_size", type=int, default=4)
    p.add_argument("--deepspeed_config", default=None)
    p.add_argument("--local_rank", type=int, default=-1)
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

DS = {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 4,
      "zero_optimization": {"stage": 3, "reduce_bucket_size": 5e8}, "bf16": {"enabled": True}}


def job(tmp_path: Path, script: str, name: str = "scripts/run.sh", extra: dict | None = None) -> Path:
    (tmp_path / "main.py").write_text(TRAIN)
    (tmp_path / "configs").mkdir(exist_ok=True)
    (tmp_path / "configs" / "ds_z3.json").write_text(json.dumps(DS))
    for rel, text in (extra or {}).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(script))
    return path


def plan_of(cli, *args: str, cwd: Path) -> dict:
    args = list(args)
    cut = args.index("--") if "--" in args else len(args)
    res = cli("audit", *args[:cut], "--emit-plan", "json", *args[cut:], cwd=cwd)
    assert res.code == 0, res.err
    return json.loads(res.out)


def value(plan: dict, field: str):
    facts = plan["fields"].get(field)
    return facts[0]["value"] if facts else None


def test_torchrun_script_with_defaults_and_continuations(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        NGPUS=${NGPUS:-4}
        export NNODES=1
        MODEL=${1:-facebook/opt-1.3b}
        torchrun --nnodes $NNODES --nproc_per_node=$NGPUS \\
            main.py --model_name_or_path $MODEL \\
            --per_device_train_batch_size 8
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "model.ref") == "facebook/opt-1.3b"
    assert value(plan, "batch.micro") == 8
    assert any("job from scripts/run.sh:5" in n for n in plan["notes"])


def test_torchrun_positional_argument_given_after_dashes(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        torchrun --nproc_per_node ${2:-2} main.py --model_name_or_path ${1:-gpt2}
        """)
    plan = plan_of(cli, "scripts/run.sh", "--", "facebook/opt-350m", "8", cwd=tmp_path)
    assert value(plan, "model.ref") == "facebook/opt-350m"
    assert value(plan, "dist.world_size") == 8


def test_deepspeed_script_reads_the_config_it_names(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        OUTPUT=$1
        ZERO_STAGE=$2
        if [ "$ZERO_STAGE" == "" ]; then
            ZERO_STAGE=3
        fi
        deepspeed --num_gpus 8 main.py --deepspeed_config configs/ds_z${ZERO_STAGE}.json &> $OUTPUT/log
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "dist.devices_per_node") == 8
    assert value(plan, "dist.sharding") == "zero3"
    assert "configs/ds_z3.json" in [i["path"] for i in plan["inputs"]]


def test_accelerate_script_reads_config_file_and_its_deepspeed_file(cli, tmp_path):
    acc = textwrap.dedent("""\
        compute_environment: LOCAL_MACHINE
        distributed_type: DEEPSPEED
        deepspeed_config:
          deepspeed_config_file: configs/ds_z3.json
          zero3_init_flag: true
        num_machines: 1
        num_processes: 8
        """)
    job(tmp_path, """\
        #!/bin/bash
        accelerate launch --config_file configs/acc.yaml main.py --model_name_or_path gpt2
        """, extra={"configs/acc.yaml": acc})
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    paths = [i["path"] for i in plan["inputs"]]
    assert "configs/acc.yaml" in paths and "configs/ds_z3.json" in paths
    assert value(plan, "dist.sharding") == "zero3"
    assert value(plan, "model.ref") == "gpt2"


def test_sbatch_srun_torchrun_reads_slurm_variables(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gres=gpu:8
        GPUS_PER_NODE=8
        srun torchrun --nnodes $SLURM_NNODES --nproc_per_node $GPUS_PER_NODE \\
            --rdzv_backend c10d main.py --model_name_or_path gpt2
        """, name="train.sbatch")
    plan = plan_of(cli, "train.sbatch", cwd=tmp_path)
    assert value(plan, "dist.nodes") == 2
    assert value(plan, "dist.world_size") == 16
    assert any("SLURM_NNODES=2" in n for n in plan["notes"])


def test_python_launch_script_and_gpu_target_just_works(cli, tmp_path):
    job(tmp_path, """\
        #!/bin/sh
        CUDA_VISIBLE_DEVICES=0 python main.py --model_name_or_path gpt2 > log.txt 2>&1
        """)
    res = cli("audit", "scripts/run.sh", "--gpu", "a100-80gb", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert "not a Python script" not in res.out + res.err
    assert "model.ref" in res.out and "gpt2" in res.out


def test_directory_chooses_a_launch_script_and_says_why(cli, tmp_path):
    job(tmp_path, "#!/bin/bash\ntorchrun --nproc_per_node 2 main.py\n")
    job(tmp_path, "#!/bin/bash\ntorchrun --nproc_per_node 4 main.py\n", name="scripts/run_big.sh")
    plan = plan_of(cli, ".", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 2
    assert any("chose scripts/run.sh" in n and "scripts/run_big.sh" in n for n in plan["notes"])


def test_python_dash_m_module(cli, tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "-m", "pkg.train",
                   "--model_name_or_path", "gpt2", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 4
    assert value(plan, "model.ref") == "gpt2"
    plan = plan_of(cli, "pkg.train", "--", "--model_name_or_path", "gpt2-medium", cwd=tmp_path)
    assert value(plan, "model.ref") == "gpt2-medium"


def test_launch_script_without_launch_line_is_one_clear_error(cli, tmp_path):
    (tmp_path / "run.sh").write_text("#!/bin/bash\necho hello\n")
    res = cli("audit", "run.sh", cwd=tmp_path)
    assert res.code == 3
    assert "run.sh:1: error: no launch line found" in res.out + res.err
    assert "Traceback" not in res.out + res.err


def test_check_accepts_a_launch_script(cli, tmp_path):
    job(tmp_path, "#!/bin/bash\npython main.py\n")
    res = cli("check", "scripts/run.sh", cwd=tmp_path)
    assert res.code == 0, res.out + res.err
    assert "1 file" in res.out


def test_estimate_accepts_a_launch_script(cli, tmp_path):
    job(tmp_path, "#!/bin/bash\ntorchrun --nproc_per_node 8 main.py --model_name_or_path gpt2 "
                  "--per_device_train_batch_size 2\n")
    res = cli("estimate", "scripts/run.sh", "--gpu", "a100-80gb", "--seq-len", "512", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert "Model: GPT-2" in res.out


# -- the shell reader itself ---------------------------------------------------------------

def test_expand_defaults_and_arithmetic():
    env = {"A": "2", "B": ""}
    assert expand("${A:-9}", dict(env)) == "2"
    assert expand("${B:-9}", dict(env)) == "9"
    assert expand("${B-9}", dict(env)) == ""
    assert expand("${C:-x}", dict(env)) == "x"
    assert expand("$C", dict(env)) == "$C"  # unknown stays as written
    assert expand("${1:-3}", {}, {"1"}) == "3"
    assert expand("$(($A * 4))", dict(env)) == "8"
    assert expand("$(hostname)", dict(env)) == "$(hostname)"


def test_command_tokens_cut_redirections_and_chains():
    assert command_tokens("python t.py --a 1 > log 2>&1") == ["python", "t.py", "--a", "1"]
    assert command_tokens("nohup python t.py --x '#1' & # run") == ["python", "t.py", "--x", "#1"]
    assert command_tokens("torchrun t.py || exit 1") == ["torchrun", "t.py"]


def test_read_shell_assignments_inside_blocks_are_defaults():
    text = "#!/bin/bash\nS=$1\nif [ -z \"$S\" ]; then S=2; fi\nif [ x ]; then\n  S=7\nfi\ndeepspeed t.py --zero_stage $S\n"
    sh = read_shell(text, "r.sh")
    assert sh.launches[0].tokens[-1] == "2"
    sh = read_shell(text, "r.sh", args=["5"])
    assert sh.launches[0].tokens[-1] == "5"


def test_read_shell_never_raises_on_odd_text():
    for text in ("", "\\", "'unterminated", "$((1/0))", "if\nfi\nfi\n", "X=$(", "python 'a"):
        read_shell(text, "x.sh")


def test_gate_reads_launch_lines_with_the_same_reader():
    from preflight.gate.slurm import parse_sbatch

    text = ("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\nNPROC=${NPROC:-4}\n"
            "srun torchrun --nnodes $SLURM_NNODES --nproc_per_node $NPROC train.py\n")
    job = parse_sbatch(text, "job.sh")
    (launch,) = job.launches
    assert launch.line == 5
    assert launch.info.nodes == 2 and launch.info.procs_per_node == 4
    # the command line wins over the directive, as sbatch does
    job = parse_sbatch(text, "job.sh", cli=["--nodes=3"])
    assert job.launches[0].info.nodes == 3


def test_dollar_at_passes_the_script_arguments_on():
    sh = read_shell("#!/bin/bash\ndeepspeed t.py --deepspeed $@\n", "r.sh", args=["--stage", "3"])
    assert sh.launches[0].tokens == ["deepspeed", "t.py", "--deepspeed", "--stage", "3"]
    sh = read_shell("#!/bin/bash\ndeepspeed t.py --deepspeed $@\n", "r.sh")
    assert sh.launches[0].tokens == ["deepspeed", "t.py", "--deepspeed"]


def test_script_named_by_a_cluster_path_is_found_by_its_path_ending(cli, tmp_path):
    (tmp_path / "mingpt").mkdir()
    (tmp_path / "mingpt" / "main.py").write_text(TRAIN)
    (tmp_path / "mingpt" / "slurm").mkdir()
    (tmp_path / "mingpt" / "slurm" / "run.sbatch").write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\nsrun torchrun --nnodes 2 --nproc_per_node 1 /shared/examples/mingpt/main.py\n")
    plan = plan_of(cli, "mingpt/slurm/run.sbatch", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 2
    assert any("same path ending" in n for n in plan["notes"])
    # a bare name elsewhere is not guessed
    (tmp_path / "mingpt" / "slurm" / "run.sbatch").write_text("#!/bin/bash\nsrun torchrun /shared/other.py\n")
    res = cli("audit", "mingpt/slurm/run.sbatch", cwd=tmp_path)
    assert res.code == 3 and "not found" in res.out + res.err


def test_doubling_variables_stay_bounded():
    text = "#!/bin/bash\nX=ab\n" + "X=$X$X\n" * 60 + "torchrun --nproc_per_node 2 t.py --tag $X\n"
    sh = read_shell(text, "r.sh")
    assert sh.launches[0].info.procs_per_node == 2
    assert all(len(t) < 10000 for t in sh.launches[0].tokens)


def test_directory_prefers_a_training_launch_over_helper_scripts(cli, tmp_path):
    job(tmp_path, "#!/bin/bash\npython main.py --prepare\n", name="tools/prepare_data.sh")
    job(tmp_path, "#!/bin/bash\ndeepspeed --num_gpus 8 main.py\n", name="scripts/deep/train_big.sh")
    plan = plan_of(cli, ".", cwd=tmp_path)
    assert any("chose scripts/deep/train_big.sh" in n for n in plan["notes"])


def test_directory_with_only_helper_scripts_takes_the_entry_point(cli, tmp_path):
    job(tmp_path, "#!/bin/bash\npython prep.py\n", name="tools/prepare_data.sh")
    (tmp_path / "prep.py").write_text("print(1)\n")
    (tmp_path / "train.py").write_text(TRAIN)
    plan = plan_of(cli, ".", cwd=tmp_path)
    assert any("chose entry point train.py" in n for n in plan["notes"])


def test_script_of_several_steps_follows_the_training_line(cli, tmp_path):
    # karpathy/nanochat runs/speedrun.sh (92d63d4): a data download and a tokenizer step by plain
    # python come first; the job is the torchrun line that trains (lines 50-67 there)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name in ("dataset", "base_train", "base_eval"):
        (tmp_path / "pkg" / f"{name}.py").write_text(TRAIN)
    job(tmp_path, """\
        #!/bin/bash
        python -m pkg.dataset --model_name_or_path gpt2
        torchrun --standalone --nproc_per_node=8 -m pkg.base_train --model_name_or_path gpt2-large
        torchrun --standalone --nproc_per_node=8 -m pkg.base_eval --model_name_or_path gpt2
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 8
    assert value(plan, "model.ref") == "gpt2-large"
    assert any("job from scripts/run.sh:3" in n and "line(s) 2, 4 not followed" in n for n in plan["notes"])


def test_script_of_equal_steps_keeps_source_order(cli, tmp_path):
    # two training lines alike in every way: the first is the job, as before
    job(tmp_path, """\
        #!/bin/bash
        torchrun --nproc_per_node 2 main.py --model_name_or_path gpt2
        torchrun --nproc_per_node 4 main.py --model_name_or_path gpt2-medium
        """)
    plan = plan_of(cli, "scripts/run.sh", cwd=tmp_path)
    assert value(plan, "dist.world_size") == 2
    assert any("job from scripts/run.sh:2" in n for n in plan["notes"])
