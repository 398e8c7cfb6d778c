"""The model in real jobs (issue 15, branch jobs36): a project model picked from a registry table whose
call takes a local ``**kwargs`` dict, arguments not known statically, or its key and sizes from a YAML
config handed to a training function. Small projects of our own in the shapes of the real-jobs benchmark,
each citing the repository, path and commit it follows, with twins that must state nothing."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write


def registry(plan: dict) -> list:
    return [(f["value"], f["confidence"]) for f in plan["fields"].get("model.num_parameters", [])
            if f["adapter"] == "model_registry"]


# sihyun-yu/REPA @ 67f7145 models/sit.py:16-23,106-120,160-208,349-350,386 (SiT_models = {'SiT-XL/2': SiT_XL_2,
# ...}, ``def SiT_XL_2(**kwargs): return SiT(depth=28, ..., **kwargs)``, projector heads one per z_dim, the block
# asking ``"fused_attn" in block_kwargs.keys()``) and train.py:21,163-172 (``z_dims = [encoder.embed_dim for
# encoder in encoders]``, ``block_kwargs = {...}``, ``SiT_models[args.model](..., z_dims=z_dims, **block_kwargs)``)
NET = """\
    import torch.nn as nn


    def build_head(hidden, out):
        return nn.Sequential(nn.Linear(hidden, out))


    class Block(nn.Module):
        def __init__(self, dim, **block_kwargs):
            super().__init__()
            self.fc = nn.Linear(dim, dim)
            qk_norm = False
            if "qk_norm" in block_kwargs.keys():
                qk_norm = block_kwargs.get("qk_norm", False)
            self.norm = nn.LayerNorm(dim) if qk_norm else nn.Identity()


    class Net(nn.Module):
        def __init__(self, depth=2, hidden=64, z_dims=[32], in_ch=4, **block_kwargs):
            super().__init__()
            self.inp = nn.Linear(in_ch, hidden)
            self.blocks = nn.ModuleList([Block(hidden, **block_kwargs) for _ in range(depth)])
            self.heads = nn.ModuleList([build_head(hidden, z) for z in z_dims])


    def Net_S(**kwargs):
        return Net(depth=2, hidden=64, **kwargs)


    def Net_L(**kwargs):
        return Net(depth=4, hidden=128, **kwargs)


    Net_models = {"Net-S": Net_S, "Net-L": Net_L}
"""

TRAIN = """\
    import argparse

    import torch
    from models.net import Net_models
    from encoders import load_encoders

    p = argparse.ArgumentParser()
    p.add_argument("--model", default="Net-S")
    p.add_argument("--qk-norm", action="store_true")
    args = p.parse_args()
    encoders = load_encoders()
    z_dims = [encoder.embed_dim for encoder in encoders]
    block_kwargs = {"fused_attn": True, "qk_norm": {qk}}
    {mutate}model = Net_models[args.model](in_ch={in_ch}, z_dims=z_dims, **block_kwargs)
    opt = torch.optim.AdamW(model.parameters())
"""


def _repa(cli, tmp_path: Path, *, in_ch: str = "4", qk: str = "args.qk_norm", mutate: str = "") -> dict:
    train = TRAIN.replace("{in_ch}", in_ch).replace("{qk}", qk).replace("{mutate}", mutate)
    write(tmp_path, {"models/__init__.py": "", "models/net.py": NET, "train.py": train})
    return plan_of(cli, "train.py", "--", "--model", "Net-L", "--qk-norm", cwd=tmp_path)


def test_a_local_kwargs_dict_and_an_unknown_argument_left_to_its_declared_default(cli, tmp_path: Path) -> None:
    plan = _repa(cli, tmp_path)
    # inp 4x128+128; 4 blocks of Linear(128,128) + LayerNorm(128) (qk_norm from the dict); one head
    # Linear(128, 32) from z_dims' declared default [32] (the encoders' widths are not known statically)
    assert registry(plan) == [(640 + 4 * (16_512 + 256) + 4_128, "low")]
    got = fact(plan, "model.num_parameters")
    assert "z_dims" in got.source.detail and "default" in got.source.detail
    assert fact(plan, "model.ref").value == "Net-L"


def test_twin_a_dict_changed_after_or_three_unknown_arguments_state_nothing(cli, tmp_path: Path) -> None:
    # the dict gets a key after its literal: what the call spreads is not the literal
    assert registry(_repa(cli, tmp_path, mutate='block_kwargs["extra"] = 1\n    ')) == []
    # z_dims, in_ch and the dict's qk_norm all not known: too much left to defaults
    plan = _repa(cli, tmp_path, in_ch="encoders[0].channels", qk="encoders[1].qk_norm")
    assert registry(plan) == []


# hustvl/LightningDiT @ the benchmark's commit train.py:38,72-88,336-344 (``train_config = load_config(
# args.config)``; ``do_train(train_config, accelerator)``; ``LightningDiT_models[train_config['model'][
# 'model_type']](input_size=latent_size, use_swiglu=train_config['model']['use_swiglu'] if 'use_swiglu' in
# train_config['model'] else False, ...)``) and models/lightningdit.py:9-10 (``from models.swiglu_ffn import
# SwiGLUFFN``: a layer of a sibling module imported by its absolute name)
LAYERS = """\
    import torch.nn as nn


    class SwiGLU(nn.Module):
        def __init__(self, dim, hidden):
            super().__init__()
            self.w12 = nn.Linear(dim, 2 * hidden)
            self.w3 = nn.Linear(hidden, dim)
"""

DIT = """\
    import torch
    import torch.nn as nn
    from models.layers import SwiGLU


    class DiT(nn.Module):
        def __init__(self, input_size=32, hidden_size=64, depth=2, use_swiglu=False, in_channels=4):
            super().__init__()
            self.x_embedder = nn.Linear(in_channels, hidden_size)
            self.pos_embed = nn.Parameter(torch.zeros(1, input_size * input_size, hidden_size))
            self.blocks = nn.ModuleList([
                SwiGLU(hidden_size, 2 * hidden_size) if use_swiglu else nn.Linear(hidden_size, hidden_size)
                for _ in range(depth)])


    def DiT_S(**kwargs):
        return DiT(depth=2, hidden_size=64, **kwargs)


    def DiT_L(**kwargs):
        return DiT(depth=4, hidden_size=128, **kwargs)


    DiT_models = {"DiT-S": DiT_S, "DiT-L": DiT_L}
"""

DIT_TRAIN = """\
    import argparse

    import torch
    import yaml
    from models.dit import DiT_models


    def load_config(path):
        with open(path) as f:
            return yaml.safe_load(f)


    def do_train(train_config):
        latent_size = train_config["data"]["image_size"] // 16
        model = DiT_models[train_config["model"]["model_type"]](
            input_size=latent_size,
            use_swiglu=train_config["model"]["use_swiglu"] if "use_swiglu" in train_config["model"] else False,
            in_channels=train_config["model"]["in_chans"] if "in_chans" in train_config["model"] else 4,
        )
        opt = torch.optim.AdamW(model.parameters())


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default="configs/debug.yaml")
        args = parser.parse_args()
        train_config = load_config(args.config)
        do_train(train_config)
"""


def _dit(cli, tmp_path: Path, model: str) -> dict:
    write(tmp_path, {"models/__init__.py": "", "models/layers.py": LAYERS, "models/dit.py": DIT,
                     "train.py": DIT_TRAIN,
                     "configs/run.yaml": f"data:\n  image_size: 256\nmodel:\n{model}  in_chans: 32\n"})
    return plan_of(cli, "train.py", "--", "--config", "configs/run.yaml", cwd=tmp_path)


def test_the_key_and_sizes_from_a_yaml_config_handed_to_the_training_function(cli, tmp_path: Path) -> None:
    plan = _dit(cli, tmp_path, "  model_type: DiT-L\n  use_swiglu: true\n")
    # x_embedder 32x128+128; pos_embed (256/16)^2 x 128; 4 SwiGLU(128, 256): 128x512+512 + 256x128+128
    assert registry(plan) == [(4_224 + 32_768 + 4 * (66_048 + 32_896), "medium")]
    assert fact(plan, "model.ref").value == "DiT-L"
    # use_swiglu absent from the config: the code's else branch (plain Linear blocks)
    plan = _dit(cli, tmp_path, "  model_type: DiT-L\n")
    assert registry(plan) == [(4_224 + 32_768 + 4 * 16_512, "medium")]


def test_twin_a_config_without_the_registry_key_states_nothing(cli, tmp_path: Path) -> None:
    assert registry(_dit(cli, tmp_path, "  use_swiglu: true\n")) == []


# PrimeIntellect-ai/OpenDiloco @ the benchmark's commit open_diloco/train_fsdp.py:18,104-105,171-174,223,525
# (``class Config(BaseConfig): path_model: str = ...``; ``config = Config(**parse_argv())``; ``get_model(config)``
# loads ``LlamaForCausalLM.from_pretrained(pretrained_model_name_or_path=config.path_model, ...)``)
PYDANTIC_TRAIN = """\
    import torch
    from {module} import parse_argv, BaseConfig
    from transformers import LlamaForCausalLM


    class DataConfig(BaseConfig):
        workers: int = 2


    class Config(BaseConfig):
        path_model: str = "org/llama-150m-fresh"
        data: DataConfig = DataConfig()
        compile: bool = True


    def get_model(config: Config) -> LlamaForCausalLM:
        return LlamaForCausalLM.from_pretrained(pretrained_model_name_or_path=config.path_model)


    def train(config: Config):
        model = get_model(config)
        loader = torch.utils.data.DataLoader(range(10), batch_size=4, num_workers=config.data.workers)
        if config.compile:
            model = torch.compile(model)
        opt = torch.optim.AdamW(model.parameters())
        for batch in loader:
            opt.step()


    if __name__ == "__main__":
        config = Config(**parse_argv())
        train(config)
"""


def _diloco(cli, tmp_path: Path, module: str, *argv: str) -> dict:
    write(tmp_path, {"train_fsdp.py": PYDANTIC_TRAIN.replace("{module}", module)})
    return plan_of(cli, "train_fsdp.py", "--", *argv, cwd=tmp_path)


def test_a_pydantic_config_class_filled_from_the_launch_line(cli, tmp_path: Path) -> None:
    plan = _diloco(cli, tmp_path, "pydantic_config", "--path-model", "org/llama-1b-fresh", "--data.workers", "6",
                   "--no-compile")
    got = fact(plan, "model.ref")
    assert got.value == "org/llama-1b-fresh" and got.source.kind == "cli"
    assert fact(plan, "data.num_workers").value == 6  # a nested option: --data.workers
    # without the option: the class's default
    assert fact(_diloco(cli, tmp_path, "pydantic_config"), "model.ref").value == "org/llama-150m-fresh"


def test_twin_a_parse_argv_of_another_library_is_not_read_as_pydantic_config(cli, tmp_path: Path) -> None:
    # a project's own ``parse_argv`` may map the line any way: the class is not filled from it
    plan = _diloco(cli, tmp_path, "mycli", "--path-model", "org/llama-1b-fresh", "--data.workers", "6")
    assert fact(plan, "model.ref") is None and fact(plan, "data.num_workers") is None


# mlfoundations/open_clip @ the benchmark's commit: src/open_clip_train/main.py (``create_model_and_transforms(
# args.model, ...)``, the options of params.py) and src/open_clip/model_configs/ViT-B-32.json (the sizes below);
# docs/script_examples/stability_example.sh trains ``--model ViT-B-32``
CLIP_MAIN = """\
    import argparse

    import torch
    from open_clip import create_model_and_transforms


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--model", default="RN50")
        args = p.parse_args()
        model, preprocess_train, preprocess_val = create_model_and_transforms(args.model, None)
        opt = torch.optim.AdamW(model.parameters())


    if __name__ == "__main__":
        main()
"""
VIT_B_32 = ('{"embed_dim": 512, "vision_cfg": {"image_size": 224, "layers": 12, "width": 768, "patch_size": 32},'
            ' "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 512, "heads": 8, "layers": 12}}')


def _clip(cli, tmp_path: Path, name: str, config: str) -> dict:
    write(tmp_path, {"src/open_clip_train/__init__.py": "", "src/open_clip_train/main.py": CLIP_MAIN,
                     "src/open_clip/__init__.py": "", f"src/open_clip/model_configs/{name}.json": config})
    return plan_of(cli, "src/open_clip_train/main.py", "--", "--model", name, cwd=tmp_path)


def clip(plan: dict) -> list:
    return [(f["value"], f["confidence"]) for f in plan["fields"].get("model.num_parameters", [])
            if f["adapter"] == "open_clip_config"]


def test_an_open_clip_model_named_on_the_launch_line_is_counted_from_its_json(cli, tmp_path: Path) -> None:
    # CLIP ViT-B/32: 87,849,216 vision + 63,428,096 text + logit_scale (open_clip's published 151.28M)
    assert clip(_clip(cli, tmp_path, "ViT-B-32", VIT_B_32)) == [(151_277_313, "medium")]


def test_twin_a_timm_tower_or_a_name_without_its_json_states_nothing(cli, tmp_path: Path) -> None:
    timm = VIT_B_32.replace('"image_size": 224,', '"image_size": 224, "timm_model_name": "vit_base_patch32_224",')
    assert clip(_clip(cli, tmp_path, "timm-ViT-B-32", timm)) == []
    write(tmp_path, {"src/open_clip/model_configs/ViT-B-32.json": VIT_B_32})
    plan = plan_of(cli, "src/open_clip_train/main.py", "--", "--model", "ViT-B-16", cwd=tmp_path)
    assert clip(plan) == []


# LLM360/amber-train @ the benchmark's commit main.py:27-30,147-148 (``HF_MODEL_NAME_OR_PATH =
# f'huggyllama/llama-{MODEL_SIZE}'``; ``LlamaForCausalLM(config=AutoConfig.from_pretrained(...))``: the original
# LLaMA's config, trained from scratch)
AMBER = """\
    import torch
    from transformers import AutoConfig, LlamaForCausalLM

    MODEL_SIZE = "{size}"
    HF_MODEL_NAME_OR_PATH = f"huggyllama/llama-{MODEL_SIZE}"
    model = LlamaForCausalLM(config=AutoConfig.from_pretrained(HF_MODEL_NAME_OR_PATH))
    opt = torch.optim.AdamW(model.parameters())
"""


def test_the_original_llama_configs_are_in_the_catalog(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": AMBER.replace("{size}", "7b")})
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    # LLaMA-7B: 32 x 202,383,360 + 2 x 32000 x 4096 + 4096 (transformers on the meta device)
    assert fact(plan, "model.num_parameters").value == 6_738_415_616
    write(tmp_path, {"main.py": AMBER.replace("{size}", "99b")})
    assert fact(plan_of(cli, "main.py", cwd=tmp_path), "model.num_parameters") is None


# huggingface/nanoVLM @ the benchmark's commit models/config.py:73 (``compile: bool = False`` in the TrainConfig
# dataclass) and train.py:341-342,641-667 (``--compile`` declared without a default; ``if args.compile is not
# None: train_cfg.compile = args.compile``; ``if train_cfg.compile: model = torch.compile(model)``)
NV_CONFIG = """\
    from dataclasses import dataclass


    @dataclass
    class TrainConfig:
        compile: bool = False
        batch_size: int = 8
"""
NV_TRAIN = """\
    import argparse
    import os

    import torch
    import models.config as config


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--compile", type=int, help="use torch.compile")
        parser.add_argument("--batch_size", type=int)
        args = parser.parse_args()
        train_cfg = config.TrainConfig()
        if {test}:
            train_cfg.compile = args.compile
        if args.batch_size is not None:
            train_cfg.batch_size = args.batch_size
        model = torch.nn.Linear(4, 4)
        if train_cfg.compile:
            model = torch.compile(model)
        loader = torch.utils.data.DataLoader(range(64), batch_size=train_cfg.batch_size)
        opt = torch.optim.AdamW(model.parameters())
        for batch in loader:
            opt.step()


    if __name__ == "__main__":
        main()
"""


def _nanovlm(cli, tmp_path: Path, test: str, *argv: str) -> dict:
    write(tmp_path, {"models/__init__.py": "", "models/config.py": NV_CONFIG,
                     "train.py": NV_TRAIN.replace("{test}", test)})
    return plan_of(cli, "train.py", "--", *argv, cwd=tmp_path)


def test_an_option_not_given_leaves_the_config_default_and_a_given_one_replaces_it(cli, tmp_path: Path) -> None:
    plan = _nanovlm(cli, tmp_path, "args.compile is not None")
    assert fact(plan, "compile.enabled").value is False  # was True (medium): the guard read as always taken
    assert fact(plan, "batch.micro").value == 8
    plan = _nanovlm(cli, tmp_path, "args.compile is not None", "--compile", "1", "--batch_size", "16")
    assert fact(plan, "batch.micro").value == 16


def test_twin_a_guard_the_options_do_not_decide_leaves_the_field_to_the_code(cli, tmp_path: Path) -> None:
    plan = _nanovlm(cli, tmp_path, 'os.environ.get("COMPILE") is not None')
    got = fact(plan, "compile.enabled")
    assert got is None or got.value is not False


# karpathy/llm.c @ the benchmark's commit train_gpt2.py:241,262-270 (``configure_optimizers(self, ...,
# zero_stage)``: ``if zero_stage == 1: ZeroRedundancyOptimizer(...)`` else AdamW), :575 (``--zero_stage``),
# :587-603 (``ddp = int(os.environ.get('RANK', -1)) != -1``; ``zero_stage = args.zero_stage`` under ``if ddp:``,
# else 0), :630 (bf16 autocast), :707-713 (DDP, then ``configure_optimizers(..., zero_stage=zero_stage)``)
LLMC = """\
    import argparse
    import os

    import torch
    import torch.nn as nn
    from torch.distributed.optim import ZeroRedundancyOptimizer
    from torch.nn.parallel import DistributedDataParallel as DDP


    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 64)

        def configure_optimizers(self, learning_rate, zero_stage):
            if zero_stage == 1:
                optimizer = ZeroRedundancyOptimizer(self.parameters(), optimizer_class=torch.optim.AdamW,
                                                    lr=learning_rate)
            else:
                optimizer = torch.optim.AdamW(self.parameters(), lr=learning_rate)
            return optimizer


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--zero_stage", type=int, default=0)
        parser.add_argument("--batch_size", type=int, default=4)
        args = parser.parse_args()
        ddp = int(os.environ.get("RANK", -1)) != -1
        if ddp:
            torch.distributed.init_process_group(backend="nccl")
            zero_stage = args.zero_stage
        else:
            zero_stage = 0
        model = GPT().cuda()
        model = DDP(model, device_ids=[0])
        raw_model = model.module
        optimizer = raw_model.configure_optimizers(learning_rate=1e-3, zero_stage=zero_stage)
        for step in range(10):
            x = torch.randn(args.batch_size, 64, device="cuda")
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                loss = model(x).sum()
            loss.backward()
            optimizer.step()
"""


def _llmc(cli, tmp_path: Path, stage: str) -> dict:
    write(tmp_path, {"train_gpt2.py": LLMC})
    return plan_of(cli, "--", "torchrun", "--standalone", "--nproc_per_node=8", "train_gpt2.py", "--zero_stage", stage,
                   cwd=tmp_path)


def test_zero_redundancy_optimizer_under_ddp_is_zero_stage_1(cli, tmp_path: Path) -> None:
    plan = _llmc(cli, tmp_path, "1")
    assert fact(plan, "dist.sharding").value == "zero1"  # was ddp (medium)
    assert fact(plan, "precision.mode").value == "amp_bf16"  # autocast stays autocast: no DeepSpeed engine


def test_twin_the_flag_off_keeps_plain_ddp(cli, tmp_path: Path) -> None:
    assert fact(_llmc(cli, tmp_path, "0"), "dist.sharding").value == "ddp"


# nomic-ai/gpt4all @ the benchmark's commit gpt4all-training/train.py:7,40,64-69,222-230 (``config =
# read_config(args.config)``, a YAML read by a local helper, handed to ``train(accelerator, config)``; ``if
# config["lora"]: peft_config = LoraConfig(...); model = get_peft_model(model, peft_config)``) and
# configs/train/finetune_gptj.yaml:24 (``lora: false``)
G4_READ = """\
    import yaml


    def read_config(path):
        with open(path) as f:
            return yaml.safe_load(f)
"""
G4_TRAIN = """\
    import argparse

    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM
    from read import read_config


    def train(config):
        model = AutoModelForCausalLM.from_pretrained(config["model_name"])
        if config["lora"]:
            peft_config = LoraConfig(r=8, lora_alpha=32)
            model = get_peft_model(model, peft_config)
        {extra}opt = torch.optim.AdamW(model.parameters(), lr=config["lr"])
        for step in range(10):
            opt.step()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default="config.yaml")
        args = parser.parse_args()
        config = read_config(args.config)
        train(config)
"""


def _g4(cli, tmp_path: Path, lora: str, extra: str = "") -> dict:
    write(tmp_path, {"read.py": G4_READ, "train.py": G4_TRAIN.replace("{extra}", extra),
                     "configs/ft.yaml": f"model_name: EleutherAI/gpt-j-6b\nlora: {lora}\nlr: 2.0e-5\n"})
    return plan_of(cli, "train.py", "--", "--config", "configs/ft.yaml", cwd=tmp_path)


def test_the_only_lora_construct_under_a_guard_the_config_turns_off_means_no_peft(cli, tmp_path: Path) -> None:
    assert fact(_g4(cli, tmp_path, "false"), "peft.method").value == "none"  # was lora (medium)
    assert fact(_g4(cli, tmp_path, "true"), "peft.method").value == "lora"


def test_twin_another_lora_construct_outside_the_guard_is_not_overruled(cli, tmp_path: Path) -> None:
    plan = _g4(cli, tmp_path, "false", extra="model = get_peft_model(model, LoraConfig(r=4))\n        ")
    assert fact(plan, "peft.method").value == "lora"
