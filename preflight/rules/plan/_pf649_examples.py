"""PF649 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- run.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(config_path="configs", config_name="config")
    def main(config: DictConfig) -> None:
        trainer = hydra.utils.instantiate(config.trainer)
        trainer.fit(hydra.utils.instantiate(config.model))


    if __name__ == "__main__":
        main()
    # --- configs/trainer/default.yaml
    _target_: pytorch_lightning.Trainer
    max_epochs: 10
    # --- configs/trainer/debug.yaml
    _target_: pytorch_lightning.Trainer
    max_epochs: 1
    fast_dev_run: true
    # --- configs/model/bert.yaml
    _target_: models.Bert
    lr: 2e-5
    # --- configs/mode/default.yaml
    # @package _global_
    debug_mode: false
    # --- configs/mode/debug.yaml
    # @package _global_
    defaults:
      - override /trainer: debug.yaml
    debug_mode: true
    # --- configs/experiment/bert_mnli.yaml
    # @package _global_
    defaults:
      - override /trainer: default.yaml
      - override /model: bert.yaml
    name: bert_mnli
    trainer:
      max_epochs: 20
""")


def _config(order: str) -> str:
    return textwrap.dedent("""
    # --- configs/config.yaml
    # @package _global_
    defaults:
      - _self_
      - trainer: default.yaml
      - model: bert.yaml
    """) + textwrap.indent(textwrap.dedent(order), "  ") + "seed: null\n"


BAD_EXAMPLES = [
    # lightning-hydra-template issue 245: mode before experiment, the experiment re-selects the default trainer
    _APP + _config("""
    - mode: default.yaml  # warning: PF649
    - experiment: null
    """) + "# --- launch\npython run.py experiment=bert_mnli mode=debug\n",
]

GOOD_EXAMPLES = [
    # the fix of issue 245: experiment first, the debug mode's override comes last and wins
    _APP + _config("""
    - experiment: null
    - mode: default.yaml
    """) + "# --- launch\npython run.py experiment=bert_mnli mode=debug\n",
    # the same order, but no debug mode chosen: nothing is undone
    _APP + _config("""
    - mode: default.yaml
    - experiment: null
    """) + "# --- launch\npython run.py experiment=bert_mnli\n",
    # tricky: the trainer chosen on the launch line wins over both options
    _APP + _config("""
    - mode: default.yaml
    - experiment: null
    """) + "# --- launch\npython run.py experiment=bert_mnli mode=debug trainer=debug\n",
]
