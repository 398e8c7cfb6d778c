"""PF614 examples: small projects (``# --- <path>`` sections) holding a notebook; bad ones must fire
at the line named in their ``# --- expect`` section, good ones stay silent."""

from __future__ import annotations

import json


def _notebook(*cells: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                                  "source": cell.splitlines(keepends=True)} for cell in cells],
                       "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1)


_IMPORTS = "import pytorch_lightning as pl\nfrom icecube.models import DynEdgeEnergyModel\n"
_FIT = """trainer = pl.Trainer(
    accelerator="gpu",
    devices=2,
    strategy={strategy},
    max_epochs=30,
)
trainer.fit(DynEdgeEnergyModel(nb_inputs=7), train_loader, val_loader)
"""

PF614_BAD = [
    # graphnet issue 413: strategy="ddp" in a notebook cell (a notebook finding names the line in its
    # cell: line 4 of cell 2)
    "\n# --- train_model.ipynb\n" + _notebook(_IMPORTS, _FIT.format(strategy='"ddp"'))
    + "\n# --- expect\ntrain_model.ipynb:4: error: PF614\n",
]

PF614_GOOD = [
    # the fix: the notebook-compatible launcher
    "\n# --- train_model.ipynb\n" + _notebook(_IMPORTS, _FIT.format(strategy='"ddp_notebook"')) + "\n",
    # tricky-correct: a DDPStrategy that forks
    "\n# --- train_model.ipynb\n" + _notebook(
        _IMPORTS + "from pytorch_lightning.strategies import DDPStrategy\n",
        _FIT.format(strategy='DDPStrategy(start_method="fork", find_unused_parameters=True)')) + "\n",
    # tricky-correct: the same Trainer in a script
    "\n# --- train.py\n" + _IMPORTS + "\n" + _FIT.format(strategy='"ddp"'),
]
