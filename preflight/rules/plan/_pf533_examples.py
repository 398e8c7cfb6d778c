"""PF533 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF533_BAD = [
    # the accumulation set twice: in the JSON given to DeepSpeedStrategy and on the Trainer
    textwrap.dedent("""
    # --- train.py
    import lightning.pytorch as pl
    from lightning.pytorch.strategies import DeepSpeedStrategy


    def main(model, loader):
        trainer = pl.Trainer(accelerator="gpu", devices=4, precision="bf16-mixed", accumulate_grad_batches=4,
                             strategy=DeepSpeedStrategy(config="configs/ds_config.json"))
        trainer.fit(model, loader)
    # --- configs/ds_config.json
    {
      "train_micro_batch_size_per_gpu": 8,
      "gradient_accumulation_steps": 4,
      "zero_optimization": {"stage": 2}
    }
    # --- expect
    configs/ds_config.json:3: error: PF533
"""),
    # a dict literal, pytorch_lightning 1.x import path
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.strategies import DeepSpeedStrategy

    ds = DeepSpeedStrategy(config={
        "zero_optimization": {"stage": 3},
        "gradient_accumulation_steps": 8,  # error: PF533
    })
    trainer = pl.Trainer(gpus=8, strategy=ds)
"""),
]

PF533_BAD.append(
    # the dict bound to a module-level name, as lit-llama's scripts write it (there for Fabric)
    textwrap.dedent("""
    # --- finetune.py
    import lightning as L
    from lightning.pytorch.strategies import DeepSpeedStrategy

    ds_config = {
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 8,  # error: PF533
        "zero_optimization": {"stage": 2},
    }
    trainer = L.Trainer(devices=4, strategy=DeepSpeedStrategy(config=ds_config))
"""))

PF533_GOOD = [
    # the fix: accumulation on the Trainer only
    textwrap.dedent("""
    # --- train.py
    import lightning.pytorch as pl
    from lightning.pytorch.strategies import DeepSpeedStrategy

    trainer = pl.Trainer(devices=4, accumulate_grad_batches=4, strategy=DeepSpeedStrategy(config="ds_config.json"))
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2}}
"""),
    # tricky: Fabric's DeepSpeedStrategy takes the key
    textwrap.dedent("""
    # --- fabric_train.py
    from lightning.fabric import Fabric
    from lightning.fabric.strategies import DeepSpeedStrategy

    fabric = Fabric(devices=2, strategy=DeepSpeedStrategy(config="ds_fabric.json"))
    # --- ds_fabric.json
    {"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 2}
"""),
    # tricky: the config with the key is another file than the one Lightning gets (a plain
    # deepspeed.initialize script's)
    textwrap.dedent("""
    # --- lit.py
    import lightning.pytorch as pl
    from lightning.pytorch.strategies import DeepSpeedStrategy

    trainer = pl.Trainer(devices=2, strategy=DeepSpeedStrategy(config="lightning/ds.json"))
    # --- lightning/ds.json
    {"train_micro_batch_size_per_gpu": 8}
    # --- raw/ds.json
    {"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 1}
"""),
    # tricky (real code, Lightning-AI/lit-llama finetune/adapter.py): the same module-level dict
    # given to Fabric's DeepSpeedStrategy, which accepts the key
    textwrap.dedent("""
    # --- finetune/adapter.py
    import lightning as L
    from lightning.fabric.strategies import DeepSpeedStrategy

    devices = 4
    ds_config = {
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 8,
        "zero_optimization": {"stage": 2},
    }
    fabric = L.Fabric(accelerator="cuda", devices=devices,
                      strategy=(DeepSpeedStrategy(config=ds_config) if devices > 1 else "auto"))
"""),
]
