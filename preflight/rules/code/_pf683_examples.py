"""PF683 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

_GLUE = dedent("""
    import pytorch_lightning as pl
    import torch
    from transformers import get_linear_schedule_with_warmup


    class GLUETransformer(pl.LightningModule):
        def setup(self, stage=None):
            if stage != "fit":
                return
            train_loader = self.trainer.datamodule.train_dataloader()
            tb_size = self.hparams.train_batch_size * max(1, self.trainer.num_devices)
            {ab}
            self.total_steps = {total}

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=2e-5)
            scheduler = get_linear_schedule_with_warmup(optimizer, 0, num_training_steps=self.total_steps)
            return [optimizer], [{{"scheduler": scheduler, "interval": "step"}}]
""")

_AB = "ab_size = self.trainer.accumulate_grad_batches * float(self.trainer.max_epochs)"

BAD = [
    # the Lightning GLUE notebook (Lightning-AI/pytorch-lightning#10972): 3 steps instead of ~3438
    _GLUE.format(ab=_AB, total="(len(train_loader.dataset) // tb_size) // ab_size  # warning: PF683"),
    # the epochs divided straight into a scheduler keyword
    dedent("""
    import torch
    from transformers import get_cosine_schedule_with_warmup


    def build(optimizer, train_loader, args):
        return get_cosine_schedule_with_warmup(
            optimizer, num_warmup_steps=100,
            num_training_steps=len(train_loader) // args.max_epochs)  # warning: PF683
    """),
]

GOOD = [
    # the fix in the notebook: multiplied by the epochs
    _GLUE.format(ab="ab_size = tb_size * self.trainer.accumulate_grad_batches",
                 total="int((len(train_loader.dataset) / ab_size) * float(self.trainer.max_epochs))"),
    # multiplied by the accumulation-and-epochs product (a different count, not divided by the epochs)
    _GLUE.format(ab=_AB, total="(len(train_loader.dataset) // tb_size) * ab_size"),
    # tricky-correct: the same ab_size, but the step count is the dividend times the epochs over the window
    _GLUE.format(ab="ab_size = self.trainer.accumulate_grad_batches",
                 total="len(train_loader.dataset) // tb_size * self.trainer.max_epochs // ab_size"),
    # tricky-correct: steps per epoch from a step budget (no length divided)
    dedent("""
    def steps_per_epoch(trainer):
        total_steps = trainer.max_steps // trainer.max_epochs
        return total_steps
    """),
    # not a step count: samples per epoch shown in a progress message
    dedent("""
    def describe(dataset, max_epochs):
        share = len(dataset) / max_epochs
        print(share)
    """),
]
