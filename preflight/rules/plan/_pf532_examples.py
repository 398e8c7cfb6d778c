"""PF532 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF532_BAD = [
    # AESTETIK: the split made in setup, the full dataset in train_dataloader
    textwrap.dedent("""
    # --- datamodule.py
    import lightning.pytorch as pl
    import torch
    from torch.utils.data import DataLoader, random_split


    class AESTETIKDataModule(pl.LightningDataModule):
        def __init__(self, dataset, batch_size=64, validation_split=0.2):
            super().__init__()
            self.dataset = dataset
            self.batch_size = batch_size
            self.validation_split = validation_split

        def setup(self, stage=None):
            n_val = int(len(self.dataset) * self.validation_split)
            self.train_dataset, self.val_dataset = random_split(
                self.dataset, [len(self.dataset) - n_val, n_val], generator=torch.Generator().manual_seed(0))

        def train_dataloader(self):
            return DataLoader(self.dataset, batch_size=self.batch_size, shuffle=True)  # error: PF532

        def val_dataloader(self):
            return DataLoader(self.val_dataset, batch_size=self.batch_size)
"""),
    # sklearn's train_test_split, the loader's dataset given by keyword
    textwrap.dedent("""
    # --- data.py
    import pytorch_lightning as pl
    from sklearn.model_selection import train_test_split
    from torch.utils import data


    class Tabular(pl.LightningDataModule):
        def setup(self, stage):
            self.frame = load_frame()
            self.train_df, self.val_df = train_test_split(self.frame, test_size=0.1)

        def train_dataloader(self):
            return data.DataLoader(dataset=self.frame, batch_size=256, shuffle=True)  # error: PF532
"""),
]

PF532_GOOD = [
    # the fix: the training part of the split
    textwrap.dedent("""
    # --- datamodule.py
    import lightning.pytorch as pl
    from torch.utils.data import DataLoader, random_split


    class DM(pl.LightningDataModule):
        def __init__(self, dataset):
            super().__init__()
            self.dataset = dataset

        def setup(self, stage=None):
            self.train_dataset, self.val_dataset = random_split(self.dataset, [0.9, 0.1])

        def train_dataloader(self):
            return DataLoader(self.train_dataset, batch_size=64, shuffle=True)

        def val_dataloader(self):
            return DataLoader(self.val_dataset, batch_size=64)
"""),
    # tricky: setup rebinds the whole name to its training part; the predict loader uses the
    # whole set (not the training loader); a split into the same name
    textwrap.dedent("""
    # --- datamodule.py
    import lightning.pytorch as pl
    from torch.utils.data import DataLoader, random_split


    class A(pl.LightningDataModule):
        def setup(self, stage=None):
            full = make_dataset()
            self.dataset, self.val_dataset = random_split(full, [0.9, 0.1])

        def train_dataloader(self):
            return DataLoader(self.dataset, batch_size=64, shuffle=True)


    class B(pl.LightningDataModule):
        def setup(self, stage=None):
            self.train_set, self.val_set = random_split(self.data, [0.9, 0.1])
            self.data = self.train_set

        def train_dataloader(self):
            return DataLoader(self.data, batch_size=64, shuffle=True)

        def predict_dataloader(self):
            return DataLoader(self.data, batch_size=64)


    class C(pl.LightningDataModule):
        def setup(self, stage=None):
            self.train_set, self.val_set = random_split(self.data, [0.9, 0.1])

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=64, shuffle=True)

        def predict_dataloader(self):
            return DataLoader(self.data, batch_size=64)
"""),
]
