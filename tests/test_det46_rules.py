"""Branch det46 (issue 18, held-out-22's miss families): what a user running `check`/`audit` sees from the
shapes the single-file rule examples cannot hold: a DataModule whose Trainer script is a separate file
(PF226), an accelerate config and the DeepSpeed JSON it names read by `audit` (PF256), and the wording
of PF253/PF255 findings."""

from __future__ import annotations

import json
import textwrap

DATA = textwrap.dedent("""\
    import lightning.pytorch as pl
    from torch.utils.data import DataLoader, random_split

    from dataset import SpectraDataset


    class SpectraData(pl.LightningDataModule):
        def __init__(self, root, batch_size=64):
            super().__init__()
            self.root, self.batch_size = root, batch_size

        def setup(self, stage=None):
            full = SpectraDataset(self.root)
            n = len(full)
            self.train_set, self.val_set, self.test_set = random_split(full, [n - n // 5, n // 10, n // 10])

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

        def test_dataloader(self):
            return DataLoader(self.test_set, batch_size=self.batch_size)
""")

TRAIN = textwrap.dedent("""\
    import lightning.pytorch as pl

    from data import SpectraData
    from model import Regressor

    data = SpectraData("spectra/")
    model = Regressor()
    trainer = pl.Trainer(max_epochs=30, accelerator="gpu", devices=1)
    trainer.fit(model, datamodule=data)
    trainer.test(model, datamodule=data)
""")


def _findings(res) -> list[tuple[str, str, int, str]]:
    return [(f["code"], f["path"].rsplit("/", 1)[-1], f["line"], f["severity"]) for f in json.loads(res.out)["findings"]]


def test_datamodule_split_redrawn_by_trainer_test_in_the_script_beside_it(cli, tmp_path):
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "data.py", "--select", "PF226", "--format", "json", "--no-cache")
    assert _findings(res) == [("PF226", "data.py", 15, "warning")]
    message = json.loads(res.out)["findings"][0]["message"]
    assert "runs `setup()` again for the test stage" in message and "train.py:10" in message


def test_datamodule_split_is_silent_without_a_test_run_or_with_a_generator(cli, tmp_path):
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text(TRAIN.replace("trainer.test(model, datamodule=data)\n", ""))
    res = cli("check", "data.py", "--select", "PF226", "--format", "json", "--no-cache")
    assert _findings(res) == []
    seeded = DATA.replace("[n - n // 5, n // 10, n // 10])",
                          "[n - n // 5, n // 10, n // 10], generator=torch.Generator().manual_seed(0))")
    (tmp_path / "data.py").write_text("import torch\n" + seeded)
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "data.py", "--select", "PF226", "--format", "json", "--no-cache")
    assert _findings(res) == []


SFT = textwrap.dedent("""\
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
""")
ACCELERATE = textwrap.dedent("""\
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      deepspeed_config_file: ds_zero3.json
      zero3_init_flag: true
    distributed_type: DEEPSPEED
    mixed_precision: {precision}
    num_processes: 2
""")
DS = '{"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}\n'


def _audit(cli, tmp_path, precision: str):
    (tmp_path / "sft.py").write_text(SFT)
    (tmp_path / "accelerate_config.yaml").write_text(ACCELERATE.format(precision=precision))
    (tmp_path / "ds_zero3.json").write_text(DS)
    (tmp_path / "launch.sh").write_text("accelerate launch --config_file accelerate_config.yaml sft.py\n")
    return cli("audit", "launch.sh", "sft.py", "--config", "accelerate_config.yaml", "--config", "ds_zero3.json",
               "--select", "PF256", "--format", "json", "--no-cache")


def test_accelerate_fp16_against_a_bf16_deepspeed_json_is_an_error_on_the_config_line(cli, tmp_path):
    res = _audit(cli, tmp_path, "fp16")
    assert [f for f in _findings(res) if f[0] == "PF256"] == [("PF256", "accelerate_config.yaml", 6, "error")]
    message = next(f["message"] for f in json.loads(res.out)["findings"] if f["code"] == "PF256")
    assert "cannot be set to `fp16` when `bf16` is set in the DeepSpeed config file" in message


def test_accelerate_bf16_with_the_bf16_json_is_silent(cli, tmp_path):
    res = _audit(cli, tmp_path, "bf16")
    assert [f for f in _findings(res) if f[0] == "PF256"] == []


def test_scheduler_in_fabric_setup_names_the_keyword_fix(cli, tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import lightning as L
        import torch

        fabric = L.Fabric(devices=2)
        optimizer = torch.optim.Adam(model.parameters())
        sched = torch.optim.lr_scheduler.StepLR(optimizer, 10)
        model, optimizer, sched = fabric.setup(model, optimizer, sched)
    """))
    res = cli("check", "train.py", "--select", "PF253", "--format", "json", "--no-cache")
    assert _findings(res) == [("PF253", "train.py", 7, "warning")]
    message = json.loads(res.out)["findings"][0]["message"]
    assert "(built by `StepLR`)" in message and "`scheduler=sched`" in message
