"""PF463 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

_WRITER = textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    from pytorch_lightning.callbacks import BasePredictionWriter


    class TiffWriter(BasePredictionWriter):
        def __init__(self, output_dir):
            super().__init__(write_interval="batch")
            self.output_dir = output_dir

        def write_on_batch_end(self, trainer, pl_module, prediction, batch_indices, batch, batch_idx, dataloader_idx):
            torch.save(prediction.cpu(), f"{self.output_dir}/{batch_idx}.pt")

""")

BAD_EXAMPLES = [
    # ahcore PR 37: whole-slide inference, the writer already saves every tile
    _WRITER + """
def inference(module, datamodule, output_dir):
    trainer = pl.Trainer(accelerator="gpu", devices=1, callbacks=[TiffWriter(output_dir)])
    trainer.predict(module, datamodule=datamodule)  # warning: PF463
""",
    # the writer bound to a name first, the Trainer from lightning 2.x
    textwrap.dedent("""
    import lightning as L
    from lightning.pytorch.callbacks import BasePredictionWriter


    class EmbeddingWriter(BasePredictionWriter):
        def write_on_epoch_end(self, trainer, pl_module, predictions, batch_indices):
            pass


    def embed(model, loader):
        writer = EmbeddingWriter(write_interval="epoch")
        trainer = L.Trainer(devices=4, strategy="ddp", callbacks=[writer])
        trainer.predict(model, loader)  # warning: PF463
"""),
]

GOOD_EXAMPLES = [
    # the fix
    _WRITER + """
def inference(module, datamodule, output_dir):
    trainer = pl.Trainer(accelerator="gpu", devices=1, callbacks=[TiffWriter(output_dir)])
    trainer.predict(module, datamodule=datamodule, return_predictions=False)
""",
    # tricky-correct: the predictions are wanted (returned) as well as written
    _WRITER + """
def inference(module, datamodule, output_dir):
    trainer = pl.Trainer(accelerator="gpu", devices=1, callbacks=[TiffWriter(output_dir)])
    return trainer.predict(module, datamodule=datamodule)
""",
    # no writer callback: predict returns the outputs the caller collects
    textwrap.dedent("""
    import pytorch_lightning as pl


    def inference(module, datamodule):
        trainer = pl.Trainer(accelerator="gpu", devices=1)
        trainer.predict(module, datamodule=datamodule)
"""),
]
