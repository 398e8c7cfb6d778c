"""Launch shapes the fifteenth held-out set showed (issue 15), each in a minimal project of our
own that copies the shape of the real file it cites; each has twins that must stay unknown.

1. Hydra: a defaults entry ``task@_global_: walker_walk`` and the launch ``python train.py
   task=quadruped_walk`` (facebookresearch/drqv2 ``cfgs/config.yaml:3``, README.md:89 @ c0c650b).
   Hydra 1.1 keys a group at the global package by the group alone (``get_override_key``: final
   package "" -> no ``@``); Hydra >= 1.2 asks for ``task@_global_=`` (facebookresearch/hydra#1791).
   A launch-line group override the composer cannot place never makes the job unreadable.
2. ``srun ... bash torchrun.sh --nnodes=4 --nproc_per_node=8 tasks/train_it.py cfg`` (OpenGVLab/
   Ask-Anything ``video_chat2/scripts/videochat_mistral/slurm_run_7b_stage3.sh`` @ 4dd8210):
   the wrapper script srun runs is followed as it is without srun.
3. ``CUDA_VISIBLE_DEVICES=$id $python_path train.py ...`` (asteroid-team/asteroid
   ``egs/librimix/ConvTasNet/run.sh:97`` @ 92c8d83): environment words before an interpreter
   held in a variable; the training line wins over the stage's ``$python_path eval.py`` line.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from plan_helpers import write
from preflight.adapters.shell import read_shell


def audit(cli, *args: str, cwd: Path):
    args_ = list(args)
    cut = args_.index("--") if "--" in args_ else len(args_)
    return cli("audit", *args_[:cut], "--emit-plan", "json", "--no-cache", *args_[cut:], cwd=cwd)


def value(plan: dict, field: str):
    facts = plan["fields"].get(field)
    return facts[0]["value"] if facts else None


# -- 1. Hydra: a group at the global package, overridden by the group's name -------------------

DRQ = {
    "cfgs/config.yaml": """\
        defaults:
          - _self_
          - task@_global_: walker_walk

        lr: 1e-4
        batch_size: 256
        trainer:
          devices: 1
        """,
    "cfgs/task/walker_walk.yaml": """\
        task_name: walker_walk
        trainer:
          _target_: lightning.pytorch.Trainer
          devices: 1
        """,
    "cfgs/task/quadruped_walk.yaml": """\
        task_name: quadruped_walk
        trainer:
          _target_: lightning.pytorch.Trainer
          devices: 4
        """,
    "train.py": """\
        import hydra


        @hydra.main(config_path="cfgs", config_name="config")
        def main(cfg):
            print(cfg.task_name)


        if __name__ == "__main__":
            main()
        """,
}


@pytest.fixture(params=["hydra-core", "composer"])
def composer(request, monkeypatch):
    if request.param == "hydra-core":
        pytest.importorskip("hydra")
    else:
        for name in [m for m in sys.modules if m == "hydra" or m.startswith("hydra.")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, "hydra", None)
    return request.param


def test_a_group_at_the_global_package_is_overridden_by_its_name(composer, tmp_path):
    from preflight.adapters.hydra_compose import compose

    write(tmp_path, DRQ)
    result = compose(tmp_path / "cfgs", "config", ["task=quadruped_walk"], None)
    assert result.config["task_name"] == "quadruped_walk"
    assert result.config["trainer"]["devices"] == 4
    assert result.config["batch_size"] == 256
    assert any("Hydra 1.1 keys a group at the global package by the group alone" in n for n in result.notes)


def test_the_global_override_spelled_with_the_package_needs_no_note(composer, tmp_path):
    from preflight.adapters.hydra_compose import compose

    write(tmp_path, DRQ)
    result = compose(tmp_path / "cfgs", "config", ["task@_global_=quadruped_walk"], None)
    assert result.config["task_name"] == "quadruped_walk"
    assert not any("Hydra 1.1" in n for n in result.notes)


def test_the_drq_job_is_read(cli, tmp_path):
    write(tmp_path, DRQ)
    res = audit(cli, "train.py", "--", "task=quadruped_walk", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    assert value(plan, "dist.devices_per_node") == 4
    facts = plan["fields"]["dist.devices_per_node"]
    assert facts[0]["source"]["path"] == "cfgs/task/quadruped_walk.yaml"


def test_a_group_at_another_package_is_not_matched_by_its_name(composer, tmp_path):
    # `task@env: walker_walk` keys `task@env`: `task=...` matches no entry (Hydra says so too)
    from preflight.adapters.hydra_compose import ComposeError, compose

    files = dict(DRQ)
    files["cfgs/config.yaml"] = DRQ["cfgs/config.yaml"].replace("task@_global_", "task@env")
    write(tmp_path, files)
    with pytest.raises(ComposeError, match="Could not override 'task'"):
        compose(tmp_path / "cfgs", "config", ["task=quadruped_walk"], None)


def test_a_group_override_not_placed_leaves_the_config_unknown_and_the_job_readable(cli, tmp_path):
    files = dict(DRQ)
    files["cfgs/config.yaml"] = DRQ["cfgs/config.yaml"].replace("task@_global_", "task@env")
    write(tmp_path, files)
    res = audit(cli, "train.py", "--", "task=quadruped_walk", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    assert value(plan, "dist.devices_per_node") is None  # neither walker's 1 nor quadruped's 4
    assert any("Could not override 'task'" in n and "values are unknown" in n for n in plan["notes"])
    assert "not composed" not in res.err


# -- 2. srun running the project's wrapper script ------------------------------------------------

LOOP = """\
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.distributed.init_process_group("nccl")
    model = DDP(torch.nn.Linear(2, 2).cuda())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        loss = model(torch.randn(4, 2).cuda()).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    """

VIDEOCHAT = {
    "tasks/train_it.py": LOOP,
    "torchrun.sh": """\
        #!/bin/bash
        MASTER_NODE=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
        echo $@
        torchrun --rdzv_endpoint=${MASTER_NODE}:10066 $@
        """,
    "scripts/stage3.sh": """\
        JOB_NAME='stage3'
        OUTPUT_DIR="$(dirname $0)/$JOB_NAME"
        PARTITION='video'
        NNODE=4
        NUM_GPUS=8
        NUM_CPU=128

        srun -p ${PARTITION} \\
            -n${NNODE} \\
            --gres=gpu:${NUM_GPUS} \\
            --ntasks-per-node=1 \\
            --cpus-per-task=${NUM_CPU} \\
            bash torchrun.sh \\
            --nnodes=${NNODE} \\
            --nproc_per_node=${NUM_GPUS} \\
            --rdzv_backend=c10d \\
            tasks/train_it.py \\
            $(dirname $0)/config_7b_stage3.py \\
            output_dir ${OUTPUT_DIR}
        """,
}


def test_srun_running_a_wrapper_script_is_a_subscript():
    script = read_shell(textwrap.dedent(VIDEOCHAT["scripts/stage3.sh"]), "scripts/stage3.sh")
    assert script.launches == []
    (sub,) = script.subscripts
    assert sub.path == "torchrun.sh"
    assert sub.args[:3] == ["--nnodes=4", "--nproc_per_node=8", "--rdzv_backend=c10d"]
    assert "tasks/train_it.py" in sub.args


def test_the_srun_wrapper_job_is_read(cli, tmp_path):
    write(tmp_path, VIDEOCHAT)
    res = audit(cli, "scripts/stage3.sh", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    assert (value(plan, "dist.nodes"), value(plan, "dist.devices_per_node"), value(plan, "dist.world_size")) == (
        4, 8, 32)
    assert any("runs torchrun.sh" in n for n in plan["notes"])


def test_srun_running_a_python_script_is_still_its_own_launch_line():
    script = read_shell("srun -N2 --ntasks-per-node=8 python train.py --lr 1\n", "run.sh")
    assert [ln.info.script for ln in script.launches] == ["train.py"]
    assert script.subscripts == []


def test_srun_running_a_script_without_a_launch_line_is_still_no_job(cli, tmp_path):
    write(tmp_path, {"tasks/train_it.py": LOOP, "setup.sh": "echo setting up\nmkdir -p out\n",
                     "run.sh": "srun -n4 --ntasks-per-node=1 bash setup.sh\n"})
    res = audit(cli, "run.sh", cwd=tmp_path)
    assert res.code == 3
    assert "no launch line found" in res.err


# -- 3. environment words before an interpreter held in a variable -------------------------------

ASTEROID = """\
    #!/bin/bash
    set -e
    python_path=python
    stage=0
    id=$CUDA_VISIBLE_DEVICES
    expdir=exp/train_convtasnet
    uuid=$($python_path -c 'import uuid, sys; print(str(uuid.uuid4())[:8])')

    if [[ $stage -le 2 ]]; then
      echo "Stage 2: Training"
      mkdir -p logs
      CUDA_VISIBLE_DEVICES=$id $python_path train.py --exp_dir $expdir \\
        --batch_size 24 \\
        --num_workers 4 | tee logs/train_${tag}.log
    fi

    if [[ $stage -le 3 ]]; then
      echo "Stage 3 : Evaluation"
      $python_path -m pip install jiwer
      $python_path eval.py --exp_dir $expdir --use_gpu 1
    fi
    """


def test_an_env_prefix_before_a_held_interpreter_is_a_launch_line():
    script = read_shell(textwrap.dedent(ASTEROID), "run.sh")
    by_script = {ln.info.script: ln for ln in script.launches}
    assert {"train.py", "eval.py"} <= set(by_script)
    train = by_script["train.py"]
    assert train.line == 12
    assert train.info.launcher == "python"
    assert train.info.script_args[:4] == ["--exp_dir", "exp/train_convtasnet", "--batch_size", "24"]


@pytest.mark.parametrize("interp", ["$python_path", "${PYTHON}", "$PYTHON"])
def test_each_spelling_of_the_held_interpreter(interp):
    text = f"PYTHON=python3\npython_path=python\nCUDA_VISIBLE_DEVICES=0,1 OMP_NUM_THREADS=1 {interp} train.py\n"
    (line,) = read_shell(text, "run.sh").launches
    assert (line.info.script, line.info.env.get("CUDA_VISIBLE_DEVICES")) == ("train.py", "0,1")


def test_an_env_prefix_before_an_unknown_variable_stays_no_launch_line():
    # `$runner` is set nowhere: what it runs is not known
    assert read_shell("CUDA_VISIBLE_DEVICES=0 $runner train.py\n", "run.sh").launches == []


def test_the_training_line_is_audited_not_the_evaluation_line(cli, tmp_path):
    write(tmp_path, {"run.sh": ASTEROID, "eval.py": "import torch\nprint(torch.load('x'))\n",
                     "train.py": """\
        import argparse

        import torch
        from torch.utils.data import DataLoader

        parser = argparse.ArgumentParser()
        parser.add_argument("--exp_dir")
        parser.add_argument("--batch_size", type=int, default=8)
        parser.add_argument("--num_workers", type=int, default=0)
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        opt = torch.optim.Adam(model.parameters())
        loader = DataLoader(range(100), batch_size=args.batch_size, num_workers=args.num_workers)
        for x in loader:
            model(x).sum().backward()
            opt.step()
            opt.zero_grad()
        """})
    res = audit(cli, "run.sh", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    assert (value(plan, "batch.micro"), value(plan, "data.num_workers")) == (24, 4)
    assert any(n.startswith("job from run.sh:12:") for n in plan["notes"])
    # the device list comes from the environment at launch: no count is made up from it; the one process
    # puts its model on one device (adapters/one_device.py), whatever the list holds
    facts = plan["fields"].get("dist.devices_per_node", [])
    assert [f["value"] for f in facts] == [1] and facts[0]["source"]["detail"].startswith("one process")
    assert not any("CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES makes" in n for n in plan["notes"])


# -- 4. launch strings exported by a sourced file and run with eval --------------------------------

LESS_ARGS = """\
    #!/bin/bash

    ID=$RANDOM
    export header="torchrun --nproc_per_node 1 --nnodes 1 \\
    --rdzv-id=$ID --rdzv_backend c10d \\
    -m less.train.train"

    export base_training_args="--do_train True \\
    --max_seq_length 2048 \\
    --per_device_train_batch_size 1 \\
    --gradient_accumulation_steps 32"
    """

LESS_RUN = """\
    #!/bin/bash

    source less/scripts/train/base_training_args.sh

    model_path=$1
    output_dir=../out/$2

    training_args="$base_training_args \\
    --model_name_or_path $model_path \\
    --output_dir $output_dir 2>&1 | tee $output_dir/train.log"

    eval "$header" "$training_args"
    """


def _less_files(tmp_path: Path, args_at: str = "less/scripts/train/base_training_args.sh") -> None:
    write(tmp_path, {args_at: LESS_ARGS, "less/scripts/train/warmup.sh": LESS_RUN,
                     "less/__init__.py": "", "less/train/__init__.py": "",
                     "less/train/train.py": """\
        from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

        parser = HfArgumentParser((TrainingArguments,))
        (training_args,) = parser.parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        Trainer(model=model, args=training_args).train()
        """})


def _sourcing(root: Path, files: dict[str, str]):
    def get(name: str, cwd):
        text = files.get(name)
        return None if text is None else (name, textwrap.dedent(text))
    return get


def test_variables_of_a_sourced_file_feed_the_eval_line():
    script = read_shell(textwrap.dedent(LESS_RUN), "warmup.sh", ("gpt2", "run1"),
                        sourced=_sourcing(Path("."), {"less/scripts/train/base_training_args.sh": LESS_ARGS}))
    (line,) = script.launches
    assert line.line == 12
    assert line.info.launcher == "torchrun" and line.info.script == "less.train.train"
    assert "--per_device_train_batch_size" in line.info.script_args
    assert line.info.script_args[-4:] == ["--model_name_or_path", "gpt2", "--output_dir", "../out/run1"]
    assert any("sources less/scripts/train/base_training_args.sh" in n for n in script.notes)


def test_without_the_sourced_file_the_eval_line_stays_unknown():
    assert read_shell(textwrap.dedent(LESS_RUN), "warmup.sh", ("gpt2", "run1")).launches == []
    assert read_shell(textwrap.dedent(LESS_RUN), "warmup.sh", ("gpt2", "run1"),
                      sourced=_sourcing(Path("."), {})).launches == []


def test_a_source_line_in_a_false_branch_or_of_an_unknown_path_sets_nothing():
    files = {"a.sh": "export header='torchrun -m pkg.train'\n"}
    text = 'mode=eval\nif [[ $mode == "train" ]]; then\n  source a.sh\nfi\neval "$header"\n'
    assert read_shell(text, "run.sh", sourced=_sourcing(Path("."), files)).launches == []
    text = 'source $CONF_DIR/a.sh\neval "$header"\n'
    assert read_shell(text, "run.sh", sourced=_sourcing(Path("."), files)).launches == []
    # Kaldi's option parser is not read as a file of settings
    text = '. utils/parse_options.sh\neval "$header"\n'
    assert read_shell(text, "run.sh", sourced=_sourcing(Path("."), {"utils/parse_options.sh": files["a.sh"]})
                      ).launches == []


def test_the_less_job_is_read(cli, tmp_path):
    _less_files(tmp_path)
    res = audit(cli, "less/scripts/train/warmup.sh", "--", "gpt2", "run1", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    assert (value(plan, "batch.micro"), value(plan, "batch.grad_accum"), value(plan, "dist.world_size")) == (
        1, 32, 1)


def test_a_sourced_file_outside_the_job_is_not_read(cli, tmp_path):
    _less_files(tmp_path / "job", args_at="../outside/base_training_args.sh")
    (tmp_path / "job" / "less/scripts/train/warmup.sh").write_text(
        textwrap.dedent(LESS_RUN).replace("source less/scripts/train/base_training_args.sh",
                                          "source ../outside/base_training_args.sh"))
    res = audit(cli, "less/scripts/train/warmup.sh", "--", "gpt2", "run1", cwd=tmp_path / "job")
    assert res.code == 3
    assert "no launch line found" in res.err


# -- 5. LoRA in a package beside the script's folder leaves the training mode unknown ---------------

VC_TRAIN = """\
    import torch
    from models import *

    model = eval("VideoChat2")()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        loss = model(torch.randn(4, 2)).sum()
        loss.backward()
        opt.step()
    """


@pytest.mark.parametrize("with_lora", [True, False])
def test_lora_named_in_a_package_beside_the_scripts_folder(cli, tmp_path, with_lora):
    # OpenGVLab/Ask-Anything video_chat2 tasks/train_it.py:12 `from models import *`, the LoRA in
    # models/videochat_mistra/videochat2_it_mistral.py:143-151 (@ 4dd8210)
    body = ("from peft import LoraConfig, get_peft_model\n" if with_lora else "") + textwrap.dedent("""\
        import torch


        class VideoChat2(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(2, 2)
        """)
    write(tmp_path, {"tasks/train_it.py": VC_TRAIN, "models/__init__.py": "from .chat import VideoChat2\n",
                     "models/chat.py": body})
    res = audit(cli, "tasks/train_it.py", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    plan = json.loads(res.out)
    if with_lora:  # LoRA named, not read: whether it trains adapters only is not known (jobs35: no guess)
        assert "task.mode" not in plan["fields"]
        assert any("LoRA/PEFT is named" in n for n in plan["notes"])
    else:
        (mode,) = plan["fields"]["task.mode"]
        assert mode["value"] == "train" and mode["confidence"] != "low"


# -- 6. PF507: a `???` the script fills in before use (DrQ-v2 once it composes) ---------------------

DRQ_AGENT = {
    "cfgs/config.yaml": """\
        agent:
          _target_: drqv2.DrQV2Agent
          obs_shape: ??? # to be specified later
          action_shape: ??? # to be specified later
          lr: 1e-4
        """,
    "train.py": """\
        import hydra


        def make_agent(obs_spec, action_spec, cfg):
            cfg.obs_shape = obs_spec.shape
            {second}
            return hydra.utils.instantiate(cfg)


        @hydra.main(config_path="cfgs", config_name="config")
        def main(cfg):
            agent = make_agent(None, None, cfg.agent)


        if __name__ == "__main__":
            main()
        """,
}


@pytest.mark.parametrize("second, fires", [("cfg.action_shape = action_spec.shape", False),
                                           ('cfg["action_shape"] = action_spec.shape', False),
                                           ('setattr(cfg, "action_shape", action_spec.shape)', False),
                                           ("cfg.action_dim = action_spec.shape", True)])
def test_a_mandatory_value_the_script_assigns_is_no_finding(cli, tmp_path, second, fires):
    files = dict(DRQ_AGENT)
    files["train.py"] = DRQ_AGENT["train.py"].replace("{second}", second)
    write(tmp_path, files)
    res = cli("audit", "train.py", "--no-cache", cwd=tmp_path)
    out = res.out + res.err
    assert "`agent.obs_shape`" not in out
    assert ("PF507 `agent.action_shape`" in out) is fires, out
