"""PF128 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # huggingface/pytorch-openai-transformer-lm pull request 6 ("fix the scope of optimizer"): the ROCStories
    # classification head is built beside the encoder, the optimizer is given the encoder's parameters only
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    from model_pytorch import ClfHead, TransformerModel


    def main(train_loader, device):
        model = TransformerModel(vocab=40481, n_ctx=77).to(device)
        clf_head = ClfHead(clf_token=40480, n_embd=768).to(device)  # warning: PF128
        criterion = nn.CrossEntropyLoss()
        opt = torch.optim.AdamW(model.parameters(), lr=6.25e-5)
        for epoch in range(3):
            for x, y in train_loader:
                h = model(x.to(device))
                logits = clf_head(h, x)
                loss = criterion(logits, y.to(device))
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # a linear layer on top of a feature network, at the top level of a script (discuss.pytorch.org threads on a
    # classifier that "does not learn" because its last layer was built outside the model)
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F

    from nets import FeatureNet

    backbone = FeatureNet().cuda()
    fc = torch.nn.Linear(512, 10).cuda()  # warning: PF128
    optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, backbone.parameters()), lr=0.1, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler()
    for images, labels in loader:
        with torch.autocast("cuda"):
            feats = backbone(images.cuda())
            out = fc(feats)
            loss = F.cross_entropy(out, labels.cuda())
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
"""),
]

GOOD_EXAMPLES = [
    # the fix of pull request 6: both modules' parameters
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    from model_pytorch import ClfHead, TransformerModel


    def main(train_loader, device):
        model = TransformerModel(vocab=40481, n_ctx=77).to(device)
        clf_head = ClfHead(clf_token=40480, n_embd=768).to(device)
        criterion = nn.CrossEntropyLoss()
        opt = torch.optim.AdamW(list(model.parameters()) + list(clf_head.parameters()), lr=6.25e-5)
        for epoch in range(3):
            for x, y in train_loader:
                h = model(x.to(device))
                logits = clf_head(h, x)
                loss = criterion(logits, y.to(device))
                opt.zero_grad()
                loss.backward()
                opt.step()
"""),
    # parameter groups naming both modules
    textwrap.dedent("""
    import torch

    from nets import FeatureNet

    backbone = FeatureNet().cuda()
    fc = torch.nn.Linear(512, 10).cuda()
    optimizer = torch.optim.SGD([{"params": backbone.parameters(), "lr": 0.01},
                                 {"params": fc.parameters(), "lr": 0.1}], momentum=0.9)
    for images, labels in loader:
        loss = torch.nn.functional.cross_entropy(fc(backbone(images)), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # the head is made a submodule before the optimizer is built
    textwrap.dedent("""
    import torch
    import torch.nn as nn

    from nets import FeatureNet

    backbone = FeatureNet()
    head = nn.Linear(512, 10)
    model = nn.Sequential(backbone, head)
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in loader:
        feats = backbone(x)
        loss = nn.functional.cross_entropy(head(feats), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    # tricky: a GAN, each network in its own optimizer; the discriminator takes the generator's output
    textwrap.dedent("""
    import torch

    from models import Discriminator, Generator

    G, D = Generator().cuda(), Discriminator().cuda()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
    for real, _ in loader:
        fake = G(torch.randn(64, 100, device="cuda"))
        loss_g = -D(fake).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
"""),
    # tricky: a frozen probe on purpose (its parameters turned off), and a prepared parameter list
    textwrap.dedent("""
    import torch

    from nets import FeatureNet, Probe

    net = FeatureNet()
    probe = Probe(512)
    for p in probe.parameters():
        p.requires_grad = False
    opt = torch.optim.AdamW(net.parameters())
    for x, y in loader:
        z = net(x)
        loss = torch.nn.functional.mse_loss(probe(z), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


    def other(loader, net, head):
        params = [p for p in net.parameters()] + extra_params
        opt = torch.optim.SGD(params, lr=0.1)
        mlp = torch.nn.Linear(4, 4)
        for x, y in loader:
            loss = (mlp(net(x)) - y).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""),
    # tricky: the module before the trained model (a frozen feature extractor), and a loss module
    textwrap.dedent("""
    import torch

    from nets import Classifier, Extractor

    extractor = Extractor()
    clf = Classifier()
    criterion = torch.nn.CrossEntropyLoss()
    opt = torch.optim.Adam(clf.parameters())
    for x, y in loader:
        feats = extractor(x)
        loss = criterion(clf(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
]

GOOD_EXAMPLES.append(
    # linyihaolyh/SRGAN-with-distributed-training train.py @ c46e70f (found by the real-code run): a VGG perceptual
    # loss network that freezes itself, fed the generator's output
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from torchvision.models import vgg19


    class HighLevel(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(*list(vgg19().features)[:36])
            for parameter in self.features.parameters():
                parameter.requires_grad = False

        def forward(self, x):
            return self.features(x)


    generator = Generator()
    loss_net = HighLevel()
    opt = torch.optim.Adam(generator.parameters(), lr=1e-4)
    for lr_img, hr_img in loader:
        sr = generator(lr_img)
        loss = nn.functional.mse_loss(loss_net(sr), loss_net(hr_img))
        opt.zero_grad()
        loss.backward()
        opt.step()
"""))

GOOD_EXAMPLES.append(
    # bugs held-out-42 h42-pt-masked-bce-after-mean-reduction-ignores-the-mask (a false positive of the first
    # version): a project loss module with no weights, fed the model's output
    textwrap.dedent("""
    import torch
    import torch.nn as nn


    class MaskedObjective(nn.Module):
        def __init__(self, pos_weight=None):
            super().__init__()
            self.bce = nn.BCEWithLogitsLoss(reduction="none", pos_weight=pos_weight)

        def forward(self, logits, target, mask):
            return (self.bce(logits, target) * mask).sum() / mask.sum()


    model = Tagger()
    objective = MaskedObjective()
    opt = torch.optim.Adam(model.parameters())
    for x, y, m in loader:
        out = model(x)
        loss = objective(out, y, m)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""))
