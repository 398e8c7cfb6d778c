"""The model in real jobs (issue 15, branch jobs89): a builder function picking the model class by the ``name``
key of the configuration section splatted into it (adapters/config_object_name_builder.py), and a project's copy
of timm's ``trunc_normal_`` read as an initialiser (adapters/module_params_nested.py). Our own fixture in the shape
of baofff/U-ViT @ ce55170 (``utils.py:26-34`` ``def get_nnet(name, **kwargs): if name == 'uvit': from libs.uvit
import UViT; return UViT(**kwargs)``, ``utils.py:134`` ``nnet = get_nnet(**config.nnet)``, the sizes in
``configs/imagenet256_uvit_large.py:41-54``), with twins that state nothing: a name the chain does not take, a name
not known, a size the code writes from the data, a key the config file gives no literal.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from tests.test_config_object_mlc_uvit import CONF, LINE, UVIT

UTILS = """\
    import torch


    def get_nnet(name, **kwargs):
        if name == 'uvit':
            from libs.uvit import UViT
            return UViT(**kwargs)
        elif name == 'uvit_t2i':
            from libs.uvit_t2i import UViT
            return UViT(**kwargs)
        else:
            raise NotImplementedError(name)


    def initialize_train_state(config):
        nnet = get_nnet(**config.nnet)
        return nnet
"""

LIB = """\
    import torch
    import torch.nn as nn
    from .timm import trunc_normal_


    class UViT(nn.Module):
        def __init__(self, embed_dim=768, depth=12, use_checkpoint=False):
            super().__init__()
            self.pos_embed = nn.Parameter(torch.zeros(1, 16, embed_dim))
            self.blocks = nn.ModuleList([nn.Linear(embed_dim, embed_dim) for _ in range(depth)])
            self.use_checkpoint = use_checkpoint
            trunc_normal_(self.pos_embed, std=.02)

        def forward(self, x):
            for blk in self.blocks:
                x = blk(x)
            return x
"""

TIMM = """\
    import math
    import torch


    def _no_grad_trunc_normal_(tensor, mean, std, a, b):
        with torch.no_grad():
            tensor.uniform_(2 * a - 1, 2 * b - 1)
            tensor.erfinv_()
            tensor.mul_(std * math.sqrt(2.))
            tensor.add_(mean)
            tensor.clamp_(min=a, max=b)
            return tensor


    def trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.):
        return _no_grad_trunc_normal_(tensor, mean, std, a, b)
"""

T2I = LIB.replace("nn.Linear(embed_dim, embed_dim)", "nn.Linear(embed_dim, 2 * embed_dim)")


def _files(**changes: str) -> dict[str, str]:
    files = dict(UVIT)
    files["utils.py"] = UTILS
    files["libs/__init__.py"] = ""
    files["libs/uvit.py"] = LIB
    files["libs/uvit_t2i.py"] = T2I
    files["libs/timm.py"] = TIMM
    files["train_ldm.py"] = files["train_ldm.py"].replace(
        "nnet = utils.get_nnet(**config.nnet)", "nnet = utils.initialize_train_state(config)")
    files.update(changes)
    return files


# 20 x Linear(1024, 1024) + pos_embed 16 x 1024
UVIT_L = 20 * (1024 * 1024 + 1024) + 16 * 1024


def _count(tmp_path, cli, files: dict[str, str]):
    write(tmp_path, files)
    plan = plan_of(cli, "train_ldm.py", *LINE, cwd=tmp_path)
    return fact(plan, "model.num_parameters"), fact(plan, "model.class_name")


def test_builder_by_the_sections_name_is_counted(cli, tmp_path):
    n, cls = _count(tmp_path, cli, _files())
    assert n is not None and n.value == UVIT_L
    assert n.confidence == "medium"
    assert "get_nnet(**FLAGS.config.nnet) with name='uvit' returns UViT(**kwargs)" in n.source.detail
    assert cls is not None and cls.value == "UViT"


def test_the_other_name_picks_the_other_class(cli, tmp_path):
    files = _files()
    files[CONF] = files[CONF].replace("name='uvit',", "name='uvit_t2i',")
    n, _ = _count(tmp_path, cli, files)
    assert n is not None and n.value == 20 * (1024 * 2048 + 2048) + 16 * 1024


def test_a_builder_called_through_its_module_is_counted(cli, tmp_path):
    files = _files()
    files["train_ldm.py"] = files["train_ldm.py"].replace(
        "nnet = utils.initialize_train_state(config)", "nnet = utils.get_nnet(**config.nnet)")
    n, _ = _count(tmp_path, cli, files)
    assert n is not None and n.value == UVIT_L


def test_name_not_in_the_chain_states_nothing(cli, tmp_path):
    files = _files()
    files[CONF] = files[CONF].replace("name='uvit',", "name='uvit_vq',")
    n, _ = _count(tmp_path, cli, files)
    assert n is None


def test_name_not_known_states_nothing(cli, tmp_path):
    files = _files()
    files[CONF] = files[CONF].replace("name='uvit',", "name=os.environ['NET'],").replace(
        "import ml_collections", "import os\nimport ml_collections", 1)
    n, _ = _count(tmp_path, cli, files)
    assert n is None


def test_a_size_given_no_literal_in_the_config_states_nothing(cli, tmp_path):
    """The reading leaves ``depth=int(...)`` out: the class would see its own default 12, not 20."""
    files = _files()
    files[CONF] = files[CONF].replace("depth=20,", "depth=int('20'),")
    n, _ = _count(tmp_path, cli, files)
    assert n is None


def test_a_size_the_code_writes_from_the_data_states_nothing(cli, tmp_path):
    files = _files()
    files["utils.py"] = UTILS.replace("    nnet = get_nnet(**config.nnet)",
                                      "    config.nnet.depth = len(open('layers.txt').read())\n"
                                      "    nnet = get_nnet(**config.nnet)")
    n, _ = _count(tmp_path, cli, files)
    assert n is None


def test_a_builder_that_changes_the_model_is_not_followed(cli, tmp_path):
    files = _files()
    files["utils.py"] = UTILS.replace("            return UViT(**kwargs)\n        elif",
                                      "            model = UViT(**kwargs)\n            model.head = torch.nn.Linear(4, 4)\n"
                                      "            return model\n        elif")
    n, _ = _count(tmp_path, cli, files)
    assert n is None
