"""PF185 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones mark each line they must be reported on (``# warning: PF185``), good ones stay silent."""

from __future__ import annotations

import textwrap

# Hydra PR 651's review: requeueing on timeout is only safe for a task function that resumes
_TRAIN = textwrap.dedent("""
    # --- train.py
    import os

    import hydra
    import torch
    import torch.nn.functional as F
    from hydra.core.hydra_config import HydraConfig

    from data import make_loader
    from wrn import WideResNet


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = WideResNet().cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.optim.lr)
        loader = make_loader(cfg.data.root)
        last = os.path.join(HydraConfig.get().runtime.output_dir, "last.pt")
        {resume}
        for epoch in range({start}, cfg.optim.epochs):
            for x, y in loader:
                loss = F.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            torch.save({{"model": model.state_dict(), "epoch": epoch}}, last)


    if __name__ == "__main__":
        main()
""")
_RESUME = ('if os.path.exists(last):\n'
           '            state = torch.load(last)\n'
           '            model.load_state_dict(state["model"])')

_OWN_LAUNCHER = """\
# --- conf/config.yaml
defaults:
  - override hydra/launcher: slurm
  - _self_

optim:
  lr: 0.1
  epochs: 100
data:
  root: /datasets/cifar100
# --- conf/hydra/launcher/slurm.yaml
defaults:
  - submitit_slurm

timeout_min: 240
max_num_timeout: {count}{pin}
gpus_per_node: 1
# --- launch
python train.py -m optim.lr=0.1,0.05
"""

_IN_PRIMARY = """\
# --- conf/config.yaml
defaults:
  - override hydra/launcher: submitit_slurm
  - _self_

optim:
  lr: 0.1
  epochs: 100
data:
  root: /datasets/cifar100
hydra:
  launcher:
    timeout_min: 600
    max_num_timeout: {count}{pin}
# --- launch
python train.py -m optim.lr=0.1,0.05
"""

BAD_EXAMPLES = [
    _TRAIN.format(resume="", start="0") + _OWN_LAUNCHER.format(count=5, pin="  # warning: PF185"),
    _TRAIN.format(resume="", start="0") + _IN_PRIMARY.format(count=3, pin="  # warning: PF185"),
]

GOOD_EXAMPLES = [
    # the fix: the task function reloads its last state
    _TRAIN.format(resume=_RESUME, start="0") + _OWN_LAUNCHER.format(count=5, pin=""),
    # no requeue on timeout (the launcher's default)
    _TRAIN.format(resume="", start="0") + _OWN_LAUNCHER.format(count=0, pin=""),
    # tricky: a resume flag handled by the script
    _TRAIN.format(resume="start = cfg.get('resume_epoch', 0)", start="start") + _IN_PRIMARY.format(count=3, pin=""),
    # tricky: the local launcher is not submitit
    _TRAIN.format(resume="", start="0") + _IN_PRIMARY.format(count=3, pin="").replace("submitit_slurm", "joblib"),
]
