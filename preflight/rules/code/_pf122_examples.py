"""PF122 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF122_BAD = [
    # ProtoContra-SFDA#18 shape: the segmentation head "frozen" by an attribute
    textwrap.dedent("""
    import torch

    from networks import UNet


    class Adapter:
        def __init__(self, ckpt, lr=1e-4):
            self.model = UNet(n_channels=1, n_classes=5).cuda()
            self.model.load_state_dict(torch.load(ckpt, map_location="cuda"))
            self.model.outc.requires_grad = False  # warning: PF122
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
"""),
    # the first six encoder layers of a loaded BERT, and a module built in the file
    textwrap.dedent("""
    import torch
    from torch import nn
    from transformers import BertModel

    bert = BertModel.from_pretrained("bert-base-uncased")
    for layer in bert.encoder.layer[:6]:
        layer.requires_grad = False  # warning: PF122
    head = nn.Linear(768, 2)
    head.requires_grad = True  # warning: PF122
    optimizer = torch.optim.AdamW(list(bert.parameters()) + list(head.parameters()), lr=2e-5)
"""),
    # a loop over children
    textwrap.dedent("""
    import torch
    import torchvision

    model = torchvision.models.resnet50(weights="IMAGENET1K_V2")
    for child in list(model.children())[:-1]:
        child.requires_grad = False  # warning: PF122
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
"""),
]

PF122_GOOD = [
    # the fix
    textwrap.dedent("""
    import torch

    from networks import UNet


    class Adapter:
        def __init__(self, ckpt, lr=1e-4):
            self.model = UNet(n_channels=1, n_classes=5).cuda()
            self.model.outc.requires_grad_(False)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
"""),
    # tricky-correct: parameters and tensors carry requires_grad
    textwrap.dedent("""
    import torch
    from torch import nn


    class ViT(nn.Module):
        def __init__(self, dim=768):
            super().__init__()
            self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
            self.pos_embed = nn.Parameter(torch.zeros(1, 197, dim))
            self.cls_token.requires_grad = False
            self.pos_embed.requires_grad = False


    model = ViT()
    for name, p in model.named_parameters():
        if "encoder" in name:
            p.requires_grad = False
    for p in model.encoder.parameters():
        p.requires_grad = False
    model.head.weight.requires_grad = False
    x = torch.zeros(3)
    x.requires_grad = True
"""),
    # tricky-correct: the attribute set next to the real freeze
    textwrap.dedent("""
    import torch

    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2))
    model.requires_grad_(False)
    model.requires_grad = False
"""),
    # tricky-correct: a tensor under a submodule-like name (a DFL head's `proj`), CLIP's projection
    # parameters, and a group of modules and parameters told apart by isinstance
    textwrap.dedent("""
    import open_clip
    import torch
    from torch import nn


    class Head(nn.Module):
        def __init__(self, reg_max=16):
            super().__init__()
            self.proj = torch.linspace(0, reg_max, reg_max + 1)
            self.proj.requires_grad = False
            self.head = nn.Parameter(torch.zeros(4))
            self.head.requires_grad = False


    def set_group(members, flag):
        for m in members:
            if isinstance(m, nn.Parameter):
                m.requires_grad = flag
            else:
                m.requires_grad_(flag)


    model, _, preprocess = open_clip.create_model_and_transforms("ViT-B-32")
    model.visual.proj.requires_grad = False
    model.text_projection.requires_grad = False
"""),
]
