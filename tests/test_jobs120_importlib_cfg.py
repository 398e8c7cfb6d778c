"""Branch jobs120 (set 47 reading, in-sample): a config class that importlib loads by ``--config``'s name and a
loop copies onto the parsed options (adapters/cliargs_importlib_cfg.py). Fixtures of our own in the shape of
traptinblur/VCID_2023_3rd_place_code seg_main_finetune.py:27,443-449 and configs/base_config.py."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

TRAIN = """\
    import argparse
    import importlib
    import sys

    import torch

    sys.path.append("configs")


    def get_args_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config")
        return parser


    def main(args):
        dataset = torch.utils.data.TensorDataset(torch.zeros(8, 4))
        loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size,
                                             num_workers=args.num_workers, pin_memory=args.pin_mem)
        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.AdamW(model.parameters())
        for (x,) in loader:
            loss = model(x.cuda()).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        args = get_args_parser().parse_args()
        CFG = importlib.import_module(args.config).CFG
        for attr in dir(CFG):
            {body}
        main(args)
    """

COPY = """if not attr.startswith("__"):
                setattr(args, attr, getattr(CFG, attr))"""

CONFIG = """\
    class CFG:
        in_chans = 28
        size = 384
        stride = size // 3

        batch_size = 4
        num_workers = 4
        pin_mem = True
    """


def _plan(cli, tmp_path: Path, *, body: str = COPY, flags: str = "--config base_config",
          config_dir: str = "configs") -> dict:
    write(tmp_path, {"train.py": TRAIN.format(body=body), f"{config_dir}/base_config.py": CONFIG})
    return plan_of(cli, "train.py", "--", "python", "train.py", *flags.split(), cwd=tmp_path)


def test_the_copied_class_sets_the_options(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path)
    assert winner(plan, "batch.micro") == 4
    assert winner(plan, "data.num_workers") == 4
    assert winner(plan, "data.pin_memory") is True


def test_a_loop_that_copies_nothing_leaves_the_declared_default(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, body="print(attr)")
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "data.num_workers") is None


def test_a_module_that_is_not_found_states_nothing(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, config_dir="elsewhere")
    assert winner(plan, "batch.micro") != 4
    assert winner(plan, "data.num_workers") is None


def test_without_the_option_on_the_line_nothing_is_read(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, flags="")
    assert winner(plan, "data.num_workers") is None
