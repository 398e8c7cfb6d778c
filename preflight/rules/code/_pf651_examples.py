"""PF651 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

PF651_BAD = [
    # SiT train.py: the checkpoint restores the optimizer, then train_steps restarts at 0
    textwrap.dedent("""
    import torch


    def main(args):
        model = build_model(args)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)
        if args.ckpt:
            state_dict = torch.load(args.ckpt, map_location="cpu")
            model.load_state_dict(state_dict["model"])
            opt.load_state_dict(state_dict["opt"])
        loader, sampler = build_loader(args)
        train_steps = 0  # warning: PF651
        for epoch in range(args.epochs):
            sampler.set_epoch(epoch)
            for x, y in loader:
                loss = model(x, y).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                train_steps += 1
                if train_steps % args.ckpt_every == 0:
                    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, f"{train_steps:07d}.pt")
    """),
    # musubi-tuner before PR 110: accelerator.load_state in a helper method, then global_step = 0
    textwrap.dedent("""
    import math


    class NetworkTrainer:
        def resume_from_local_if_specified(self, accelerator, args):
            if not args.resume:
                return
            accelerator.load_state(args.resume)

        def train(self, args, accelerator, network, optimizer, train_dataloader, lr_scheduler):
            network, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(
                network, optimizer, train_dataloader, lr_scheduler)
            self.resume_from_local_if_specified(accelerator, args)
            num_train_epochs = math.ceil(args.max_train_steps / len(train_dataloader))
            epoch_to_start = 0
            global_step = 0  # warning: PF651
            for epoch in range(epoch_to_start, num_train_epochs):
                for batch in train_dataloader:
                    with accelerator.accumulate(network):
                        loss = network(batch)
                        accelerator.backward(loss)
                        optimizer.step()
                        lr_scheduler.step()
                        optimizer.zero_grad()
                    if accelerator.sync_gradients:
                        global_step += 1
                    if global_step >= args.max_train_steps:
                        break
    """),
]

PF651_GOOD = [
    # the fix (SiT): the counters are saved with the state and read back
    textwrap.dedent("""
    import torch


    def main(args):
        model = build_model(args)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        train_steps = 0
        start_epoch = 0
        if args.ckpt:
            state_dict = torch.load(args.ckpt, map_location="cpu")
            model.load_state_dict(state_dict["model"])
            opt.load_state_dict(state_dict["opt"])
            train_steps = state_dict["train_steps"]
            start_epoch = state_dict["epoch"] + 1
        for epoch in range(start_epoch, args.epochs):
            for x, y in build_loader(args):
                loss = model(x, y).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                train_steps += 1
    """),
    # tricky-correct (diffusers examples): global_step = 0 before the resume, set from the folder name after
    textwrap.dedent("""
    import os


    def train(args, accelerator, model, optimizer, train_dataloader):
        global_step = 0
        first_epoch = 0
        if args.resume_from_checkpoint:
            path = os.path.basename(args.resume_from_checkpoint)
            accelerator.load_state(os.path.join(args.output_dir, path))
            global_step = int(path.split("-")[1])
            first_epoch = global_step // len(train_dataloader)
        for epoch in range(first_epoch, args.num_train_epochs):
            for batch in train_dataloader:
                with accelerator.accumulate(model):
                    loss = model(batch).loss
                    accelerator.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad()
                if accelerator.sync_gradients:
                    global_step += 1
    """),
    # tricky-correct: only the model's weights are loaded (initialisation, not a resume)
    textwrap.dedent("""
    import torch


    def finetune(args, model, loader):
        model.load_state_dict(torch.load(args.pretrained, map_location="cpu"))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        step = 0
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
    """),
    # tricky-correct: the helper returns the restored step (musubi-tuner after PR 110)
    textwrap.dedent("""
    import json
    import os


    class NetworkTrainer:
        def resume(self, accelerator, args):
            if not args.resume:
                return 0, 0
            accelerator.load_state(args.resume)
            with open(os.path.join(args.resume, "resume_metadata.json")) as f:
                meta = json.load(f)
            return meta["global_step"], meta["epoch"]

        def train(self, args, accelerator, network, optimizer, train_dataloader):
            resumed_step, resumed_epoch = self.resume(accelerator, args)
            global_step = resumed_step
            for epoch in range(resumed_epoch, args.epochs):
                for batch in train_dataloader:
                    loss = network(batch)
                    accelerator.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad()
                    global_step += 1
    """),
    # tricky-correct (pandallm trainer_base_fsdp_mul.py): the counter restarts on purpose and the loop
    # fast-forwards over the batches already trained
    textwrap.dedent("""
    import os

    import torch


    def train(cfg, model, optimizer, scheduler, loader, continue_from_global_step):
        if continue_from_global_step > 0:
            optimizer.load_state_dict(torch.load(os.path.join(cfg.resume, "optimizer.pt")))
        global_step = 0
        for epoch in range(int(cfg.num_train_epochs)):
            for step, batch in enumerate(loader):
                if global_step < continue_from_global_step:
                    if (step + 1) % cfg.gradient_accumulation_steps == 0:
                        scheduler.step()
                        global_step += 1
                    continue
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
                global_step += 1
    """),
    # tricky-correct (UMS-ResSel train.py): the epoch is restored (the loop starts at self.start_epoch)
    textwrap.dedent("""
    class Trainer:
        def _setup_training(self):
            if self.hparams.load_pthpath:
                self.start_epoch = int(self.hparams.load_pthpath.split("_")[-1][:-4]) + 1
                model_state_dict, optimizer_state_dict = load_checkpoint(self.hparams.load_pthpath)
                self.model.load_state_dict(model_state_dict)
                self.optimizer.load_state_dict(optimizer_state_dict)

        def train(self):
            self._setup_training()
            global_iteration_step = 0
            for epoch in range(self.start_epoch, self.hparams.num_epochs + 1):
                for batch in self.train_dataloader:
                    loss = self.model(batch)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
                    global_iteration_step += 1
                    self.writer.add_scalar("loss", loss.item(), global_iteration_step)
    """),
]
