"""A model a Swin-style builder makes with timm's ``create_model`` from the name its yacs configuration gives
(issue 15, branch jobs109; adapters/config_object_registry.py), and a plain list of sizes on ``self`` filled in
the layer loop (adapters/module_params_lists.py). Shapes: microsoft/FocalNet @ e8514bd ``classification/build.py:
1-23`` (``from timm.models import create_model``, ``from . import focalnet``, ``model_type = config.MODEL.TYPE``,
``if "focal" in model_type: model = create_model(model_type, pretrained=is_pretrained, ..., focal_levels=config.
MODEL.FOCAL.FOCAL_LEVELS, ...)``, ``return model``), ``classification/focalnet.py:37-66`` (``self.kernel_sizes =
[]`` ... ``self.kernel_sizes.append(kernel_size)``), ``:384-470`` (stages built in a loop over ``depths``, a
``PatchEmbed`` handed on as ``downsample``) and ``:576-583`` (``@register_model def focalnet_tiny_srf(pretrained=
False, **kwargs): model = FocalNet(depths=[2, 2, 6, 2], embed_dim=96, **kwargs); if pretrained: ...; return
model``); the twin returning ``model, processor`` is Video-FocalNets' ``models/build.py``. The fixtures are our
own, written to these shapes, and counted against torch where it is installed."""

from __future__ import annotations

import ast
import textwrap

import pytest
from plan_helpers import plan_of, write
from preflight.adapters.module_params_nested import count_module

from tests.test_config_object import ours
from tests.test_config_object_yacs import LINE, SWIN

NET = """\
import torch
import torch.nn as nn


class Modulation(nn.Module):
    def __init__(self, dim, focal_window, focal_level, focal_factor=2):
        super().__init__()
        self.f = nn.Linear(dim, 2 * dim + (focal_level + 1))
        self.h = nn.Conv2d(dim, dim, kernel_size=1, stride=1)
        self.focal_layers = nn.ModuleList()
        self.kernel_sizes = []
        for k in range(focal_level):
            kernel_size = focal_factor * k + focal_window
            self.focal_layers.append(nn.Sequential(
                nn.Conv2d(dim, dim, kernel_size=kernel_size, groups=dim, padding=kernel_size // 2, bias=False),
                nn.GELU()))
            self.kernel_sizes.append(kernel_size)
        self.proj = nn.Linear(dim, self.kernel_sizes[-1] * 0 + dim)


class Block(nn.Module):
    def __init__(self, dim, focal_level=1, focal_window=3, drop_path=0., norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm1 = norm_layer(dim)
        self.modulation = Modulation(dim, focal_window=focal_window, focal_level=focal_level)
        self.norm2 = norm_layer(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)


class PatchEmbed(nn.Module):
    def __init__(self, patch_size=4, in_chans=3, embed_dim=32, norm_layer=None):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = norm_layer(embed_dim) if norm_layer is not None else None


class Stage(nn.Module):
    def __init__(self, dim, out_dim, depth, drop_path=0., norm_layer=nn.LayerNorm, downsample=None,
                 focal_level=1, focal_window=1):
        super().__init__()
        self.blocks = nn.ModuleList([
            Block(dim=dim, focal_level=focal_level, focal_window=focal_window,
                  drop_path=drop_path[i] if isinstance(drop_path, list) else drop_path, norm_layer=norm_layer)
            for i in range(depth)])
        if downsample is not None:
            self.downsample = downsample(patch_size=2, in_chans=dim, embed_dim=out_dim, norm_layer=norm_layer)
        else:
            self.downsample = None


class FocalNet(nn.Module):
    def __init__(self, img_size=224, patch_size=4, in_chans=3, num_classes=1000, embed_dim=32, depths=[2, 2],
                 drop_path_rate=0.1, norm_layer=nn.LayerNorm, focal_levels=[2, 2], focal_windows=[3, 3], **kwargs):
        super().__init__()
        self.num_layers = len(depths)
        embed_dim = [embed_dim * (2 ** i) for i in range(self.num_layers)]
        self.num_features = embed_dim[-1]
        self.patch_embed = PatchEmbed(patch_size=patch_size, in_chans=in_chans, embed_dim=embed_dim[0],
                                      norm_layer=norm_layer)
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, sum(depths))]
        self.layers = nn.ModuleList()
        for i_layer in range(self.num_layers):
            layer = Stage(dim=embed_dim[i_layer],
                          out_dim=embed_dim[i_layer + 1] if (i_layer < self.num_layers - 1) else None,
                          depth=depths[i_layer],
                          drop_path=dpr[sum(depths[:i_layer]):sum(depths[:i_layer + 1])],
                          norm_layer=norm_layer,
                          downsample=PatchEmbed if (i_layer < self.num_layers - 1) else None,
                          focal_level=focal_levels[i_layer], focal_window=focal_windows[i_layer])
            self.layers.append(layer)
        self.norm = norm_layer(self.num_features)
        self.head = nn.Linear(self.num_features, num_classes) if num_classes > 0 else nn.Identity()
"""

REGISTERED = """\
from timm.models.registry import register_model


@register_model
def focalnet_tiny(pretrained=False, **kwargs):
    model = FocalNet(depths=[2, 2], embed_dim=32, **kwargs)
    if pretrained:
        checkpoint = torch.hub.load_state_dict_from_url(url="https://example.invalid/t.pth", map_location="cpu")
        model.load_state_dict(checkpoint["model"])
    return model


@register_model
def focalnet_small(pretrained=False, **kwargs):
    model = FocalNet(depths=[2, 6], embed_dim=32, **kwargs)
    if pretrained:
        checkpoint = torch.hub.load_state_dict_from_url(url="https://example.invalid/s.pth", map_location="cpu")
        model.load_state_dict(checkpoint["model"])
    return model
"""

BUILD = """\
    from timm.models import create_model
    from . import focalnet


    def build_model(config):
        model_type = config.MODEL.TYPE
        is_pretrained = config.MODEL.PRETRAINED
        if "focal" in model_type:
            model = create_model(
                model_type,
                pretrained=is_pretrained,
                img_size=config.DATA.IMG_SIZE,
                num_classes=config.MODEL.NUM_CLASSES,
                drop_path_rate=config.MODEL.DROP_PATH_RATE,
                focal_levels=config.MODEL.FOCAL.FOCAL_LEVELS,
                focal_windows=config.MODEL.FOCAL.FOCAL_WINDOWS,
            )
        else:
            model = create_model(model_type, pretrained=is_pretrained, num_classes=config.MODEL.NUM_CLASSES)
        return model
"""


def _focalnet(width: int, depths: list[int], levels: list[int], windows: list[int], classes: int = 1000) -> int:
    """By hand: the patch conv and its norm, per block two norms, the modulation (``f``, ``h``, one depthwise
    conv per level, ``proj``) and the MLP, a downsampling conv and norm between stages, the final norm, the head."""
    total = (3 * width * 16 + width) + 2 * width
    dims = [width * 2 ** i for i in range(len(depths))]
    for i, (d, depth) in enumerate(zip(dims, depths)):
        out = 2 * d + levels[i] + 1
        modulation = (d * out + out) + (d * d + d) + sum(d * (2 * k + windows[i]) ** 2 for k in range(levels[i])) \
            + (d * d + d)
        block = 2 * 2 * d + modulation + (d * 4 * d + 4 * d) + (4 * d * d + d)
        total += depth * block
        if i < len(depths) - 1:
            total += (d * dims[i + 1] * 4 + dims[i + 1]) + 2 * dims[i + 1]
    return total + 2 * dims[-1] + dims[-1] * classes + classes


def project(tmp_path, model_type: str = "focalnet_tiny", build: str = BUILD, pretrained: str = "False",
            also: str = "") -> None:
    files = dict(SWIN)
    files["config.py"] = files["config.py"].replace(
        "        _C.MODEL.TYPE = 'swin'\n",
        "        _C.MODEL.TYPE = 'swin'\n        _C.MODEL.PRETRAINED = " + pretrained + "\n"
        "        _C.MODEL.NUM_CLASSES = 1000\n        _C.MODEL.DROP_PATH_RATE = 0.1\n"
        "        _C.MODEL.FOCAL = CN()\n        _C.MODEL.FOCAL.FOCAL_LEVELS = [2, 2]\n"
        "        _C.MODEL.FOCAL.FOCAL_WINDOWS = [3, 3]\n")
    files["configs/swin_base.yaml"] = files["configs/swin_base.yaml"].replace(
        "          TYPE: swin\n", f"          TYPE: {model_type}\n          FOCAL:\n            FOCAL_LEVELS: [3, 2]\n")
    files["models/build.py"] = build
    files["models/focalnet.py"] = textwrap.indent(NET + "\n\n" + REGISTERED, "    ")
    if also:
        files["models/other.py"] = textwrap.indent(NET + "\n\n" + REGISTERED, "    ")
        files["models/build.py"] = build.replace("from . import focalnet\n", "from . import focalnet, other\n")
    write(tmp_path, files)


def test_the_configured_name_counts_the_registered_constructor(cli, tmp_path) -> None:
    project(tmp_path)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    got = ours(plan, "model.num_parameters")
    # the YAML's FOCAL_LEVELS [3, 2] over the default, IMG_SIZE 192 (no size), the constructor's depths [2, 2]
    assert got is not None and got.value == _focalnet(32, [2, 2], [3, 2], [3, 3])
    assert got.confidence == "medium" and "create_model('focalnet_tiny')" in (got.source.detail or "")
    cls = ours(plan, "model.class_name")
    assert cls is not None and cls.value == "FocalNet"


def test_another_registered_name_counts_its_depths(cli, tmp_path) -> None:
    project(tmp_path, model_type="focalnet_small")
    got = ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters")
    assert got is not None and got.value == _focalnet(32, [2, 6], [3, 2], [3, 3])


def test_a_name_no_module_registers_stays_unknown(cli, tmp_path) -> None:
    # timm's own model (or one registered elsewhere): not read here
    project(tmp_path, model_type="focalnet_huge")
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


def test_the_arm_for_timm_models_stays_unknown(cli, tmp_path) -> None:
    project(tmp_path, model_type="resnet50")
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


def test_a_project_create_model_is_not_timms(cli, tmp_path) -> None:
    # a function of the project's own called create_model: not timm's registry
    build = BUILD.replace("from timm.models import create_model\n", "from .factory import create_model\n")
    project(tmp_path, build=build)
    write(tmp_path, {"models/factory.py": """\
        def create_model(name, **kwargs):
            return None
    """})
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


def test_a_builder_returning_a_pair_stays_unknown(cli, tmp_path) -> None:
    # Video-FocalNets ``models/build.py``: ``return model, processor``
    project(tmp_path, build=BUILD.replace("        return model\n", "        processor = None\n"
                                                                    "        return model, processor\n"))
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


def test_a_name_registered_in_two_imported_modules_stays_unknown(cli, tmp_path) -> None:
    project(tmp_path, also="other")
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


def test_pretrained_weights_from_the_configuration_state_nothing(cli, tmp_path) -> None:
    # ``if pretrained:`` taken: the constructor loads a checkpoint after building, not read
    project(tmp_path, pretrained="True")
    assert ours(plan_of(cli, "main.py", *LINE, cwd=tmp_path), "model.num_parameters") is None


# --- the counter alone: a plain list of sizes on ``self`` ------------------------------------------------
def _count(code: str, cls: str, **kwargs) -> int | None:
    got = count_module(ast.parse(textwrap.dedent(code)), cls, [], kwargs)
    return None if got is None else got[0]


def _torch_count(code: str, cls: str, **kwargs) -> int:
    torch = pytest.importorskip("torch")
    assert torch is not None
    space: dict = {}
    exec(compile(textwrap.dedent(code), "<fixture>", "exec"), space)  # our own fixture, run as torch would
    return sum(p.numel() for p in space[cls](**kwargs).parameters())


@pytest.mark.parametrize("kwargs", [{}, {"depths": [1, 3, 2], "focal_levels": [1, 3, 2],
                                         "focal_windows": [5, 3, 1], "embed_dim": 16, "num_classes": 10}])
def test_the_focal_net_counts_as_torch_does(kwargs) -> None:
    got = _count(NET, "FocalNet", **kwargs)
    assert got is not None
    depths = kwargs.get("depths", [2, 2])
    assert got == _focalnet(kwargs.get("embed_dim", 32), depths, kwargs.get("focal_levels", [2, 2]),
                            kwargs.get("focal_windows", [3, 3]), kwargs.get("num_classes", 1000))
    try:
        import torch  # noqa: F401
    except ImportError:
        return
    assert got == _torch_count(NET, "FocalNet", **kwargs)


def test_sizes_appended_to_a_plain_list_are_read_back() -> None:
    code = """
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self, width=8):
            super().__init__()
            self.dims = []
            for i in range(2):
                self.dims.append(width * 2 ** i)
            self.fc = nn.Linear(self.dims[0], self.dims[-1])
    """
    assert _count(code, "Net") == 8 * 16 + 16 == _torch_count(code, "Net")


def test_a_module_appended_to_a_plain_list_stays_unknown() -> None:
    # a plain list registers nothing with torch: its layers hold parameters the model does not count
    code = """
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self, width=8):
            super().__init__()
            self.parts = []
            self.parts.append(nn.Linear(width, width))
            self.fc = nn.Linear(width, 2)
    """
    assert _count(code, "Net") is None
