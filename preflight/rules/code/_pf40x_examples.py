"""PF401-PF404 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

PF401_BAD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # warning: PF401
        optimizer.step()
        optimizer.zero_grad()
"""),
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    def train(accelerator, model, optimizer, loader):
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(**batch).loss
                loss.backward()  # warning: PF401
                optimizer.step()
                optimizer.zero_grad()

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    train(accelerator, model, optimizer, loader)
"""),
]

PF401_GOOD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")
    model = torch.nn.Linear(16, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # a raw-PyTorch loop beside an Accelerate one: that loop is not Accelerate's
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    def pretrain_probe(probe, data):
        opt = torch.optim.SGD(probe.parameters(), lr=0.1)
        for x, y in data:
            loss = torch.nn.functional.mse_loss(probe(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad()

    def main():
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for x, y in loader:
            accelerator.backward(model(x).mean())
            optimizer.step()
            optimizer.zero_grad()
"""),
    # a raw-DDP baseline beside the Accelerate run: its accelerator only gives the device
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.nn.parallel import DistributedDataParallel as DDP

    def baseline(model, optimizer, loader):
        accelerator = Accelerator()
        model = DDP(model.to(accelerator.device), device_ids=[accelerator.local_process_index])
        for batch in loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()

    def with_accelerate(model, optimizer, loader):
        accelerator = Accelerator(mixed_precision="bf16")
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # an Accelerator that prepares nothing (used for printing / device only)
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(4, 1).to(accelerator.device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""),
]

PF402_BAD = [
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    model, optimizer = accelerator.prepare(model, optimizer)
    for epoch in range(3):
        for batch in train_loader:  # error: PF402
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader
    from tqdm import tqdm

    def main():
        accelerator = Accelerator()
        loader = DataLoader(ds, batch_size=8)
        eval_loader = DataLoader(val, batch_size=8)
        model, optimizer, eval_loader = accelerator.prepare(model, optimizer, eval_loader)
        for step, batch in enumerate(tqdm(loader)):  # error: PF402
            accelerator.backward(model(batch).mean())
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the same bucketed loader, but its dataset does not know the rank: every process reads all of it
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    from video.buckets import BucketBatchManager

    def main(args, network, optimizer):
        accelerator = Accelerator(mixed_precision="bf16")
        batches = BucketBatchManager(args.dataset_config, batch_size=args.batch_size)
        loader = torch.utils.data.DataLoader(batches, batch_size=None, shuffle=True, num_workers=2)
        network, optimizer = accelerator.prepare(network, optimizer)
        for latents, target in loader:  # error: PF402
            accelerator.backward(torch.nn.functional.mse_loss(network(latents), target))
            optimizer.step()
            optimizer.zero_grad()
"""),
]

PF402_GOOD = [
    # the dataset yields only this process's batches (built from rank and world size): not prepared on purpose
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    from video.buckets import BucketBatchManager

    def main(args, network, optimizer):
        accelerator = Accelerator(mixed_precision="bf16")
        batches = BucketBatchManager(args.dataset_config, batch_size=args.batch_size,
                                     rank=accelerator.process_index, world_size=accelerator.num_processes)
        loader = torch.utils.data.DataLoader(batches, batch_size=None, shuffle=True, num_workers=2)
        network, optimizer = accelerator.prepare(network, optimizer)
        for latents, target in loader:
            accelerator.backward(torch.nn.functional.mse_loss(network(latents), target))
            optimizer.step()
            optimizer.zero_grad()
"""),
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    for batch in train_loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    # prepared on its own, or handed to a helper preflight does not follow
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    loader = DataLoader(ds, batch_size=8)
    model, optimizer = accelerator.prepare(model, optimizer)
    loader = accelerator.prepare_data_loader(loader)
    other = DataLoader(ds2, batch_size=8)
    other = shard_for_accelerate(other)
    for batch in loader:
        accelerator.backward(model(batch).mean())
        optimizer.step()
        optimizer.zero_grad()
    for batch in other:
        accelerator.backward(model(batch).mean())
        optimizer.step()
        optimizer.zero_grad()
"""),
    # sharded by hand with a DistributedSampler
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, DistributedSampler

    accelerator = Accelerator()
    sampler = DistributedSampler(ds, num_replicas=accelerator.num_processes, rank=accelerator.process_index)
    loader = DataLoader(ds, batch_size=8, sampler=sampler)
    model, optimizer = accelerator.prepare(model, optimizer)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for batch in loader:
            accelerator.backward(model(batch).mean())
            optimizer.step()
            optimizer.zero_grad()
"""),
    # an evaluation loop over an unprepared loader does not train
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    val_loader = DataLoader(val, batch_size=64)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    with torch.no_grad():
        for batch in val_loader:
            print(model(batch).mean())
"""),
    # tricky-correct (alpaca_farm src/alpaca_farm/rl/rl_trainer.py at 30717dd): the PPO epochs iterate a loader
    # over the rollouts this process generated from its own prepared prompts ("Do not prepare, since we don't
    # need to shard the rollouts sampled on each batch"): sharding them again would drop samples
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, TensorDataset


    class PPOTrainer:
        def __init__(self, policy, optimizer, prompts_loader):
            self.accelerator = Accelerator()
            self.policy, self.optimizer, self.prompts_loader = self.accelerator.prepare(policy, optimizer, prompts_loader)

        def get_rollouts_dataloader(self, rollouts, keys=None):
            if keys is None:
                keys = tuple(rollouts.keys())
            rollouts_dataset = TensorDataset(*[rollouts[key] for key in keys])
            rollouts_dataloader = DataLoader(rollouts_dataset, batch_size=8, shuffle=True, drop_last=True)
            return rollouts_dataloader

        def step_with_rollouts(self, rollouts):
            rollouts_dataloader = self.get_rollouts_dataloader(rollouts=rollouts)
            for epoch_idx in range(4):
                for batch in rollouts_dataloader:
                    with self.accelerator.accumulate(self.policy):
                        loss = self.compute_loss(batch)
                        self.accelerator.backward(loss)
                        self.optimizer.step()
                        self.optimizer.zero_grad()
"""),
]

PF403_BAD = [
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)  # error: PF403
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
    textwrap.dedent("""
    import argparse
    from accelerate import Accelerator

    parser = argparse.ArgumentParser()
    parser.add_argument("--grad_accum", type=int, default=4)
    args = parser.parse_args()
    accelerator = Accelerator(gradient_accumulation_steps=args.grad_accum, mixed_precision="bf16")  # error: PF403
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
]

PF403_GOOD = [
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the loop steps on the accumulation boundary itself
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        if accelerator.sync_gradients:
            optimizer.step()
            optimizer.zero_grad()
"""),
    # the loop steps every 4th batch itself; accelerator.backward divides by 4: the prepared
    # optimizer steps whenever called outside accumulate(), so this accumulates correctly
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        accelerator.backward(loss)
        if (i + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # one step per micro-batch, and the value comes from the command line only
    textwrap.dedent("""
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=1)
    other = Accelerator(gradient_accumulation_steps=int(os.environ["GA"]))
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
"""),
]

PF404_BAD = [
    textwrap.dedent("""
    import torch
    import lightning as L

    class Classifier(L.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self(x), y)
            loss.backward()  # error: PF404
            return loss

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters())
"""),
    textwrap.dedent("""
    import torch
    import pytorch_lightning as pl

    class Model(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()  # error: PF404
            loss = self(batch).mean()
            self.manual_backward(loss)
            opt.step()
            return loss
"""),
]

PF404_GOOD = [
    textwrap.dedent("""
    import torch
    import lightning as L

    class Classifier(L.LightningModule):
        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self(x), y)
            self.log("train_loss", loss)
            return loss
"""),
    # manual optimization: the calls are the user's job
    textwrap.dedent("""
    import torch
    import lightning as L

    class GAN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            opt.zero_grad()
            loss = self(batch).mean()
            self.manual_backward(loss)
            opt.step()
"""),
    # manual optimization switched on the instance (a common test idiom); a base from elsewhere
    textwrap.dedent("""
    import torch
    import lightning as L
    from lightning.pytorch.demos.boring_classes import BoringModel
    from mylib.modules import ManualBase

    class TwoOptimizers(L.LightningModule):
        def training_step(self, batch, batch_idx):
            opt1, opt2 = self.optimizers()
            opt1.zero_grad()
            self.manual_backward(self(batch).sum())
            opt1.step()

    class FromElsewhere(ManualBase):
        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            self.manual_backward(self(batch).sum())
            opt.step()

    model = TwoOptimizers()
    model.automatic_optimization = False
    L.Trainer(max_epochs=1).fit(model)
"""),
    # a scheduler step and a gradient penalty through torch.autograd.grad
    textwrap.dedent("""
    import torch
    import lightning as L

    class WGAN(L.LightningModule):
        def training_step(self, batch, batch_idx):
            sch = self.lr_schedulers()
            out = self(batch)
            grads = torch.autograd.grad(out.sum(), batch, create_graph=True)[0]
            if self.trainer.is_last_batch:
                sch.step()
            return out.mean() + grads.norm()
"""),
]
