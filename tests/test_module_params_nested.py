"""The parameter count of project models made of several local classes (module_params_nested.count_module,
used by the pytorch adapter when a script builds its own ``nn.Module``): blocks repeated by
``nn.Sequential(*[Block(cfg) for _ in range(cfg["n_layers"])])`` / ``nn.ModuleList``, sizes read
from a config dict handed in (``cfg["emb_dim"]``), ``nn.Parameter(torch.ones(d))``, a tied weight.

The shape is rasbt/LLMs-from-scratch's (``ch05/10_llm-training-speed/02_opt_multi_gpu_ddp.py`` at
28c65cdf: ``GPTModel(cfg)`` with ``TransformerBlock``, ``FeedForward``, ``PyTorchMultiHeadAttention``,
``GPT_CONFIG_124M`` passed into ``main(gpt_config, ...)``), found the same in many copies of the book's
code and in nanoGPT-style ``nn.ModuleDict(dict(wte=..., h=nn.ModuleList([Block(config) for _ in
range(config.n_layer)])))`` models (docs/corpus.md). Fixtures are our own, written to that shape.
Every twin that the counter cannot follow must stay empty: nothing is guessed."""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

MODEL = '''
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Attention(nn.Module):
    def __init__(self, d_in, d_out, num_heads, dropout=0.0, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0
        self.head_dim = d_out // num_heads
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.proj = nn.Linear(d_out, d_out)
        self.dropout = dropout


class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]),
            nn.GELU(approximate="tanh"),
            nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]),
        )


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.att = Attention(d_in=cfg["emb_dim"], d_out=cfg["emb_dim"], num_heads=cfg["n_heads"],
                             dropout=cfg["drop_rate"], qkv_bias=cfg["qkv_bias"])
        self.ff = FeedForward(cfg)
        self.norm1 = LayerNorm(cfg["emb_dim"])
        self.norm2 = LayerNorm(cfg["emb_dim"])
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.Sequential(
            *[Block(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)
'''

MAIN = '''

def main(gpt_config, settings, rank):
    model = GPTModel(gpt_config)
    model = DDP(model.to(rank), device_ids=[rank])
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings["learning_rate"])
    for x, y in []:
        loss = model(x).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    GPT_CONFIG = {
        "vocab_size": 1000,
        "context_length": 64,
        "emb_dim": 32,
        "n_heads": 4,
        "n_layers": 3,
        "drop_rate": 0.1,
        "qkv_bias": False,
    }
    SETTINGS = {"learning_rate": 5e-4}
    main(GPT_CONFIG, SETTINGS, 0)
'''

V, C, D, L = 1000, 64, 32, 3
BLOCK = (D * 3 * D) + (D * D + D) + (D * 4 * D + 4 * D) + (4 * D * D + D) + 2 * (2 * D)
EXPECTED = V * D + C * D + L * BLOCK + 2 * D + D * V


def _plan(tmp_path, code):
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    return plan


def test_nested_classes_repeated_blocks_and_a_config_dict_passed_into_main(tmp_path):
    plan = _plan(tmp_path, MODEL + MAIN)
    fact = plan.resolve("model.num_parameters")
    assert fact is not None and fact.value == EXPECTED == 103_936
    assert fact.confidence == "medium"
    assert fact.source.path == "train.py" and fact.source.line == MODEL.count("\n") + 4  # GPTModel(gpt_config)
    assert "nested local classes" in (fact.source.detail or "")
    assert plan.value("model.ref") == "GPTModel"


def test_the_dict_written_at_module_level_and_used_directly(tmp_path):
    code = MODEL + '''
CFG = {"vocab_size": 1000, "context_length": 64, "emb_dim": 32, "n_heads": 4, "n_layers": 3,
       "drop_rate": 0.0, "qkv_bias": False}
model = GPTModel(CFG)
optimizer = torch.optim.AdamW(model.parameters())
'''
    assert _plan(tmp_path, code).value("model.num_parameters") == EXPECTED


def test_module_list_module_dict_and_a_tied_weight(tmp_path):
    code = '''
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n_embd, bias=True):
        super().__init__()
        self.ln = nn.LayerNorm(n_embd)
        self.attn = nn.MultiheadAttention(n_embd, 4, bias=bias)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))


class GPT(nn.Module):
    def __init__(self, vocab_size=500, block_size=16, n_embd=24, n_layer=2, tie=True):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd),
            wpe=nn.Embedding(block_size, n_embd),
            h=nn.ModuleList([Block(n_embd) for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        if tie:
            self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02)

model = GPT()
optimizer = torch.optim.AdamW(model.parameters())
'''
    e = 24
    block = 2 * e + (4 * e * e + 4 * e) + (e * 4 * e + 4 * e) + (4 * e * e + e)
    expected = 500 * e + 16 * e + 2 * block + 2 * e + e * 500 - 500 * e  # the head shares the embedding
    assert _plan(tmp_path, code).value("model.num_parameters") == expected
    untied = code.replace("model = GPT()", "model = GPT(tie=False)")
    assert _plan(tmp_path, untied).value("model.num_parameters") == expected + 500 * e


def test_blocks_appended_in_a_range_loop(tmp_path):
    code = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width=16, depth=3):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(depth):
            self.layers.append(nn.Linear(width, width))
        self.pos = nn.Parameter(torch.zeros(1, 8, width) * 0.02)

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
'''
    assert _plan(tmp_path, code).value("model.num_parameters") == 3 * (16 * 16 + 16) + 8 * 16


# -- twins that stay empty: what is not followed is not counted ----------------------------------


def test_a_dict_updated_before_the_call_is_not_read(tmp_path):
    code = MODEL + MAIN.replace('    SETTINGS = {', '    GPT_CONFIG.update({"n_layers": 24})\n    SETTINGS = {')
    plan = _plan(tmp_path, code)
    assert plan.value("model.num_parameters") is None
    assert plan.value("model.ref") == "GPTModel"


def test_two_calls_that_pass_different_dicts_are_not_read(tmp_path):
    code = MODEL + MAIN + '''
    OTHER = {"vocab_size": 1000, "context_length": 64, "emb_dim": 64, "n_heads": 4, "n_layers": 3,
             "drop_rate": 0.1, "qkv_bias": False}
    main(OTHER, SETTINGS, 0)
'''
    assert _plan(tmp_path, code).value("model.num_parameters") is None


def test_a_layer_under_an_undecided_test_is_not_counted(tmp_path):
    guarded = MODEL.replace(
        '    def __init__(self, cfg):\n        super().__init__()\n        self.tok_emb',
        '    def __init__(self, cfg, final_norm=True):\n        super().__init__()\n        self.tok_emb',
    ).replace(
        '        self.final_norm = LayerNorm(cfg["emb_dim"])',
        '        if final_norm:\n            self.final_norm = LayerNorm(cfg["emb_dim"])',
    )
    main = MAIN.replace("model = GPTModel(gpt_config)", 'model = GPTModel(gpt_config, os.environ.get("NORM"))')
    assert _plan(tmp_path, "import os\n" + guarded + main).value("model.num_parameters") is None
    # the same test decided by the value passed (tricky-correct twin): counted, without the norm
    decided = MAIN.replace("model = GPTModel(gpt_config)", "model = GPTModel(gpt_config, final_norm=False)")
    assert _plan(tmp_path, guarded + decided).value("model.num_parameters") == EXPECTED - 2 * D


def test_a_module_handed_in_or_built_by_a_method_is_not_counted(tmp_path):
    handed = '''
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, backbone, dim=16):
        super().__init__()
        self.backbone = backbone
        self.fc = nn.Linear(dim, 10)

model = Head(torch.hub.load("x", "y"))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
'''
    assert _plan(tmp_path, handed).value("model.num_parameters") is None
    method = '''
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.fc = nn.Linear(dim, 10)
        self._build_encoder(dim)

model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
'''
    assert _plan(tmp_path, method).value("model.num_parameters") is None
    # recurrent layers are counted (jobs29: torch/nn/modules/rnn.py, 4 gates for an LSTM); a projection is not
    lstm = method.replace("        self._build_encoder(dim)\n", "        self.rnn = nn.LSTM(dim, dim)\n")
    assert _plan(tmp_path, lstm).value("model.num_parameters") == (4 * 16 * 16) * 2 + 8 * 16 + 16 * 10 + 10
    projected = lstm.replace("nn.LSTM(dim, dim)", "nn.LSTM(dim, dim, proj_size=4)")
    assert _plan(tmp_path, projected).value("model.num_parameters") is None


# -- the attention kernel of a local model --------------------------------------------------------

SDPA = MODEL.replace('''        self.dropout = dropout
''', '''        self.dropout = dropout

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out)
''')


def test_sdpa_called_by_a_class_of_the_local_model(tmp_path):
    plan = _plan(tmp_path, SDPA + MAIN)
    fact = plan.resolve("model.attn_implementation")
    assert fact is not None and fact.value == "sdpa" and fact.confidence == "medium"
    assert fact.source.line == SDPA.splitlines().index(
        "        out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)") + 1


def test_sdpa_not_claimed_under_a_guard_or_beside_a_manual_attention(tmp_path):
    guarded = SDPA.replace("        out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)\n",
                           "        if self.dropout == 0:\n"
                           "            out = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
                           "        else:\n            out = (q @ k.transpose(-2, -1)).softmax(-1) @ v\n")
    assert _plan(tmp_path, guarded + MAIN).value("model.attn_implementation") is None
    manual = SDPA.replace('''class FeedForward(nn.Module):''', '''class Mixer(nn.Module):
    def forward(self, q, k, v):
        return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v


class FeedForward(nn.Module):''').replace("        self.ff = FeedForward(cfg)\n",
                                          "        self.ff = FeedForward(cfg)\n        self.mix = Mixer()\n")
    assert _plan(tmp_path, manual + MAIN).value("model.attn_implementation") is None
    # a class of the file the model never names does not count
    unused = MODEL + '''

class Other(nn.Module):
    def forward(self, q, k, v):
        return nn.functional.scaled_dot_product_attention(q, k, v)
''' + MAIN
    assert _plan(tmp_path, unused).value("model.attn_implementation") is None


# -- a ``@dataclass`` config in the same file (karpathy/nanoGPT model.py at its HEAD and the many
# single-file GPT-2 scripts built on it: ``model = GPT(GPTConfig(vocab_size=50304))``) -------------

NANO = '''
import math
from dataclasses import dataclass
import torch
import torch.nn as nn
from torch.nn import functional as F


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.n_head = config.n_head
        self.flash = hasattr(torch.nn.functional, 'scaled_dot_product_attention')
        if not self.flash:
            print("WARNING: slow attention")
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size)))


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)


@dataclass
class GPTConfig:
    block_size: int = 64
    vocab_size: int = 500
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 32
    dropout: float = 0.0
    bias: bool = True


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.vocab_size is not None
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            drop=nn.Dropout(config.dropout),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f=LayerNorm(config.n_embd, bias=config.bias),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith('c_proj.weight'):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.n_layer))
        print("number of parameters: %.2fM" % (self.get_num_params() / 1e6,))
'''

NANO_MAIN = '''
config = GPTConfig(vocab_size=1000)
model = GPT(config)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
'''


def _nano_expected(vocab=1000, block=64, layers=2, d=32):
    block_params = 2 * (2 * d) + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return vocab * d + block * d + layers * block_params + 2 * d  # the head shares the embedding


def test_a_dataclass_config_of_the_same_file(tmp_path):
    fact = _plan(tmp_path, NANO + NANO_MAIN).resolve("model.num_parameters")
    assert fact is not None and fact.value == _nano_expected()
    inline = NANO + "\nmodel = GPT(GPTConfig(n_layer=3))\noptimizer = torch.optim.AdamW(model.parameters())\n"
    assert _plan(tmp_path, inline).value("model.num_parameters") == _nano_expected(vocab=500, layers=3)


def test_a_dataclass_config_changed_after_it_is_built_is_not_read(tmp_path):
    changed = NANO_MAIN.replace("model = GPT(config)", "config.n_layer = 24\nmodel = GPT(config)")
    assert _plan(tmp_path, NANO + changed).value("model.num_parameters") is None
    post = NANO.replace("    bias: bool = True\n", "    bias: bool = True\n\n    def __post_init__(self):\n"
                                                     "        self.n_layer = self.n_layer * 2\n")
    assert _plan(tmp_path, post + NANO_MAIN).value("model.num_parameters") is None
    # a submodule built by an unknown call is not taken for a plain value
    built = NANO.replace("        self.flash = hasattr(torch.nn.functional, 'scaled_dot_product_attention')\n",
                         "        self.rotary = make_rotary(config)\n        self.flash = True\n")
    assert _plan(tmp_path, built + NANO_MAIN).value("model.num_parameters") is None
