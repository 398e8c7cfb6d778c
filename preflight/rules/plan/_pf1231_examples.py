"""PF1231 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_DETECTOR = textwrap.dedent("""
    # --- detector.py
    import lightning as L
    import torch
    import torch.nn as nn


    class BoxRegressor(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.head = nn.Linear(32, 4)

        def training_step(self, batch, batch_idx):
            images, boxes, has_box = batch
            pred = self.head(self.backbone(images))
            if has_box.sum() == 0:
                return {empty}{mark}
            return nn.functional.smooth_l1_loss(pred[has_box], boxes[has_box])

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-4)
    # --- train_det.py
    import lightning as L

    from detector import BoxRegressor

    trainer = L.Trainer(accelerator="gpu", devices={devices}, strategy={strategy}, max_epochs=30)
    trainer.fit(BoxRegressor(), loader)
    # --- launch
    python train_det.py
""")

_BENCH = textwrap.dedent("""
    # --- model.py
    import lightning as L
    import torch
    import torch.nn as nn


    class Unet3DLightning(L.LightningModule):
        def __init__(self, benchmark=True):
            super().__init__()
            self.benchmark = benchmark
            self.net = nn.Conv3d(1, 3, 1)

        def training_step(self, train_batch, batch_idx):
            images, labels = train_batch
            if self.benchmark:
                return {skip}{mark}
            return nn.functional.cross_entropy(self.net(images), labels)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
    # --- train.py
    import lightning as L

    from model import Unet3DLightning

    trainer = L.Trainer(accelerator="gpu", devices=1, num_nodes={nodes}, strategy={strategy}, max_epochs=5)
    trainer.fit(Unet3DLightning(benchmark=True), loader)
    # --- launch
    python train.py
""")

PF1231_BAD = [
    # pytorch-lightning issue 12190: the empty-batch branch returns a fresh zero under 4-GPU DDP
    _DETECTOR.format(empty="torch.tensor([0.0], requires_grad=True, device=self.device)",
                     mark="  # warning: PF1231", devices=4, strategy='"ddp"'),
    # the same fresh zero spelled with zeros(...).requires_grad_()
    _DETECTOR.format(empty="torch.zeros(1, device=self.device).requires_grad_()",
                     mark="  # warning: PF1231", devices=2, strategy='"ddp"'),
    # gcs-connector-for-pytorch pull request 96: None in benchmark mode, the 10-node Trainer in train.py
    _BENCH.format(skip="None", mark="  # warning: PF1231", nodes=10, strategy='"ddp"'),
]

PF1231_GOOD = [
    # the fix of issue 12190: a zero built from the model output
    _DETECTOR.format(empty="pred.sum() * 0.0", mark="", devices=4, strategy='"ddp"'),
    # one process: nothing to wait for
    _DETECTOR.format(empty="torch.tensor([0.0], requires_grad=True, device=self.device)", mark="",
                     devices=1, strategy='"auto"'),
    # tricky: DDP is told to find unused parameters, it all-reduces zeros for the untouched ones
    _DETECTOR.format(empty="torch.tensor([0.0], requires_grad=True, device=self.device)", mark="",
                     devices=4, strategy='"ddp_find_unused_parameters_true"'),
    # tricky, the PR 96 fix: a constant leaf on 10 nodes, but every rank takes the same (settings) branch
    _BENCH.format(skip="torch.tensor(1.0, device=self.device, requires_grad=True)", mark="", nodes=10, strategy='"ddp"'),
    # the None skip on one node
    _BENCH.format(skip="None", mark="", nodes=1, strategy='"auto"'),
    # tricky: the benchmark branch returns a loss of the model times zero
    _BENCH.format(skip="self.net(images).sum() * 0.0", mark="", nodes=10, strategy='"ddp"'),
]
