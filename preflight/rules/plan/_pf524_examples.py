"""PF524 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
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
""")

PF524_BAD = [
    # transformers issue 26827 (run_translation_no_trainer): two processes, the launch line's step count
    _TRAIN.format(total="args.max_train_steps", pin="  # warning: PF524") + """\
# --- launch
accelerate launch --multi_gpu --num_processes 2 train.py --max_train_steps 200000 --num_warmup_steps 4000
""",
    # transformers PR 24088: the total counted from the loader after prepare (one process's batches),
    # then the scheduler prepared in a second call
    textwrap.dedent("""
    # --- train.py
    import math

    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler


    def train(model, train_dataloader, epochs=3, accumulation=1):
        accelerator = Accelerator(gradient_accumulation_steps=accumulation)
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        num_update_steps_per_epoch = math.ceil(len(train_dataloader) / accumulation)
        max_train_steps = epochs * num_update_steps_per_epoch
        lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=500,
                                     num_training_steps=max_train_steps)  # warning: PF524
        lr_scheduler = accelerator.prepare(lr_scheduler)
        for batch in train_dataloader:
            with accelerator.accumulate(model):
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
"""),
]

PF524_BAD.append(
    # accelerate issue 2882: torch's OneCycleLR sized from the prepared loader, prepared in a second call
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def main(model, train_dataloader, epochs, lr):
        accelerator = Accelerator(gradient_accumulation_steps=1)
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        lr_scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=epochs * len(train_dataloader))  # warning: PF524
        lr_scheduler = accelerator.prepare(lr_scheduler)
        for epoch in range(epochs):
            for batch in train_dataloader:
                with accelerator.accumulate(model):
                    accelerator.backward(model(**batch).loss)
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
"""))

PF524_GOOD = [
    # the 24088 fix shapes: counted before prepare from the full loader and prepared together
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import get_linear_schedule_with_warmup


    def train(model, train_dataloader, num_epochs):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        t_total = int(len(train_dataloader) * num_epochs)
        scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=100, num_training_steps=t_total)
        model, optimizer, train_dataloader, scheduler = accelerator.prepare(model, optimizer, train_dataloader,
                                                                            scheduler)
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
"""),
    # counted after prepare, but the scheduler is not prepared: stepped once per optimizer step
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import get_scheduler


    def train(model, train_dataloader, epochs=3):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        max_train_steps = epochs * len(train_dataloader)
        lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=500,
                                     num_training_steps=max_train_steps)
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
"""),
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

PF524_GOOD += [
    # the fix of issue 2882: the OneCycleLR total scaled by the number of processes
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def main(model, train_dataloader, epochs, lr):
        accelerator = Accelerator(gradient_accumulation_steps=1)
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        total = epochs * len(train_dataloader) * accelerator.num_processes
        lr_scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=total)
        lr_scheduler = accelerator.prepare(lr_scheduler)
        for epoch in range(epochs):
            for batch in train_dataloader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
"""),
    # tricky: sized from the prepared loader but never prepared: stepped once per optimizer step
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator


    def main(model, train_dataloader, epochs, lr):
        accelerator = Accelerator()
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        lr_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs * len(train_dataloader))
        for epoch in range(epochs):
            for batch in train_dataloader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
"""),
]

# the total comes from an object preflight cannot resolve, but the same count bounds the loop
_LOOP = textwrap.dedent("""
    # --- train_dreambooth.py
    import torch
    from accelerate import Accelerator
    from diffusers.optimization import get_scheduler


    def main(args, unet, train_dataloader):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        optimizer = torch.optim.AdamW(unet.parameters(), lr=args.learning_rate)
        lr_scheduler = get_scheduler(args.lr_scheduler, optimizer=optimizer, num_warmup_steps=args.lr_warmup_steps,
                                     num_training_steps={total}){pin}
        unet, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
            unet, optimizer, train_dataloader, lr_scheduler)
        global_step = 0
        while global_step < args.max_train_steps:
            for batch in train_dataloader:
                with accelerator.accumulate(unet):
                    accelerator.backward(unet(**batch).loss)
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad()
                if accelerator.sync_gradients:
                    global_step += 1
                if global_step >= args.max_train_steps:
                    break
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train_dreambooth.py
""")

PF524_BAD += [
    # diffusers issue 3954: the DreamBooth example's cosine schedule ends after a quarter of the run
    _LOOP.format(total="args.max_train_steps", pin="  # warning: PF524"),
    # LTX-Video-Trainer issue 67: a LinearLR held by the trainer object, sized by the loop's bound
    textwrap.dedent("""
    # --- trainer.py
    import torch
    from accelerate import Accelerator
    from torch.optim.lr_scheduler import LinearLR


    class Trainer:
        def __init__(self, config, model, loader):
            self.config = config
            self.accelerator = Accelerator(mixed_precision="bf16")
            self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate)
            self.lr_scheduler = LinearLR(self.optimizer, start_factor=1.0, end_factor=0.1,
                                         total_iters=self.config.steps)  # warning: PF524
            (self.model, self.optimizer, self.loader,
             self.lr_scheduler) = self.accelerator.prepare(model, self.optimizer, loader, self.lr_scheduler)

        def train(self):
            step = 0
            while step < self.config.steps:
                for batch in self.loader:
                    self.accelerator.backward(self.model(**batch).loss)
                    self.optimizer.step()
                    self.lr_scheduler.step()
                    self.optimizer.zero_grad()
                    step += 1
    # --- launch
    accelerate launch --num_processes 4 trainer.py
"""),
]

PF524_GOOD += [
    # the fix of issue 3954: the schedule counted in all processes' steps
    _LOOP.format(total="args.max_train_steps * accelerator.num_processes", pin=""),
    # tricky: the same count bounds the loop, but the scheduler is not passed to prepare
    _LOOP.format(total="args.max_train_steps", pin="").replace(
        "unet, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(\n"
        "        unet, optimizer, train_dataloader, lr_scheduler)",
        "unet, optimizer, train_dataloader = accelerator.prepare(unet, optimizer, train_dataloader)"),
]

PF524_GOOD.append(
    # tricky: the no_trainer shape: the bound is computed from the full loader before prepare when not
    # given, so the schedule may be counted in every process's steps
    _LOOP.format(total="args.max_train_steps", pin="").replace(
        "    optimizer = torch.optim.AdamW(",
        "    if args.max_train_steps is None:\n"
        "        args.max_train_steps = args.num_train_epochs * len(train_dataloader)\n"
        "    optimizer = torch.optim.AdamW("),
)

_SCRIPT = textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from transformers import get_cosine_schedule_with_warmup

    accelerator = Accelerator(mixed_precision="bf16")
    model, train_loader = build()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    {before}model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    {after}lr_scheduler = get_cosine_schedule_with_warmup(optimizer, num_warmup_steps=500,
                                                   num_training_steps=num_training_steps){pin}
    lr_scheduler = accelerator.prepare(lr_scheduler)
    for epoch in range(10):
        for batch in train_loader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes 2 train.py
""")

# held-out-23 (accelerate issue 2142): a script's top-level code sizes the schedule from the prepared loader
PF524_BAD.append(_SCRIPT.format(before="", after="num_training_steps = 10 * len(train_loader)\n",
                                pin="  # warning: PF524"))
# the fix: counted from the full loader before prepare (every process's batches)
PF524_GOOD.append(_SCRIPT.format(before="num_training_steps = 10 * len(train_loader)\n", after="", pin=""))
# tricky-correct (held-out-21, musubi-tuner issue 44 shape): two processes under accelerate's DeepSpeed plugin, the
# launch line's step count: prepare returns a DeepSpeedSchedulerWrapper, stepped once per optimizer step by the engine
PF524_GOOD.append(_TRAIN.format(total="args.max_train_steps", pin="") + """\
# --- ds_zero2.json
{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 2}}
# --- launch
accelerate launch --num_processes 2 --use_deepspeed --deepspeed_config_file ds_zero2.json train.py --max_train_steps 3000
""")
