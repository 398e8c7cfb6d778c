"""A Hydra app whose config_path is made absolute against the run's working directory, over structured configs
registered in a ConfigStore (adapters/hydra_cwd_root.py). Fixtures of our own copying the shape of
brandon-snider/cs336-a4 @ 96953db (cs336-basics/scripts/train.py:58, cs336_basics/train_config.py:9-67,
configs/config.yaml): must-read cases and must-stay-unknown twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    from pathlib import Path

    import hydra
    import torch

    from proj.train_config import Config, register_configs

    register_configs()


    @hydra.main(version_base=None, config_path=str(Path("configs").absolute().resolve()), config_name="config")
    def main(cfg):
        model = torch.nn.Linear(8, 8).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(1000, 8)),
                                             batch_size=cfg.training.batch_size, shuffle=True)
        for (x,) in loader:
            loss = model(x.cuda()).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""

CONFIG = """\
    from dataclasses import dataclass, field

    from hydra.core.config_store import ConfigStore


    @dataclass
    class TrainingConfig:
        batch_size: int = 32
        seed: int = 0


    @dataclass
    class Config:
        training: TrainingConfig = field(default_factory=TrainingConfig)


    def register_configs():
        cs = ConfigStore.instance()
        cs.store(group="training", name="base_training", node=TrainingConfig)
        cs.store(name="base_config", node=Config)
"""

FILES = {
    "proj/__init__.py": "",
    "proj/train_config.py": CONFIG,
    "scripts/train.py": TRAIN,
    "configs/config.yaml": """\
        defaults:
          - training: base_training
          - _self_
    """,
    "configs/experiment/fast.yaml": """\
        # @package _global_
        defaults:
          - /config
          - _self_
        training:
          batch_size: 64
    """,
}


def test_cwd_relative_config_path_over_config_store_is_composed(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "scripts/train.py", cwd=tmp_path)
    assert any("made absolute against the run's working directory" in n for n in plan["notes"]), plan["notes"]
    lr = fact(plan, "batch.micro")
    assert lr is not None and lr.value == 32 and lr.confidence != "high", lr


def test_experiment_file_over_the_stored_node(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "scripts/train.py", "--", "--config-name=experiment/fast.yaml", cwd=tmp_path)
    lr = fact(plan, "batch.micro")
    assert lr is not None and lr.value == 64, lr


def test_default_not_a_literal_stays_unknown(cli, tmp_path):
    """Must stay unknown: the dataclass default is a call: its value is not read."""
    files = dict(FILES)
    files["proj/train_config.py"] = CONFIG.replace("batch_size: int = 32", "batch_size: int = pick_batch()")
    write(tmp_path, files)
    res = cli("audit", "scripts/train.py", "--emit-plan", "json", cwd=tmp_path)
    assert res.code != 3, res.out + res.err
    import json

    lr = fact(json.loads(res.out), "batch.micro")
    assert lr is None or lr.value != 32


def test_two_candidate_folders_are_not_guessed(cli, tmp_path):
    """Twin: a configs/config.yaml beside the script too: where the run starts is not known."""
    files = dict(FILES)
    files["scripts/configs/config.yaml"] = "defaults:\n  - training: base_training\n"
    write(tmp_path, files)
    res = cli("audit", "scripts/train.py", cwd=tmp_path)
    assert "config_path" in res.out + res.err
    assert "made absolute against the run's working directory" not in res.out + res.err


def test_config_store_primary_without_config_path_is_not_an_input_error(cli, tmp_path):
    """No config folder: the primary config is a ConfigStore node; the audit completes with a note (values
    unknown), not exit 3."""
    files = dict(FILES)
    files["scripts/train.py"] = TRAIN.replace(
        'version_base=None, config_path=str(Path("configs").absolute().resolve()), config_name="config"',
        'version_base=None, config_name="base_config"')
    del files["configs/config.yaml"], files["configs/experiment/fast.yaml"]
    write(tmp_path, files)
    res = cli("audit", "scripts/train.py", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    assert "ConfigStore" in res.out


def test_no_config_store_in_the_project_stays_an_input_error(cli, tmp_path):
    """Twin: no ConfigStore entry anywhere: a Hydra app preflight cannot compose is still reported (exit 3)."""
    files = dict(FILES)
    files["scripts/train.py"] = TRAIN.replace(
        'version_base=None, config_path=str(Path("configs").absolute().resolve()), config_name="config"',
        'version_base=None, config_name="base_config"')
    files["proj/train_config.py"] = "X = 1\n"
    files["scripts/train.py"] = files["scripts/train.py"].replace(
        "from proj.train_config import Config, register_configs\n\nregister_configs()\n", "")
    del files["configs/config.yaml"], files["configs/experiment/fast.yaml"]
    write(tmp_path, files)
    res = cli("audit", "scripts/train.py", cwd=tmp_path)
    assert res.code == 3
