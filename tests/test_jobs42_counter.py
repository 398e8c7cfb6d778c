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
