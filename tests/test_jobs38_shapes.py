"""Shapes of real jobs from the twenty-third held-out set (in-sample now), each rewritten small
in our own words with the repository, path and commit it comes from, beside a twin that must
stay as it was."""

from __future__ import annotations

import pytest
from plan_helpers import plan_of, winner, write

# NUS-HPC-AI-Lab/OpenDiT@5cbadd03 train.py:125,218,358: CIFAR10 whose transform a project helper
# builds from --image_size (it center-crops to that size): the native 32 px is not what the model sees.
DIT_DATA = """\
    import argparse
    import torch
    from torchvision.datasets import CIFAR10
    {helper_import}

    parser = argparse.ArgumentParser()
    parser.add_argument("--image_size", type=int, default=256)
    args = parser.parse_args()
    {transform_line}
    dataset = CIFAR10("data", transform={transform}, download=True)
    loader = torch.utils.data.DataLoader(dataset, batch_size=4)
    """


@pytest.mark.parametrize("helper_import,transform_line,transform,size", [
    ("from mylib.tf import make_transform", "", "make_transform(args.image_size)", 256),
    ("from mylib.tf import make_transform", "tf = make_transform(args.image_size)", "tf", 256),
    # the twin: torchvision's own transforms, no sizing: the native 32 px stands
    ("import torchvision.transforms as T", "tf = T.Compose([T.ToTensor()])", "tf", 32),
])
def test_a_dataset_transform_built_by_a_project_helper_hides_the_native_size(
        cli, tmp_path, helper_import, transform_line, transform, size):
    write(tmp_path, {"train.py": DIT_DATA.format(helper_import=helper_import, transform_line=transform_line,
                                                 transform=transform),
                     "mylib/__init__.py": "", "mylib/tf.py": "def make_transform(n):\n    return n\n"})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.image_size") == size
