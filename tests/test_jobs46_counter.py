"""The parameter counter on two idioms of facebookresearch/barlowtwins @ 8e8d284 ``main.py:187-205`` (issue 15,
branch jobs46): a torchvision ResNet's child replaced (``self.backbone.fc = nn.Identity()``), and layer sizes
parsed from a string (``sizes = [2048] + list(map(int, args.projector.split('-')))``). A model of our own in that
shape, counted with the options handed in as a mapping; twins must state nothing: a child the ResNet does not
have, a size string not known. (The benchmark's barlowtwins job stays missing: the pytorch adapter does not hand
the parsed options to a local class it counts; see docs/realworld.md "jobs46".)
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.module_params_nested import UNKNOWN, count_module

SCRIPT = """\
    import torch.nn as nn
    import torchvision


    class Twins(nn.Module):
        def __init__(self, args):
            super().__init__()
            self.backbone = torchvision.models.resnet18(zero_init_residual=True)
            {replace}
            sizes = [512] + list(map(int, args.projector.split('-')))
            layers = []
            for i in range(len(sizes) - 2):
                layers.append(nn.Linear(sizes[i], sizes[i + 1], bias=False))
                layers.append(nn.BatchNorm1d(sizes[i + 1]))
                layers.append(nn.ReLU(inplace=True))
            layers.append(nn.Linear(sizes[-2], sizes[-1], bias=False))
            self.projector = nn.Sequential(*layers)
            self.bn = nn.BatchNorm1d(sizes[-1], affine=False)
"""

RESNET18 = 11_689_512  # torchvision's published count
FC = 512 * 1000 + 1000


def _count(replace: str = "self.backbone.fc = nn.Identity()", projector: object = "64-32"):
    tree = ast.parse(textwrap.dedent(SCRIPT.replace("{replace}", replace)))
    got = count_module(tree, "Twins", [{"projector": projector}], {})
    return None if got is None else got[0]


def test_a_resnet_child_replaced_and_sizes_parsed_from_a_string_are_counted() -> None:
    # 512 -> 64 (no bias) with a BatchNorm of 64, then 64 -> 32 (no bias); the last BatchNorm has no affine
    assert _count() == RESNET18 - FC + 512 * 64 + 2 * 64 + 64 * 32


def test_a_child_replaced_by_a_layer_counts_that_layer() -> None:
    got = _count(replace="self.backbone.fc = nn.Linear(512, 10)")
    assert got == RESNET18 - FC + 512 * 10 + 10 + 512 * 64 + 2 * 64 + 64 * 32


def test_a_child_the_resnet_does_not_have_states_nothing() -> None:
    assert _count(replace="self.backbone.head = nn.Identity()") is None


def test_a_size_string_not_known_states_nothing() -> None:
    assert _count(projector=UNKNOWN) is None
