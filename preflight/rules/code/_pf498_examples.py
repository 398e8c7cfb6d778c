"""PF498 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF498_BAD = [
    # transformers#34365 shape
    textwrap.dedent("""
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler
    from transformers import Trainer


    class MyTrainer(Trainer):
        def get_train_dataloader(self):
            sampler = DistributedSampler(self.train_dataset, shuffle=True)
            return self.accelerator.prepare(DataLoader(  # warning: PF498
                self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                sampler=sampler, collate_fn=self.data_collator))
"""),
]

PF498_GOOD = [
    # the fix: a random sampler, sharded once by prepare
    textwrap.dedent("""
    from torch.utils.data import DataLoader, RandomSampler
    from transformers import Trainer


    class MyTrainer(Trainer):
        def get_train_dataloader(self):
            loader = DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                                sampler=RandomSampler(self.train_dataset), collate_fn=self.data_collator)
            return self.accelerator.prepare(loader)
"""),
    # tricky-correct: the DistributedSampler loader returned as it is (sharded once)
    textwrap.dedent("""
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler
    from transformers import Trainer


    class MyTrainer(Trainer):
        def get_train_dataloader(self):
            sampler = DistributedSampler(self.train_dataset, shuffle=True)
            return DataLoader(self.train_dataset, batch_size=8, sampler=sampler, collate_fn=self.data_collator)
"""),
]
