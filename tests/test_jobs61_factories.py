"""jobs61: the model built by a project factory that picks the class by a name among the options, and the
counter idioms such factories lead to.

Shapes from real jobs (fixtures of our own that reproduce them):

- weiaicunzai/pytorch-cifar100 @ 11d8418 ``utils.py:18-25,155-165`` ``get_network(args)``: ``if args.net ==
  'vgg16': from models.vgg import vgg16_bn; net = vgg16_bn()`` ... ``else: print(...); sys.exit()``, then
  ``if args.gpu: net = net.cuda()``, ``return net``; ``train.py:130`` ``net = get_network(args)``;
  ``models/vgg.py:12-17,44-61`` a module-level ``cfg`` table read by ``make_layers``, which collects its layers
  with ``layers += [nn.Conv2d(...)]`` into ``nn.Sequential(*layers)``.
- epfml/llm-baselines @ c8a5105 ``src/models/utils.py:1-22`` ``get_model(args)``: ``if args.model == "base":
  model = GPTBase(args); if args.use_pretrained != "none": model.from_pretrained(...); return model``, with four
  model modules imported at the top that each define a ``Block`` of their own; ``src/main.py:89`` ``model =
  get_model(args).to(args.device)``.
- Other public factories of the same shape (read while building, not fixtures): ``get_network(args)`` forks
  returning ``models.Net().cuda()`` per arm, nested ``if args.v == 'cifar100': if args.net == ...`` arms.
"""

from __future__ import annotations

import ast
import textwrap

from preflight.adapters.module_params_calls import count_call
from preflight.adapters.module_params_imports import with_imports
from preflight.adapters.module_params_nested import count_module

from preflight.audit import build_plan

VGG = '''
import torch.nn as nn

cfg = {
    'A': [16, 'M', 32, 'M'],
    'B': [16, 16, 'M', 32, 32, 'M'],
}


class VGG(nn.Module):
    def __init__(self, features, num_class=10):
        super().__init__()
        self.features = features
        self.classifier = nn.Sequential(nn.Linear(32, 64), nn.ReLU(inplace=True), nn.Linear(64, num_class))


def make_layers(cfg, batch_norm=False):
    layers = []
    input_channel = 3
    for l in cfg:
        if l == 'M':
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
            continue
        layers += [nn.Conv2d(input_channel, l, kernel_size=3, padding=1)]
        if batch_norm:
            layers += [nn.BatchNorm2d(l)]
        layers += [nn.ReLU(inplace=True)]
        input_channel = l
    return nn.Sequential(*layers)


def vgg_a():
    return VGG(make_layers(cfg['A'], batch_norm=True))


def vgg_b():
    return VGG(make_layers(cfg['B'], batch_norm=True))
'''


def _conv_bn(c_in, c_out):
    return c_in * c_out * 9 + c_out + 2 * c_out


CLASSIFIER = 32 * 64 + 64 + 64 * 10 + 10
VGG_A = _conv_bn(3, 16) + _conv_bn(16, 32) + CLASSIFIER
VGG_B = _conv_bn(3, 16) + _conv_bn(16, 16) + _conv_bn(16, 32) + _conv_bn(32, 32) + CLASSIFIER

UTILS = '''
import sys


def get_network(args):
    """ return given network """
    if args.net == 'vgg_a':
        from models.vgg import vgg_a
        net = vgg_a()
    elif args.net == 'vgg_b':
        from models.vgg import vgg_b
        net = vgg_b()
    elif args.net == 'other':
        from models.other import other
        net = other()
    else:
        print('the network name you have entered is not supported yet')
        sys.exit()

    if args.gpu:
        net = net.cuda()

    return net
'''

OTHER = '''
import torch.nn as nn

cfg = {'A': [99]}


def other():
    return nn.Linear(cfg['A'][0], 2)
'''

TRAIN = '''
import argparse

import torch.optim as optim

from utils import get_network

parser = argparse.ArgumentParser()
parser.add_argument('-net', type=str, required=True, help='net type')
parser.add_argument('-gpu', action='store_true', default=False, help='use gpu or not')
args = parser.parse_args()

net = get_network(args)
optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for x, y in loader:
    optimizer.zero_grad()
    net(x).sum().backward()
    optimizer.step()
'''


def _cifar(tmp_path, argv, utils=UTILS, train=TRAIN):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "models" / "vgg.py").write_text(textwrap.dedent(VGG), encoding="utf-8")
    (tmp_path / "models" / "other.py").write_text(textwrap.dedent(OTHER), encoding="utf-8")
    (tmp_path / "utils.py").write_text(textwrap.dedent(utils), encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent(train), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=argv)
    return plan


# -- the counter: ``layers += [...]`` and a module's literal table ---------------------------------------------

def test_layers_collected_with_augmented_add_are_counted_where_they_reach_self():
    tree = ast.parse(textwrap.dedent(VGG))
    got = count_call(tree, "vgg_a", [], {})
    assert got is not None and got[0] == VGG_A == 7_946
    got = count_call(tree, "vgg_b", [], {})
    assert got is not None and got[0] == VGG_B


def test_a_list_extended_with_something_unknown_stays_unknown():
    code = textwrap.dedent('''
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self, extra):
                super().__init__()
                layers = [nn.Linear(4, 4)]
                layers += extra
                self.body = nn.Sequential(*layers)
    ''')
    assert count_module(ast.parse(code), "Net", [], {}) is None
    plain = code.replace("layers += extra", "layers += [nn.Linear(4, 2)]")
    got = count_module(ast.parse(plain), "Net", [], {})
    assert got is not None and got[0] == 4 * 4 + 4 + 4 * 2 + 2


def test_a_literal_table_of_an_imported_module_is_read_and_two_different_ones_are_not(tmp_path):
    (tmp_path / "vgg.py").write_text(textwrap.dedent(VGG), encoding="utf-8")
    (tmp_path / "other.py").write_text(textwrap.dedent(OTHER), encoding="utf-8")
    one = tmp_path / "one.py"
    one.write_text("from vgg import vgg_a\n", encoding="utf-8")
    got = count_call(with_imports(one, ast.parse(one.read_text())), "vgg_a", [], {})
    assert got is not None and got[0] == VGG_A
    both = tmp_path / "both.py"
    both.write_text("from vgg import vgg_a\nfrom other import other\n", encoding="utf-8")
    # ``cfg`` bound to two different tables by the modules read together: neither is taken
    assert count_call(with_imports(both, ast.parse(both.read_text())), "vgg_a", [], {}) is None


# -- the factory: must find ----------------------------------------------------------------------------------

def test_a_factory_arm_chosen_by_the_launch_line_is_counted_with_its_local_import(tmp_path):
    plan = _cifar(tmp_path, ["-net", "vgg_b", "-gpu"])
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == VGG_B
    assert fact.confidence == "medium" and fact.source.path == "train.py" and fact.source.line == 13
    assert "get_network(...) of the project (utils.py) builds vgg_b(...)" in (fact.source.detail or "")
    assert plan.value("model.class_name") is None  # a constructor function names no class


def test_a_factory_arm_without_the_device_move(tmp_path):
    plan = _cifar(tmp_path, ["-net", "vgg_a"])
    assert plan.value("model.num_parameters") == VGG_A


def test_a_factory_arm_building_a_module_attribute_with_a_chained_move(tmp_path):
    utils = UTILS.replace("from models.vgg import vgg_a\n        net = vgg_a()",
                          "from models import vgg\n        net = vgg.vgg_a().cuda()")
    plan = _cifar(tmp_path, ["-net", "vgg_a"], utils=utils)
    assert plan.value("model.num_parameters") == VGG_A


MODELS_BASE = '''
import torch.nn as nn
import tiktoken


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.parallel = config.parallel_block


class GPTBase(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.tokenizer = tiktoken.get_encoding("gpt2")
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.h = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
'''

MODELS_LLAMA = '''
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.w1 = nn.Linear(config.n_embd, 3 * config.n_embd, bias=False)


class Llama(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.h = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
'''

MODELS_UTILS = '''
from .base import GPTBase
from .llama import Llama


def get_model(args):
    """Return the right model"""
    if args.model == "base":
        model = GPTBase(args)
        if args.use_pretrained != "none":
            model.from_pretrained(args.use_pretrained)
        return model
    elif args.model == "llama":
        model = Llama(args)
        return model
    else:
        raise KeyError(f"Unknown model '{args.model}'.")
'''

MAIN = '''
import argparse

import torch

from models.utils import get_model


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="base", choices=["base", "llama"])
    parser.add_argument("--n_embd", default=32, type=int)
    parser.add_argument("--n_layer", default=2, type=int)
    parser.add_argument("--vocab_size", default=100, type=int)
    parser.add_argument("--bias", default=False, type=bool)
    parser.add_argument("--parallel_block", action="store_true")
    parser.add_argument("--use_pretrained", default="none", type=str)
    return parser.parse_args()


def main(args):
    model = get_model(args).to("cuda")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()


if __name__ == "__main__":
    main(get_args())
'''


def _gpt(tmp_path, argv, main=MAIN, utils=MODELS_UTILS):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "models" / "base.py").write_text(textwrap.dedent(MODELS_BASE), encoding="utf-8")
    (tmp_path / "models" / "llama.py").write_text(textwrap.dedent(MODELS_LLAMA), encoding="utf-8")
    (tmp_path / "models" / "utils.py").write_text(textwrap.dedent(utils), encoding="utf-8")
    (tmp_path / "main.py").write_text(textwrap.dedent(main), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "main.py"], [], root=tmp_path, argv=argv)
    return plan


def _gpt_count(e, layers, vocab=100):
    return vocab * e + layers * (e * 4 * e + 4 * e * e)


def test_a_factory_of_classes_imported_at_the_top_that_define_the_same_helper_name(tmp_path):
    plan = _gpt(tmp_path, ["--model", "base", "--n_embd", "64"])
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == _gpt_count(64, 2)
    assert fact.source.path == "main.py" and fact.source.line == 22
    assert plan.value("model.class_name") == "GPTBase"
    (tmp_path / "other").mkdir()
    llama = _gpt(tmp_path / "other", ["--model", "llama"])
    assert llama.value("model.num_parameters") == 2 * 32 * 3 * 32
    assert llama.value("model.class_name") == "Llama"


# -- twins that must stay unknown ------------------------------------------------------------------------------

def test_a_name_the_launch_line_does_not_fix_counts_nothing(tmp_path):
    # ``-net`` is required and not given: no arm is known to run
    plan = _cifar(tmp_path, [])
    assert plan.resolve("model.num_parameters") is None


def test_a_name_no_arm_takes_runs_into_the_exit_and_counts_nothing(tmp_path):
    plan = _cifar(tmp_path, ["-net", "resnet18"])
    assert plan.resolve("model.num_parameters") is None


def test_a_test_the_options_do_not_decide_counts_nothing(tmp_path):
    utils = MODELS_UTILS.replace('if args.model == "base":', 'if args.model == "base" and torch.cuda.is_available():')
    plan = _gpt(tmp_path, ["--model", "base"], utils="import torch\n" + utils)
    assert plan.resolve("model.num_parameters") is None


def test_a_registry_filled_at_run_time_counts_nothing(tmp_path):
    utils = '''
from .base import GPTBase
from .llama import Llama

MODELS = {}


def register(name):
    def wrap(cls):
        MODELS[name] = cls
        return cls
    return wrap


register("base")(GPTBase)
register("llama")(Llama)


def get_model(args):
    return MODELS[args.model](args)
'''
    plan = _gpt(tmp_path, ["--model", "base"], utils=utils)
    assert plan.resolve("model.num_parameters") is None


def test_a_factory_whose_result_is_not_what_the_script_trains_counts_nothing(tmp_path):
    main = MAIN.replace("opt = torch.optim.AdamW(model.parameters(), lr=1e-3)",
                        "opt = build_optimizer(model)")
    plan = _gpt(tmp_path, ["--model", "base"], main=main)
    assert plan.resolve("model.num_parameters") is None


def test_a_factory_re_exported_by_its_package_init(tmp_path):
    # ``from models import get_model`` with ``models/__init__.py`` re-exporting it from ``models/utils.py``
    main = MAIN.replace("from models.utils import get_model", "from models import get_model")
    plan = _gpt(tmp_path, ["--model", "base"], main=main)
    assert plan.resolve("model.num_parameters") is None  # an empty ``__init__.py``: nothing re-exported
    (tmp_path / "models" / "__init__.py").write_text("from .utils import get_model\n", encoding="utf-8")
    plan, _ = build_plan([tmp_path / "main.py"], [], root=tmp_path, argv=["--model", "base"])
    assert plan.value("model.num_parameters") == _gpt_count(32, 2)
    assert plan.value("model.class_name") == "GPTBase"
