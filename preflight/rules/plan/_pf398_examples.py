"""PF398 examples: small Hydra projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# facebookresearch/hydra#1286's shape: T_max written as a number, the trainer group picks the epochs
_JOB = dedent("""
    # --- train.py
    import hydra
    import torch
    from hydra.utils import instantiate


    @hydra.main(config_path="configs", config_name="config", version_base="1.1")
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
        scheduler = instantiate(cfg.scheduler, optimizer=optimizer)
        for epoch in range(cfg.trainer.epochs):
            {body}


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    defaults:
      - _self_
      - scheduler: cosine
      - trainer: short

    lr: 0.4
    # --- configs/scheduler/cosine.yaml
    _target_: torch.optim.lr_scheduler.CosineAnnealingLR
    T_max: {t_max}
    eta_min: 0.0
    # --- configs/trainer/short.yaml
    epochs: 90
    # --- configs/trainer/long.yaml
    epochs: 300
    # --- launch
    python train.py {override}
    """)

_PER_EPOCH = "scheduler.step()"
_PER_BATCH = "for _ in range(100):\n                scheduler.step()"

BAD_EXAMPLES = [
    _JOB.format(body=_PER_EPOCH, t_max="90  # warning: PF398", override="trainer=long"),
    _JOB.format(body=_PER_EPOCH, t_max="50  # warning: PF398", override=""),
]

GOOD_EXAMPLES = [
    # the fix
    _JOB.format(body=_PER_EPOCH, t_max="${trainer.epochs}", override="trainer=long"),
    # tricky-correct: the constant matches the selected trainer; stepped per batch (T_max counts batches)
    _JOB.format(body=_PER_EPOCH, t_max="90", override=""),
    _JOB.format(body=_PER_BATCH, t_max="9000", override="trainer=long"),
    # a T_max above the epoch count never climbs back
    _JOB.format(body=_PER_EPOCH, t_max="300", override=""),
]
