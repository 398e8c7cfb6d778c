"""PF288 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import get_method, instantiate
    from omegaconf import OmegaConf


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        backbone = instantiate(cfg.backbone)
        module_cfg = {copy}{pin}
        module_cfg["forward"] = get_method(module_cfg["forward"])
        module = instantiate(module_cfg, backbone=backbone)
        module.fit()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    base_lr: 0.3
    batch_size: 256
    scaled_lr: 0.3
    backbone:
      _target_: torchvision.models.resnet18
    module:
      _target_: ssl.SSLModule
      forward: ssl.simclr_forward
      temperature: {temperature}
      optim:
        _target_: torch.optim.SGD
        _partial_: true
        lr: {lr}
""")

BAD_EXAMPLES = [
    # stable-pretraining PR 339: the optimizer's lr interpolates the root-level ${scaled_lr}
    _APP.format(copy="dict(cfg.module)", pin="  # error: PF288", temperature="0.5", lr="${scaled_lr}"),
    # the same copy written as a dict display
    _APP.format(copy="{**cfg.module}", pin="  # error: PF288", temperature="0.5", lr="${base_lr}"),
]

GOOD_EXAMPLES = [
    # the fix: resolved while the root is reachable
    _APP.format(copy="OmegaConf.to_container(cfg.module, resolve=True)", pin="", temperature="0.5",
                lr="${scaled_lr}"),
    # tricky: a direct value of the node interpolates the root; dict() resolves it
    _APP.format(copy="dict(cfg.module)", pin="", temperature="${base_lr}", lr="0.3"),
    # tricky: the nested value names one of the node's own keys (found again in the re-rooted copy)
    _APP.format(copy="dict(cfg.module)", pin="", temperature="0.5", lr="${temperature}"),
]
