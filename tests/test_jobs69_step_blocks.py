"""No gradient accumulation read from a block that back-propagates and steps on its own (adapters/loop_branches.py
``_self_contained``) and from an optimizer a module binds under any name (adapters/loop_shapes.py ``every_update``,
adapters/step_per_call.py). Fixtures are our own small rewrites of real shapes, each cited by repository, commit,
path and lines; every must-read test has a twin that accumulates (or may) and must stay unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# facebookresearch/demucs @ e976d93 demucs/solver.py:369-388: the epoch loop of the solver class serves training and
# validation, ``if train: loss.backward(); ...; self.optimizer.step(); self.optimizer.zero_grad()``; the entry
# (demucs/train.py) imports the solver and calls it.
SOLVER = """\
    import torch


    class Solver:
        def __init__(self, loaders, model, optimizer, accum=1):
            self.loaders = loaders
            self.model = model
            self.optimizer = optimizer
            self.accum = accum

        def _run_one_epoch(self, epoch, train=True):
            loader = self.loaders["train"] if train else self.loaders["valid"]
            for idx, sources in enumerate(loader):
                estimate = self.model(sources.cuda())
                loss = estimate.abs().mean()
                if train:
                    loss.backward()
                    grad_norm = 0
                    for p in self.model.parameters():
                        if p.grad is not None:
                            grad_norm += p.grad.data.norm() ** 2
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
                    self.optimizer.step()
                    self.optimizer.zero_grad()

        def train(self):
            for epoch in range(10):
                self._run_one_epoch(epoch)
                with torch.no_grad():
                    self._run_one_epoch(epoch, train=False)
"""

# the twin: the same block steps only every ``accum`` batches (a step-count test inside it)
SOLVER_ACCUM = SOLVER.replace(
    "                    self.optimizer.step()\n                    self.optimizer.zero_grad()\n",
    "                    if (idx + 1) % self.accum == 0:\n                        self.optimizer.step()\n"
    "                        self.optimizer.zero_grad()\n")

TRAIN = """\
    import torch

    from solver import Solver


    def main():
        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
        data = torch.zeros(64, 4)
        loaders = {"train": torch.utils.data.DataLoader(data, batch_size=8),
                   "valid": torch.utils.data.DataLoader(data, batch_size=8)}
        Solver(loaders, model, optimizer).train()


    if __name__ == "__main__":
        main()
"""


def _accum(cli, tmp_path, files):
    write(tmp_path, files)
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")


def test_backward_and_step_under_one_test_in_a_module_is_one_step_per_batch(cli, tmp_path):
    got = _accum(cli, tmp_path, {"solver.py": SOLVER, "train.py": TRAIN})
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert (got.source.path, got.source.line) == ("solver.py", 17)


def test_twin_stepping_every_accum_batches_under_that_test_says_nothing(cli, tmp_path):
    assert "% self.accum == 0" in SOLVER_ACCUM
    assert _accum(cli, tmp_path, {"solver.py": SOLVER_ACCUM, "train.py": TRAIN}) is None


# weihua916/powerful-gnns @ 9a2ce8a main.py:19-37: the loop of the script's own ``train`` backs up and steps under
# ``if optimizer is not None:``.
GNN = """\
    import argparse

    import numpy as np
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--iters_per_epoch", type=int, default=50)
    args = parser.parse_args()


    def train(args, model, train_graphs, optimizer, epoch):
        model.train()
        criterion = torch.nn.CrossEntropyLoss()
        for pos in range(args.iters_per_epoch):
            selected_idx = np.random.permutation(len(train_graphs))[:args.batch_size]
            output = model(train_graphs[selected_idx].cuda())
            labels = torch.zeros(len(selected_idx), dtype=torch.long).cuda()
            loss = criterion(output, labels)
            if optimizer is not None:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            loss = loss.detach().cpu().numpy()


    model = torch.nn.Linear(8, 2).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(1, 351):
        train(args, model, torch.zeros(188, 8), optimizer, epoch)
"""

# the twin: the backward runs under that test on every pass, the step only every fourth
GNN_ACCUM = GNN.replace("                optimizer.step()\n",
                        "                if (pos + 1) % 4 == 0:\n                    optimizer.step()\n")


def test_backward_and_step_under_one_test_in_the_script_is_one_step_per_batch(cli, tmp_path):
    got = _accum(cli, tmp_path, {"train.py": GNN})
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert got.source.line == 23  # the step after the backward


def test_twin_whose_step_is_counted_inside_the_test_says_nothing(cli, tmp_path):
    assert "(pos + 1) % 4 == 0" in GNN_ACCUM
    assert _accum(cli, tmp_path, {"train.py": GNN_ACCUM}) is None


# seungwonpark/melgan @ aca5990 utils/train.py:71-98: per batch the generator backs up and steps once, then the
# discriminator ``for _ in range(hp.train.rep_discriminator):`` backs up and steps on each pass; trainer.py calls it.
GAN = """\
    import torch


    def train(loader, model_g, model_d, hp):
        optim_g = torch.optim.Adam(model_g.parameters(), lr=1e-4)
        optim_d = torch.optim.Adam(model_d.parameters(), lr=1e-4)
        for epoch in range(100):
            for mel, audio in loader:
                optim_g.zero_grad()
                fake_audio = model_g(mel.cuda())
                loss_g = -model_d(fake_audio).mean()
                loss_g.backward()
                optim_g.step()

                fake_audio = fake_audio.detach()
                for _ in range(hp["rep_discriminator"]):
                    optim_d.zero_grad()
                    loss_d = model_d(fake_audio).mean() - model_d(audio.cuda()).mean()
                    loss_d.backward()
                    optim_d.step()
"""

# the twin: the discriminator's passes only back-propagate (zeroed once before them); one step after them sums
# their gradients
GAN_ACCUM = GAN.replace("                for _ in range(hp[\"rep_discriminator\"]):\n                    optim_d.zero_grad()\n",
                        "                optim_d.zero_grad()\n                for _ in range(hp[\"rep_discriminator\"]):\n"
                        ).replace("                    loss_d.backward()\n                    optim_d.step()\n",
                                  "                    loss_d.backward()\n                optim_d.step()\n")

GAN_MAIN = """\
    import torch

    from utils.train import train

    model_g = torch.nn.Linear(80, 256).cuda()
    model_d = torch.nn.Linear(256, 1).cuda()
    loader = torch.utils.data.DataLoader(torch.zeros(64, 80), batch_size=16)
    train(loader, model_g, model_d, {"rep_discriminator": 1})
"""


def test_a_nested_loop_stepping_each_pass_after_the_generator_step(cli, tmp_path):
    got = _accum(cli, tmp_path, {"utils/__init__.py": "", "utils/train.py": GAN, "train.py": GAN_MAIN})
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert (got.source.path, got.source.line) == ("utils/train.py", 13)  # the generator's step


def test_twin_whose_nested_loop_back_propagates_without_a_step_says_nothing(cli, tmp_path):
    assert "optim_d.zero_grad()\n                for _ in" in GAN_ACCUM and "loss_d.backward()\n                optim_d.step()" in GAN_ACCUM
    files = {"utils/__init__.py": "", "utils/train.py": GAN_ACCUM, "train.py": GAN_MAIN}
    assert _accum(cli, tmp_path, files) is None


def test_the_nested_loop_in_the_script_itself(cli, tmp_path):
    """The same loops in the entry script (loop_shapes.every_batch): one reading, not two loops."""
    script = GAN + '\n\n    train(torch.utils.data.DataLoader(torch.zeros(64, 80), batch_size=16), ' \
                   'torch.nn.Linear(80, 256).cuda(), torch.nn.Linear(256, 1).cuda(), {"rep_discriminator": 1})\n'
    got = _accum(cli, tmp_path, {"train.py": script})
    assert got is not None and got.value == 1
    twin = GAN_ACCUM + '\n\n    train(None, None, None, {"rep_discriminator": 1})\n'
    assert _accum(cli, tmp_path, {"train.py": twin}) is None


# Janspiry/Image-Super-Resolution-via-Iterative-Refinement @ 01d27a7 model/model.py:39-40,48-55: the model class
# binds ``self.optG = torch.optim.Adam(...)`` and ``optimize_parameters`` backs up and steps ``self.optG``; sr.py
# calls it per batch.
SR_MODEL = """\
    import torch


    class DDPM:
        def __init__(self, net, accum=1):
            self.netG = net.cuda()
            self.accum = accum
            self.iter = 0
            self.optG = torch.optim.Adam(list(self.netG.parameters()), lr=1e-4)

        def feed_data(self, data):
            self.data = data.cuda()

        def optimize_parameters(self):
            self.optG.zero_grad()
            l_pix = self.netG(self.data).sum()
            l_pix.backward()
            self.optG.step()
"""

SR_MAIN = """\
    import torch

    import model as Model

    diffusion = Model.DDPM(torch.nn.Linear(16, 16))
    for train_data in torch.utils.data.DataLoader(torch.zeros(64, 16), batch_size=4):
        diffusion.feed_data(train_data)
        diffusion.optimize_parameters()
"""


def test_an_optimizer_bound_in_the_module_under_its_own_name(cli, tmp_path):
    got = _accum(cli, tmp_path, {"model.py": SR_MODEL, "train.py": SR_MAIN})
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert (got.source.path, got.source.line) == ("model.py", 17)


def test_twin_whose_named_optimizer_steps_every_accum_calls_says_nothing(cli, tmp_path):
    twin = SR_MODEL.replace("            self.optG.step()\n",
                            "            self.iter += 1\n            if self.iter % self.accum == 0:\n"
                            "                self.optG.step()\n")
    assert _accum(cli, tmp_path, {"model.py": twin, "train.py": SR_MAIN}) is None


def test_twin_whose_object_is_no_torch_optimizer_says_nothing(cli, tmp_path):
    """``self.optG`` bound to a project wrapper (which may step once per several calls): not an optimizer by name."""
    twin = SR_MODEL.replace("torch.optim.Adam(list(self.netG.parameters()), lr=1e-4)",
                            "build_wrapper(list(self.netG.parameters()))")
    assert _accum(cli, tmp_path, {"model.py": twin, "train.py": SR_MAIN}) is None
