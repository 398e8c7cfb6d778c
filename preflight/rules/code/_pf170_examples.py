"""PF170 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_MODULE = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch.utils.data import DataLoader


    class AudioModule(pl.LightningModule):
        def __init__(self, hparams):
            super().__init__()
            self.save_hyperparameters(hparams)
            self.net = build_net()
            self.train_set = AudioDataset("data/train")

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=self.hparams.batch_size, shuffle=True, num_workers=4)

        def training_step(self, batch, batch_idx):
            return self.net.loss(batch)

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.net.parameters(), self.hparams.lr)
            sched = torch.optim.lr_scheduler.OneCycleLR({args}){mark}
            return [opt], [{{"scheduler": sched, "interval": "step"}}]
""")

_SCRIPT = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader
    from transformers import get_linear_schedule_with_warmup

    train_ds = TextDataset(args.train_file)
    {loader}
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    {total}
    scheduler = get_linear_schedule_with_warmup(optimizer, args.warmup, total_steps){mark}
    for epoch in range(args.epochs):
        for batch in train_loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
""")

_LOADER = "train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)"

BAD_EXAMPLES = [
    # Lightning issue 2643: steps_per_epoch=int(len(self.train_dataset)) where the loader batches it
    _MODULE.format(args="opt, self.hparams.lr, steps_per_epoch=int(len(self.train_set)), epochs=self.hparams.epochs",
                   mark="  # warning: PF170"),
    # plain PyTorch: the total through a local name, samples times epochs
    _SCRIPT.format(loader=_LOADER, total="total_steps = len(train_ds) * args.epochs",
                   mark="  # warning: PF170"),
    # the batch size as the second positional argument; OneCycleLR total_steps
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader

    dataset = ImageFolder(root)
    loader = DataLoader(dataset, 64, shuffle=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=len(dataset) * 30)  # warning: PF170
    """),
]

GOOD_EXAMPLES = [
    # the fix: the loader's length
    _MODULE.format(args="opt, max_lr=self.hparams.lr, steps_per_epoch=len(self.train_dataloader()),\n"
                        "                epochs=self.hparams.epochs", mark=""),
    _MODULE.format(args="opt, max_lr=self.hparams.lr, total_steps=self.trainer.estimated_stepping_batches",
                   mark=""),
    # divided by the batch size
    _SCRIPT.format(loader=_LOADER, total="total_steps = len(train_ds) // args.batch_size * args.epochs", mark=""),
    _SCRIPT.format(loader=_LOADER, total="total_steps = math.ceil(len(train_ds) / args.batch_size) * args.epochs",
                   mark=""),
    # the loader's length
    _SCRIPT.format(loader=_LOADER, total="total_steps = len(train_loader) * args.epochs", mark=""),
    # tricky: a loader of one sample per step (batch_size=1, or no batch size at all)
    _SCRIPT.format(loader="train_loader = DataLoader(train_ds, batch_size=1, shuffle=True)",
                   total="total_steps = len(train_ds) * args.epochs", mark=""),
    _SCRIPT.format(loader="train_loader = DataLoader(train_ds, shuffle=True)",
                   total="total_steps = len(train_ds) * args.epochs", mark=""),
    # tricky: the dataset already yields batches (batch_size=None)
    _SCRIPT.format(loader="train_loader = DataLoader(train_ds, batch_size=None, num_workers=4)",
                   total="total_steps = len(train_ds) * args.epochs", mark=""),
    # tricky: the dataset name is rebound to its loader before its length is taken
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader

    train_data = TextDataset(path)
    train_data = DataLoader(train_data, batch_size=32, shuffle=True)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-4, epochs=10, steps_per_epoch=len(train_data))
    """),
]
