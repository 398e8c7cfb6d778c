"""Behaviours of issue-18 work on branch det55 that single-file rule examples cannot show: the launch
scripts beside a script deciding that PF201 has one process to talk about, a rank-local rollout loader
for PF402, and PF291 judging a file by the LightningModule module beside it (programs written here, run
through the CLI as a user does)."""

from __future__ import annotations

import pytest
from cli_check_helpers import check, write

DS_TRAIN = """\
    import deepspeed
    import torch
    from torch.utils.data import DataLoader

    model = Net()
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    for epoch in range(10):
        for x, y in loader:
            loss = engine(x.to(engine.device), y.to(engine.device))
            engine.backward(loss)
            engine.step()
"""


@pytest.mark.parametrize("line", [
    "deepspeed --num_gpus 1 train.py --deepspeed --deepspeed_config ds.json",
    "deepspeed --num_gpus=1 train.py --deepspeed_config ds.json",
    "deepspeed --include localhost:0 train.py",
    "torchrun --nproc_per_node 1 train.py",
    "accelerate launch --num_processes 1 train.py",
])
def test_pf201_is_silent_when_every_launch_line_starts_one_process(cli, tmp_path, line):
    write(tmp_path, "train.py", DS_TRAIN)
    write(tmp_path, "run.sh", f"#!/bin/bash\n{line}\n")
    assert check(cli, tmp_path, "PF201") == []


@pytest.mark.parametrize("lines", [
    ["deepspeed --num_gpus 4 train.py"],
    ["deepspeed --num_nodes 2 --num_gpus 1 train.py"],
    ["deepspeed --hostfile hosts --num_gpus 1 train.py"],
    ["deepspeed --num_gpus 1 train.py", "deepspeed --num_gpus 8 train.py"],
    ["deepspeed --num_gpus $NGPU train.py"],
    ["python train.py"],
])
def test_pf201_still_reports_when_some_launch_starts_several_or_an_unknown_count(cli, tmp_path, lines):
    write(tmp_path, "train.py", DS_TRAIN)
    write(tmp_path, "run.sh", "#!/bin/bash\n" + "\n".join(lines) + "\n")
    assert check(cli, tmp_path, "PF201") == [("train.py", 7)]


def test_pf201_reads_a_continued_launch_line_and_ignores_launches_of_other_scripts(cli, tmp_path):
    write(tmp_path, "train.py", DS_TRAIN)
    write(tmp_path, "run.sh", "#!/bin/bash\ndeepspeed --num_gpus 8 eval.py\ndeepspeed \\\n  --num_gpus 1 \\\n"
                              "  train.py --deepspeed\n")
    assert check(cli, tmp_path, "PF201") == []


PPO = """\
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    model = Policy()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    for it in range(100):
        buffer = {collect}
        loader = DataLoader(buffer, batch_size=16, shuffle=True)
        for mb in loader:
            loss = model(mb)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""


@pytest.mark.parametrize("collect", [
    "RolloutBuffer.collect(accelerator.unwrap_model(model), num_prompts=256)",
    "generate_rollouts(model, prompts)",
])
def test_pf402_is_silent_on_a_loader_rebuilt_each_iteration_over_rollouts_of_this_process(cli, tmp_path, collect):
    write(tmp_path, "ppo.py", PPO.replace("{collect}", collect))
    assert check(cli, tmp_path, "PF402") == []


def test_pf402_still_reports_a_dataset_that_does_not_come_from_the_model(cli, tmp_path):
    write(tmp_path, "ppo.py", PPO.replace("{collect}", 'load_dataset("imdb", split="train")'))
    assert check(cli, tmp_path, "PF402") == [("ppo.py", 12)]


LIT = """\
    import pytorch_lightning as pl
    import torch


    class LitClassifier(pl.LightningModule):
        def __init__(self, hidden_dim=128):
            super().__init__()
            self.l1 = torch.nn.Linear(784, hidden_dim)
"""


def test_pf291_knows_lightning_from_the_module_beside_the_script(cli, tmp_path):
    write(tmp_path, "lit.py", LIT)
    write(tmp_path, "test.py", """\
        from lit import LitClassifier

        model = LitClassifier()
        model.load_from_checkpoint("epoch=4.ckpt")
        run_test(model)
    """)
    assert check(cli, tmp_path, "PF291") == [("test.py", 4)]


def test_pf291_is_silent_when_a_module_beside_defines_an_instance_loader(cli, tmp_path):
    write(tmp_path, "lit.py", LIT + """\

    class Agent:
        def load_from_checkpoint(self, path):
            self.net.load_state_dict(torch.load(path))
    """)
    write(tmp_path, "test.py", """\
        from lit import Agent

        agent = Agent()
        agent.load_from_checkpoint("agent.ckpt")
    """)
    assert check(cli, tmp_path, "PF291") == []


TRAIN_DP = """\
    import torch
    from torch import nn

    net = Net()
    if torch.cuda.device_count() > 1:
        net = nn.DataParallel(net)
    for epoch in range(10):
        train_one_epoch(net)
        torch.save({"net_state": net.state_dict()}, "net.pt")
"""


def test_pf294_reports_the_save_when_an_eval_script_beside_loads_it_strictly(cli, tmp_path):
    write(tmp_path, "train.py", TRAIN_DP)
    write(tmp_path, "eval.py", """\
        import torch

        net = Net()
        net.load_state_dict(torch.load("net.pt")["net_state"], strict=True)
    """)
    assert check(cli, tmp_path, "PF294") == [("train.py", 9)]


@pytest.mark.parametrize("eval_text", [
    'net = Net()\nnet.load_state_dict(torch.load("net.pt")["net_state"], strict=False)\n',
    'net = torch.nn.DataParallel(Net())\nnet.load_state_dict(torch.load("net.pt")["net_state"])\n',
    'sd = {k.removeprefix("module."): v for k, v in torch.load("net.pt")["net_state"].items()}\n'
    'Net().load_state_dict(sd)\n',
])
def test_pf294_is_silent_when_the_eval_script_wraps_strips_or_loads_leniently(cli, tmp_path, eval_text):
    write(tmp_path, "train.py", TRAIN_DP)
    write(tmp_path, "eval.py", "import torch\n\n" + eval_text)
    assert check(cli, tmp_path, "PF294") == []
