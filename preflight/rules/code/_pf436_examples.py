"""PF436 examples: executable documentation (bad ones must fire, good ones stay silent)."""

from __future__ import annotations

import textwrap

PF436_BAD = [
    # accelerate issue 2785: the evaluation loop (and its gather) runs on the main process only
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, testloader = accelerator.prepare(model, testloader)
    model.eval()
    correct = 0
    if accelerator.is_main_process:
        for images, targets in testloader:
            with torch.no_grad():
                preds = model(images).argmax(-1)  # warning: PF479 (the DDP forward itself is a collective)
            preds, targets = accelerator.gather_for_metrics((preds, targets))  # error: PF436
            correct += (preds == targets).sum().item()
        print(correct)
"""),
    # a torch.distributed reduction and barrier on rank 0 only
    textwrap.dedent("""
    import torch
    import torch.distributed as dist


    def evaluate(model, loader, rank):
        total = torch.zeros(1, device="cuda")
        for x in loader:
            total += model(x).sum()
        if rank == 0:
            dist.all_reduce(total)  # error: PF436
            print(total.item())
            dist.barrier()  # error: PF436
"""),
]

PF436_GOOD = [
    # the fix: gather on every process, print on the main one
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, testloader = accelerator.prepare(model, testloader)
    model.eval()
    correct = 0
    for images, targets in testloader:
        with torch.no_grad():
            preds = model(images).argmax(-1)
        preds, targets = accelerator.gather_for_metrics((preds, targets))
        correct += (preds == targets).sum().item()
    if accelerator.is_main_process:
        print(correct)
"""),
    # both branches reduce; a metrics object's own gather; a project's all_reduce helper
    textwrap.dedent("""
    import torch.distributed as dist

    from utils import all_reduce


    def evaluate(total, rank, metric):
        if rank == 0:
            dist.all_reduce(total)
            print(total.item())
        else:
            dist.all_reduce(total)
        if rank == 0:
            metric.gather(total)
            all_reduce(total)
"""),
    # DeepSpeedExamples cifar10_deepspeed.py: "rank 0 downloads first"; every rank reaches one barrier
    textwrap.dedent("""
    import torch
    import torchvision


    def load():
        if torch.distributed.get_rank() != 0:
            torch.distributed.barrier()
        trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True)
        if torch.distributed.get_rank() == 0:
            torch.distributed.barrier()
        return trainset
"""),
]

# a file whose only rank-0 test is `is_local_main_process` (no "rank" anywhere): the barrier inside it
PF436_BAD.append(textwrap.dedent("""\
    from accelerate import Accelerator


    def fit(model, optimizer, loader, evaluate, epochs):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for epoch in range(epochs):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.is_local_main_process:
                score = evaluate(model)
                accelerator.wait_for_everyone()  # error: PF436
                print(epoch, score)
"""))

PF436_GOOD.append(textwrap.dedent("""\
    from accelerate import Accelerator


    def fit(model, optimizer, loader, evaluate, epochs):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for epoch in range(epochs):
            for batch in loader:
                accelerator.backward(model(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            score = evaluate(model)
            accelerator.wait_for_everyone()
            if accelerator.is_local_main_process:
                print(epoch, score)
"""))

# accelerate issue 2733: texts generated per process gathered with accelerate.utils.gather_object, but
# only inside the main-process branch (the all_gather_object waits for the other processes forever)
PF436_BAD.append(textwrap.dedent("""\
    import json

    from accelerate import Accelerator
    from accelerate.utils import gather_object


    def grade(model, tokenizer, prompts, path):
        accelerator = Accelerator()
        texts = []
        with accelerator.split_between_processes(prompts) as mine:
            for prompt in mine:
                ids = tokenizer(prompt, return_tensors="pt").to(accelerator.device)
                texts.append(tokenizer.decode(model.generate(**ids, max_new_tokens=64)[0]))
        if accelerator.is_main_process:
            everything = gather_object(texts)  # error: PF436
            with open(path, "w") as f:
                json.dump(everything, f)
"""))

# the same through the module name, and a broadcast under `state.is_main_process`
PF436_BAD.append(textwrap.dedent("""\
    import accelerate.utils as autils
    from accelerate import PartialState


    def share(scores, seeds):
        state = PartialState()
        if state.is_main_process:
            scores = autils.gather_object(scores)  # error: PF436
            autils.broadcast_object_list(seeds)  # error: PF436
        return scores, seeds
"""))

PF436_GOOD.append(textwrap.dedent("""\
    import json

    from accelerate import Accelerator
    from accelerate.utils import gather_object


    def grade(model, tokenizer, prompts, path):
        accelerator = Accelerator()
        texts = []
        with accelerator.split_between_processes(prompts) as mine:
            for prompt in mine:
                ids = tokenizer(prompt, return_tensors="pt").to(accelerator.device)
                texts.append(tokenizer.decode(model.generate(**ids, max_new_tokens=64)[0]))
        everything = gather_object(texts)  # every process takes part
        if accelerator.is_main_process:
            with open(path, "w") as f:
                json.dump(everything, f)
"""))

# tricky-correct: a project's own `gather_object` (a list flattener, not accelerate's) on the main process
PF436_GOOD.append(textwrap.dedent("""\
    import json

    from accelerate import Accelerator

    from utils.lists import gather_object


    def write(chunks, path):
        accelerator = Accelerator()
        if accelerator.is_main_process:
            rows = gather_object(chunks)
            with open(path, "w") as f:
                json.dump(rows, f)
"""))

# tricky: a tensor-parallel gather under a data-parallel rank test: every member of `tp_group` has
# data-parallel rank 0, so the whole group reaches the collective (a merged checkpoint written by
# the first data-parallel replica)
PF436_GOOD.append(textwrap.dedent("""\
    import torch
    import torch.distributed as dist


    def save_merged(model, path, tp_group, dp_rank, tp_rank, tp_size):
        state = model.state_dict()
        if dp_rank == 0:
            for key in sorted(state):
                parts = [torch.empty_like(state[key]) for _ in range(tp_size)] if tp_rank == 0 else None
                dist.gather(state[key].cuda(), dst=0, gather_list=parts, group=tp_group)
                if tp_rank == 0:
                    state[key] = torch.cat(parts, dim=0)
            if tp_rank == 0:
                torch.save(state, path)
"""))

# pytorch-lightning 1.0.x (the held-out-34 rebuild of "self.log with Metric in ddp"): the metric's
# compute() syncs the states of every rank, but only rank 0 calls it; ranks 1-3 wait in the barrier
PF436_BAD.append(textwrap.dedent("""\
    import pytorch_lightning as pl
    import torch.distributed as dist
    from pytorch_lightning.metrics import Accuracy


    class Classifier(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.val_acc = Accuracy()

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.val_acc.update(self.net(x).argmax(dim=-1), y)

        def validation_epoch_end(self, outputs):
            if self.global_rank == 0:
                self.log("val_acc", self.val_acc.compute())  # error: PF436
            dist.barrier()
"""))

# torchmetrics issue 938: a MetricCollection computed in a test run on rank 0 only (plain DDP)
PF436_BAD.append(textwrap.dedent("""\
    import torch
    import torch.distributed as dist
    import torchmetrics as tm

    metrics = tm.MetricCollection([tm.Accuracy(task="multiclass", num_classes=10),
                                   tm.F1Score(task="multiclass", num_classes=10)])


    def test(model, loader):
        if dist.get_rank() == 0:
            with torch.no_grad():
                for x, y in loader:
                    metrics.update(model(x), y)
            print(metrics.compute())  # error: PF436
"""))

# the fix: compute on every rank, log (or print) on rank 0
PF436_GOOD.append(textwrap.dedent("""\
    import pytorch_lightning as pl
    from torchmetrics import Accuracy


    class Classifier(pl.LightningModule):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.val_acc = Accuracy(task="multiclass", num_classes=20)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            self.val_acc.update(self.net(x).argmax(dim=-1), y)

        def on_validation_epoch_end(self):
            acc = self.val_acc.compute()
            if self.global_rank == 0:
                print(f"val acc {acc:.3f}")
            self.log("val_acc", acc, rank_zero_only=True)
            self.val_acc.reset()
"""))

# tricky: a metric that does not sync on compute (each rank's own value, read on rank 0), an HF
# `evaluate` metric (no collective), and a project's own `compute`
PF436_GOOD.append(textwrap.dedent("""\
    import evaluate
    from accelerate import Accelerator
    from torchmetrics.text import BLEUScore

    from stats import RunningMean

    accelerator = Accelerator()
    local_bleu = BLEUScore(sync_on_compute=False)
    rouge = evaluate.load("rouge")
    loss_mean = RunningMean()


    def report(preds, refs):
        local_bleu.update(preds, refs)
        if accelerator.is_main_process:
            print(local_bleu.compute())
            print(rouge.compute(predictions=preds, references=refs))
            print(loss_mean.compute())
"""))
