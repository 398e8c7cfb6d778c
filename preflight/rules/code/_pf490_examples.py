"""PF490 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # Lightning issue 18570: sized with max_epochs, stepped per batch
    textwrap.dedent("""
    import torch
    import pytorch_lightning as pl
    from transformers import get_linear_schedule_with_warmup


    class Tagger(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=2e-5)
            scheduler = get_linear_schedule_with_warmup(  # warning: PF490
                optimizer, num_warmup_steps=10, num_training_steps=self.trainer.max_epochs)
            return dict(optimizer=optimizer, lr_scheduler=dict(scheduler=scheduler, interval="step"))
"""),
    # positional length through a local name; OneCycleLR with total_steps in epochs
    textwrap.dedent("""
    import torch
    import lightning as L
    from transformers import get_cosine_schedule_with_warmup


    class Net(L.LightningModule):
        def __init__(self, num_epochs=20):
            super().__init__()
            self.num_epochs = num_epochs

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            total = self.num_epochs
            sched = get_cosine_schedule_with_warmup(opt, 500, total)  # warning: PF490
            return [opt], [{"scheduler": sched, "interval": "step"}]
"""),
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=self.trainer.max_epochs)  # warning: PF490
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}
"""),
]

GOOD_EXAMPLES = [
    # the fix of issue 18570: sized in steps
    textwrap.dedent("""
    import torch
    import pytorch_lightning as pl
    from transformers import get_linear_schedule_with_warmup


    class Tagger(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=2e-5)
            scheduler = get_linear_schedule_with_warmup(
                optimizer, num_warmup_steps=10, num_training_steps=self.trainer.estimated_stepping_batches)
            return dict(optimizer=optimizer, lr_scheduler=dict(scheduler=scheduler, interval="step"))
"""),
    # tricky: epochs times batches per epoch
    textwrap.dedent("""
    import torch
    import lightning as L
    from transformers import get_linear_schedule_with_warmup


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            total = self.trainer.max_epochs * len(self.trainer.datamodule.train_dataloader())
            sched = get_linear_schedule_with_warmup(opt, 100, total)
            return [opt], [{"scheduler": sched, "interval": "step"}]
"""),
    # tricky: sized in epochs and stepped per epoch (no interval "step")
    textwrap.dedent("""
    import torch
    import lightning as L
    from transformers import get_cosine_schedule_with_warmup


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.parameters(), lr=1e-4)
            sched = get_cosine_schedule_with_warmup(opt, num_warmup_steps=2, num_training_steps=self.trainer.max_epochs)
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "epoch"}}
"""),
    # tricky: OneCycleLR given epochs and steps_per_epoch multiplies them itself
    textwrap.dedent("""
    import torch
    import lightning as L


    class Net(L.LightningModule):
        def configure_optimizers(self):
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=self.trainer.max_epochs,
                                                        steps_per_epoch=100)
            return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}
"""),
]
