"""Stages put on the model with ``setattr(self, f"name{i + 1}", module)`` (issue 15, branch jobs78): the module
counter reads the write as ``self.<name> = module``. Shapes rewritten from Visual-Attention-Network/
VAN-Classification @ e19779b (``models/van.py`` ``VAN.__init__``: ``for i in range(num_stages): ... setattr(self,
f"patch_embed{i + 1}", patch_embed)``, ``@register_model def van_b0(pretrained=False, **kwargs)``; ``models/
__init__.py`` ``from .van import *``; ``train.py:40,371`` ``import models`` then ``create_model(args.model, ...)``
with ``--model van_b0`` on the launch line). Must-read examples beside must-stay-unknown twins."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write

STAGES = """\
    from functools import partial

    import torch
    import torch.nn as nn
    from timm.models.registry import register_model


    class Block(nn.Module):
        def __init__(self, dim, mlp_ratio=4.0):
            super().__init__()
            self.norm = nn.BatchNorm2d(dim)
            self.mix = nn.Conv2d(dim, dim, 5, padding=2, groups=dim)
            self.fc1 = nn.Conv2d(dim, int(dim * mlp_ratio), 1)
            self.fc2 = nn.Conv2d(int(dim * mlp_ratio), dim, 1)
            self.scale = nn.Parameter(1e-2 * torch.ones((dim)), requires_grad=True)


    class StageNet(nn.Module):
        def __init__(self, in_chans=3, num_classes=1000, embed_dims=[64, 128], mlp_ratios=[4, 4],
                     norm_layer=nn.LayerNorm, depths=[2, 2], num_stages=2, drop_path_rate=0.0):
            super().__init__()
            self.num_stages = num_stages
            for i in range(num_stages):
                embed = nn.Conv2d(in_chans if i == 0 else embed_dims[i - 1], embed_dims[i], 3, stride=2)
                blocks = nn.ModuleList([Block(embed_dims[i], mlp_ratios[i]) for _ in range(depths[i])])
                norm = norm_layer(embed_dims[i])
                setattr(self, {embed_name}, embed)
                setattr(self, f"block{{i + 1}}", blocks)
                setattr(self, f"norm{{i + 1}}", norm)
                {extra}
            self.head = nn.Linear(embed_dims[num_stages - 1], num_classes)


    @register_model
    def stagenet_b0(pretrained=False, **kwargs):
        model = StageNet(embed_dims=[16, 32], mlp_ratios=[8, 4], norm_layer=partial(nn.LayerNorm, eps=1e-6),
                         depths=[2, 3], **kwargs)
        model.default_cfg = dict()
        if pretrained:
            model.load_state_dict(torch.load("stagenet_b0.pth"))
        return model
    """

TRAIN = """\
    import argparse

    import torch
    from timm.models import create_model

    import models


    def main(args):
        model = create_model(args.model, pretrained=False, num_classes=args.num_classes,
                             drop_path_rate=args.drop_path, drop_block_rate=None)
        if args.num_classes is None:
            args.num_classes = model.num_classes
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for x, y in []:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="resnet50", type=str)
        parser.add_argument("--num-classes", type=int, default=None)
        parser.add_argument("--drop-path", type=float, default=None)
        main(parser.parse_args())
    """


def stagenet_count(dims: list[int], ratios: list[int], depths: list[int], classes: int) -> int:
    """By hand: each stage's 3x3 stride-2 conv (bias), its blocks (BatchNorm, 5x5 depthwise conv, two 1x1
    convs ``ratio`` wide, a per-channel scale), its LayerNorm; the head."""
    n, inp = 0, 3
    for d, r, depth in zip(dims, ratios, depths):
        n += inp * d * 9 + d
        n += depth * (2 * d + (d * 25 + d) + (d * r * d + r * d) + (r * d * d + d) + d)
        n += 2 * d
        inp = d
    return n + dims[-1] * classes + classes


def project(tmp_path: Path, embed_name: str = 'f"patch_embed{i + 1}"', extra: str = "") -> None:
    write(tmp_path, {"models/__init__.py": "from .stagenet import *\n",
                     "models/stagenet.py": STAGES.format(embed_name=embed_name, extra=extra),
                     "train.py": TRAIN})


def counted(plan: dict) -> list:
    return [f for f in plan["fields"].get("model.num_parameters", []) if f["adapter"] == "model_by_name"]


def test_stages_set_with_setattr_and_an_fstring_name_are_counted(cli, tmp_path: Path) -> None:
    project(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", "--drop-path", "0.1", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([16, 32], [8, 4], [2, 3], 1000) == 75432
    got = counted(plan)
    assert got[0]["confidence"] == "medium" and got[0]["source"]["line"] == 10
    assert "'stagenet_b0' is stagenet_b0() (stagenet.py:" in got[0]["source"]["detail"]
    assert winner(plan, "model.class_name") == "StageNet"


def test_the_classes_option_reaches_the_head_of_the_setattr_model(cli, tmp_path: Path) -> None:
    project(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", "--num-classes", "10", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([16, 32], [8, 4], [2, 3], 10)


def test_a_plain_value_set_with_setattr_leaves_the_count_known(cli, tmp_path: Path) -> None:
    # tricky-correct: ``setattr(self, f"dim{i}", embed_dims[i])`` stores a number, no parameter
    project(tmp_path, extra='setattr(self, f"dim{i}", embed_dims[i])')
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([16, 32], [8, 4], [2, 3], 1000)


def test_a_setattr_name_written_in_every_stage_stays_unknown(cli, tmp_path: Path) -> None:
    # the same name each pass: the second stage's conv replaces the first one, which the count does not follow
    project(tmp_path, embed_name='f"patch_embed{0}"')
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", cwd=tmp_path)
    assert not counted(plan)


def test_a_setattr_name_not_known_stays_unknown(cli, tmp_path: Path) -> None:
    # the name comes from an object the counter does not know: it may replace a layer already counted
    project(tmp_path, embed_name='f"{self.prefix}{i}"')
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", cwd=tmp_path)
    assert not counted(plan)


def test_setattr_on_another_object_stays_unknown(cli, tmp_path: Path) -> None:
    # a layer hung on a local block, not on the model: not followed
    project(tmp_path, extra='setattr(blocks[0], "extra", nn.Linear(4, 4))')
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_b0", cwd=tmp_path)
    assert not counted(plan)
