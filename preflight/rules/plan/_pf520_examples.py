"""PF520 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    from accelerate import Accelerator


    def train(args, model, loader):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps){pin}
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
    {body}


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        parser.add_argument("--lr", type=float, default=1e-4)
        train(parser.parse_args(), None, None)
""")

_PLAIN = """\
        loss = model(batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()"""

_ACCUMULATE = """\
        with accelerator.accumulate(model):
            loss = model(batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()"""

PF520_BAD = [
    # DMD2 issue 23: the launch line asks for 4, the loop never enters accumulate
    _TRAIN.format(pin="  # error: PF520", body=_PLAIN) + """\
# --- launch
accelerate launch --multi_gpu --num_processes 8 train.py --gradient_accumulation_steps 4
""",
]

PF520_GOOD = [
    # the fix: the step runs inside accelerator.accumulate
    _TRAIN.format(pin="", body=_ACCUMULATE) + """\
# --- launch
accelerate launch --multi_gpu --num_processes 8 train.py --gradient_accumulation_steps 4
""",
    # the launch line leaves it at 1
    _TRAIN.format(pin="", body=_PLAIN) + """\
# --- launch
accelerate launch --multi_gpu --num_processes 8 train.py --lr 3e-4
""",
    # the loop steps on the accelerator's own window
    _TRAIN.format(pin="", body="""\
        loss = model(batch).loss
        accelerator.backward(loss)
        if accelerator.sync_gradients:
            optimizer.step()
            optimizer.zero_grad()""") + """\
# --- launch
accelerate launch train.py --gradient_accumulation_steps 4
""",
    # DeepSpeed accumulates in its engine
    _TRAIN.format(pin="", body=_PLAIN) + """\
# --- launch
accelerate launch --use_deepspeed --zero_stage 2 --num_processes 2 train.py --gradient_accumulation_steps 4
""",
]
