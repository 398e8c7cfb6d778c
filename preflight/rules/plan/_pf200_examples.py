"""PF200 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train_gan.py
    import argparse

    import lightning as L

    from gan_system import GanSystem


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--ckpt", default=None)
        args = p.parse_args()
        system_args = {{"lr_g": 2e-4, "lr_d": 2e-4}}
        if args.ckpt:
            {load}
        else:
            system = GanSystem(**system_args)
        trainer = L.Trainer({trainer})
        trainer.fit(system)


    if __name__ == "__main__":
        main()
    """)

_BAD_LOAD = "system = GanSystem.load_from_checkpoint(args.ckpt, **system_args)  # warning: PF200"
_DDP4 = 'accelerator="gpu", devices=4, strategy="ddp", max_steps=1_000_000'

PF200_BAD = [
    # Lightning issue 19219 (held-out-46 case h46-pl-checkpoint-restored-onto-cuda0-by-every-ddp-rank): a GAN
    # resumed on 4 GPUs, every DDP process loads the checkpoint without map_location
    _TRAIN.format(load=_BAD_LOAD, trainer=_DDP4),
    # the default strategy of a 4-device GPU Trainer is ddp; Lightning 2.2 pinned; a keyword path
    _TRAIN.format(load='system = GanSystem.load_from_checkpoint(checkpoint_path=args.ckpt)  # warning: PF200',
                  trainer='accelerator="cuda", devices=4') + textwrap.dedent("""
    # --- requirements.txt
    lightning==2.2.1
    """),
    # a test run after fit on 8 GPUs: every rank still materialises its copy on cuda:0
    textwrap.dedent("""
    import pytorch_lightning as pl

    from model import Classifier

    trainer = pl.Trainer(accelerator="gpu", devices=8, strategy="ddp_find_unused_parameters_true")
    trainer.fit(Classifier(), datamodule=None)
    best = Classifier.load_from_checkpoint(trainer.checkpoint_callback.best_model_path)  # warning: PF200
    trainer.test(best)
    """),
]

PF200_GOOD = [
    # the fix: map_location="cpu"
    _TRAIN.format(load='system = GanSystem.load_from_checkpoint(args.ckpt, map_location="cpu", **system_args)',
                  trainer=_DDP4),
    # one GPU: one process
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer='accelerator="gpu", devices=1'),
    # ddp_spawn: the script body (and the load) runs once, in the main process
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer='accelerator="gpu", devices=4, strategy="ddp_spawn"'),
    # Lightning 2.0 pinned: its default map_location puts the storages on the CPU
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer=_DDP4) + textwrap.dedent("""
    # --- requirements.txt
    lightning==2.0.9
    """),
    # tricky-correct: gpus= is the 1.x API (default map to the CPU there)
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer="gpus=4, accelerator=\"ddp\""),
    # tricky-correct: map_location comes in through the unpacked dict
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer=_DDP4).replace(
        '"lr_d": 2e-4}', '"lr_d": 2e-4, "map_location": "cpu"}'),
    # tricky-correct: only rank 0 loads (to export), under a rank test
    textwrap.dedent("""
    import os

    import lightning as L

    from model import Classifier

    trainer = L.Trainer(accelerator="gpu", devices=4, strategy="ddp")
    trainer.fit(Classifier())
    if trainer.is_global_zero:
        best = Classifier.load_from_checkpoint(trainer.checkpoint_callback.best_model_path)
        best.to_onnx("model.onnx")
    """),
    # CPU processes: nothing is on a GPU
    _TRAIN.format(load=_BAD_LOAD.split("  #")[0], trainer='accelerator="cpu", devices=4, strategy="ddp"'),
]
