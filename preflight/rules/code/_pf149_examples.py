"""PF149 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # PyTorch forums "What does model.eval() do for batchnorm layer?": one image at a time, BatchNorm in train mode
    textwrap.dedent("""
    import argparse

    import torch
    import torchvision.transforms as T
    from PIL import Image

    from leafnet import CLASSES, LeafNet

    TRANSFORM = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor()])


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--image", required=True)
        args = p.parse_args()
        model = LeafNet(num_classes=len(CLASSES))
        model.load_state_dict(torch.load("weights/leafnet_best.pt", map_location="cpu"))
        x = TRANSFORM(Image.open(args.image).convert("RGB")).unsqueeze(0)
        with torch.no_grad():
            probs = model(x).softmax(dim=1)[0]  # warning: PF149
        print(CLASSES[probs.argmax().item()])
"""),
    # a torchvision builder, the weights loaded at module level, predictions in a decorated function
    textwrap.dedent("""
    import torch
    import torchvision

    net = torchvision.models.resnet50(num_classes=4)
    net.load_state_dict(torch.load("ckpt/best.pth")["state_dict"])


    @torch.inference_mode()
    def predict(batch):
        return net(batch).argmax(dim=1)  # warning: PF149
"""),
]

GOOD_EXAMPLES = [
    # the fix: eval() after loading the weights
    textwrap.dedent("""
    import torch

    from leafnet import LeafNet

    model = LeafNet(num_classes=10)
    model.load_state_dict(torch.load("weights/leafnet_best.pt", map_location="cpu"))
    model.eval()
    with torch.no_grad():
        probs = model(x).softmax(dim=1)
"""),
    # tricky-correct: eval() chained onto the move, and a from_pretrained model (returned in eval mode)
    textwrap.dedent("""
    import torch
    import torchvision
    from transformers import AutoModelForImageClassification

    net = torchvision.models.resnet18(num_classes=2)
    net.load_state_dict(torch.load("best.pt"))
    net = net.to("cuda").eval()
    vit = AutoModelForImageClassification.from_pretrained("google/vit-base-patch16-224")
    vit.load_state_dict(torch.load("vit.pt"))
    with torch.no_grad():
        a = net(x)
        b = vit(pixel_values=x)
"""),
    # tricky-correct: a class of the file without BatchNorm or dropout (the mode changes nothing)
    textwrap.dedent("""
    import torch
    from torch import nn


    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(768, 2)

        def forward(self, x):
            return self.fc(x)


    probe = Probe()
    probe.load_state_dict(torch.load("probe.pt"))
    with torch.no_grad():
        scores = probe(features)
"""),
    # tricky-correct: the file trains (PF115's ground): a validation pass after training
    textwrap.dedent("""
    import torch

    from mynet import Net

    model = Net()
    model.load_state_dict(torch.load("init.pt"))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = model(x_val)
"""),
    # tricky-correct: forward without no_grad (a feature extractor fine-tuned elsewhere), no weights loaded
    textwrap.dedent("""
    import torch
    import torchvision

    backbone = torchvision.models.resnet18()
    feats = backbone(images)
    head = torchvision.models.resnet18()
    with torch.no_grad():
        out = head(images)
"""),
]
