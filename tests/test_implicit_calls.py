"""The optimizer a local module builds where no call names the function (issue 15,
preflight/adapters/implicit_calls.py): small rewrites of our own with the shapes of openai/improved-diffusion
@ 1bc7bbb (improved_diffusion/train_util.py:82 `self.opt = AdamW(...)` in `TrainLoop.__init__`, built by
scripts/image_train.py) and kuleshov-group/mdlm @ c112c52 (diffusion.py:454 `torch.optim.AdamW` in a
LightningModule's `configure_optimizers`), with twins that must stay silent."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

LOOP = """\
    import torch
    from torch.optim import AdamW


    class TrainLoop:
        def __init__(self, model, lr):
            self.model = model
            self.opt = AdamW(self.model.parameters(), lr=lr)

        def run_loop(self, batches):
            for x in batches:
                self.model(x).sum().backward()
                self.opt.step()
                self.opt.zero_grad()


    def unused_helper(model):
        return torch.optim.SGD(model.parameters(), lr=0.1)
    """

SCRIPT = """\
    import torch
    from improved.train_util import TrainLoop

    model = torch.nn.Linear(2, 2)
    TrainLoop(model, 1e-4).run_loop([torch.zeros(4, 2)])
    """

LIGHTNING = """\
    import lightning as L
    import torch


    class Diffusion(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(2, 2)

        def training_step(self, batch, idx):
            return self.net(batch).sum()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-4)


    class Other(torch.nn.Module):
        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)
    """

LIGHTNING_MAIN = """\
    import lightning as L
    import torch
    import diffusion

    model = diffusion.Diffusion()
    L.Trainer(max_steps=1).fit(model, torch.utils.data.DataLoader(torch.zeros(8, 2)))
    """


def test_an_optimizer_built_in_the_init_of_a_class_the_script_builds(cli, tmp_path):
    write(tmp_path, {"improved/__init__.py": "", "improved/train_util.py": LOOP, "scripts/train.py": SCRIPT})
    plan = plan_of(cli, "scripts/train.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "AdamW"  # the SGD of a helper no one calls is not the job's
    got = fact(plan, "optimizer.name")
    assert got.confidence == "medium" and got.source.line == 8
    # the class is never built: its __init__ never runs
    write(tmp_path, {"scripts/train.py": SCRIPT.replace("TrainLoop(model, 1e-4).run_loop(", "print(TrainLoop, ").rstrip(" ")
                     + "    model(torch.zeros(1, 2)).sum().backward()\n"})
    plan = plan_of(cli, "scripts/train.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None


def test_an_optimizer_of_a_lightning_hook_and_not_of_a_plain_module(cli, tmp_path):
    write(tmp_path, {"diffusion.py": LIGHTNING, "main.py": LIGHTNING_MAIN})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") == "AdamW"  # Other is no LightningModule: its hook never runs
    # a second LightningModule whose hook builds its optimizer from its config, not a literal class (the shape of
    # Stability-AI/stable-audio-tools @ 50049e3: a training wrapper per model type): which one trains is not
    # known from the modules, so the literal SGD of the other is not the job's
    both = LIGHTNING.replace("class Other(torch.nn.Module):", "class Other(L.LightningModule):").replace(
        "return torch.optim.SGD(self.parameters(), lr=0.1)", "return self.make_optimizer()")
    write(tmp_path, {"diffusion.py": both})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert winner(plan, "optimizer.name") is None
