"""One process on one GPU (adapters/one_device.py): ``dist.devices_per_node`` 1 for a job read as one process
whose code puts the model on one device, in the shape of PetarV-/DGI @ 61baf67 (``execute.py``: a module-level
script, ``model.cuda()``, the model in a local package) and vwxyzjn/cleanrl ``ppo_atari.py`` (``torch.device
("cuda")``, options on the line). Twins that must state nothing: DataParallel in a local module the script
imports, ``device_map="auto"``, a GPU index built at run time, a Hugging Face Trainer in one process (it wraps
the model in DataParallel itself when several GPUs are visible); and a launcher's process count still wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse

    import torch

    from models.net import Net

    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    model = Net()
    {place}
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(100):
        x = torch.randn(8, 16).cuda()
        loss = model(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""

NET = """\
    import torch


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(16, 4)
            {extra}

        def forward(self, x):
            return self.fc(x)
"""


def _project(tmp: Path, place: str = "model.cuda()", extra: str = "pass") -> None:
    write(tmp, {"train.py": SCRIPT.replace("{place}", place), "models/__init__.py": "",
                "models/net.py": NET.replace("{extra}", extra)})


def test_a_plain_script_on_the_default_device_is_one_gpu(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "dist.devices_per_node")
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert "one process" in got.source.detail
    assert fact(plan, "dist.world_size").value == 1


def test_a_python_launch_line_with_options_is_one_gpu(cli, tmp_path: Path) -> None:
    _project(tmp_path, place='model.to(torch.device("cuda"))')
    plan = plan_of(cli, "train.py", "--", "--lr", "0.01", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node").value == 1


@pytest.mark.parametrize("place, extra", [
    ("model.cuda()", "self.fc = torch.nn.DataParallel(self.fc)"),  # in a module the script imports
    ("model = torch.nn.DataParallel(model).cuda()", "pass"),
    ('model.to(f"cuda:{args.lr:.0f}")', "pass"),  # an index built at run time
    ('model.to("cuda:1")', "pass"),
    ("model.cuda()\n    n = torch.cuda.device_count()", "pass"),
])
def test_code_that_may_use_several_gpus_states_nothing(cli, tmp_path: Path, place: str, extra: str) -> None:
    _project(tmp_path, place=place, extra=extra)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node") is None


def test_a_model_spread_by_device_map_states_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": """\
        import torch
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
        for step in range(10):
            loss = model(torch.zeros(1, 8, dtype=torch.long), labels=torch.zeros(1, 8, dtype=torch.long)).loss
            loss.backward()
            opt.step()
            opt.zero_grad()
    """})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node") is None


def test_a_trainer_in_one_process_states_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": """\
        from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
        args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
        Trainer(model=model, args=args, train_dataset=None).train()
    """})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node") is None


def test_a_launchers_process_count_wins(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    write(tmp_path, {"run.sh": "torchrun --nproc_per_node 4 train.py\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node").value == 4


def test_a_device_count_in_a_hydra_config_not_composed_states_nothing(cli, tmp_path: Path) -> None:
    # the override names a group the primary config places elsewhere: nothing is composed, and the
    # selected task's ``devices: 4`` must not be read as one device
    write(tmp_path, {
        "cfgs/config.yaml": "defaults:\n  - task@env: walker_walk\n",
        "cfgs/task/walker_walk.yaml": "trainer:\n  devices: 1\n",
        "cfgs/task/quadruped_walk.yaml": "trainer:\n  devices: 4\n",
        "train.py": """\
            import hydra
            import torch


            @hydra.main(config_path="cfgs", config_name="config")
            def main(cfg):
                model = torch.nn.Linear(2, 2).cuda()
                opt = torch.optim.Adam(model.parameters())
                for _ in range(10):
                    model(torch.randn(4, 2).cuda()).sum().backward()
                    opt.step()
                    opt.zero_grad()


            if __name__ == "__main__":
                main()
        """})
    plan = plan_of(cli, "train.py", "--", "task=quadruped_walk", cwd=tmp_path)
    assert fact(plan, "dist.devices_per_node") is None
