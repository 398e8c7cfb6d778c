"""PF307 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCHED_MODULE = textwrap.dedent("""
    # --- module.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F


    class LitNet(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self.net(x), y))

        def configure_optimizers(self):
            optimizer = torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)
            scheduler = torch.optim.lr_scheduler.{scheduler}
            return {ret}
""")

_SCHED_TRAIN = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl

    from module import LitNet

    trainer = pl.Trainer(gpus=1, max_epochs=100, check_val_every_n_epoch={every}){mark}
    trainer.fit(LitNet(build_net()), train_loader, val_loader)
""")


def _sched(version: str, every: str, mark: str, scheduler: str = "StepLR(optimizer, step_size=30, gamma=0.1)",
           ret: str = "[optimizer], [scheduler]") -> str:
    return _SCHED_MODULE.format(scheduler=scheduler, ret=ret) + _SCHED_TRAIN.format(version=version, every=every,
                                                                                     mark=mark)


_ES = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- runner.py
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import EarlyStopping
    from torch.nn import functional as F


    class Probe(pl.LightningModule):
        def __init__(self, head):
            super().__init__()
            self.head = head

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.head(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.log("val_loss", F.cross_entropy(self.head(x), y))

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)


    early_stopping = EarlyStopping(monitor="val_loss", patience=3{extra}){mark}
    trainer = pl.Trainer(gpus=1, max_epochs=500, check_val_every_n_epoch=10, callbacks=[early_stopping])
    trainer.fit(Probe(make_head()), train_loader, valid_loader)
""")

_DS = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl
    import torch
    from transformers import get_linear_schedule_with_warmup


    class LitLM(pl.LightningModule):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=1e-4)
            scheduler = get_linear_schedule_with_warmup(optimizer, 2000, 50000)
            return {{"optimizer": optimizer, "lr_scheduler": {{"scheduler": scheduler, "interval": "step"}}}}


    trainer = pl.Trainer(gpus=4, strategy="deepspeed_stage_2", precision=16, max_steps=50000)
    trainer.fit(LitLM(load_model()), train_loader, ckpt_path=args.resume){mark}
""")

PF307_BAD = [
    # Lightning issue 7737: StepLR with check_val_every_n_epoch=10 on 1.3.1
    _sched("1.3.1", "10", "  # error: PF307"),
    # Lightning issue 9151: EarlyStopping on 1.4.4 with validation every 10 epochs
    _ES.format(version="1.4.4", extra="", mark="  # error: PF307"),
    # Lightning PR 11322: DeepSpeed resume on 1.5.7 restarts the warmup
    _DS.format(version="1.5.7", mark="  # error: PF307"),
]

PF307_GOOD = [
    # the fixes: the releases with the fixes
    _sched("1.4.0", "10", ""),
    _ES.format(version="1.4.5", extra="", mark=""),
    _DS.format(version="1.5.9", mark=""),
    # the workaround on the pinned release
    _ES.format(version="1.4.4", extra=", check_on_train_epoch_end=False", mark=""),
    # tricky-correct: ReduceLROnPlateau is meant to follow validation
    _sched("1.3.1", "10", "", scheduler="ReduceLROnPlateau(optimizer, patience=3)",
           ret='{"optimizer": optimizer, "lr_scheduler": scheduler, "monitor": "val_loss"}'),
    # tricky-correct: validation every epoch on the old release
    _sched("1.3.1", "1", ""),
]


# --- 0.7.x: a custom sampler dropped under ddp (Lightning issue 1995) -----------------------------------------
_SAMPLER = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl
    import torch
    from torch.nn import functional as F
    from torch.utils.data import DataLoader, WeightedRandomSampler

    from data import Patches, weights_of


    class Classifier(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(64, 7)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return {{"loss": F.cross_entropy(self.net(x), y)}}

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)

        def train_dataloader(self):
            data = Patches("train")
            sampler = {sampler}
            return DataLoader(data, batch_size=64, sampler=sampler)


    trainer = pl.Trainer(gpus=4, distributed_backend="ddp"{extra}, max_epochs=30){mark}
    trainer.fit(Classifier())
""")

# --- 0.7.4-0.7.6: EarlyStopping counted twice per epoch (issue 1751) ------------------------------------------
_ES07 = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import torch
    from pytorch_lightning import LightningModule, Trainer
    from pytorch_lightning.callbacks import EarlyStopping
    from torch.nn import functional as F


    class Net(LightningModule):
        def __init__(self):
            super().__init__()
            self.out = torch.nn.Linear(9, 2)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return {{"loss": F.cross_entropy(self.out(x), y)}}

        def validation_step(self, batch, batch_idx):
            x, y = batch
            return {{"val_loss": F.cross_entropy(self.out(x), y)}}

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)


    stopper = EarlyStopping(monitor="val_loss", patience=20, mode="min")
    trainer = Trainer(
        early_stop_callback={given},{mark}
        max_epochs=200,
        gpus=1,
    )
    trainer.fit(Net())
""")

# --- 1.2.x: a CombinedLoader of evaluation loaders is not sharded (issue 7013) ---------------------------------
_COMBINED = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.trainer.supporters import CombinedLoader
    from torch.nn import functional as F
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler

    from data import Clips


    class Spotter(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(40, 35)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch["clean"]
            self.log("val_acc_clean", (self.net(x).argmax(1) == y).float().mean(), sync_dist=True)

        def val_dataloader(self):
            clean, noisy = Clips("valid"), Clips("valid_noisy")
            loaders = {{"clean": DataLoader(clean, batch_size=64{sampler_clean}),
                       "noisy": DataLoader(noisy, batch_size=64{sampler_noisy})}}
            return CombinedLoader(loaders, "max_size_cycle"){mark}

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)


    trainer = pl.Trainer(gpus={gpus}, accelerator="ddp", max_epochs=40)
    trainer.fit(Spotter())
""")

# --- 1.7.0-2.0.2: a shuffled loader sharded without a global seed (PR 17713) -----------------------------------
_UNSEEDED = textwrap.dedent("""
    # --- requirements.txt
    lightning=={version}
    # --- train.py
    import lightning as L
    import torch
    from torch.nn import functional as F
    from torch.utils.data import DataLoader

    from data import Images


    class Net(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(32, 10)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.net(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.05)

    {seed}
    loader = DataLoader(Images("train"), batch_size=128, shuffle=True, num_workers=4)
    trainer = L.Trainer(accelerator="gpu", devices={devices}, strategy="{strategy}", max_epochs=30){mark}
    trainer.fit(Net(), loader)
""")

# --- before 1.8.0.post1: BaseFinetuning.freeze(train_bn=False) leaves BatchNorm statistics updating -------------
_FREEZE = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- probe.py
    import pytorch_lightning as pl
    import torch
    import torchvision
    from pytorch_lightning.callbacks import BaseFinetuning
    from torch.nn import functional as F


    class FreezeBackbone(BaseFinetuning):
        def freeze_before_training(self, pl_module):
            self.freeze(pl_module.backbone, train_bn={train_bn}){mark}

        def finetune_function(self, pl_module, current_epoch, optimizer, optimizer_idx):
            pass


    class Probe(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.backbone = torch.nn.Sequential(*list(torchvision.models.{model}().children())[:-1])
            self.head = torch.nn.Linear(2048, 10)

        def forward(self, x):
            return self.head(self.backbone(x).flatten(1))
    {hook}
        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.head.parameters(), lr=0.1)


    trainer = pl.Trainer(max_epochs=30, accelerator="gpu", devices=1, callbacks=[FreezeBackbone()])
    trainer.fit(Probe(), train_loader)
""")

_EVAL_HOOK = """
        def on_train_epoch_start(self):
            self.backbone.eval()
"""

PF307_BAD += [
    # issue 1995: WeightedRandomSampler under ddp on 0.7.6
    _SAMPLER.format(version="0.7.6", sampler="WeightedRandomSampler(weights_of(data), num_samples=len(data))",
                    extra="", mark="  # error: PF307"),
    # issue 1751: EarlyStopping as early_stop_callback on 0.7.5
    _ES07.format(version="0.7.5", given="stopper", mark="  # error: PF307"),
    _ES07.format(version="0.7.6", given="True", mark="  # error: PF307"),
    # issue 7013: CombinedLoader returned by val_dataloader on 1.2.7, 2 GPUs
    _COMBINED.format(version="1.2.7", sampler_clean="", sampler_noisy="", gpus="2", mark="  # error: PF307"),
    # PR 17713: shuffled loader, 4 processes, no seed, on 2.0.2
    _UNSEEDED.format(version="2.0.2", seed="", devices="4", strategy="ddp", mark="  # error: PF307"),
    # issue 15062: freeze(train_bn=False) of a ResNet backbone on 1.7.7
    _FREEZE.format(version="1.7.7", train_bn="False", model="resnet50", hook="", mark="  # error: PF307"),
]

PF307_GOOD += [
    # the fixed releases
    _SAMPLER.format(version="0.8.0", sampler="WeightedRandomSampler(weights_of(data), num_samples=len(data))",
                    extra="", mark=""),
    _ES07.format(version="0.8.0", given="stopper", mark=""),
    _COMBINED.format(version="1.3.0", sampler_clean="", sampler_noisy="", gpus="2", mark=""),
    _UNSEEDED.format(version="2.0.3", seed="", devices="4", strategy="ddp", mark=""),
    _FREEZE.format(version="1.8.1", train_bn="False", model="resnet50", hook="", mark=""),
    # the workarounds on the affected releases
    _SAMPLER.format(version="0.7.6", sampler="DistributedWeightedSampler(weights_of(data), num_samples=len(data))",
                    extra=", replace_sampler_ddp=False", mark=""),
    _ES07.format(version="0.7.5", given="False", mark=""),
    _COMBINED.format(version="1.2.7", sampler_clean=", sampler=DistributedSampler(clean, shuffle=False)",
                     sampler_noisy=", sampler=DistributedSampler(noisy, shuffle=False)", gpus="2", mark=""),
    _UNSEEDED.format(version="2.0.2", seed="L.seed_everything(1234)", devices="4", strategy="ddp", mark=""),
    _FREEZE.format(version="1.7.7", train_bn="False", model="resnet50", hook=_EVAL_HOOK, mark=""),
    # tricky-correct: a sampler Lightning keeps (its own sequential/random kinds), one GPU, `dp`, BatchNorm trained
    _SAMPLER.format(version="0.7.6", sampler="RandomSampler(data)", extra="", mark=""),
    _COMBINED.format(version="1.2.7", sampler_clean="", sampler_noisy="", gpus="1", mark=""),
    _UNSEEDED.format(version="2.0.2", seed="", devices="1", strategy="auto", mark=""),
    _UNSEEDED.format(version="2.0.2", seed="", devices="4", strategy="dp", mark=""),
    _FREEZE.format(version="1.7.7", train_bn="True", model="resnet50", hook="", mark=""),
]

# det132: 1.1.0-1.3.8 reject an overridden optimizer_step with gradient accumulation (issue 5054; held-out-46 case
# h46-pl-custom-optimizer-step-with-gradient-accumulation-on-lightning-1-1)
_STEP_GAN = textwrap.dedent("""
    # --- requirements.txt
    torch==1.7.1
    pytorch-lightning=={version}
    # --- gan_module.py
    import pytorch_lightning as pl
    import torch


    class GAN(pl.LightningModule):{extra}
        def training_step(self, batch, batch_idx, optimizer_idx):
            return self.loss(batch, optimizer_idx)

        def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure=None,
                           on_tpu=False, using_native_amp=False, using_lbfgs=False):
            if optimizer_idx == 1 and batch_idx % 2 == 1:
                optimizer_closure()
                return
            optimizer.step(closure=optimizer_closure)

        def configure_optimizers(self):
            return [torch.optim.Adam(self.generator.parameters()), torch.optim.Adam(self.discriminator.parameters())]
    # --- train_gan.py
    import pytorch_lightning as pl

    from gan_module import GAN

    trainer = pl.Trainer(gpus=1, max_epochs=30, accumulate_grad_batches={acc}){mark}
    trainer.fit(GAN(), loader)
""")

PF307_BAD += [
    _STEP_GAN.format(version="1.1.0", acc="4", extra="", mark="  # error: PF307"),
    # a scheduled accumulation on the last 1.1 release
    _STEP_GAN.format(version="1.1.8", acc="{0: 1, 5: 4}", extra="", mark="  # error: PF307"),
    # the last release with the check
    _STEP_GAN.format(version="1.3.8", acc="4", extra="", mark="  # error: PF307"),
]

PF307_GOOD += [
    # the fix of the report: 1.0.8 trains this setup
    _STEP_GAN.format(version="1.0.8", acc="4", extra="", mark=""),
    # 1.4.0 lifted the check (PR 7980)
    _STEP_GAN.format(version="1.4.0", acc="4", extra="", mark=""),
    # no accumulation
    _STEP_GAN.format(version="1.1.0", acc="1", extra="", mark=""),
    # tricky-correct: the optimizer_step override belongs to a plain helper class, not to the LightningModule
    _STEP_GAN.format(version="1.1.0", acc="4", extra="", mark="").replace(
        "class GAN(pl.LightningModule):", "class AlternatingStepper:").replace(
        "import torch\n", "import torch\n\n\nclass GAN(pl.LightningModule):\n    pass\n", 1),
]


# Lightning issue 1844: a MelGAN Trainer asked for precision=16 without gpus on 0.7.6 (the model's .cuda() does not
# count): "amp + cpu is not supported"
_AMP_CPU = textwrap.dedent("""
    # --- requirements.txt
    pytorch-lightning=={version}
    # --- train.py
    import pytorch_lightning as pl

    model = MelGANModule(lr=1e-4).cuda()
    trainer = pl.Trainer(
        max_epochs=3000,
        gradient_clip_val=1.0,{devices}
        precision={precision},{mark}
    )
    trainer.fit(model, train_loader, val_loader)
""")

# python-chebai issue 12: five ensemble members launched in a loop, each seeded with seed_everything() and no seed,
# which seeds 0 from Lightning 2.2.0 on
_MEMBERS = textwrap.dedent("""
    # --- requirements.txt
    lightning=={version}
    # --- train_member.py
    import argparse

    import lightning as L
    from lightning.pytorch import seed_everything

    p = argparse.ArgumentParser()
    p.add_argument("{flag}", type=int, required=True)
    args = p.parse_args()
    seed_everything({seed}){mark}
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=200)
    trainer.fit(build_model(), datamodule=build_data())
    # --- train_ensemble.sh
    #!/bin/bash
    # {comment}
    for m in 0 1 2 3 4; do
        python train_member.py {flag} "$m"
    done
    # --- launch
    bash train_ensemble.sh
""")

PF307_BAD += [
    _AMP_CPU.format(version="0.7.6", devices="", precision="16", mark="  # error: PF307"),
    _AMP_CPU.format(version="1.3.8", devices="", precision="16", mark="  # error: PF307"),
    _MEMBERS.format(version="2.2.0", seed="", mark="  # warning: PF307", comment="five ensemble members", flag="--member"),
]
PF307_GOOD += [
    # the fixes: the GPU requested from the Trainer; a seed per member
    _AMP_CPU.format(version="0.7.6", devices="\n    gpus=1,", precision="16", mark=""),
    _MEMBERS.format(version="2.2.0", seed="args.member", mark="", comment="five ensemble members", flag="--member"),
    # tricky: 1.5 and later switch a CPU run to bf16 with a warning; 32-bit needs no GPU
    _AMP_CPU.format(version="1.5.0", devices="", precision="16", mark=""),
    _AMP_CPU.format(version="0.7.6", devices="", precision="32", mark=""),
    # tricky: 2.1 drew a random seed when none was given
    _MEMBERS.format(version="2.1.0", seed="", mark="", comment="five ensemble members", flag="--member"),
    # tricky: a loop over datasets, where one shared seed is harmless
    _MEMBERS.format(version="2.2.0", seed="", mark="", comment="one model per dataset split", flag="--split"),
]
