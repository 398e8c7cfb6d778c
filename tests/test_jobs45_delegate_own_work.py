"""A launched file whose ``__main__`` block does its own work (loops, branches) is the job, not a thin
wrapper of the one project function it happens to import (preflight/delegate.py). A fixture of our own
copying the shape of thuml/Time-Series-Library @ 4e938a176710: run.py:1-9,177,199-235 (``from
utils.print_args import print_args``; in ``if __name__ == '__main__':`` the options, ``print_args(args)``,
``if args.task_name == ...: Exp = ...``, ``for ii in range(args.itr): exp = Exp(args); exp.train(setting)``);
the thin twin copies liuhaotian/LLaVA llava/train/train_mem.py (``from llava.train.train import train``,
``if __name__ == "__main__": train(attn_implementation="flash_attention_2")``)."""

from __future__ import annotations

from plan_helpers import plan_of, write

RUN = """\
    import argparse
    import torch
    from utils.print_args import print_args

    if __name__ == '__main__':
        parser = argparse.ArgumentParser(description='TimesNet')
        parser.add_argument('--itr', type=int, default=1)
        parser.add_argument('--batch_size', type=int, default=32)
        args = parser.parse_args()
        print_args(args)
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        loader = torch.utils.data.DataLoader([], batch_size=args.batch_size)
        for ii in range(args.itr):
            for x in loader:
                loss = model(x).sum()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
"""
PRINT_ARGS = """\
    def print_args(args):
        print(args)
"""
THIN = """\
    from pkg.train import train

    if __name__ == "__main__":
        train(attn_implementation="flash_attention_2")
"""


def test_a_main_block_with_its_own_loop_is_the_job(cli, tmp_path):
    write(tmp_path, {"run.py": RUN, "utils/__init__.py": "", "utils/print_args.py": PRINT_ARGS})
    plan = plan_of(cli, "run.py", "--", "--batch_size", "16", cwd=tmp_path)
    assert not any("only calls" in n for n in plan["notes"])
    assert [i["path"] for i in plan["inputs"] if i["kind"] == "python"] == ["run.py"]


def test_a_thin_main_block_still_hands_over_to_the_project_module(cli, tmp_path):
    write(tmp_path, {"train_mem.py": THIN, "pkg/__init__.py": "", "pkg/train.py": "def train(**kw):\n    pass\n"})
    plan = plan_of(cli, "train_mem.py", cwd=tmp_path)
    assert any("only calls pkg/train.py's code" in n for n in plan["notes"])
