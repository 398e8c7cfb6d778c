"""PF524 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

_TRAIN = """
# --- train.py
import argparse

from accelerate import Accelerator
from transformers import get_scheduler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_train_steps", type=int, default=None)
    parser.add_argument("--num_warmup_steps", type=int, default=0)
    args = parser.parse_args()
    accelerator = Accelerator()
    model, optimizer, loader = build()
    lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=args.num_warmup_steps,
                                 num_training_steps={total}){pin}
    model, optimizer, loader, lr_scheduler = accelerator.prepare(model, optimizer, loader, lr_scheduler)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
"""

PF524_BAD = [
    # transformers issue 26827 (run_translation_no_trainer): two processes, the launch line's step count
    _TRAIN.format(total="args.max_train_steps", pin="  # warning: PF524") + """\
# --- launch
accelerate launch --multi_gpu --num_processes 2 train.py --max_train_steps 200000 --num_warmup_steps 4000
""",
]

PF524_GOOD = [
    # the fix
    _TRAIN.format(total="args.max_train_steps * accelerator.num_processes", pin="") + """\
# --- launch
accelerate launch --multi_gpu --num_processes 2 train.py --max_train_steps 200000 --num_warmup_steps 4000
""",
    # one process
    _TRAIN.format(total="args.max_train_steps", pin="") + """\
# --- launch
accelerate launch --num_processes 1 train.py --max_train_steps 200000
""",
    # the total is not given on the launch line (computed from the unsharded loader in the code)
    _TRAIN.format(total="args.max_train_steps", pin="") + """\
# --- launch
accelerate launch --multi_gpu --num_processes 2 train.py --num_warmup_steps 4000
""",
]
