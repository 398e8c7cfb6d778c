"""The loss scaler class MAE's ``util/misc.py`` copies from timm (``NativeScalerWithGradNormCount``), read
by ``adapters/scaler_step.py`` like timm's own. Shape of LTH14/mar @ fe470ac24afb
``main_mar.py:16,235,276``, ``engine_mar.py:68-78`` and ``util/misc.py:247-267``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

MAIN = """\
    import argparse

    import torch

    from engine import train_one_epoch
    from util.misc import NativeScalerWithGradNormCount as NativeScaler


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument('--batch_size', default=16, type=int)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4).cuda()
        loader = torch.utils.data.DataLoader([], batch_size=args.batch_size)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        loss_scaler = NativeScaler()
        for epoch in range(10):
            train_one_epoch(model, loader, optimizer, loss_scaler)


    if __name__ == '__main__':
        main()
    """

ENGINE = """\
    import torch


    def train_one_epoch(model, data_loader, optimizer, loss_scaler):
        model.train()
        for epoch, samples in enumerate(data_loader):
            with torch.cuda.amp.autocast():
                loss = model(samples).sum()
            loss_scaler(loss, optimizer, clip_grad=None, parameters=model.parameters(), update_grad={update})
            optimizer.zero_grad()
    """

MISC = """\
    import torch


    class NativeScalerWithGradNormCount:
        state_dict_key = "amp_scaler"

        def __init__(self):
            self._scaler = torch.cuda.amp.GradScaler()

        def __call__(self, loss, optimizer, clip_grad=None, parameters=None, create_graph=False, update_grad=True):
            self._scaler.scale(loss).backward(create_graph=create_graph)
            if update_grad:
                self._scaler.unscale_(optimizer)
                {step}
                self._scaler.update()
    """


def _project(tmp_path: Path, update: str = "True", step: str = "self._scaler.step(optimizer)") -> None:
    write(tmp_path, {"main.py": MAIN, "engine.py": ENGINE.format(update=update), "util/__init__.py": "",
                     "util/misc.py": MISC.format(step=step)})


def test_the_copied_scaler_steps_every_call_under_fp16_autocast(cli, tmp_path: Path) -> None:
    _project(tmp_path)
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    accum = fact(plan, "batch.grad_accum")
    assert accum is not None and accum.value == 1 and accum.adapter == "scaler_step"
    assert "NativeScalerWithGradNormCount" in (accum.source.detail or "")
    precision = fact(plan, "precision.mode")
    assert precision is not None and precision.value == "amp_fp16" and precision.adapter == "scaler_step"


def test_accumulation_by_update_grad_or_a_class_that_does_not_step_is_not_read(cli, tmp_path: Path) -> None:
    _project(tmp_path, update="(epoch + 1) % 4 == 0")  # MAE's accumulation
    accum = fact(plan_of(cli, "main.py", cwd=tmp_path), "batch.grad_accum")
    assert accum is None or accum.adapter != "scaler_step"
    _project(tmp_path, step="pass")  # no optimizer step: not a loss scaler
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    for field in ("batch.grad_accum", "precision.mode"):
        got = fact(plan, field)
        assert got is None or got.adapter != "scaler_step", field
