"""jobs66: weight normalisation, in-place fills of a local layer and tensors of a known shape in the module counter.

Shapes from jaywalnut310/glow-tts @ 13e9976 (fixtures of our own that reproduce them):

- ``attentions.py:63-71``: ``start = torch.nn.Conv1d(in_channels//2, hidden_channels, 1)``, ``start =
  torch.nn.utils.weight_norm(start)``, ``self.start = start``; ``end = torch.nn.Conv1d(hidden_channels, in_channels,
  1)``, ``end.weight.data.zero_()``, ``end.bias.data.zero_()``, ``self.end = end``;
- ``modules.py:200-203``: ``w_init = torch.qr(torch.FloatTensor(self.n_split, self.n_split).normal_())[0]``,
  ``if torch.det(w_init) < 0: w_init[:,0] = -1 * w_init[:,0]``, ``self.weight = nn.Parameter(w_init)``;
- the HiFi-GAN/BigVGAN family: ``from torch.nn.utils import weight_norm`` then ``weight_norm(Conv1d(...))``,
  ``ConvTranspose1d`` upsamplers under ``weight_norm`` (a weight of ``(in, out, k)``: ``weight_g`` has ``in`` values).
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.module_params_nested import count_module

COUPLING = '''
    import torch
    from torch import nn


    class Coupling(nn.Module):
        def __init__(self, in_channels, hidden_channels, n_split=4):
            super().__init__()
            start = torch.nn.Conv1d(in_channels // 2, hidden_channels, 1)
            start = torch.nn.utils.weight_norm(start)
            self.start = start
            end = torch.nn.Conv1d(hidden_channels, in_channels, 1)
            end.weight.data.zero_()
            end.bias.data.zero_()
            self.end = end
            w_init = torch.qr(torch.FloatTensor(n_split, n_split).normal_())[0]
            if torch.det(w_init) < 0:
                w_init[:, 0] = -1 * w_init[:, 0]
            self.weight = nn.Parameter(w_init)
'''


def _count(src: str, name: str, **kwargs):
    got = count_module(ast.parse(textwrap.dedent(src)), name, [], kwargs)
    return got[0] if got is not None else None


def test_the_glow_tts_coupling_shapes_are_counted():
    start = 4 * 16 + 16 + 16  # Conv1d(4, 16, 1) + weight_g of its 16 output rows
    end = 16 * 8 + 8  # Conv1d(16, 8, 1), zeroed in place: still its parameters
    inv = 4 * 4  # the orthogonal 4 x 4 matrix from torch.qr
    assert _count(COUPLING, "Coupling", in_channels=8, hidden_channels=16) == start + end + inv


def test_weight_norm_imported_by_name_of_a_transposed_conv_adds_its_input_rows():
    src = '''
        import torch.nn as nn
        from torch.nn import Conv1d, ConvTranspose1d
        from torch.nn.utils import weight_norm, spectral_norm


        class Up(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = weight_norm(ConvTranspose1d(32, 16, 8, 4, padding=2))
                self.post = weight_norm(Conv1d(16, 1, 7, 1, padding=3))
                self.disc = spectral_norm(nn.Linear(16, 4))
                self.head = nn.utils.weight_norm(nn.Linear(16, 2), dim=None)
    '''
    up = 32 * 16 * 8 + 16 + 32  # ConvTranspose1d weight (32, 16, 8): weight_g has 32 values
    post = 16 * 1 * 7 + 1 + 1
    disc = 16 * 4 + 4  # spectral_norm: u and v are buffers
    head = 16 * 2 + 2 + 1  # dim=None: one norm for the whole weight
    assert _count(src, "Up") == up + post + disc + head


def test_a_qr_of_a_tall_tensor_keeps_the_reduced_shape():
    src = '''
        import torch
        import torch.nn as nn


        class Proj(nn.Module):
            def __init__(self):
                super().__init__()
                q = torch.qr(torch.randn(6, 4))[0]
                self.q = nn.Parameter(q)
    '''
    assert _count(src, "Proj") == 6 * 4


def test_weight_norm_of_a_bias_or_along_another_dimension_stays_unknown():
    base = '''
        import torch.nn as nn
        from torch.nn.utils import weight_norm


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.c = weight_norm(nn.Conv1d(4, 8, 3), ARGS)
    '''
    assert _count(base.replace("ARGS", "name='bias'"), "M") is None
    assert _count(base.replace("ARGS", "dim=1"), "M") is None
    assert _count(base.replace(", ARGS", ""), "M") == 4 * 8 * 3 + 8 + 8


def test_a_local_function_named_weight_norm_is_run_not_taken_for_torch_s():
    src = '''
        import torch.nn as nn


        def weight_norm(m):
            return nn.Sequential(m, nn.Linear(8, 8))


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.c = weight_norm(nn.Linear(4, 8))
    '''
    assert _count(src, "M") == (4 * 8 + 8) + (8 * 8 + 8)


def test_a_local_tensor_whose_shape_is_not_followed_stays_unknown():
    reshaped = COUPLING.replace("            self.weight = nn.Parameter(w_init)",
                                "            w_init = w_init.view(-1)\n            self.weight = nn.Parameter(w_init)")
    assert reshaped != COUPLING
    assert _count(reshaped, "Coupling", in_channels=8, hidden_channels=16) is None
    sized_by_data = COUPLING.replace("torch.FloatTensor(n_split, n_split)", "torch.FloatTensor(*shape_of_data())")
    assert sized_by_data != COUPLING
    assert _count(sized_by_data, "Coupling", in_channels=8, hidden_channels=16) is None


def test_an_in_place_fill_of_a_local_that_is_no_module_stays_unknown():
    # ``end`` is a value handed in (not known to be a layer): its fill is not read as an initialisation
    src = COUPLING.replace("            end = torch.nn.Conv1d(hidden_channels, in_channels, 1)\n", "")
    src = src.replace("def __init__(self, in_channels, hidden_channels, n_split=4):",
                      "def __init__(self, in_channels, hidden_channels, end, n_split=4):")
    assert _count(src, "Coupling", in_channels=8, hidden_channels=16) is None
