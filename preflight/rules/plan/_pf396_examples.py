"""PF396 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# a CIFAR job logged through accelerate's tracker (accelerate issue 520's shape)
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    {extra_import}

    def main():
        accelerator = Accelerator(log_with={tracker}, project_dir="runs"){pin}
        model = torch.nn.Linear(32, 10)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model, optimizer = accelerator.prepare(model, optimizer)
        accelerator.init_trackers("cifar10", config={{"lr": 0.1}})
        accelerator.log({{"loss": 0.0}}, step=0)
        accelerator.end_training()


    if __name__ == "__main__":
        main()
    # --- requirements.txt
    accelerate=={accelerate}
    torch==1.12.0
    {requirement}
    """)

PF396_BAD = [
    _JOB.format(extra_import="", tracker='"wandb"', pin="  # warning: PF396", requirement="",
                accelerate="0.10.0"),
    _JOB.format(extra_import="", tracker='["tensorboard"]', pin="  # warning: PF396", requirement="wandb",
                accelerate="0.9.0"),
]

PF396_GOOD = [
    # tricky: a later accelerate (its handling of a missing tracker was not checked: silent)
    _JOB.format(extra_import="", tracker='"wandb"', pin="", requirement="", accelerate="0.32.1"),
    # the fix
    _JOB.format(extra_import="", tracker='"wandb"', pin="", requirement="wandb==0.12.21", accelerate="0.10.0"),
    # tricky: tensorboardX provides the tensorboard tracker
    _JOB.format(extra_import="", tracker='"tensorboard"', pin="", requirement="tensorboardX>=2.5",
                accelerate="0.10.0"),
    # tricky: the script imports the package itself (present, or a different failure)
    _JOB.format(extra_import="import wandb\n", tracker='"wandb"', pin="", requirement="",
                accelerate="0.10.0"),
    # tricky: every installed tracker
    _JOB.format(extra_import="", tracker='"all"', pin="", requirement="", accelerate="0.10.0"),
]
