"""PF578 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    # --- main.py
    import hydra
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def __init__(self, hparams):
            super().__init__()
            self.save_hyperparameters(hparams)
            self.layer = torch.nn.Linear(16, 2)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.layer(x), y)

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)


    @hydra.main(config_path="configs", config_name="config")
    def run(cfg):
        model = Classifier({arg}){pin}
        trainer = pl.Trainer(max_epochs=cfg.max_epochs)
        trainer.fit(model)


    if __name__ == "__main__":
        run()
    # --- configs/config.yaml
    defaults:
      - model: small
      - data: corpus

    max_epochs: 3
    # --- configs/data/corpus.yaml
    # @package _group_
    name: corpus_a
""")

_ROOT_REF = """\
# --- configs/model/small.yaml
# @package _group_
width: 64
out_path: preds/${data.name}.pt
"""

BAD_EXAMPLES = [
    # Lightning issue 5384: the model node interpolates ${data.name} and is saved on its own
    _SCRIPT.format(arg="cfg.model", pin="  # error: PF578") + _ROOT_REF + """\
# --- requirements.txt
pytorch-lightning==1.1.2
hydra-core==1.0.4
""",
]

GOOD_EXAMPLES = [
    # the fix: the whole config is saved
    _SCRIPT.format(arg="cfg", pin="") + _ROOT_REF + """\
# --- requirements.txt
pytorch-lightning==1.1.2
hydra-core==1.0.4
""",
    # tricky-correct: Lightning 1.1.4 resolves the node against its parent before saving it
    _SCRIPT.format(arg="cfg.model", pin="") + _ROOT_REF + """\
# --- requirements.txt
pytorch-lightning==1.1.4
""",
    # tricky-correct: the subnode only interpolates keys inside itself
    _SCRIPT.format(arg="cfg.model", pin="") + """\
# --- configs/model/small.yaml
# @package _group_
width: 64
hidden: ${model.width}
# --- requirements.txt
pytorch-lightning==1.1.2
""",
]
