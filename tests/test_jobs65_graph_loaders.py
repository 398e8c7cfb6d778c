"""DGL's ``GraphDataLoader`` and PyG's ``DataLoader`` hand their keywords to torch's DataLoader, so its
defaults hold (issue 15, set 32: THUDM/GraphMAE builds ``GraphDataLoader(dataset, collate_fn=collate_fn,
batch_size=batch_size, pin_memory=True)`` without ``num_workers``: 0). Twin: a ``GraphDataLoader`` given its
collate function by position is not read (its second positional is not a batch size)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import torch
    LOADER_IMPORT

    dataset = list(range(64))
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.Adam(model.parameters())
    train_loader = LOADER_CALL
    for x in train_loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def _plan(cli, tmp_path, imp: str, call: str) -> dict:
    write(tmp_path, {"train.py": SCRIPT.replace("LOADER_IMPORT", imp).replace("LOADER_CALL", call)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_dgl_graph_dataloader_takes_torch_defaults(cli, tmp_path):
    plan = _plan(cli, tmp_path, "from dgl.dataloading import GraphDataLoader",
                 "GraphDataLoader(dataset, collate_fn=None, batch_size=8, pin_memory=True)")
    workers = fact(plan, "data.num_workers")
    assert workers.value == 0 and "DataLoader default num_workers=0" in workers.source.detail
    assert fact(plan, "data.pin_memory").value is True
    assert fact(plan, "batch.micro").value == 8


def test_pyg_dataloader_is_torchs(cli, tmp_path):
    plan = _plan(cli, tmp_path, "from torch_geometric.loader import DataLoader", "DataLoader(dataset, 32, shuffle=True)")
    assert fact(plan, "batch.micro").value == 32
    assert fact(plan, "data.num_workers").value == 0


def test_twin_a_positional_collate_function_is_not_read(cli, tmp_path):
    plan = _plan(cli, tmp_path, "from dgl.dataloading import GraphDataLoader",
                 "GraphDataLoader(dataset, None, batch_size=8)")
    workers = fact(plan, "data.num_workers")
    assert workers is None or "GraphDataLoader" not in workers.source.detail
