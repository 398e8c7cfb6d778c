"""Behaviours of PF242-PF246 and PF201's Fabric marker that the rules' single-file examples cannot
show: a helper module judged by the modules beside it, and a launch line deciding the process
count (issue 18, branch det44; programs written here, run through the CLI as a user does)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_check_helpers import check, write


def audit(cli, tmp_path: Path, code: str, script: str, *launch: str) -> list[tuple[str, int]]:
    result = cli("audit", script, "--select", code, "--format", "json", "--no-cache", "--exit-zero", "--", *launch,
                 cwd=tmp_path)
    return [(Path(f["path"]).name, f["line"]) for f in json.loads(result.out)["findings"] if f["code"] == code]


EMA = """\
    import copy

    import torch


    class ModelEMA:
        def __init__(self, model, decay=0.999):
            self.ema = copy.deepcopy(model).eval()
            self.decay = decay

        @torch.no_grad()
        def update(self, model):
            model_state = model.state_dict()
            for name, ema_v in self.ema.state_dict().items():
                ema_v.mul_(self.decay).add_(model_state[name].detach(), alpha=1 - self.decay)
    """


def test_ema_helper_is_judged_by_the_model_of_the_script_beside_it(cli, tmp_path):
    write(tmp_path, "ema.py", EMA)
    write(tmp_path, "train.py", """\
        import torchvision

        from ema import ModelEMA

        model = torchvision.models.resnet18(num_classes=10)
        ema = ModelEMA(model)
        """)
    assert check(cli, tmp_path, "PF245") == [("ema.py", 15)]


def test_ema_helper_beside_a_transformer_only_script_stays_silent(cli, tmp_path):
    write(tmp_path, "ema.py", EMA)
    write(tmp_path, "train.py", """\
        from transformers import AutoModelForCausalLM

        from ema import ModelEMA

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        ema = ModelEMA(model)
        """)
    assert check(cli, tmp_path, "PF245") == []


FINETUNE = """\
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM


    def main():
        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer = accelerator.prepare(model, optimizer)


    main()
    """


def test_device_map_auto_is_reported_only_when_the_launch_starts_several_processes(cli, tmp_path):
    write(tmp_path, "finetune.py", FINETUNE)
    assert audit(cli, tmp_path, "PF242", "finetune.py", "accelerate", "launch", "--num_processes", "4",
                 "finetune.py") == [("finetune.py", 8)]
    assert audit(cli, tmp_path, "PF242", "finetune.py", "accelerate", "launch", "--num_processes", "1",
                 "finetune.py") == []
    assert audit(cli, tmp_path, "PF242", "finetune.py", "python", "finetune.py") == []


FABRIC = """\
    import torch
    from lightning.fabric import Fabric
    from torch.utils.data import DataLoader

    from data import Tokens


    def main():
        fabric = Fabric(devices={devices}, strategy="ddp")
        fabric.launch()
        model, optimizer = fabric.setup(torch.nn.Linear(8, 8), torch.optim.SGD([torch.zeros(1)], lr=0.1))
        loader = DataLoader(Tokens(), batch_size=8, shuffle=True)
        for x in loader:
            fabric.backward(model(x).sum())
            optimizer.step()
    """


def test_fabric_loader_without_setup_dataloaders_is_unsharded_on_several_devices(cli, tmp_path):
    write(tmp_path, "pretrain.py", FABRIC.format(devices=4))
    assert check(cli, tmp_path, "PF201") == [("pretrain.py", 12)]
    write(tmp_path, "pretrain.py", FABRIC.format(devices=1))
    assert check(cli, tmp_path, "PF201") == []
