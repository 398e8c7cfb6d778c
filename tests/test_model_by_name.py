"""A project model picked by name at run time (issue 15, branch jobs23): timm's ``create_model`` of
a constructor the project registers, and ``module.__dict__[name]``, counted from the class the
constructor builds. Shapes rewritten from facebookresearch/ConvNeXt @ 048efcea897d (``main.py:22,32,
278-284``, ``models/convnext.py:14-36,53-92,167-174``) and facebookresearch/mae @ efb2a8062c20
(``main_finetune.py:37,227-231``, ``models_vit.py:20-35,56-60``); must-read examples beside
must-stay-unknown twins."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import plan_of, winner, write


def mine(plan: dict, field: str) -> list:
    return [f for f in plan["fields"].get(field, []) if f["adapter"] == "model_by_name"]


# --- timm's create_model over the project's registered constructors -----------------------------
STAGENET = """\
    import torch
    import torch.nn as nn
    from timm.models.layers import DropPath
    from timm.models.registry import register_model


    def fixed_table(n, dim):
        {table}


    class Skip(nn.Module):
        def __init__(self, p):
            super().__init__()
            self.p = p


    class Block(nn.Module):
        def __init__(self, dim, drop_path=0.0):
            super().__init__()
            self.mix = nn.Conv2d(dim, dim, kernel_size=3, padding=1, groups=dim)
            self.norm = nn.LayerNorm(dim)
            self.fc1 = nn.Linear(dim, 2 * dim)
            self.fc2 = nn.Linear(2 * dim, dim)
            {shared}
            self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
            self.skip = Skip(drop_path) if drop_path > 0.0 else nn.Identity()


    class StageNet(nn.Module):
        def __init__(self, in_chans=3, num_classes=1000, depths=(2, 2), dims=(32, 64), drop_path_rate=0.0):
            super().__init__()
            self.downs = nn.ModuleList()
            stem = nn.Conv2d(in_chans, dims[0], kernel_size=4, stride=4)
            self.downs.append(stem)
            for i in range(len(dims) - 1):
                down = nn.Sequential(nn.LayerNorm(dims[i]), nn.Conv2d(dims[i], dims[i + 1], kernel_size=2, stride=2))
                self.downs.append(down)
            rates = [x.item() for x in torch.linspace(0, drop_path_rate, sum(depths))]
            self.stages = nn.ModuleList()
            cur = 0
            for i in range(len(dims)):
                stage = nn.Sequential(*[Block(dims[i], drop_path=rates[cur + j]) for j in range(depths[i])])
                self.stages.append(stage)
                cur += depths[i]
            self.head = nn.Linear(dims[-1], num_classes)
            self.table = fixed_table(16, dims[0])


    {decorator}
    def stagenet_tiny(pretrained=False, **kwargs):
        model = StageNet(depths=[2, 2], dims=[32, 64], **kwargs)
        model.default_cfg = {{"url": ""}}
        if pretrained:
            model.load_state_dict(torch.load("stagenet_tiny.pth"))
        {after}
        return model


    @register_model
    def stagenet_small(pretrained=False, **kwargs):
        depths = [2, 4]
        {rebind}
        model = StageNet(3, depths=depths, dims=[48, 96], **kwargs)
        return model
    """

STAGENET_TRAIN = """\
    import argparse

    import torch
    from timm.models import create_model

    import models.stagenet  # registers the constructors


    def main(args):
        {classes}
        model = create_model(args.model, pretrained=False, num_classes=args.nb_classes,
                             drop_path_rate=args.drop_path)
        opt = torch.optim.AdamW(model.parameters(), lr=4e-3)
        for x, y in []:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="stagenet_tiny", type=str)
        parser.add_argument("--nb_classes", default=1000, type=int)
        parser.add_argument("--drop_path", default=0.1, type=float)
        main(parser.parse_args())
    """


def stagenet_count(depths: list[int], dims: list[int], classes: int) -> int:
    """By hand: the stem conv (4x4, bias), each downsampling (LayerNorm + 2x2 conv), each block
    (3x3 depthwise conv, LayerNorm, two linears 2x wide, all with biases), the head."""
    def block(d: int) -> int:
        return (d * 9 + d) + 2 * d + (d * 2 * d + 2 * d) + (2 * d * d + d)
    n = 3 * dims[0] * 16 + dims[0]
    n += sum(2 * dims[i] + dims[i] * dims[i + 1] * 4 + dims[i + 1] for i in range(len(dims) - 1))
    n += sum(depth * block(d) for depth, d in zip(depths, dims))
    return n + dims[-1] * classes + classes


def stagenet(tmp_path: Path, decorator: str = "@register_model", after: str = "", shared: str = "",
             classes: str = "", table: str = "return torch.zeros(1, n, dim)", rebind: str = "") -> None:
    write(tmp_path, {"models/__init__.py": "",
                     "models/stagenet.py": STAGENET.format(decorator=decorator, after=after, shared=shared,
                                                           table=table, rebind=rebind),
                     "train.py": STAGENET_TRAIN.format(classes=classes)})


def test_a_registered_constructor_named_on_the_launch_line_is_counted(cli, tmp_path: Path) -> None:
    stagenet(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_small", "--nb_classes", "100", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([2, 4], [48, 96], 100)
    got = mine(plan, "model.num_parameters")
    assert got[0]["confidence"] == "medium" and got[0]["source"]["line"] == 11
    assert "'stagenet_small' is stagenet_small() (stagenet.py:" in got[0]["source"]["detail"]
    assert winner(plan, "model.class_name") == "StageNet"
    assert winner(plan, "model.ref") == "stagenet_small"


def test_a_size_local_rebound_in_the_constructor_is_followed_by_running_it(cli, tmp_path: Path) -> None:
    # sail-sg/poolformer-style constructors bind their sizes to locals first; one rebound is refused by the
    # literal reading and followed by the counter running the constructor (jobs96): ``depths`` is [2, 4, 2],
    # of which StageNet's two stages take the first two
    stagenet(tmp_path, rebind="depths = depths + [2]")
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_small", cwd=tmp_path)
    assert [f["value"] for f in mine(plan, "model.num_parameters")] == [stagenet_count([2, 4], [48, 96], 1000)]


def test_a_size_local_read_from_a_file_in_the_constructor_stays_unknown(cli, tmp_path: Path) -> None:
    stagenet(tmp_path, rebind="depths = [int(x) for x in open('depths.txt').read().split()]")
    plan = plan_of(cli, "train.py", "--", "--model", "stagenet_small", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_the_declared_default_name_with_metadata_and_an_unused_pretrained_branch(cli, tmp_path: Path) -> None:
    stagenet(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([2, 2], [32, 64], 1000)


def test_a_helper_that_makes_a_parameter_is_run_and_its_parameter_counted(cli, tmp_path: Path) -> None:
    # a fixed table from a helper adds nothing (the count above); one that returns a Parameter adds it
    # (jobs29: a function of the file is run with its arguments, as openai/improved-diffusion's
    # ``zero_module(conv_nd(...))`` helpers are)
    stagenet(tmp_path, table="return nn.Parameter(torch.zeros(1, n, dim))")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([2, 2], [32, 64], 1000) + 16 * 32


def test_a_helper_whose_parameter_size_is_not_known_stays_unknown(cli, tmp_path: Path) -> None:
    stagenet(tmp_path, table="return nn.Parameter(torch.zeros(1, len(open('rows.txt').read()), dim))")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_a_constructor_not_registered_with_timm_stays_unknown(cli, tmp_path: Path) -> None:
    stagenet(tmp_path, decorator="")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_a_constructor_that_changes_the_model_after_building_it_stays_unknown(cli, tmp_path: Path) -> None:
    stagenet(tmp_path, after="model.head = torch.nn.Linear(64, 10)")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_a_class_count_not_known_from_the_data_stays_unknown(cli, tmp_path: Path) -> None:
    stagenet(tmp_path, classes="args.nb_classes = len(torch.load('classes.pt'))")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_a_layer_held_in_a_local_and_given_twice_stays_unknown(cli, tmp_path: Path) -> None:
    # one module under two names is one set of weights: the count does not follow the sharing
    stagenet(tmp_path, shared="proj = nn.Linear(dim, dim); self.q = proj; self.k = proj")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


# --- module.__dict__[name] of a subclass of timm's VisionTransformer ------------------------------
VIT_MODELS = """\
    from functools import partial

    import timm.models.vision_transformer
    import torch.nn as nn


    class ViTClassifier(timm.models.vision_transformer.VisionTransformer):
        def __init__(self, mean_pool=False, **kwargs):
            super(ViTClassifier, self).__init__(**kwargs)
            self.mean_pool = mean_pool
            if self.mean_pool:
                make_norm = kwargs["norm_layer"]
                self.pool_norm = make_norm(kwargs["embed_dim"])
                del self.norm


    def vit_small_p16(**kwargs):
        model = ViTClassifier(patch_size=16, embed_dim=384, depth=12, num_heads=6, mlp_ratio=4, qkv_bias=True,
                              norm_layer={norm}{extra}, **kwargs)
        return model
    """

VIT_TRAIN = """\
    import argparse

    import torch

    import models_vit


    def main(args):
        model = {pick}(num_classes=args.nb_classes, drop_path_rate=args.drop_path,
                                                  mean_pool=args.mean_pool)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for x, y in []:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", default="vit_small_p16", type=str)
        parser.add_argument("--nb_classes", default=1000, type=int)
        parser.add_argument("--drop_path", default=0.1, type=float)
        parser.add_argument("--mean_pool", action="store_true")
        parser.set_defaults(mean_pool=True)
        main(parser.parse_args())
    """


def vit_count(d: int, depth: int, classes: int, img: int = 224, patch: int = 16) -> int:
    """By hand, timm's ViT: the patch conv (bias), the class token, a position row per patch and
    one for the class token, per block two LayerNorms, qkv (bias) and proj, the 4x MLP; the final
    norm (here the pooled norm instead: the same size), the head."""
    block = 4 * d + (3 * d * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return 3 * d * patch * patch + d + d + ((img // patch) ** 2 + 1) * d + depth * block + 2 * d + d * classes + classes


def vit(tmp_path: Path, extra: str = "", pick: str = "models_vit.__dict__[args.model]",
        norm: str = "partial(nn.LayerNorm, eps=1e-6)") -> None:
    write(tmp_path, {"models_vit.py": VIT_MODELS.format(extra=extra, norm=norm),
                     "train.py": VIT_TRAIN.format(pick=pick)})


def test_a_timm_vit_subclass_picked_from_the_module_namespace_is_counted(cli, tmp_path: Path) -> None:
    vit(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert vit_count(384, 12, 1000) == 22_050_664  # DeiT-S / ViT-S/16: timm's 22.05M
    assert winner(plan, "model.num_parameters") == 22_050_664
    got = mine(plan, "model.num_parameters")
    assert got[0]["confidence"] == "medium" and "vit_small_p16() (models_vit.py:17)" in got[0]["source"]["detail"]
    assert winner(plan, "model.class_name") == "ViTClassifier"


def test_getattr_of_the_module_and_the_class_count_from_the_launch_line(cli, tmp_path: Path) -> None:
    vit(tmp_path, pick="getattr(models_vit, args.model)")
    plan = plan_of(cli, "train.py", "--", "--nb_classes", "10", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == vit_count(384, 12, 10)


def test_a_vit_option_that_adds_layers_stays_unknown(cli, tmp_path: Path) -> None:
    # LayerScale (``init_values``) adds two vectors per block: not in the count, so nothing is said
    vit(tmp_path, extra=", init_values=1e-5")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


def test_a_norm_layer_other_than_layernorm_stays_unknown(cli, tmp_path: Path) -> None:
    # RMSNorm has no bias: a LayerNorm count would be wrong
    vit(tmp_path, norm="partial(nn.RMSNorm, eps=1e-6)")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")


# --- the class count a project's dataset builder returns ------------------------------------------
# facebookresearch/deit @ 7e160fe main.py:209 ``dataset_train, args.nb_classes = build_dataset(is_train=True,
# args=args)`` and datasets.py:52-73 (an if/elif chain on ``args.data_set``, ``return dataset, nb_classes``);
# the same in facebookresearch/ConvNeXt main.py:215 and MCG-NJU/VideoMAE run_class_finetuning.py:226
DATASETS = """\
    def build_dataset(is_train, args):
        if args.data_set == 'CIFAR':
            dataset = []
            nb_classes = 100
        elif args.data_set == 'IMNET':
            if is_train:
                dataset = ['train']
            else:
                dataset = ['val']
            nb_classes = 1000
        elif args.data_set == 'FOLDER':
            dataset = []
            nb_classes = {folder}
        return dataset, nb_classes
    """


def with_builder(tmp_path: Path, folder: str = "10") -> None:
    stagenet(tmp_path, classes="dataset_train, args.nb_classes = build_dataset(is_train=True, args=args)")
    train = (tmp_path / "train.py").read_text()
    train = train.replace("import models.stagenet", "from datasets import build_dataset\nimport models.stagenet")
    train = train.replace('parser.add_argument("--drop_path"', 'parser.add_argument("--data-set", default="IMNET")\n'
                                                               '    parser.add_argument("--drop_path"')
    (tmp_path / "train.py").write_text(train)
    write(tmp_path, {"datasets.py": DATASETS.format(folder=folder)})


def test_the_class_count_the_dataset_builder_returns_for_the_chosen_dataset(cli, tmp_path: Path) -> None:
    with_builder(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([2, 2], [32, 64], 1000)
    plan = plan_of(cli, "train.py", "--", "--data-set", "CIFAR", "--nb_classes", "7", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == stagenet_count([2, 2], [32, 64], 100)


def test_a_class_count_the_builder_computes_stays_unknown(cli, tmp_path: Path) -> None:
    with_builder(tmp_path, folder="len(dataset)")
    plan = plan_of(cli, "train.py", "--", "--data-set", "FOLDER", cwd=tmp_path)
    assert not mine(plan, "model.num_parameters")
