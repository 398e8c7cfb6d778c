"""Module-counter constructs met in real model classes built from a configuration (branch jobs42), each
from a repository of the real-jobs benchmark, with twins the counter must still refuse:

- ``self.pos_embed = nn.init.trunc_normal_(nn.Parameter(torch.zeros(...)), 0., 0.02)``: an in-place
  initialiser returns the tensor it fills (bytedance/1d-tokenizer ``modeling/rar.py:222-230``);
- ``self.register_to_config(...)`` (diffusers-style ``ConfigMixin``, huggingface/open-muse
  ``muse/modeling_transformer.py:1127``) records arguments, builds nothing;
- ``partial(LayerNorm, use_bias=use_bias)`` of a local class with a plain local (open-muse ``:1129``);
- ``torch.sqrt(torch.tensor(d)).to(dtype)``: a plain tensor, no parameter (open-muse ``:168``);
- ``self.h["use_cuda_kernel"] = flag``: a key set in the config mapping the class holds
  (NVIDIA/BigVGAN ``bigvgan.py:270``).
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.module_params_nested import count_module

HEAD = """\
import torch
import torch.nn as nn
from functools import partial


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5, use_bias=False):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim)) if use_bias else None
"""


def _count(body: str, args: list | None = None, kwargs: dict | None = None):
    tree = ast.parse(HEAD + textwrap.dedent(body))
    got = count_module(tree, "Net", args or [], kwargs or {})
    return None if got is None else got[0]


def test_an_in_place_initialiser_returns_the_parameter_it_fills() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, seq=16, dim=8):
            super().__init__()
            self.pos = nn.init.trunc_normal_(nn.Parameter(torch.zeros(1, seq, dim)), 0., 0.02)
            self.fc = nn.Linear(dim, dim)
    """
    assert _count(body) == 16 * 8 + 8 * 8 + 8


def test_an_initialiser_of_something_unknown_stays_unknown() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, dim=8):
            super().__init__()
            self.pos = nn.init.trunc_normal_(make_table(dim), 0., 0.02)
            self.fc = nn.Linear(dim, dim)
    """
    assert _count(body) is None


def test_register_to_config_builds_nothing() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, vocab=10, dim=8):
            super().__init__()
            self.register_to_config(mask_token_id=vocab - 1)
            self.emb = nn.Embedding(vocab, dim)
    """
    assert _count(body) == 80


def test_a_partial_of_a_local_class_with_a_plain_local_keyword() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, dim=8, use_bias=True, norm_type="layernorm"):
            super().__init__()
            norm_cls = partial(LayerNorm, use_bias=use_bias) if norm_type == "layernorm" else None
            self.n1 = norm_cls(dim)
            self.n2 = norm_cls(dim, eps=1e-6)
    """
    assert _count(body) == 2 * (8 + 8)
    assert _count(body, kwargs={"use_bias": False}) == 2 * 8


def test_a_partial_with_a_local_that_is_not_plain_stays_unknown() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, dim=8):
            super().__init__()
            flag = some_call()
            norm_cls = partial(LayerNorm, use_bias=flag)
            self.n1 = norm_cls(dim)
    """
    assert _count(body) is None


def test_elementwise_math_on_a_tensor_is_a_plain_tensor() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, dim=8, heads=2):
            super().__init__()
            self.scale = torch.sqrt(torch.tensor(dim // heads, dtype=torch.float32)).to(torch.get_default_dtype())
            self.qkv = nn.Linear(dim, 3 * dim, bias=False)
    """
    assert _count(body) == 8 * 24


def test_a_key_set_in_the_config_mapping_the_class_holds() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, h, use_cuda_kernel=False):
            super().__init__()
            self.h = h
            self.h["use_cuda_kernel"] = use_cuda_kernel
            self.fc = nn.Linear(h["dim"], h["dim"] * 2)
            if self.h["use_cuda_kernel"]:
                self.extra = nn.Linear(4, 4)
    """
    assert _count(body, args=[{"dim": 8}]) == 8 * 16 + 16
    assert _count(body, args=[{"dim": 8}], kwargs={"use_cuda_kernel": True}) == 8 * 16 + 16 + 20


def test_a_module_stored_into_a_mapping_stays_unknown() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, h):
            super().__init__()
            self.h = h
            self.h["layer"] = nn.Linear(4, 4)
            self.fc = nn.Linear(4, 4)
    """
    assert _count(body, args=[{"dim": 8}]) is None


# -- torchvision backbones (facebookresearch/detr ``models/backbone.py:19-93``, Deformable-DETR the same) -----

BACKBONE = """\
import torch
import torchvision
import torch.nn.functional as F
from torch import nn
from torchvision.models._utils import IntermediateLayerGetter


class FrozenBatchNorm2d(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("weight", torch.ones(n))
        self.register_buffer("bias", torch.zeros(n))


class BackboneBase(nn.Module):
    def __init__(self, backbone, train_backbone, return_interm_layers):
        super().__init__()
        for name, parameter in backbone.named_parameters():
            if not train_backbone or 'layer2' not in name:
                parameter.requires_grad_(False)
        if return_interm_layers:
            return_layers = {"layer2": "0", "layer3": "1", "layer4": "2"}
        else:
            return_layers = {"layer4": "0"}
        self.body = IntermediateLayerGetter(backbone, return_layers=return_layers)


class Net(BackboneBase):
    def __init__(self, name, train_backbone=True, return_interm_layers=False, dilation=False):
        backbone = getattr(torchvision.models, name)(
            replace_stride_with_dilation=[False, False, dilation],
            pretrained=is_main_process(), norm_layer=NORM)
        super().__init__(backbone, train_backbone, return_interm_layers)
        self.act = F.relu
        self.head = nn.Linear(2048, 4)
"""


def _backbone(name: str, norm: str = "FrozenBatchNorm2d", **kwargs):
    tree = ast.parse(BACKBONE.replace("NORM", norm))
    got = count_module(tree, "Net", [name], kwargs)
    return None if got is None else got[0]


def test_torchvision_resnets_match_their_published_counts() -> None:
    from preflight.adapters.module_params_torchvision import resnet_children

    published = {"resnet18": 11_689_512, "resnet34": 21_797_672, "resnet50": 25_557_032,
                 "resnet101": 44_549_160, "resnet152": 60_192_808, "resnext50_32x4d": 25_028_904,
                 "wide_resnet50_2": 68_883_240}
    for name, total in published.items():
        children = resnet_children(name)
        assert children is not None and sum(n for _, n in children) == total, name
    assert resnet_children("vgg16") is None


def test_a_resnet_backbone_by_name_with_frozen_norms_up_to_layer4() -> None:
    # resnet50 without its 53,120 BatchNorm weights (buffers in FrozenBatchNorm2d) and without avgpool/fc
    assert _backbone("resnet50") == 25_557_032 - 53_120 - 2_049_000 + 2048 * 4 + 4
    # the same returning layer2..layer4: still everything up to layer4
    assert _backbone("resnet50", return_interm_layers=True) == _backbone("resnet50")


def test_a_resnet_backbone_with_trainable_norms_counts_them() -> None:
    assert _backbone("resnet50", norm="nn.BatchNorm2d") == 25_557_032 - 2_049_000 + 2048 * 4 + 4


def test_a_backbone_name_not_known_states_nothing() -> None:
    assert _backbone("convnext_tiny") is None
    tree = ast.parse(BACKBONE.replace("NORM", "FrozenBatchNorm2d"))
    assert count_module(tree, "Net", [], {}) is None  # the name not given


def test_a_returned_layer_not_in_the_resnet_states_nothing() -> None:
    tree = ast.parse(BACKBONE.replace("NORM", "FrozenBatchNorm2d").replace('{"layer4": "0"}', '{"head": "0"}'))
    assert count_module(tree, "Net", ["resnet50"], {}) is None


def test_a_repeated_list_of_sizes_builds_the_layers() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, input_dim=8, hidden_dim=16, output_dim=4, num_layers=3):
            super().__init__()
            h = [hidden_dim] * (num_layers - 1)
            self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip([input_dim] + h, h + [output_dim]))
    """
    assert _count(body) == (8 * 16 + 16) + (16 * 16 + 16) + (16 * 4 + 4)


# -- Deformable-DETR's initialisation idioms (fundamentalvision/Deformable-DETR ``models/deformable_detr.py``,
# ``models/ops/modules/ms_deform_attn.py``) -------------------------------------------------------------------

INIT_HEAD = """\
import math
import torch
import torch.nn as nn
from torch.nn.init import constant_, xavier_uniform_


def _is_power_of_2(n):
    return (n & (n - 1) == 0) and n != 0
"""


def _init_count(body: str, **kwargs):
    tree = ast.parse(INIT_HEAD + textwrap.dedent(body))
    got = count_module(tree, "Net", [], kwargs)
    return None if got is None else got[0]


def test_initialisation_idioms_change_no_count() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, d=8, heads=2, num_pred=6):
            super().__init__()
            if not _is_power_of_2(d // heads):
                print("slow")
            self.offsets = nn.Linear(d, 4)
            self.cls = nn.Linear(d, 3)
            constant_(self.offsets.weight.data, 0.)
            xavier_uniform_(self.cls.weight.data)
            bias_value = -math.log((1 - 0.01) / 0.01)
            self.cls.bias.data = torch.ones(3) * bias_value
            grid = torch.arange(heads, dtype=torch.float32)
            with torch.no_grad():
                self.offsets.bias = nn.Parameter(grid.view(-1))
            weights = {"ce": 1, "bbox": 5}
            aux = {}
            for i in range(num_pred - 1):
                aux.update({k + f"_{i}": v for k, v in weights.items()})
            weights.update(aux)
            self.cls = nn.ModuleList([self.cls for _ in range(num_pred)])
    """
    assert _init_count(body) == (8 * 4 + 4) + (8 * 3 + 3)


def test_a_list_of_distinct_modules_is_not_taken_for_a_shared_one() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, d=8, num_pred=6):
            super().__init__()
            self.cls = nn.Linear(d, 3)
            self.cls = nn.ModuleList([nn.Linear(d, 3) for _ in range(num_pred)])
    """
    # the first ``self.cls`` replaced by six new layers: not followed (a submodule replaced), never counted once
    assert _init_count(body) is None


def test_a_parameter_added_inside_no_grad_is_counted() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, d=8):
            super().__init__()
            self.fc = nn.Linear(d, d)
            with torch.no_grad():
                self.scale = nn.Parameter(torch.ones(d))
    """
    assert _init_count(body) == 8 * 8 + 8 + 8


def test_a_dict_updated_with_a_module_stays_unknown() -> None:
    body = """
    class Net(nn.Module):
        def __init__(self, d=8):
            super().__init__()
            parts = {}
            parts.update({"fc": nn.Linear(d, d)})
            self.parts = nn.ModuleDict(parts)
    """
    assert _init_count(body) is None


def test_the_item_of_a_tuple_builder_reached_through_a_wrapper() -> None:
    # facebookresearch/detr ``models/__init__.py:5-6`` ``def build_model(args): return build(args)`` over
    # ``models/detr.py:304-360`` ``return model, criterion, postprocessors``
    from preflight.adapters.module_params_calls import count_call

    src = INIT_HEAD + textwrap.dedent("""
    class Net(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.fc = nn.Linear(d, d)


    def build(args):
        model = Net(args["d"])
        criterion = nn.CrossEntropyLoss()
        return model, criterion, {"bbox": None}


    def build_model(args):
        return build(args)
    """)
    tree = ast.parse(src)
    got = count_call(tree, "build_model", [{"d": 8}], {}, element=0)
    assert got is not None and got[0] == 8 * 8 + 8
    assert count_call(tree, "build_model", [{"d": 8}], {}, element=2) is None  # a dict, no module
    assert count_call(tree, "build_model", [{}], {}, element=0) is None  # the size not known


def test_a_parameter_free_library_attention_and_an_einops_function() -> None:
    # openai/consistency_models ``cm/unet.py:331-362``: ``from flash_attn.flash_attention import FlashAttention``
    # inside ``__init__``, ``self.rearrange = rearrange`` (einops)
    body = """
    class Net(nn.Module):
        def __init__(self, d=8):
            super().__init__()
            from einops import rearrange
            from flash_attn.flash_attention import FlashAttention

            self.qkv = nn.Linear(d, 3 * d)
            self.inner_attn = FlashAttention(attention_dropout=0.0)
            self.rearrange = rearrange
    """
    assert _count(body) == 8 * 24 + 24
    # a FlashAttention of another library (or of the project) is not taken for flash_attn's
    other = body.replace("from flash_attn.flash_attention import FlashAttention", "from mylib import FlashAttention")
    assert _count(other) is None


def test_a_frozen_weight_is_still_counted() -> None:
    # KellerJordan/cifar10-airbench ``airbench94_muon.py:181-187``: a BatchNorm subclass whose weight is frozen
    body = """
    class BatchNorm(nn.BatchNorm2d):
        def __init__(self, num_features, momentum=0.6, eps=1e-12):
            super().__init__(num_features, eps=eps, momentum=1 - momentum)
            self.weight.requires_grad = False


    class Net(nn.Module):
        def __init__(self, d=8):
            super().__init__()
            self.conv = nn.Conv2d(3, d, 3, bias=False)
            self.norm = BatchNorm(d)
    """
    assert _count(body) == 3 * 8 * 9 + 2 * 8
    # a non-boolean written there is not read as that flag
    assert _count(body.replace("requires_grad = False", "requires_grad = make_flag()")) is None
