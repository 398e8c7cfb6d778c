"""PF474 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

BAD_EXAMPLES = [
    # accelerate issue 2882: OneCycleLR sized from the prepared loader, prepared in a second call
    """
import torch
from accelerate import Accelerator


def main(model, train_dataloader, epochs, lr):
    accelerator = Accelerator()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    lr_scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=epochs * len(train_dataloader))  # warning: PF474
    lr_scheduler = accelerator.prepare(lr_scheduler)
    for epoch in range(epochs):
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
""",
    # the count goes through a variable; transformers' get_scheduler
    """
import math

from accelerate import Accelerator
from transformers import get_scheduler


def train(model, optimizer, loader, args):
    accelerator = Accelerator(gradient_accumulation_steps=args.accum)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    steps_per_epoch = math.ceil(len(loader) / args.accum)
    max_train_steps = args.epochs * steps_per_epoch
    scheduler = get_scheduler("linear", optimizer, num_warmup_steps=100,  # warning: PF474
                              num_training_steps=max_train_steps)
    scheduler = accelerator.prepare(scheduler)
    for batch in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
""",
]

GOOD_EXAMPLES = [
    # the fix of issue 2882: the count scaled by the number of processes
    """
import torch
from accelerate import Accelerator


def main(model, train_dataloader, epochs, lr):
    accelerator = Accelerator()
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
""",
    # the accelerate examples' order: sized from the unprepared loader (whole dataset), then prepared
    """
from accelerate import Accelerator
from transformers import get_linear_schedule_with_warmup


def training_function(model, optimizer, train_dataloader, num_epochs):
    accelerator = Accelerator()
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer=optimizer, num_warmup_steps=100, num_training_steps=len(train_dataloader) * num_epochs)
    model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, lr_scheduler)
    for epoch in range(num_epochs):
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
""",
    # tricky: sized from the prepared loader but never prepared: stepped once per optimizer step
    """
import torch
from accelerate import Accelerator
from transformers import get_scheduler


def main(model, train_dataloader, eval_dataloader, num_epochs):
    accelerator = Accelerator()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader)
    lr_scheduler = get_scheduler("linear", optimizer, num_warmup_steps=0,
                                 num_training_steps=num_epochs * len(train_dataloader))
    for epoch in range(num_epochs):
        for batch in train_dataloader:
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
""",
    # tricky: split_batches=True: the prepared scheduler steps once per optimizer step
    """
import torch
from accelerate import Accelerator


def main(model, loader, epochs):
    accelerator = Accelerator(split_batches=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-4, total_steps=epochs * len(loader))
    scheduler = accelerator.prepare(scheduler)
    for epoch in range(epochs):
        for batch in loader:
            accelerator.backward(model(batch).loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
""",
]
