"""PF299 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# Lightning-AI/pytorch-lightning#9771's shape: a one-cycle schedule under the DeepSpeed plugin
_JOB = textwrap.dedent("""
    # --- model.py
    import pytorch_lightning as pl
    import torch


    class LitGPT(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=6e-4)
            {sched}
            {ret}
    # --- train.py
    import pytorch_lightning as pl
    from pytorch_lightning.plugins import DeepSpeedPlugin

    from model import LitGPT

    trainer = pl.Trainer(gpus=8, precision=16, max_steps=50000, plugins={plugin})
    trainer.fit(LitGPT(), loader)
    # --- requirements.txt
    pytorch-lightning{pin}
    deepspeed==0.5.3
""")

_ONE_CYCLE = "scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=6e-4, total_steps=50000)"
_RETURNS = 'return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}'

BAD_EXAMPLES = [
    _JOB.format(sched=_ONE_CYCLE, ret=_RETURNS + "  # warning: PF299", plugin="DeepSpeedPlugin(stage=2)", pin="==1.4.9"),
    # the string form of the plugin and the list return
    _JOB.format(sched="scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)",
                ret="return [optimizer], [scheduler]  # warning: PF299", plugin='"deepspeed_stage_3"',
                pin="==1.3.8"),
]

GOOD_EXAMPLES = [
    # the fix: Lightning 1.5 leaves the scheduler to Lightning
    _JOB.format(sched=_ONE_CYCLE, ret=_RETURNS, plugin="DeepSpeedPlugin(stage=2)", pin="==1.5.0"),
    # tricky: only a lower bound (the installed release is not known)
    _JOB.format(sched=_ONE_CYCLE, ret=_RETURNS, plugin="DeepSpeedPlugin(stage=2)", pin=">=1.4"),
    # no DeepSpeed plugin: Lightning alone steps the scheduler
    _JOB.format(sched=_ONE_CYCLE, ret=_RETURNS, plugin='"ddp"', pin="==1.4.9"),
    # no scheduler returned
    _JOB.format(sched="optimizer.zero_grad()", ret="return optimizer", plugin="DeepSpeedPlugin(stage=2)", pin="==1.4.9"),
]
