"""PF291 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning-AI/pytorch-lightning#4789's shape: called on the instance, the test runs on random weights
    textwrap.dedent("""
    import pytorch_lightning as pl

    from model import LitClassifier, MNISTDataModule

    dm = MNISTDataModule("data", batch_size=256)
    model = LitClassifier(hidden_dim=128)
    model.load_from_checkpoint(checkpoint_path="lightning_logs/version_5/checkpoints/epoch=4.ckpt")  # warning: PF291
    trainer = pl.Trainer(gpus=1)
    trainer.test(model, datamodule=dm)
"""),
    # on the class, inside a function: the loaded model goes nowhere and the fresh one is returned
    textwrap.dedent("""
    import lightning as L

    class Net(L.LightningModule):
        pass

    def restore(path):
        net = Net()
        if path:
            Net.load_from_checkpoint(path, map_location="cpu")  # warning: PF291
        return net
"""),
]

GOOD_EXAMPLES = [
    # the fix: assigned, on the class
    textwrap.dedent("""
    import pytorch_lightning as pl

    from model import LitClassifier, MNISTDataModule

    model = LitClassifier.load_from_checkpoint(checkpoint_path="epoch=4.ckpt")
    pl.Trainer(gpus=1).test(model, datamodule=MNISTDataModule("data"))
"""),
    # tricky: the result is used without a name (chained, returned, passed on)
    textwrap.dedent("""
    import lightning.pytorch as pl

    from model import LitClassifier

    def load(path):
        return LitClassifier.load_from_checkpoint(path)

    pl.Trainer().test(LitClassifier.load_from_checkpoint("best.ckpt").eval())
    models = [LitClassifier.load_from_checkpoint(p) for p in ("a.ckpt", "b.ckpt")]
"""),
    # tricky: a project class whose own load_from_checkpoint fills the instance in place
    textwrap.dedent("""
    import torch
    import pytorch_lightning as pl

    class Agent:
        def __init__(self, net):
            self.net = net

        def load_from_checkpoint(self, path):
            self.net.load_state_dict(torch.load(path)["state_dict"])

    agent = Agent(net)
    agent.load_from_checkpoint("agent.ckpt")
    pl.Trainer().fit(agent.net)
"""),
    # tricky: no Lightning anywhere: another library's method of the same name
    textwrap.dedent("""
    from my_rl_lib import Policy

    policy = Policy()
    policy.load_from_checkpoint("policy.pt")
"""),
]
