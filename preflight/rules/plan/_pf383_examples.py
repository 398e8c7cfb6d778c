"""PF383 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_STORE = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    cs.store(node=dict(lr=1e-4, warmup_steps=2000), name="small_lr", group="train/overrides", package="_global_")


    @hydra.main(config_path="conf", config_name="train/config", version_base="1.3"){pin}
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        print(optimizer, cfg.warmup_steps, cfg.epochs)


    if __name__ == "__main__":
        main()
    # --- conf/train/config.yaml
    lr: 0.001
    warmup_steps: 0
    epochs: 40
    # --- launch
    python train.py {args}
""")

_FILES = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="config", version_base="1.3"){pin}
    def main(cfg):
        print(cfg.optim.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    optim:
      lr: 0.1
    # --- conf/experiment/sched/fast.yaml
    # @package _global_
    optim:
      lr: 0.5
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # hydra issue 2875: the stored group is train/overrides
    _STORE.format(pin="  # warning: PF383", args="+overrides=small_lr"),
    # the same with a nested folder of the config directory
    _FILES.format(pin="  # warning: PF383", args="+sched=fast"),
]

GOOD_EXAMPLES = [
    # the fix: the full path of the group
    _STORE.format(pin="", args="+train/overrides=small_lr"),
    _FILES.format(pin="", args="+experiment/sched=fast"),
    # tricky-correct: a plain new key whose value no nested group offers
    _STORE.format(pin="", args="+note=baseline"),
    # tricky-correct: a dotted key
    _FILES.format(pin="", args="+optim.momentum=0.9"),
]
