"""PF445 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # chemprop PR 952: the batch norm frozen with requires_grad_(False) through apply, fit in train mode
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    from torch import nn


    class MPNN(pl.LightningModule):
        def __init__(self, message_passing, predictor, hidden_dim=300):
            super().__init__()
            self.message_passing = message_passing
            self.bn = nn.BatchNorm1d(hidden_dim)
            self.predictor = predictor

        def training_step(self, batch, batch_idx):
            x, y = batch
            return nn.functional.mse_loss(self.predictor(self.bn(self.message_passing(x))), y)

        def configure_optimizers(self):
            return torch.optim.Adam([p for p in self.parameters() if p.requires_grad])


    def finetune(model, train_loader):
        model.message_passing.apply(lambda module: module.requires_grad_(False))
        model.bn.apply(lambda module: module.requires_grad_(False))  # warning: PF445
        pl.Trainer(max_epochs=20).fit(model, train_loader)
"""),
    # the parameter loop of a plain training script
    textwrap.dedent("""
    import torch
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Linear(64, 32)
            self.norm = nn.BatchNorm1d(32)
            self.head = nn.Linear(32, 2)


    def train(model, loader):
        for p in model.norm.parameters():  # warning: PF445
            p.requires_grad = False
        opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
        model.train()
        for x, y in loader:
            opt.zero_grad()
            nn.functional.cross_entropy(model.head(model.norm(model.features(x))), y).backward()
            opt.step()
"""),
]

GOOD_EXAMPLES = [
    # the chemprop fix: the frozen batch norm put in eval mode at each training epoch
    textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    from torch import nn


    class MPNN(pl.LightningModule):
        def __init__(self, message_passing, predictor, hidden_dim=300):
            super().__init__()
            self.message_passing = message_passing
            self.bn = nn.BatchNorm1d(hidden_dim)
            self.predictor = predictor
            self.frozen = False

        def on_train_epoch_start(self):
            if self.frozen:
                self.bn.eval()

        def configure_optimizers(self):
            return torch.optim.Adam([p for p in self.parameters() if p.requires_grad])


    def finetune(model, train_loader):
        model.bn.apply(lambda module: module.requires_grad_(False))
        model.frozen = True
        pl.Trainer(max_epochs=20).fit(model, train_loader)
"""),
    # no running statistics to drift
    textwrap.dedent("""
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1d(32, track_running_stats=False)


    def freeze(model):
        model.bn.requires_grad_(False)
"""),
    # a frozen Linear (not a BatchNorm)
    textwrap.dedent("""
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(32, 32)
            self.bn = nn.BatchNorm1d(32)


    def freeze(model):
        model.proj.requires_grad_(False)
"""),
]
