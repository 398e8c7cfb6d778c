"""PF576 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- run.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="configs", config_name="config")
    def main(cfg: DictConfig) -> float:
        model = hydra.utils.instantiate(cfg.model)
        datamodule = hydra.utils.instantiate(cfg.datamodule)
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model=model, datamodule=datamodule)
        return trainer.callback_metrics["val/acc"].item()


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    defaults:
      - trainer: default
      - model: mnist
      - datamodule: mnist
      - _self_

    seed: 12345
    # --- configs/model/mnist.yaml
    _target_: src.models.MNISTLitModel
    lr: 0.001
    # --- configs/datamodule/mnist.yaml
    _target_: src.data.MNISTDataModule
    batch_size: 64
    # --- configs/trainer/default.yaml
    _target_: lightning.Trainer
    accelerator: gpu
    devices: 1
    max_epochs: 10
""")

BAD_EXAMPLES = [
    # Lightning issue 11300: a sweep with the template's ddp trainer option
    _APP + """\
# --- configs/trainer/ddp.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: 4
strategy: ddp  # error: PF576
sync_batchnorm: true
# --- launch
python run.py -m datamodule.batch_size=32,64 trainer=ddp
""",
    # a ddp variant, GPUs as a list, the long flag
    _APP + """\
# --- configs/trainer/multi.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: [0, 1]
strategy: ddp_find_unused_parameters_true  # error: PF576
# --- launch
python run.py --multirun model.lr=0.001,0.0003 trainer=multi
""",
]

GOOD_EXAMPLES = [
    # the fix: ddp_spawn starts the ranks from the running job
    _APP + """\
# --- configs/trainer/ddp.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: 4
strategy: ddp_spawn
# --- launch
python run.py -m datamodule.batch_size=32,64 trainer=ddp
""",
    # tricky-correct: the same ddp option in a single run, and a sweep on one device
    _APP + """\
# --- configs/trainer/ddp.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: 4
strategy: ddp
# --- launch
python run.py datamodule.batch_size=64 trainer=ddp
""",
    _APP + """\
# --- configs/trainer/ddp.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: 4
strategy: ddp
# --- launch
python run.py -m datamodule.batch_size=32,64 ++trainer.strategy=ddp
""",
    # tricky-correct: the sweep runs through the submitit launcher (SLURM starts the ranks)
    _APP + """\
# --- configs/trainer/ddp.yaml
_target_: lightning.Trainer
accelerator: gpu
devices: 4
strategy: ddp
# --- launch
python run.py -m hydra/launcher=submitit_slurm datamodule.batch_size=32,64 trainer=ddp
""",
]
