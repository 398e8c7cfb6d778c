"""PF442 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # yolov5 issue 1213: the optimizer-group loop re-enables every parameter after --freeze
    textwrap.dedent("""
    import torch.optim as optim


    def build_optimizer(model, opt, hyp):
        freeze = ["model.%d." % x for x in range(opt.freeze)]
        for k, v in model.named_parameters():
            if any(x in k for x in freeze):
                v.requires_grad = False

        pg0, pg1, pg2 = [], [], []
        for k, v in model.named_parameters():
            v.requires_grad = True  # warning: PF442
            if ".bias" in k:
                pg2.append(v)
            elif ".weight" in k and ".bn" not in k:
                pg1.append(v)
            else:
                pg0.append(v)
        optimizer = optim.SGD(pg0, lr=hyp["lr0"], momentum=hyp["momentum"], nesterov=True)
        optimizer.add_param_group({"params": pg1, "weight_decay": hyp["weight_decay"]})
        optimizer.add_param_group({"params": pg2})
        return optimizer
"""),
    # a method: the encoder frozen, then a "make sure everything is trainable" loop over the whole model
    textwrap.dedent("""
    import torch


    class FineTuner:
        def setup(self, model, lr):
            for p in model.encoder.parameters():
                p.requires_grad_(False)
            for p in model.parameters():
                p.requires_grad_()  # warning: PF442
            self.optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=lr)
"""),
]

GOOD_EXAMPLES = [
    # the yolov5 fix: the group loop no longer touches requires_grad
    textwrap.dedent("""
    import torch.optim as optim


    def build_optimizer(model, opt, hyp):
        freeze = ["model.%d." % x for x in range(opt.freeze)]
        for k, v in model.named_parameters():
            v.requires_grad = True
            if any(x in k for x in freeze):
                v.requires_grad = False
        pg0, pg1 = [], []
        for k, v in model.named_parameters():
            (pg1 if ".bias" in k else pg0).append(v)
        optimizer = optim.SGD(pg0, lr=hyp["lr0"], momentum=hyp["momentum"], nesterov=True)
        optimizer.add_param_group({"params": pg1})
        return optimizer
"""),
    # freeze everything, then unfreeze the head: another module
    """
def prepare(model):
    for p in model.parameters():
        p.requires_grad = False
    for p in model.classifier.parameters():
        p.requires_grad = True
""",
    # the later loop tests the names (unfreezing the last blocks)
    """
def prepare(model, n):
    for p in model.parameters():
        p.requires_grad = False
    for name, p in model.named_parameters():
        if name.startswith(("layer4", "fc")):
            p.requires_grad = True
""",
    # progressive unfreezing: the second loop is under a test of the epoch
    """
def train(model, loader, epochs, unfreeze_at, step):
    for p in model.backbone.parameters():
        p.requires_grad = False
    for epoch in range(epochs):
        if epoch == unfreeze_at:
            for p in model.backbone.parameters():
                p.requires_grad = True
        for batch in loader:
            step(model, batch)
""",
    # one loop that sets every flag (True first, then False for the frozen names)
    """
def prepare(model, frozen):
    for name, p in model.named_parameters():
        p.requires_grad = True
        if name in frozen:
            p.requires_grad = False
    for name, p in model.named_parameters():
        print(name, p.requires_grad)
""",
    # tricky-correct, a GAN's two-player step: the discriminator is frozen whole while the generator's
    # loss backpropagates through it, then re-enabled whole for its own update
    """
class GanTrainer:
    def optimize(self, real, noise):
        for p in self.disc.parameters():
            p.requires_grad = False
        self.opt_g.zero_grad()
        fake = self.gen(noise)
        self.adv_loss(self.disc(fake), True).backward()
        self.opt_g.step()

        for p in self.disc.parameters():
            p.requires_grad = True
        self.opt_d.zero_grad()
        loss_d = self.adv_loss(self.disc(real), True) + self.adv_loss(self.disc(fake.detach()), False)
        loss_d.backward()
        self.opt_d.step()
""",
]
