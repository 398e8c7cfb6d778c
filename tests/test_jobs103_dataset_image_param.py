"""Issue 15, branch jobs103: the image side an option hands to the project's own Dataset class through a
parameter named ``resolution``/``image_size``/``img_size`` (adapters/dataset_image_param.py). Fixtures of our
own copying a real shape, with twins that must stay unknown.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# rosinality/stylegan2-pytorch @ bef283a train.py:352,520-526 and dataset.py:8-9
_DATASET = """\
    from torch.utils.data import Dataset


    class MultiResolutionDataset(Dataset):
        def __init__(self, path, transform, resolution=256):
            self.path = path
            self.resolution = resolution
            self.transform = transform

        def __len__(self):
            return 10

        def __getitem__(self, index):
            return self.resolution
"""
_TRAIN = """\
    import argparse
    import torch
    from torch.utils import data
    from dataset import MultiResolutionDataset

    parser = argparse.ArgumentParser()
    parser.add_argument("path", type=str)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--batch", type=int, default=16)
    args = parser.parse_args()

    model = torch.nn.Linear(4, 4).cuda()
    opt = torch.optim.Adam(model.parameters())
    dataset = MultiResolutionDataset(args.path, None, args.size)
    loader = data.DataLoader(dataset, batch_size=args.batch, drop_last=True)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
"""


def _plan(cli, tmp_path, *argv: str, train: str = _TRAIN, dataset: str = _DATASET) -> dict:
    write(tmp_path, {"train.py": train, "dataset.py": dataset})
    return plan_of(cli, "train.py", "--", "/data/lmdb", *argv, cwd=tmp_path)


def test_size_option_handed_to_a_dataset_resolution_parameter_is_the_image_size(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "--size", "512"), "data.image_size")
    assert got is not None and got.value == 512 and got.confidence == "medium", got
    assert "MultiResolutionDataset(resolution=...)" in got.source.detail, got.source


def test_default_of_the_option_is_read_when_the_line_leaves_it(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "data.image_size")
    assert got is not None and got.value == 256, got


def test_twin_parameter_not_named_for_images_stays_unknown(cli, tmp_path):
    dataset = _DATASET.replace("resolution", "max_items")
    got = fact(_plan(cli, tmp_path, "--size", "512", dataset=dataset), "data.image_size")
    assert got is None, got


def test_twin_class_not_a_dataset_stays_unknown(cli, tmp_path):
    dataset = _DATASET.replace("class MultiResolutionDataset(Dataset):", "class MultiResolutionDataset:")
    got = fact(_plan(cli, tmp_path, "--size", "512", dataset=dataset), "data.image_size")
    assert got is None, got


def test_twin_dataset_under_an_undecided_arm_stays_unknown(cli, tmp_path):
    train = _TRAIN.replace("    dataset = MultiResolutionDataset(args.path, None, args.size)\n",
                           "    import os\n    if os.environ.get('USE_LMDB'):\n"
                           "        dataset = MultiResolutionDataset(args.path, None, args.size)\n"
                           "    else:\n        dataset = list(range(10))\n")
    assert train != _TRAIN
    got = fact(_plan(cli, tmp_path, "--size", "512", train=train), "data.image_size")
    assert got is None, got
