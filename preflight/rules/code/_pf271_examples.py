"""PF271 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF271_BAD = [
    # accelerate PR 399's shape: the epoch's summed loss logged as the train loss
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def training_function(config, model, train_dataloader, optimizer):
        accelerator = Accelerator(log_with="all", project_dir=config["output_dir"])
        accelerator.init_trackers("nlp_example", config)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for epoch in range(config["num_epochs"]):
            model.train()
            total_loss = 0
            for step, batch in enumerate(train_dataloader):
                loss = model(**batch).loss
                total_loss += loss.detach().float()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.log({"train_loss": total_loss, "epoch": epoch}, step=epoch)  # warning: PF271
"""),
    # TensorBoard every 100 steps: the sum of 100 losses, reset after the log
    textwrap.dedent("""
    import torch
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter("runs/exp")
    running = 0.0
    for step, (x, y) in enumerate(data):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        if step % 100 == 99:
            writer.add_scalar("train/loss", float(running), step)  # warning: PF271
            running = 0.0
"""),
]

PF271_GOOD = [
    # tricky: the loss of one step is built from terms in a total reset at every batch (an
    # autoencoder's reconstruction + KL + adversarial terms): its value is this step's loss
    textwrap.dedent("""
    import torch
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter()
    for step, batch in enumerate(train_loader):
        x = batch.cuda()
        recon, posterior = vae(x)
        step_loss = torch.tensor(0.0, device=x.device)
        step_loss += recon_loss(recon, x) + 1e-6 * posterior.kl_sum()
        if use_gan:
            step_loss += 0.1 * gan_loss(disc(recon))
        optimizer.zero_grad()
        step_loss.backward()
        optimizer.step()
        writer.add_scalar("loss", step_loss.item(), step)
"""),
    # the fix: divided by the number of batches
    textwrap.dedent("""
    from accelerate import Accelerator


    def training_function(config, model, train_dataloader, optimizer):
        accelerator = Accelerator(log_with="all")
        accelerator.init_trackers("nlp_example", config)
        model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
        for epoch in range(config["num_epochs"]):
            total_loss = 0
            for step, batch in enumerate(train_dataloader):
                loss = model(**batch).loss
                total_loss += loss.detach().float()
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.log({"train_loss": total_loss.item() / len(train_dataloader)}, step=epoch)
"""),
    # tricky-correct: the window's losses are divided as they are added (accelerate issue 639's fix)
    textwrap.dedent("""
    window_loss = 0.0
    for step, batch in enumerate(train_dataloader):
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            window_loss += loss.item() / args.gradient_accumulation_steps
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            writer.add_scalar("loss_train", window_loss, step)
            window_loss = 0.0
"""),
    # tricky-correct: the loss was divided before it was added, the total divided in place,
    # a key that says it is a sum, and a sum over the terms of one loss (not over batches)
    textwrap.dedent("""
    def train(model, loader, optimizer, accum, writer, heads):
        tr_loss = 0.0
        epoch_loss = 0
        seen = 0
        for step, batch in enumerate(loader):
            loss = model(batch)
            loss = loss / accum
            loss.backward()
            tr_loss += loss.item()
            epoch_loss += loss.item()
            seen += 1
            if (step + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()
                writer.add_scalar("loss", tr_loss, step)
                tr_loss = 0.0
        epoch_loss /= seen
        writer.add_scalar("epoch_loss", epoch_loss, 0)
        writer.add_scalar("loss_sum", epoch_loss, 0)


    def training_step(self, batch, batch_idx):
        loss = 0
        for head in self.heads:
            loss += head(batch)
        self.log("train_loss", loss)
        return loss
"""),
]
