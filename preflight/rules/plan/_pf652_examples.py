"""PF652 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# kohya-ss sd-scripts before PR 2426: --max_train_epochs overwrites --max_train_steps
_SD = textwrap.dedent("""
    # --- train_network.py
    import argparse
    import math


    def train(args, accelerator, train_dataloader):
        if args.max_train_epochs is not None:
    {body}
        for epoch in range(math.ceil(args.max_train_steps / len(train_dataloader))):
            pass


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--max_train_steps", type=int, default=1600)
        parser.add_argument("--max_train_epochs", type=int, default=None)
        train(parser.parse_args(), None, None)
    # --- launch
    accelerate launch train_network.py --max_train_epochs 10 --max_train_steps 2500
""")
_OVERWRITE = ("        args.max_train_steps = args.max_train_epochs * math.ceil(  # warning: PF652\n"
              "            len(train_dataloader) / accelerator.num_processes)")

# LM-BFF's Trainer: the epochs follow max_steps whenever it is positive
_LMBFF = textwrap.dedent("""
    # --- run.py
    from transformers import HfArgumentParser, TrainingArguments

    from trainer import Trainer

    (training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    Trainer(model=None, args=training_args).train()
    # --- trainer.py
    import transformers


    class Trainer(transformers.Trainer):
        def train(self, model_path=None):
            loader = self.get_train_dataloader()
            per_epoch = max(len(loader) // self.args.gradient_accumulation_steps, 1)
            if self.args.max_steps > 0:
                t_total = self.args.max_steps
                num_train_epochs = self.args.max_steps // per_epoch + int(self.args.max_steps % per_epoch > 0){pin}
            else:
                t_total = per_epoch * self.args.num_train_epochs
                num_train_epochs = self.args.num_train_epochs
            for epoch in range(int(num_train_epochs)):
                pass
    # --- launch
    python run.py --output_dir result --do_train --max_steps {max_step} --num_train_epochs 2
""")

PF652_BAD = [
    # sd-scripts PR 2426: the 2,500-step cap replaced by the steps of 10 epochs
    _SD.format(body=_OVERWRITE),
    # LM-BFF issue 12: --num_train_epochs 2 replaced by 1000 steps (250 epochs of a few-shot set)
    _LMBFF.format(max_step="1000", pin="  # warning: PF652"),
    # `if args.epochs:` overwriting an iteration budget, on a namespace called opt
    textwrap.dedent("""
    # --- train.py
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--niter", type=int, default=100000)
    parser.add_argument("--epochs", type=int, default=0)
    opt = parser.parse_args()
    loader = make_loader(opt)
    if opt.epochs:
        opt.niter = opt.epochs * len(loader)  # warning: PF652
    for it in range(opt.niter):
        step(it)
    # --- launch
    python train.py --niter 20000 --epochs 5
"""),
]

# jasonppy/VoiceCraft steps/trainer.py: `!= None` on the steps, the epochs overwritten from them
PF652_BAD.append(textwrap.dedent("""
    # --- trainer.py
    import argparse
    import math


    class Trainer:
        def __init__(self, args, dataset_length):
            self.args = args
            if self.args.num_steps != None:
                self.total_step = self.args.num_steps
                self.args.num_epochs = math.ceil(self.total_step / (dataset_length / args.batch_size))  # warning: PF652
            else:
                self.total_step = int(dataset_length / self.args.batch_size) * self.args.num_epochs


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--num_steps", type=int, default=None)
        parser.add_argument("--num_epochs", type=int, default=10)
        parser.add_argument("--batch_size", type=int, default=32)
        Trainer(parser.parse_args(), 100000)
    # --- launch
    torchrun --nproc_per_node 4 trainer.py --num_epochs 20 --num_steps 50000 --batch_size 16
"""))

PF652_GOOD = [
    # the fix (sd-scripts PR 2426): an explicit --max_train_steps stays a cap
    _SD.format(body="        epoch_steps = args.max_train_epochs * len(train_dataloader)\n"
                    "        if args.max_train_steps is not None and args.max_train_steps < epoch_steps:\n"
                    "            print('max_train_steps caps the epochs')\n"
                    "        else:\n"
                    "            args.max_train_steps = epoch_steps"),
    # tricky-correct: the same code launched with only one of the two options
    _SD.format(body=_OVERWRITE.replace("  # warning: PF652", "")).replace(" --max_train_steps 2500", ""),
    # tricky-correct: the user's value is read in the new one (min keeps it as a cap)
    _SD.format(body="        args.max_train_steps = min(args.max_train_steps, args.max_train_epochs * len(train_dataloader))"),
    # tricky-correct (LM-BFF's fix): --max_steps -1, the guard does not hold
    _LMBFF.format(max_step="-1", pin=""),
    # tricky-correct (diffusers examples): the steps are derived only when not given
    textwrap.dedent("""
    # --- train.py
    import argparse
    import math

    parser = argparse.ArgumentParser()
    parser.add_argument("--max_train_steps", type=int, default=None)
    parser.add_argument("--num_train_epochs", type=int, default=1)
    args = parser.parse_args()
    loader = make_loader(args)
    if args.max_train_steps is None:
        args.max_train_steps = args.num_train_epochs * len(loader)
    args.num_train_epochs = math.ceil(args.max_train_steps / len(loader))
    # --- launch
    accelerate launch train.py --max_train_steps 5000 --num_train_epochs 100
"""),
    # tricky-correct: an option that does not size the run is set from a budget option
    textwrap.dedent("""
    # --- train.py
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--save_every", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args()
    if args.epochs > 50:
        args.lr = 0.01
        args.save_every = 5
    # --- launch
    python train.py --epochs 100 --lr 0.1 --save_every 2
"""),
]
