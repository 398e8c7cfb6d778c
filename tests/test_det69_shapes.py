"""det69 (issue 18): the job as a user launches it (a launch script, the requirements file beside the script, a
Hydra config folder), end to end through ``audit``: PF307's pinned-release defects read the pin from the
project's requirements, PF446 reports Lightning's own ``self.clip_gradients`` under fp16 AMP, PF380 follows the
project's imports before calling a Hydra group unread. Fixtures of our own, rebuilt from the reports' shapes."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write

# PR 17713's shape: a 4-process Lightning 2.0.2 job that shuffles and never seeds
UNSEEDED = """\
    import lightning as L
    import torch
    from torch.nn import functional as F
    from torch.utils.data import DataLoader

    from data import Images


    class Net(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(32, 10)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.05)


    {seed}
    loader = DataLoader(Images("train"), batch_size=128, shuffle=True)
    trainer = L.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=30)
    trainer.fit(Net(), loader)
"""

# Lightning issue 18089's shape: the manual-optimization docs' clip under 16-mixed
MANUAL_CLIP = """\
    import lightning.pytorch as pl
    import torch
    import torch.nn.functional as F


    class LitLM(pl.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.automatic_optimization = False
            self.model = model

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            x, y = batch
            loss = F.cross_entropy(self.model(x), y)
            opt.zero_grad()
            self.manual_backward(loss)
            self.clip_gradients(opt, gradient_clip_val=0.5, gradient_clip_algorithm="norm")
            opt.step()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.model.parameters(), lr=3e-4)


    trainer = pl.Trainer(accelerator="gpu", devices=1, precision="16-mixed"{plugins})
    trainer.fit(LitLM(build()), loader)
"""

HYDRA_APP = """\
    import hydra
    import torch
    from hydra.utils import instantiate

    {imports}

    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        optimizer = instantiate(cfg.optimizer, params=model.parameters())
        {build}
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""

CONF = {
    "conf/config.yaml": """\
        defaults:
          - optimizer: adam
          - scheduler: cosine
          - _self_
        epochs: 10
    """,
    "conf/optimizer/adam.yaml": "_target_: torch.optim.Adam\nlr: 0.001\n",
    "conf/scheduler/cosine.yaml": "_target_: torch.optim.lr_scheduler.CosineAnnealingLR\nT_max: 10\n",
    "launch.sh": "#!/bin/bash\npython train.py\n",
}


def _findings(cli, cwd: Path, *args: str) -> list[tuple[str, str, int]]:
    res = cli("audit", *args, "--format", "json", "--no-cache", "--exit-zero", cwd=cwd)
    return [(f["code"], Path(f["path"]).name, f["line"]) for f in json.loads(res.out)["findings"]
            if f["severity"] != "note"]


def test_unseeded_ddp_shuffle_on_a_pinned_2_0_2_is_pf307_at_the_trainer(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": UNSEEDED.format(seed=""), "requirements.txt": "lightning==2.0.2\n",
                     "launch.sh": "#!/bin/bash\npython train.py\n"})
    assert ("PF307", "train.py", 24) in _findings(cli, tmp_path, "launch.sh", "train.py")


def test_the_seeded_job_a_fixed_release_and_a_lower_bound_are_silent(cli, tmp_path: Path) -> None:
    for name, seed, pin in (("seeded", "L.seed_everything(1234)", "lightning==2.0.2\n"),
                            ("fixed", "", "lightning==2.0.3\n"), ("bound", "", "lightning>=2.0.0\n")):
        root = tmp_path / name
        write(root, {"train.py": UNSEEDED.format(seed=seed), "requirements.txt": pin,
                     "launch.sh": "#!/bin/bash\npython train.py\n"})
        assert not [f for f in _findings(cli, root, "launch.sh", "train.py") if f[0] == "PF307"], name


def test_lightning_clip_gradients_after_manual_backward_under_16_mixed_is_pf446(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": MANUAL_CLIP.format(plugins="")})
    assert ("PF446", "train.py", 18) in _findings(cli, tmp_path, "train.py")


def test_a_custom_precision_plugin_silences_pf446(cli, tmp_path: Path) -> None:
    # the workaround plugins written for issue 18089 unscale inside their own clipping
    write(tmp_path, {"train.py": MANUAL_CLIP.format(plugins=", plugins=[UnscalingPrecision()]")})
    assert not [f for f in _findings(cli, tmp_path, "train.py") if f[0] == "PF446"]


def test_a_scheduler_group_nothing_reads_is_pf380_on_its_defaults_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": HYDRA_APP.format(imports="", build=""), **CONF})
    assert ("PF380", "config.yaml", 3) in _findings(cli, tmp_path, "launch.sh", "train.py", "--config", "conf")


def test_a_group_read_by_a_module_two_imports_away_is_silent(cli, tmp_path: Path) -> None:
    # lightning-hydra-template's `extras` group: read by src/utils/utils.py through src/utils/__init__.py
    write(tmp_path, {
        "train.py": HYDRA_APP.format(imports="from helpers import report", build="report(cfg)"),
        "helpers/__init__.py": "from helpers.reporting import report\n",
        "helpers/reporting.py": "def report(cfg):\n    print(cfg.get('scheduler'))\n",
        **CONF})
    assert not [f for f in _findings(cli, tmp_path, "launch.sh", "train.py", "--config", "conf")
                if f[0] == "PF380"]
