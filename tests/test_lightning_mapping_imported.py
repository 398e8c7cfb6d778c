"""``Trainer(**cfg.trainer)`` where ``cfg`` comes from the project's own loader of the ``--config`` file,
handed first to a callback class of the project, with ``devices=-1`` after the script sets
``CUDA_VISIBLE_DEVICES`` unless the launch environment did (jobs95; the real shape is
threestudio-project/threestudio @ 28d9d80 ``launch.py:104-121,163,195-200,228-235``: ``cfg:
ExperimentConfig``, ``cfg = load_config(args.config, ...)``, ``ConfigSnapshotCallback(args.config, cfg,
...)`` whose ``__init__`` only stores it, ``Trainer(..., devices=-1, **cfg.trainer)``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

LAUNCH = textwrap.dedent("""\
    import argparse
    import os


    def main(args, extras):
        env_gpus_str = os.environ.get("CUDA_VISIBLE_DEVICES", None)
        env_gpus = list(env_gpus_str.split(",")) if env_gpus_str else []
        devices = -1
        if len(env_gpus) > 0:
            n_gpus = len(env_gpus)
        else:
            n_gpus = len(args.gpu.split(","))
            os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu

        from pytorch_lightning import Trainer
        from proj.callbacks import SnapshotCallback
        from proj.config import ExperimentConfig, load_config

        cfg: ExperimentConfig
        cfg = load_config(args.config, cli_args=extras, n_gpus=n_gpus)
        system = build_system(cfg.system)
        callbacks = [SnapshotCallback(args.config, cfg, "out")]
        trainer = Trainer(callbacks=callbacks, accelerator="gpu", devices=devices, **cfg.trainer)
        trainer.fit(system)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", required=True)
        parser.add_argument("--gpu", default="0")
        parser.add_argument("--train", action="store_true")
        args, extras = parser.parse_known_args()
        main(args, extras)
""")

CALLBACKS = textwrap.dedent("""\
    from pytorch_lightning.callbacks import Callback


    class SnapshotCallback(Callback):
        def __init__(self, config_path, config, save_root):
            super().__init__()
            self.config_path = config_path
            self.config = config
            self.save_root = save_root
""")

CONFIG = textwrap.dedent("""\
    from dataclasses import dataclass, field

    from omegaconf import OmegaConf


    @dataclass
    class ExperimentConfig:
        trainer: dict = field(default_factory=dict)
        system: dict = field(default_factory=dict)


    def load_config(path, cli_args=(), n_gpus=1):
        return OmegaConf.merge(OmegaConf.structured(ExperimentConfig), OmegaConf.load(path))
""")

YAML = textwrap.dedent("""\
    system:
      lr: 0.01
    trainer:
      max_steps: 10000
      precision: 16-mixed
      accumulate_grad_batches: 2
""")


def _project(tmp_path: Path, launch: str = LAUNCH, callbacks: str = CALLBACKS) -> Path:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "__init__.py").write_text("")
    (tmp_path / "proj" / "callbacks.py").write_text(callbacks)
    (tmp_path / "proj" / "config.py").write_text(CONFIG)
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(YAML)
    (tmp_path / "launch.py").write_text(launch)
    return tmp_path


def _plan(cli, cwd: Path, *args: str) -> dict:
    res = cli("audit", "launch.py", "--emit-plan", "json", "--", "--config", "configs/run.yaml", "--train", *args,
              cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def _value(plan: dict, field: str):
    facts = [f for f in plan["fields"].get(field, []) if f["adapter"] == "lightning"]
    return facts[0]["value"] if facts else None


def test_trainer_section_of_the_loaded_config_and_the_visible_device_are_read(cli, tmp_path):
    plan = _plan(cli, _project(tmp_path), "--gpu", "0")
    assert _value(plan, "precision.mode") == "amp_fp16"
    assert _value(plan, "batch.grad_accum") == 2
    assert _value(plan, "dist.devices_per_node") == 1  # devices=-1 over CUDA_VISIBLE_DEVICES=0
    devices = plan["fields"]["dist.devices_per_node"][0]
    assert devices["confidence"] == "medium"  # unless the launch environment already set the variable
    assert "when the launch environment has not set it" in devices["source"]["detail"]
    assert any("the keys of cfg.trainer (trainer of configs/run.yaml)" in n for n in plan["notes"])


def test_two_listed_devices_are_two(cli, tmp_path):
    plan = _plan(cli, _project(tmp_path), "--gpu", "0,1")
    assert _value(plan, "dist.devices_per_node") == 2


def test_a_callback_that_writes_the_config_leaves_the_mapping_unknown(cli, tmp_path):
    callbacks = CALLBACKS.replace("        self.config = config\n",
                                  "        config.trainer.precision = 32\n        self.config = config\n")
    assert callbacks != CALLBACKS
    plan = _plan(cli, _project(tmp_path, callbacks=callbacks), "--gpu", "0")
    assert _value(plan, "precision.mode") is None
    assert _value(plan, "batch.grad_accum") is None


def test_a_class_not_found_in_the_project_leaves_the_mapping_unknown(cli, tmp_path):
    launch = LAUNCH.replace("from proj.callbacks import SnapshotCallback", "from ext.callbacks import SnapshotCallback")
    assert launch != LAUNCH
    plan = _plan(cli, _project(tmp_path, launch=launch), "--gpu", "0")
    assert _value(plan, "precision.mode") is None


def test_a_visible_devices_write_under_another_test_is_not_read(cli, tmp_path):
    launch = LAUNCH.replace("    if len(env_gpus) > 0:\n", "    if args.train:\n")
    assert launch != LAUNCH
    plan = _plan(cli, _project(tmp_path, launch=launch), "--gpu", "0")
    assert _value(plan, "dist.devices_per_node") is None
    assert _value(plan, "precision.mode") == "amp_fp16"
