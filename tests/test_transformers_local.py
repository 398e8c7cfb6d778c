"""A transformers Trainer built inside a project class the training script imports, the script
itself not importing transformers (adapters/transformers_local.py). Fixture of our own, rewriting
the shape of georgesung/llm_qlora @ 5a0e5e6 (train.py: ``from QloraTrainer import QloraTrainer``,
``trainer = QloraTrainer(config)``, ``trainer.load_base_model()``, ``trainer.train()``;
QloraTrainer.py:44-45 ``model.gradient_checkpointing_enable()``, ``prepare_model_for_kbit_training``,
:77-95 ``transformers.Trainer(args=transformers.TrainingArguments(..., fp16=True))``, ``.train()``),
with silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

FILES = {
    "train.py": """\
        import argparse
        import yaml
        from MyTrainer import MyTrainer

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("config_path")
            args = parser.parse_args()
            config = yaml.safe_load(open(args.config_path))
            trainer = MyTrainer(config)
            trainer.load_base_model()
            trainer.train()
    """,
    "MyTrainer.py": """\
        import transformers
        from transformers import AutoModelForCausalLM

        class MyTrainer:
            def __init__(self, config):
                self.config = config

            def load_base_model(self):
                model = AutoModelForCausalLM.from_pretrained(self.config["base_model"])
                model.gradient_checkpointing_enable()
                self.model = model

            def train(self):
                trainer = transformers.Trainer(
                    model=self.model,
                    args=transformers.TrainingArguments(
                        per_device_train_batch_size=2,
                        learning_rate=self.config["lr"],
                        fp16=True,
                        output_dir="out",
                    ),
                )
                trainer.train()
    """,
    "configs/run.yaml": """\
        base_model: gpt2
        lr: 0.0001
    """,
}


def test_trainer_built_in_an_imported_class_is_read_at_medium(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "--", "python", "train.py", "configs/run.yaml", cwd=tmp_path)
    precision = fact(plan, "precision.mode")
    assert (precision.value, precision.confidence) == ("amp_fp16", "medium")
    assert (precision.source.path, precision.adapter) == ("MyTrainer.py", "transformers_local")
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.confidence, micro.source.line) == (2, "medium", 17)
    assert fact(plan, "data.num_workers").value == 0  # the TrainingArguments default
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert (ckpt.value, ckpt.source.line) == (True, 10)  # the module's gradient_checkpointing_enable()


def test_without_checkpointing_call_the_default_stands(cli, tmp_path):
    files = dict(FILES)
    files["MyTrainer.py"] = files["MyTrainer.py"].replace("        model.gradient_checkpointing_enable()\n", "")
    assert files["MyTrainer.py"] != FILES["MyTrainer.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", "configs/run.yaml", cwd=tmp_path)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is False


def test_module_that_never_trains_is_not_read(cli, tmp_path):
    files = dict(FILES)
    files["MyTrainer.py"] = files["MyTrainer.py"].replace("trainer.train()", "return trainer")
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", "configs/run.yaml", cwd=tmp_path)
    assert fact(plan, "precision.mode") is None
    assert fact(plan, "batch.micro") is None


def test_entry_importing_transformers_is_left_to_its_own_pass(cli, tmp_path):
    files = dict(FILES)
    files["train.py"] = files["train.py"].replace("import yaml", "import yaml\n        import transformers")
    assert files["train.py"] != FILES["train.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train.py", "configs/run.yaml", cwd=tmp_path)
    from preflight.plan import TrainingPlan

    read = TrainingPlan.from_dict(plan)
    assert not [f for name in read.fields() for f in read.facts(name) if f.adapter == "transformers_local"]


# sotopia-lab/sotopia-rl @ 2ebb14e: scripts/train_sft.py imports ``from sotopia_rl import SotopiaSFTTrainer``
# (a package at the repository root, installed by its pyproject), whose ``__init__.py`` re-exports it from
# ``.sft_trainer``; that module's Trainer subclass builds TrainingArguments from the entry's options in
# ``__init__`` and hands them to ``super().__init__``. Our own rewrite of that shape.
PKG = {
    "pyproject.toml": "[project]\nname = \"mypkg\"\n",
    "scripts/train_sft.py": """\
        import argparse
        from accelerate import Accelerator
        from mypkg import SFTRunner

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--train_batch_size", type=int, default=2)
            parser.add_argument("--use_qlora", action="store_true")
            args = parser.parse_args()
            trainer = SFTRunner(args, Accelerator())
            trainer.train()
    """,
    "mypkg/__init__.py": """\
        from .rm_trainer import RMRunner
        from .sft_trainer import SFTRunner
    """,
    "mypkg/sft_trainer.py": """\
        from transformers import Trainer, TrainingArguments

        class SFTRunner(Trainer):
            def __init__(self, args, accelerator):
                hf_args = TrainingArguments(
                    output_dir="out",
                    per_device_train_batch_size=args.train_batch_size,
                    bf16=True,
                    optim="paged_adamw_8bit" if args.use_qlora else "adamw_torch",
                    dataloader_num_workers=4,
                )
                super().__init__(model=None, args=hf_args)

            def train(self, **kwargs):
                super().train(**kwargs)
    """,
    "mypkg/rm_trainer.py": """\
        from transformers import Trainer, TrainingArguments

        class RMRunner(Trainer):
            def __init__(self, args):
                super().__init__(model=None, args=TrainingArguments(output_dir="o", dataloader_num_workers=9,
                                                                    optim="adafactor"))

            def train(self, **kwargs):
                super().train(**kwargs)
    """,
}


def test_trainer_class_reexported_by_a_package_init_is_read(cli, tmp_path):
    write(tmp_path, PKG)
    plan = plan_of(cli, "--", "python", "train_sft.py", "--train_batch_size", "3", cwd=tmp_path / "scripts")
    workers = fact(plan, "data.num_workers")
    assert (workers.value, workers.confidence, workers.adapter) == (4, "medium", "transformers_local")
    assert workers.source.path.endswith("sft_trainer.py") and workers.source.line == 10
    assert fact(plan, "optimizer.name").value == "adamw_torch"  # --use_qlora not given
    assert fact(plan, "batch.micro").value == 3


def test_package_trainer_not_imported_by_the_entry_stays_unread(cli, tmp_path):
    files = dict(PKG)
    files["mypkg/__init__.py"] = "from .rm_trainer import RMRunner\nfrom .sft_trainer import SFTRunner as Other\n"
    write(tmp_path, files)
    plan = plan_of(cli, "--", "python", "train_sft.py", cwd=tmp_path / "scripts")
    # the entry's SFTRunner is not what the package exports; its RMRunner is not the job's either
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.adapter != "transformers_local"
    optim = fact(plan, "optimizer.name")
    assert optim is None or optim.value != "adafactor"
