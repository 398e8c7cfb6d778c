"""Random fixed-length windows of one token stream, cut without a DataLoader (the nanoGPT ``get_batch``;
the CS336 assignment-1 ``data_loading.get_batch`` in a project module): ``data.padding`` "packed" and
``data.num_workers`` 0 (adapters/window_batch.py)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

# karpathy/nanoGPT train.py:116-131 shape
NANO = """\
    import numpy as np
    import torch

    block_size = 256
    batch_size = 12
    data = np.memmap('train.bin', dtype=np.uint16, mode='r')


    def get_batch(split):
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([torch.from_numpy((data[i:i+block_size]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])
        return x, y


    model = torch.nn.Linear(256, 256)
    optimizer = torch.optim.AdamW(model.parameters())
    for it in range(100):
        X, Y = get_batch('train')
        loss = model(X.float()).sum()
        loss.backward()
        optimizer.step()
"""

# bigohofone/assignment1-basics-solution cs336_basics/solutions/data_loading.py:7-22 shape, in a module
CS336_LOADING = """\
    import numpy as np
    import torch


    def get_batch(dataset, batch_size, context_length, device):
        max_idx = len(dataset) - context_length - 1
        idx = np.random.randint(0, max_idx + 1, size=batch_size)
        offsets = np.arange(context_length)
        indices = idx[:, None] + offsets
        x_batch = torch.from_numpy(dataset[indices]).long()
        y_batch = torch.from_numpy(dataset[indices + 1]).long()
        return x_batch.to(device), y_batch.to(device)
"""

CS336_TRAIN = """\
    import numpy as np
    import torch

    from mypkg.data_loading import get_batch

    dataset = np.load('train.npy', mmap_mode='r')
    model = torch.nn.Linear(256, 256)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(1000):
        x, y = get_batch(dataset, 8, 256, 'cuda')
        loss = model(x.float()).sum()
        loss.backward()
        optimizer.step()
"""


def test_nanogpt_get_batch_is_packed_with_no_loader_workers(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": NANO})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    padding, workers = fact(plan, "data.padding"), fact(plan, "data.num_workers")
    assert (padding.value, padding.confidence, padding.adapter) == ("packed", "medium", "window_batch")
    assert (workers.value, workers.adapter) == (0, "window_batch")
    assert padding.source.path == "train.py" and padding.source.line == 19


def test_get_batch_of_a_project_module_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": CS336_TRAIN, "mypkg/__init__.py": "", "mypkg/data_loading.py": CS336_LOADING})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "data.padding").value == "packed"
    assert fact(plan, "data.num_workers").value == 0
    assert fact(plan, "data.num_workers").source.line == 10


def _silent(plan: dict) -> None:
    for field in ("data.padding", "data.num_workers"):
        assert not [f for f in plan["fields"].get(field, []) if f["adapter"] == "window_batch"], field


def test_twin_a_job_with_a_dataloader_says_nothing(cli, tmp_path: Path) -> None:
    # the script also builds a DataLoader: its workers, not the window function, decide
    loader = NANO.replace("model = torch.nn.Linear", "from torch.utils.data import DataLoader\n"
                          "    loader = DataLoader(data, batch_size=4, num_workers=4)\n    model = torch.nn.Linear")
    write(tmp_path, {"train.py": loader})
    _silent(plan_of(cli, "train.py", cwd=tmp_path))


def test_twin_random_crop_without_target_shift_says_nothing(cli, tmp_path: Path) -> None:
    # an image random crop: a window, but no next-token shift (no `+ 1` in a subscript)
    crop = NANO.replace("        y = torch.stack([torch.from_numpy((data[i+1:i+1+block_size]).astype(np.int64)) for i in ix])\n",
                        "        y = x.clone()\n")
    write(tmp_path, {"train.py": crop})
    _silent(plan_of(cli, "train.py", cwd=tmp_path))


def test_twin_window_function_called_only_for_evaluation_says_nothing(cli, tmp_path: Path) -> None:
    # no backward beside the call: the training loop takes its batch from elsewhere
    evaluation = NANO.replace("        X, Y = get_batch('train')\n", "        X, Y = data[:12], data[1:13]\n") \
        + "\n    print(get_batch('val'))\n"
    write(tmp_path, {"train.py": evaluation})
    _silent(plan_of(cli, "train.py", cwd=tmp_path))


def test_other_public_window_forms_are_read(cli, tmp_path: Path) -> None:
    # forms seen in public CS336 solutions: a reshaped start plus torch.arange (mhaowork/assignment1-basics
    # cs336_basics/get_batch.py), numpy's add.outer, and arange(i, i + L) per start
    forms = (
        "        indices = torch.randint(0, len(dataset) - context_length, (batch_size,))\n"
        "        x_batch = dataset[indices.reshape(-1, 1) + torch.arange(context_length)]\n"
        "        y_batch = dataset[indices.reshape(-1, 1) + torch.arange(context_length) + 1]\n"
        "        return x_batch, y_batch\n",
        "        starts = np.random.randint(0, len(dataset) - context_length, size=batch_size)\n"
        "        indices = np.add.outer(starts, np.arange(context_length))\n"
        "        return dataset[indices], dataset[indices + 1]\n",
        "        indices = np.stack([np.arange(i, i + context_length) for i in\n"
        "                            np.random.randint(0, len(dataset) - context_length, size=batch_size)])\n"
        "        return dataset[indices], dataset[indices + 1]\n",
    )
    head = CS336_LOADING[:CS336_LOADING.index("        max_idx")]
    for body in forms:
        write(tmp_path, {"train.py": CS336_TRAIN, "mypkg/__init__.py": "", "mypkg/data_loading.py": head + body})
        plan = plan_of(cli, "train.py", cwd=tmp_path)
        assert fact(plan, "data.padding").value == "packed", body


def test_twin_time_series_window_without_shift_says_nothing(cli, tmp_path: Path) -> None:
    # a forecasting window: start plus arange for the input, the horizon read after it with no `+ 1`
    body = ("        starts = np.random.randint(0, len(dataset) - context_length - 24, size=batch_size)\n"
            "        indices = starts[:, None] + np.arange(context_length)\n"
            "        return dataset[indices], dataset[indices[:, -1:] + np.arange(24)]\n")
    head = CS336_LOADING[:CS336_LOADING.index("        max_idx")]
    write(tmp_path, {"train.py": CS336_TRAIN, "mypkg/__init__.py": "", "mypkg/data_loading.py": head + body})
    _silent(plan_of(cli, "train.py", cwd=tmp_path))
