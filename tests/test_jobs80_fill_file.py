"""A YAML file whose keys fill the parsed options left ``None`` (branch jobs80, issue 15, set 37's xRAG):
a fixture of our own copying the real shape, with a must-read test and silent twins.

Hannibal046/xRAG @ 121fa41 ``src/language_modeling/train.py:234-241``: ``args = parser.parse_args()``,
``yaml_config = get_yaml_file(args.config)``, ``for k,v in yaml_config.items(): ... if getattr(args,k) is
None: setattr(args,k,v)``; ``gradient_accumulation_steps: 4`` of ``config/language_modeling/pretrain.yaml``
reaches ``Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    import yaml
    from accelerate import Accelerator

    def get_yaml_file(path):
        with open(path) as f:
            return yaml.safe_load(f)

    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str)
        parser.add_argument("--per_device_train_batch_size", type=int)
        parser.add_argument("--gradient_accumulation_steps", type=int)
        parser.add_argument("--learning_rate", type=float)
        args = parser.parse_args()
        yaml_config = get_yaml_file(args.config)
        for k, v in yaml_config.items():
            assert hasattr(args, k), f"{k} not in parsed arguments"
            if getattr(args, k) is None:
                setattr(args, k, v)
        return args

    def main():
        args = parse_args()
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.per_device_train_batch_size)
        model, opt, loader = accelerator.prepare(model, opt, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(batch).sum()
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()

    if __name__ == "__main__":
        main()
""")

CONFIG = "learning_rate: 6.0e-3\nper_device_train_batch_size: 12\ngradient_accumulation_steps: 4\n"


def _fields(cli, tmp_path: Path, train: str = TRAIN, *line: str) -> dict:
    (tmp_path / "train.py").write_text(train)
    (tmp_path / "pretrain.yaml").write_text(CONFIG)
    res = cli("audit", "--emit-plan", "json", "--", "python", "train.py", "--config", "pretrain.yaml", *line,
              cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)["fields"]


def _got(fields: dict, name: str):
    got = fields.get(name)
    return got[0] if got else None


def test_yaml_fills_the_options_left_none(cli, tmp_path):
    fields = _fields(cli, tmp_path)
    accum = _got(fields, "batch.grad_accum")
    assert accum is not None and accum["value"] == 4
    assert accum["source"]["path"] == "pretrain.yaml" and accum["source"]["line"] == 3
    micro = _got(fields, "batch.micro")
    assert micro is not None and micro["value"] == 12


def test_the_line_wins_over_the_file(cli, tmp_path):
    accum = _got(_fields(cli, tmp_path, TRAIN, "--gradient_accumulation_steps", "2"), "batch.grad_accum")
    assert accum is not None and accum["value"] == 2 and accum["source"]["kind"] == "cli"


def test_twin_an_option_with_a_default_is_not_filled(cli, tmp_path):
    train = TRAIN.replace('"--gradient_accumulation_steps", type=int)', '"--gradient_accumulation_steps", type=int, default=8)')
    assert "default=8" in train
    accum = _got(_fields(cli, tmp_path, train), "batch.grad_accum")
    assert accum is None or accum["value"] == 8


def test_twin_a_loop_that_fills_another_namespace_is_not_read(cli, tmp_path):
    train = TRAIN.replace("if getattr(args, k) is None:\n            setattr(args, k, v)",
                          "if getattr(other, k) is None:\n            setattr(other, k, v)")
    train = train.replace("    return args\n", "    other = argparse.Namespace()\n    return args\n")
    assert "getattr(other, k)" in train and "other = argparse" in train
    accum = _got(_fields(cli, tmp_path, train), "batch.grad_accum")
    assert accum is None or accum["source"]["path"] != "pretrain.yaml"


def test_twin_a_loop_without_the_none_test_is_not_read_as_a_fill(cli, tmp_path):
    train = TRAIN.replace("        if getattr(args, k) is None:\n            setattr(args, k, v)",
                          "        setattr(args, k, v)")
    assert "if getattr" not in train
    accum = _got(_fields(cli, tmp_path, train), "batch.grad_accum")
    assert accum is None or "fills" not in accum["source"]["detail"]
