"""The model in real jobs (issue 15, branch jobs35): a project model the counters cannot follow, sized by the
name the job picks it by. Small projects of our own in the shapes of the real-jobs benchmark, each citing the
repository, path and commit it follows, with twins that must state nothing."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, write


def named(plan: dict) -> list:
    return [(f["value"], f["confidence"]) for f in plan["fields"].get("model.num_parameters", [])
            if f["adapter"] == "model_size_named"]


# fla-org/flame @ the benchmark's commit train.sh:100 (torchrun ... -m flame.train --model.config
# configs/transformer_340M.json --job.dump_folder exp/transformer-340M-10B/...); flame/train.py builds the model
# with AutoModelForCausalLM.from_config of a model type transformers does not know (fla's "transformer")
TRAIN = """\
    import argparse

    from transformers import AutoConfig, AutoModelForCausalLM


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--model.config", dest="config")
        p.add_argument("--job.dump_folder", dest="dump")
        args = p.parse_args()
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(args.config))
        model.train()


    if __name__ == "__main__":
        main()
"""
CONFIG = json.dumps({"model_type": "fla_transformer", "hidden_size": 1024, "num_hidden_layers": 24})


def _flame(cli, tmp_path: Path, config: str, dump: str) -> dict:
    write(tmp_path, {"flame/train.py": TRAIN, f"configs/{config}": CONFIG,
                     "train.sh": f"torchrun --nproc_per_node=8 -m flame.train --model.config configs/{config} "
                                 f"--job.dump_folder {dump}\n"})
    return plan_of(cli, "train.sh", cwd=tmp_path)


def test_a_model_config_named_by_its_size_on_the_launch_line_sizes_the_model(cli, tmp_path: Path) -> None:
    plan = _flame(cli, tmp_path, "transformer_340M.json", "exp/run1")
    assert named(plan) == [(340_000_000, "low")]
    got = fact(plan, "model.num_parameters")
    assert got.value == 340_000_000 and got.source.key == "model.config" and got.source.path == "train.sh"


def test_twin_a_one_digit_size_or_a_size_outside_a_model_option_states_nothing(cli, tmp_path: Path) -> None:
    # "1B" is a size class (allenai/OLMo configs/official-0724/OLMo-1B.yaml is 1.18B parameters)
    assert named(_flame(cli, tmp_path, "transformer_1B.json", "exp/run1")) == []
    # the dump folder's 340M and 10B are not the model option's (and two sizes in one name decide nothing)
    assert named(_flame(cli, tmp_path, "transformer.json", "exp/transformer-340M-10B")) == []


# huggingface/nanoVLM @ the benchmark's commit models/config.py:6-37: a 460M VLM whose language half is declared as
# lm_model_type "HuggingFaceTB/SmolLM2-360M-Instruct" beside the vision half; the part's size is not the model's
VLM = """\
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--vit_model_type", default="google/siglip2-base-patch16-512")
    p.add_argument("--lm_model_type", default="HuggingFaceTB/SmolLM2-360M-Instruct")
    p.add_argument("--model_name", default="{name}")
    args = p.parse_args()
"""


def test_twin_the_size_of_one_part_of_a_composite_model_is_not_the_models(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": VLM.format(name="nanoVLM")})
    assert named(plan_of(cli, "train.py", cwd=tmp_path)) == []
    write(tmp_path, {"train.py": VLM.format(name="nanoVLM-450M")})  # the whole, named: taken
    assert named(plan_of(cli, "train.py", cwd=tmp_path)) == [(450_000_000, "low")]


# allenai/OLMo-core @ the benchmark's commit src/examples/llm/train.py:281-286,156-159: --model-factory with the
# default "llama2_271M", a classmethod of TransformerConfig looked up with getattr
FACTORY = """\
    import argparse


    class TransformerConfig:
        @classmethod
        def llama2_271M(cls, vocab_size):
            return cls()

        @classmethod
        def llama2_1B(cls, vocab_size):
            return cls()


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("run_name")
        p.add_argument("--model-factory", type=str, default="llama2_271M")
        opts = p.parse_args()
        factory = getattr(TransformerConfig, opts.model_factory)
        model_config = factory(vocab_size=50304)
        return model_config


    if __name__ == "__main__":
        main()
"""


def test_a_model_factory_option_default_names_the_size(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": FACTORY})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node=4", "train.py", "run01", cwd=tmp_path)
    assert named(plan) == [(271_000_000, "low")]
    assert "default 'llama2_271M'" in fact(plan, "model.num_parameters").source.detail


def test_twin_the_launch_line_replaces_the_default(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": FACTORY})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node=4", "train.py", "run01",
                   "--model-factory", "llama2_1B", cwd=tmp_path)
    assert named(plan) == []  # the default is not what runs; the one-digit 1B is not a count


# jasonppy/VoiceCraft @ the benchmark's commit z_scripts/e830M.sh:17 (torchrun ... ../main.py --d_model 2048
# --nhead 16 --num_decoder_layers 16 ...): the experiment script is named for the 830M model
MAIN = """\
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--d_model", type=int, default=1024)
    p.add_argument("--exp_dir", type=str)
    args = p.parse_args()
"""


def test_the_launch_script_named_by_the_size(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": MAIN, "z_scripts/e830M.sh":
                     "exp_name=e830M\ntorchrun --nproc_per_node=4 ../main.py --d_model 2048 --exp_dir out/${exp_name}\n"})
    plan = plan_of(cli, "e830M.sh", cwd=tmp_path / "z_scripts")
    assert named(plan) == [(830_000_000, "low")]
    assert fact(plan, "model.num_parameters").source.path == "e830M.sh"


def test_twin_a_launch_script_without_a_size_states_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": MAIN, "z_scripts/train.sh":
                     "torchrun --nproc_per_node=4 ../main.py --d_model 2048 --exp_dir out/e830M\n"})
    assert named(plan_of(cli, "train.sh", cwd=tmp_path / "z_scripts")) == []


# jiaweizzhao/GaLore @ 2cc66f8 torchrun_main.py:198-202 with scripts/benchmark_c4/llama_130m.sh
# (--model_config configs/llama_130m.json): the config file is read and counted, and that count wins
GALORE = """\
    import argparse

    from transformers import AutoConfig, LlamaForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--model_config", type=str)
    args = p.parse_args()
    model_config = AutoConfig.from_pretrained(args.model_config)
    model = LlamaForCausalLM(model_config)
    model.train()
"""
LLAMA_130M = json.dumps({"model_type": "llama", "architectures": ["LLaMAForCausalLM"], "hidden_size": 768,
                         "intermediate_size": 2048, "num_attention_heads": 12, "num_hidden_layers": 12,
                         "vocab_size": 32000, "max_sequence_length": 1024, "rms_norm_eps": 1e-06})


def test_a_count_read_from_the_model_wins_over_the_name(cli, tmp_path: Path) -> None:
    write(tmp_path, {"torchrun_main.py": GALORE, "configs/llama_130m.json": LLAMA_130M})
    plan = plan_of(cli, "torchrun_main.py", "--", "torchrun", "--nproc_per_node", "1", "torchrun_main.py",
                   "--model_config", "configs/llama_130m.json", cwd=tmp_path)
    assert named(plan) == [(130_000_000, "low")]
    got = fact(plan, "model.num_parameters")
    assert got.confidence == "medium" and got.value != 130_000_000  # the file's count, not the name's


def test_sizes_of_other_things_are_not_the_model(cli, tmp_path: Path) -> None:
    from preflight.adapters.model_size_named import size_named

    assert size_named("Mixtral-8x7B") is None  # one expert's size
    assert size_named("ckpt_100B_tokens") is None  # the data seen
    assert size_named("zero3_16MB_bucket") is None
    assert size_named("facebook/opt-1.3b") == (1_300_000_000, "1.3b")
    write(tmp_path, {"train.py": MAIN, "run.sh":
                     "python train.py --reward_model_path rm-350m --deepspeed_config ds_13b.json --d_model 2\n"})
    assert named(plan_of(cli, "run.sh", cwd=tmp_path)) == []


# --- a model named by its Hub id in a config section of the project's own schema --------------------------
# PrimeIntellect-ai/prime-rl @ 559b44772e471d1538537b8805cc77f3824a5e64 examples/basic/reverse-text/sft.toml:5-11
# ([model] name, [data] name of a dataset repository), launched as `torchrun ... train.py @ sft.toml` and read
# by pydantic-settings; kyutai-labs/moshi-finetune example/moshi_7B.yaml:8-9 (moshi_paths: hf_repo_id)
SFT = """\
    def main(config):
        model = setup_model(config.model)
        for batch in config.data:
            model(batch).backward()
"""
TOML = """\
    max_steps = 100

    [model]
    name = "{model}"

    [data]
    name = "someone/reverse-text-paragraphs"
    seq_len = 4096
"""


def refs(plan: dict) -> list:
    return [(f["value"], f["confidence"], f["source"]["line"]) for f in plan["fields"].get("model.ref", [])
            if f["adapter"] == "model_config_ref"]


def test_a_model_section_names_the_hub_model(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": SFT, "sft.toml": TOML.format(model="Org-AI/Qwen3-0.6B")})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node", "2", "train.py", "@", "sft.toml",
                   cwd=tmp_path)
    assert refs(plan) == [("Org-AI/Qwen3-0.6B", "low", 4)]  # the dataset repository of [data] is not the model
    assert fact(plan, "model.ref").value == "Org-AI/Qwen3-0.6B"


def test_a_repo_id_key_in_a_yaml_names_the_hub_model(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": SFT, "example/seven.yaml":
                     "data:\n  train_data: ''\nmoshi_paths:\n  hf_repo_id: \"lab/speech-7b-bf16\"\nbatch_size: 16\n"})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node", "8", "-m", "train", "example/seven.yaml",
                   cwd=tmp_path)
    assert refs(plan) == [("lab/speech-7b-bf16", "low", 4)]


def test_twin_other_models_data_and_local_folders_are_not_the_model(cli, tmp_path: Path) -> None:
    toml = TOML.format(model="Org-AI/Qwen3-0.6B").replace("[model]", "[reward_model]")
    write(tmp_path, {"train.py": SFT, "sft.toml": toml})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "@", "sft.toml", cwd=tmp_path)
    assert refs(plan) == []  # a reward model's section, and [data] names a dataset
    write(tmp_path, {"sft.toml": TOML.format(model="ckpt/step-100"), "ckpt/step-100/config.json": "{}"})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "@", "sft.toml", cwd=tmp_path)
    assert refs(plan) == []  # a local checkpoint folder, not a Hub id


def test_twin_two_hub_models_named_decide_nothing_and_the_code_wins(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": SFT, "sft.toml": TOML.format(model="Org-AI/Qwen3-0.6B") +
                     "\n[model2]\nmodel_name_or_path = \"Org-AI/Qwen3-4B\"\n"})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "@", "sft.toml", cwd=tmp_path)
    assert refs(plan) == []
    code = ("from transformers import AutoModelForCausalLM\n\n"
            "model = AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-3.2-1B\")\nmodel.train()\n")
    write(tmp_path, {"train.py": code, "sft.toml": TOML.format(model="Org-AI/Qwen3-0.6B")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "@", "sft.toml", cwd=tmp_path)
    assert refs(plan) == [("Org-AI/Qwen3-0.6B", "low", 4)]
    assert fact(plan, "model.ref").value == "meta-llama/Llama-3.2-1B"  # read from the code: it wins


# --- a config file given keys it lacks, for the project's own model class ---------------------------------
# facebookresearch/MobileLLM @ 8b9769db377d pretrain.py:166-171 (config = AutoConfig.from_pretrained(
# model_args.input_model_filename); config.share_embedding = model_args.share_embedding; model =
# LlamaForCausalLM(config=config), the class of utils/modeling_llama.py, which ties the head when the key is set)
# launched with --input_model_filename ./configs/125M/ whose config.json says tie_word_embeddings false
PRETRAIN = """\
    import argparse

    from transformers import AutoConfig
    from {module} import LlamaForCausalLM

    p = argparse.ArgumentParser()
    p.add_argument("--input_model_filename", type=str)
    args = p.parse_args()
    config = AutoConfig.from_pretrained(args.input_model_filename)
    config.{key} = True
    model = LlamaForCausalLM(config=config)
    model.train()
"""
MOBILE = json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 576,
                     "intermediate_size": 1536, "num_attention_heads": 9, "num_key_value_heads": 3,
                     "num_hidden_layers": 30, "vocab_size": 32000, "tie_word_embeddings": False})


def _mobile(cli, tmp_path: Path, module: str, key: str) -> dict:
    write(tmp_path, {"pretrain.py": PRETRAIN.format(module=module, key=key), "configs/125M/config.json": MOBILE,
                     "utils/__init__.py": "", "utils/modeling_llama.py": "class LlamaForCausalLM:\n    pass\n"})
    return plan_of(cli, "pretrain.py", "--", "torchrun", "--nproc_per_node=8", "pretrain.py",
                   "--input_model_filename", "./configs/125M/", cwd=tmp_path)


def by(plan: dict, adapter: str) -> list:
    return [(f["value"], f["confidence"]) for f in plan["fields"].get("model.num_parameters", [])
            if f["adapter"] == adapter]


def test_new_config_keys_for_the_projects_own_class_leave_the_file_count_out(cli, tmp_path: Path) -> None:
    plan = _mobile(cli, tmp_path, "utils.modeling_llama", "share_embedding")
    assert by(plan, "model_config_file") == []
    assert any("share_embedding (keys the file lacks)" in n for n in plan["notes"])
    assert fact(plan, "model.num_parameters").value == 125_000_000  # the folder's name is what is left


def test_twin_transformers_class_or_a_known_key_keeps_the_low_count(cli, tmp_path: Path) -> None:
    # transformers' own class ignores a key it does not know: the file's count stands, low as before
    untied = by(_mobile(cli, tmp_path, "transformers", "share_embedding"), "model_config_file")
    assert len(untied) == 1 and untied[0][1] == "low" and 140e6 < untied[0][0] < 146e6
    # a key the file has, changed: the architecture reader knows it; the count stays, low
    assert by(_mobile(cli, tmp_path, "utils.modeling_llama", "tie_word_embeddings"), "model_config_file")[0][1] == "low"


# --- a project's own LoRA switched on by a config section or a network module --------------------------------
# kyutai-labs/moshi-finetune @ the benchmark's commit example/moshi_7B.yaml:11-14 (full_finetuning: false,
# lora: {enable: true, rank: 128}) read by train.py into the model's own LoRA layers
MOSHI_TRAIN = """\
    import sys

    import yaml

    args = yaml.safe_load(open(sys.argv[1]))
    model = build_model(lora=args["lora"]["enable"], lora_rank=args["lora"]["rank"])
    for batch in loader:
        model(batch).backward()
"""
MOSHI_YAML = "full_finetuning: false\nlora:\n  {switch}: {value}\n  rank: 128\n  scaling: 2.\nbatch_size: 16\n"


def lora_facts(plan: dict) -> dict:
    return {k: [(f["value"], f["confidence"]) for f in plan["fields"].get(k, []) if f["adapter"] == "lora_switch"]
            for k in ("peft.method", "peft.rank", "task.mode")}


def test_a_lora_section_switched_on_is_the_projects_lora(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": MOSHI_TRAIN, "example/seven.yaml": MOSHI_YAML.format(switch="enable", value="true")})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node", "8", "train.py", "example/seven.yaml",
                   cwd=tmp_path)
    assert lora_facts(plan) == {"peft.method": [("lora", "medium")], "peft.rank": [(128, "medium")],
                                "task.mode": [("lora", "medium")]}
    assert fact(plan, "task.mode").value == "lora"


def test_twin_a_lora_section_switched_off_or_without_a_switch_says_nothing(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": MOSHI_TRAIN, "example/seven.yaml": MOSHI_YAML.format(switch="enable", value="false")})
    off = plan_of(cli, "train.py", "--", "python", "train.py", "example/seven.yaml", cwd=tmp_path)
    assert lora_facts(off) == {"peft.method": [], "peft.rank": [], "task.mode": []}
    write(tmp_path, {"example/seven.yaml": MOSHI_YAML.format(switch="alpha", value="16")})
    bare = plan_of(cli, "train.py", "--", "python", "train.py", "example/seven.yaml", cwd=tmp_path)
    assert lora_facts(bare)["peft.method"] == []


# kohya-ss/sd-scripts @ the benchmark's commit: accelerate launch train_network.py --network_module=networks.lora
# --network_dim=16 (networks/lora.py create_network builds the LoRA layers over the frozen U-Net)
NETWORK = """\
    import argparse
    import importlib

    p = argparse.ArgumentParser()
    p.add_argument("--network_module", type=str)
    p.add_argument("--network_dim", type=int)
    args = p.parse_args()
    network = importlib.import_module(args.network_module).create_network(args.network_dim, unet)
    for batch in loader:
        network(batch).backward()
"""


def test_a_lora_network_module_on_the_launch_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_network.py": NETWORK})
    plan = plan_of(cli, "train_network.py", "--", "accelerate", "launch", "train_network.py",
                   "--network_module=networks.lora", "--network_dim=16", cwd=tmp_path)
    assert lora_facts(plan) == {"peft.method": [("lora", "medium")], "peft.rank": [(16, "medium")],
                                "task.mode": [("lora", "medium")]}


def test_twin_another_network_module_is_not_claimed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train_network.py": NETWORK})
    plan = plan_of(cli, "train_network.py", "--", "accelerate", "launch", "train_network.py",
                   "--network_module=lycoris.kohya", "--network_dim=16", cwd=tmp_path)
    assert lora_facts(plan) == {"peft.method": [], "peft.rank": [], "task.mode": []}


# mistralai/mistral-finetune @ the benchmark's commit: train.py:59-60 TrainArgs.load(config) over example/7B.yaml
# (lora: {rank: 64}, no switch); finetune/args.py:95 lora: LoraArgs = field(default_factory=LoraArgs), the class
# imported one module further (from model.args import LoraArgs; model/args.py:8-10 enable: bool = True)
DC_TRAIN = """\
    import sys

    from finetune.args import TrainArgs


    def train(config):
        args = TrainArgs.load(config)
        model = load_model(args.model_id_or_path, lora=args.lora)
        for batch in loader:
            model(batch).backward()


    if __name__ == "__main__":
        train(sys.argv[1])
"""
DC_ARGS = """\
    from dataclasses import dataclass, field

    from model.args import LoraArgs


    @dataclass
    class TrainArgs:
        model_id_or_path: str = ""
        seq_len: int = 2048
        lora: LoraArgs = field(default_factory=LoraArgs)
"""
DC_LORA = """\
    from dataclasses import dataclass


    @dataclass
    class LoraArgs:
        enable: bool = {enable}
        rank: int = 16
"""


def _mistral(cli, tmp_path: Path, enable: str) -> dict:
    write(tmp_path, {"train.py": DC_TRAIN, "finetune/__init__.py": "", "finetune/args.py": DC_ARGS,
                     "model/__init__.py": "", "model/args.py": DC_LORA.format(enable=enable),
                     "example/7B.yaml": "model_id_or_path: ''\nlora:\n  rank: 64\nseq_len: 32768\n"})
    return plan_of(cli, "train.py", "--", "torchrun", "--nproc-per-node", "8", "-m", "train", "example/7B.yaml",
                   cwd=tmp_path)


def test_a_lora_switch_left_at_its_class_default_two_imports_away(cli, tmp_path: Path) -> None:
    plan = _mistral(cli, tmp_path, "True")
    got = {k: [(f["value"], f["source"]["kind"]) for f in plan["fields"].get(k, []) if f["adapter"] == "dataclass_config"]
           for k in ("peft.method", "peft.rank", "task.mode")}
    # the rank from the file, the switch from the class default
    assert got == {"peft.method": [("lora", "code")], "peft.rank": [(64, "config")], "task.mode": [("lora", "code")]}
    assert fact(plan, "task.mode").value == "lora"


def test_twin_a_lora_class_default_off(cli, tmp_path: Path) -> None:
    plan = _mistral(cli, tmp_path, "False")
    assert not [f for f in plan["fields"].get("peft.method", []) if f["adapter"] == "dataclass_config"]
    assert (fact(plan, "task.mode").value if fact(plan, "task.mode") else None) != "lora"


# OpenGVLab/Ask-Anything @ the benchmark's commit (VideoChat2 stage 3: the model class builds its own LoRA from
# a Python config the code reads, not followed here): LoRA named in a local module, not read -> the mode is not
# stated (a full-training guess was wrong in all four real jobs of this shape), only said in a note
LOOP = """\
    import torch

    from models.chat import build_model

    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for batch in range(10):
        loss = model(batch)
        loss.backward()
        optimizer.step()
"""
CHAT = """\
    import torch


    def build_model(use_lora=True):
        model = torch.nn.Linear(8, 8)
        if use_lora:
            model = add_lora_layers(model, r=16)
        return model
"""


def test_lora_named_but_not_read_leaves_the_mode_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": LOOP, "models/__init__.py": "", "models/chat.py": CHAT})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "task.mode") is None
    assert any("LoRA/PEFT is named" in n and "not known" in n for n in plan["notes"])


def test_twin_no_lora_anywhere_is_plain_training(cli, tmp_path: Path) -> None:
    chat = "import torch\n\n\ndef build_model():\n    return torch.nn.Linear(8, 8)\n"
    write(tmp_path, {"train.py": LOOP, "models/__init__.py": "", "models/chat.py": chat})
    mode = fact(plan_of(cli, "train.py", cwd=tmp_path), "task.mode")
    assert mode is not None and mode.value == "train"


# --- a script without a launch line or any distributed code is one process ------------------------------------
# open-thought/tiny-grpo @ the benchmark's commit README.md:24 (python train.py), train.py:197,216 (one cuda device,
# no process group, no wrapper)
GRPO = """\
    import torch
    from torch.utils.data import DataLoader

    device = torch.device("cuda", 0)
    model = torch.nn.Linear(8, 8).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
    loader = DataLoader(list(range(64)), batch_size=16)
    for batch in loader:
        loss = model(torch.randn(16, 8, device=device)).sum()
        loss.backward()
        optimizer.step()
"""


def test_a_bare_script_without_distributed_code_is_one_process(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": GRPO})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert (world.value, world.confidence, world.adapter) == (1, "medium", "bare_script")
    assert fact(plan, "dist.sharding").value == "none"
    assert fact(plan, "batch.global").value == 16


def test_twin_distributed_code_or_a_launch_line_is_not_one_process_here(cli, tmp_path: Path) -> None:
    ddp = GRPO.replace("device = ", "torch.distributed.init_process_group('nccl')\n    device = ")
    write(tmp_path, {"train.py": ddp})
    world = fact(plan_of(cli, "train.py", cwd=tmp_path), "dist.world_size")
    assert world is None or world.adapter != "bare_script"
    write(tmp_path, {"train.py": GRPO})
    plan = plan_of(cli, "train.py", "--", "torchrun", "--nproc_per_node", "2", "train.py", cwd=tmp_path)
    assert not [f for f in plan["fields"].get("dist.world_size", []) if f["adapter"] == "bare_script"]
    assert fact(plan, "dist.world_size").value == 2
