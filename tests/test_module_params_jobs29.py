"""Project model classes counted from their constructor's arguments (issue 15, branch jobs29): the
parts a real model is made of that the counter now follows, each against the number torch gives for
the same code (the fixtures are our own, written to the shapes cited), beside twins that stay unknown.

- a function of the file that returns a layer, and a torch layer subclassed with a forward of its own
  (openai/improved-diffusion @ 1bc7bbb ``improved_diffusion/nn.py:17,22-40,68-75``, ``unet.py:35``);
  ``enumerate``/slices/``list.pop()`` in the size loops (``unet.py:340-420``);
- ``copy.deepcopy`` clones (facebookresearch/detr @ 29901c5 ``models/transformer.py:15-60,283-284``);
- a method that builds a stage and updates ``self.inplanes``, class attributes (pytorch/vision
  ``torchvision/models/resnet.py`` ``_make_layer``, ``expansion``);
- timm's ``Block``, a class from a project module imported absolutely, a scipy object on ``self``
  (LTH14/mar @ fe470ac ``models/mar.py:7,11,13,65,75-90,340-345``, ``main_mar.py:192``).
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from plan_helpers import plan_of, winner, write
from preflight.adapters.module_params_nested import UNKNOWN, count_module


def _count(code: str, cls: str, **kwargs) -> int | None:
    got = count_module(ast.parse(textwrap.dedent(code)), cls, [], kwargs)
    return None if got is None else got[0]


def _torch_count(code: str, cls: str, **kwargs) -> int:
    torch = pytest.importorskip("torch")
    assert torch is not None
    space: dict = {}
    exec(compile(textwrap.dedent(code), "<fixture>", "exec"), space)  # our own fixture, run as torch would
    return sum(p.numel() for p in space[cls](**kwargs).parameters())


UNET = """
import torch
import torch.nn as nn


def conv_nd(dims, *args, **kwargs):
    if dims == 1:
        return nn.Conv1d(*args, **kwargs)
    elif dims == 2:
        return nn.Conv2d(*args, **kwargs)
    raise ValueError(f"unsupported dimensions: {dims}")


def zero_module(module):
    for p in module.parameters():
        p.detach().zero_()
    return module


class GroupNorm32(nn.GroupNorm):
    def forward(self, x):
        return super().forward(x.float()).type(x.dtype)


def normalization(channels):
    return GroupNorm32(8, channels)


class StepBlock(nn.Module):
    def forward(self, x, emb):
        raise NotImplementedError


class StepSequential(nn.Sequential, StepBlock):
    def forward(self, x, emb):
        for layer in self:
            x = layer(x, emb) if isinstance(layer, StepBlock) else layer(x)
        return x


class ResBlock(StepBlock):
    def __init__(self, channels, out_channels=None, dims=2):
        super().__init__()
        self.out_channels = out_channels or channels
        self.in_layers = nn.Sequential(normalization(channels), nn.SiLU(),
                                       conv_nd(dims, channels, self.out_channels, 3, padding=1))
        self.out_layers = nn.Sequential(normalization(self.out_channels), nn.SiLU(),
                                        zero_module(conv_nd(dims, self.out_channels, self.out_channels, 3, padding=1)))
        self.skip = nn.Identity() if self.out_channels == channels else conv_nd(dims, channels, self.out_channels, 1)


class UNet(nn.Module):
    def __init__(self, in_channels=3, model_channels=16, channel_mult=(1, 2, 2), num_res_blocks=2, dims=2):
        super().__init__()
        self.input_blocks = nn.ModuleList([StepSequential(conv_nd(dims, in_channels, model_channels, 3, padding=1))])
        chans = [model_channels]
        ch = model_channels
        for level, mult in enumerate(channel_mult):
            for _ in range(num_res_blocks):
                self.input_blocks.append(StepSequential(ResBlock(ch, mult * model_channels, dims=dims)))
                ch = mult * model_channels
                chans.append(ch)
        self.output_blocks = nn.ModuleList([])
        for level, mult in list(enumerate(channel_mult))[::-1]:
            for i in range(num_res_blocks):
                skip = chans.pop()
                self.output_blocks.append(StepSequential(ResBlock(ch + skip, model_channels * mult, dims=dims)))
                ch = model_channels * mult
        self.out = nn.Sequential(normalization(ch), nn.SiLU(), zero_module(conv_nd(dims, ch, 3, 3, padding=1)))
"""


def test_layer_helpers_layer_subclasses_and_stack_loops_count_as_torch_does() -> None:
    got = _count(UNET, "UNet", channel_mult=(1, 2, 2), num_res_blocks=2)
    assert got is not None and got == _torch_count(UNET, "UNet", channel_mult=(1, 2, 2), num_res_blocks=2)
    one_d = _count(UNET, "UNet", dims=1)
    assert one_d is not None and one_d == _torch_count(UNET, "UNet", dims=1) != got


def test_a_helper_that_raises_for_these_arguments_stays_unknown() -> None:
    assert _count(UNET, "UNet", dims=3) is None  # conv_nd raises: no layer to count


def test_a_helper_that_adds_a_layer_to_what_it_is_given_stays_unknown() -> None:
    changed = UNET.replace("        p.detach().zero_()\n", "        p.detach().zero_()\n    module.extra = nn.Linear(4, 4)\n")
    assert _count(changed, "UNet") is None


DETR = """
import copy
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward=64):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)


class Encoder(nn.Module):
    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.norm = norm


class Transformer(nn.Module):
    def __init__(self, d_model=32, nhead=4, num_encoder_layers=3, dim_feedforward=64, normalize_before=True):
        super().__init__()
        encoder_layer = EncoderLayer(d_model, nhead, dim_feedforward)
        encoder_norm = nn.LayerNorm(d_model) if normalize_before else None
        self.encoder = Encoder(encoder_layer, num_encoder_layers, encoder_norm)


def _get_clones(module, N):
    return nn.ModuleList([copy.deepcopy(module) for i in range(N)])
"""


def test_deep_copied_clones_count_each_copy_and_not_the_original() -> None:
    for kwargs in ({}, {"num_encoder_layers": 6, "normalize_before": False}):
        got = _count(DETR, "Transformer", **kwargs)
        assert got is not None and got == _torch_count(DETR, "Transformer", **kwargs)


def test_one_layer_handed_out_several_times_stays_unknown() -> None:
    # torch counts a module shared N times once; the counter does not follow sharing
    shared = DETR.replace("copy.deepcopy(module)", "module")
    assert _count(shared, "Transformer") is None


RESNET = """
import torch.nn as nn


class Bottleneck(nn.Module):
    expansion = 2

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes * self.expansion, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes * self.expansion)
        self.downsample = downsample


class Net(nn.Module):
    def __init__(self, block=Bottleneck, layers=(2, 3), width=8, num_classes=10):
        super().__init__()
        self.inplanes = width
        self.stem = nn.Conv2d(3, width, kernel_size=3, padding=1, bias=False)
        self.layer1 = self._make_layer(block, width, layers[0])
        self.layer2 = self._make_layer(block, width * 2, layers[1], stride=2)
        self.fc = nn.Linear(self.inplanes, num_classes)

    def _make_layer(self, block, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, planes * block.expansion, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(planes * block.expansion),
            )
        layers = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes))
        return nn.Sequential(*layers)
"""


def test_a_stage_built_by_a_method_that_updates_self_counts_as_torch_does() -> None:
    got = _count(RESNET, "Net")
    assert got is not None and got == _torch_count(RESNET, "Net")
    assert _count(RESNET, "Net", layers=(3, 4)) == _torch_count(RESNET, "Net", layers=(3, 4)) != got


def test_a_stage_method_whose_depth_is_not_known_stays_unknown() -> None:
    assert _count(RESNET, "Net", layers=UNKNOWN) is None


# --- end to end: a model picked by name, its parts in other project modules -----------------------
MASKED = """\
    from functools import partial

    import scipy.stats as stats
    import torch
    import torch.nn as nn
    from timm.models.vision_transformer import Block

    from models.heads import Head


    class Masked(nn.Module):
        def __init__(self, embed_dim=64, depth=2, num_heads=4, mlp_ratio=4., norm_layer=nn.LayerNorm,
                     head_w=32, head_d=2, mask_min=0.7, num_classes=10):
            super().__init__()
            self.ratio_gen = stats.truncnorm((mask_min - 1.0) / 0.25, 0, loc=1.0, scale=0.25)
            self.class_emb = nn.Embedding(num_classes, embed_dim)
            self.blocks = nn.ModuleList([
                Block(embed_dim, num_heads, mlp_ratio, qkv_bias=True, norm_layer=norm_layer{block_extra},
                      proj_drop=0.1, attn_drop=0.1) for _ in range(depth)])
            self.norm = norm_layer(embed_dim)
            self.head = Head(width=head_w, depth=head_d, out=embed_dim)


    def masked_small(**kwargs):
        model = Masked(embed_dim=64, depth=2, num_heads=4, norm_layer=partial(nn.LayerNorm, eps=1e-6), **kwargs)
        return model
    """

HEADS = """\
    import torch.nn as nn
    {more_import}

    class ResBlock(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.norm = nn.LayerNorm(channels, eps=1e-6)
            self.mlp = nn.Sequential(nn.Linear(channels, channels), nn.SiLU(), nn.Linear(channels, channels))


    class Head(nn.Module):
        def __init__(self, width, depth, out):
            super().__init__()
            self.blocks = nn.ModuleList([ResBlock(width) for _ in range(depth)])
            self.out = nn.Linear(width, out)
    """

OTHER = """\
    import torch.nn as nn


    class ResBlock(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.fc = nn.Linear(channels, channels)
    """

TRAIN = """\
    import argparse

    import torch

    from models import masked

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="masked_small", type=str)
    parser.add_argument("--head_d", default=3, type=int)
    args = parser.parse_args()
    model = masked.__dict__[args.model](head_d=args.head_d)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for x, y in []:
        loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    """


def masked_count(d: int = 64, depth: int = 2, w: int = 32, head_d: int = 3, classes: int = 10) -> int:
    """By hand: timm's Block (two LayerNorms, qkv with bias, proj, the 4x MLP), the class embedding,
    the final norm, the head (each ResBlock a LayerNorm and two linears, then the output linear)."""
    block = 2 * (2 * d) + (3 * d * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    head = head_d * (2 * w + 2 * (w * w + w)) + (w * d + d)
    return classes * d + depth * block + 2 * d + head


def masked(tmp_path: Path, block_extra: str = "", more_import: str = "") -> None:
    write(tmp_path, {"models/__init__.py": "", "models/masked.py": MASKED.format(block_extra=block_extra),
                     "models/heads.py": HEADS.format(more_import=more_import), "models/other.py": OTHER,
                     "train.py": TRAIN})


def test_timm_blocks_and_a_head_from_a_module_imported_absolutely_are_counted(cli, tmp_path: Path) -> None:
    masked(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == masked_count()
    plan = plan_of(cli, "train.py", "--", "--head_d", "5", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == masked_count(head_d=5)


def test_a_timm_block_option_that_adds_norms_stays_unknown(cli, tmp_path: Path) -> None:
    masked(tmp_path, block_extra=", qk_norm=True")
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


def test_a_class_two_imported_modules_define_differently_stays_unknown(cli, tmp_path: Path) -> None:
    # heads.py imports other.py, which has another ResBlock: which one Head means is not decided here
    masked(tmp_path, more_import="from models.other import *\n")
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


RNN = """
import torch.nn as nn


class Speech(nn.Module):
    def __init__(self, dim=16, hidden=8):
        super().__init__()
        self.encoder = nn.GRU(dim, hidden, num_layers=2, bidirectional=True, batch_first=True)
        self.cell = nn.LSTMCell(2 * hidden, hidden)
        self.decoder = nn.LSTM(hidden, hidden, bias=False)
"""


def test_recurrent_layers_count_as_torch_does() -> None:
    got = _count(RNN, "Speech")
    assert got is not None and got == _torch_count(RNN, "Speech")
