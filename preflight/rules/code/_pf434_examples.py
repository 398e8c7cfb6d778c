"""PF434 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF434_BAD = [
    # open-instruct PR 1598: --max_grad_norm never reaches the DeepSpeed config builder
    textwrap.dedent("""
    import argparse

    import deepspeed


    def get_train_ds_config(stage=2, bf16=True, max_norm=1.0):
        return {"zero_optimization": {"stage": stage}, "bf16": {"enabled": bf16}, "gradient_clipping": max_norm}


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--deepspeed_stage", type=int, default=3)
        parser.add_argument("--max_grad_norm", type=float, default=0.5)  # warning: PF434
        parser.add_argument("--per_device_train_batch_size", type=int, default=1)
        args = parser.parse_args()
        ds_config = get_train_ds_config(stage=args.deepspeed_stage, bf16=True)
        ds_config["train_micro_batch_size_per_gpu"] = args.per_device_train_batch_size
        engine, _, _, _ = deepspeed.initialize(model=load_model(), config=ds_config)
        return engine
"""),
    # the destination spelt with dashes after a short flag (argparse's dest: weight_decay)
    textwrap.dedent("""
    import argparse

    import torch


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("-w", "--weight-decay", type=float, default=0.01)  # warning: PF434
        parser.add_argument("--epochs", type=int, default=3)
        args = parser.parse_args()
        model = build_model()
        opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        for _ in range(args.epochs):
            for batch in loader:
                model(batch).loss.backward()
                opt.step()
                opt.zero_grad()
"""),
]

PF434_GOOD = [
    # the fix: the option is passed
    textwrap.dedent("""
    import argparse

    import deepspeed


    def get_train_ds_config(stage=2, max_norm=1.0):
        return {"zero_optimization": {"stage": stage}, "gradient_clipping": max_norm}


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--deepspeed_stage", type=int, default=3)
        parser.add_argument("--max_grad_norm", type=float, default=0.5)
        args = parser.parse_args()
        ds_config = get_train_ds_config(stage=args.deepspeed_stage, max_norm=args.max_grad_norm)
        engine, _, _, _ = deepspeed.initialize(model=load_model(), config=ds_config)
        return engine
"""),
    # the namespace goes whole to code this file does not show; an option that is no hyper-parameter
    """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--weight_decay", type=float, default=0.0)
    parser.add_argument("--logging_dir", type=str, default="logs")
    args = parser.parse_args()
    trainer = build_trainer(args)
    trainer.train()
""",
    # read through getattr with the option's name
    """
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--warmup_steps", type=int, default=100)
parser.add_argument("--lr", type=float, default=1e-4)
args = parser.parse_args()
opt = make_optimizer(args.lr)
sched = make_schedule(opt, getattr(args, "warmup_steps"))
for batch in loader:
    loss(batch).backward()
    opt.step()
""",
]
