"""PF337 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")  # {pin}
    def main(cfg):
        model = torch.nn.Linear(784, cfg.model.width)
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.optim.lr)
        print(optimizer, cfg.seed)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    seed: 0
    optim:
      lr: 0.05
    model:
      width: 256
    # --- conf/sweep/lr_search.yaml
    # @package _global_
    hydra:
      sweeper:
        params:
          optim.lr: 0.005,0.01,0.05,0.1
    # --- conf/sweep/width_search.yaml
    # @package _global_
    hydra:
      sweeper:
        params:
          model.width: 128,512,1024
    # --- conf/model/small.yaml
    width: 64
    # --- conf/model/large.yaml
    width: 1024
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # hydra issue 2807: a sweep over sweep configs runs one default job per option
    _APP.format(pin="warning: PF337", args="--multirun +sweep=lr_search,width_search"),
    _APP.format(pin="warning: PF337", args="-m seed=1 '+sweep=choice(lr_search,width_search)'"),
]

GOOD_EXAMPLES = [
    # the fix: one sweep config per multirun
    _APP.format(pin="", args="--multirun +sweep=lr_search"),
    # tricky: a sweep over an ordinary group (its options set no hydra.sweeper.params)
    _APP.format(pin="", args="--multirun model=small,large optim.lr=0.01,0.1"),
    # tricky: the options without `# @package _global_`: their hydra: node is not Hydra's
    _APP.format(pin="", args="--multirun +sweep=lr_search,width_search").replace("# @package _global_\n", ""),
]
