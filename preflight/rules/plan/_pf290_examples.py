"""PF290 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent. From a launch script,
the finding is on the script's line that holds the override."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")  # {pin}
    def main(cfg):
        print(cfg.model.name, cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: resnet18
      - _self_
    trainer:
      max_epochs: 100
      devices: 1
    # --- conf/model/resnet18.yaml
    name: resnet18
    # --- conf/model/resnet50.yaml
    name: resnet50
    # --- launch
    python train.py --multirun model=resnet18,resnet50 {overrides}
""")

BAD_EXAMPLES = [
    # hydra issue 1547: `+` on a key config.yaml already defines; the sweep never starts
    _APP.format(pin="error: PF290", overrides="+trainer.max_epochs=200 +trainer.gradient_clip_val=1.0"),
]

GOOD_EXAMPLES = [
    # the fix: override the existing key, append the new one
    _APP.format(pin="", overrides="trainer.max_epochs=200 +trainer.gradient_clip_val=1.0"),
    # tricky: `++` adds or overrides, whether the key exists or not
    _APP.format(pin="", overrides="++trainer.max_epochs=200 ++trainer.gradient_clip_val=1.0"),
]
