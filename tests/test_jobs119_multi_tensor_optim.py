"""``torch.optim._multi_tensor.AdamW``: torch's AdamW with ``foreach=True`` (torch/optim/_multi_tensor/__init__.py),
named ``optimizer.name`` AdamW (``adapters/pytorch_optim_data.py``).

facebookresearch/mae_st ``main_pretrain.py:301`` (``optimizer = torch.optim._multi_tensor.AdamW(param_groups,
lr=args.lr, betas=beta)``) and facebookresearch/SlowFast @ 058922e ``slowfast/models/optimizer.py`` (the
``"mt_adamw"`` arm). The fixture is our own; its twin is a
non-optimizer class under ``torch.optim`` (``swa_utils.AveragedModel``), not named."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import torch
    from torch import nn


    def main():
        model = nn.Linear(4, 4)
        optimizer = {build}(model.parameters(), lr=0.01, betas=(0.9, 0.95))
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
    """


def _plan(cli, tmp_path, build: str) -> dict:
    write(tmp_path, {"train.py": TRAIN.format(build=build)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_multi_tensor_adamw_is_adamw(cli, tmp_path) -> None:
    got = fact(_plan(cli, tmp_path, "torch.optim._multi_tensor.AdamW"), "optimizer.name")
    assert got is not None and got.value == "AdamW" and got.source.path == "train.py" and got.source.line == 7, got


def test_twin_a_deeper_torch_optim_path_is_not_an_optimizer_name(cli, tmp_path) -> None:
    # torch.optim.swa_utils.AveragedModel is a module wrapper, not an optimizer
    got = fact(_plan(cli, tmp_path, "torch.optim.swa_utils.AveragedModel"), "optimizer.name")
    assert got is None or got.value != "AveragedModel", got
