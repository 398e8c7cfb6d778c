"""PF212 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_TRAIN = dedent("""
    # --- train.py
    import torch
    import torch.nn.functional as F
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    from seg.data import TilesDataset
    from seg.model import UNet


    def main():
        accelerator = Accelerator(mixed_precision="fp16")
        model = UNet(in_channels=4, num_classes=7){to}{pin}
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
        loader = DataLoader(TilesDataset("data/train"), batch_size=16, shuffle=True)
    {prepare}
        for epoch in range(40):
            for images, masks in loader:
                optimizer.zero_grad()
                loss = F.cross_entropy(model(images{move}), masks{move})
                accelerator.backward(loss)
                optimizer.step()
    # --- launch
    accelerate launch --multi_gpu --num_processes {n} train.py
    """)

PF212_BAD = [
    # accelerate issue 244: the model moved to accelerator.device, nothing prepared, 4 processes
    _TRAIN.format(to=".to(accelerator.device)", pin="  # error: PF212", prepare="",
                  move=".to(accelerator.device)", n=4),
]

PF212_GOOD = [
    # the fix: everything through prepare
    _TRAIN.format(to="", pin="", prepare="    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)",
                  move="", n=4),
    # tricky: one process (no DDP to miss)
    _TRAIN.format(to=".to(accelerator.device)", pin="", prepare="", move=".to(accelerator.device)", n=1),
    # tricky: the accelerator is handed to a helper of another module, which may prepare there
    _TRAIN.format(to="", pin="", prepare="    model, optimizer, loader = setup_distributed(accelerator, model, "
                  "optimizer, loader)", move="", n=4),
]
