"""PF610 examples: small projects (``# --- <path>`` sections); bad ones must fire on the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_BUILD = textwrap.dedent("""
    # --- depth/build.py
    import torch
    import torch.nn as nn


    class Depther(nn.Module):
        def __init__(self, backbone, head):
            super().__init__()
            self.backbone = backbone
            self.head = head

        def forward(self, x):
            return self.head(self.backbone(x))


    {decorator}
    def create_depther(backbone, head_ckpt=None):
        head = nn.Conv2d(384, 1, 1)
        if head_ckpt is not None:
            head.load_state_dict(torch.load(head_ckpt, map_location="cpu"))
        return Depther(backbone, head).cuda()
""")

_TRAIN = textwrap.dedent("""
    # --- train_depth.py
    import torch

    from depth.build import create_depther


    def main(backbone, loader):
        model = create_depther(backbone, head_ckpt="head.pth")
        opt = torch.optim.AdamW(model.head.parameters(), lr=1e-4)
        model.train()
        for img, depth in loader:
            loss = torch.nn.functional.l1_loss(model(img.cuda()), depth.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main(torch.hub.load("facebookresearch/dinov2", "dinov2_vits14"), [])
    # --- launch
    python train_depth.py
""")

_EVAL = textwrap.dedent("""
    # --- eval_depth.py
    import torch

    from depth.build import create_depther


    def main(backbone, loader):
        model = create_depther(backbone, head_ckpt="head.pth").eval()
        for img, depth in loader:
            print(torch.nn.functional.l1_loss(model(img.cuda()), depth.cuda()).item())


    if __name__ == "__main__":
        main(torch.hub.load("facebookresearch/dinov2", "dinov2_vits14"), [])
    # --- launch
    python eval_depth.py
""")

PF610_BAD = [
    # DINOv2 issue 225: the depther factory of the inference notebook, reused to fine-tune
    _BUILD.format(decorator="@torch.inference_mode()  # error: PF610") + _TRAIN,
    _BUILD.format(decorator="@torch.inference_mode  # error: PF610") + _TRAIN,
]

PF610_GOOD = [
    # the fix: no inference mode around the factory
    _BUILD.format(decorator="") + _TRAIN,
    # tricky-correct: no_grad makes ordinary tensors (only the load is untracked)
    _BUILD.format(decorator="@torch.no_grad()") + _TRAIN,
    # tricky-correct: the same inference-mode factory used only to evaluate
    _BUILD.format(decorator="@torch.inference_mode()") + _EVAL,
]
