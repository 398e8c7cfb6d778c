"""PF381 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl

    from task import Classifier, TextData


    @hydra.main(config_path="conf", config_name="root", version_base=None)
    def train(conf):
        pl.seed_everything(conf.training.seed)
        model = Classifier(conf.model.name, conf.model.lr)
        if conf.training.resume_from is not None:
            trainer = {resume_branch}
        else:
            trainer = hydra.utils.instantiate(conf.training.pl_trainer, logger=False)
        trainer.fit(model, datamodule=TextData(conf.data.path))


    if __name__ == "__main__":
        train()
    # --- conf/root.yaml
    training:
      seed: 12
      resume_from: null
      pl_trainer:
        _target_: pytorch_lightning.Trainer
        devices: 1
        accumulate_grad_batches: 4
        val_check_interval: 2000
    model:
      name: bert-base-cased
      lr: 1.0e-5
    data:
      path: data/sst2
    # --- launch
    python train.py
""")

BAD_EXAMPLES = [
    # litus-ai/classy PR 84: the resume branch builds a bare Trainer
    _APP.format(resume_branch="pl.Trainer(resume_from_checkpoint=conf.training.resume_from, logger=False)"
                              "  # warning: PF381"),
]

GOOD_EXAMPLES = [
    # the fix: both branches build from the node
    _APP.format(resume_branch="hydra.utils.instantiate(conf.training.pl_trainer, logger=False, "
                              "resume_from_checkpoint=conf.training.resume_from)"),
    # tricky-correct: the hand-built Trainer repeats every configured argument
    _APP.format(resume_branch="pl.Trainer(devices=1, accumulate_grad_batches=4, val_check_interval=2000, "
                              "resume_from_checkpoint=conf.training.resume_from, logger=False)"),
    # tricky-correct: the configured arguments splatted into the hand-built one
    _APP.format(resume_branch="pl.Trainer(**trainer_kwargs(conf), resume_from_checkpoint=conf.training.resume_from)"),
]
