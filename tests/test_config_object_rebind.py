"""A local rebound from one section of a loaded config to another (adapters/config_object_rebind.py, read by
adapters/config_object_reads.py). The fixture is our own small rewrite of georgesung/llm_qlora @
cc6683effd21 (train.py: ``config = read_yaml_file(args.config_path)``, ``QloraTrainer(config)``;
QloraTrainer.py:54-91: ``config_dict = self.config["lora"]`` under ``if self.adapter_model is None:`` feeding
``LoraConfig(r=config_dict["r"])``, then ``config_dict = self.config["trainer"]`` feeding
``TrainingArguments(per_device_train_batch_size=config_dict["batch_size"], gradient_accumulation_steps=...)``);
the twin rebinds the name under a condition, so which section a read sees is not known and nothing is claimed."""

from __future__ import annotations

import ast

from plan_helpers import fact, plan_of, write
from preflight.adapters.config_object_rebind import binding_at, segments

FILES = {
    "train.py": """\
        import argparse

        import yaml

        from qlora_trainer import QloraTrainer


        def read_yaml_file(file_path):
            with open(file_path, "r") as file:
                return yaml.safe_load(file)


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("config_path")
            args = parser.parse_args()
            config = read_yaml_file(args.config_path)
            trainer = QloraTrainer(config)
            trainer.train()
    """,
    "qlora_trainer.py": """\
        import transformers
        from peft import LoraConfig, get_peft_model


        class QloraTrainer:
            def __init__(self, config):
                self.config = config
                self.adapter_model = None
                self.base_model = transformers.AutoModelForCausalLM.from_pretrained(config["base_model"])

            def train(self):
                if self.adapter_model is None:
                    config_dict = self.config["lora"]
                    config = LoraConfig(r=config_dict["r"], lora_alpha=config_dict["lora_alpha"])
                    model = get_peft_model(self.base_model, config)
                else:
                    model = self.adapter_model
                config_dict = self.config["trainer"]
                trainer = transformers.Trainer(
                    model=model,
                    args=transformers.TrainingArguments(
                        per_device_train_batch_size=config_dict["batch_size"],
                        gradient_accumulation_steps=config_dict["gradient_accumulation_steps"],
                        output_dir="out",
                    ),
                )
                trainer.train()
    """,
    "configs/run.yaml": """\
        base_model: meta-llama/Meta-Llama-3-8B
        lora:
          r: 8
          lora_alpha: 32
        trainer:
          batch_size: 2
          gradient_accumulation_steps: 4
    """,
}


def test_each_read_sees_the_section_bound_last_before_it(cli, tmp_path):
    write(tmp_path, FILES)
    plan = plan_of(cli, "train.py", "--", "configs/run.yaml", cwd=tmp_path)
    rank = fact(plan, "peft.rank")
    assert rank is not None and rank.value == 8 and rank.confidence == "medium"
    assert fact(plan, "batch.micro").value == 2
    assert fact(plan, "batch.grad_accum").value == 4


def test_a_rebinding_under_a_condition_leaves_the_later_reads_unknown(cli, tmp_path):
    """Twin: the trainer section is bound only when a flag holds; after the ``if`` the name may still be the
    LoRA section, so the Trainer's batch and accumulation are not read from the config."""
    files = dict(FILES)
    files["qlora_trainer.py"] = files["qlora_trainer.py"].replace(
        '                config_dict = self.config["trainer"]\n',
        '                if self.config.get("separate_trainer"):\n'
        '                    config_dict = self.config["trainer"]\n')
    write(tmp_path, files)
    plan = plan_of(cli, "train.py", "--", "configs/run.yaml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 2
    accum = fact(plan, "batch.grad_accum")
    assert accum is None or accum.value != 4
    assert fact(plan, "peft.rank").value == 8  # read inside the arm that bound the LoRA section


def _segs(src: str):
    fn = ast.parse(src).body[0]
    own = [n for n in ast.walk(fn) if n is not fn]
    paths = {"a": ("a",), "b": ("b",)}
    return fn, segments(fn, own, "x", lambda v: paths.get(getattr(v, "id", "")))


def test_binding_at_follows_blocks_and_refuses_other_shapes():
    fn, segs = _segs("def f(a, b):\n    x = a\n    for i in range(3):\n        use(x)\n    x = b\n    use(x)\n")
    uses = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "x" and isinstance(n.ctx, ast.Load)),
                  key=lambda n: n.lineno)
    assert [binding_at(segs, u) for u in uses] == [("a",), ("b",)]
    # an augmented or tuple binding among them: not followed at all
    assert _segs("def f(a, b):\n    x = a\n    x, y = b, 1\n    use(x)\n")[1] is None
    # a read before any binding, or in the same statement as one, sees none of them
    fn, segs = _segs("def f(a, b):\n    use(x)\n    x = a\n    x = b\n")
    use = next(n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "x" and isinstance(n.ctx, ast.Load))
    assert binding_at(segs, use) is None
