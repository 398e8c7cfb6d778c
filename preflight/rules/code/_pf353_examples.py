"""PF353 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_RUN = textwrap.dedent("""
    import argparse

    import lightning as L
    from lightning.pytorch.callbacks import ModelCheckpoint

    from model import Classifier
    from data import ImagesDataModule

    parser = argparse.ArgumentParser()
    parser.add_argument({flag}, default={default!r})
    args = parser.parse_args()

    dm = ImagesDataModule("data/", batch_size=64)
    model = {model}
    trainer = L.Trainer(max_epochs=50, callbacks=[ModelCheckpoint(dirpath="runs/ckpt", save_last=True)])
    trainer.fit({fit}){mark}
""")

PF353_BAD = [
    # pytorch-lightning issue 12280: last.ckpt reloaded as weights, then fit
    _RUN.format(flag='"--ckpt"', default="runs/ckpt/last.ckpt", model="Classifier.load_from_checkpoint(args.ckpt)",
                fit="model, dm", mark="  # warning: PF353"),
    # a resume option, and a checkpoint named by epoch in the run's own directory
    _RUN.format(flag='"--resume"', default="", model="Classifier.load_from_checkpoint(args.resume)",
                fit="model, datamodule=dm", mark="  # warning: PF353"),
    _RUN.format(flag='"--weights"', default="runs/ckpt/epoch=9.ckpt",
                model="Classifier.load_from_checkpoint(args.weights, map_location=\"cpu\")", fit="model, dm",
                mark="  # warning: PF353"),
]

PF353_GOOD = [
    # the fix
    _RUN.format(flag='"--ckpt"', default="runs/ckpt/last.ckpt", model="Classifier()",
                fit="model, dm, ckpt_path=args.ckpt", mark=""),
    # tricky-correct: fine-tuning from another run's pretrained checkpoint (a new optimizer is wanted)
    _RUN.format(flag='"--pretrained"', default="pretrained/simclr-resnet50.ckpt",
                model="Classifier.load_from_checkpoint(args.pretrained, num_classes=10)", fit="model, dm", mark=""),
    # tricky-correct: a voice fine-tuned from a checkpoint given as --resume-from, with a new learning rate
    _RUN.format(flag='"--resume-from"', default="voices/en_US-lessac.ckpt",
                model="Classifier.load_from_checkpoint(args.resume_from, learning_rate=1e-4)", fit="model, dm",
                mark=""),
    # tricky-correct: weights loaded and the state resumed from the same file
    _RUN.format(flag='"--resume"', default="runs/ckpt/last.ckpt",
                model="Classifier.load_from_checkpoint(args.resume)", fit="model, dm, ckpt_path=args.resume",
                mark=""),
]
