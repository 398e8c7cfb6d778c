"""jobs57: model parameter counts of project models filled step by step and imported by ``*``.

Shapes from real jobs (fixtures of our own that reproduce them):

- ermongroup/ddim @ e8df66c ``models/diffusion.py:226-294``: local ``block = nn.ModuleList()`` filled by
  ``append`` in a loop, set on an ``nn.Module()`` namespace, appended to ``self.down``; ``self.up.insert(0, up)``.
- kuangliu/pytorch-cifar @ 49b7aa9 ``models/dla_simple.py:28-34``: ``self.shortcut = nn.Sequential()`` replaced
  under a test; ``main.py:14,71`` ``from models import *`` then ``net = SimpleDLA()``, ``models/__init__.py`` a
  list of ``from .x import *``.
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.module_params_nested import count_module

from preflight.audit import build_plan

UNET = '''
import torch.nn as nn


class Res(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.shortcut = nn.Sequential()
        if c_in != c_out:
            self.shortcut = nn.Sequential(nn.Conv2d(c_in, c_out, 1, bias=False), nn.BatchNorm2d(c_out))


class Net(nn.Module):
    def __init__(self, ch=8, mult=(1, 2), blocks=2):
        super().__init__()
        self.down = nn.ModuleList()
        c = ch
        for m in mult:
            block = nn.ModuleList()
            for _ in range(blocks):
                block.append(Res(c, ch * m))
                c = ch * m
            down = nn.Module()
            down.block = block
            self.down.append(down)
        self.up = nn.ModuleList()
        for m in reversed(mult):
            up = nn.Module()
            up.conv = nn.Conv2d(c, ch * m, 3, padding=1)
            c = ch * m
            self.up.insert(0, up)
'''


def _res(c_in, c_out):
    conv = c_in * c_out * 9 + c_out
    return conv + (0 if c_in == c_out else c_in * c_out + 2 * c_out)


# mult (1, 2), ch 8: down 8->8, 8->8, 8->16, 16->16; up 16->16 (conv), 16->8
EXPECTED = (_res(8, 8) * 2 + _res(8, 16) + _res(16, 16)) + (16 * 16 * 9 + 16) + (16 * 8 * 9 + 8)


def _count(code, name="Net"):
    got = count_module(ast.parse(textwrap.dedent(code)), name, [], {})
    return None if got is None else got[0]


def test_a_local_module_list_filled_by_append_and_an_insert_into_self():
    assert _count(UNET) == EXPECTED == 8_296


def test_an_empty_shortcut_replaced_under_a_test_counts_the_new_one():
    assert _count(UNET, "Res") is None  # its sizes are required arguments: not known here
    res = UNET.replace("def __init__(self, c_in, c_out):", "def __init__(self, c_in=8, c_out=16):")
    assert _count(res, "Res") == _res(8, 16)
    same = UNET.replace("def __init__(self, c_in, c_out):", "def __init__(self, c_in=8, c_out=8):")
    assert _count(same, "Res") == _res(8, 8)


def test_a_list_appended_to_after_it_was_handed_on_is_not_counted():
    late = UNET.replace("""            down = nn.Module()
            down.block = block
            self.down.append(down)""", """            down = nn.Module()
            down.block = block
            self.down.append(down)
            block.append(nn.Linear(c, c))""")
    assert late != UNET
    assert _count(late) is None


def test_replacing_a_submodule_that_holds_parameters_stays_unknown():
    code = UNET.replace("self.shortcut = nn.Sequential()\n", "self.shortcut = nn.Linear(c_in, c_out)\n")
    code = code.replace("def __init__(self, c_in, c_out):", "def __init__(self, c_in=8, c_out=16):")
    assert "nn.Linear(c_in, c_out)" in code
    assert _count(code, "Res") is None


def test_a_filled_sequential_replaced_stays_unknown():
    code = UNET.replace("self.shortcut = nn.Sequential()\n",
                        "self.shortcut = nn.Sequential()\n        self.shortcut.append(nn.Linear(2, 2))\n")
    code = code.replace("def __init__(self, c_in, c_out):", "def __init__(self, c_in=8, c_out=16):")
    assert _count(code, "Res") is None


# -- ``from models import *`` -----------------------------------------------------------------------

MAIN = '''
import torch
from models import *

net = SimpleNet()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for x, y in loader:
    optimizer.zero_grad()
    net(x).sum().backward()
    optimizer.step()
'''

NETS = '''
import torch.nn as nn


class SimpleNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, num_classes)
'''


def _star_plan(tmp_path, init, nets=NETS):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    (tmp_path / "models" / "simple.py").write_text(textwrap.dedent(nets), encoding="utf-8")
    (tmp_path / "main.py").write_text(textwrap.dedent(MAIN), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "main.py"], [], root=tmp_path)
    return plan


def test_a_model_class_bound_by_a_star_import_of_a_package(tmp_path):
    plan = _star_plan(tmp_path, "from .lenet import *\nfrom .simple import *\n")
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == 32 * 64 + 64 + 64 * 10 + 10
    assert fact.confidence == "medium" and fact.source.path == "main.py" and fact.source.line == 5
    assert plan.value("model.class_name") == "SimpleNet"


def test_a_star_import_whose_all_leaves_the_class_out_claims_nothing(tmp_path):
    plan = _star_plan(tmp_path, "from .simple import *\n", NETS + "\n__all__ = ['Other']\n")
    assert plan.resolve("model.num_parameters") is None


def test_a_star_import_rebound_to_a_library_model_claims_nothing(tmp_path):
    # the package's own later line rebinds the name to something not of the project
    plan = _star_plan(tmp_path, "from .simple import *\nfrom torchvision.models import resnet18 as SimpleNet\n")
    assert plan.resolve("model.num_parameters") is None


# -- an optimizer built inside the model (CRIPAC-DIG/SR-GNN @ e21cfa4 ``pytorch_code/model.py:52-53``) ------------

SESSION = '''
import torch
from torch import nn


class Session(nn.Module):
    def __init__(self, n_node=50, hidden=16, lr=0.01):
        super().__init__()
        self.embedding = nn.Embedding(n_node, hidden)
        self.linear = nn.Linear(hidden, hidden)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=3, gamma=0.1)
'''


def test_an_optimizer_and_scheduler_built_in_the_model_hold_no_parameters():
    assert _count(SESSION, "Session") == 50 * 16 + 16 * 16 + 16
    aliased = SESSION.replace("import torch\n", "import torch\nimport torch.optim as optim\n").replace(
        "torch.optim.Adam(", "optim.Adam(")
    assert "optim.Adam(self.parameters()" in aliased
    assert _count(aliased, "Session") == 50 * 16 + 16 * 16 + 16


def test_an_unknown_object_or_a_layer_built_in_the_optimizer_call_stays_unknown():
    # ``optim`` not bound to torch.optim: a project object that could hold anything
    other = SESSION.replace("torch.optim.Adam(", "optim.Adam(")
    assert _count(other, "Session") is None
    # a layer built inside the call's arguments
    built = SESSION.replace("torch.optim.Adam(self.parameters(), lr=lr)",
                            "torch.optim.Adam(nn.Linear(2, 2).parameters(), lr=lr)")
    assert _count(built, "Session") is None
