"""PF526 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(config_path="conf", config_name="config", version_base="1.3")  # {pin}
    def main(cfg):
        print(cfg.model.name, cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: resnet
      - _self_
    trainer:
      max_epochs: 10
    # --- conf/model/resnet.yaml
    name: resnet50
    {resnet}
    # --- conf/model/vit.yaml
    name: vit_b_16
    dropout: 0.1
    # --- conf/model/mixer.yaml
    name: mixer_b16
    dropout: 0.1
    # --- launch
    python train.py --multirun model=vit,mixer {override} trainer.max_epochs=100
""")

PF526_BAD = [
    # hydra issue 2888: the default option (resnet) lacks the key the override sets
    _APP.format(pin="error: PF526", resnet="", override="model.dropout=0.2"),
    # hydra issue 1457: a misspelled key of Hydra's own config (output_subdir)
    _APP.format(pin="error: PF526", resnet="dropout: 0.0", override="hydra.ouput_subdir=null"),
]

PF526_GOOD = [
    # the fix: the default option has the key
    _APP.format(pin="", resnet="dropout: 0.0", override="model.dropout=0.2"),
    # `++` adds the key where it is missing
    _APP.format(pin="", resnet="", override="++model.dropout=0.2"),
    # tricky: Hydra's own keys are no misspelling; a key added to a node that takes any key (job.env_set)
    _APP.format(pin="", resnet="dropout: 0.0", override="hydra.output_subdir=null hydra.job.chdir=true "
                "hydra.sweep.dir=sweeps/resnet +hydra.job.env_set.WANDB_MODE=offline"),
]

# held-out-23 (facebookresearch/optimizers PR 257's shape): the node exists, but the mapping merged into it
# brings `momentum`, which AdamW's node lacks; the message says the merge, not a missing node
from preflight.rules.plan._pf262_examples import _APP as _OPTIMIZER_APP  # noqa: E402

PF526_BAD.append(_OPTIMIZER_APP.format(
    pin="  # error: PF526", override="'optimizer={_target_:torch.optim.SGD,lr:0.1,momentum:0.9}'"))
PF526_GOOD.append(_OPTIMIZER_APP.format(
    pin="", override="'~optimizer' '+optimizer={_target_:torch.optim.SGD,lr:0.1,momentum:0.9}'"))
