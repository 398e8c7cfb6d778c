"""PF429 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF429_BAD = [
    # XNOR-Net-PyTorch issue 38
    textwrap.dedent("""
    import torch


    def main(args, trainset, testset, model, optimizer, criterion):
        trainloader = torch.utils.data.DataLoader(trainset, batch_size=128, shuffle=False, num_workers=2)  # warning: PF429
        testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False, num_workers=2)
        for epoch in range(1, 320):
            model.train()
            for data, target in trainloader:
                optimizer.zero_grad()
                loss = criterion(model(data.cuda()), target.cuda())
                loss.backward()
                optimizer.step()
            model.eval()
            with torch.no_grad():
                for data, target in testloader:
                    model(data.cuda())
"""),
    # a multi-line call: the finding is on the keyword to change
    textwrap.dedent("""
    from torch.utils.data import DataLoader


    def fit(model, opt, train_set, epochs):
        loader = DataLoader(
            train_set,
            batch_size=32,
            shuffle=False,  # warning: PF429
        )
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                model(x, y).backward()
                opt.step()
"""),
    # mpd-public issue 6: the builder returns the train loader (shuffle left out, a random_split
    # subset), the training function takes it under the same name
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, random_split


    def get_dataset(dataset_class, batch_size=32, val_set_size=0.05):
        full_dataset = dataset_class()
        train_subset, val_subset = random_split(full_dataset, [1 - val_set_size, val_set_size])
        train_dataloader = DataLoader(train_subset, batch_size=batch_size)  # warning: PF429
        val_dataloader = DataLoader(val_subset, batch_size=batch_size)
        return train_subset, train_dataloader, val_subset, val_dataloader


    def train(model, train_dataloader, epochs, lr=3e-4):
        optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        for epoch in range(epochs):
            for batch in train_dataloader:
                loss = model.loss(batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""),
    # byol-pytorch issue 23: a map-style folder dataset, shuffle left out, given to trainer.fit
    textwrap.dedent("""
    import pytorch_lightning as pl
    from PIL import Image
    from torch.utils.data import DataLoader, Dataset


    class ImagesDataset(Dataset):
        def __init__(self, paths):
            self.paths = paths

        def __len__(self):
            return len(self.paths)

        def __getitem__(self, index):
            return Image.open(self.paths[index])


    def main(paths, model):
        train_loader = DataLoader(ImagesDataset(paths), batch_size=32, num_workers=4)  # warning: PF429
        trainer = pl.Trainer(accelerator="gpu", devices=2, max_epochs=1000)
        trainer.fit(model, train_loader)
"""),
    # a torchvision dataset iterated by an epoch loop, shuffle left out
    textwrap.dedent("""
    import torch
    from torchvision import datasets, transforms


    def main(model, optimizer, epochs):
        train_dataset = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
        train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=64)  # warning: PF429
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                torch.nn.functional.cross_entropy(model(x), y).backward()
                optimizer.step()
"""),
    # held-out-40 (lightning-transformers issue 298): the DataModule's train_dataloader hook leaves
    # shuffle out, the label-sorted CSV is read in file order
    textwrap.dedent("""
    import pytorch_lightning as pl
    from datasets import load_dataset
    from torch.utils.data import DataLoader


    class TextDataModule(pl.LightningDataModule):
        def setup(self, stage=None):
            self.ds = load_dataset("csv", data_files={"train": "train_by_label.csv", "validation": "val.csv"})

        def train_dataloader(self):
            return DataLoader(self.ds["train"], batch_size=32)  # warning: PF429

        def val_dataloader(self):
            return DataLoader(self.ds["validation"], batch_size=32)


    pl.Trainer(max_epochs=3).fit(model, datamodule=TextDataModule())
"""),
]

PF429_GOOD = [
    # the fixed loader; the evaluation loader keeps shuffle=False
    textwrap.dedent("""
    import torch


    def main(trainset, testset, model, optimizer, criterion):
        trainloader = torch.utils.data.DataLoader(trainset, batch_size=128, shuffle=True)
        testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False)
        for epoch in range(10):
            for data, target in trainloader:
                optimizer.zero_grad()
                criterion(model(data), target).backward()
                optimizer.step()
            with torch.no_grad():
                for data, target in testloader:
                    model(data)
"""),
    # a sampler shuffles; the dataset is shuffled before the loader; one pass only (no epoch loop)
    textwrap.dedent("""
    import numpy as np
    from torch.utils.data import DataLoader, DistributedSampler, Subset


    def ddp(model, opt, train_set, epochs):
        sampler = DistributedSampler(train_set)
        loader = DataLoader(train_set, batch_size=32, shuffle=False, sampler=sampler)
        for epoch in range(epochs):
            sampler.set_epoch(epoch)
            for x, y in loader:
                opt.zero_grad()
                model(x, y).backward()
                opt.step()


    def pre_shuffled(model, opt, train_set, epochs):
        order = np.random.permutation(len(train_set))
        loader = DataLoader(Subset(train_set, order), batch_size=32, shuffle=False)
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                model(x, y).backward()
                opt.step()


    def one_pass(model, opt, train_set):
        for x, y in DataLoader(train_set, shuffle=False):
            opt.zero_grad()
            model(x, y).backward()
            opt.step()
"""),
    # shuffle left out, but the dataset may be iterable (its kind is not in this file), an
    # IterableDataset, or the loader only evaluates
    textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, IterableDataset

    from mypkg import make_dataset


    class Stream(IterableDataset):
        def __iter__(self):
            yield from range(10)


    def main(model, optimizer, epochs, val_set):
        train_loader = DataLoader(make_dataset("train"), batch_size=64)
        stream_loader = DataLoader(Stream(), batch_size=64)
        val_loader = DataLoader(val_set, batch_size=64)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                model(x, y).backward()
                optimizer.step()
            for x, y in stream_loader:
                optimizer.zero_grad()
                model(x, y).backward()
                optimizer.step()
            with torch.no_grad():
                for x, y in val_loader:
                    model(x, y)
"""),
    # the fixes: shuffle=True in the builder; trainer.fit on a shuffled loader; a builder whose name
    # the training function does not take; a training function this file calls with another loader
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch.utils.data import DataLoader, TensorDataset, random_split


    def get_dataset(ds, batch_size=32):
        train_subset, val_subset = random_split(ds, [0.9, 0.1])
        train_dataloader = DataLoader(train_subset, batch_size=batch_size, shuffle=True)
        eval_loader = DataLoader(val_subset, batch_size=batch_size)
        return train_dataloader, eval_loader


    def train(model, eval_loader, epochs):
        optimizer = torch.optim.Adam(model.parameters())
        for epoch in range(epochs):
            for batch in eval_loader:
                optimizer.zero_grad()
                model.loss(batch).backward()
                optimizer.step()


    def fit(model, x, y):
        loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
        pl.Trainer(max_epochs=3).fit(model, loader)


    def run(model, x, y):
        train(model, DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True), 3)
"""),
    # Lightning's bug-report template and tests: random or literal data, and a one-epoch fit
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from torch.utils.data import DataLoader, Dataset


    class RandomDataset(Dataset):
        def __init__(self, size, length):
            self.len = length
            self.data = torch.randn(length, size)

        def __getitem__(self, index):
            return self.data[index]

        def __len__(self):
            return self.len


    class ImagesDataset(Dataset):
        def __init__(self, paths):
            self.paths = paths

        def __getitem__(self, index):
            return self.paths[index]

        def __len__(self):
            return len(self.paths)


    def run(model, paths):
        train_data = DataLoader(RandomDataset(32, 64), batch_size=2)
        pl.Trainer(max_epochs=5).fit(model, train_data)
        pl.Trainer(max_epochs=3).fit(model, DataLoader([1 for _ in range(10)]))
        pl.Trainer(max_epochs=1).fit(model, DataLoader(ImagesDataset(paths), batch_size=8))
"""),
    # held-out-40's fix: the hook shuffles
    textwrap.dedent("""
    import pytorch_lightning as pl
    from datasets import load_dataset
    from torch.utils.data import DataLoader


    class TextDataModule(pl.LightningDataModule):
        def setup(self, stage=None):
            self.ds = load_dataset("csv", data_files={"train": "train_by_label.csv", "validation": "val.csv"})

        def train_dataloader(self):
            return DataLoader(self.ds["train"], batch_size=32, shuffle=True)

        def val_dataloader(self):
            return DataLoader(self.ds["validation"], batch_size=32)


    pl.Trainer(max_epochs=3).fit(model, datamodule=TextDataModule())
"""),
    # tricky-correct: a streamed dataset cannot be shuffled by the loader
    textwrap.dedent("""
    import pytorch_lightning as pl
    from datasets import load_dataset
    from torch.utils.data import DataLoader


    class TextDataModule(pl.LightningDataModule):
        def setup(self, stage=None):
            self.ds = load_dataset("csv", data_files={"train": "train_by_label.csv", "validation": "val.csv"}, streaming=True)

        def train_dataloader(self):
            return DataLoader(self.ds["train"], batch_size=32)

        def val_dataloader(self):
            return DataLoader(self.ds["validation"], batch_size=32)


    pl.Trainer(max_epochs=3).fit(model, datamodule=TextDataModule())
"""),
    # tricky-correct: every index gives the same batch (alphaflow's DummyDataset): the order cannot matter
    textwrap.dedent("""
    import copy
    import pickle

    import pytorch_lightning as pl
    import torch


    class DummyDataset(torch.utils.data.Dataset):
        def __init__(self, batch_path):
            with open(batch_path, "rb") as f:
                self.batch = pickle.load(f)

        def __getitem__(self, idx):
            return copy.deepcopy(self.batch)

        def __len__(self):
            return 1000


    class DummyDataLoader(pl.LightningDataModule):
        def __init__(self, batch_path):
            super().__init__()
            self.dataset = DummyDataset(batch_path)

        def train_dataloader(self):
            return torch.utils.data.DataLoader(self.dataset)
"""),
    # tricky-correct: the val_dataloader hook keeps its order (only the train hook is read)
    textwrap.dedent("""
    import pytorch_lightning as pl
    from datasets import load_dataset
    from torch.utils.data import DataLoader


    class TextDataModule(pl.LightningDataModule):
        def setup(self, stage=None):
            self.ds = load_dataset("csv", data_files={"train": "train_by_label.csv", "validation": "val.csv"})

        def train_dataloader(self):
            return DataLoader(self.ds["train"], batch_size=32, shuffle=True)

        def val_dataloader(self):
            return DataLoader(self.ds["validation"], batch_size=32, shuffle=False)


    pl.Trainer(max_epochs=3).fit(model, datamodule=TextDataModule())
"""),
]
