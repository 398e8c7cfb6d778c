"""An import of torch's checkpoint module never called is no activation checkpointing (issue 15): a
small project of our own with the shape of DepthAnything/Depth-Anything-V2 @ a561b84
metric_depth/depth_anything_v2/dinov2.py:17 (`import torch.utils.checkpoint`, never used) under a
plain training loop."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

MODEL = """\
    import torch
    import torch.utils.checkpoint

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)
    """

TRAIN = """\
    import torch
    from model import Net

    model = Net()
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader(torch.zeros(8, 4), batch_size=2)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
    """


def test_import_alone_is_not_checkpointing(cli, tmp_path):
    write(tmp_path, {"model.py": MODEL, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is False


def test_a_call_of_it_is(cli, tmp_path):
    used = MODEL.replace("return self.fc(x)", "return torch.utils.checkpoint.checkpoint(self.fc, x)")
    write(tmp_path, {"model.py": used, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "memory.gradient_checkpointing") is not False
