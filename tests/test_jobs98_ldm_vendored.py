"""latent-diffusion's ``main.py`` with the ``ldm`` package in a folder the script puts on ``sys.path``, the
UNet's ``use_checkpoint`` set in the config, and ``trainer_config["accelerator"] = "ddp"`` written in code
(adapters/target_class.py, adapters/target_params_model.py, adapters/lightning.py). Fixtures of
tests/test_jobs86_ldm_model.py in the shape of timothybrooks/instruct-pix2pix @ 0dffd1e (``main.py:24``
``sys.path.append("./stable_diffusion")``, ``:585`` the accelerator, ``configs/train.yaml:48``
``use_checkpoint: True``): must-read cases and silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write
from test_jobs86_ldm_model import CONFIG, FILES, MAIN

VENDORED_MAIN = MAIN.replace("    import argparse\n", "    import argparse\n    import sys\n\n    sys.path.append(\"./sd\")\n") \
    .replace("        trainer_opt = argparse.Namespace(**trainer_config)\n",
             "        trainer_config[\"accelerator\"] = \"ddp\"\n"
             "        trainer_opt = argparse.Namespace(**trainer_config)\n")

ARGPARSE_MAIN = VENDORED_MAIN.replace("        opt, unknown = parser.parse_known_args()\n",
                                      "        parser = Trainer.add_argparse_args(parser)\n"
                                      "        opt, unknown = parser.parse_known_args()\n")


def _files(main: str = ARGPARSE_MAIN, config: str = CONFIG, folder: str = "sd") -> dict:
    out = {("main.py" if k == "main.py" else f"{folder}/{k}" if k.startswith("ldm/") else k): v
           for k, v in FILES.items()}
    out["main.py"] = main
    out["configs/ldm.yaml"] = config
    return out


def _plan(cli, tmp_path, files) -> dict:
    write(tmp_path, files)
    return plan_of(cli, "main.py", "--", "--base", "configs/ldm.yaml", "--gpus", "0,1,2,3", cwd=tmp_path)


def test_model_class_in_a_folder_put_on_sys_path(cli, tmp_path):
    plan = _plan(cli, tmp_path, _files())
    assert winner(plan, "optimizer.name") == "AdamW"


def test_twin_folder_not_on_sys_path_is_not_searched(cli, tmp_path):
    plan = _plan(cli, tmp_path, _files(main=ARGPARSE_MAIN.replace('sys.path.append("./sd")', 'print("./sd")')))
    assert winner(plan, "optimizer.name") is None


def test_use_checkpoint_set_in_the_unet_params(cli, tmp_path):
    config = CONFIG.replace("model_channels: 224\n", "model_channels: 224\n            use_checkpoint: True\n")
    plan = _plan(cli, tmp_path, _files(config=config))
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_twin_use_checkpoint_the_class_does_not_take(cli, tmp_path):
    config = CONFIG.replace("model_channels: 224\n", "model_channels: 224\n            use_checkpoint: True\n")
    files = _files(config=config)
    files["sd/ldm/modules/openaimodel.py"] = files["sd/ldm/modules/openaimodel.py"].replace(
        "use_checkpoint=False, ", "")
    plan = _plan(cli, tmp_path, files)
    assert winner(plan, "memory.gradient_checkpointing") is not True


def test_accelerator_written_on_the_trainer_section(cli, tmp_path):
    plan = _plan(cli, tmp_path, _files())
    assert winner(plan, "dist.sharding") == "ddp"
    assert winner(plan, "dist.world_size") == 4


def test_twin_no_accelerator_written_leaves_the_processes(cli, tmp_path):
    plan = _plan(cli, tmp_path, _files(main=ARGPARSE_MAIN.replace('        trainer_config["accelerator"] = "ddp"\n',
                                                                  "")))
    assert winner(plan, "dist.world_size") is None
