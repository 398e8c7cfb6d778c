"""PF694 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# astra-vision/MonoScene issue 89: generate_output.py reads config.fp_loss, which monoscene.yaml lacks
_APP = textwrap.dedent("""
    # --- generate_output.py
    import os

    import hydra
    import torch

    from monoscene.models import MonoScene


    @hydra.main(config_path="conf", config_name="monoscene", version_base=None)
    def main(config):
        torch.set_grad_enabled(False){before}
        model = MonoScene.load_from_checkpoint(
            config.model_path,
            feature=config.feature,
            fp_loss={read},  # {pin}
            project_scale=config.project_scale,
        )
        os.makedirs(config.output_path, exist_ok=True)
        torch.save(model.state_dict(), os.path.join(config.output_path, "m.pt"))


    if __name__ == "__main__":
        main()
    # --- conf/monoscene.yaml
    model_path: trained_models/monoscene_kitti.ckpt
    feature: 64
    project_scale: 2
    {extra_key}
    # --- launch
    python generate_output.py +output_path=output +n_gpus=1 {args}
""")

# a nested read: cfg.optim.warmup where conf/config.yaml's optim node has no warmup
_NESTED = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")
    def train(cfg):
        model = torch.nn.Linear(cfg.model.width, 10)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.optim.lr)
        sched = torch.optim.lr_scheduler.LinearLR(opt, 0.1, total_iters={read})  # {pin}
        for _ in range(cfg.trainer.steps):
            opt.step()
            sched.step()


    if __name__ == "__main__":
        train()
    # --- conf/config.yaml
    defaults:
      - optim: adamw
      - _self_
    model:
      width: 256
    trainer:
      steps: 1000
    # --- conf/optim/adamw.yaml
    lr: 3.0e-4
    {extra_key}
    # --- launch
    python train.py {args}
""")

PF694_BAD = [
    # the report: fp_loss is neither in the config nor added by the command
    _APP.format(pin="warning: PF694", read="config.fp_loss", before="", extra_key="", args=""),
    # a key read under a node of a group config (optim/adamw.yaml has no warmup)
    _NESTED.format(pin="warning: PF694", read="cfg.optim.warmup_steps", extra_key="", args=""),
    # an override of another key does not add this one
    _NESTED.format(pin="warning: PF694", read="cfg.optim.warmup_steps", extra_key="", args="optim.lr=1e-4"),
]

PF694_GOOD = [
    # the maintainer's fix: the value given in the code
    _APP.format(pin="", read="True", before="", extra_key="", args=""),
    # the other fix: +fp_loss=True at launch
    _APP.format(pin="", read="config.fp_loss", before="", extra_key="", args="+fp_loss=True"),
    # the key in the config
    _APP.format(pin="", read="config.fp_loss", before="", extra_key="fp_loss: true", args=""),
    # tricky: read with a default
    _APP.format(pin="", read='config.get("fp_loss", True)', before="", extra_key="", args=""),
    # tricky: struct mode opened before the read
    _APP.format(pin="", read="config.fp_loss", extra_key="", args="",
                before="\n    from omegaconf import OmegaConf\n    OmegaConf.set_struct(config, False)"
                       "\n    config.fp_loss = True"),
    # tricky: the read is guarded by a membership test
    _APP.format(pin="", read='config.fp_loss if "fp_loss" in config else True', before="", extra_key="", args=""),
    # tricky: the launch line passes overrides preflight cannot see
    _APP.format(pin="", read="config.fp_loss", before="", extra_key="", args='"$@"'),
    # the nested key defined in the group config
    _NESTED.format(pin="", read="cfg.optim.warmup_steps", extra_key="warmup_steps: 500", args=""),
    # the nested key added at launch
    _NESTED.format(pin="", read="cfg.optim.warmup_steps", extra_key="", args="+optim.warmup_steps=500"),
    # tricky: a DictConfig method, not a key
    _NESTED.format(pin="", read="len(cfg.optim.keys())", extra_key="", args=""),
]
