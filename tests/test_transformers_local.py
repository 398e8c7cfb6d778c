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
