"""Shapes of the jobs whose model the benchmark did not find (issue 15, branch jobs26), reproduced in
minimal fixtures of our own, each citing the repository, path and commit it copies the shape of. The
benchmark sets are in-sample for these fixes (their misses were read before they were written)."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# CarperAI/trlx @ 3340c2f3a56d1d14fdd5f13ad575121fa26b6d92: trlx/data/configs.py (dataclass sections,
# ``peft_config: Any = None``, ``minibatch_size: Optional[int] = None``) and examples/hh/ppo_hh.py:27-106,
# 208-222 (a module-level ``TRLConfig(...)`` literal, branches on ``os.environ.get("CONFIG_NAME")`` that
# change its keys, ``main`` handing ``TRLConfig.update(default_config, hparams)`` to ``trlx.train``).
TRLX_CONFIGS = """\
    from dataclasses import dataclass, field
    from typing import Any, Optional


    @dataclass
    class ModelConfig:
        model_path: str
        num_layers_unfrozen: int = -1
        peft_config: Any = None


    @dataclass
    class OptimizerConfig:
        name: str
        kwargs: dict = field(default_factory=dict)


    @dataclass
    class TrainConfig:
        seq_length: int
        batch_size: int
        trainer: str = "AcceleratePPOTrainer"
        minibatch_size: Optional[int] = None


    @dataclass
    class TRLConfig:
        train: TrainConfig
        model: ModelConfig
        optimizer: OptimizerConfig

        @classmethod
        def update(cls, base, updates):
            return base
"""

TRLX_SCRIPT = """\
    import os
    import sys

    import trlx
    from trlx.data.configs import ModelConfig, OptimizerConfig, TrainConfig, TRLConfig

    default_config = TRLConfig(
        train=TrainConfig(seq_length=512, batch_size=8, trainer="AcceleratePPOTrainer"),
        model=ModelConfig(model_path="org/base-6b", num_layers_unfrozen=2),
        optimizer=OptimizerConfig(name="adamw", kwargs=dict(lr=1e-5)),
    )

    size = os.environ.get("RUN_SIZE")
    if size == "small":
        default_config.train.batch_size = 32
        default_config.model.model_path = "org/small-125m"
    elif size == "large":
        default_config.train.batch_size = 2
        default_config.model.model_path = "org/large-20b"


    def main(hparams={}):
        config = TRLConfig.update(default_config, hparams)
        trlx.train(prompts=["a", "b"], reward_fn=len, config=config)


    if __name__ == "__main__":
        main({})
"""


def _trlx(tmp_path: Path, script: str = TRLX_SCRIPT) -> None:
    write(tmp_path, {"trlx/__init__.py": "def train(**kwargs):\n    pass\n",
                     "trlx/data/__init__.py": "", "trlx/data/configs.py": TRLX_CONFIGS,
                     "examples/ppo.py": script})


def test_trlx_train_reads_the_model_batch_optimizer_and_peft_of_its_config(cli, tmp_path: Path) -> None:
    _trlx(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "--num_processes", "4", "ppo.py", cwd=tmp_path / "examples")
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "org/base-6b"
    # the branches on an environment variable the launch does not set: the built value, a guess (low)
    assert ref.confidence == "low" and "environment variable" in ref.source.detail
    assert ref.source.line == 9
    assert winner(plan, "batch.micro") == 8
    assert winner(plan, "optimizer.name") == "AdamW"
    assert winner(plan, "peft.method") == "none"


def test_trlx_config_variable_set_on_the_launch_line_leaves_the_switched_keys_unknown(cli, tmp_path: Path) -> None:
    _trlx(tmp_path)
    plan = plan_of(cli, "--", "env", "RUN_SIZE=small", "python", "ppo.py", cwd=tmp_path / "examples")
    assert winner(plan, "model.ref") is None
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "optimizer.name") == "AdamW"  # no branch changes it


def test_trlx_keys_switched_by_a_branch_that_may_run_stay_unknown(cli, tmp_path: Path) -> None:
    # an ``else:`` arm runs when the variable is unset: the built value is not the job's
    script = TRLX_SCRIPT.replace('    elif size == "large":', '    else:')
    _trlx(tmp_path, script)
    plan = plan_of(cli, "--", "python", "ppo.py", cwd=tmp_path / "examples")
    assert winner(plan, "model.ref") is None
    assert winner(plan, "batch.micro") is None


def test_a_minibatch_or_a_peft_config_is_not_read_as_the_plain_trlx_job(cli, tmp_path: Path) -> None:
    script = TRLX_SCRIPT.replace('trainer="AcceleratePPOTrainer")', 'minibatch_size=2)').replace(
        "num_layers_unfrozen=2)", 'peft_config={"r": 8})')
    _trlx(tmp_path, script)
    plan = plan_of(cli, "--", "python", "ppo.py", cwd=tmp_path / "examples")
    assert winner(plan, "model.ref") == "org/base-6b"
    assert winner(plan, "batch.micro") is None  # forwarded in minibatches of 2
    assert winner(plan, "peft.method") != "none"


def test_a_config_given_to_a_project_train_function_is_not_trlx(cli, tmp_path: Path) -> None:
    script = TRLX_SCRIPT.replace("import trlx\n", "import mytrain\n").replace("trlx.train(", "mytrain.train(")
    _trlx(tmp_path, script)
    write(tmp_path, {"examples/mytrain.py": "def train(**kwargs):\n    pass\n"})
    plan = plan_of(cli, "--", "python", "ppo.py", cwd=tmp_path / "examples")
    assert winner(plan, "model.ref") is None
    assert winner(plan, "optimizer.name") is None


def test_the_model_path_given_to_trlx_train_wins_over_its_config(cli, tmp_path: Path) -> None:
    # trlx/trlx.py:89-90 ``if model_path: config.model.model_path = model_path`` (the first argument, as
    # trlx's examples/simulacra.py ``trlx.train("gpt2", ...)`` gives it)
    _trlx(tmp_path, TRLX_SCRIPT.replace("trlx.train(prompts", 'trlx.train("org/given-1b", prompts'))
    plan = plan_of(cli, "--", "python", "ppo.py", cwd=tmp_path / "examples")
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "org/given-1b" and ref.confidence == "medium"
    _trlx(tmp_path, TRLX_SCRIPT.replace("trlx.train(prompts", "trlx.train(sys.argv[2], prompts"))
    plan = plan_of(cli, "--", "python", "ppo.py", cwd=tmp_path / "examples")
    assert winner(plan, "model.ref") is None  # a path not known: not the config's


# XLabs-AI/x-flux @ 47495425: train_configs/test_lora.yaml:1 ``model_name: "flux-dev"``,
# train_flux_lora_deepspeed.py:48-56,58-74,108 (``args = OmegaConf.load(parse_args())``, the name handed
# through a helper of the script), src/flux/util.py:167-170,307-317 (a module-level table of model specs
# and a loader that downloads ``configs[name].repo_id``).
SPEC_UTIL = """\
    from dataclasses import dataclass

    import torch
    from huggingface_hub import hf_hub_download


    @dataclass
    class Spec:
        repo_id: str
        repo_flow: str
        depth: int


    configs = {
        "img-dev": Spec(repo_id="org/Image-Dev", repo_flow="dev.safetensors", depth=19),
        "img-fast": Spec(repo_id="org/Image-Fast", repo_flow="fast.safetensors", depth=19),
    }


    def load_flow(name, device="cuda", hf_download=True):
        path = None
        if configs[name].repo_id is not None and hf_download:
            path = hf_hub_download(configs[name].repo_id, configs[name].repo_flow)
        return torch.nn.Linear(configs[name].depth, 2)


    def describe(name):
        return configs[name].repo_id
"""

SPEC_SCRIPT = """\
    import argparse

    import torch
    from accelerate import Accelerator
    from omegaconf import OmegaConf
    from torch.utils.data import DataLoader

    from util import load_flow


    def get_models(name, device):
        return load_flow(name, device="cpu")


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default=None, required=True)
        args = parser.parse_args()
        return args.config


    def main():
        args = OmegaConf.load(parse_args())
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        model = get_models(name=args.model_name, device=accelerator.device)
        loader = DataLoader(range(8), batch_size=args.batch_size)
        optimizer = torch.optim.AdamW(model.parameters())
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for x in loader:
            accelerator.backward(model(x).sum())
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _spec_job(tmp_path: Path, name: str = "img-dev", util: str = SPEC_UTIL) -> dict:
    write(tmp_path, {"util.py": util, "train.py": SPEC_SCRIPT,
                     "cfg.yaml": f'model_name: "{name}"\nbatch_size: 2\ngradient_accumulation_steps: 1\n'})
    return {"cwd": tmp_path}


def test_a_config_key_selecting_a_model_spec_gives_its_repo_id(cli, tmp_path: Path) -> None:
    _spec_job(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "train.py", "--config", "cfg.yaml", cwd=tmp_path)
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "org/Image-Dev" and ref.confidence == "medium"
    assert "configs['img-dev']" in ref.source.detail
    assert winner(plan, "batch.micro") == 2


def test_a_spec_key_not_in_the_table_or_a_table_no_loader_reads_states_no_model(cli, tmp_path: Path) -> None:
    _spec_job(tmp_path, name="img-other")
    plan = plan_of(cli, "--", "accelerate", "launch", "train.py", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") is None
    # the loader reads a depth from the table and downloads nothing: no repository is the model's
    util = SPEC_UTIL.replace("        if configs[name].repo_id is not None and hf_download:\n"
                             "            path = hf_hub_download(configs[name].repo_id, configs[name].repo_flow)\n", "")
    _spec_job(tmp_path, util=util)
    plan = plan_of(cli, "--", "accelerate", "launch", "train.py", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


# mlfoundations/open_lm @ 9bb92ef1: open_lm/model.py:39-75 (every JSON file of ``Path(__file__).parent /
# f"model_configs/"`` loaded into a dict by its stem at import time), :424-434 (``_MODEL_CONFIGS[args.model]``),
# open_lm/model_configs/open_lm_3b.json (hidden_dim, n_layers, vocab_size, weight_tying false).
JSON_REGISTRY = """\
    import json
    from copy import deepcopy
    from pathlib import Path

    import torch

    _CONFIG_PATHS = [Path(__file__).parent / f"model_configs/"]
    _CONFIGS = {}


    def _rescan():
        for folder in _CONFIG_PATHS:
            for cf in folder.glob("*.json"):
                with open(cf) as f:
                    _CONFIGS[cf.stem] = json.load(f)


    _rescan()


    def create_model(args):
        cfg = deepcopy(_CONFIGS[args.model])
        return torch.nn.Linear(cfg["hidden_dim"], cfg["vocab_size"])
"""

JSON_MAIN = """\
    import argparse

    import torch

    from lm.model import create_model


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--model", type=str, default="m_small")
        args = parser.parse_args()
        model = create_model(args)
        optimizer = torch.optim.AdamW(model.parameters())
        for _ in range(3):
            model(torch.randn(4, 8)).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _json_job(tmp_path: Path, model: str = JSON_REGISTRY) -> None:
    write(tmp_path, {"lm/__init__.py": "", "lm/model.py": model, "lm/main.py": JSON_MAIN,
                     "lm/model_configs/m_1b.json": '{"hidden_dim": 2048, "n_layers": 16, "n_heads": 16, '
                                                   '"vocab_size": 50000, "weight_tying": false}\n'})


def test_a_model_option_naming_a_json_architecture_file_gives_a_low_confidence_size(cli, tmp_path: Path) -> None:
    _json_job(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc-per-node", "2", "-m", "lm.main", "--model", "m_1b", cwd=tmp_path)
    size = fact(plan, "model.num_parameters")
    # 12 * 16 * 2048^2 + 2 * 50000 * 2048 (an untied head)
    assert size is not None and size.value == 12 * 16 * 2048 ** 2 + 2 * 50000 * 2048
    assert size.confidence == "low" and "m_1b.json" in size.source.path


def test_no_json_size_for_an_unknown_name_a_path_or_a_folder_no_code_loads(cli, tmp_path: Path) -> None:
    _json_job(tmp_path)
    for value in ("m_7b", "org/m_1b"):  # no such file; a hub id, not a registry name
        plan = plan_of(cli, "--", "python", "-m", "lm.main", "--model", value, cwd=tmp_path)
        assert winner(plan, "model.num_parameters") is None
    _json_job(tmp_path, JSON_REGISTRY.replace("json.load(f)", "f.read()"))
    plan = plan_of(cli, "--", "python", "-m", "lm.main", "--model", "m_1b", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


# microsoft/Swin-Transformer @ f82860b configs/swin/swin_base_patch4_window7_224.yaml:2-3 (``MODEL: TYPE:
# swin, NAME: swin_base_patch4_window7_224``) beside the sizes ``build_model(config)`` reads from MODEL.SWIN
# (the yacs fixture of tests/test_config_object_model.py).
def test_the_model_sections_name_is_the_model_reference_of_the_counted_build(cli, tmp_path: Path) -> None:
    from tests.test_config_object import ours
    from tests.test_config_object_model import project
    from tests.test_config_object_yacs import LINE

    project(tmp_path)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    ref = ours(plan, "model.ref")
    assert ref is not None and ref.value == "swin_base_patch4_window7_224" and ref.confidence == "medium"
    assert ref.source.path == "configs/swin_base.yaml"


def test_no_model_name_when_the_configuration_builds_no_counted_model(cli, tmp_path: Path) -> None:
    from tests.test_config_object import ours
    from tests.test_config_object_model import project
    from tests.test_config_object_yacs import LINE

    project(tmp_path, model_type="unknown")
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "model.num_parameters") is None
    assert ours(plan, "model.ref") is None


# ise-uiuc/magicoder @ 3ef43f0f: src/magicoder/train.py:19-22,126-131,133-143,177-183 (HfArgumentParser
# dataclasses, the walrus fallback ``if (path := model_args.path) is None: path = key``, the helper called
# with both) and src/magicoder/llm_wrapper.py:389-421 (the helper of another module: the same fallback, a
# keyword dict filled under ``if use_flash_attention:`` and spread into ``from_pretrained``).
HELPER_WRAPPER = """\
    import torch
    from transformers import AutoModelForCausalLM


    class State:
        def __init__(self, model):
            self.model = model


    def get_model_state(model_key, model_name_or_path=None, inference_mode=True, use_flash_attention=False):
        if model_name_or_path is None:
            model_name_or_path = model_key
        other_kwargs: dict = {}
        if inference_mode:
            other_kwargs["device_map"] = "auto"
        if use_flash_attention:
            other_kwargs["use_flash_attention_2"] = True
        model = AutoModelForCausalLM.from_pretrained(model_name_or_path, torch_dtype=torch.bfloat16,
                                                     **other_kwargs)
        return State(model)
"""

HELPER_TRAIN = """\
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, Trainer, TrainingArguments

    from proj.wrapper import get_model_state


    @dataclass(frozen=True)
    class ModelArguments:
        model_key: str
        model_name_or_path: str | None = None


    @dataclass(frozen=True)
    class Args:
        use_flash_attention: bool = field(default=False)


    def train():
        parser = HfArgumentParser((ModelArguments, TrainingArguments, Args))
        model_args, training_args, args = parser.parse_args_into_dataclasses()
        model_key = model_args.model_key
        if (model_name_or_path := model_args.model_name_or_path) is None:
            model_name_or_path = model_key
        state = get_model_state(model_key, model_name_or_path, inference_mode=False,
                                use_flash_attention=args.use_flash_attention)
        trainer = Trainer(model=state.model, args=training_args, train_dataset=[])
        trainer.train()


    if __name__ == "__main__":
        train()
"""


def _helper_job(tmp_path: Path, wrapper: str = HELPER_WRAPPER) -> None:
    write(tmp_path, {"src/proj/__init__.py": "", "src/proj/wrapper.py": wrapper, "src/proj/train.py": HELPER_TRAIN})


def test_a_model_loaded_by_a_helper_of_another_module_from_the_walrus_fallback(cli, tmp_path: Path) -> None:
    _helper_job(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "-m", "proj.train", "--model_key", "org/coder-7b",
                   "--use_flash_attention", "True", "--output_dir", "out", "--bf16", "True", cwd=tmp_path / "src")
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "org/coder-7b" and ref.confidence == "medium"
    assert "get_model_state()" in ref.source.detail
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"
    # the helper loads bf16 weights the Trainer trains as they are (with --bf16 True autocast over them)
    assert winner(plan, "precision.weights_bits") == 16
    assert winner(plan, "precision.mode") == "bf16"
    # the weights path given wins over the key
    plan = plan_of(cli, "--", "accelerate", "launch", "-m", "proj.train", "--model_key", "org/coder-7b",
                   "--model_name_or_path", "org/coder-7b-ft", "--output_dir", "out", cwd=tmp_path / "src")
    assert winner(plan, "model.ref") == "org/coder-7b-ft"
    assert fact(plan, "model.attn_implementation") is None or \
        fact(plan, "model.attn_implementation").adapter != "model_helper_load"


def test_a_helper_that_rebinds_its_path_otherwise_states_no_model(cli, tmp_path: Path) -> None:
    wrapper = HELPER_WRAPPER.replace("        if model_name_or_path is None:\n            model_name_or_path = model_key\n",
                                     "        model_name_or_path = '/models/' + model_key\n")
    _helper_job(tmp_path, wrapper)
    plan = plan_of(cli, "--", "accelerate", "launch", "-m", "proj.train", "--model_key", "org/coder-7b",
                   "--use_flash_attention", "True", "--output_dir", "out", cwd=tmp_path / "src")
    assert fact(plan, "model.ref") is None or fact(plan, "model.ref").adapter != "model_helper_load"
    assert fact(plan, "model.attn_implementation") is None or \
        fact(plan, "model.attn_implementation").adapter != "model_helper_load"


# willccbb/verifiers @ 39f0675a: examples/grpo/train_wordle.py:3,30-33,61 (``import verifiers as vf``,
# ``model_name = f"willcb/Qwen3-{size}-Wordle"`` from ``--size``, ``vf.get_model_and_tokenizer(model_name)``),
# verifiers/__init__.py:101-104 (a lazy-import table ``"name": "pkg.mod:func"``) and
# verifiers/utils/model_utils.py:75-113 (``get_model_and_tokenizer`` hands the name to ``get_model``, whose
# ``model_kwargs`` defaults to a dict with ``attn_implementation`` and which loads the name in either arm).
LAZY_INIT = """\
    import importlib

    _LAZY_IMPORTS = {
        "get_model_and_tokenizer": "vfpkg.utils.models:get_model_and_tokenizer",
    }


    def __getattr__(name):
        module, attr = _LAZY_IMPORTS[name].split(":")
        return getattr(importlib.import_module(module), attr)
"""

LAZY_MODELS = """\
    from importlib.util import find_spec

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer


    def get_model(model_name, use_liger=True, model_kwargs=None):
        if model_kwargs is None:
            model_kwargs = dict(torch_dtype=torch.bfloat16, attn_implementation="flash_attention_2", use_cache=False)
        if find_spec("liger_kernel") is not None and use_liger:
            from liger_kernel.transformers import AutoLigerKernelForCausalLM

            return AutoLigerKernelForCausalLM.from_pretrained(model_name, **model_kwargs)
        return AutoModelForCausalLM.from_pretrained(model_name, **model_kwargs)


    def get_model_and_tokenizer(model_name, use_liger=True, model_kwargs=None):
        model = get_model(model_name, use_liger, model_kwargs)
        tokenizer = AutoTokenizer.from_pretrained(model_name)
        return model, tokenizer
"""

LAZY_TRAIN = """\
    import argparse

    import vfpkg as vf


    def main(args):
        size = args.size
        model_name = f"org/Tiny-{size}-Game"
        model, tokenizer = vf.get_model_and_tokenizer(model_name)
        return model


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--size", "-s", type=str, default="1.7B")
        main(parser.parse_args())
"""


def _lazy_job(tmp_path: Path, train: str = LAZY_TRAIN) -> None:
    write(tmp_path, {"vfpkg/__init__.py": LAZY_INIT, "vfpkg/utils/__init__.py": "", "vfpkg/utils/models.py": LAZY_MODELS,
                     "examples/train_game.py": train})


def test_a_package_helper_behind_a_lazy_import_table_loads_the_formatted_name(cli, tmp_path: Path) -> None:
    _lazy_job(tmp_path)
    plan = plan_of(cli, "--", "accelerate", "launch", "--num-processes", "2", "examples/train_game.py", "--size", "4B",
                   cwd=tmp_path)
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "org/Tiny-4B-Game" and ref.confidence == "medium"
    assert "get_model()" in ref.source.detail
    assert winner(plan, "model.attn_implementation") == "flash_attention_2"


def test_a_keyword_dict_the_caller_gives_or_a_name_not_known_states_nothing(cli, tmp_path: Path) -> None:
    # the caller's own model_kwargs replace the helper's default dict: its attention is not the helper's
    _lazy_job(tmp_path, LAZY_TRAIN.replace("vf.get_model_and_tokenizer(model_name)",
                                           "vf.get_model_and_tokenizer(model_name, model_kwargs=kw)"))
    plan = plan_of(cli, "--", "python", "examples/train_game.py", cwd=tmp_path)
    assert winner(plan, "model.ref") == "org/Tiny-1.7B-Game"
    assert fact(plan, "model.attn_implementation") is None or \
        fact(plan, "model.attn_implementation").adapter != "model_helper_load"
    _lazy_job(tmp_path, LAZY_TRAIN.replace('f"org/Tiny-{size}-Game"', 'f"org/Tiny-{size:>4}-Game"'))
    plan = plan_of(cli, "--", "python", "examples/train_game.py", cwd=tmp_path)
    assert winner(plan, "model.ref") is None


# jingyaogong/minimind @ d65ef2c0: model/model_minimind.py:10-48 (a PretrainedConfig subclass whose __init__
# computes its fields from its parameters and ``kwargs.get`` defaults, ``math.ceil(hidden_size * math.pi / 64)
# * 64``), the model class naming it as ``config_class``; trainer/train_pretrain.py:97-100,116,134 (the config
# built from argparse values under ``if __name__ == "__main__":`` and handed to a helper).
KW_MODEL = """\
    import math

    import torch
    from torch import nn
    from transformers import PretrainedConfig, PreTrainedModel


    class TinyConfig(PretrainedConfig):
        model_type = "tiny"

        def __init__(self, hidden_size=512, num_hidden_layers=4, use_moe=False, **kwargs):
            super().__init__(**kwargs)
            self.hidden_size = hidden_size
            self.num_hidden_layers = num_hidden_layers
            self.use_moe = use_moe
            self.vocab_size = kwargs.get("vocab_size", 6400)
            self.num_attention_heads = kwargs.get("num_attention_heads", 8)
            self.num_key_value_heads = kwargs.get("num_key_value_heads", 4)
            self.head_dim = kwargs.get("head_dim", self.hidden_size // self.num_attention_heads)
            self.intermediate_size = kwargs.get("intermediate_size", math.ceil(hidden_size * math.pi / 64) * 64)
            self.tie_word_embeddings = kwargs.get("tie_word_embeddings", True)
            self.rope_scaling = {"factor": 16} if kwargs.get("scaling", False) else None


    class TinyForCausalLM(PreTrainedModel):
        config_class = TinyConfig

        def __init__(self, config):
            super().__init__(config)
            self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
"""

KW_TRAIN = """\
    import argparse

    import torch

    from model.tiny import TinyConfig
    from trainer.utils import init_model

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--hidden_size", default=768, type=int)
        parser.add_argument("--num_hidden_layers", default=8, type=int)
        parser.add_argument("--use_moe", default=0, type=int, choices=[0, 1])
        args = parser.parse_args()
        lm_config = TinyConfig(hidden_size=args.hidden_size, num_hidden_layers=args.num_hidden_layers,
                               use_moe=bool(args.use_moe))
        model = init_model(lm_config)
        optimizer = torch.optim.AdamW(model.parameters())
"""


def _kw_job(tmp_path: Path, model: str = KW_MODEL) -> None:
    write(tmp_path, {"model/__init__.py": "", "model/tiny.py": model, "trainer/__init__.py": "",
                     "trainer/utils.py": "from model.tiny import TinyForCausalLM\n\n\ndef init_model(c):\n"
                                         "    return TinyForCausalLM(c)\n",
                     "trainer/train_pretrain.py": KW_TRAIN})


def _llama_layout(d: int, layers: int, heads: int, kv: int, inter: int, vocab: int) -> int:
    hd = d // heads
    per_layer = d * heads * hd + 2 * d * kv * hd + heads * hd * d + 3 * d * inter + 2 * d
    return layers * per_layer + vocab * d + d  # the head tied to the embedding


def test_a_config_class_computing_its_fields_is_sized_as_a_llama_layout_at_low(cli, tmp_path: Path) -> None:
    _kw_job(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "train_pretrain.py", cwd=tmp_path / "trainer")
    size = fact(plan, "model.num_parameters")
    # 768 * pi / 64 -> 38 * 64 = 2432
    assert size is not None and size.value == _llama_layout(768, 8, 8, 4, 2432, 6400)
    assert size.confidence == "low" and "TinyForCausalLM" in size.source.detail
    plan = plan_of(cli, "--", "python", "train_pretrain.py", "--hidden_size", "512", "--num_hidden_layers", "2",
                   cwd=tmp_path / "trainer")
    assert winner(plan, "model.num_parameters") == _llama_layout(512, 2, 8, 4, 1664, 6400)  # 512 * pi / 64 -> 26 * 64


def test_a_mixture_of_experts_or_an_init_doing_more_states_no_size(cli, tmp_path: Path) -> None:
    _kw_job(tmp_path)
    plan = plan_of(cli, "--", "python", "train_pretrain.py", "--use_moe", "1", cwd=tmp_path / "trainer")
    assert winner(plan, "model.num_parameters") is None
    _kw_job(tmp_path, KW_MODEL.replace("        self.hidden_size = hidden_size\n",
                                       "        self.hidden_size = hidden_size\n        self.setup()\n"))
    plan = plan_of(cli, "--", "python", "train_pretrain.py", cwd=tmp_path / "trainer")
    assert winner(plan, "model.num_parameters") is None


# bigcode-project/starcoder2-self-align @ 0b19dbcd src/star_align/llm_wrapper.py:431-440: under the
# flash-attention switch, an ``if`` on the transformers version whose two arms ask for the same attention
VERSION_ARMS = HELPER_WRAPPER.replace(
    '        if use_flash_attention:\n            other_kwargs["use_flash_attention_2"] = True\n',
    '        if use_flash_attention:\n            import transformers\n\n'
    '            if transformers.__version__ <= "4.35.0":\n                other_kwargs["use_flash_attention_2"] = True\n'
    '            else:\n                other_kwargs["attn_implementation"] = "{other}"\n')


def test_version_arms_asking_for_the_same_attention_decide_it(cli, tmp_path: Path) -> None:
    _helper_job(tmp_path, VERSION_ARMS.replace("{other}", "flash_attention_2"))
    line = ["--", "accelerate", "launch", "-m", "proj.train", "--model_key", "org/coder-7b", "--use_flash_attention",
            "True", "--output_dir", "out"]
    assert winner(plan_of(cli, *line, cwd=tmp_path / "src"), "model.attn_implementation") == "flash_attention_2"
    _helper_job(tmp_path, VERSION_ARMS.replace("{other}", "sdpa"))  # the arms disagree: not known
    got = fact(plan_of(cli, *line, cwd=tmp_path / "src"), "model.attn_implementation")
    assert got is None or got.adapter != "model_helper_load"
