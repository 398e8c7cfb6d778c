"""PF258 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="train", version_base="1.3")  # {pin}
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.optim.lr, weight_decay=cfg.optim.weight_decay)
        print(opt, cfg.trainer.limit_train_batches, cfg.get("tag"))


    if __name__ == "__main__":
        main()
    # --- conf/train.yaml
    optim:
      lr: 1e-4
      weight_decay: 0.0
      betas: [0.9, 0.999]
    trainer:
      limit_train_batches: 1000
      layer1: 64
    # --- launch
    python train.py optim.lr=3e-4 {args}
""")

BAD_EXAMPLES = [
    # OpenMHC issue 14: the + bypasses the struct check and the misspelled key is never read
    _APP.format(pin="warning: PF258", args="+optim.weight_decy=0.1"),
    # ++ (add or override) appends the misspelling just the same; two letters swapped
    _APP.format(pin="warning: PF258", args="++optim.wieght_decay=0.1"),
    # hydra issue 1457: a key Hydra's own config does not have, appended
    _APP.format(pin="warning: PF258", args="+hydra.ouput_subdir=null"),
]

GOOD_EXAMPLES = [
    # the fix: the existing key, without +
    _APP.format(pin="", args="optim.weight_decay=0.1"),
    # tricky: a new key one word away is another key (limit_val_batches beside limit_train_batches),
    # a digit apart (layer2 beside layer1)
    _APP.format(pin="", args="+trainer.limit_val_batches=50 +trainer.layer2=32"),
    # tricky: a new top-level key, and a key added under a node of Hydra's that takes any key
    _APP.format(pin="", args="+tag=ablation +hydra.job.env_set.WANDB_MODE=offline"),
    # tricky: the appended key is one typo away, but the script reads it (it is meant)
    _APP.format(pin="", args="+optim.weight_decy=0.1").replace(
        'cfg.get("tag")', 'cfg.optim.get("weight_decy")'),
]
