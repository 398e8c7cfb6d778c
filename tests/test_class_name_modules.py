"""Local modules named by a dnnlib ``class_name`` string (adapters/class_name_modules.py): NVlabs/stylegan3's
``c.loss_kwargs = dnnlib.EasyDict(class_name='training.loss.StyleGAN2Loss')``, NVlabs/edm's
``c.loss_kwargs.class_name = 'training.loss.EDMLoss'``, autonomousvision/stylegan-t's ProjectedGANLoss: the
loss module holding the backward pass is read like an import, so the absences of a wholly visible job
are written; a library class (``torch.optim.Adam``) or a name no local module defines adds nothing, and a
loss module that checkpoints or compiles keeps those unknown. Fixtures are our own small rewrites."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write
from preflight.adapters.class_name_modules import class_name_module_files

TRAIN = """\
    import dnnlib
    from training import training_loop


    def main():
        c = dnnlib.EasyDict()
        c.G_kwargs = dnnlib.EasyDict(class_name='training.networks.Generator', z_dim=64)
        c.G_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam', betas=[0, 0.99], eps=1e-8)
        c.loss_kwargs = dnnlib.EasyDict(class_name='training.loss.GANLoss')
        training_loop.training_loop(**c)


    if __name__ == "__main__":
        main()
"""

LOOP = """\
    import dnnlib


    def training_loop(G_kwargs={}, G_opt_kwargs={}, loss_kwargs={}):
        G = dnnlib.util.construct_class_by_name(**G_kwargs)
        opt = dnnlib.util.construct_class_by_name(params=G.parameters(), **G_opt_kwargs)
        loss = dnnlib.util.construct_class_by_name(G=G, **loss_kwargs)
        for real in range(10):
            opt.zero_grad(set_to_none=True)
            loss.accumulate_gradients(real)
            opt.step()
"""

NETWORKS = """\
    import torch


    class Generator(torch.nn.Module):
        def __init__(self, z_dim=64):
            super().__init__()
            self.fc = torch.nn.Linear(z_dim, z_dim)

        def forward(self, z):
            return self.fc(z)
"""

LOSS = """\
    import torch


    class GANLoss:
        def __init__(self, G):
            self.G = G

        def accumulate_gradients(self, real):
            z = torch.randn(4, 64)
            self.G(z).square().mean().backward()
"""

FILES = {"train.py": TRAIN, "training/__init__.py": "", "training/training_loop.py": LOOP,
         "training/networks.py": NETWORKS, "training/loss.py": LOSS, "dnnlib/__init__.py": ""}


def test_named_local_modules_found(tmp_path):
    write(tmp_path, FILES)
    import textwrap

    found = class_name_module_files([textwrap.dedent(TRAIN)], tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["training/networks.py", "training/loss.py"]


def test_library_and_undefined_names_add_nothing(tmp_path):
    write(tmp_path, FILES)
    text = ("import dnnlib\nopt = dnnlib.EasyDict(class_name='torch.optim.Adam')\n"
            "other = dnnlib.EasyDict(class_name='training.loss.NotDefinedHere')\n"
            "plain = 'training.loss.GANLoss'\n")  # a string that is no class_name value
    assert class_name_module_files([text], tmp_path) == []
    assert class_name_module_files([text], None) == []


def test_key_and_attribute_assignments(tmp_path):
    write(tmp_path, FILES)
    text = ("c = {}\nc['class_name'] = 'training.loss.GANLoss'\n"
            "kw = object()\nkw.func_name = 'training.networks.Generator'\n")
    found = class_name_module_files([text], tmp_path)
    assert {p.name for p in found} == {"loss.py", "networks.py"}


def test_plan_loop_in_named_loss_module_writes_absences(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    ckpt, peft = fact(plan, "memory.gradient_checkpointing"), fact(plan, "peft.method")
    assert ckpt is not None and ckpt.value is False and ckpt.confidence == "medium"
    assert peft is not None and peft.value == "none"


def test_plan_named_loss_that_checkpoints_stays_unknown(cli, tmp_path):
    """Twin: the loss module checkpoints the generator's forward."""
    files = dict(FILES)
    files["training/loss.py"] = LOSS.replace("self.G(z).square()", "torch.utils.checkpoint.checkpoint(self.G, z).square()")
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing") is None


def test_plan_without_the_loss_module_claims_nothing(cli, tmp_path):
    """Twin: the loss class is a library's (no local module holds the backward): nothing is seen."""
    files = {k: v for k, v in FILES.items() if k != "training/loss.py"}
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "memory.gradient_checkpointing") is None
    assert Path(tmp_path / "train.py").is_file()
