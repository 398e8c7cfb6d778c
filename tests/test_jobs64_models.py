"""jobs64: a model configured by a table of config functions, and layers imported by name from torch.nn.

Shapes from real jobs (fixtures of our own that reproduce them):

- jeonsworld/ViT-pytorch @ 460a162: ``models/configs.py:34-47`` ``get_b16_config()`` builds an
  ``ml_collections.ConfigDict`` by attribute writes, ``get_b32_config()`` (``:61-65``) starts from it and changes
  ``patches.size``; ``models/modeling.py:339-347`` ``CONFIGS = {'ViT-B_16': configs.get_b16_config(), ...}``;
  ``train.py:60-64`` ``config = CONFIGS[args.model_type]`` handed to ``VisionTransformer(config, args.img_size,
  zero_head=True, num_classes=num_classes)``. ``modeling.py:16-17`` imports its layers by name (``from torch.nn
  import Dropout, Softmax, Linear, Conv2d, LayerNorm``) and ``_pair`` from ``torch.nn.modules.utils``.
- Beckschen/TransUNet ``train.py:83-84`` (the twin that must stay unknown): the picked config changed after it is
  picked (``config_vit.n_classes = args.num_classes``).
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.config_builder_fn import built_config
from preflight.adapters.module_params_nested import UNKNOWN, count_module

from preflight.audit import build_plan

CONFIGS = '''
import ml_collections


def get_b16_config():
    """Returns the ViT-B/16 configuration."""
    config = ml_collections.ConfigDict()
    config.patches = ml_collections.ConfigDict({'size': (16, 16)})
    config.hidden_size = 768
    config.transformer = ml_collections.ConfigDict()
    config.transformer.mlp_dim = 3072
    config.transformer.num_heads = 12
    config.transformer.num_layers = 12
    config.transformer.dropout_rate = 0.1
    config.classifier = 'token'
    config.representation_size = None
    return config


def get_b32_config():
    config = get_b16_config()
    config.patches.size = (32, 32)
    return config


def get_r50_b16_config():
    config = get_b16_config()
    del config.patches.size
    config.patches.grid = (14, 14)
    return config
'''

MODELING = '''
import copy

import torch
import torch.nn as nn
from torch.nn import Dropout, Softmax, Linear, Conv2d, LayerNorm
from torch.nn.modules.utils import _pair

import models.configs as configs


class Attention(nn.Module):
    def __init__(self, config):
        super(Attention, self).__init__()
        self.num_attention_heads = config.transformer["num_heads"]
        self.attention_head_size = int(config.hidden_size / self.num_attention_heads)
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = Linear(config.hidden_size, self.all_head_size)
        self.key = Linear(config.hidden_size, self.all_head_size)
        self.value = Linear(config.hidden_size, self.all_head_size)
        self.out = Linear(config.hidden_size, config.hidden_size)
        self.softmax = Softmax(dim=-1)


class Mlp(nn.Module):
    def __init__(self, config):
        super(Mlp, self).__init__()
        self.fc1 = Linear(config.hidden_size, config.transformer["mlp_dim"])
        self.fc2 = Linear(config.transformer["mlp_dim"], config.hidden_size)
        self.dropout = Dropout(config.transformer["dropout_rate"])


class Embeddings(nn.Module):
    def __init__(self, config, img_size, in_channels=3):
        super(Embeddings, self).__init__()
        img_size = _pair(img_size)
        if config.patches.get("grid") is not None:
            raise NotImplementedError("hybrid")
        patch_size = _pair(config.patches["size"])
        n_patches = (img_size[0] // patch_size[0]) * (img_size[1] // patch_size[1])
        self.patch_embeddings = Conv2d(in_channels=in_channels, out_channels=config.hidden_size,
                                       kernel_size=patch_size, stride=patch_size)
        self.position_embeddings = nn.Parameter(torch.zeros(1, n_patches + 1, config.hidden_size))
        self.cls_token = nn.Parameter(torch.zeros(1, 1, config.hidden_size))


class Block(nn.Module):
    def __init__(self, config):
        super(Block, self).__init__()
        self.attention_norm = LayerNorm(config.hidden_size, eps=1e-6)
        self.ffn_norm = LayerNorm(config.hidden_size, eps=1e-6)
        self.ffn = Mlp(config)
        self.attn = Attention(config)


class VisionTransformer(nn.Module):
    def __init__(self, config, img_size=224, num_classes=21843, zero_head=False):
        super(VisionTransformer, self).__init__()
        self.embeddings = Embeddings(config, img_size=img_size)
        self.layer = nn.ModuleList()
        for _ in range(config.transformer["num_layers"]):
            layer = Block(config)
            self.layer.append(copy.deepcopy(layer))
        self.encoder_norm = LayerNorm(config.hidden_size, eps=1e-6)
        self.head = Linear(config.hidden_size, num_classes)


CONFIGS = {
    'ViT-B_16': configs.get_b16_config(),
    'ViT-B_32': configs.get_b32_config(),
    'R50-ViT-B_16': configs.get_r50_b16_config(),
}
'''

TRAIN = '''
import argparse

import torch

from models.modeling import VisionTransformer, CONFIGS


def setup(args):
    config = CONFIGS[args.model_type]
    num_classes = 10 if args.dataset == "cifar10" else 100
    model = VisionTransformer(config, args.img_size, zero_head=True, num_classes=num_classes)
    model.to(args.device)
    return args, model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", choices=["cifar10", "cifar100"], default="cifar10")
    parser.add_argument("--model_type", choices=["ViT-B_16", "ViT-B_32", "R50-ViT-B_16"], default="ViT-B_16")
    parser.add_argument("--img_size", default=224, type=int)
    args = parser.parse_args()
    args.device = "cuda"
    args, model = setup(args)
    optimizer = torch.optim.SGD(model.parameters(), lr=3e-2, momentum=0.9)
    for x, y in []:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
'''


def _vit(patch, classes, img=224, hidden=768, mlp=3072, layers=12):
    n_patches = (img // patch) ** 2
    embeddings = 3 * patch * patch * hidden + hidden + (n_patches + 1) * hidden + hidden
    block = 2 * 2 * hidden + (hidden * mlp + mlp + mlp * hidden + hidden) + 4 * (hidden * hidden + hidden)
    return embeddings + layers * block + 2 * hidden + hidden * classes + classes


def _plan(tmp_path, train=TRAIN, modeling=MODELING, configs=CONFIGS, argv=()):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "models" / "configs.py").write_text(textwrap.dedent(configs), encoding="utf-8")
    (tmp_path / "models" / "modeling.py").write_text(textwrap.dedent(modeling), encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent(train), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=list(argv))
    return plan


def test_the_expected_figure_is_the_published_vit_b16_count():
    # the job's truth (bench/realworld/jobs/manifest.json): ViT-B_16 at 224 with a 10-class head, 85,806,346
    assert _vit(16, 10) == 85_806_346


def test_a_config_picked_from_a_table_of_config_functions_sizes_the_model(tmp_path):
    plan = _plan(tmp_path, argv=["--dataset", "cifar10", "--model_type", "ViT-B_16"])
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == _vit(16, 10) == 85_806_346
    assert fact.source.path.endswith("train.py") and fact.source.line == 12  # the VisionTransformer(...) call
    assert fact.confidence != "high"
    assert plan.value("model.class_name") == "VisionTransformer"


def test_a_config_function_that_starts_from_another_and_the_launch_key_decide(tmp_path):
    plan = _plan(tmp_path, argv=["--model_type", "ViT-B_32", "--dataset", "cifar100"])
    assert plan.value("model.num_parameters") == _vit(32, 100)


def test_the_argparse_default_key_picks_the_entry(tmp_path):
    assert _plan(tmp_path).value("model.num_parameters") == _vit(16, 10)


def test_a_picked_config_changed_after_it_is_picked_stays_unknown(tmp_path):
    changed = TRAIN.replace("    num_classes = 10", "    config.hidden_size = args.img_size\n    num_classes = 10")
    assert _plan(tmp_path, train=changed).resolve("model.num_parameters") is None


def test_a_picked_config_handed_to_a_function_of_the_script_stays_unknown(tmp_path):
    handed = TRAIN.replace("def setup(args):\n    config = CONFIGS[args.model_type]\n",
                           "def adjust(c):\n    c.hidden_size = 512\n\n\n"
                           "def setup(args):\n    config = CONFIGS[args.model_type]\n    adjust(config)\n")
    assert handed != TRAIN
    assert _plan(tmp_path, train=handed).resolve("model.num_parameters") is None


def test_a_config_function_with_a_computed_value_stays_unknown(tmp_path):
    computed = CONFIGS.replace("config.hidden_size = 768", "config.hidden_size = int('768')")
    assert computed != CONFIGS
    assert _plan(tmp_path, configs=computed).resolve("model.num_parameters") is None


def test_a_hybrid_entry_the_model_does_not_follow_stays_unknown(tmp_path):
    # R50-ViT-B_16 deletes patches.size and sets a grid: the fixture's Embeddings raises on it, which the counter
    # cannot follow, so nothing is claimed
    plan = _plan(tmp_path, argv=["--model_type", "R50-ViT-B_16"])
    assert plan.resolve("model.num_parameters") is None


def test_built_config_reads_attribute_writes_copies_and_deletes(tmp_path):
    tree = ast.parse(textwrap.dedent(CONFIGS))
    assert built_config(tmp_path / "configs.py", tree, "get_b32_config") == {
        "patches": {"size": (32, 32)}, "hidden_size": 768,
        "transformer": {"mlp_dim": 3072, "num_heads": 12, "num_layers": 12, "dropout_rate": 0.1},
        "classifier": "token", "representation_size": None}
    assert built_config(tmp_path / "configs.py", tree, "get_r50_b16_config")["patches"] == {"grid": (14, 14)}
    # the builder it starts from is not changed by the copy
    assert built_config(tmp_path / "configs.py", tree, "get_b16_config")["patches"] == {"size": (16, 16)}


def test_built_config_refuses_what_it_cannot_read(tmp_path):
    loop = "import ml_collections\n\ndef f():\n    c = ml_collections.ConfigDict()\n    for i in range(2):\n" \
           "        c.x = i\n    return c\n"
    assert built_config(tmp_path / "c.py", ast.parse(loop), "f") is None
    other = "from mylib import ConfigDict\n\ndef f():\n    c = ConfigDict()\n    c.x = 1\n    return c\n"
    assert built_config(tmp_path / "c.py", ast.parse(other), "f") is None  # not ml_collections's
    arg = "import ml_collections\n\ndef f(width):\n    c = ml_collections.ConfigDict()\n    c.x = width\n    return c\n"
    assert built_config(tmp_path / "c.py", ast.parse(arg), "f") is None
    easy = "from easydict import EasyDict as edict\n\ndef f():\n    c = edict()\n    c.model = edict(depth=4)\n" \
           "    c.model.width = 64\n    return c\n"
    assert built_config(tmp_path / "c.py", ast.parse(easy), "f") == {"model": {"depth": 4, "width": 64}}


LAYERS = '''
import torch.nn as nn
from torch.nn import Conv2d, Linear, LayerNorm
from torch.nn.modules.utils import _pair


class Net(nn.Module):
    def __init__(self, width=32, patch=4, norm_layer=LayerNorm):
        super().__init__()
        k = _pair(patch)
        self.stem = Conv2d(3, width, kernel_size=k, stride=k)
        self.norm = norm_layer(width)
        self.head = Linear(width, 10)
'''


def _count(code, name="Net"):
    got = count_module(ast.parse(textwrap.dedent(code)), name, [], {})
    return None if got is None else got[0]


def test_layers_imported_by_name_from_torch_nn_are_counted():
    assert _count(LAYERS) == (3 * 32 * 16 + 32) + 2 * 32 + (32 * 10 + 10)


def test_a_layer_name_imported_from_elsewhere_is_not_taken_for_torchs():
    assert _count(LAYERS.replace("from torch.nn import Conv2d, Linear, LayerNorm",
                                 "from mylib.layers import Conv2d, Linear, LayerNorm")) is None


def test_a_local_class_of_the_same_name_wins_over_the_torch_import():
    local = LAYERS + '''

class Linear(nn.Module):
    def __init__(self, a, b):
        super().__init__()
        self.w = nn.Linear(a, b, bias=False)
'''
    assert _count(local) == (3 * 32 * 16 + 32) + 2 * 32 + 32 * 10


def test_a_torch_layer_built_under_an_undecided_test_stays_unknown():
    undecided = LAYERS.replace("def __init__(self, width=32, patch=4, norm_layer=LayerNorm):",
                               "def __init__(self, width=32, patch=4, norm_layer=LayerNorm, deep=False):")
    undecided = undecided.replace("        self.head = Linear(width, 10)",
                                  "        if deep:\n            self.add_module('extra', Linear(width, width))\n"
                                  "        self.head = Linear(width, 10)")
    tree = ast.parse(textwrap.dedent(undecided))
    assert count_module(tree, "Net", [], {})[0] == _count(LAYERS)  # decided: deep is False
    assert count_module(tree, "Net", [], {"deep": UNKNOWN}) is None


def test_a_bare_torch_layer_call_is_known_to_build_parameters():
    from preflight.adapters.module_params_values import _builds, _Ctx

    built = ast.parse("x = Linear(3, 4)")
    assert _builds(built, _Ctx(ast.parse(textwrap.dedent(LAYERS))))
    assert not _builds(built, _Ctx(ast.parse("import torch.nn as nn\n")))


def test_a_name_bound_both_to_a_torch_layer_and_to_another_import_stays_unknown():
    # a merged module (module_params_imports.with_imports) may bring ``from mylib import Linear`` beside the
    # model file's ``from torch.nn import Linear``: which one a call means is not decided
    both = LAYERS.replace("from torch.nn.modules.utils import _pair",
                          "from torch.nn.modules.utils import _pair\nfrom mylib import Linear")
    assert both != LAYERS
    assert _count(both) is None
    rebound = LAYERS.replace("from torch.nn.modules.utils import _pair",
                             "from torch.nn.modules.utils import _pair\n_pair = None")
    assert _count(rebound) is None
