"""PF226 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF226`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

_DATAMODULE = textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    from torch.utils.data import DataLoader, random_split


    class SpectraData(pl.LightningDataModule):
        def __init__(self, full):
            super().__init__()
            self.full = full

        def setup(self, stage=None):
            n = len(self.full)
            {split}

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=64, shuffle=True)

        def test_dataloader(self):
            return DataLoader(self.test_set, batch_size=64)


    pl.seed_everything(0)
    data = SpectraData(load())
    trainer = pl.Trainer(max_epochs=30, devices=1)
    trainer.fit(model, datamodule=data)
    trainer.test(model, datamodule=data)
""")

_SAME_FILE = textwrap.dedent("""
    import lightning.pytorch as pl
    import torch
    from torch.utils.data import DataLoader, random_split


    class MNISTData(pl.LightningDataModule):
        def setup(self, stage=None):
            full = load_mnist()
            self.train_set, self.val_set = random_split(full, [55000, 5000]){pin}

        def train_dataloader(self):
            return DataLoader(self.train_set, batch_size=64, shuffle=True)

        def val_dataloader(self):
            return DataLoader(self.val_set, batch_size=64)


    if __name__ == "__main__":
        {seed}trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=10)
        trainer.fit(model, datamodule=MNISTData())
""")

PF226_BAD = [
    # a datasets split with no seed in an accelerate script: each process splits its own way
    textwrap.dedent("""
    from accelerate import Accelerator
    from datasets import load_dataset

    accelerator = Accelerator()
    dataset = load_dataset("json", data_files="data.jsonl")["train"]
    splits = dataset.train_test_split(test_size=0.05)  # warning: PF226
    train_set, eval_set = splits["train"], splits["test"]
"""),
    # the process index is added to the seed by a local helper before random_split (OpenTau's shape)
    textwrap.dedent("""
    import random

    import numpy as np
    import torch
    from accelerate import Accelerator
    from torch.utils.data import random_split


    def set_seed(seed, accelerator=None):
        if accelerator is not None:
            seed += accelerator.process_index * 12345
        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)


    def main(dataset, args):
        accelerator = Accelerator(mixed_precision="bf16")
        set_seed(args.seed, accelerator=accelerator)
        n = len(dataset)
        train_set, val_set = random_split(dataset, [n - n // 50, n // 50])  # warning: PF226
        return accelerator, train_set, val_set
"""),
    # accelerate's device-specific seeding, then an sklearn split of the file list under torchrun
    textwrap.dedent("""
    import torch.distributed as dist
    from accelerate.utils import set_seed
    from sklearn.model_selection import train_test_split


    def build(files, seed):
        dist.init_process_group("nccl")
        set_seed(seed, device_specific=True)
        train_files, val_files = train_test_split(files, test_size=0.1)  # warning: PF226
        return train_files, val_files
"""),
    # Lightning issue 9865: setup() runs again for trainer.test and redraws the unseeded split
    _DATAMODULE.replace("{split}", "self.train_set, self.val_set, self.test_set = random_split(  # warning: PF226\n"
                        "                self.full, [n - n // 5, n // 10, n // 10])"),
    # Lightning issues 7728 and 18638: the DataModule and the 4-GPU DDP Trainer in one file, no seed
    _SAME_FILE.replace("{pin}", "  # warning: PF226").replace("{seed}", ""),
]


PF226_GOOD = [
    # the fix: the split has its own seed
    textwrap.dedent("""
    from accelerate import Accelerator
    from datasets import load_dataset

    accelerator = Accelerator()
    dataset = load_dataset("json", data_files="data.jsonl")["train"]
    splits = dataset.train_test_split(test_size=0.05, seed=42)
"""),
    # the fix of the second shape: a generator of its own, whatever the per-rank seed of the process
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from accelerate.utils import set_seed
    from torch.utils.data import random_split


    def main(dataset, args):
        accelerator = Accelerator()
        set_seed(args.seed + accelerator.process_index)
        n = len(dataset)
        return random_split(dataset, [n - 100, 100], generator=torch.Generator().manual_seed(args.seed))
"""),
    # tricky-correct: the global RNGs are seeded alike on every process before the split
    textwrap.dedent("""
    from accelerate import Accelerator
    from accelerate.utils import set_seed
    from torch.utils.data import random_split


    def main(dataset, args):
        accelerator = Accelerator()
        set_seed(args.seed)
        n = len(dataset)
        return random_split(dataset, [n - 100, 100])
"""),
    # tricky-correct: only the main process splits (and writes the split to disk for the others)
    textwrap.dedent("""
    from accelerate import Accelerator
    from datasets import load_dataset

    accelerator = Accelerator()
    dataset = load_dataset("json", data_files="data.jsonl")["train"]
    if accelerator.is_main_process:
        dataset.train_test_split(test_size=0.05).save_to_disk("splits")
    accelerator.wait_for_everyone()
"""),
    # tricky-correct: a single-process script (no Accelerator, no process group)
    textwrap.dedent("""
    from torch.utils.data import random_split


    def split(dataset):
        n = len(dataset)
        return random_split(dataset, [n - 100, 100])
"""),
    # tricky-correct: a split without shuffling draws nothing
    textwrap.dedent("""
    from accelerate import Accelerator
    from datasets import load_dataset

    accelerator = Accelerator()
    dataset = load_dataset("json", data_files="data.jsonl")["train"]
    splits = dataset.train_test_split(test_size=0.05, shuffle=False)
"""),
    # the fix (a fixed generator), and a split made only when it does not exist yet
    _DATAMODULE.replace("{split}", "self.train_set, self.val_set, self.test_set = random_split(\n"
                        "                self.full, [n - n // 5, n // 10, n // 10],\n"
                        "                generator=torch.Generator().manual_seed(42))"),
    _DATAMODULE.replace("{split}", "if not hasattr(self, 'test_set'):\n"
                        "                self.train_set, self.val_set, self.test_set = random_split(\n"
                        "                    self.full, [n - n // 5, n // 10, n // 10])"),
    # tricky: a train/val split only (the test set is a separate file), redrawn harmlessly for test
    _DATAMODULE.replace("{split}", "self.train_set, self.val_set = random_split(self.full, [n - n // 10, n // 10])\n"
                        "        self.test_set = load_test()"),
    # the fix of Lightning issue 7728 in one file: the same global seed on every process first
    _SAME_FILE.replace("{pin}", "").replace("{seed}", "pl.seed_everything(42)\n    "),
]
