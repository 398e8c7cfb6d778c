"""PF340 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl
    import torch
    from omegaconf import DictConfig, OmegaConf


    class Spotter(pl.LightningModule):
        def __init__(self, cfg):
            super().__init__()
            self.save_hyperparameters()  # {pin}
            self.net = torch.nn.Linear(40, cfg["model"]["num_classes"])

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        trainer = pl.Trainer(gpus=1, max_epochs=cfg.trainer.max_epochs)
        trainer.fit(Spotter({arg}))


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    data:
      num_classes: 35
    model:
      num_classes: ${{data.num_classes}}
    trainer:
      max_epochs: 30
    # --- requirements.txt
    hydra-core==1.0.5
    pytorch-lightning=={version}
""")

BAD_EXAMPLES = [
    # pytorch-lightning PR 5406: hparams.yaml re-rooted under `cfg`, ${data.num_classes} unresolvable
    _JOB.format(pin="error: PF340", arg="cfg", version="1.1.3"),
]

GOOD_EXAMPLES = [
    # the fix: a resolved container
    _JOB.format(pin="", arg="OmegaConf.to_container(cfg, resolve=True)", version="1.1.3"),
    # tricky: the same module on 1.1.4, which saves the DictConfig itself
    _JOB.format(pin="", arg="cfg", version="1.1.4"),
    # tricky: no interpolation in the config
    _JOB.format(pin="", arg="cfg", version="1.1.3").replace("${data.num_classes}", "35"),
    # tricky: the config object itself handed over: Lightning 1.1 saves a single non-string argument as the
    # hyperparameters at their root (PF578's whole-config fix), nothing is re-rooted under a name
    _JOB.format(pin="", arg="cfg", version="1.1.3").replace("self.save_hyperparameters()  # ",
                                                             "self.save_hyperparameters(cfg)  # "),
]
