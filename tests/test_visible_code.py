"""Absences recorded when the whole job is visible (adapters/visible_code.py) and one optimizer step per
batch through an AMP scaler (adapters/loop_shapes.py). Fixtures of our own copying real shapes, each
citing repository, path and commit; each must-fire test has a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan


def by(plan: dict, field: str, adapter: str):
    for f in TrainingPlan.from_dict(plan).facts(field):
        if f.adapter == adapter:
            return f
    return None


# microsoft/Swin-Transformer @ f82860bfb5225915aca09c3227159ee9e1df874d: main.py:180-215 (the epoch loop calls
# loss_scaler(loss, optimizer, ...)), utils.py:NativeScalerWithGradNormCount.__call__
# (self._scaler.scale(loss).backward(create_graph=create_graph)): the backward is in a local module.
SWIN_LOOP = {
    "main.py": """\
        import torch
        from utils import NativeScalerWithGradNormCount as NativeScaler


        def train_one_epoch(model, data_loader, optimizer, loss_scaler):
            for samples, targets in data_loader:
                with torch.cuda.amp.autocast():
                    loss = model(samples).mean()
                loss_scaler(loss, optimizer, parameters=model.parameters())


        if __name__ == '__main__':
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters())
            train_one_epoch(model, [], optimizer, NativeScaler())
    """,
    "utils.py": """\
        import torch


        class NativeScalerWithGradNormCount:
            def __init__(self):
                self._scaler = torch.cuda.amp.GradScaler()

            def __call__(self, loss, optimizer, parameters=None, update_grad=True):
                self._scaler.scale(loss).backward()
                if update_grad:
                    self._scaler.step(optimizer)
                    self._scaler.update()
    """,
}


def test_loop_in_a_local_module_records_the_absences(cli, tmp_path):
    write(tmp_path, SWIN_LOOP)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    peft = by(plan, "peft.method", "visible_code")
    assert peft is not None and peft.value == "none" and peft.confidence == "medium"
    assert by(plan, "memory.gradient_checkpointing", "visible_code").value is False
    assert by(plan, "compile.enabled", "visible_code").value is False


def test_a_mention_anywhere_in_the_job_keeps_it_unknown(cli, tmp_path):
    """Silent twin: the local module calls torch.utils.checkpoint and torch.compile, a launch-line
    option names LoRA: nothing is claimed for those three (an import alone, never called, is no use:
    tests/test_visible_code_words.py)."""
    files = dict(SWIN_LOOP)
    files["utils.py"] = "import torch.utils.checkpoint as cp\n" + files["utils.py"].replace(
        "self._scaler = torch.cuda.amp.GradScaler()",
        "self._scaler = torch.cuda.amp.GradScaler()\n        self.fn = torch.compile(lambda x: x)\n"
        "        self.ck = lambda f, x: cp.checkpoint(f, x)")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--lora_r", "8", cwd=tmp_path)
    assert by(plan, "peft.method", "visible_code") is None
    assert by(plan, "memory.gradient_checkpointing", "visible_code") is None
    assert by(plan, "compile.enabled", "visible_code") is None


def test_loop_in_a_library_is_not_visible(cli, tmp_path):
    """Silent twin: timm's NativeScaler does the backward (huggingface/pytorch-image-models train.py):
    the loop is not the project's, nothing is claimed."""
    files = {"main.py": SWIN_LOOP["main.py"].replace("from utils import NativeScalerWithGradNormCount as NativeScaler",
                                                      "from timm.utils import NativeScaler")}
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert by(plan, "peft.method", "visible_code") is None


def test_hf_trainer_jobs_are_left_to_the_transformers_adapter(cli, tmp_path):
    """Silent twin: a transformers Trainer runs the loop (a local module with a custom backward helper
    is not the loop)."""
    files = dict(SWIN_LOOP)
    files["main.py"] = files["main.py"].replace(
        "train_one_epoch(model, [], optimizer, NativeScaler())",
        "Trainer(model=model, args=TrainingArguments('out')).train()").replace(
        "import torch\n", "import torch\n        from transformers import Trainer, TrainingArguments\n", 1)
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert by(plan, "compile.enabled", "visible_code") is None


# jaywalnut310/vits @ 2e561ba58618d021b5b8323d3765880f7e0ecfdb: train.py:137-193 (a GAN: the discriminator's
# and the generator's backward and scaler.step on every batch, each through the same GradScaler).
VITS = {
    "train.py": """\
        import torch
        from torch.cuda.amp import autocast, GradScaler


        def train_and_evaluate(nets, optims, scaler, loader):
            net_g, net_d = nets
            optim_g, optim_d = optims
            for batch_idx, (x, y) in enumerate(loader):
                with autocast(enabled=True):
                    y_hat = net_g(x)
                    loss_disc_all = net_d(y, y_hat.detach()).mean()
                optim_d.zero_grad()
                scaler.scale(loss_disc_all).backward()
                scaler.unscale_(optim_d)
                scaler.step(optim_d)
                with autocast(enabled=True):
                    loss_gen_all = net_d(y, y_hat).mean()
                optim_g.zero_grad()
                scaler.scale(loss_gen_all).backward()
                scaler.unscale_(optim_g)
                scaler.step(optim_g)
                scaler.update()


        if __name__ == "__main__":
            net_g, net_d = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)
            optim_g = torch.optim.AdamW(net_g.parameters(), 2e-4)
            optim_d = torch.optim.AdamW(net_d.parameters(), 2e-4)
            train_and_evaluate([net_g, net_d], [optim_g, optim_d], GradScaler(enabled=True), [])
    """,
}


def test_scaler_step_on_every_batch_is_no_accumulation(cli, tmp_path):
    write(tmp_path, VITS)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    accum = by(plan, "batch.grad_accum", "loop_shapes")
    assert accum is not None and accum.value == 1 and accum.source.line == 15


def test_scaler_step_under_a_condition_says_nothing(cli, tmp_path):
    """Silent twin: the generator's step every 4 batches (accumulation): no count is claimed."""
    files = {"train.py": VITS["train.py"].replace(
        "                scaler.step(optim_g)\n",
        "                if (batch_idx + 1) % 4 == 0:\n                    scaler.step(optim_g)\n")}
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert by(plan, "batch.grad_accum", "loop_shapes") is None


def test_a_layer_named_adapter1_is_no_peft(cli, tmp_path):
    """facebookresearch/detr @ 29901c5 models/segmentation.py:93-95: an FPN's ``self.adapter1 =
    torch.nn.Conv2d(...)`` names no PEFT, so the absence is still recorded; a module or call named
    ``adapter`` on its own (``self.adapter = ...``, ``model.add_adapter(...)``) keeps it unknown."""
    files = dict(SWIN_LOOP)
    files["fpn.py"] = ("import torch\n\n\nclass FPN(torch.nn.Module):\n    def __init__(self):\n"
                       "        super().__init__()\n        self.adapter1 = torch.nn.Conv2d(8, 8, 1)\n")
    files["main.py"] = files["main.py"].replace("        import torch\n", "        import torch\n        import fpn\n", 1)
    write(tmp_path, files)
    peft = by(plan_of(cli, "main.py", cwd=tmp_path), "peft.method", "visible_code")
    assert peft is not None and peft.value == "none"
    for named in ("        self.adapter = torch.nn.Conv2d(8, 8, 1)\n", "        self.add_adapter('lora')\n"):
        files["fpn.py"] = files["fpn.py"].replace("        self.adapter1 = torch.nn.Conv2d(8, 8, 1)\n", named)
        write(tmp_path, files)
        assert by(plan_of(cli, "main.py", cwd=tmp_path), "peft.method", "visible_code") is None
        files["fpn.py"] = files["fpn.py"].replace(named, "        self.adapter1 = torch.nn.Conv2d(8, 8, 1)\n")


# salesforce/BLIP @ 3a29b74 train_caption.py: the loop is the script's own (loss.backward(), optimizer.step()),
# the model is built by a local helper (models/blip.py blip_decoder), and nothing of the job names autocast, a
# scaler or a 16-bit dtype (a uint8/float64 tensor is no precision setting): fp32.
BLIP_LIKE = {
    "main.py": """\
        import torch
        from models import blip_decoder


        def train(model, data_loader, optimizer):
            for image, caption in data_loader:
                loss = model(image, caption).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        if __name__ == '__main__':
            model = blip_decoder()
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
            train(model, [], optimizer)
    """,
    "models.py": """\
        import torch


        def blip_decoder():
            # masks = torch.zeros((0, 4), dtype=torch.uint8)
            t = torch.tensor([1.0], dtype=torch.float64)
            return torch.nn.Linear(4, 4)
    """,
}


def test_no_16_bit_named_anywhere_is_fp32(cli, tmp_path):
    write(tmp_path, BLIP_LIKE)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    mode = by(plan, "precision.mode", "visible_code")
    assert mode is not None and mode.value == "fp32" and mode.confidence == "medium"
    assert "PyTorch computes in fp32" in mode.source.detail
    assert TrainingPlan.from_dict(plan).resolve("precision.mode").value == "fp32"


def test_a_16_bit_spelling_anywhere_keeps_precision_unknown(cli, tmp_path):
    """Silent twins: autocast in a local module, a ``.half()`` cast, a ``--precision`` option on the launch
    line, an ``fp16`` key in a JSON config the job reads: no fp32 is claimed (a trailing comment naming fp16,
    salesforce/BLIP models/med.py:186, does not count)."""
    for module, old, new in (
            ("main.py", "loss = model(image, caption).sum()",
             "with torch.autocast('cuda'):\n                    loss = model(image, caption).sum()"),
            ("models.py", "return torch.nn.Linear(4, 4)", "return torch.nn.Linear(4, 4).half()")):
        files = dict(BLIP_LIKE)
        files[module] = files[module].replace(old, new)
        write(tmp_path, files)
        assert by(plan_of(cli, "main.py", cwd=tmp_path), "precision.mode", "visible_code") is None, module
    write(tmp_path, BLIP_LIKE)
    assert by(plan_of(cli, "main.py", "--", "--precision", "bf16", cwd=tmp_path),
              "precision.mode", "visible_code") is None
    files = dict(BLIP_LIKE)
    files["models.py"] = files["models.py"].replace("return torch.nn.Linear(4, 4)",
                                                    "return torch.nn.Linear(4, 4)  # fp16 compatibility")
    write(tmp_path, files)
    mode = by(plan_of(cli, "main.py", cwd=tmp_path), "precision.mode", "visible_code")
    assert mode is not None and mode.value == "fp32"


# karpathy/minGPT @ 37baab71b9abea1b76ab957409a1cc2fbfba8a26: projects/chargpt/chargpt.py:12-13,107-108 runs
# ``Trainer(config.trainer, model, train_dataset).run()`` from the repository's own package ``mingpt/`` two folders
# up (installed by ``pip install -e .``); mingpt/trainer.py:99 ``self.loss.backward()``, mingpt/model.py:257
# ``torch.optim.AdamW`` in ``configure_optimizers``.
MINGPT = {
    "mingpt/__init__.py": "",
    "mingpt/model.py": """\
        import torch


        class GPT(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lm_head = torch.nn.Linear(4, 4)

            def configure_optimizers(self, config):
                return torch.optim.AdamW(self.parameters(), lr=config.learning_rate)
    """,
    "mingpt/trainer.py": """\
        from torch.utils.data.dataloader import DataLoader


        class Trainer:
            def __init__(self, config, model, train_dataset):
                self.config, self.model, self.train_dataset = config, model, train_dataset

            def run(self):
                self.optimizer = self.model.configure_optimizers(self.config)
                for x, y in DataLoader(self.train_dataset, batch_size=self.config.batch_size):
                    self.loss = self.model(x).sum()
                    self.model.zero_grad(set_to_none=True)
                    self.loss.backward()
                    self.optimizer.step()
    """,
    "projects/chargpt/chargpt.py": """\
        import torch

        from mingpt.model import GPT
        from mingpt.trainer import Trainer

        if __name__ == '__main__':
            model = GPT()
            trainer = Trainer(None, model, [])
            trainer.run()
    """,
}


def test_a_package_above_the_folder_run_from_is_read(cli, tmp_path):
    write(tmp_path, MINGPT)
    plan = plan_of(cli, "chargpt.py", cwd=tmp_path / "projects" / "chargpt")
    opt = TrainingPlan.from_dict(plan).resolve("optimizer.name")
    assert opt is not None and opt.value == "AdamW" and opt.confidence == "medium"
    assert opt.source.path.endswith("mingpt/model.py") and opt.source.line == 10
    assert by(plan, "peft.method", "visible_code").value == "none"  # the project's own Trainer is no HF Trainer
    assert by(plan, "memory.gradient_checkpointing", "visible_code").value is False


def test_an_hf_trainer_or_a_package_out_of_reach_says_nothing(cli, tmp_path):
    """Silent twins: the script runs transformers' Trainer (no class Trainer of the project's): no absence;
    the package three folders up (beyond the two read above the folder run from): no optimizer."""
    files = dict(MINGPT)
    files["projects/chargpt/chargpt.py"] = files["projects/chargpt/chargpt.py"].replace(
        "from mingpt.trainer import Trainer", "from transformers import Trainer")
    files["mingpt/trainer.py"] = files["mingpt/trainer.py"].replace("class Trainer:", "class Loop:")
    write(tmp_path, files)
    plan = plan_of(cli, "chargpt.py", cwd=tmp_path / "projects" / "chargpt")
    assert by(plan, "peft.method", "visible_code") is None
    deep = {k.replace("projects/chargpt/", "projects/x/chargpt/"): v for k, v in MINGPT.items()}
    write(tmp_path / "deep", deep)
    plan = plan_of(cli, "chargpt.py", cwd=tmp_path / "deep" / "projects" / "x" / "chargpt")
    opt = TrainingPlan.from_dict(plan).resolve("optimizer.name")
    assert opt is None or "mingpt/model.py" not in (opt.source.path or "")


# MoonshotAI/Moonlight examples/toy_train.py:48: @torch.compile on the Muon optimizer's Newton-Schulz helper, a
# numeric function of one gradient matrix; the model itself is never compiled
NS_HELPER = """\
    @torch.compile
    def zeropower(G, steps):
        assert len(G.shape) == 2
        X = G.float()
        X /= X.norm() + 1e-7
        for _ in range(steps):
            X = 1.5 * X - 0.5 * X @ X.T @ X
        return X
"""


def _loop(helper: str) -> dict:
    return {"main.py": "import torch\n\n\n" + helper.replace("\n    ", "\n").lstrip() + """

model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x in [torch.randn(2, 4)]:
    loss = model(x).sum()
    loss.backward()
    for p in model.parameters():
        p.grad = zeropower(p.grad, 5)
    optimizer.step()
    optimizer.zero_grad()
"""}


def test_a_compiled_numeric_helper_is_no_compiled_model(cli, tmp_path):
    write(tmp_path, _loop(NS_HELPER))
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    got = by(plan, "compile.enabled", "visible_code") or by(plan, "compile.enabled", "pytorch")
    assert got is not None and got.value is False


def test_twin_a_compiled_function_that_runs_a_module_keeps_compile_unknown(cli, tmp_path):
    helper = NS_HELPER.replace("X = G.float()\n", "X = G.float()\n        X = model(X)\n")
    write(tmp_path, _loop(helper))
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert all(f.value is not False for f in TrainingPlan.from_dict(plan).facts("compile.enabled"))
