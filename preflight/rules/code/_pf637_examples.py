"""PF637 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF637_BAD = [
    # held-out-30 (accelerate issue 435): the by_feature gradient-accumulation example on 0.10.0
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.optim import AdamW

    accelerator = Accelerator()
    optimizer = AdamW(params=model.parameters(), lr=2e-5)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        for step, batch in enumerate(train_dataloader):
            if step % gradient_accumulation_steps == 0:  # error: PF637
                with accelerator.no_sync(model):
                    loss = model(**batch).loss / gradient_accumulation_steps
                    accelerator.backward(loss)
            else:
                loss = model(**batch).loss / gradient_accumulation_steps
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
    # the same inversion written with `!= 0`, plain PyTorch, a literal window
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x), y) / 8
        if i % 8 != 0:  # error: PF637
            loss.backward()
            opt.step()
            opt.zero_grad()
        else:
            loss.backward()
"""),
]

PF637_GOOD = [
    # the fix (accelerate PR 459): accumulate while the window is open, step on its last batch
    textwrap.dedent("""
    from accelerate import Accelerator
    from torch.optim import AdamW

    accelerator = Accelerator()
    optimizer = AdamW(params=model.parameters(), lr=2e-5)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    for epoch in range(3):
        for step, batch in enumerate(train_dataloader):
            if (step + 1) % gradient_accumulation_steps != 0:
                with accelerator.no_sync(model):
                    loss = model(**batch).loss / gradient_accumulation_steps
                    accelerator.backward(loss)
            else:
                loss = model(**batch).loss / gradient_accumulation_steps
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
"""),
    # tricky-correct: WGAN training, the critic steps every batch and the generator every n-th:
    # both branches step an optimizer
    textwrap.dedent("""
    import torch

    opt_d = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    opt_g = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
    for i, real in enumerate(loader):
        fake = generator(torch.randn(real.size(0), 100))
        if i % n_critic == 0:
            opt_g.zero_grad()
            (-critic(fake).mean()).backward()
            opt_g.step()
        else:
            opt_d.zero_grad()
            (critic(fake.detach()).mean() - critic(real).mean()).backward()
            opt_d.step()
"""),
    # tricky-correct: the non-zero branch only skips; the step follows the guard
    textwrap.dedent("""
    import torch

    model = torch.nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x), y) / 4
        loss.backward()
        if (i + 1) % 4 != 0:
            continue
        opt.step()
        opt.zero_grad()
"""),
]
