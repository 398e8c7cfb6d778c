"""PF128 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

PF128_BAD = [
    # huggingface/accelerate#1211 shape: the context entered once per epoch around the batch loop
    """
import torch
from accelerate import Accelerator

from data import build_loader
from model import build_model

accelerator = Accelerator(gradient_accumulation_steps=4)
model = build_model()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, build_loader())

for epoch in range(3):
    model.train()
    with accelerator.accumulate(model):  # error: PF128
        for batch in train_dataloader:
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            optimizer.zero_grad()
""",
    # inside a training function, the loop over an enumerate()d prepared loader
    """
import torch
from accelerate import Accelerator


def train(model, loader, epochs):
    accelerator = Accelerator(gradient_accumulation_steps=8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer, dl = accelerator.prepare(model, optimizer, loader)
    with accelerator.accumulate(model):  # error: PF128
        for epoch in range(epochs):
            for step, (x, y) in enumerate(dl):
                loss = torch.nn.functional.mse_loss(model(x), y)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
""",
]

PF128_GOOD = [
    # the fix: one context per batch
    """
import torch
from accelerate import Accelerator

from data import build_loader
from model import build_model

accelerator = Accelerator(gradient_accumulation_steps=4)
model = build_model()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, build_loader())

for epoch in range(3):
    model.train()
    for batch in train_dataloader:
        with accelerator.accumulate(model):
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            optimizer.zero_grad()
""",
    # tricky-correct: micro-chunks of one batch inside the context, inside the batch loop; a loop
    # without backward (logging) inside the context
    """
import torch
from accelerate import Accelerator


def train(model, loader, chunks=4):
    accelerator = Accelerator(gradient_accumulation_steps=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            for xc, yc in zip(x.chunk(chunks), y.chunk(chunks)):
                accelerator.backward(torch.nn.functional.mse_loss(model(xc), yc) / chunks)
            for group in optimizer.param_groups:
                accelerator.print(group["lr"])
            optimizer.step()
            optimizer.zero_grad()
""",
]
