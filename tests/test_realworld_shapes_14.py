"""Shapes of the fourteenth held-out set's real jobs (issue 15), reproduced in minimal fixtures of
our own, each citing the repository, path and commit it copies the shape of."""

from __future__ import annotations

import textwrap
from pathlib import Path

from plan_helpers import fact as best
from plan_helpers import plan_of, winner, write

# corl-team/CORL algorithms/offline/dt.py:22-60,430-445 @ eeeeef2671235fcce3a3eb255576a207d78840e6:
# ``@pyrallis.wrap()`` over ``def train(config: TrainConfig)``; the YAML of ``--config_path`` is
# applied over the dataclass defaults (configs/offline/dt/halfcheetah/medium_v2.yaml:2 batch_size: 4096).
CORL_DT = """\
    from dataclasses import dataclass

    import pyrallis
    import torch
    from torch.utils.data import DataLoader


    @dataclass
    class TrainConfig:
        project: str = "CORL"
        seq_len: int = 20
        batch_size: int = 64
        num_workers: int = 4


    @{decorator}
    def train(config: TrainConfig):
        model = torch.nn.Linear(4, 4).cuda()
        optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
        loader = DataLoader(range(100), batch_size=config.batch_size, num_workers=config.num_workers,
                            pin_memory=True)
        for batch in loader:
            loss = model(batch).mean()
            optim.zero_grad()
            loss.backward()
            optim.step()


    if __name__ == "__main__":
        train()
    """
CORL_YAML = """\
    batch_size: 4096
    num_workers: 4
    seq_len: 30
    """


def test_pyrallis_config_path_is_applied_over_the_dataclass_defaults(cli, tmp_path: Path) -> None:
    write(tmp_path, {"dt.py": CORL_DT.format(decorator="pyrallis.wrap()"), "configs/dt/medium.yaml": CORL_YAML})
    plan = plan_of(cli, "dt.py", "--", "--config_path=configs/dt/medium.yaml", cwd=tmp_path)
    fact = best(plan, "batch.micro")
    assert fact is not None and fact.value == 4096
    assert "medium.yaml:1" in (fact.source.detail or "")
    # a ``seq_len`` option is the sequence length, like ``max_seq_len``: the file's 30
    assert winner(plan, "data.seq_len") == 30
    # the line's own --key wins over the file (pyrallis: file, then arguments)
    plan = plan_of(cli, "dt.py", "--", "--config_path", "configs/dt/medium.yaml", "--batch_size", "256",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 256


def test_pyrallis_without_a_config_file_keeps_the_dataclass_default_at_high(cli, tmp_path: Path) -> None:
    write(tmp_path, {"dt.py": CORL_DT.format(decorator="pyrallis.wrap()"), "configs/dt/medium.yaml": CORL_YAML})
    fact = best(plan_of(cli, "dt.py", cwd=tmp_path), "batch.micro")
    assert fact is not None and fact.value == 64 and fact.confidence == "high"


def test_a_default_a_config_file_on_the_line_may_override_is_never_high(cli, tmp_path: Path) -> None:
    # an unknown config system (here a decorator preflight does not know) reads the file named by
    # --config_path: the dataclass default is not reported at high confidence
    src = CORL_DT.format(decorator="confsys.wrap()").replace("import pyrallis", "import confsys")
    write(tmp_path, {"dt.py": src, "configs/dt/medium.yaml": CORL_YAML})
    fact = best(plan_of(cli, "dt.py", "--", "--config_path=configs/dt/medium.yaml", cwd=tmp_path), "batch.micro")
    assert fact is None or fact.value == 4096 or fact.confidence == "low"


# open-mmlab/mmpretrain tools/slurm_train.sh:5-24 @ the manifest's commit (mmpretrain-resnet50-in1k-slurm-amp):
# the script's own arguments from the fifth on forwarded through a variable, srun with tasks per node.
SLURM_SH = """\
    #!/usr/bin/env bash
    PARTITION=$1
    JOB_NAME=$2
    GPUS=${GPUS:-16}
    GPUS_PER_NODE=${GPUS_PER_NODE:-8}
    PY_ARGS=${@:4}

    srun -p ${PARTITION} \\
        --job-name=${JOB_NAME} \\
        --ntasks=${GPUS} \\
        --ntasks-per-node=${GPUS_PER_NODE} \\
        python -u train.py --launcher="slurm" ${PY_ARGS}
    """
SLURM_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("cfg")
    parser.add_argument("--launcher", default="none")
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    torch.distributed.init_process_group("nccl")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 4).cuda())
    optim = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch in DataLoader(range(64), batch_size=args.batch_size):
        loss = model(batch).mean()
        optim.zero_grad()
        loss.backward()
        optim.step()
    """


def test_forwarded_script_arguments_through_a_variable_reach_the_launch_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"slurm_train.sh": SLURM_SH, "train.py": SLURM_TRAIN})
    plan = plan_of(cli, "slurm_train.sh", "--", "dev", "r50", "x", "--batch-size", "32", cwd=tmp_path)
    fact = best(plan, "batch.micro")
    assert fact is not None and fact.value == 32 and fact.source.kind == "cli"
    # nothing from the fifth argument on: the declared default
    plan = plan_of(cli, "slurm_train.sh", "--", "dev", "r50", "x", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 8


def test_slices_of_the_script_arguments(cli, tmp_path: Path) -> None:
    # `"${@:2:2}"`: two arguments from the second; the third one stays the script's own
    write(tmp_path, {"run.sh": 'python train.py c.py "${@:2:2}"\n', "train.py": SLURM_TRAIN})
    plan = plan_of(cli, "run.sh", "--", "a", "--batch-size", "16", "--batch-size=4", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16


def test_srun_tasks_and_tasks_per_node_give_the_node_count(cli, tmp_path: Path) -> None:
    write(tmp_path, {"slurm_train.sh": SLURM_SH, "train.py": SLURM_TRAIN})
    plan = plan_of(cli, "slurm_train.sh", "--", "dev", "r50", "x", cwd=tmp_path)
    fact = best(plan, "dist.nodes")
    assert fact is not None and fact.value == 2 and fact.confidence == "medium"
    assert winner(plan, "dist.world_size") == 16


def test_srun_node_count_stays_given_or_unknown(cli, tmp_path: Path) -> None:
    # --nodes given: that is the count, nothing derived
    write(tmp_path, {"a.sh": "srun --nodes=4 --ntasks=16 --ntasks-per-node=4 python train.py c\n",
                     "b.sh": "srun --ntasks=12 --ntasks-per-node=8 python train.py c\n",
                     "train.py": SLURM_TRAIN})
    fact = best(plan_of(cli, "a.sh", cwd=tmp_path), "dist.nodes")
    assert fact is not None and fact.value == 4 and "--ntasks 16 /" not in (fact.source.detail or "")
    # 12 tasks at most 8 a node: not a whole number of full nodes, left unknown
    assert best(plan_of(cli, "b.sh", cwd=tmp_path), "dist.nodes") is None


# BlinkDL/RWKV-LM RWKV-v7/train_temp/train.py:10,60-61,242-265 and demo-training-run.sh @ the manifest's
# commit (rwkv7-l12-d768-lightning-deepspeed2): pytorch_lightning 1.x Trainer flags from the launch line.
PL1_TRAIN = """\
    from argparse import ArgumentParser

    import pytorch_lightning as pl
    import torch
    from pytorch_lightning import Trainer


    class Model(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(4, 4)

        def training_step(self, batch, idx):
            return self.net(batch).mean()

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters())


    if __name__ == "__main__":
        parser = ArgumentParser()
        parser.add_argument("--micro_bsz", default=12, type=int)
        parser = Trainer.add_argparse_args(parser)
        args = parser.parse_args()
{extra}
        trainer = Trainer.from_argparse_args(args, callbacks=[])
        trainer.fit(Model(), torch.utils.data.DataLoader(range(8), batch_size=args.micro_bsz))
    """
PL1_SH = """\
    N_NODE=2
    GPU_PER_NODE=4
    python train.py --micro_bsz 16 --accelerator gpu --devices $GPU_PER_NODE --num_nodes $N_NODE \\
     --precision bf16 --strategy deepspeed_stage_2 --accumulate_grad_batches 2
    """


def test_lightning_1x_from_argparse_args_reads_the_trainer_flags_of_the_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PL1_TRAIN.format(extra=""), "run.sh": PL1_SH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "zero2"
    assert winner(plan, "dist.devices_per_node") == 4
    assert winner(plan, "dist.nodes") == 2
    assert winner(plan, "dist.world_size") == 8
    assert winner(plan, "batch.grad_accum") == 2
    fact = best(plan, "dist.sharding")
    assert fact is not None and fact.source.kind == "cli" and fact.source.key == "--strategy"


def test_lightning_1x_from_argparse_args_flags_not_given_or_reassigned(cli, tmp_path: Path) -> None:
    # no Trainer flag on the line: nodes and accumulation are Lightning's defaults (medium), the
    # devices and the strategy unknown; a flag the script rewrites is not taken from the line
    extra = '        if "deepspeed" in args.strategy:\n            args.strategy = "ddp"'
    write(tmp_path, {"train.py": PL1_TRAIN.format(extra=extra),
                     "a.sh": "python train.py --micro_bsz 16\n",
                     "b.sh": "python train.py --strategy deepspeed_stage_2 --devices 2\n"})
    plan = plan_of(cli, "a.sh", cwd=tmp_path)
    assert winner(plan, "dist.nodes") == 1 and best(plan, "dist.nodes").confidence == "medium"
    assert winner(plan, "batch.grad_accum") == 1
    assert best(plan, "dist.devices_per_node") is None and best(plan, "dist.sharding") is None
    plan = plan_of(cli, "b.sh", cwd=tmp_path)
    assert winner(plan, "dist.sharding") != "zero2"
    assert winner(plan, "dist.devices_per_node") == 2


def test_lightning_1x_without_add_argparse_args_is_not_read_from_the_line(cli, tmp_path: Path) -> None:
    # from_argparse_args over a namespace the Trainer's flags were never added to: nothing taken
    src = PL1_TRAIN.format(extra="").replace("        parser = Trainer.add_argparse_args(parser)\n", "")
    write(tmp_path, {"train.py": src, "run.sh": "python train.py --micro_bsz 16\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert best(plan, "dist.sharding") is None and best(plan, "dist.nodes") is None


# XLabs-AI/x-flux train_flux_lora_deepspeed.py:58-82 @ the manifest's commit (xflux-dev-lora-accelerate):
# ``args = OmegaConf.load(parse_args())`` where the local parse_args() returns the --config path.
XFLUX = """\
    import argparse

    import torch
    from accelerate import Accelerator
    from omegaconf import OmegaConf


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, {default})
        args = parser.parse_args()
        return args.config


    def main():
        args = OmegaConf.load(parse_args())
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                                  mixed_precision=args.mixed_precision)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        model, opt = accelerator.prepare(model, opt)
        for batch in range(3):
            loss = model(batch).mean()
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        main()
    """


def test_omegaconf_load_of_a_path_a_local_parse_args_returns(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": XFLUX.format(default="required=True"),
                     "cfg/lora.yaml": 'mixed_precision: "bf16"\ngradient_accumulation_steps: 2\n',
                     "cfg/other.yaml": 'mixed_precision: "no"\ngradient_accumulation_steps: 8\n'})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg/lora.yaml", cwd=tmp_path)
    fact = best(plan, "batch.grad_accum")
    assert fact is not None and fact.value == 2 and "gradient_accumulation_steps" in (fact.source.detail or "")
    assert winner(plan, "precision.mode") == "amp_bf16"
    plan = plan_of(cli, "train.py", "--", "--config=cfg/other.yaml", cwd=tmp_path)
    assert winner(plan, "batch.grad_accum") == 8 and winner(plan, "precision.mode") == "fp32"


def test_omegaconf_load_of_a_returned_option_default_or_unknown(cli, tmp_path: Path) -> None:
    # not on the line: the option's literal default is the file; no default: nothing read
    write(tmp_path, {"train.py": XFLUX.format(default='default="cfg/lora.yaml"'),
                     "cfg/lora.yaml": 'mixed_precision: "bf16"\ngradient_accumulation_steps: 2\n'})
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum") == 2
    write(tmp_path, {"train.py": XFLUX.format(default="required=True")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert best(plan, "batch.grad_accum") is None and winner(plan, "precision.mode") != "amp_bf16"
    # parse_args() returning the whole namespace is another shape: nothing taken from a file
    src = XFLUX.format(default="required=True").replace("return args.config", "return args")
    write(tmp_path, {"train.py": src})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg/lora.yaml", cwd=tmp_path)
    assert best(plan, "batch.grad_accum") is None


# facebookresearch/sam2 training/train.py:124,245-252 @ the manifest's commit (sam2.1-b+-mose-finetune-hydra-8gpu):
# ``initialize_config_module("sam2")`` then ``compose(config_name=args.config)``; the launch line's
# ``-c configs/sam2.1_training/x.yaml`` lives in the sam2 package, not the working directory.
SAM2_TRAIN = """\
    from argparse import ArgumentParser

    from hydra import compose, initialize_config_module


    def main(args):
        cfg = compose(config_name=args.config)
        print(cfg)


    if __name__ == "__main__":
        {init}
        parser = ArgumentParser()
        parser.add_argument("-c", "--config", required=True, type=str)
        main(parser.parse_args())
    """


def _inputs(plan: dict) -> list[str]:
    return [i["path"] for i in plan["inputs"] if i["kind"] != "argv"]


def test_a_config_named_on_the_line_is_found_in_the_hydra_config_module(cli, tmp_path: Path) -> None:
    write(tmp_path, {"training/train.py": SAM2_TRAIN.format(init='initialize_config_module("sam2", version_base="1.2")'),
                     "sam2/__init__.py": "", "sam2/configs/train/x.yaml": "scratch:\n  train_batch_size: 1\n"})
    plan = plan_of(cli, "training/train.py", "--", "-c", "configs/train/x.yaml", cwd=tmp_path)
    assert any(p.endswith("sam2/configs/train/x.yaml") for p in _inputs(plan))
    assert any("initialize_config_module" in n for n in plan["notes"])
    # the keyword spelling, a dotted module
    write(tmp_path, {"training/train.py": SAM2_TRAIN.format(
        init='initialize_config_module(config_module="sam2.configs", version_base="1.2")')})
    plan = plan_of(cli, "training/train.py", "--", "-c", "train/x.yaml", cwd=tmp_path)
    assert any(p.endswith("sam2/configs/train/x.yaml") for p in _inputs(plan))


def test_without_a_config_module_the_file_is_not_looked_up_in_a_package(cli, tmp_path: Path) -> None:
    write(tmp_path, {"training/train.py": SAM2_TRAIN.format(init="pass"),
                     "sam2/__init__.py": "", "sam2/configs/train/x.yaml": "scratch:\n  train_batch_size: 1\n"})
    plan = plan_of(cli, "training/train.py", "--", "-c", "configs/train/x.yaml", cwd=tmp_path)
    assert not any(p.endswith("x.yaml") for p in _inputs(plan))
    assert any("not found, not read" in n for n in plan["notes"])


# NVIDIA/tacotron2 multiproc.py:1-23 @ the manifest's commit (tacotron2-ljspeech-multiproc-fp16):
# ``python -m multiproc train.py ...`` re-runs its own arguments once per visible GPU.
MULTIPROC = """\
    import subprocess
    import sys

    import torch

    argslist = list(sys.argv)[1:]
    num_gpus = torch.cuda.device_count()
    argslist.append('--n_gpus={}'.format(num_gpus))
    workers = []
    for i in range(num_gpus):
        argslist.append('--rank={}'.format(i))
        p = subprocess.Popen([str(sys.executable)] + argslist)
        workers.append(p)
        argslist = argslist[:-1]
    for p in workers:
        p.wait()
    """
TACO_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    parser = argparse.ArgumentParser()
    parser.add_argument("--n_gpus", type=int, default=1)
    parser.add_argument("--rank", type=int, default=0)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for batch in DataLoader(range(64), batch_size=64, num_workers=1, pin_memory=False):
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """


def test_a_launcher_that_reruns_its_arguments_audits_the_script_it_runs(cli, tmp_path: Path) -> None:
    write(tmp_path, {"multiproc.py": MULTIPROC, "train.py": TACO_TRAIN})
    plan = plan_of(cli, "--", "python", "-m", "multiproc", "train.py", "--output_directory=out", cwd=tmp_path)
    assert _inputs(plan) == ["train.py"]
    assert winner(plan, "optimizer.name") == "Adam" and winner(plan, "data.num_workers") == 1
    assert any("re-runs the script of its own arguments" in n for n in plan["notes"])


def test_a_launcher_that_runs_a_fixed_command_is_audited_itself(cli, tmp_path: Path) -> None:
    # subprocess over a fixed script, not over sys.argv[1:]: not a re-runner
    fixed = MULTIPROC.replace("[str(sys.executable)] + argslist", "[str(sys.executable), 'other.py']")
    write(tmp_path, {"multiproc.py": fixed, "train.py": TACO_TRAIN})
    plan = plan_of(cli, "--", "python", "-m", "multiproc", "train.py", cwd=tmp_path)
    assert "train.py" not in _inputs(plan)
    # a script that trains itself and also re-runs its arguments stays the job
    own = textwrap.dedent(MULTIPROC) + "\nloss = torch.zeros(1)\nloss.backward()\n"
    write(tmp_path, {"multiproc.py": own})
    plan = plan_of(cli, "--", "python", "-m", "multiproc", "train.py", cwd=tmp_path)
    assert "train.py" not in _inputs(plan)


def test_lightning_1x_trainer_of_vars_args_reads_the_trainer_flags_of_the_line(cli, tmp_path: Path) -> None:
    # ``Trainer(**vars(args))`` over a parser ``Trainer.add_argparse_args`` filled: as from_argparse_args
    src = PL1_TRAIN.format(extra="").replace("Trainer.from_argparse_args(args, callbacks=[])",
                                             "Trainer(**vars(args))")
    write(tmp_path, {"train.py": src, "run.sh": PL1_SH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "zero2"
    assert winner(plan, "dist.world_size") == 8
    assert winner(plan, "batch.grad_accum") == 2


def test_lightning_trainer_of_vars_args_without_the_trainer_flags_is_not_read(cli, tmp_path: Path) -> None:
    src = PL1_TRAIN.format(extra="").replace("Trainer.from_argparse_args(args, callbacks=[])",
                                             "Trainer(**vars(args))").replace(
        "        parser = Trainer.add_argparse_args(parser)\n", "")
    write(tmp_path, {"train.py": src, "run.sh": PL1_SH})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert best(plan, "dist.sharding") is None and best(plan, "batch.grad_accum") is None
