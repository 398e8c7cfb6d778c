"""An autocast in the step's function behind a parameter the script passes an AMP switch for (issue 15, set
37: raoyongming/HorNet ``engine.py:51-52`` ``if use_amp: with torch.cuda.amp.autocast():``, reached by
``train_one_epoch(..., use_amp=args.use_amp)`` at ``main.py:421`` with ``--use_amp`` defaulting to False at
``main.py:187``, while ``loss_scaler = NativeScaler()`` is built unconditionally at ``main.py:363``). The
scaler alone is not AMP: the switch decides. Twins: the same code launched with ``--use_amp true`` (ConvNeXt's
README line) and an autocast behind no switch stay amp_fp16."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

MAIN = """\
    import argparse

    import torch

    from engine import train_one_epoch
    from utils import NativeScalerWithGradNormCount as NativeScaler


    def str2bool(v):
        return v.lower() in ("yes", "true", "t", "1")


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--batch_size', default=64, type=int)
        parser.add_argument('--use_amp', type=str2bool, default=False)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4).cuda()
        loader = torch.utils.data.DataLoader([], batch_size=args.batch_size)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loss_scaler = NativeScaler()  # if args.use_amp is False, this won't be used
        for epoch in range(10):
            train_one_epoch(model, loader, optimizer, loss_scaler, use_amp=args.use_amp)


    if __name__ == '__main__':
        main()
    """

ENGINE = """\
    import torch


    def train_one_epoch(model, data_loader, optimizer, loss_scaler, use_amp=False):
        model.train()
        for samples in data_loader:
            if use_amp:
                with torch.cuda.amp.autocast():
                    loss = model(samples).sum()
            else:
                loss = model(samples).sum()
            if use_amp:
                loss_scaler(loss, optimizer, parameters=model.parameters())
            else:
                loss.backward()
                optimizer.step()
            optimizer.zero_grad()
    """

NEGATED = """\
    import torch


    def train_one_epoch(model, data_loader, optimizer, loss_scaler, use_amp=False):
        for samples in data_loader:
            if not use_amp:
                loss = model(samples).sum()
            else:
                with torch.cuda.amp.autocast():
                    loss = model(samples).sum()
            loss_scaler(loss, optimizer, parameters=model.parameters())
            optimizer.zero_grad()
    """

PLAIN = """\
    import torch


    def train_one_epoch(model, data_loader, optimizer, loss_scaler, use_amp=False):
        model.train()
        for samples in data_loader:
            with torch.cuda.amp.autocast():
                loss = model(samples).sum()
            loss_scaler(loss, optimizer, parameters=model.parameters())
            optimizer.zero_grad()
    """

UTILS = """\
    import torch


    class NativeScalerWithGradNormCount:
        state_dict_key = "amp_scaler"

        def __init__(self):
            self._scaler = torch.cuda.amp.GradScaler()

        def __call__(self, loss, optimizer, clip_grad=None, parameters=None, create_graph=False, update_grad=True):
            self._scaler.scale(loss).backward(create_graph=create_graph)
            if update_grad:
                self._scaler.unscale_(optimizer)
                self._scaler.step(optimizer)
                self._scaler.update()
    """


def _precision(cli, tmp_path: Path, engine: str, *argv: str):
    write(tmp_path, {"main.py": MAIN, "engine.py": engine, "utils.py": UTILS})
    plan = plan_of(cli, "main.py", *(("--", *argv) if argv else ()), cwd=tmp_path)
    return fact(plan, "precision.mode")


def test_autocast_behind_an_off_switch_is_not_amp(cli, tmp_path: Path) -> None:
    got = _precision(cli, tmp_path, ENGINE)
    assert got is None or got.value != "amp_fp16"


def test_autocast_in_the_else_of_a_negated_off_switch_is_not_amp(cli, tmp_path: Path) -> None:
    got = _precision(cli, tmp_path, NEGATED)
    assert got is None or got.value != "amp_fp16"


def test_twin_the_switch_turned_on_on_the_launch_line_is_amp(cli, tmp_path: Path) -> None:
    got = _precision(cli, tmp_path, ENGINE, "--use_amp", "true")
    assert got is not None and (got.value, got.adapter, got.source.path, got.source.line) == \
        ("amp_fp16", "scaler_step", "main.py", 21)


def test_twin_an_autocast_behind_no_switch_is_amp(cli, tmp_path: Path) -> None:
    got = _precision(cli, tmp_path, PLAIN)
    assert got is not None and (got.value, got.adapter) == ("amp_fp16", "scaler_step")
