"""PF430 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF430_BAD = [
    # accelerate issue 2926
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(model, train_loader, epochs=100):
        accelerator = Accelerator()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.1)  # warning: PF430
        model, optimizer, train_loader, scheduler = accelerator.prepare(model, optimizer, train_loader, scheduler)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                accelerator.backward(torch.nn.functional.cross_entropy(model(x), y))
                optimizer.step()
            scheduler.step()
"""),
]

PF430_GOOD = [
    # the epoch scheduler is not prepared; a per-step scheduler is prepared and stepped per batch
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import get_linear_schedule_with_warmup


    def main(model, train_loader, epochs=100):
        accelerator = Accelerator()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        epoch_sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20)
        warmup = get_linear_schedule_with_warmup(optimizer, 100, 10000)
        model, optimizer, train_loader, warmup = accelerator.prepare(model, optimizer, train_loader, warmup)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                accelerator.backward(model(x, y))
                optimizer.step()
                warmup.step()
            epoch_sched.step()
"""),
    # the Accelerator steps prepared schedulers once per call
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def main(model, train_loader, epochs=100):
        accelerator = Accelerator(step_scheduler_with_optimizer=False)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20)
        model, optimizer, train_loader, scheduler = accelerator.prepare(model, optimizer, train_loader, scheduler)
        for epoch in range(epochs):
            for x, y in train_loader:
                optimizer.zero_grad()
                accelerator.backward(model(x, y))
                optimizer.step()
            scheduler.step()
"""),
    # accelerate's manual-accumulation example: optimizer and scheduler step together after an inner
    # micro-batch loop; diffusers: the step is in the batch loop, which holds a validation loop
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator
    from transformers import get_constant_schedule


    def main(model, optimizer, train_dataloader, num_epochs, updates, accum):
        accelerator = Accelerator()
        lr_scheduler = get_constant_schedule(optimizer=optimizer)
        model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(model, optimizer, train_dataloader,
                                                                               lr_scheduler)
        for epoch in range(num_epochs):
            it = iter(train_dataloader)
            for update_step in range(updates):
                for _ in range(accum):
                    accelerator.backward(model(**next(it)).loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()


    def diffusers(unet, optimizer, train_dataloader, epochs, prompts):
        accelerator = Accelerator()
        lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0)
        unet, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(unet, optimizer, train_dataloader,
                                                                              lr_scheduler)
        for epoch in range(epochs):
            for step, batch in enumerate(train_dataloader):
                with accelerator.accumulate(unet):
                    accelerator.backward(unet(batch).loss)
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad()
                for prompt in prompts:
                    unet(prompt)
"""),
]
