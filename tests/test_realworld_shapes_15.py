"""Shapes of the real-jobs benchmark's remaining general causes (issue 15, fifteenth round, branch
jobs18), reproduced in minimal fixtures of our own, each citing the repository, path and commit it
copies the shape of. Must-read examples beside must-stay-unknown twins."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from plan_helpers import plan_of, winner, write


def facts(plan: dict, field: str) -> list:
    return plan["fields"].get(field, [])


# --- argparse abbreviations ---------------------------------------------------------------------
# princeton-nlp/ProLong train_sft.sh:102 @ 907dcf4b833a3510e39ce8355e45db4175648a49 passes
# ``--model_name $model`` to training/train_language_model.py, whose HfArgumentParser dataclass
# (:33-35) declares ``model_name_or_path``: argparse takes the unambiguous prefix for it.
PROLONG = """\
    from dataclasses import dataclass, field
    from typing import Optional

    from transformers import {parser}, LlamaForCausalLM, Trainer, TrainingArguments


    @dataclass
    class ScriptArguments:
        model_name_or_path: Optional[str] = field(default=None)
        {extra}
        tokenizer_name: Optional[str] = field(default=None)


    def main():
        parser = HfArgumentParser((ScriptArguments, TrainingArguments){abbrev})
        script_args, training_args = parser.parse_args_into_dataclasses()
        model = LlamaForCausalLM.from_pretrained(script_args.model_name_or_path)
        Trainer(model=model, args=training_args).train()


    if __name__ == "__main__":
        main()
    """
LINE = ["--", "--model_name", "org/llama-tiny", "--tokenizer_name", "org/llama-tiny", "--output_dir", "out"]


def test_an_unambiguous_prefix_of_a_declared_option_is_that_option(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PROLONG.format(parser="HfArgumentParser", extra="", abbrev="")})
    plan = plan_of(cli, "train.py", *LINE, cwd=tmp_path)
    assert winner(plan, "model.ref") == "org/llama-tiny"
    assert any("--model_name org/llama-tiny" in f["source"]["detail"] for f in facts(plan, "model.ref"))


def test_an_ambiguous_prefix_stays_unknown(cli, tmp_path: Path) -> None:
    # argparse refuses ``--model_name`` when two options start with it
    write(tmp_path, {"train.py": PROLONG.format(parser="HfArgumentParser",
                                                extra="model_name_revision: Optional[str] = field(default=None)",
                                                abbrev="")})
    plan = plan_of(cli, "train.py", *LINE, cwd=tmp_path)
    assert winner(plan, "model.ref") is None


def test_a_parser_built_without_abbreviations_stays_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": PROLONG.format(parser="HfArgumentParser", extra="", abbrev=", allow_abbrev=False")})
    plan = plan_of(cli, "train.py", *LINE, cwd=tmp_path)
    assert winner(plan, "model.ref") is None


CLICK = """\
    import click
    from transformers import AutoModelForCausalLM


    @click.command()
    @click.option("--model_name_or_path", default=None)
    def main(model_name_or_path):
        model = AutoModelForCausalLM.from_pretrained(model_name_or_path)
        optim = torch.optim.AdamW(model.parameters())
        for batch in range(10):
            loss = model(batch).loss
            loss.backward()
            optim.step()


    if __name__ == "__main__":
        main()
    """


def test_click_does_not_abbreviate(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": "import torch\n" + textwrap.dedent(CLICK)})
    plan = plan_of(cli, "train.py", "--", "--model_name", "org/llama-tiny", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


# --- a model built from a local config.json -----------------------------------------------------
# jiaweizzhao/GaLore torchrun_main.py:198-202 @ 2cc66f88cce189e505affbb91042a8e77f5bf4e9:
# ``model_config = AutoConfig.from_pretrained(args.model_config)`` then
# ``AutoModelForCausalLM.from_config(model_config)`` or the project's ``LlamaForCausalLM(model_config)``,
# launched with ``--model_config configs/llama_350m.json`` (scripts/benchmark_c4/llama_350m.sh:3).
GALORE = """\
    import argparse

    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    from modeling_llama import LlamaForCausalLM


    def main(args):
        model_config = AutoConfig.from_pretrained(args.model_config)
        {change}
        if args.use_hf_model:
            model = AutoModelForCausalLM.from_config(model_config)
        else:
            model = {build}
        optim = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for batch in range(10):
            loss = model(batch).loss
            loss.backward()
            optim.step()
            optim.zero_grad()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_config", type=str, required=True)
        parser.add_argument("--use_hf_model", action="store_true")
        main(parser.parse_args())
    """
LLAMA_TINY = {"architectures": ["LLaMAForCausalLM"], "hidden_size": 256, "intermediate_size": 688,
              "model_type": "llama", "num_attention_heads": 4, "num_hidden_layers": 4, "vocab_size": 1000,
              "max_sequence_length": 512, "rms_norm_eps": 1e-06}
# by hand: embedding and untied head 2*1000*256; per layer 4*256^2 (q,k,v,o) + 3*256*688 (gate,
# up, down) + 2*256 (norms); the final norm 256
LLAMA_TINY_COUNT = 2 * 1000 * 256 + 4 * (4 * 256 ** 2 + 3 * 256 * 688 + 2 * 256) + 256


def galore(tmp_path: Path, change: str = "", build: str = "LlamaForCausalLM(model_config)",
           config: dict | None = LLAMA_TINY) -> None:
    files = {"torchrun_main.py": GALORE.format(change=change, build=build),
             "modeling_llama.py": "import torch\nclass LlamaForCausalLM(torch.nn.Module):\n    pass\n"}
    write(tmp_path, files)
    if config is not None:
        (tmp_path / "configs").mkdir()
        (tmp_path / "configs/llama_tiny.json").write_text(json.dumps(config))


def test_a_model_built_from_a_local_config_json_is_counted(cli, tmp_path: Path) -> None:
    galore(tmp_path)
    plan = plan_of(cli, "torchrun_main.py", "--", "--model_config", "configs/llama_tiny.json", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == LLAMA_TINY_COUNT
    got = facts(plan, "model.num_parameters")
    assert [f["confidence"] for f in got if f["adapter"] == "model_config_file"] == ["medium"]
    assert got[0]["source"]["path"] == "torchrun_main.py" and got[0]["source"]["line"] == 10


def test_a_config_changed_after_loading_gives_the_count_at_low(cli, tmp_path: Path) -> None:
    galore(tmp_path, change="model_config.vocab_size += 1")
    plan = plan_of(cli, "torchrun_main.py", "--", "--model_config", "configs/llama_tiny.json", cwd=tmp_path)
    assert [f["confidence"] for f in facts(plan, "model.num_parameters")] == ["low"]


def test_a_config_file_not_there_or_unknown_stays_unknown(cli, tmp_path: Path) -> None:
    galore(tmp_path, config=None)
    plan = plan_of(cli, "torchrun_main.py", "--", "--model_config", "configs/llama_tiny.json", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_a_config_of_an_unknown_model_type_stays_unknown(cli, tmp_path: Path) -> None:
    galore(tmp_path, config={**LLAMA_TINY, "model_type": "my_own_lm"})
    plan = plan_of(cli, "torchrun_main.py", "--", "--model_config", "configs/llama_tiny.json", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_a_config_given_to_a_checkpoint_load_is_not_read_as_a_new_model(cli, tmp_path: Path) -> None:
    # the weights of a checkpoint decide: ``from_pretrained(path, config=cfg)`` builds nothing from it
    text = GALORE.format(change="", build="LlamaForCausalLM(model_config)").replace(
        "AutoModelForCausalLM.from_config(model_config)", "AutoModelForCausalLM.from_pretrained('ckpt', config=model_config)"
    ).replace("model = LlamaForCausalLM(model_config)", "model = AutoModelForCausalLM.from_pretrained('ckpt2', config=model_config)")
    galore(tmp_path)
    (tmp_path / "torchrun_main.py").write_text(textwrap.dedent(text))
    plan = plan_of(cli, "torchrun_main.py", "--", "--model_config", "configs/llama_tiny.json", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_config_file"]


# --- a name mapped by a project function ----------------------------------------------------------
# AI4Finance-Foundation/FinGPT fingpt/FinGPT_Forecaster/utils.py:47-54 @ ec315843886de0906692782090127d37f5400d60:
# ``parse_model_name(name, from_remote=False)`` maps ``--base_model llama2`` to the Hub id it loads
# (train_lora.py:84 ``model_name = parse_model_name(args.base_model, args.from_remote)``, train.sh:10).
FINGPT_UTILS = """\
    def parse_model_name(name, from_remote=False):

        if name == 'chatglm2':
            return 'THUDM/chatglm2-6b' if from_remote else 'base_models/chatglm2-6b'
        elif name == 'llama2':
            return 'meta-llama/Llama-2-7b-chat-hf' # if from_remote else 'base_models/Llama-2-7b-chat-hf'
        else:
            raise ValueError(f"Undefined base model {name}")
    """
FINGPT_TRAIN = """\
    import argparse
    import os

    import torch
    from transformers import AutoModelForCausalLM
    from utils import *


    def main(args):
        model_name = parse_model_name(args.base_model, {remote})
        model = AutoModelForCausalLM.from_pretrained(model_name)
        optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for batch in range(10):
            loss = model(batch).loss
            loss.backward()
            optim.step()
            optim.zero_grad()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--base_model", required=True, type=str, choices=['chatglm2', 'llama2'])
        parser.add_argument("--from_remote", default=False, type=bool)
        main(parser.parse_args())
    """


def test_a_name_mapped_by_a_project_function_is_the_model_it_returns(cli, tmp_path: Path) -> None:
    write(tmp_path, {"utils.py": FINGPT_UTILS, "train_lora.py": FINGPT_TRAIN.format(remote="args.from_remote")})
    plan = plan_of(cli, "train_lora.py", "--", "--base_model", "llama2", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.ref")] == ["meta-llama/Llama-2-7b-chat-hf"]
    assert "parse_model_name() at utils.py:1" in facts(plan, "model.ref")[0]["source"]["detail"]


def test_the_other_branch_and_its_conditional_return(cli, tmp_path: Path) -> None:
    write(tmp_path, {"utils.py": FINGPT_UTILS, "train_lora.py": FINGPT_TRAIN.format(remote="args.from_remote")})
    plan = plan_of(cli, "train_lora.py", "--", "--base_model", "chatglm2", cwd=tmp_path)
    # ``--from_remote`` not given: its default False picks the local folder the code loads
    assert [f["value"] for f in facts(plan, "model.ref")] == ["base_models/chatglm2-6b"]


def test_an_undecided_branch_stays_unknown_and_the_bare_name_is_not_claimed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"utils.py": FINGPT_UTILS,
                     "train_lora.py": FINGPT_TRAIN.format(remote="os.environ.get('REMOTE')")})
    plan = plan_of(cli, "train_lora.py", "--", "--base_model", "chatglm2", cwd=tmp_path)
    assert facts(plan, "model.ref") == []


def test_a_function_that_computes_stays_unknown(cli, tmp_path: Path) -> None:
    utils = FINGPT_UTILS.replace("        elif name == 'llama2':\n",
                                 "        elif name == 'llama2':\n            name = name.upper()\n")
    write(tmp_path, {"utils.py": utils, "train_lora.py": FINGPT_TRAIN.format(remote="args.from_remote")})
    plan = plan_of(cli, "train_lora.py", "--", "--base_model", "llama2", cwd=tmp_path)
    assert "meta-llama/Llama-2-7b-chat-hf" not in [f["value"] for f in facts(plan, "model.ref")]


# --- a project model picked from a registry of constructors, with timm's blocks -------------------
# facebookresearch/DiT @ ed81ce2229091fd4ecc9a223645f95cf379d582b train.py:141-145
# ``DiT_models[args.model](input_size=latent_size, num_classes=args.num_classes)``, models.py:328-329
# ``def DiT_XL_2(**kwargs): return DiT(depth=28, ...)``, :365 ``DiT_models = {...}``, and the timm
# ``PatchEmbed``/``Attention``/``Mlp`` its blocks are made of (:16, :108-112, :169-174).
NET_MODELS = """\
    import torch
    import torch.nn as nn
    from timm.models.vision_transformer import PatchEmbed, Attention, Mlp


    class Block(nn.Module):
        def __init__(self, hidden_size, num_heads, mlp_ratio=4.0, **block_kwargs):
            super().__init__()
            self.norm1 = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
            self.attn = Attention(hidden_size, num_heads=num_heads, qkv_bias=True{attn}, **block_kwargs)
            mlp_hidden_dim = int(hidden_size * mlp_ratio)
            approx_gelu = lambda: nn.GELU(approximate="tanh")
            self.mlp = Mlp(in_features=hidden_size, hidden_features=mlp_hidden_dim, act_layer=approx_gelu, drop=0)


    class Net(nn.Module):
        def __init__(self, input_size=32, patch_size=2, in_channels=4, hidden_size=64, depth=2, num_heads=4,
                     num_classes=10, class_dropout_prob=0.1):
            super().__init__()
            self.x_embedder = PatchEmbed(input_size, patch_size, in_channels, hidden_size, bias=True)
            num_patches = self.x_embedder.num_patches
            self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, hidden_size), requires_grad=False)
            use_cfg_embedding = class_dropout_prob > 0
            self.y_embedder = nn.Embedding(num_classes + use_cfg_embedding, hidden_size)
            self.blocks = nn.ModuleList([Block(hidden_size, num_heads) for _ in range(depth)])
            self.head = nn.Linear(hidden_size, patch_size * patch_size * in_channels)
            self.initialize_weights()

        def initialize_weights(self):
            def _init(module):
                if isinstance(module, nn.Linear):
                    torch.nn.init.xavier_uniform_(module.weight)
            self.apply(_init)
            nn.init.constant_(self.head.weight, 0)
            {init}


    def Net_S_2(**kwargs):
        return Net(depth=2, hidden_size=64, patch_size=2, num_heads=4, **kwargs)


    def Net_S_4(**kwargs):
        return Net(depth={depth4}, hidden_size=64, patch_size=4, num_heads=4, **kwargs)


    Net_models = {{'Net-S/2': Net_S_2, 'Net-S/4': Net_S_4}}
    """
NET_TRAIN = """\
    import argparse
    import os

    import torch
    from models import Net_models


    def main(args):
        latent_size = args.image_size // 8
        model = Net_models[{key}](input_size=latent_size, num_classes=args.num_classes)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for x in range(10):
            loss = model(x).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", type=str, choices=list(Net_models.keys()), default="Net-S/2")
        parser.add_argument("--image-size", type=int, choices=[256, 512], default=256)
        parser.add_argument("--num-classes", type=int, default=10)
        main(parser.parse_args())
    """


def net_count(patch: int, classes: int, latent: int = 32, hidden: int = 64, depth: int = 2) -> int:
    """By hand: timm PatchEmbed (a conv patch x patch, bias), the frozen position table, the label
    table (one more row for the dropped label), per block timm Attention (qkv with bias, proj) and
    Mlp (4x, biases), the head."""
    patch_embed = 4 * hidden * patch * patch + hidden
    pos = (latent // patch) ** 2 * hidden
    labels = (classes + 1) * hidden
    attn = hidden * 3 * hidden + 3 * hidden + hidden * hidden + hidden
    mlp = hidden * 4 * hidden + 4 * hidden + 4 * hidden * hidden + hidden
    head = hidden * patch * patch * 4 + patch * patch * 4
    return patch_embed + pos + labels + depth * (attn + mlp) + head


def net(tmp_path: Path, attn: str = "", init: str = "", depth4: str = "2", key: str = "args.model") -> None:
    write(tmp_path, {"models.py": NET_MODELS.format(attn=attn, init=init, depth4=depth4),
                     "train.py": NET_TRAIN.format(key=key)})


def test_a_registry_model_is_counted_with_timm_blocks(cli, tmp_path: Path) -> None:
    net(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--model", "Net-S/4", "--num-classes", "100", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == net_count(patch=4, classes=100)
    got = [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]
    assert got[0]["confidence"] == "medium" and got[0]["source"]["line"] == 10
    assert "'Net-S/4' is Net_S_4() (models.py:42)" in got[0]["source"]["detail"]
    assert winner(plan, "model.class_name") == "Net"


def test_the_declared_default_key_is_read(cli, tmp_path: Path) -> None:
    net(tmp_path)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == net_count(patch=2, classes=10)


def test_a_key_not_known_stays_unknown(cli, tmp_path: Path) -> None:
    net(tmp_path, key="os.environ['MODEL']")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


def test_a_constructor_that_computes_stays_unknown(cli, tmp_path: Path) -> None:
    net(tmp_path, depth4="2 * 2")
    plan = plan_of(cli, "train.py", "--", "--model", "Net-S/4", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


def test_a_timm_option_that_adds_layers_stays_unknown(cli, tmp_path: Path) -> None:
    net(tmp_path, attn=", qk_norm=True")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


def test_an_init_method_that_builds_a_layer_stays_unknown(cli, tmp_path: Path) -> None:
    net(tmp_path, init="self.extra = nn.Linear(4, 4)")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


# --- layers collected in a local list -------------------------------------------------------------
# AntixK/PyTorch-VAE @ a6896b944c918dd7030e7d795a8c13e5c6345ec7 models/vanilla_vae.py:20-58:
# ``modules = []``, ``modules.append(nn.Sequential(nn.Conv2d(...), nn.BatchNorm2d(h_dim), ...))`` in a
# loop over ``hidden_dims``, ``self.encoder = nn.Sequential(*modules)``, ``hidden_dims.reverse()``,
# ``range(len(hidden_dims) - 1)``.
TINY_VAE = """\
    import torch
    import torch.nn as nn


    class TinyVAE(nn.Module):
        def __init__(self, in_channels, latent_dim, hidden_dims=None):
            super().__init__()
            modules = []
            if hidden_dims is None:
                hidden_dims = [8, 16]
            for h_dim in hidden_dims:
                modules.append(nn.Sequential(nn.Conv2d(in_channels, out_channels=h_dim, kernel_size=3, stride=2,
                                                       padding=1), nn.BatchNorm2d(h_dim), nn.LeakyReLU()))
                in_channels = h_dim
            self.encoder = nn.Sequential(*modules)
            self.fc_mu = nn.Linear(hidden_dims[-1] * 4, latent_dim)
            modules = []
            hidden_dims.reverse()
            for i in range(len(hidden_dims) - 1):
                modules.append({decoder})
            self.decoder = nn.Sequential(*modules)


    model = TinyVAE(in_channels=3, latent_dim=8).cuda()
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    for batch in range(10):
        loss = model(batch).mean()
        optim.zero_grad()
        loss.backward()
        optim.step()
    """


def test_layers_collected_in_a_local_list_are_counted(cli, tmp_path: Path) -> None:
    write(tmp_path, {"vae.py": TINY_VAE.format(
        decoder="nn.ConvTranspose2d(hidden_dims[i], hidden_dims[i + 1], kernel_size=3, stride=2)")})
    plan = plan_of(cli, "vae.py", cwd=tmp_path)
    # by hand: conv 3->8 (3x3, bias) + BN 8, conv 8->16 + BN 16, fc 64->8, deconv 16->8 (reversed dims)
    expected = (3 * 8 * 9 + 8) + 2 * 8 + (8 * 16 * 9 + 16) + 2 * 16 + (64 * 8 + 8) + (16 * 8 * 9 + 8)
    assert winner(plan, "model.num_parameters") == expected


def test_a_list_item_not_known_leaves_the_count_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"vae.py": TINY_VAE.format(decoder="make_block(hidden_dims[i])")})
    plan = plan_of(cli, "vae.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


# --- a registry of classes keyed by a loaded YAML config ----------------------------------------
# AntixK/PyTorch-VAE @ a6896b944c918dd7030e7d795a8c13e5c6345ec7 run.py:25-27,38: ``config =
# yaml.safe_load(file)`` of ``-c configs/vae.yaml``, ``model = vae_models[config['model_params']['name']](
# **config['model_params'])``; models/__init__.py:1-2,32-50 re-exports ``.base``/``.vanilla_vae`` and binds
# ``vae_models = {..., 'VanillaVAE': VanillaVAE}``; the class derives from ``BaseVAE`` (models/base.py:4),
# imported ``from models import BaseVAE``.
VAE_RUN = """\
    import argparse

    import yaml
    from models import *
    from pytorch_lightning import Trainer

    parser = argparse.ArgumentParser()
    parser.add_argument('--config', '-c', dest="filename", default='configs/vae.yaml')
    args = parser.parse_args()
    with open(args.filename, 'r') as file:
        try:
            config = {load}(file)
        except yaml.YAMLError as exc:
            print(exc)

    model = vae_models[config['model_params']['name']](**config['model_params'])
    runner = Trainer(**config['trainer_params'])
    runner.fit(model)
    """
VAE_PACKAGE = {
    "models/__init__.py": "from .base import *\nfrom .tiny_vae import *\n\nvae_models = {'TinyVAE': TinyVAE}\n",
    "models/base.py": "from torch import nn\n\n\nclass BaseVAE(nn.Module):\n    def __init__(self) -> None:\n"
                      "        super(BaseVAE, self).__init__()\n",
}


def vae_project(tmp_path: Path, load: str = "yaml.safe_load", name: str = "TinyVAE") -> None:
    cls = textwrap.dedent(TINY_VAE.format(decoder="nn.ConvTranspose2d(hidden_dims[i], hidden_dims[i + 1], "
                                                  "kernel_size=3, stride=2)")).split("\n\n\nmodel = ")[0]
    cls = cls.replace("class TinyVAE(nn.Module):", "class TinyVAE(BaseVAE):").replace(
        "    def __init__(self, in_channels, latent_dim, hidden_dims=None):",
        "    def __init__(self, in_channels, latent_dim, hidden_dims=None, **kwargs):")
    write(tmp_path, {**VAE_PACKAGE, "run.py": VAE_RUN.format(load=load),
                     "configs/vae.yaml": f"model_params:\n  name: '{name}'\n  in_channels: 3\n  latent_dim: 8\n"
                                         "trainer_params:\n  max_epochs: 1\n"})
    (tmp_path / "models/tiny_vae.py").write_text("from models import BaseVAE\n" + cls + "\n")


def test_a_registry_class_built_from_a_yaml_section_is_counted(cli, tmp_path: Path) -> None:
    vae_project(tmp_path)
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    expected = (3 * 8 * 9 + 8) + 2 * 8 + (8 * 16 * 9 + 16) + 2 * 16 + (64 * 8 + 8) + (16 * 8 * 9 + 8)
    assert winner(plan, "model.num_parameters") == expected
    got = [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]
    assert "'TinyVAE' is the class TinyVAE (tiny_vae.py)" in got[0]["source"]["detail"]


def test_a_name_not_in_the_registry_stays_unknown(cli, tmp_path: Path) -> None:
    vae_project(tmp_path, name="OtherVAE")
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


def test_a_config_not_loaded_from_the_file_stays_unknown(cli, tmp_path: Path) -> None:
    vae_project(tmp_path, load="make_config")
    plan = plan_of(cli, "run.py", "--", "-c", "configs/vae.yaml", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


# --- a model class of the project's own modeling file, named like the library's ------------------
# princeton-nlp/ProLong @ 907dcf4b833a3510e39ce8355e45db4175648a49 training/train_language_model.py:16,161:
# ``from training.modeling_flash_llama import LlamaForCausalLM`` (a project copy whose attention calls
# flash-attn itself, training/modeling_flash_llama.py:41,325), then ``LlamaForCausalLM.from_pretrained(...)``.
OWN_CLASS = """\
    from transformers import Trainer, TrainingArguments
    from {module} import LlamaForCausalLM

    model = LlamaForCausalLM.from_pretrained("org/llama-tiny")
    Trainer(model=model, args=TrainingArguments(output_dir="out")).train()
    """


FLASH_MODELING = """\
    import torch
    from flash_attn import flash_attn_kvpacked_func, flash_attn_varlen_kvpacked_func


    class LlamaAttention(torch.nn.Module):
        def forward(self, q, kv, unpadded_lengths=None):
            attention_func = flash_attn_varlen_kvpacked_func if unpadded_lengths is not None else flash_attn_kvpacked_func
            return attention_func(q, kv, dropout_p=0.0, softmax_scale=1.0)
            {fallback}


    class LlamaForCausalLM(torch.nn.Module):
        pass
    """


def test_a_project_class_that_calls_flash_attn_is_flash_attention_2(cli, tmp_path: Path) -> None:
    write(tmp_path, {"training/__init__.py": "", "training/modeling_flash_llama.py": FLASH_MODELING.format(fallback=""),
                     "training/train.py": OWN_CLASS.format(module="training.modeling_flash_llama"),
                     "requirements.txt": "transformers==4.44.2\n"})
    plan = plan_of(cli, "training/train.py", cwd=tmp_path)
    got = facts(plan, "model.attn_implementation")
    assert [(f["value"], f["confidence"]) for f in got] == [("flash_attention_2", "medium")]
    assert "training/modeling_flash_llama.py" in got[0]["source"]["detail"]


def test_a_project_class_with_a_softmax_path_stays_unknown(cli, tmp_path: Path) -> None:
    fallback = "return torch.softmax(q @ kv.transpose(-1, -2), dim=-1) @ kv"
    write(tmp_path, {"training/__init__.py": "",
                     "training/modeling_flash_llama.py": FLASH_MODELING.format(fallback=fallback),
                     "training/train.py": OWN_CLASS.format(module="training.modeling_flash_llama"),
                     "requirements.txt": "transformers==4.44.2\n"})
    plan = plan_of(cli, "training/train.py", cwd=tmp_path)
    assert facts(plan, "model.attn_implementation") == []


def test_the_library_attention_default_is_not_claimed_for_a_project_class(cli, tmp_path: Path) -> None:
    write(tmp_path, {"training/__init__.py": "", "training/modeling_flash_llama.py": "class LlamaForCausalLM:\n    pass\n",
                     "training/train.py": OWN_CLASS.format(module="training.modeling_flash_llama"),
                     "requirements.txt": "transformers==4.44.2\n"})
    plan = plan_of(cli, "training/train.py", cwd=tmp_path)
    assert facts(plan, "model.attn_implementation") == []
    assert any("is the project's own" in n for n in plan["notes"])


def test_the_library_attention_default_stays_for_the_library_class(cli, tmp_path: Path) -> None:
    write(tmp_path, {"training/train.py": OWN_CLASS.format(module="transformers"),
                     "requirements.txt": "transformers==4.44.2\n"})
    plan = plan_of(cli, "training/train.py", cwd=tmp_path)
    assert [f["value"] for f in facts(plan, "model.attn_implementation")] == ["sdpa"]


# --- the registry called inside a project helper over an OmegaConf config ------------------------
# Vchitect/Latte @ b27c24a17487 train.py:47,86-90,285: ``main(OmegaConf.load(args.config))``, in main
# ``args.latent_size = args.image_size // 8`` then ``model = get_models(args)``; models/__init__.py:5,31-50
# ``from .latte import Latte_models`` and ``elif 'Latte' in args.model: return Latte_models[args.model](
# input_size=args.latent_size, ...)``; configs/ffs/ffs_train.yaml:12 ``model: Latte-XL/2``.
HELPER_INIT = """\
    from .net import Net_models


    def get_models(args):
        if 'NetIMG' in args.model:
            raise NotImplementedError(args.model)
        elif {test}:
            return Net_models[args.model](input_size=args.latent_size, num_classes=args.num_classes)
        else:
            raise '{{}} Model Not Supported!'.format(args.model)
    """
HELPER_TRAIN = """\
    import argparse

    import torch
    from omegaconf import OmegaConf
    from models import get_models


    def main(args):
        sample_size = args.image_size // 8
        args.latent_size = sample_size
        model = get_models(args)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        for x in range(10):
            loss = model(x).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default="./configs/train.yaml")
        args = parser.parse_args()
        main({load}(args.config))
    """


def helper_project(tmp_path: Path, test: str = "'Net' in args.model", load: str = "OmegaConf.load") -> None:
    write(tmp_path, {"models/net.py": NET_MODELS.format(attn="", init="", depth4="2"),
                     "models/__init__.py": HELPER_INIT.format(test=test),
                     "train.py": HELPER_TRAIN.format(load=load),
                     "configs/ffs/ffs_train.yaml": "model: Net-S/4\nimage_size: 256\nnum_classes: 100\n"})


def test_a_registry_inside_a_helper_over_an_omegaconf_config_is_counted(cli, tmp_path: Path) -> None:
    helper_project(tmp_path)
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") == net_count(patch=4, classes=100)
    assert winner(plan, "model.ref") == "Net-S/4"
    got = [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]
    assert got[0]["source"]["line"] == 11 and "get_models() (__init__.py:4)" in got[0]["source"]["detail"]


def test_a_helper_test_not_decided_stays_unknown(cli, tmp_path: Path) -> None:
    helper_project(tmp_path, test="args.model.startswith('Net')")
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]


def test_a_config_not_loaded_by_omegaconf_stays_unknown(cli, tmp_path: Path) -> None:
    helper_project(tmp_path, load="load_my_config")
    plan = plan_of(cli, "train.py", "--", "--config", "./configs/ffs/ffs_train.yaml", cwd=tmp_path)
    assert not [f for f in facts(plan, "model.num_parameters") if f["adapter"] == "model_registry"]
