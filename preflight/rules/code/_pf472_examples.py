"""PF472 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # kakaobrain/scrl issue 5: a trainer method saves the best checkpoint, called on every DDP process
    textwrap.dedent("""
    import os

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    class Trainer:
        def __init__(self, model, cfg, loader):
            self.local_rank = int(os.environ["LOCAL_RANK"])
            self.model = DDP(model.cuda(), device_ids=[self.local_rank])
            self.cfg, self.loader = cfg, loader
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"])
            self.best = 0.0

        def train(self):
            for epoch in range(self.cfg["max_epochs"]):
                for x, y in self.loader:
                    loss = torch.nn.functional.cross_entropy(self.model(x.cuda()), y.cuda())
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
                score = self.evaluate()
                if score > self.best:
                    self.best = score
                    self._save_checkpoint("best")  # warning: PF472

        def evaluate(self):
            return 0.0

        def _save_checkpoint(self, tag):
            torch.save({"model": self.model.module.state_dict()}, f"{self.cfg['save_dir']}/checkpoint_{tag}.pth")


    def main(model, loader):
        dist.init_process_group("nccl")
        Trainer(model, {"lr": 0.05, "max_epochs": 200, "save_dir": "ckpt"}, loader).train()
"""),
    # the save in the training function itself, after each epoch
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel


    def train(model, loader, local_rank, epochs):
        dist.init_process_group("nccl")
        model = DistributedDataParallel(model.to(local_rank), device_ids=[local_rank])
        opt = torch.optim.AdamW(model.parameters())
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            torch.save(model.module.state_dict(), "last.pt")  # warning: PF472
"""),
    # det77, the reports' shape (bytedance/ibot#15, OpenGVLab/efficient-video-recognition#18): the script's
    # `main` trains and saves after every epoch on every process (a function named `main` is the entry
    # point, not a main-process helper)
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel


    def main(net, loader, epochs):
        dist.init_process_group("nccl")
        rank = dist.get_rank()
        model = DistributedDataParallel(net.cuda(), device_ids=[rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            torch.save(model.module.state_dict(), "checkpoint.pth")  # warning: PF472
"""),
]

GOOD_EXAMPLES = [
    # the fix: the save on rank 0 only
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel


    def train(model, loader, local_rank, epochs):
        dist.init_process_group("nccl")
        model = DistributedDataParallel(model.to(local_rank), device_ids=[local_rank])
        opt = torch.optim.AdamW(model.parameters())
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            if dist.get_rank() == 0:
                torch.save(model.module.state_dict(), "last.pt")
"""),
    # tricky-correct: the helper returns early off the main process; a helper named for the master;
    # a per-rank file; a guard on args.local_rank in (-1, 0)
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel


    def is_main_process():
        return not dist.is_initialized() or dist.get_rank() == 0


    def save_checkpoint(state, path):
        if not is_main_process():
            return
        torch.save(state, path)


    def save_on_master(state, path):
        torch.save(state, path)


    def train(model, loader, args, epochs):
        model = DistributedDataParallel(model.cuda(), device_ids=[args.local_rank])
        opt = torch.optim.AdamW(model.parameters())
        rank = dist.get_rank()
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            save_checkpoint({"model": model.module.state_dict()}, "last.pt")
            save_on_master({"model": model.module.state_dict()}, "last2.pt")
            torch.save(opt.state_dict(), f"optim_rank{rank}.pt")
            shard_path = f"shard_{rank}.pt"
            torch.save(model.module.state_dict(), shard_path)
"""),
    # tricky-correct: the file already chooses its saving rank (a guard on args.local_rank in (-1, 0)
    # around one save): another save reached through a trainer flag is not second-guessed
    textwrap.dedent("""
    import torch
    from torch.nn.parallel import DistributedDataParallel


    def save_model(model, path):
        torch.save(model.state_dict(), path)


    def train(model, loader, args, epochs):
        model = DistributedDataParallel(model.cuda(), device_ids=[args.local_rank])
        opt = torch.optim.AdamW(model.parameters())
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            if args.should_save:
                save_model(model.module, "last.pt")
        if args.local_rank in (-1, 0):
            save_model(model.module, "final.pt")
"""),
    # tricky-correct: a helper with no caller in this file (the caller may guard it), and a
    # training loop without DistributedDataParallel
    textwrap.dedent("""
    import torch


    def export(model, path):
        torch.save(model.state_dict(), path)


    def train(model, loader, epochs):
        opt = torch.optim.AdamW(model.parameters())
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            torch.save(model.state_dict(), "last.pt")
"""),
    # det77: the fix of the `main` shape, the save on rank 0 only
    textwrap.dedent("""
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel


    def main(net, loader, epochs):
        dist.init_process_group("nccl")
        rank = dist.get_rank()
        model = DistributedDataParallel(net.cuda(), device_ids=[rank])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(epochs):
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if rank == 0:
                torch.save(model.module.state_dict(), "checkpoint.pth")
"""),
]
