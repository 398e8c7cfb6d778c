"""PF276 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Lightning's README autoencoder before PR 17766, on 4 GPUs
    textwrap.dedent("""
    import lightning as L
    import torch
    import torchvision as tv
    from torch.utils.data import DataLoader, random_split


    class MNISTData(L.LightningDataModule):
        def setup(self, stage):
            dataset = tv.datasets.MNIST(".", download=True, transform=tv.transforms.ToTensor())  # warning: PF276
            self.train, self.val = random_split(dataset, [55000, 5000])  # warning: PF226

        def train_dataloader(self):
            return DataLoader(self.train, batch_size=64)


    trainer = L.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=20)
    trainer.fit(model, datamodule=MNISTData())
"""),
    # a LightningModule that builds its own data in setup, under a DDP strategy on 2 nodes
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torchvision.datasets import CIFAR10


    class Base(pl.LightningModule):
        pass


    class Classifier(Base):
        def setup(self, stage=None):
            if stage == "fit":
                self.train_set = CIFAR10(self.hparams.root, train=True, download=True)  # warning: PF276
                self.val_set = CIFAR10(self.hparams.root, train=False, download=True)  # warning: PF276

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=128, shuffle=True)


    pl.Trainer(strategy="ddp_find_unused_parameters_false", num_nodes=2).fit(Classifier())
"""),
    # lightning-transformers issue 7: a DataModule tokenises with `datasets` and saves the result in setup,
    # under 8-GPU DDP (every rank writes the same Arrow files)
    textwrap.dedent("""
    import lightning as L
    from datasets import load_dataset, load_from_disk

    CACHE = "cache/imdb_tok"


    class TextData(L.LightningDataModule):
        def setup(self, stage=None):
            raw = load_dataset("imdb", cache_dir="cache/raw")
            tok = raw.map(self._tokenize, batched=True)
            tok.save_to_disk(CACHE)  # warning: PF276
            self.ds = load_from_disk(CACHE)


    L.Trainer(accelerator="gpu", devices=8, strategy="ddp").fit(model, datamodule=TextData())
"""),
]

GOOD_EXAMPLES = [
    # the fix: download in prepare_data, load in setup
    textwrap.dedent("""
    import lightning as L
    import torchvision as tv


    class MNISTData(L.LightningDataModule):
        def prepare_data(self):
            tv.datasets.MNIST(".", download=True)

        def setup(self, stage):
            self.full = tv.datasets.MNIST(".", transform=tv.transforms.ToTensor())


    L.Trainer(devices=4, strategy="ddp").fit(model, datamodule=MNISTData())
"""),
    # tricky: a download in setup, but prepare_data downloads first (setup only checks the files)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torchvision.datasets import MNIST


    class Data(pl.LightningDataModule):
        def prepare_data(self):
            MNIST(self.data_dir, train=True, download=True)

        def setup(self, stage):
            self.train = MNIST(self.data_dir, train=True, download=True)


    trainer = pl.Trainer(devices=4, strategy="ddp")
"""),
    # tricky: a single-device Trainer (one process downloads), and a download flag from the config
    textwrap.dedent("""
    import pytorch_lightning as pl
    from torchvision.datasets import MNIST


    class Data(pl.LightningDataModule):
        def setup(self, stage):
            self.train = MNIST(self.data_dir, train=True, download=True)
            self.val = MNIST(self.data_dir, train=False, download=self.hparams.download)


    pl.Trainer(accelerator="gpu", devices=1, max_epochs=3).fit(model, datamodule=Data())
"""),
    # the fix of issue 7: download, tokenise and save in prepare_data, only load in setup
    textwrap.dedent("""
    import lightning as L
    from datasets import load_dataset, load_from_disk


    class TextData(L.LightningDataModule):
        def prepare_data(self):
            load_dataset("imdb").map(self._tokenize, batched=True).save_to_disk("cache/tok")

        def setup(self, stage=None):
            self.ds = load_from_disk("cache/tok")


    L.Trainer(devices=8, strategy="ddp").fit(model, datamodule=TextData())
"""),
    # tricky: the save is under a rank-zero guard, or only when the files are missing, or per rank;
    # load_dataset alone (datasets locks its own download and cache)
    textwrap.dedent("""
    import os

    import lightning as L
    from datasets import load_dataset, load_from_disk


    class TextData(L.LightningDataModule):
        def setup(self, stage=None):
            raw = load_dataset("imdb", cache_dir="cache/raw")
            if self.trainer.is_global_zero:
                raw.save_to_disk("cache/tok")
            if not os.path.exists("cache/other"):
                raw.save_to_disk("cache/other")
            raw.save_to_disk(f"cache/tok_{self.trainer.global_rank}")
            self.ds = raw


    L.Trainer(devices=8, strategy="ddp").fit(model, datamodule=TextData())
"""),
]
