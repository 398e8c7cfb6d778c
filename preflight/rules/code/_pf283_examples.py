"""PF283 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF283`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

# kohya-ss/musubi-tuner issue 294's shape: per-batch losses at the global step, the epoch loss at epoch + 1
_ACCELERATE = textwrap.dedent("""
    import torch
    from accelerate import Accelerator


    def train(network, optimizer, loader, epochs):
        accelerator = Accelerator(log_with={log_with}, project_dir="runs", mixed_precision="bf16")
        accelerator.init_trackers("lora")
        network, optimizer, loader = accelerator.prepare(network, optimizer, loader)
        global_step = 0
        for epoch in range(epochs):
            total = 0.0
            for batch in loader:
                loss = network(**batch)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
                global_step += 1
                total += loss.item()
                accelerator.log({{"loss/current": loss.item()}}, step=global_step)
    {epoch_log}
        accelerator.end_training()
""")

BAD_EXAMPLES = [
    _ACCELERATE.format(log_with='"wandb"', epoch_log="""\
        accelerator.log({"loss/epoch": total / len(loader)}, step=epoch + 1)  # warning: PF283"""),
    # plain wandb: a validation score per epoch at step=epoch after training steps at a counter
    textwrap.dedent("""
    import torch
    import wandb


    def fit(model, optimizer, train_loader, val_loader, epochs):
        run = wandb.init(project="cls")
        step = 0
        for epoch in range(1, epochs + 1):
            model.train()
            for x, y in train_loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                step += 1
                if step % 50 == 0:
                    wandb.log({"train/loss": loss.item()}, step=step)
            acc = evaluate(model, val_loader)
            run.log({"val/acc": acc}, step=epoch)  # warning: PF283
"""),
]

GOOD_EXAMPLES = [
    # the fix: the epoch loss at the global step
    _ACCELERATE.format(log_with='"wandb"', epoch_log="""\
        accelerator.log({"loss/epoch": total / len(loader), "epoch": epoch + 1}, step=global_step)"""),
    # tricky-correct: TensorBoard keeps one step axis per tag
    _ACCELERATE.format(log_with='"tensorboard"', epoch_log="""\
        accelerator.log({"loss/epoch": total / len(loader)}, step=epoch + 1)"""),
    # tricky-correct: the tracker comes from the command line (not certainly wandb)
    _ACCELERATE.format(log_with="args.log_with", epoch_log="""\
        accelerator.log({"loss/epoch": total / len(loader)}, step=epoch + 1)"""),
    # tricky-correct: the epoch metric has its own axis
    textwrap.dedent("""
    import wandb


    def fit(model, optimizer, loader, epochs):
        wandb.init(project="cls")
        wandb.define_metric("val/*", step_metric="epoch")
        step = 0
        for epoch in range(epochs):
            for batch in loader:
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
                step += 1
                wandb.log({"train/loss": loss.item()}, step=step)
            wandb.log({"val/loss": validate(model), "epoch": epoch}, step=epoch)
"""),
]
