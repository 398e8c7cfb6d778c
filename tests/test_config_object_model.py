"""The model a project's builder makes from its configuration object, counted
(adapters/config_object_model.py, branch jobs23). Shape: microsoft/Swin-Transformer @ f82860b
``models/build.py:15-52`` (``model_type = config.MODEL.TYPE``; ``layernorm = nn.LayerNorm`` in the
``else`` of ``if config.FUSED_LAYERNORM:``; ``if model_type == 'swin': model = SwinTransformer(
img_size=config.DATA.IMG_SIZE, ..., norm_layer=layernorm)``; ``return model``), over the yacs fixture
of tests/test_config_object_yacs.py. Must-read examples beside must-stay-unknown twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours
from tests.test_config_object_yacs import LINE, SWIN

BUILD = """\
    from .nets import PatchNet, MixerNet, WindowNet


    def build_model(config):
        model_type = config.MODEL.TYPE
        if config.FUSED_LAYERNORM:
            import apex
            layernorm = apex.normalization.FusedLayerNorm
        else:
            import torch.nn as nn
            layernorm = nn.LayerNorm
        if model_type == 'swin':
            model = PatchNet(img_size=config.DATA.IMG_SIZE, patch=config.MODEL.PATCH,
                             width=config.MODEL.WIDTH, depth=config.MODEL.DEPTH, norm_layer=layernorm,
                             num_classes=config.MODEL.NUM_CLASSES)
        elif model_type == 'mixer':
            model = MixerNet(width=config.MODEL.WIDTH)
        elif model_type == 'window':
            model = WindowNet(img_size=config.DATA.IMG_SIZE, width=config.MODEL.WIDTH, depths=[2, 2])
        else:
            raise NotImplementedError(model_type)
        return model
"""

NETS = """\
    import torch
    import torch.nn as nn
    from timm.models.layers import to_2tuple, trunc_normal_


    class Block(nn.Module):
        def __init__(self, width, norm_layer=nn.LayerNorm):
            super().__init__()
            self.norm = norm_layer(width)
            self.fc = nn.Linear(width, width)


    class PatchNet(nn.Module):
        def __init__(self, img_size=224, patch=4, width=32, depth=2, num_classes=1000, norm_layer=nn.LayerNorm):
            super().__init__()
            self.embed = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
            self.blocks = nn.ModuleList([Block(width, norm_layer=norm_layer) for _ in range(depth)])
            self.norm = norm_layer(width)
            self.head = nn.Linear(width, num_classes)


    class MixerNet(nn.Module):
        def __init__(self, width=32):
            super().__init__()
            self.fc = nn.Linear(width, width)


    class Embed(nn.Module):
        def __init__(self, img_size=224, patch=4, width=32):
            super().__init__()
            img_size = to_2tuple(img_size)
            self.grid = [img_size[0] // patch, img_size[1] // patch]
            self.proj = nn.Conv2d(3, width, kernel_size=patch, stride=patch)


    class Attn(nn.Module):
        def __init__(self, width, window=7):
            super().__init__()
            self.table = nn.Parameter(torch.zeros((2 * window - 1) * (2 * window - 1), 4))
            rel = torch.stack(torch.meshgrid([torch.arange(window), torch.arange(window)])).flatten(1)
            rel[0, :] += window - 1
            self.register_buffer("index", rel)
            self.qkv = nn.Linear(width, 3 * width)
            trunc_normal_(self.table, std=.02)


    class Merge(nn.Module):
        def __init__(self, resolution, width):
            super().__init__()
            self.reduce = nn.Linear(4 * width, 2 * width, bias=False)


    class Stage(nn.Module):
        def __init__(self, width, resolution, depth, downsample=None):
            super().__init__()
            self.blocks = nn.ModuleList([Attn(width) for _ in range(depth)])
            self.down = downsample(resolution, width=width) if downsample is not None else None


    class WindowNet(nn.Module):
        def __init__(self, img_size=224, width=32, depths=(2, 2)):
            super().__init__()
            self.embed = Embed(img_size=img_size, width=width)
            grid = self.embed.grid
            self.stages = nn.ModuleList()
            for i in range(len(depths)):
                stage = Stage(width * 2 ** i, (grid[0] // 2 ** i, grid[1] // 2 ** i), depths[i],
                              downsample=Merge if i < len(depths) - 1 else None)
                self.stages.append(stage)
"""


def patchnet(width: int, depth: int, patch: int = 4, classes: int = 1000) -> int:
    """By hand: the patch conv (bias), per block a LayerNorm and a square linear (bias), the final
    norm, the head."""
    return (3 * width * patch * patch + width) + depth * (2 * width + width * width + width) + 2 * width \
        + width * classes + classes


DATA = """\
    import torch


    def build_dataset(is_train, config):
        if config.DATA.DATASET == 'imagenet':
            dataset = []
            nb_classes = 1000
        elif config.DATA.DATASET == 'imagenet22K':
            dataset = []
            nb_classes = 21841
        elif config.DATA.DATASET == 'folder':
            dataset = []
            nb_classes = len(dataset)
        return dataset, nb_classes


    def build_loader(config):
        config.defrost()
        dataset_train, config.MODEL.NUM_CLASSES = build_dataset(is_train=True, config=config)
        config.freeze()
        data_loader_train = torch.utils.data.DataLoader(dataset_train, batch_size=config.DATA.BATCH_SIZE,
                                                        num_workers=config.DATA.NUM_WORKERS)
        return dataset_train, data_loader_train
"""


def project(tmp_path, model_type: str = "swin", fused: str = "False", extra_yaml: str = "",
            rebound: bool = False) -> None:
    files = dict(SWIN)
    files["config.py"] = files["config.py"].replace(
        "        _C.MODEL.TYPE = 'swin'\n",
        "        _C.MODEL.TYPE = 'swin'\n        _C.MODEL.PATCH = 4\n        _C.MODEL.WIDTH = 32\n"
        "        _C.MODEL.DEPTH = 2\n        _C.MODEL.NUM_CLASSES = 1000\n        _C.DATA.DATASET = 'imagenet'\n"
        "        _C.FUSED_LAYERNORM = " + fused + "\n")
    files["configs/swin_base.yaml"] = files["configs/swin_base.yaml"].replace(
        "          TYPE: swin\n", f"          TYPE: {model_type}\n          WIDTH: 48\n          DEPTH: 3\n{extra_yaml}")
    if rebound:  # the class count rebound from the dataset builder (Swin data/build.py:25,129-145)
        files["data/build.py"] = DATA
    files["models/build.py"] = BUILD
    files["models/nets.py"] = NETS
    write(tmp_path, files)


def test_the_branch_the_configuration_takes_builds_the_counted_model(cli, tmp_path) -> None:
    project(tmp_path)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    got = ours(plan, "model.num_parameters")
    assert got is not None and got.value == patchnet(48, 3)
    assert got.confidence == "medium" and got.source.line == 13 and "build_model()" in (got.source.detail or "")
    cls = ours(plan, "model.class_name")
    assert cls is not None and cls.value == "PatchNet"


def test_the_class_count_the_dataset_builder_returns_sizes_the_head(cli, tmp_path) -> None:
    project(tmp_path, rebound=True)
    plan = plan_of(cli, "main.py", *LINE, "--opts", "DATA.DATASET", "imagenet22K", cwd=tmp_path)
    got = ours(plan, "model.num_parameters")
    assert got is not None and got.value == patchnet(48, 3, classes=21841)


def test_a_class_count_the_dataset_builder_computes_stays_unknown(cli, tmp_path) -> None:
    project(tmp_path, rebound=True)
    plan = plan_of(cli, "main.py", *LINE, "--opts", "DATA.DATASET", "folder", cwd=tmp_path)
    assert ours(plan, "model.num_parameters") is None


def test_another_branch_taken_counts_that_class(cli, tmp_path) -> None:
    project(tmp_path, model_type="mixer")
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    got = ours(plan, "model.num_parameters")
    assert got is not None and got.value == 48 * 48 + 48


def test_a_windowed_model_of_several_local_classes_is_counted(cli, tmp_path) -> None:
    # a helper tuple (timm ``to_2tuple``), a size read off a submodule (``self.embed.grid``), a local
    # class handed on as a factory (``downsample=Merge if ... else None``), a buffer index computed in
    # place, a timm initialiser: none adds parameters but the layers they lead to
    project(tmp_path, model_type="window")
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    got = ours(plan, "model.num_parameters")

    def attn(w: int) -> int:
        return 13 * 13 * 4 + w * 3 * w + 3 * w
    embed = 3 * 48 * 16 + 48
    expected = embed + 2 * attn(48) + (4 * 48 * 2 * 48) + 2 * attn(96)
    assert got is not None and got.value == expected


def test_a_norm_layer_from_the_arm_not_decided_stays_unknown(cli, tmp_path) -> None:
    # the fused-norm arm is taken: its layer class is not one the count knows
    project(tmp_path, fused="True")
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "model.num_parameters") is None


def test_a_model_type_no_branch_builds_stays_unknown(cli, tmp_path) -> None:
    project(tmp_path, model_type="vit")
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "model.num_parameters") is None
