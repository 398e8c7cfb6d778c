"""PF686 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

# hydra issue 1950's shape: a list of callback nodes handed to one instantiate call on hydra-core 1.1
_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import pytorch_lightning as pl
    from hydra.utils import instantiate
    from omegaconf import DictConfig


    @hydra.main(config_path="configs", config_name="config")
    def main(cfg: DictConfig) -> None:
        {build}
        trainer = pl.Trainer(callbacks=callbacks, max_epochs=cfg.max_epochs)


    if __name__ == "__main__":
        main()
    # --- configs/config.yaml
    max_epochs: 20
    callbacks:
      - _target_: pytorch_lightning.callbacks.ModelCheckpoint
        monitor: val/acc
      - _target_: pytorch_lightning.callbacks.LearningRateMonitor
        logging_interval: step
    # --- requirements.txt
    hydra-core=={hydra}
    pytorch-lightning==1.5.10
    # --- launch
    python train.py
    """)

BAD_EXAMPLES = [
    _APP.format(build="callbacks = instantiate(cfg.callbacks)  # error: PF686", hydra="1.1.1"),
]

GOOD_EXAMPLES = [
    # the fix: one instantiate per element
    _APP.format(build="callbacks = [instantiate(c) for c in cfg.callbacks]", hydra="1.1.1"),
    # tricky: hydra-core 1.2 instantiates a top-level list
    _APP.format(build="callbacks = instantiate(cfg.callbacks)", hydra="1.2.0"),
    # tricky: one element of the list is a dict node
    _APP.format(build="callbacks = [instantiate(cfg.callbacks[0])]", hydra="1.1.1"),
]
