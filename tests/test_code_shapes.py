"""Code shapes real projects use (issue 18, section 2), each from a cited real-code example.

The programs are short rewrites of the cited code (no third-party code is copied in); the
test states what a user sees: the finding, on the line it names, or silence."""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python


def findings(text: str, codes: tuple[str, ...]):
    text = textwrap.dedent(text)
    src = SourceText(path=Path("train.py"), display="train.py", kind="python", raw=text.encode(), text=text)
    return [(f.code, f.span.line) for f in analyse_parsed(parse_python(src), Selection(codes=codes))
            if f.code in codes]


# pytorch/examples@77f55b9 mnist/main.py: `def train(args, model, device, train_loader, optimizer, epoch)`
MNIST_TRAIN = """
import torch.nn.functional as F


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
"""


def test_optimizer_passed_in_as_a_parameter_is_followed():
    assert findings(MNIST_TRAIN, ("PF103", "PF104")) == []
    without = MNIST_TRAIN.replace("        optimizer.zero_grad()\n", "")
    assert findings(without, ("PF103",)) == [("PF103", 12)]
    moved = MNIST_TRAIN.replace("        optimizer.zero_grad()\n", "").replace(
        "        loss.backward()\n", "        loss.backward()\n        optimizer.zero_grad()\n")
    assert [c for c, _ in findings(moved, ("PF104",))] == ["PF104"]


# hydra-ecosystem/hydra issue 2028: `hydra.utils.instantiate(self.config.optimizers, params)`
HYDRA_OPTIMIZER = """
import hydra
import torch


class Runner:
    def fit(self, loader):
        params = [p for p in self.model.parameters() if p.requires_grad]
        optimizer = hydra.utils.instantiate(self.config.optimizers, params=params)
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            optimizer.step()
"""


def test_optimizer_built_by_hydra_instantiate_is_an_optimizer():
    assert findings(HYDRA_OPTIMIZER, ("PF103",)) == []
    without = HYDRA_OPTIMIZER.replace("            optimizer.zero_grad()\n", "")
    assert findings(without, ("PF103",)) == [("PF103", 13)]


def test_instantiate_of_a_scheduler_node_is_not_an_optimizer():
    text = """
    import hydra

    def build(cfg, optimizer):
        sched = hydra.utils.instantiate(cfg.scheduler, optimizer=optimizer)
        for x in range(10):
            sched.step()
    """
    assert findings(text, ("PF103", "PF104")) == []


# Lightning-AI/pytorch-lightning issue 21428 (LightningMNISTClassifier): `forward` ends in
# torch.softmax and `training_step` feeds `self(x)` to cross_entropy.
LIT_MNIST = """
import torch
import pytorch_lightning as pl


class LightningMNISTClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer_1 = torch.nn.Linear(28 * 28, 10)

    def forward(self, x):
        x = self.layer_1(x.view(x.size(0), -1))
        x = torch.softmax(x, dim=1)
        return x

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        return loss
"""


def test_self_call_resolves_to_forward():
    assert findings(LIT_MNIST, ("PF112",)) == [("PF112", 19)]
    fixed = LIT_MNIST.replace("        x = torch.softmax(x, dim=1)\n", "")
    assert findings(fixed, ("PF112",)) == []


# A public LightningModule binds the loss as an attribute alias:
# `self.loss_fn = F.binary_cross_entropy_with_logits` then `self.loss_fn(out.squeeze(), y)`.
LOSS_ALIAS = """
import torch
import torch.nn.functional as F
import lightning as L


class Tagger(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(300, 20)
        self.loss_fn = F.binary_cross_entropy_with_logits

    def forward(self, x):
        return torch.sigmoid(self.encoder(x))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.loss_fn(self(x), y.float())
        return loss
"""


def test_loss_bound_as_an_attribute_alias_is_a_loss():
    assert findings(LOSS_ALIAS, ("PF112",)) == [("PF112", 18)]
    fixed = LOSS_ALIAS.replace("return torch.sigmoid(self.encoder(x))", "return self.encoder(x)")
    assert findings(fixed, ("PF112",)) == []


# ray-project/ray PR 40940 (the fine-tuning template before the fix; the same loop is in
# dominodatalab/reference-project-domino-ray-llama2@0d5df8e24429d01aac660c366d5b8a0735c531a4
# doc/source/templates/04_finetuning_llms_with_deepspeed/finetune_hf_llm.py):
# `loss = outputs.loss; loss_sum += loss` then backward, and the epoch returns the average.
RAY_TRAIN_EPOCH = """
import torch


def train_epoch(model, optimizer, lr_scheduler, train_dataloader, device):
    model.train()
    loss_sum = 0.0
    for step, batch in enumerate(train_dataloader):
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        loss = outputs.loss
        loss_sum += loss
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()
    return loss_sum / (step + 1)
"""


def test_returning_a_total_of_losses_backward_already_freed_still_leaks():
    assert findings(RAY_TRAIN_EPOCH, ("PF101",)) == [("PF101", 12)]
    fixed = RAY_TRAIN_EPOCH.replace("loss_sum += loss\n", "loss_sum += loss.item()\n")
    assert findings(fixed, ("PF101",)) == []


def test_a_list_of_losses_stacked_and_averaged_after_the_loop_still_leaks():
    stacked = RAY_TRAIN_EPOCH.replace("loss_sum = 0.0", "losses = []").replace(
        "loss_sum += loss\n", "losses.append(loss)\n").replace(
        "return loss_sum / (step + 1)", "return torch.stack(losses).mean()")
    assert findings(stacked, ("PF101",)) == [("PF101", 12)]
    detached = stacked.replace("losses.append(loss)", "losses.append(loss.detach())")
    assert findings(detached, ("PF101",)) == []


def test_losses_returned_for_a_caller_to_differentiate_stay_silent():
    # a forward-only loop (micro-batches summed for one backward by the caller) is not a leak
    forward_only = RAY_TRAIN_EPOCH.replace("        loss.backward()\n", "").replace(
        "        optimizer.step()\n", "").replace("        lr_scheduler.step()\n", "").replace(
        "        optimizer.zero_grad()\n", "")
    assert findings(forward_only, ("PF101",)) == []


# IBM/pytorch-seq2seq@10d294ab090277061bd6007508391bb1c39daff9 seq2seq/evaluator/evaluator.py
# (`Evaluator.evaluate(self, model, data)`, whose `model.eval()` PR 38 is about) and
# seq2seq/trainer/supervised_trainer.py (`model.train(True)` each epoch, then
# `self.evaluator.evaluate(model, dev_data)`). Rewritten: eval() set in the callee, or by the
# caller, or nowhere.
SEQ2SEQ = """
import torch


class Evaluator:
    def __init__(self, loss, batch_size=64):
        self.loss = loss
        self.batch_size = batch_size

    def evaluate(self, model, data):
        model.eval()
        total = 0.0
        for batch in data:
            src, tgt = batch
            decoder_outputs = model(src, tgt)
            total += self.loss(decoder_outputs, tgt).item()
        return total


class SupervisedTrainer:
    def __init__(self, loss):
        self.loss = loss
        self.evaluator = Evaluator(loss)

    def train_epochs(self, model, data, dev_data, optimizer, n_epochs):
        for epoch in range(n_epochs):
            model.train(True)
            for src, tgt in data:
                optimizer.zero_grad()
                self.loss(model(src, tgt), tgt).backward()
                optimizer.step()
            dev_loss = self.evaluator.evaluate(model, dev_data)
"""


def test_evaluation_helper_without_eval_after_the_caller_trained_is_reported():
    assert findings(SEQ2SEQ, ("PF115",)) == []
    without = SEQ2SEQ.replace("        model.eval()\n", "")
    assert findings(without, ("PF115",)) == [("PF115", 14)]
    # eval() set by the caller, forward in the callee: silent
    by_caller = without.replace("            dev_loss = self.evaluator",
                                "            model.eval()\n            dev_loss = self.evaluator")
    assert findings(by_caller, ("PF115",)) == []


# udacity/deep-learning-v2-pytorch issue 3 (the MNIST MLP notebook with nn.Dropout(0.2)):
# the validation loop follows the training loop in the epoch and nothing calls model.eval().
UDACITY_MLP = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, 512)
        self.fc2 = nn.Linear(512, 10)
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        x = self.dropout(F.relu(self.fc1(x.view(-1, 28 * 28))))
        return self.fc2(x)


model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)


def run(train_loader, valid_loader, n_epochs):
    for epoch in range(n_epochs):
        model.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
        MODE
        for data, target in valid_loader:
            output = model(data)
            valid_loss = criterion(output, target).item()
"""


def test_validation_loop_in_training_mode_is_reported():
    bug = UDACITY_MLP.replace("        MODE\n", "")
    assert findings(bug, ("PF115",)) == [("PF115", 33)]
    assert findings(UDACITY_MLP.replace("MODE", "model.eval()"), ("PF115",)) == []
    # no dropout or BatchNorm in the model: the mode changes nothing
    plain = bug.replace("        self.dropout = nn.Dropout(0.2)\n", "").replace(
        "self.dropout(F.relu(self.fc1(x.view(-1, 28 * 28))))", "F.relu(self.fc1(x.view(-1, 28 * 28)))")
    assert findings(plain, ("PF115",)) == []


# The launch line of microsoft/DeepSpeedExamples@83757d9c937daabd1089a08051061706cb73900d
# applications/DeepSpeed-Chat/training/step1_supervised_finetuning/training_scripts/opt/single_gpu/
# run_1.3b.sh (`deepspeed --num_gpus 1 main.py ... --gradient_accumulation_steps 8`) with the
# explicit batch triple of bigcode-project/starcoder issue 77 (64 != 4 x 8 x 1).
DS_NUM_GPUS = """
# --- main.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": TOTAL, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8,
 "zero_optimization": {"stage": 3}}
# --- launch
deepspeed LAUNCH main.py --model_name_or_path facebook/opt-1.3b --gradient_accumulation_steps 8
"""


def test_world_size_known_as_a_multiple_still_decides_the_batch_triple():
    from preflight.plan_rules import example_findings

    def run(total: int, launch: str):
        text = DS_NUM_GPUS.replace("TOTAL", str(total)).replace("LAUNCH", launch)
        return [(f.code, f.severity.name.lower()) for f in example_findings("PF502", text)]

    assert run(64, "--num_gpus 1") == [("PF502", "warning")]  # holds only on 2 nodes
    assert run(48, "--num_gpus 2") == [("PF502", "error")]  # 48 is no multiple of 4 x 8 x 2
    assert run(32, "--num_gpus 1") == []
    assert run(64, "--num_gpus 2") == []
    assert run(64, "--hostfile hosts --num_gpus 1") == []  # two hosts of the hostfile
    assert run(64, "--num_nodes 2 --num_gpus 1") == []


# ashleve/lightning-hydra-template@bddbc24b82ab6ccfa6243e815a49dc5bfe8d4144: configs/model/mnist.yaml
# (an `optimizer:` node with `_partial_: true` inside the model node) and src/train.py
# (`hydra.utils.instantiate(cfg.model)`, recursive by default); issue 216 is the node
# without `_partial_`, built with no parameters when the model is instantiated.
HYDRA_TEMPLATE = """
# --- src/train.py
import hydra


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg):
    model = hydra.utils.instantiate(cfg.model)
    trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(model=model)
# --- src/models/mnist_module.py
from lightning import LightningModule


class MNISTLitModule(LightningModule):
    def __init__(self, net, optimizer, compile):
        super().__init__()
        self.save_hyperparameters(logger=False)
        self.net = net

    def configure_optimizers(self):
        return self.hparams.optimizer(params=self.trainer.model.parameters())
# --- configs/train.yaml
defaults:
  - model: mnist
  - _self_
# --- configs/model/mnist.yaml
_target_: src.models.mnist_module.MNISTLitModule

optimizer:
  _target_: torch.optim.Adam
  _partial_: true
  lr: 0.001

net:
  _target_: torch.nn.Linear
  in_features: 784
  out_features: 10

compile: false
"""


def test_optimizer_node_nested_in_a_recursively_instantiated_model_node():
    from preflight.plan_rules import example_findings

    def run(text: str):
        return [(f.code, f.path, f.span.line) for f in example_findings("PF512", text)]

    assert run(HYDRA_TEMPLATE) == []
    bug = HYDRA_TEMPLATE.replace("  _partial_: true\n", "")
    assert run(bug) == [("PF512", "configs/model/mnist.yaml", 4)]
    # the parent is built with `_recursive_=False` and instantiates the node itself with the
    # parameters: silent
    own = bug.replace("instantiate(cfg.model)", "instantiate(cfg.model, _recursive_=False)").replace(
        "return self.hparams.optimizer(params=self.trainer.model.parameters())",
        "return hydra.utils.instantiate(self.hparams.optimizer, params=self.parameters())")
    assert run(own) == []
    assert run(own.replace(", _recursive_=False", "")) == [("PF512", "configs/model/mnist.yaml", 4)]


# Lightning-AI/pytorch-lightning@7f0c3436cd3f6ad3753125672024fc415cbcb414
# src/lightning/pytorch/core/hooks.py (the `on_train_epoch_end` docstring): `training_step`
# appends its loss to `self.training_step_outputs`, the epoch hook stacks and clears them.
LIT_OUTPUTS = """
import torch
import lightning as L


class MyLightningModule(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(32, 2)
        self.training_step_outputs = []

    def training_step(self, batch, batch_idx):
        loss = self.layer(batch).sum()
        self.training_step_outputs.append(loss)
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("training_epoch_mean", epoch_mean)
        self.training_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)
"""


def test_lightning_module_keeping_its_losses_in_self_outputs_is_reported():
    # the list lives until the epoch ends; the graph of every step's loss with it
    assert findings(LIT_OUTPUTS, ("PF101",)) == [("PF101", 14)]
    fixed = LIT_OUTPUTS.replace("append(loss)", "append(loss.detach())")
    assert findings(fixed, ("PF101",)) == []


# dvgodoy/PyTorchStepByStep@1bef4140dc07e6e1ac4a479264ea89b6a0a0c98e model_training/v2.py: the
# epoch loop calls a train-step function per mini-batch and collects what it reports. Here
# the step fills a dict of losses the loop hands in (the book's step returns `loss.item()`).
STEP_FN = """
import torch


def train_step(model, loss_fn, optimizer, x_batch, y_batch, logs):
    model.train()
    yhat = model(x_batch)
    loss = loss_fn(yhat, y_batch)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    logs["loss"].append(loss)


def fit(model, loss_fn, optimizer, train_loader, device, n_epochs):
    logs = {"loss": []}
    for epoch in range(n_epochs):
        for x_batch, y_batch in train_loader:
            x_batch, y_batch = x_batch.to(device), y_batch.to(device)
            train_step(model, loss_fn, optimizer, x_batch, y_batch, logs)
    return logs
"""


def test_a_dict_of_losses_handed_in_and_filled_is_reported():
    assert findings(STEP_FN, ("PF101",)) == [("PF101", 12)]
    assert findings(STEP_FN.replace('append(loss)', 'append(loss.item())'), ("PF101",)) == []
    fresh = STEP_FN.replace("            train_step(", "            logs = {'loss': []}\n            train_step(")
    assert findings(fresh, ("PF101",)) == []


# Lightning-AI/pytorch-lightning@7f0c3436cd3f6ad3753125672024fc415cbcb414
# examples/pytorch/domain_templates/generative_adversarial_net.py: manual optimization with
# `self.toggle_optimizer(opt)` around each update; toggling only sets requires_grad.
LIT_GAN = """
import torch
import lightning as L


class GAN(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.generator = torch.nn.Linear(8, 16)
        self.discriminator = torch.nn.Linear(16, 1)

    def training_step(self, batch):
        imgs, _ = batch
        opt_g, opt_d = self.optimizers()
        z = torch.randn(imgs.shape[0], 8).type_as(imgs)
        self.toggle_optimizer(opt_g)
        g_loss = self.discriminator(self.generator(z)).mean()
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.untoggle_optimizer(opt_g)
        with self.toggled_optimizer(opt_d):
            d_loss = self.discriminator(imgs).mean() - self.discriminator(self.generator(z).detach()).mean()
            opt_d.zero_grad()
            self.manual_backward(d_loss)
            opt_d.step()

    def configure_optimizers(self):
        return (torch.optim.Adam(self.generator.parameters()),
                torch.optim.Adam(self.discriminator.parameters()))
"""


def test_toggle_optimizer_does_not_clear_gradients():
    assert findings(LIT_GAN, ("PF103",)) == []
    without_g = LIT_GAN.replace("        opt_g.zero_grad()\n", "")
    assert findings(without_g, ("PF103",)) == [("PF103", 20)]
    without_d = LIT_GAN.replace("            opt_d.zero_grad()\n", "")
    assert findings(without_d, ("PF103",)) == [("PF103", 26)]


# hughplay/memo@9cd8cd89977d7d21d4ff530031f8eeef9674cab1 code/snippet/pytorch.py ("Backward
# through the graph a second time"): `out_1.backward(retain_graph=True)` then
# `out_2.backward()` on the same graph; here inside the training loop.
TWO_HEADS = """
def train(model, f, g, opt_1, opt_2, loader):
    for x in loader:
        y = model(x)
        model.zero_grad()
        out_1 = f(y)
        out_1.backward(retain_graph=True)
        opt_1.step()
        model.zero_grad()
        out_2 = g(y)
        out_2.backward()
        opt_2.step()
"""


def test_a_second_backward_does_not_excuse_retain_graph_on_the_last_one():
    assert findings(TWO_HEADS, ("PF102",)) == []
    both = TWO_HEADS.replace("out_2.backward()", "out_2.backward(retain_graph=True)")
    assert findings(both, ("PF102",)) == [("PF102", 11)]
    # a graph built before the loop is differentiated again by the next iteration
    outside = """
def probe(w, loss_fn, steps):
    loss = loss_fn(w)
    for _ in range(steps):
        loss.backward(retain_graph=True)
"""
    assert findings(outside, ("PF102",)) == []


# pytorch/examples@77f55b9 mnist/main.py: `Net.forward` ends in `F.log_softmax(x, dim=1)` and
# `train()` calls `F.nll_loss(output, target)`; the bug is `F.softmax` in its place. The gather
# `-F.nll_loss(F.softmax(logits, -1), targets, reduction="none")` is from public code found with
# find_string (id 5876922591; repository not given by the index).
MNIST_NET = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def train(model, device, train_loader, optimizer):
    model.train()
    for data, target in train_loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()


def main(train_loader, device):
    model = Net().to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    for epoch in range(1, 15):
        train(model, device, train_loader, optimizer)
"""


def test_softmax_fed_to_nll_loss_is_reported():
    assert findings(MNIST_NET, ("PF112",)) == []
    bug = MNIST_NET.replace("F.log_softmax(x, dim=1)", "F.softmax(x, dim=1)")
    assert findings(bug, ("PF112",)) == [("PF112", 26)]
    gather = bug.replace("loss = F.nll_loss(output, target)",
                         "loss = -F.nll_loss(output, target, reduction='none').mean()")
    assert findings(gather, ("PF112",)) == []


# pytorch/examples@77f55b912142e11fcfdf5b530231fb9c52f181e8
# distributed/tensor_parallelism/fsdp_tp_example.py seeds with `torch.manual_seed(i + dp_rank)`
# so every data-parallel rank draws its own random batch; PatrickHua/SimSiam issue 16 is a DDP
# loader without a sampler. Random data is a per-rank shard only when the seed differs per rank.
DDP_RANDOM = """
import os
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def main(seed):
    dist.init_process_group("nccl")
    dp_rank = int(os.environ["RANK"])
    SEED
    dataset = TensorDataset(torch.randn(10000, 64), torch.randint(0, 10, (10000,)))
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    model = DDP(torch.nn.Linear(64, 10).cuda(), device_ids=[int(os.environ["LOCAL_RANK"])])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda()).backward()
        opt.step()
"""


def test_random_data_is_a_per_rank_shard_only_when_the_seed_differs_per_rank():
    same = DDP_RANDOM.replace("SEED", "torch.manual_seed(seed)")
    assert findings(same, ("PF201",)) == [("PF201", 14)]
    per_rank = DDP_RANDOM.replace("SEED", "torch.manual_seed(seed + dp_rank)")
    assert findings(per_rank, ("PF201",)) == []
    unseeded = DDP_RANDOM.replace("    SEED\n", "")
    assert findings(unseeded, ("PF201",)) == []


# huggingface/diffusers@58eb52c0803ea9af3abec60841c2a093bdf1f951
# examples/research_projects/colossalai/train_dreambooth_colossalai.py: the step loop calls
# `torch.cuda.synchronize()` only under `if global_step % args.save_steps == 0:` (before saving).
DREAMBOOTH = """
import time
import torch
import torch.nn.functional as F


def train(unet, optimizer, lr_scheduler, train_dataloader, args):
    global_step = 0
    for epoch in range(args.num_train_epochs):
        for step, batch in enumerate(train_dataloader):
            model_pred = unet(batch["latents"].cuda())
            loss = F.mse_loss(model_pred.float(), batch["target"].cuda().float(), reduction="mean")
            optimizer.backward(loss)
            optimizer.step()
            lr_scheduler.step()
            global_step += 1
            if global_step % args.save_steps == 0:
                torch.cuda.synchronize()
                torch.save(unet.state_dict(), "unet.pt")
"""


def test_device_synchronize_every_step_is_reported():
    assert findings(DREAMBOOTH, ("PF301",)) == []
    every = DREAMBOOTH.replace("            global_step += 1\n",
                               "            global_step += 1\n            torch.cuda.synchronize()\n")
    assert findings(every, ("PF301",)) == [("PF301", 17)]
    timed = every.replace("            torch.cuda.synchronize()\n            if",
                          "            torch.cuda.synchronize()\n            print(time.time())\n            if")
    assert findings(timed, ("PF301",)) == []


# pytorch/examples@77f55b912142e11fcfdf5b530231fb9c52f181e8 siamese_network/main.py: `main()`
# calls `torch.manual_seed(args.seed)`, and `APP_MATCHER.__getitem__` picks its image pairs
# with `random.randint(...)`, which nothing seeds.
SIAMESE = """
import argparse
import random

import torch
from torch.utils.data import DataLoader, Dataset


class APP_MATCHER(Dataset):
    def __init__(self, images, grouped):
        self.images, self.grouped = images, grouped

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        selected_class = random.randint(0, 9)
        j = random.randint(0, len(self.grouped[selected_class]) - 1)
        return self.images[index], self.images[self.grouped[selected_class][j]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    model = torch.nn.Linear(784, 1)
    optimizer = torch.optim.Adadelta(model.parameters())
    loader = DataLoader(APP_MATCHER([], {}), batch_size=64, shuffle=True)
    for a, b in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(a), model(b))
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
"""


def test_seeding_torch_but_not_random_where_both_draw_is_reported():
    assert findings(SIAMESE, ("PF305",)) == [("PF305", 38)]
    both = SIAMESE.replace("    torch.manual_seed(args.seed)\n",
                           "    torch.manual_seed(args.seed)\n    random.seed(args.seed)\n")
    assert findings(both, ("PF305",)) == []


# Public training code found with find_string (id 71551376913; the index names no repository)
# builds its class weights once, before the epoch loop:
# `loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([0.6, 3.0], device=device))`. The shape
# reported is the same constant built on the host inside the step and moved there.
CLASS_WEIGHTS = """
import numpy as np
import torch
import torch.nn as nn


def run(model, opt, tr_x, tr_y, args, device):
    loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([0.6, 3.0], device=device))
    for ep in range(args.epochs):
        model.train()
        perm = np.random.permutation(len(tr_x))
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            x = torch.from_numpy(tr_x[idx]).to(device)
            y = torch.from_numpy(tr_y[idx]).to(device)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""


def test_constant_tensor_built_on_the_host_inside_the_step_then_moved():
    assert findings(CLASS_WEIGHTS, ("PF302",)) == []
    inside = CLASS_WEIGHTS.replace(
        "            loss = loss_fn(model(x), y)\n",
        "            w = torch.tensor([0.6, 3.0]).to(device)\n"
        "            loss = nn.functional.cross_entropy(model(x), y, weight=w)\n")
    assert findings(inside, ("PF302",)) == [("PF302", 16)]


# pytorch/examples@77f55b912142e11fcfdf5b530231fb9c52f181e8
# distributed/ddp-tutorial-series/multigpu_torchrun.py: `ddp_setup()` and
# `prepare_dataloader(dataset, batch_size)` returning `DataLoader(..., shuffle=False,
# sampler=DistributedSampler(dataset))`. Here the setup helpers live in a module that never
# iterates the loader (the training loop is in another file).
DDP_SETUP = """
import os
import torch
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed import init_process_group


def prepare_dataloader(dataset, batch_size):
    return DataLoader(
        dataset,
        batch_size=batch_size,
        pin_memory=True,
        shuffle=False,
        sampler=DistributedSampler(dataset)
    )


def setup(model, dataset, batch_size):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    init_process_group(backend="nccl")
    model = DDP(model.to(int(os.environ["LOCAL_RANK"])), device_ids=[int(os.environ["LOCAL_RANK"])])
    return model, prepare_dataloader(dataset, batch_size)
"""


def test_ddp_loader_without_sampler_in_a_file_that_does_not_iterate_it():
    assert findings(DDP_SETUP, ("PF201",)) == []
    bug = DDP_SETUP.replace("        shuffle=False,\n        sampler=DistributedSampler(dataset)\n",
                            "        shuffle=True,\n")
    assert findings(bug, ("PF201",)) == [("PF201", 11)]
    # handed to something in the file (accelerate's prepare, a Trainer): not reported here
    handed = bug.replace("    return model, prepare_dataloader(dataset, batch_size)",
                         "    loader = prepare_dataloader(dataset, batch_size)\n"
                         "    return accelerator.prepare(model, loader)")
    assert findings(handed, ("PF201",)) == []


# LeeJeongWoon-Workout/Deep_Learning_Pytorch@a9c70930cd11fa963cec0f1d6165d0067a2e9c42
# Iris_Softmax_Regression/train_eval.py: a script-level epoch loop that trains, and evaluates
# `model(X_test)` under `torch.no_grad()`. Here the final evaluation after the loop, once after
# `model.eval()` without `no_grad`.
IRIS = """
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 50), nn.ReLU(), nn.Dropout(0.2), nn.Linear(50, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
X_train, y_train, X_test, y_test = load()
for epoch in range(100):
    y_pred = model(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
model.eval()
y_pred = model(X_test)
correct = (torch.argmax(y_pred, dim=1) == y_test).float().mean()
"""


def test_forward_with_autograd_after_eval_outside_loops():
    assert findings(IRIS, ("PF110",)) == [("PF110", 16)]
    fixed = IRIS.replace("y_pred = model(X_test)", "with torch.no_grad():\n    y_pred = model(X_test)")
    assert findings(fixed, ("PF110",)) == []
    # a single prediction with no training before it (a unit test, an inference script)
    alone = "import torch\nmodel = torch.nn.Linear(4, 3)\nmodel.eval()\nprint(model(torch.ones(1, 4)))\n"
    assert findings(alone, ("PF110",)) == []


# arcee-ai/DistillKit@4b42daaf533873ec9ccce919bd1ff57fd0c7573d distil_logits.py:
# `training_arguments = TrainingArguments(**config["training"])`; the same call is common with
# the mapping in a YAML file (`config = yaml.safe_load(f)`), as here.
TA_FROM_YAML = """
# --- train.py
import yaml
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

with open("config.yaml") as f:
    config = yaml.safe_load(f)
student_model = AutoModelForCausalLM.from_pretrained(config["models"]["student"])
training_arguments = TrainingArguments(**config["training"])
trainer = Trainer(model=student_model, args=training_arguments, train_dataset=None)
trainer.train()
# --- config.yaml
models:
  student: Qwen/Qwen2-1.5B
training:
  output_dir: ./results
  num_train_epochs: 3
  per_device_train_batch_size: 1
  gradient_accumulation_steps: 8
  save_steps: 1000
  logging_steps: 1
  load_best_model_at_end: true
  eval_strategy: steps
  save_strategy: STRATEGY
"""


def test_training_arguments_unpacked_from_a_yaml_mapping_are_followed():
    from preflight.plan_rules import example_findings

    bad = example_findings("PF508", TA_FROM_YAML.replace("STRATEGY", "epoch"))
    assert [(f.code, f.path, f.span.line) for f in bad] == [("PF508", "config.yaml", 11)]
    assert example_findings("PF508", TA_FROM_YAML.replace("STRATEGY", "steps")) == []


# huggingface/peft@5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40
# examples/dora_finetuning/QDoRA_finetuning.ipynb: `gradient_checkpointing_enable()`, then
# `model.config.use_cache = False` before `trainer.train()`, and `model.config.use_cache = True`
# restored for inference after training (cells 7, 14, 16).
QDORA = """
import transformers
from transformers import AutoModelForCausalLM
from peft import prepare_model_for_kbit_training

model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
model.gradient_checkpointing_enable()
model = prepare_model_for_kbit_training(model)
trainer = transformers.Trainer(
    model=model,
    train_dataset=data["train"],
    args=transformers.TrainingArguments(per_device_train_batch_size=1, max_steps=10, output_dir="out"),
)
model.config.use_cache = False  # silence the warnings. Please re-enable for inference!
trainer.train()
model.config.use_cache = True
model.eval()
"""


def test_use_cache_restored_after_training_is_fine():
    assert findings(QDORA, ("PF412",)) == []
    before = QDORA.replace("model.config.use_cache = False  # silence the warnings. Please re-enable for inference!\n",
                           "model.config.use_cache = True\n")
    assert [c for c, _ in findings(before, ("PF412",))] == ["PF412"]


# A local factory builds the model (`def build_model(args): ...; return net` then
# `model = build_model(args)`), the shape of public code found with `search` (a
# `build_model(args)` returning the wrapped net; the index gave no repository for it), so no
# repository is cited. The model the factory returns is a module for every rule.
FACTORY = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, 10)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc(self.drop(x))


def build_model(args):
    if args.arch != "net":
        raise ValueError(args.arch)
    net = Net(args.n)
    return net


def main(args, loader, val_loader):
    model = build_model(args)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        for x, y in loader:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        with torch.no_grad():
            for x, y in val_loader:
                print(F.cross_entropy(model(x), y).item())
"""


def test_model_built_by_a_local_factory_is_a_model():
    assert findings(FACTORY, ("PF115",)) == [("PF115", 34)]
    assert findings(FACTORY.replace("        with torch.no_grad():\n",
                                    "        model.eval()\n        with torch.no_grad():\n"), ("PF115",)) == []
