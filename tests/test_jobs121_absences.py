"""Activation checkpointing read as absent from the whole project (``adapters/visible_code.py``), for a thin
entry that only calls a package's training function, and the checkpoint words that are no checkpointing
(``adapters/pytorch_local.py`` ``_CKPT_WORDS``).

ai4co/rl4co @ 7a15396: ``run.py`` is two lines calling ``rl4co/tasks/train.py``'s ``@hydra.main`` ``train()``,
which builds the LightningModule, the environment and an ``RL4COTrainer`` by ``hydra.utils.instantiate`` and
runs ``trainer.fit``; none of its 247 Python files, its configs nor the launch line names activation
checkpointing. facebookresearch/fast3r @ 33104d4: a Hydra/Lightning job whose only "checkpoint" words are a
saved-model helper module (``fast3r/viz/demo.py`` ``from fast3r.utils.checkpoint_utils import load_model``) and
habitat-sim's ``sim.recompute_navmesh(...)`` in a vendored croco data generator. The fixtures are our own
small rewrites of those shapes; each twin names real checkpointing and keeps the field unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

THIN = {
    "run.py": """\
        from pkg.tasks.train import train

        if __name__ == "__main__":
            train()
    """,
    "pkg/__init__.py": "",
    "pkg/tasks/__init__.py": "",
    "pkg/tasks/train.py": """\
        import hydra
        import lightning as L


        def run(cfg):
            model = hydra.utils.instantiate(cfg.model)
            trainer = hydra.utils.instantiate(cfg.trainer)
            if cfg.get("compile", False):
                import torch
                model = torch.compile(model)
            trainer.fit(model=model)


        @hydra.main(version_base="1.3", config_path="../../configs", config_name="main.yaml")
        def train(cfg):
            run(cfg)
    """,
    "pkg/models/__init__.py": "",
    "pkg/models/net.py": """\
        import lightning as L
        import torch
        from torch import nn


        class Net(L.LightningModule):
            def __init__(self, hidden: int = 8):
                super().__init__()
                self.layer = nn.Linear(hidden, hidden)

            def training_step(self, batch, batch_idx):
                return self.layer(batch).sum()

            def configure_optimizers(self):
                return torch.optim.Adam(self.parameters(), lr=1e-4)
    """,
    "configs/main.yaml": """\
        defaults:
          - _self_
        compile: false
        model:
          _target_: pkg.models.net.Net
          hidden: 8
        trainer:
          _target_: lightning.Trainer
          max_epochs: 3
    """,
}


def test_thin_entry_lightning_project_with_no_checkpointing_anywhere(cli, tmp_path):
    write(tmp_path, THIN)
    got = fact(plan_of(cli, "run.py", cwd=tmp_path), "memory.gradient_checkpointing")
    assert got is not None and got.value is False and got.confidence == "medium", got
    assert "no Python file of the project" in got.source.detail


def test_twin_a_project_class_that_can_checkpoint_keeps_it_unknown(cli, tmp_path):
    files = dict(THIN)
    # a config key could turn it on (lllyasviel/ControlNet's use_checkpoint): not said
    files["pkg/models/net.py"] = files["pkg/models/net.py"].replace(
        "import torch\n", "import torch\nfrom torch.utils.checkpoint import checkpoint\n")
    write(tmp_path, files)
    assert fact(plan_of(cli, "run.py", cwd=tmp_path), "memory.gradient_checkpointing") is None


def test_twin_checkpointing_named_in_the_config_keeps_it_unknown(cli, tmp_path):
    files = dict(THIN)
    files["configs/main.yaml"] = files["configs/main.yaml"].replace(
        "compile: false\n", "compile: false\n        gradient_checkpointing: true\n")
    write(tmp_path, files)
    assert fact(plan_of(cli, "run.py", cwd=tmp_path), "memory.gradient_checkpointing") is None


LOOP = {
    "train.py": """\
        import torch
        from torch import nn
        from proj.utils.checkpoint_utils import load_model
        from proj.scenes import walkable


        def main():
            model = load_model(nn.Linear(4, 4))
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
            for x in [walkable(torch.zeros(2, 4))]:
                loss = model(x).sum()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()


        if __name__ == "__main__":
            main()
    """,
    "proj/__init__.py": "",
    "proj/utils/__init__.py": "",
    "proj/utils/checkpoint_utils.py": """\
        def load_model(model, path=None):
            return model
    """,
    "proj/scenes.py": """\
        class Sim:
            def recompute_navmesh(self, pathfinder, settings):
                return None


        def walkable(x):
            sim = Sim()
            sim.recompute_navmesh(None, None)
            return x
    """,
}


def test_saved_model_helpers_and_a_navmesh_are_no_checkpointing(cli, tmp_path):
    write(tmp_path, LOOP)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing")
    assert got is not None and got.value is False and got.confidence == "medium", got


def test_twin_torch_utils_checkpoint_keeps_it_unknown(cli, tmp_path):
    files = dict(LOOP)
    files["proj/scenes.py"] = "import torch.utils.checkpoint as cp\n" + files["proj/scenes.py"] + \
        "\n\ndef body(f, x):\n    return cp.checkpoint(f, x)\n"
    write(tmp_path, files)
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing") is None


HELPER = """\
    import torch


    def checkpoint(func, inputs, params, flag):
        if flag:
            return CheckpointFunction.apply(func, len(inputs), *inputs)
        return func(*inputs)


    class CheckpointFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, run_function, length, *args):
            return run_function(*args)
"""


def test_a_checkpoint_helper_nothing_calls_is_no_checkpointing(cli, tmp_path):
    """sail-sg/MDT @ 7d26c21 keeps guided-diffusion's ``masked_diffusion/nn.py`` helper; its model never calls it."""
    files = dict(LOOP)
    files["proj/nn.py"] = HELPER
    files["train.py"] = files["train.py"].replace("from proj.scenes import walkable",
                                                  "from proj.scenes import walkable\n        from proj import nn as pnn")
    write(tmp_path, files)
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing")
    assert got is not None and got.value is False, got


def test_twin_a_called_checkpoint_helper_keeps_it_unknown(cli, tmp_path):
    files = dict(LOOP)
    files["proj/nn.py"] = HELPER + "\n\n    def block(f, x, use_checkpoint):\n        return checkpoint(f, (x,), (), use_checkpoint)\n"
    files["train.py"] = files["train.py"].replace("from proj.scenes import walkable",
                                                  "from proj.scenes import walkable\n        from proj import nn as pnn")
    write(tmp_path, files)
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "memory.gradient_checkpointing") is None
