"""PF338 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import lightning as L


    @hydra.main(config_path="conf", config_name="train", version_base="1.3")  # {pin}
    def main(cfg):
        trainer = L.Trainer(accelerator="gpu", devices=cfg.trainer.devices, num_nodes=cfg.trainer.num_nodes,
                            strategy="ddp", max_epochs=cfg.trainer.max_epochs)
        print(trainer, cfg.data.batch_size)


    if __name__ == "__main__":
        main()
    # --- conf/train.yaml
    defaults:
      - override hydra/launcher: submitit_slurm
      - _self_

    data:
      batch_size: 64
    trainer:
      num_nodes: 1
      devices: 8
      max_epochs: 90
    hydra:
      launcher:
        nodes: ${{trainer.num_nodes}}
        tasks_per_node: ${{trainer.devices}}
        timeout_min: 2880
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # hydra issue 2381: a scaling study over node counts, the launcher fixed at the first one
    _APP.format(pin="error: PF338", args="--multirun trainer.num_nodes=1,2,4"),
    _APP.format(pin="error: PF338", args="-m 'trainer.devices=choice(4,8)' data.batch_size=32,64"),
]

GOOD_EXAMPLES = [
    # the fix: one multirun per node count, the value a plain override
    _APP.format(pin="", args="--multirun trainer.num_nodes=2 data.batch_size=32,64"),
    # tricky: sweeping an app key the launcher does not read
    _APP.format(pin="", args="--multirun data.batch_size=32,64,128 trainer.max_epochs=30,90"),
    # tricky: the launcher key given explicitly on the same line
    _APP.format(pin="", args="--multirun trainer.num_nodes=2,4 hydra.launcher.nodes=4"),
]
