"""A config-loading helper that dispatches on the path's suffix (adapters/config_object_suffix_helper.py,
through adapters/config_object_files.py helper_path): read when the path takes the arm that loads it, unknown
otherwise. Fixtures of our own copying a real shape, with silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# sihunc-flwls/hallo @ 7dc5e3a (the fudan-generative-vision Hallo training scripts):
# scripts/train_stage1_hallo.py:289-305,431-439,765-793 (``load_config`` with a ``.yaml`` arm returning
# ``OmegaConf.load(config_path)`` and a ``.py`` arm returning ``import_filename(config_path).cfg``; the config
# handed to ``train_stage1_process(cfg)``: ``Accelerator(gradient_accumulation_steps=cfg.solver...,
# mixed_precision=cfg.solver.mixed_precision)``, ``DataLoader(batch_size=cfg.data.train_bs)``),
# configs/train/hallo/stage1.yaml:1-17 (shortened).
HALLO = {
    "scripts/train_stage1.py": """\
        import argparse
        import logging
        import torch
        from accelerate import Accelerator
        from omegaconf import OmegaConf
        from torch.utils.data import DataLoader
        from utils import import_filename


        def train_stage1_process(cfg):
            accelerator = Accelerator(
                gradient_accumulation_steps=cfg.solver.gradient_accumulation_steps,
                mixed_precision=cfg.solver.mixed_precision,
            )
            net = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(net.parameters(), lr=cfg.solver.learning_rate)
            loader = DataLoader([], batch_size=cfg.data.train_bs, shuffle=True, num_workers=4)
            net, optimizer, loader = accelerator.prepare(net, optimizer, loader)
            for batch in loader:
                with accelerator.accumulate(net):
                    loss = net(batch).mean()
                    accelerator.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad()


        def load_config(config_path: str) -> dict:
            \"\"\"Loads the configuration file.\"\"\"
            if config_path.endswith(".yaml"):
                return OmegaConf.load(config_path)
            if config_path.endswith(".py"):
                return import_filename(config_path).cfg
            raise ValueError("Unsupported format for config file")


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", type=str, default="./configs/train/stage1.yaml")
            args = parser.parse_args()
            try:
                config = load_config(args.config)
                train_stage1_process(config)
            except Exception as e:
                logging.error("Failed to execute the training process: %s", e)
    """,
    "scripts/utils.py": """\
        import importlib.util


        def import_filename(filename):
            spec = importlib.util.spec_from_file_location("mymodule", filename)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    """,
    "configs/train/stage1.yaml": """\
        data:
          train_bs: 2
          train_width: 512
        solver:
          gradient_accumulation_steps: 4
          mixed_precision: "fp16"
          learning_rate: 1.0e-5
    """,
    "configs/train/stage1.py": "cfg = dict(data=dict(train_bs=64))\n",
}


def test_the_yaml_arm_of_a_suffix_dispatching_helper_is_read(cli, tmp_path):
    write(tmp_path, HALLO)
    plan = plan_of(cli, "scripts/train_stage1.py", cwd=tmp_path)
    micro = ours(plan, "batch.micro")
    assert micro is not None and micro.value == 2
    assert (micro.source.path, micro.source.line) == ("configs/train/stage1.yaml", 2)
    accum = ours(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 4


def test_the_launch_line_names_the_yaml_file(cli, tmp_path):
    files = dict(HALLO, **{"configs/train/big.yaml": "data:\n  train_bs: 8\nsolver:\n  gradient_accumulation_steps: 1\n"
                                                     "  mixed_precision: bf16\n  learning_rate: 1.0e-5\n"})
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train_stage1.py", "--", "--config", "configs/train/big.yaml", cwd=tmp_path)
    assert ours(plan, "batch.micro").value == 8


def test_a_path_taking_the_python_arm_stays_unknown(cli, tmp_path):
    # ``import_filename(p).cfg`` runs the file: not read as a YAML file, and its value is not guessed
    write(tmp_path, HALLO)
    plan = plan_of(cli, "scripts/train_stage1.py", "--", "--config", "configs/train/stage1.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "batch.grad_accum") is None


def test_a_path_no_arm_takes_stays_unknown(cli, tmp_path):
    files = dict(HALLO, **{"configs/train/stage1.yml": "data:\n  train_bs: 3\n"})
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train_stage1.py", "--", "--config", "configs/train/stage1.yml", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None  # ``.yml`` is not ``.yaml``: the helper raises


def test_an_arm_that_changes_the_loaded_config_is_not_a_dispatch(cli, tmp_path):
    files = dict(HALLO)
    files["scripts/train_stage1.py"] = files["scripts/train_stage1.py"].replace(
        "if config_path.endswith(\".yaml\"):\n                return OmegaConf.load(config_path)",
        "if config_path.endswith(\".yaml\"):\n                return OmegaConf.merge(OmegaConf.load(config_path), BASE)")
    assert "OmegaConf.merge" in files["scripts/train_stage1.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train_stage1.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_a_test_on_something_else_than_the_suffix_is_not_a_dispatch(cli, tmp_path):
    files = dict(HALLO)
    files["scripts/train_stage1.py"] = files["scripts/train_stage1.py"].replace(
        "if config_path.endswith(\".py\"):", "if os.environ.get(\"PY_CONFIG\"):")
    write(tmp_path, files)
    plan = plan_of(cli, "scripts/train_stage1.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
