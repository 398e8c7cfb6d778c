"""PF168 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# NVIDIA/physicsnemo issue 133's shape: an FNO configured from Hydra, saved after training
_APP = textwrap.dedent("""
    # --- train_fno.py
    import hydra
    import torch
    from {package}.models.fno import FNO
    from omegaconf import DictConfig, OmegaConf


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        model = FNO(
            in_channels=cfg.arch.in_channels,
            num_fno_modes=cfg.arch.fno.num_modes,
            decoder_layer_sizes={sizes},{pin}
            dimension=2,
        ).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=cfg.training.lr)
        for step in range(cfg.training.steps):
            loss = model(torch.randn(4, 1, 64, 64).cuda()).square().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        {save}


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    arch:
      in_channels: 1
      fno:
        num_modes: 12
      decoder:
        layer_sizes: [64, 32]
        width: 64
    training:
      lr: 0.001
      steps: 1000
    # --- launch
    python train_fno.py
""")

_SAVE = 'model.save("checkpoints/fno_darcy.mdlus")'

BAD_EXAMPLES = [
    _APP.format(package="modulus", sizes="cfg.arch.decoder.layer_sizes", pin="  # error: PF168", save=_SAVE),
    # the package's new name, saved through the launch utility
    _APP.format(package="physicsnemo", sizes="cfg.arch.decoder.layer_sizes", pin="  # error: PF168",
                save='save_checkpoint("checkpoints", models=model, optimizer=optimizer, epoch=1)').replace(
        "from omegaconf import", "from physicsnemo.launch.utils import save_checkpoint\nfrom omegaconf import"),
]

GOOD_EXAMPLES = [
    # the fix: a plain list
    _APP.format(package="modulus", sizes="OmegaConf.to_container(cfg.arch.decoder.layer_sizes, resolve=True)",
                pin="", save=_SAVE),
    # tricky-correct: a scalar from the config
    _APP.format(package="physicsnemo", sizes="cfg.arch.decoder.width", pin="", save=_SAVE),
    # tricky-correct: DoMINO converts its model_parameters DictConfig into its recorded arguments (PR 1314)
    _APP.format(package="physicsnemo", sizes="cfg.arch.decoder.layer_sizes", pin="", save=_SAVE).replace(
        "from physicsnemo.models.fno import FNO", "from physicsnemo.models.domino.model import DoMINO").replace(
        "model = FNO(", "model = DoMINO(").replace("decoder_layer_sizes=", "model_parameters=cfg.arch,\n        x="),
    # tricky-correct: the model is never saved with Module.save (its state dict is)
    _APP.format(package="physicsnemo", sizes="cfg.arch.decoder.layer_sizes", pin="",
                save='torch.save(model.state_dict(), "fno.pt")'),
]
