"""jobs131: readers for misses of the real-jobs set held-out-50 (in-sample), on fixtures of our own copying the
shape of HiRookie9/PicoAudio2 @ e8e7268 (``src/train.py`` @hydra.main + ``configs/default.yaml`` ``trainer`` and
``train_dataloader`` ``_target_`` nodes, ``src/trainer.py`` dataclass Trainer building its Accelerator, a model
module reached only through ``_target_``), each with twins that must stay unknown."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

PICO = {
    "train.py": """\
        import hydra
        from omegaconf import OmegaConf
        from accelerate import Accelerator
        from trainer import Trainer


        def main():
            configs = []

            @hydra.main(version_base=None, config_path="configs", config_name="default")
            def parse(config):
                configs.append(OmegaConf.to_container(config, resolve=True))

            parse()
            config = configs[0]
            helper = Accelerator()
            model = hydra.utils.instantiate(config["model"])
            train_dataloader = hydra.utils.instantiate(config["train_dataloader"], _convert_="all")
            val_dataloader = hydra.utils.instantiate(config["val_dataloader"], _convert_="all")
            trainer: Trainer = hydra.utils.instantiate(config["trainer"], model=model,
                                                       train_dataloader=train_dataloader)
            trainer.train()


        if __name__ == "__main__":
            main()
    """,
    "configs/default.yaml": """\
        defaults:
          - model: dit
          - _self_

        gradient_accumulation_steps: 4

        train_dataloader:
          _target_: torch.utils.data.DataLoader
          batch_size: 24
          shuffle: True
          num_workers: 4

        val_dataloader:
          _target_: torch.utils.data.DataLoader
          batch_size: 2
          shuffle: False

        trainer:
          _target_: audio_trainer.AudioTrainer
          project_dir: exp
          gradient_accumulation_steps: ${gradient_accumulation_steps}
          epochs: 10
        {extra_top}
    """,
    "configs/model/dit.yaml": """\
        _target_: models.dit.DiT
        depth: 4
        width: 64
        {model_key}
    """,
    "trainer.py": """\
        from dataclasses import dataclass

        import torch
        from accelerate import Accelerator


        class SavingAccelerator(Accelerator):
            pass


        @dataclass(kw_only=True)
        class Trainer:
            project_dir: str
            model: torch.nn.Module
            train_dataloader: object
            epochs: int
            gradient_accumulation_steps: int = 1

            def setup(self):
                self.accelerator = SavingAccelerator(gradient_accumulation_steps=self.gradient_accumulation_steps,
                                                     project_dir=self.project_dir)
                self.model, self.train_dataloader = self.accelerator.prepare(self.model, self.train_dataloader){post}

            def train(self):
                self.setup()
                opt = torch.optim.AdamW(self.model.parameters(), lr=1e-4)
                for _ in range(self.epochs):
                    for batch in self.train_dataloader:
                        with self.accelerator.accumulate(self.model):
                            loss = self.model(batch).mean()
                            self.accelerator.backward(loss)
                            opt.step()
                            opt.zero_grad()
    """,
    "audio_trainer.py": """\
        from trainer import Trainer


        class AudioTrainer(Trainer):
            pass
    """,
    "models/__init__.py": "",
    "models/dit.py": """\
        import torch
        from torch import nn{ckpt_import}


        class DiT(nn.Module):
            def __init__(self, depth=4, width=64, use_checkpoint=False):
                super().__init__()
                self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
                self.use_checkpoint = use_checkpoint

            def forward(self, x):
                for block in self.blocks:
                    x = {call}
                return x
    """,
}


def _plan(cli, tmp_path, *overrides: str, ckpt: bool = False, model_key: str = "", post: str = "",
          extra_top: str = ""):
    files = dict(PICO)
    files["configs/default.yaml"] = PICO["configs/default.yaml"].replace("{extra_top}", extra_top)
    files["configs/model/dit.yaml"] = PICO["configs/model/dit.yaml"].replace("{model_key}", model_key)
    files["trainer.py"] = PICO["trainer.py"].replace("{post}", post)
    files["models/dit.py"] = PICO["models/dit.py"].replace(
        "{ckpt_import}", "\nfrom torch.utils.checkpoint import checkpoint" if ckpt else "").replace(
        "{call}", "checkpoint(block, x, use_reentrant=False) if self.use_checkpoint else block(x)" if ckpt
        else "block(x)")
    write(tmp_path, files)
    return plan_of(cli, "train.py", "--", *overrides, cwd=tmp_path)


# --------------------------------------------------------------------- the trainer class's accumulation

def test_trainer_node_accumulation_reaches_the_accelerator_through_a_local_base_class(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "batch.grad_accum")
    assert got is not None and got.value == 4 and got.confidence == "medium"
    assert got.source.key == "trainer.gradient_accumulation_steps"


def test_a_launch_line_override_of_the_accumulation_is_read(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "gradient_accumulation_steps=2"), "batch.grad_accum")
    assert got is not None and got.value == 2


def test_accumulation_reassigned_by_the_class_stays_unknown(cli, tmp_path):
    post = "\n                self.gradient_accumulation_steps = max(1, self.gradient_accumulation_steps // 2)"
    got = fact(_plan(cli, tmp_path, post=post), "batch.grad_accum")
    assert got is None or (got.value != 4 and got.confidence == "low")


def test_accumulation_swept_on_the_launch_line_stays_unknown(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "-m", "gradient_accumulation_steps=2,4"), "batch.grad_accum")
    assert got is None or got.confidence == "low"


# --------------------------------------------------------------------- the training DataLoader node's batch

def test_training_loader_node_batch_is_the_per_process_micro_batch(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "batch.micro")
    assert got is not None and got.value == 24 and got.confidence == "medium"
    got = fact(_plan(cli, tmp_path, "train_dataloader.batch_size=8"), "batch.micro")
    assert got is not None and got.value == 8


def test_split_batches_leaves_the_loader_batch_unknown(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, extra_top="accelerator: {split_batches: true}"), "batch.micro")
    assert got is None


def test_a_partial_loader_node_stays_unknown(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "+train_dataloader._partial_=true"), "batch.micro")
    assert got is None


def test_only_an_evaluation_loader_node_gives_no_micro_batch(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "~train_dataloader"), "batch.micro")
    assert got is None or got.value != 2


# --------------------------------------------------------------------- checkpointing in a _target_ module

def test_checkpointing_in_a_module_built_by_target_is_not_claimed_absent(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, ckpt=True), "memory.gradient_checkpointing")
    assert got is None or got.value is not False


def test_use_checkpoint_true_in_the_config_folder_is_not_claimed_absent(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, model_key="use_checkpoint: true"), "memory.gradient_checkpointing")
    assert got is None or got.value is not False


def test_a_target_module_without_checkpointing_still_reads_absent(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, model_key="use_checkpoint: false"), "memory.gradient_checkpointing")
    assert got is not None and got.value is False and got.confidence == "medium"


# --------------------------------------------------------------------- a LightningCLI trainer section given as a file
# malicd/LiSu @ 1be5fb5: main.py ``LightningCLI(seed_everything_default=42)``; README ``python main.py fit -c
# configs/lisu_ptv3_..._fulltrainval.yaml --trainer.devices 8``; that config's ``trainer: lisu_trainer.yaml`` and
# ``configs/lisu_trainer.yaml`` ``precision: "bf16-mixed"``, ``strategy: "ddp"``.
LISU = {
    "main.py": """\
        import torch
        from lightning.pytorch.cli import LightningCLI

        torch.set_float32_matmul_precision('medium')

        cli = LightningCLI(seed_everything_default=42)
    """,
    "configs/run.yaml": """\
        model:
          class_path: lisu.model.Net
        trainer: {trainer}
    """,
    "configs/lisu_trainer.yaml": """\
        precision: "bf16-mixed"
        accelerator: "gpu"
        strategy: "ddp"
        max_epochs: 50
    """,
    "lisu/__init__.py": "",
    "lisu/model.py": """\
        import torch
        from lightning.pytorch import LightningModule


        class Net(LightningModule):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(8, 8)

            def training_step(self, batch, batch_idx):
                return self.layer(batch).mean()

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters())
    """,
}


def _lisu(cli, tmp_path, trainer: str):
    files = dict(LISU)
    files["configs/run.yaml"] = LISU["configs/run.yaml"].replace("{trainer}", trainer)
    write(tmp_path, files)
    return plan_of(cli, "main.py", "--", "fit", "-c", "configs/run.yaml", "--trainer.devices", "8", cwd=tmp_path)


def test_a_lightningcli_trainer_section_given_as_a_yaml_path_is_read_beside_its_config(cli, tmp_path):
    plan = _lisu(cli, tmp_path, "lisu_trainer.yaml")
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "amp_bf16"
    assert got.source.path is not None and got.source.path.endswith("lisu_trainer.yaml")
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 8
    assert fact(plan, "dist.sharding").value == "ddp"


def test_a_trainer_section_path_that_does_not_exist_stays_unknown(cli, tmp_path):
    plan = _lisu(cli, tmp_path, "missing_trainer.yaml")
    got = fact(plan, "precision.mode")
    assert got is None or got.value != "amp_bf16"
    assert fact(plan, "dist.sharding") is None or fact(plan, "dist.sharding").value != "ddp"
