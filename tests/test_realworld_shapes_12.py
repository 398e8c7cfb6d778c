"""General fixes of the thirteenth round (issue 15): shapes the twelfth held-out jobs set showed,
reproduced in minimal fixtures of our own, each citing the repository, path and commit it copies
the shape of, each with silent twins."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from preflight.audit import build_plan
from tests.test_config_object import fact, plan_of, write

# --------------------------------------------------------------------------- Hydra --config-dir

# real-stanford/diffusion_policy @ 5ba07ac6661db573af695b419a7947ecb704690f: train.py:20-24
# (@hydra.main(config_path=str(pathlib.Path(__file__).parent.joinpath('diffusion_policy','config')))),
# README.md:136 (python train.py --config-dir=. --config-name=image_pusht_diffusion_policy_cnn.yaml ...):
# the primary config is at the repository root, not in the decorator's config_path.
DP_TRAIN = """\
    import pathlib
    import hydra
    from omegaconf import OmegaConf

    @hydra.main(
        version_base=None,
        config_path=str(pathlib.Path(__file__).parent.joinpath('policy', 'config')))
    def main(cfg: OmegaConf):
        workspace = hydra.utils.instantiate(cfg)
        workspace.run()

    if __name__ == "__main__":
        main()
"""
DP_CONFIG = """\
    _target_: policy.workspace.TrainWorkspace
    dataloader:
      batch_size: 64
      num_workers: 8
    optimizer:
      _target_: torch.optim.{opt}
      lr: 1.0e-4
    training:
      seed: 42
"""


def _dp(tmp_path: Path, *, root_opt: str = "AdamW", packaged_opt: str = "") -> None:
    files = {"train.py": DP_TRAIN, "run_pusht.yaml": DP_CONFIG.format(opt=root_opt),
             "policy/config/other.yaml": DP_CONFIG.format(opt="Adam")}
    if packaged_opt:
        files["policy/config/run_pusht.yaml"] = DP_CONFIG.format(opt=packaged_opt)
    write(tmp_path, files)


@pytest.mark.parametrize("flags", [("--config-dir=.", "--config-name=run_pusht.yaml"),
                                   ("--config-dir", ".", "--config-name", "run_pusht"),
                                   ("-cd", ".", "-cn", "run_pusht.yaml")])
def test_config_dir_on_the_launch_line_finds_the_primary_config(cli, tmp_path, flags):
    _dp(tmp_path)
    plan = plan_of(cli, "train.py", "--", *flags, "training.seed=42", cwd=tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "AdamW" and opt.source.path == "run_pusht.yaml"
    assert any("--config-dir" in n and "read from ." in n for n in plan["notes"])


def test_config_dir_in_a_subfolder(cli, tmp_path):
    _dp(tmp_path)
    (tmp_path / "exp").mkdir()
    (tmp_path / "run_pusht.yaml").rename(tmp_path / "exp" / "run_pusht.yaml")
    plan = plan_of(cli, "train.py", "--", "--config-dir", "exp", "--config-name", "run_pusht", cwd=tmp_path)
    assert fact(plan, "optimizer.name").source.path == "exp/run_pusht.yaml"


def test_the_apps_config_path_is_searched_before_the_config_dir(cli, tmp_path):
    # hydra/_internal/utils.py: the --config-dir entry is prepended before the `schema` provider,
    # i.e. after the app's own config_path (`main`)
    _dp(tmp_path, root_opt="AdamW", packaged_opt="SGD")
    plan = plan_of(cli, "train.py", "--", "--config-dir=.", "--config-name=run_pusht.yaml", cwd=tmp_path)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "SGD" and opt.source.path == "policy/config/run_pusht.yaml"


def test_without_config_dir_the_root_config_is_not_used(cli, tmp_path):
    _dp(tmp_path)
    res = cli("audit", "train.py", "--emit-plan", "json", "--", "--config-name=run_pusht.yaml", cwd=tmp_path)
    assert res.code == 3 and "run_pusht" in res.err


def test_config_dir_that_does_not_hold_the_config_changes_nothing(cli, tmp_path):
    _dp(tmp_path)
    (tmp_path / "empty").mkdir()
    res = cli("audit", "train.py", "--emit-plan", "json", "--", "--config-dir=empty",
              "--config-name=run_pusht.yaml", cwd=tmp_path)
    assert res.code == 3


# --------------------------------------------------------------------------- Lightning 1.x gpus=

# lllyasviel/ControlNet @ ed85cd1e25a5ed592f7d8178495b4483de0331bf: tutorial_train.py:31
# (trainer = pl.Trainer(gpus=1, precision=32, callbacks=[logger])), pytorch_lightning 1.5.0 pinned
# (environment.yaml). pytorch_lightning 1.6-1.9 accelerator_connector.py
# _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag: a truthy `gpus` (not in
# ([], 0, "0")) is the devices flag, and `devices=` is ignored with a warning.
LIT = """\
    import pytorch_lightning as pl
    from torch.utils.data import DataLoader

    dataset = [1, 2, 3]
    dataloader = DataLoader(dataset, num_workers=0, batch_size=4, shuffle=True)
    model = object()
    trainer = pl.Trainer(ARGS)
    trainer.fit(model, dataloader)
"""


def lit_plan(tmp_path: Path, args: str, argv: tuple[str, ...] = ()):
    (tmp_path / "train.py").write_text(textwrap.dedent(LIT.replace("ARGS", args)), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=list(argv), strict=True)
    return plan


def lit(plan, field):
    facts = [f for f in plan.facts(field) if f.adapter == "lightning"]
    return facts[0] if facts else None


@pytest.mark.parametrize("args, count", [("gpus=1, precision=32", 1), ("gpus=4", 4), ("gpus=[0, 1]", 2),
                                         ('gpus="0,1,2"', 3), ('gpus="2"', 2),
                                         ("gpus=2, devices=8", 2)])
def test_lightning_1x_gpus_is_the_device_count(tmp_path, args, count):
    plan = lit_plan(tmp_path, args)
    dev = lit(plan, "dist.devices_per_node")
    assert dev.value == count and "gpus=" in dev.source.detail and dev.source.line == 7
    assert lit(plan, "dist.world_size").value == count
    assert lit(plan, "dist.sharding").value == ("none" if count == 1 else "ddp")


def test_lightning_1x_gpus_with_num_nodes(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=8, num_nodes=4, accelerator="ddp"')
    assert lit(plan, "dist.world_size").value == 32
    assert lit(plan, "dist.nodes").value == 4
    sharding = lit(plan, "dist.sharding")
    assert sharding.value == "ddp" and "accelerator='ddp'" in sharding.source.detail


def test_lightning_1x_accelerator_names_a_sharded_strategy(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=2, accelerator="deepspeed_stage_3"')
    assert lit(plan, "dist.sharding").value == "zero3"


def test_lightning_1x_gpus_from_argparse(tmp_path):
    code = LIT.replace("dataset = [1, 2, 3]", "import argparse\n    p = argparse.ArgumentParser()\n"
                       "    p.add_argument('--gpus', type=int, default=1)\n    args = p.parse_args()\n"
                       "    dataset = [1, 2, 3]").replace("ARGS", "gpus=args.gpus")
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=["--gpus", "4"], strict=True)
    assert lit(plan, "dist.devices_per_node").value == 4
    assert lit(plan, "dist.world_size").value == 4


@pytest.mark.parametrize("args", ["gpus=-1", 'gpus="-1"'])
def test_lightning_1x_all_gpus_is_a_note_not_a_count(tmp_path, args):
    plan = lit_plan(tmp_path, args)
    assert lit(plan, "dist.devices_per_node") is None and lit(plan, "dist.world_size") is None
    assert any("all visible devices" in str(n) for n in plan.notes)


@pytest.mark.parametrize("args", ["gpus=0", "gpus=None", 'accelerator="gpu"', "precision=32"])
def test_no_gpus_flag_leaves_the_devices_unknown(tmp_path, args):
    plan = lit_plan(tmp_path, args)
    assert lit(plan, "dist.devices_per_node") is None and lit(plan, "dist.world_size") is None


def test_gpus_zero_falls_back_to_devices(tmp_path):
    plan = lit_plan(tmp_path, 'gpus=0, devices=2, accelerator="cpu"')
    assert lit(plan, "dist.devices_per_node").value == 2


def test_accelerator_gpu_is_not_a_strategy(tmp_path):
    plan = lit_plan(tmp_path, 'accelerator="gpu", devices=1')
    assert lit(plan, "dist.sharding").value == "none"
    assert "accelerator" not in (lit(plan, "dist.sharding").source.detail or "")
