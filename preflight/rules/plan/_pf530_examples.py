"""PF530 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF530_BAD = [
    # Lightning-AI/pytorch-lightning#11220: the loaded dataset kept in prepare_data, used in setup
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from datasets import load_dataset
    from torch.utils.data import DataLoader


    class GLUEDataModule(pl.LightningDataModule):
        def __init__(self, task_name="mrpc", batch_size=32):
            super().__init__()
            self.task_name = task_name
            self.batch_size = batch_size

        def prepare_data(self):
            self.raw = load_dataset("glue", self.task_name)  # error: PF530

        def setup(self, stage=None):
            self.dataset = self.raw.map(lambda b: b, batched=True)

        def train_dataloader(self):
            return DataLoader(self.dataset["train"], batch_size=self.batch_size, shuffle=True)


    if __name__ == "__main__":
        trainer = pl.Trainer(gpus=2, strategy="ddp", max_epochs=2)
        trainer.fit(None, datamodule=GLUEDataModule())
"""),
    # a vocabulary built in prepare_data, None in __init__, read by the loaders; devices unknown
    textwrap.dedent("""
    # --- data.py
    import lightning.pytorch as L
    from torch.utils.data import DataLoader


    class TextData(L.LightningDataModule):
        def __init__(self, path):
            super().__init__()
            self.path = path
            self.vocab = None

        def prepare_data(self):
            download(self.path)
            self.vocab = build_vocab(self.path)  # error: PF530

        def setup(self, stage):
            self.train_set = TextDataset(self.path, "train")

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=32, collate_fn=Collate(self.vocab))
"""),
]

PF530_GOOD = [
    # the fix of #11220: download in prepare_data, assign in setup
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from datasets import load_dataset


    class GLUEDataModule(pl.LightningDataModule):
        def __init__(self, task_name="mrpc"):
            super().__init__()
            self.task_name = task_name

        def prepare_data(self):
            load_dataset("glue", self.task_name)

        def setup(self, stage=None):
            self.raw = load_dataset("glue", self.task_name)
            self.dataset = self.raw.map(lambda b: b, batched=True)


    trainer = pl.Trainer(gpus=2, strategy="ddp")
"""),
    # one device: prepare_data runs in the only process
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from datasets import load_dataset


    class GLUEDataModule(pl.LightningDataModule):
        def prepare_data(self):
            self.raw = load_dataset("glue", "mrpc")

        def setup(self, stage=None):
            self.dataset = self.raw.map(lambda b: b, batched=True)


    trainer = pl.Trainer(accelerator="gpu", devices=1)
    trainer.fit(None, datamodule=GLUEDataModule())
"""),
    # tricky: setup binds the attribute again on every rank; a value only used inside prepare_data;
    # an __init__ default that is a real value (a path), rewritten identically in prepare_data
    textwrap.dedent("""
    # --- data.py
    import lightning.pytorch as L


    class MNISTData(L.LightningDataModule):
        def __init__(self, root="./data"):
            super().__init__()
            self.root = root

        def prepare_data(self):
            self.tmp = fetch_index(self.root)
            for url in self.tmp:
                download(url, self.root)
            self.splits = ["train", "test"]
            self.root = self.root

        def setup(self, stage):
            self.splits = ["train", "test"]
            self.train_set = MNIST(self.root, train=True)
"""),
    # tricky (real code: a query/document pair DataModule): __init__ calls self.prepare_data(),
    # so every process that builds the DataModule reads the files
    textwrap.dedent("""
    # --- data.py
    from pytorch_lightning import LightningDataModule
    from torch.utils.data import DataLoader


    class DataPairDataset(LightningDataModule):
        def __init__(self, train_path, val_path):
            super().__init__()
            self.train_path = train_path
            self.val_path = val_path
            self.prepare_data()

        def prepare_data(self):
            self.train_examples = read_jsonl(self.train_path)
            self.val_examples = read_jsonl(self.val_path)

        def train_dataloader(self):
            return DataLoader(self.train_examples, batch_size=32)
"""),
]
