"""One optimizer step per batch, read in three more shapes (adapters/loop_branches.py ``_skip_way`` and
``_steps_of_optimizers``, adapters/step_per_call.py). Fixtures are our own small rewrites of real shapes, each
with a twin that accumulates (or steps under a condition) and must leave ``batch.grad_accum`` unclaimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# snap-stanford/ogb @ 61e9784 examples/graphproppred/mol/main_pyg.py:18-36: a batch of one graph is skipped by
# ``if ...: pass``, every other batch back-propagates and steps in the ``else``.
SKIP = """\
    import torch

    model = torch.nn.Linear(4, 1).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    loader = torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=32)


    def train(model, loader, optimizer):
        model.train()
        for step, batch in enumerate(loader):
            batch = batch.cuda()
            if batch.shape[0] == 1:
                pass
            else:
                pred = model(batch)
                optimizer.zero_grad()
                loss = pred.pow(2).mean()
                loss.backward()
                optimizer.step()


    for epoch in range(3):
        train(model, loader, optimizer)
"""

# KellerJordan/cifar10-airbench @ f1c599c airbench94_muon.py:397-405: two optimizers stepped in a loop over them.
OPTIMIZERS = """\
    import torch
    import torch.nn.functional as F

    model = torch.nn.Linear(4, 10).cuda()
    optimizer1 = torch.optim.SGD([model.bias], lr=0.1)
    optimizer2 = torch.optim.SGD([model.weight], lr=0.1)
    optimizers = [optimizer1, optimizer2]
    loader = torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=16)
    for epoch in range(2):
        for inputs in loader:
            outputs = model(inputs.cuda())
            F.cross_entropy(outputs, outputs.argmax(1), reduction="sum").backward()
            for opt in optimizers:
                opt.step()
            model.zero_grad(set_to_none=True)
"""

# Plachtaa/seed-vc @ d334fb7 train.py:234-346: the loop calls an update method of the script's own class that
# back-propagates and steps each part of a wrapped optimizer by key.
METHOD = """\
    import torch


    class Parts:
        def __init__(self, model):
            self.optimizers = {"cfm": torch.optim.AdamW(model.parameters())}

        def zero_grad(self):
            for o in self.optimizers.values():
                o.zero_grad()

        def step(self, key):
            self.optimizers[key].step()


    class Trainer:
        def __init__(self):
            self.model = torch.nn.Linear(4, 4).cuda()
            self.optimizer = Parts(self.model)
            self.train_dataloader = torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=2)

        def train_one_step(self, batch):
            loss = self.model(batch.cuda()).pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 10.0)
            self.optimizer.step('cfm')
            return loss.detach().item()

        def train(self):
            for epoch in range(3):
                for i, batch in enumerate(self.train_dataloader):
                    self.train_one_step(batch)


    if __name__ == "__main__":
        Trainer().train()
"""

# descriptinc/descript-audio-codec scripts/train.py: ``train_loop`` steps both optimizers through a wrapper's
# ``accel.step(optimizer)``.
WRAPPER = """\
    import types

    import torch
    from audiotools.ml import Accelerator


    def train_loop(state, batch, accel):
        loss_d = state.disc(batch).mean()
        state.optimizer_d.zero_grad()
        accel.backward(loss_d)
        accel.step(state.optimizer_d)
        loss_g = state.gen(batch).mean()
        state.optimizer_g.zero_grad()
        accel.backward(loss_g)
        accel.step(state.optimizer_g)


    def main():
        gen, disc = torch.nn.Linear(4, 4).cuda(), torch.nn.Linear(4, 1).cuda()
        optimizer_g = torch.optim.AdamW(gen.parameters())
        optimizer_d = torch.optim.AdamW(disc.parameters())
        state = types.SimpleNamespace(gen=gen, disc=disc, optimizer_g=optimizer_g, optimizer_d=optimizer_d)
        accel = Accelerator()
        for batch in torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=8):
            train_loop(state, batch.cuda(), accel)


    if __name__ == "__main__":
        main()
"""


def _accum(cli, tmp_path, text):
    write(tmp_path, {"train.py": text})
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")


def test_a_skipped_batch_is_no_accumulation(cli, tmp_path):
    got = _accum(cli, tmp_path, SKIP)
    assert got is not None and got.value == 1 and got.confidence == "medium"


def test_skip_twin_stepping_every_fourth_batch_says_nothing(cli, tmp_path):
    text = SKIP.replace("                optimizer.step()\n",
                        "                if (step + 1) % 4 == 0:\n                    optimizer.step()\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_skip_twin_whose_other_way_also_trains_without_stepping_says_nothing(cli, tmp_path):
    """The 'skipped' way back-propagates too (no step): its gradients add to the next batch's."""
    text = SKIP.replace("                pass\n", "                model(batch).sum().backward()\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_optimizers_stepped_in_a_loop_over_them(cli, tmp_path):
    got = _accum(cli, tmp_path, OPTIMIZERS)
    assert got is not None and got.value == 1


def test_optimizers_loop_twin_with_a_condition_says_nothing(cli, tmp_path):
    text = OPTIMIZERS.replace("            for opt in optimizers:\n                opt.step()\n",
                              "            for opt in optimizers:\n                if epoch % 2:\n"
                              "                    opt.step()\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_an_update_method_of_the_script_called_per_batch(cli, tmp_path):
    got = _accum(cli, tmp_path, METHOD)
    assert got is not None and got.value == 1 and got.confidence == "medium"
    assert got.adapter == "step_per_call"


def test_update_method_twin_stepping_under_a_condition_says_nothing(cli, tmp_path):
    text = METHOD.replace("            self.optimizer.step('cfm')\n",
                          "            if self.model.training and loss.item() > 0:\n"
                          "                self.optimizer.step('cfm')\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_update_method_twin_that_speaks_of_accumulation_says_nothing(cli, tmp_path):
    """A script with an accumulation setting may step a wrapped optimizer that skips steps: not claimed."""
    text = METHOD.replace("            self.optimizer = Parts(self.model)\n",
                          "            self.optimizer = Parts(self.model)\n            self.accum_steps = 4\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_a_wrapper_stepping_each_named_optimizer(cli, tmp_path):
    got = _accum(cli, tmp_path, WRAPPER)
    assert got is not None and got.value == 1


def test_wrapper_twin_with_a_backward_of_another_function_never_stepped_says_nothing(cli, tmp_path):
    text = WRAPPER.replace("    def main():\n",
                           "    def warmup(state, batch):\n        state.gen(batch).sum().backward()\n\n\n"
                           "    def main():\n")
    got = _accum(cli, tmp_path, text)
    assert got is None or got.value != 1


def test_a_deepspeed_engine_step_is_not_read_as_one_step_per_batch(cli, tmp_path):
    """``engine.backward(loss); engine.step()``: the engine accumulates by its config; no claim here."""
    write(tmp_path, {"train.py": """\
        import deepspeed
        import torch

        model = torch.nn.Linear(4, 4)
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config="ds.json")


        def step(batch):
            loss = engine(batch).sum()
            engine.backward(loss)
            engine.step()


        for batch in torch.utils.data.DataLoader(torch.zeros(64, 4), batch_size=8):
            step(batch)
    """, "ds.json": '{"train_micro_batch_size_per_gpu": 8}'})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")
    assert got is None or got.adapter != "step_per_call"


DEMO = """\
    import torch


    def build():
        return torch.nn.Linear(4, 4)


    if __name__ == "__main__":
        model = build()
        out = model(torch.randn(1, 4, requires_grad=True))
        out.backward(torch.ones_like(out))
"""


def test_a_gradient_demo_under_main_of_an_imported_module_is_not_a_backward_of_the_job(cli, tmp_path):
    """descriptinc/descript-audio-codec dac/model/dac.py:325-354: a module's hand-run gradient check."""
    text = WRAPPER.replace("    import torch\n", "    import torch\n    from model import build\n", 1)
    write(tmp_path, {"train.py": text, "model.py": DEMO})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")
    assert got is not None and got.value == 1


def test_demo_twin_whose_backward_runs_on_import_says_nothing(cli, tmp_path):
    """The same backward in a function of the imported module, with no step: not every backward steps."""
    demo = DEMO.replace('    if __name__ == "__main__":\n', "    def check():\n")
    text = WRAPPER.replace("    import torch\n", "    import torch\n    from model import build\n", 1)
    write(tmp_path, {"train.py": text, "model.py": demo})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.grad_accum")
    assert got is None or got.value != 1


def test_a_transformers_trainer_script_is_not_read_here(cli, tmp_path):
    """A script importing transformers' Trainer whose own function back-propagates and steps: the Trainer's
    accumulation is its own setting; this reading claims nothing."""
    text = METHOD.replace("    import torch\n", "    import torch\n    from transformers import (\n"
                          "        AutoModel,\n        Trainer as HFTrainer,\n    )\n", 1)
    got = _accum(cli, tmp_path, text)
    assert got is None or got.adapter != "step_per_call"
