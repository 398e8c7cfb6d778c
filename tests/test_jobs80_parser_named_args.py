"""A parser bound to the name its namespace later takes as a parameter (branch jobs80, issue 15, set 37's
DiffuLLaMA): a fixture of our own copying the real shape, with a must-read test and silent twins.

HKUNLP/DiffuLLaMA @ c17e897 ``DiffuLLaMA-training/train.py:289-310``: ``args = argparse.ArgumentParser()``,
``args.add_argument("--batch-size", type=int, default=1)``, ``args.add_argument("--gradient-accumulate-every",
type=int, default=8)``, ``main(args.parse_args())``; ``def main(args):`` builds ``Accelerator(
gradient_accumulation_steps=args.gradient_accumulate_every)`` and a ``DataLoader(batch_size=args.batch_size)``
(:121-145), launched with ``--batch-size 60 --gradient-accumulate-every 4``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    from accelerate import Accelerator


    def main(args):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulate_every)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader(list(range(10)), batch_size=args.batch_size)
        model, opt, loader = accelerator.prepare(model, opt, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(batch).sum()
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()


    if __name__ == "__main__":
        args = argparse.ArgumentParser()
        args.add_argument("--batch-size", type=int, default=1)
        args.add_argument("--gradient-accumulate-every", type=int, default=8)
        main(args.parse_args())
""")


def _fields(cli, tmp_path: Path, train: str = TRAIN) -> dict:
    (tmp_path / "train.py").write_text(train)
    res = cli("audit", "--emit-plan", "json", "--", "accelerate", "launch", "--num_processes", "2", "train.py",
              "--batch-size", "60", "--gradient-accumulate-every", "4", cwd=tmp_path)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)["fields"]


def _values(fields: dict, name: str) -> list:
    return [f["value"] for f in fields.get(name) or []]


def test_options_read_through_a_parameter_named_like_the_parser(cli, tmp_path):
    fields = _fields(cli, tmp_path)
    assert set(_values(fields, "batch.micro")) == {60}
    assert set(_values(fields, "batch.grad_accum")) == {4}


def test_twin_a_name_bound_only_to_the_parser_is_not_the_namespace(cli, tmp_path):
    # no parameter takes the name: ``args`` is the parser alone, so ``args.gradient_accumulate_every``
    # (an AttributeError when run) is no option value
    train = TRAIN.replace("def main(args):", "def main(opts):")
    assert "def main(opts):" in train
    fields = _fields(cli, tmp_path, train)
    assert 4 not in _values(fields, "batch.grad_accum")


def test_twin_the_parser_itself_handed_on_is_not_read_as_the_namespace(cli, tmp_path):
    # ``main(args)`` hands the parser, not ``args.parse_args()``: its attributes are no options
    train = TRAIN.replace("main(args.parse_args())", "main(args)")
    assert "main(args)\n" in train
    fields = _fields(cli, tmp_path, train)
    assert 4 not in _values(fields, "batch.grad_accum")
