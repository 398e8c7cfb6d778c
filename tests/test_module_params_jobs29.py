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
  (LTH14/mar @ fe470ac ``models/mar.py:7,11,13,65,75-90,340-345``, ``main_mar.py:192``);
- a project class imported by the script, built with a config table spread, its backbone from a table of
  constructor functions, ``partial`` of a class imported under another name, an ``nn.Module()`` namespace,
  one ReLU handed to two blocks (DepthAnything/Depth-Anything-V2 @ a561b84 ``metric_depth/train.py:82-88``,
  ``depth_anything_v2/dpt.py:152-176``, ``dinov2.py:367-412``, ``util/blocks.py:4-26``).
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


# --- a project class imported by the script and built there (adapter model_imported) -------------
DEPTH_LAYERS = """\
    import torch.nn as nn


    class Mlp(nn.Module):
        def __init__(self, in_features, hidden_features):
            super().__init__()
            self.fc1 = nn.Linear(in_features, hidden_features)
            self.fc2 = nn.Linear(hidden_features, in_features)


    class NestedBlock(nn.Module):
        def __init__(self, dim, mlp_ratio=4, ffn_layer=Mlp, norm_layer=nn.LayerNorm):
            super().__init__()
            self.norm1 = norm_layer(dim)
            self.mlp = ffn_layer(dim, int(dim * mlp_ratio))
    """

DEPTH_LAYERS_INIT = "from .block import NestedBlock, Mlp\n"

BACKBONE = """\
    from functools import partial

    import torch
    import torch.nn as nn

    from .layers import Mlp, NestedBlock as Block


    class Encoder(nn.Module):
        def __init__(self, embed_dim=32, depth=2, block_fn=Block, ffn_layer="mlp"):
            super().__init__()
            if ffn_layer == "mlp":
                ffn_layer = Mlp
            else:
                raise NotImplementedError
            self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
            self.blocks = nn.ModuleList([block_fn(embed_dim, ffn_layer=ffn_layer) for i in range(depth)])


    def enc_small(**kwargs):
        return Encoder(embed_dim=32, depth=2, block_fn=partial(Block, mlp_ratio=2), **kwargs)


    def enc_large(**kwargs):
        return Encoder(embed_dim=64, depth=3, block_fn=partial(Block, mlp_ratio=2), **kwargs)


    def make_encoder(model_name):
        zoo = {"s": enc_small, "l": enc_large}
        return zoo[model_name](ffn_layer="mlp")
    """

HEAD = """\
    import torch.nn as nn

    from .backbone import make_encoder


    def _make_scratch(in_shape, out_shape):
        scratch = nn.Module()
        scratch.layer1_rn = nn.Conv2d(in_shape[0], out_shape, kernel_size=3, padding=1, bias=False)
        scratch.layer2_rn = nn.Conv2d(in_shape[1], out_shape, kernel_size=3, padding=1, bias=False)
        return scratch


    class Fuse(nn.Module):
        def __init__(self, features, activation):
            super().__init__()
            self.conv = nn.Conv2d(features, features, kernel_size=1)
            self.act = activation
            self.skip_add = nn.quantized.FloatFunctional()


    class DepthModel(nn.Module):
        def __init__(self, encoder="s", features=16, out_channels=(8, 16), max_depth=20.0):
            super().__init__()
            self.pretrained = make_encoder(encoder)
            self.scratch = _make_scratch(out_channels, features)
            self.scratch.stem_transpose = None
            act = nn.ReLU(False)
            self.scratch.refine1 = Fuse(features, act)
            self.scratch.refine2 = Fuse(features, act)
            self.max_depth = max_depth
    """

DEPTH_TRAIN = """\
    import argparse

    import torch
    from torch.optim import AdamW

    from depth.head import DepthModel
    from util.loss import ScaleLoss

    parser = argparse.ArgumentParser()
    parser.add_argument("--encoder", default="s", choices=["s", "l"])
    parser.add_argument("--max-depth", default=20.0, type=float)
    args = parser.parse_args()
    model_configs = {
        "s": {"encoder": "s", "features": 16, "out_channels": [8, 16]},
        "l": {"encoder": "l", "features": 32, "out_channels": [16, 32]},
    }
    model = DepthModel(**{**model_configs[args.encoder], "max_depth": args.max_depth})
    criterion = ScaleLoss()
    optimizer = AdamW([p for n, p in model.named_parameters()], lr=5e-6)
    for img, depth in []:
        loss = criterion(model(img), depth)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    """

LOSS = """\
    import torch.nn as nn


    class ScaleLoss(nn.Module):
        def __init__(self, lambd=0.5):
            super().__init__()
            self.lambd = lambd
    """


def depth_count(encoder: str) -> int:
    """By hand: the encoder (class token, blocks of a LayerNorm and a 2x MLP), the two scratch convs
    (no bias), two fusion 1x1 convs with bias; the ReLU and FloatFunctional hold nothing."""
    d, depth = (32, 2) if encoder == "s" else (64, 3)
    features, chans = (16, (8, 16)) if encoder == "s" else (32, (16, 32))
    block = 2 * d + (d * 2 * d + 2 * d) + (2 * d * d + d)
    scratch = sum(c * features * 9 for c in chans)
    return d + depth * block + scratch + 2 * (features * features + features)


def depth_project(tmp_path: Path, train: str = DEPTH_TRAIN) -> None:
    write(tmp_path, {"depth/__init__.py": "", "depth/layers/__init__.py": DEPTH_LAYERS_INIT,
                     "depth/layers/block.py": DEPTH_LAYERS, "depth/backbone.py": BACKBONE, "depth/head.py": HEAD,
                     "util/__init__.py": "", "util/loss.py": LOSS, "train.py": train})


def test_an_imported_model_built_from_a_config_table_spread_is_counted(cli, tmp_path: Path) -> None:
    depth_project(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == depth_count("s")
    assert winner(plan, "model.class_name") == "DepthModel"
    got = [f for f in plan["fields"]["model.num_parameters"] if f["adapter"] == "model_imported"]
    assert got[0]["confidence"] == "medium" and got[0]["source"]["line"] == 17
    plan = plan_of(cli, "train.py", "--", "--encoder", "l", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == depth_count("l")


def test_an_imported_model_whose_table_key_is_not_known_stays_unknown(cli, tmp_path: Path) -> None:
    depth_project(tmp_path, DEPTH_TRAIN.replace("model_configs[args.encoder]", "model_configs[input()]"))
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


def test_two_imported_models_none_trained_by_name_stay_unknown(cli, tmp_path: Path) -> None:
    # the loss is a module too; with no ``.parameters()`` read which one is the model is not decided
    depth_project(tmp_path, DEPTH_TRAIN.replace("[p for n, p in model.named_parameters()]", "[]"))
    assert winner(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters") is None


def test_a_namespace_module_changed_after_it_reached_self_through_a_local_stays_unknown() -> None:
    code = """
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        scratch = nn.Module()
        self.scratch = scratch
        scratch.late = nn.Linear(width, width)
"""
    assert _count(code, "Head") is None
    fine = code.replace("        self.scratch = scratch\n        scratch.late = nn.Linear(width, width)\n",
                        "        scratch.early = nn.Linear(width, width)\n        self.scratch = scratch\n")
    assert _count(fine, "Head") == _torch_count(fine, "Head") == 72


def test_a_static_table_method_is_a_plain_value() -> None:
    # cloneofsimo/minRF @ 4fc10e0 ``dit.py:281,335-341``: ``self.freqs_cis = DiT_Llama.precompute_freqs_cis(...)``
    code = """
import torch
import torch.nn as nn


class Tiny(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.freqs = Tiny.table(dim // 2, 64)

    @staticmethod
    def table(dim, end, theta=10000.0):
        freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
        return torch.outer(torch.arange(end), freqs)
"""
    assert _count(code, "Tiny") == _torch_count(code, "Tiny") == 16 * 16 + 16
    building = code.replace("        return torch.outer(torch.arange(end), freqs)",
                            "        return nn.Parameter(torch.outer(torch.arange(end), freqs))")
    assert _count(building, "Tiny") is None


# --- a table of constructor functions imported by the script (FoundationVision/LlamaGen @ ce98ec4) -------
GPT = """\
    from dataclasses import dataclass

    import torch.nn as nn


    @dataclass
    class ModelArgs:
        dim: int = 64
        n_layer: int = 2
        vocab_size: int = 100
        block_size: int = 16


    class Block(nn.Module):
        def __init__(self, config: ModelArgs):
            super().__init__()
            self.attn = nn.Linear(config.dim, 3 * config.dim, bias=False)
            self.ffn = nn.Linear(config.dim, config.dim, bias=False)


    class Transformer(nn.Module):
        def __init__(self, config: ModelArgs):
            super().__init__()
            self.tok = nn.Embedding(config.vocab_size, config.dim)
            self.pos = nn.Embedding(config.block_size, config.dim)
            self.layers = nn.ModuleList([Block(config) for _ in range(config.n_layer)])


    def GPT_S(**kwargs):
        return Transformer(ModelArgs(n_layer=2, dim=32, **kwargs))


    def GPT_L(**kwargs):
        return Transformer(ModelArgs(n_layer=4, dim=64, **kwargs))


    GPT_models = {"GPT-S": GPT_S, "GPT-L": GPT_L}
    """

GPT_TRAIN = """\
    import argparse

    import torch

    from models.gpt import GPT_models


    def main(args):
        latent_size = args.image_size // args.downsample_size
        model = GPT_models[args.gpt_model](vocab_size=args.vocab_size, block_size=latent_size ** 2)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for x, y in []:
            loss = model(x, y)
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--gpt-model", default="GPT-S", choices=["GPT-S", "GPT-L"])
        parser.add_argument("--vocab-size", type=int, default=512)
        parser.add_argument("--image-size", type=int, default=64)
        parser.add_argument("--downsample-size", type=int, default=16)
        main(parser.parse_args())
    """


def gpt_count(dim: int, layers: int, vocab: int = 512, block: int = 16) -> int:
    return vocab * dim + block * dim + layers * (3 * dim * dim + dim * dim)


def test_a_constructor_picked_from_an_imported_table_with_sizes_computed_from_options(cli, tmp_path: Path) -> None:
    write(tmp_path, {"models/__init__.py": "", "models/gpt.py": GPT, "train.py": GPT_TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == gpt_count(32, 2)
    plan = plan_of(cli, "train.py", "--", "--gpt-model", "GPT-L", "--image-size", "128", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == gpt_count(64, 4, block=64)


def test_a_table_key_not_in_the_table_stays_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"models/__init__.py": "", "models/gpt.py": GPT,
                     "train.py": GPT_TRAIN.replace('choices=["GPT-S", "GPT-L"]', 'choices=["GPT-S", "GPT-XL"]')})
    plan = plan_of(cli, "train.py", "--", "--gpt-model", "GPT-XL", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_torch_imported_under_another_name_and_a_size_accumulated_on_self() -> None:
    # openai/guided-diffusion @ 22e0df8 ``guided_diffusion/unet.py:6,465,512``: ``import torch as th``,
    # ``self.dtype = th.float16 if use_fp16 else th.float32``, ``self._feature_size += ch``
    code = """
import torch as th
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width=8, depth=3, use_fp16=False):
        super().__init__()
        self.dtype = th.float16 if use_fp16 else th.float32
        self._feature_size = width
        self.blocks = nn.ModuleList([])
        for _ in range(depth):
            self.blocks.append(nn.Linear(width, width))
            self._feature_size += width
        self.out = nn.Linear(self._feature_size, 2)
"""
    assert _count(code, "Net") == _torch_count(code, "Net") == 3 * 72 + 32 * 2 + 2
    built = code.replace("            self._feature_size += width", "            self._feature_size += nn.Linear(1, 1)")
    assert _count(built, "Net") is None


def test_an_object_of_a_plain_class_held_on_the_module_adds_nothing() -> None:
    # LTH14/mar @ fe470ac ``models/diffloss.py:23`` ``self.train_diffusion = create_diffusion(...)``, whose
    # ``SpacedDiffusion(GaussianDiffusion)`` is no nn.Module (``diffusion/respace.py``): torch registers nothing
    code = """
import torch.nn as nn


class Schedule:
    def __init__(self, steps):
        self.steps = steps


class Spaced(Schedule):
    pass


def steps_of(n):
    out = []
    for i in range(n):
        out.append(i)
    return set(out)


def make(n):
    return Spaced(steps_of(n))


class Head(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.diffusion = make(10)
"""
    assert _count(code, "Head") == _torch_count(code, "Head") == 20
    # a base from elsewhere may be a module: not followed
    assert _count(code.replace("class Schedule:", "class Schedule(Base):"), "Head") is None
