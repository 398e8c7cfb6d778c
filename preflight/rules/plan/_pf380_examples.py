"""PF380 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    import torch.nn.functional as F
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def main(cfg):
        model = torch.nn.Conv2d(3, cfg.data.classes, 1).cuda()
        optimizer = instantiate(cfg.optimizer, params=model.parameters())
        {build}
        for epoch in range(cfg.training.max_epochs):
            for img, mask in loader:
                loss = F.cross_entropy(model(img.cuda()), mask.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            {step}


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - optimizer: adam
      - scheduler: plateau  # {pin}
      - _self_
    data:
      classes: 5
    training:
      max_epochs: 100
    {extra}
    # --- conf/optimizer/adam.yaml
    _target_: torch.optim.Adam
    lr: 1.0e-4
    # --- conf/scheduler/plateau.yaml
    _target_: torch.optim.lr_scheduler.ReduceLROnPlateau
    mode: min
    factor: 0.1
    patience: 5
    # --- launch
    python train.py
""")

BAD_EXAMPLES = [
    # NRCan/geo-deep-learning issue 385: the scheduler group is composed and never instantiated
    _APP.format(build="", step="", pin="warning: PF380", extra=""),
]

GOOD_EXAMPLES = [
    # the fix: the scheduler built from cfg.scheduler and stepped
    _APP.format(build="scheduler = instantiate(cfg.scheduler, optimizer=optimizer)", step="scheduler.step(loss)",
                pin="", extra=""),
    # tricky-correct: read by a string key
    _APP.format(build='scheduler = instantiate(cfg["scheduler"], optimizer=optimizer)', step="scheduler.step(loss)",
                pin="", extra=""),
    # tricky-correct: the group is read through an interpolation of another key the code reads
    _APP.format(build="", step="", pin="", extra="  patience: ${scheduler.patience}"),
    # tricky-correct: a project module two imports away reads the group (lightning-hydra-template's
    # `extras` group, read by src/utils/utils.py through src/utils/__init__.py)
    _APP.format(build="scheduler = helpers.build_scheduler(cfg, optimizer)", step="scheduler.step(loss)", pin="",
                extra="").replace("from hydra.utils import instantiate\n",
                                  "from hydra.utils import instantiate\n\nimport helpers\n", 1)
    + textwrap.dedent("""
        # --- helpers/__init__.py
        from helpers.sched import build_scheduler
        # --- helpers/sched.py
        from hydra.utils import instantiate


        def build_scheduler(cfg, optimizer):
            if cfg.get("scheduler"):
                return instantiate(cfg.scheduler, optimizer=optimizer)
            return None
    """),
    # tricky-correct: the whole config goes to a library runner, which may read any group
    _APP.format(build="run_with(cfg)", step="", pin="", extra=""),
]
