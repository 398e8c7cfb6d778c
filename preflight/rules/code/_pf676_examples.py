"""PF676 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # Autoformer / Informer data factory (Autoformer issue 104): drop_last chosen per split
    dedent("""
    from torch.utils.data import DataLoader

    def data_provider(args, flag, Data):
        if flag == "test":
            shuffle_flag = False
            drop_last = True  # warning: PF676
            batch_size = args.batch_size
        else:
            shuffle_flag = True
            drop_last = True
            batch_size = args.batch_size
        data_set = Data(args.root_path, flag=flag)
        return DataLoader(data_set, batch_size=batch_size, shuffle=shuffle_flag, drop_last=drop_last)
    """),
    # a validation loader assigned by name
    dedent("""
    import torch
    from torch.utils.data import DataLoader

    def loaders(train_set, val_set):
        train_loader = DataLoader(train_set, batch_size=64, shuffle=True, drop_last=True)
        val_loader = DataLoader(val_set, batch_size=64, shuffle=False, drop_last=True)  # warning: PF676
        return train_loader, val_loader
    """),
    # a Lightning hook returning the test loader
    dedent("""
    import lightning as L
    from torch.utils.data import DataLoader

    class Data(L.LightningDataModule):
        def test_dataloader(self):
            return DataLoader(self.test_set, batch_size=128, num_workers=4, drop_last=True)  # warning: PF676
    """),
    # ultralytics PR 25734: one factory for every mode, drop_last tied to the compile flag, called for "val"
    dedent("""
    from torch.utils.data import DataLoader

    def get_dataloader(dataset, batch_size, mode, compile_model):
        return DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=compile_model)  # warning: PF676

    def main(args, train_set, val_set):
        train_loader = get_dataloader(train_set, args.batch_size, "train", args.compile)
        val_loader = get_dataloader(val_set, args.batch_size, "val", args.compile)
        return train_loader, val_loader
    """),
]

GOOD = [
    # the fixed factory: only training drops the last batch
    dedent("""
    from torch.utils.data import DataLoader

    def data_provider(args, flag, Data):
        if flag == "test":
            shuffle_flag = False
            drop_last = False
        else:
            shuffle_flag = True
            drop_last = True
        data_set = Data(args.root_path, flag=flag)
        return DataLoader(data_set, batch_size=args.batch_size, shuffle=shuffle_flag, drop_last=drop_last)
    """),
    # tricky: a sampled validation loss (cycle over a val loader) is a monitor, not a pass over the set
    dedent("""
    from itertools import cycle

    from torch.utils.data import DataLoader

    def loaders(train_set, val_set):
        train_loader = cycle(DataLoader(train_set, batch_size=4, drop_last=True))
        val_loader = DataLoader(val_set, batch_size=4, drop_last=True)
        val_loader = cycle(val_loader)
        return train_loader, val_loader
    """),
    # tricky: a shuffled "test" loader used to draw sample prompts
    dedent("""
    from torch.utils.data import DataLoader

    def prompts(test_dataset):
        test_loader = DataLoader(test_dataset, batch_size=16, shuffle=True, drop_last=True)
        return test_loader
    """),
    # tricky: batch_size=1 leaves no partial batch (hifi-gan's validation loader)
    dedent("""
    from torch.utils.data import DataLoader

    def loaders(validset):
        validation_loader = DataLoader(validset, num_workers=1, shuffle=False, batch_size=1, drop_last=True)
        return validation_loader
    """),
    # training loader (named for training) and drop_last=True on `if flag == "train"`
    dedent("""
    from torch.utils.data import DataLoader

    def make(flag, data_set):
        drop_last = False
        if flag == "train":
            drop_last = True
        train_loader = DataLoader(data_set, batch_size=32, drop_last=drop_last)
        return train_loader
    """),
    # the PR's fix: drop_last (and shuffle) for the training mode only
    dedent("""
    from torch.utils.data import DataLoader

    def get_dataloader(dataset, batch_size, mode, compile_model):
        train = mode == "train"
        return DataLoader(dataset, batch_size=batch_size, shuffle=train, drop_last=compile_model and train)

    def main(args, train_set, val_set):
        val_loader = get_dataloader(val_set, args.batch_size, "val", args.compile)
    """),
    # tricky-correct: the evaluation call passes drop_last=False; a branch per mode; the parameter rebound
    dedent("""
    from torch.utils.data import DataLoader

    def make_loader(dataset, split, drop_last):
        return DataLoader(dataset, batch_size=32, drop_last=drop_last)

    def per_mode(dataset, mode, drop_last):
        if mode == "train":
            return DataLoader(dataset, batch_size=32, shuffle=True, drop_last=drop_last)
        return DataLoader(dataset, batch_size=32)

    def rebound(dataset, mode, drop_last):
        drop_last = drop_last and mode == "train"
        return DataLoader(dataset, batch_size=32, drop_last=drop_last)

    val_loader = make_loader(val_set, "val", False)
    test_loader = per_mode(test_set, "test", True)
    other = rebound(val_set, "val", True)
    """),
]

