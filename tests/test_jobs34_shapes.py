"""Set 21's shapes (branch jobs34): fixtures of our own rebuilding the real code's shape, each
with a must-read test and a twin that must stay as before.

- two DataLoaders, neither named train: a prompt loader around a replay-buffer loader whose
  batches are back-propagated (open-thought/tiny-grpo @ eafedd78 ``train.py:239-245`` prompt
  loader with ``batch_size=rollouts_per_step``, ``:317-351`` the replay-buffer loader with
  ``batch_size=train_batch_size`` and ``loss.backward()`` in its loop);
- a launch script running ``python3 -m pkg.cli.train`` of a package vendored in a sub-folder with
  its own ``setup.py``, started through ``ray job submit`` (RUCAIBox/R1-Searcher @ 631167cb
  ``scripts/qwen_reinforce_plus_train.sh:43`` and ``OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py``: a
  Ray driver whose workers take the GPUs, the per-GPU batch an option documented "batch size per
  GPU", :271).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

GRPO = """\
    import torch
    from torch.utils.data import DataLoader


    def main():
        train_batch_size = 16
        rollouts_per_step = 32
        model = torch.nn.Linear(8, 8).cuda()
        opt = torch.optim.Adam(model.parameters(), lr=1e-5)
        prompts = [torch.randn(8) for _ in range(1024)]
        prompt_loader = DataLoader(prompts, batch_size=rollouts_per_step, shuffle=True, pin_memory=False)
        for prompt_batch in prompt_loader:
            with torch.no_grad():
                buffer = [model(p) for p in prompt_batch]
            experience_sampler = DataLoader(buffer, batch_size=train_batch_size, shuffle=True, num_workers=2)
            for epoch in range(1):
                for exp in experience_sampler:
                    opt.zero_grad()
                    loss = model(exp).sum()
                    loss.backward()
                    opt.step()


    main()
"""


def test_the_loader_whose_loop_backpropagates_gives_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": GRPO})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 16
    assert fact(plan, "data.num_workers").value == 2


def test_twin_backward_in_the_outer_loop_keeps_the_outer_loader(cli, tmp_path):
    # the inner loader only gathers rollouts; backward runs once per prompt batch
    text = GRPO.replace("""            for epoch in range(1):
                for exp in experience_sampler:
                    opt.zero_grad()
                    loss = model(exp).sum()
                    loss.backward()
                    opt.step()""", """            for exp in experience_sampler:
                buffer.append(exp)
            opt.zero_grad()
            loss = model(prompt_batch).sum()
            loss.backward()
            opt.step()""")
    assert text != GRPO
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32


def test_twin_a_loader_named_train_still_wins(cli, tmp_path):
    text = GRPO.replace("prompt_loader", "train_prompts")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32


PPO_CLI = """\
    import argparse

    import ray


    def train(args):
        ray.init()
        return args


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--micro_train_batch_size", type=int, default=4, help="batch size per GPU")
        parser.add_argument("--micro_rollout_batch_size", type=int, default=8, help="batch size per GPU")
        parser.add_argument("--train_batch_size", type=int, default=128, help="Global training batch size")
        parser.add_argument("--pretrain", type=str, default=None)
        train(parser.parse_args())
"""

PPO_SH = """\
    #!/bin/bash
    TBS=256
    ray job submit --address="http://127.0.0.1:8267" \\
       -- python3 -m rlkit.cli.train_ppo_ray \\
       --pretrain /data/models/base \\
       --micro_train_batch_size 2 \\
       --micro_rollout_batch_size 1 \\
       --train_batch_size ${TBS}
"""


def _vendored(tmp_path, forks=("RLKit-RAG",)):
    files = {"scripts/train.sh": PPO_SH}
    for fork in forks:
        files.update({f"{fork}/setup.py": "from setuptools import setup\nsetup(name='rlkit')\n",
                      f"{fork}/rlkit/__init__.py": "", f"{fork}/rlkit/cli/__init__.py": "",
                      f"{fork}/rlkit/cli/train_ppo_ray.py": PPO_CLI})
    write(tmp_path, files)


def test_module_of_a_package_vendored_in_a_sub_folder_is_the_job(cli, tmp_path):
    _vendored(tmp_path)
    plan = plan_of(cli, "scripts/train.sh", cwd=tmp_path)
    assert any("RLKit-RAG/rlkit/cli/train_ppo_ray.py" in n for n in plan["notes"]), plan["notes"]
    assert fact(plan, "batch.global").value == 256
    # documented per GPU; the rollout option's documentation says the same but it batches generation
    assert fact(plan, "batch.micro").value == 2
    # a Ray driver: its workers, not this one process, train
    assert fact(plan, "dist.world_size") is None


def test_twin_two_vendored_copies_of_the_package_decide_nothing(cli, tmp_path):
    _vendored(tmp_path, forks=("RLKit-RAG", "RLKit-Old"))
    res = cli("audit", "scripts/train.sh", cwd=tmp_path)
    assert res.code == 3 and "which was not found" in res.out + res.err


def test_twin_plain_python_without_ray_is_one_process(cli, tmp_path):
    write(tmp_path, {"train.py": PPO_CLI.replace("import ray\n", "").replace("ray.init()\n        ", ""),
                     "run.sh": "python train.py --micro_train_batch_size 2\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "batch.micro").value == 2


# a YAML named as config= and merged under the command line's dotted key=value arguments by a
# project helper without parameters, then an Accelerator built from its keys and launched by
# accelerate with several processes and no config file (bytedance/1d-tokenizer @ 942a96fb
# utils/train_utils.py:47-54 get_config, scripts/train_rar.py:39,56-60, README_RAR.md:179-186)
HELPERS = """\
    from omegaconf import OmegaConf


    def get_config():
        cli_conf = OmegaConf.from_cli()
        yaml_conf = OmegaConf.load(cli_conf.config)
        conf = OmegaConf.merge(yaml_conf, cli_conf)
        return conf
"""

GEN_TRAIN = """\
    import torch
    from accelerate import Accelerator

    from tools.helpers import get_config


    def main():
        config = get_config()
        accelerator = Accelerator(
            gradient_accumulation_steps=config.training.gradient_accumulation_steps,
            mixed_precision=config.training.mixed_precision,
        )
        model = torch.nn.Linear(config.model.hidden_size, config.model.hidden_size)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        loader = torch.utils.data.DataLoader(list(range(100)), batch_size=config.training.per_gpu_batch_size)
        model, opt, loader = accelerator.prepare(model, opt, loader)
        for batch in loader:
            with accelerator.accumulate(model):
                loss = model(batch).sum()
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()


    if __name__ == "__main__":
        main()
"""

GEN_YAML = """\
    model:
      hidden_size: 768
    training:
      gradient_accumulation_steps: 1
      mixed_precision: "bf16"
      per_gpu_batch_size: 64
"""


def _generator(tmp_path, helpers=HELPERS, train=GEN_TRAIN):
    write(tmp_path, {"tools/__init__.py": "", "tools/helpers.py": helpers, "scripts/train.py": train,
                     "configs/gen.yaml": GEN_YAML})


_GEN_LINE = ("--", "accelerate", "launch", "--num_machines=2", "--num_processes=16", "scripts/train.py",
             "config=configs/gen.yaml", "training.gradient_accumulation_steps=2")


def test_omegaconf_cli_config_and_its_overrides_reach_the_plan(cli, tmp_path):
    _generator(tmp_path)
    plan = plan_of(cli, *_GEN_LINE, cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 64
    assert fact(plan, "batch.grad_accum").value == 2  # the command line's value over the file's 1
    assert fact(plan, "precision.mode").value == "amp_bf16"
    sharding = fact(plan, "dist.sharding")
    assert sharding.value == "ddp" and sharding.confidence == "medium"
    assert fact(plan, "batch.global").value == 64 * 2 * 16


def test_twin_a_helper_that_merges_the_cli_first_reads_nothing(cli, tmp_path):
    # the file merged over the command line: not the shape (the command line's values are not the job's)
    _generator(tmp_path, helpers=HELPERS.replace("OmegaConf.merge(yaml_conf, cli_conf)",
                                                 "OmegaConf.merge(cli_conf, yaml_conf)"))
    plan = plan_of(cli, *_GEN_LINE, cwd=tmp_path)
    assert fact(plan, "batch.grad_accum") is None or fact(plan, "batch.grad_accum").value != 2


def test_twin_an_accelerator_with_a_deepspeed_plugin_is_not_ddp(cli, tmp_path):
    _generator(tmp_path, train=GEN_TRAIN.replace(
        "            mixed_precision=config.training.mixed_precision,\n",
        "            mixed_precision=config.training.mixed_precision,\n            deepspeed_plugin=plugin,\n"))
    plan = plan_of(cli, *_GEN_LINE, cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "ddp"


def test_twin_an_accelerate_config_file_decides_the_sharding(cli, tmp_path):
    _generator(tmp_path)
    write(tmp_path, {"fsdp.yaml": "distributed_type: FSDP\nnum_processes: 16\nnum_machines: 2\n"
                                  "fsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD\n"})
    line = list(_GEN_LINE)
    line.insert(3, "--config_file=fsdp.yaml")
    plan = plan_of(cli, *line, cwd=tmp_path)
    assert fact(plan, "dist.sharding").value != "ddp"


# timm's train.py shape: a config parser reads -c/--config, the YAML becomes the main parser's defaults
# through set_defaults(**cfg), the line's flags over them; FSDP's strategy bound once with an annotation
# (apple/ml-4m @ cda590fa run_training_4m_fsdp.py:50-58,231-239,524-536)
FOURM = """\
    import argparse

    import torch
    import yaml
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import ShardingStrategy


    def get_args():
        config_parser = parser = argparse.ArgumentParser(add_help=False)
        parser.add_argument('-c', '--config', default='', type=str)
        parser.add_argument('--batch_size', default=256, type=int)
        parser.add_argument('--model', default='fm_base_12e_12d', type=str)
        args_config, remaining = config_parser.parse_known_args()
        if args_config.config:
            with open(args_config.config, 'r') as f:
                cfg = yaml.safe_load(f)
                parser.set_defaults(**cfg)
        return parser.parse_args(remaining)


    def main(args):
        torch.distributed.init_process_group("nccl")
        model = torch.nn.Linear(8, 8).cuda()
        sharding_strategy: ShardingStrategy = ShardingStrategy.SHARD_GRAD_OP
        model = FSDP(model, sharding_strategy=sharding_strategy)
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=args.batch_size)
        opt = torch.optim.AdamW(model.parameters())
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()


    if __name__ == '__main__':
        main(get_args())
"""


def test_yaml_spread_into_parser_defaults_gives_the_options(cli, tmp_path):
    write(tmp_path, {"train.py": FOURM, "cfgs/large.yaml": "batch_size: 64\nmodel: fm_large_24e_24d\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", "--config", "cfgs/large.yaml",
                   cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 64
    assert fact(plan, "model.ref").value == "fm_large_24e_24d"
    assert fact(plan, "dist.sharding").value == "fsdp_grad_op"


def test_twin_the_line_overrides_the_yaml_and_no_yaml_keeps_the_defaults(cli, tmp_path):
    write(tmp_path, {"train.py": FOURM, "cfgs/large.yaml": "batch_size: 64\nmodel: fm_large_24e_24d\n"})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", "--config", "cfgs/large.yaml",
                   "--batch_size", "32", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 256
    assert fact(plan, "model.ref").value == "fm_base_12e_12d"


def test_twin_a_strategy_bound_twice_is_not_taken(cli, tmp_path):
    text = FOURM.replace("        sharding_strategy: ShardingStrategy = ShardingStrategy.SHARD_GRAD_OP\n",
                         "        sharding_strategy: ShardingStrategy = ShardingStrategy.SHARD_GRAD_OP\n"
                         "        if torch.cuda.device_count() > 8:\n"
                         "            sharding_strategy = ShardingStrategy.FULL_SHARD\n")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "fsdp_grad_op"


# a project TrainingArguments subclass (named like the library's) redeclaring optim, parsed by
# HfArgumentParser, and a project Trainer subclass in an imported module, under torchrun
# (facebookresearch/MobileLLM @ 8b9769db utils/process_args.py:45-66, utils/pretrain_trainer.py:13,115,
# pretrain.py:159,203-214, pretrain.sh:8)
PROCESS_ARGS = """\
    from dataclasses import dataclass, field
    from typing import Optional

    import transformers


    @dataclass
    class ModelArguments:
        input_model_filename: Optional[str] = field(default="test-input")


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        optim: Optional[str] = field(default="adamw_torch")
        output_dir: Optional[str] = field(default="/tmp/output/")


    def process_args():
        parser = transformers.HfArgumentParser((ModelArguments, TrainingArguments))
        return parser.parse_args_into_dataclasses()
"""

PRE_TRAINER = """\
    import torch
    from transformers import Trainer


    class PretrainMixin:
        def get_train_dataloader(self):
            return self.train_dataset


    class PretrainTrainer(PretrainMixin, Trainer):
        pass
"""

PRETRAIN = """\
    import torch
    from transformers import AutoConfig, LlamaForCausalLM, default_data_collator

    from utils.pretrain_trainer import PretrainTrainer
    from utils.process_args import process_args


    def train():
        model_args, training_args = process_args()
        config = AutoConfig.from_pretrained(model_args.input_model_filename)
        model = LlamaForCausalLM(config)
        trainer = PretrainTrainer(model=model, args=training_args, train_dataset=None,
                                  data_collator=default_data_collator)
        trainer.train()


    if __name__ == "__main__":
        train()
"""


def _pretrain(tmp_path, trainer=PRE_TRAINER, extra=""):
    write(tmp_path, {"utils/__init__.py": "", "utils/process_args.py": PROCESS_ARGS,
                     "utils/pretrain_trainer.py": trainer, "pretrain.py": PRETRAIN + extra})


_PRE_LINE = ("--", "torchrun", "--nnodes=1", "--nproc_per_node=8", "pretrain.py", "--per_device_train_batch_size",
             "32", "--bf16", "True")


def test_project_trainer_subclass_and_arguments_subclass_defaults(cli, tmp_path):
    _pretrain(tmp_path)
    plan = plan_of(cli, *_PRE_LINE, cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "ddp"
    assert fact(plan, "optimizer.name").value == "adamw_torch"
    assert fact(plan, "compile.enabled").value is False
    assert fact(plan, "batch.global").value == 32 * 8


def test_twin_a_trainer_named_class_that_is_not_hf_owns_nothing(cli, tmp_path):
    _pretrain(tmp_path, trainer=PRE_TRAINER.replace("class PretrainTrainer(PretrainMixin, Trainer):",
                                                    "class PretrainTrainer(PretrainMixin):"))
    plan = plan_of(cli, *_PRE_LINE, cwd=tmp_path)
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or "Trainer" not in (sharding.source.detail or "")


def test_twin_code_that_compiles_or_a_line_that_asks_is_not_the_default(cli, tmp_path):
    _pretrain(tmp_path, extra="\n\n    model_c = torch.compile(torch.nn.Linear(2, 2))\n")
    plan = plan_of(cli, *_PRE_LINE, cwd=tmp_path)
    got = fact(plan, "compile.enabled")
    assert got is None or got.value is True
    _pretrain(tmp_path)
    plan = plan_of(cli, *_PRE_LINE, "--torch_compile", "True", cwd=tmp_path)
    assert fact(plan, "compile.enabled").value is True


# a Hydra DataModule whose loaders hard-code num_workers while its config's num_workers sizes a
# preprocessing step (HazyResearch/based @ 32c1bd4e train/datamodules/language_modeling_hf.py:281-291,
# configs/datamodule/wikitext103.yaml:11)
HY_DATA = """\
    from lightning import LightningDataModule
    from torch.utils.data import DataLoader


    class LMDataModule(LightningDataModule):
        def __init__(self, batch_size: int = 8, num_workers: int = 1, pin_memory: bool = False) -> None:
            super().__init__()
            self.batch_size = batch_size
            self.num_workers = num_workers  # for tokenising the corpus
            self.pin_memory = pin_memory

        def train_dataloader(self):
            return self._data_loader(self.dataset_train, batch_size=self.batch_size, shuffle=True)

        def _data_loader(self, dataset, batch_size, shuffle=False):
            return DataLoader(dataset, batch_size=batch_size, num_workers={workers}, shuffle=shuffle,
                              pin_memory=self.pin_memory)
"""
HY_TRAIN = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
    def main(cfg: DictConfig) -> None:
        datamodule = hydra.utils.instantiate(cfg.datamodule)
        model = hydra.utils.instantiate(cfg.model)
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model=model, datamodule=datamodule)


    if __name__ == "__main__":
        main()
"""


def _hydra_data(tmp_path, workers: str) -> None:
    write(tmp_path, {
        "src/__init__.py": "", "src/data.py": HY_DATA.replace("{workers}", workers), "src/train.py": HY_TRAIN,
        "configs/train.yaml": "defaults:\n  - _self_\n",
    })
    (tmp_path / "configs" / "train.yaml").write_text(
        "datamodule:\n  _target_: src.data.LMDataModule\n  batch_size: 8\n  num_workers: 64\n  pin_memory: true\n"
        "model:\n  _target_: torch.nn.Linear\n  in_features: 4\n  out_features: 4\n"
        "trainer:\n  _target_: lightning.pytorch.trainer.Trainer\n  devices: 1\n")


def test_loader_constant_wins_over_the_datamodule_config_key(cli, tmp_path):
    _hydra_data(tmp_path, "1")
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert fact(plan, "data.num_workers").value == 1
    assert fact(plan, "data.pin_memory").value is True  # the loader takes it from the config


def test_twin_a_loader_that_takes_the_key_keeps_the_config_value(cli, tmp_path):
    _hydra_data(tmp_path, "self.num_workers")
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert fact(plan, "data.num_workers").value == 64


# the NVlabs dnnlib shape: training_loop parameters defaulting to class_name dicts, built by
# construct_class_by_name(**kwargs) (NVlabs/edm2 @ 4bf8162f training/training_loop.py:58-64,128,145)
DNNLIB_LOOP = """\
    import torch

    from dnnlib import util


    def training_loop(
        data_loader_kwargs = dict(class_name='torch.utils.data.DataLoader', pin_memory=True, num_workers=2),
        optimizer_kwargs   = dict(class_name='torch.optim.Adam', betas=(0.9, 0.99)),
        batch_size         = 2048,
    ):
        net = torch.nn.Linear(4, 4).cuda()
        optimizer = util.construct_class_by_name(params=net.parameters(), **optimizer_kwargs)
        loader = iter(util.construct_class_by_name(dataset=list(range(8)), batch_size=batch_size, **data_loader_kwargs))
        for x in loader:
            loss = net(x).sum()
            loss.backward()
            optimizer.step()
"""
DNNLIB_UTIL = """\
    import importlib


    def construct_class_by_name(*args, class_name=None, **kwargs):
        module, _, name = class_name.rpartition('.')
        return getattr(importlib.import_module(module), name)(*args, **kwargs)
"""
DNNLIB_TRAIN = """\
    from training import training_loop


    def main():
        c = dict(batch_size=512)
        training_loop.training_loop(**c)


    if __name__ == '__main__':
        main()
"""


def _dnnlib(tmp_path, train=DNNLIB_TRAIN):
    write(tmp_path, {"dnnlib/__init__.py": "", "dnnlib/util.py": DNNLIB_UTIL, "training/__init__.py": "",
                     "training/training_loop.py": DNNLIB_LOOP, "train.py": train})


def test_class_name_default_dicts_give_the_loader_and_optimizer(cli, tmp_path):
    _dnnlib(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    assert fact(plan, "data.num_workers").value == 2
    assert fact(plan, "data.pin_memory").value is True
    assert fact(plan, "optimizer.name").value == "Adam"


def test_twin_a_caller_that_replaces_the_dict_states_nothing(cli, tmp_path):
    _dnnlib(tmp_path, train=DNNLIB_TRAIN.replace(
        "c = dict(batch_size=512)",
        "c = dict(batch_size=512, data_loader_kwargs=dict(class_name='torch.utils.data.DataLoader', num_workers=9))"))
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node=8", "train.py", cwd=tmp_path)
    got = fact(plan, "data.num_workers")
    assert got is None or got.value != 2
    assert fact(plan, "optimizer.name").value == "Adam"


# TrlParser over a project subclass of TRL's ModelConfig and SFTConfig, the values in a YAML given by
# --config (rhymes-ai/Aria @ 9b25fecb aria/config.py:27-28, aria/train.py:213, recipes/config_full.yaml)
ARIA_CONFIG = """\
    from dataclasses import dataclass, field

    from trl import ModelConfig


    @dataclass
    class MyModelConfig(ModelConfig):
        freeze_vit: bool = field(default=True)
"""
ARIA_TRAIN = """\
    from transformers import AutoModelForCausalLM
    from trl import SFTConfig, SFTTrainer
    from trl.commands.cli_utils import TrlParser

    from pkg.config import MyModelConfig


    def main():
        parser = TrlParser((SFTConfig, MyModelConfig))
        training_args, model_config = parser.parse_args_and_config()
        model = AutoModelForCausalLM.from_pretrained(model_config.model_name_or_path)
        trainer = SFTTrainer(model=model, args=training_args, train_dataset=None)
        trainer.train()


    if __name__ == "__main__":
        main()
"""
ARIA_YAML = """\
model_name_or_path: org/some-model
dataloader_num_workers: 8
per_device_train_batch_size: 8
max_seq_length: 2048
bf16: true
"""


def _aria(tmp_path, yaml_text=ARIA_YAML):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/config.py": ARIA_CONFIG, "pkg/train.py": ARIA_TRAIN})
    (tmp_path / "recipe.yaml").write_text(yaml_text)


def test_trl_model_config_subclass_and_sft_yaml_keys(cli, tmp_path):
    _aria(tmp_path)
    plan = plan_of(cli, "pkg/train.py", "--", "--config", "recipe.yaml", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "org/some-model"
    assert fact(plan, "data.num_workers").value == 8
    assert fact(plan, "data.seq_len").value == 2048
    assert fact(plan, "peft.method").value == "none"


def test_twin_use_peft_in_the_yaml_and_no_workers_key(cli, tmp_path):
    _aria(tmp_path, ARIA_YAML.replace("dataloader_num_workers: 8\n", "use_peft: true\n"))
    plan = plan_of(cli, "pkg/train.py", "--", "--config", "recipe.yaml", cwd=tmp_path)
    assert fact(plan, "peft.method").value == "lora"
    got = fact(plan, "data.num_workers")
    assert got is None or got.value != 8


# a GAN loop whose discriminator update is switched off for the first steps (its backward and step in
# one `if`), the generator updated on every batch (NVIDIA/BigVGAN @ 7d2b4545 train.py:464-558)
GAN = """\
    import torch


    def train(freeze_step=0):
        gen = torch.nn.Linear(4, 4).cuda()
        disc = torch.nn.Linear(4, 1).cuda()
        optim_g = torch.optim.AdamW(gen.parameters())
        optim_d = torch.optim.AdamW(disc.parameters())
        loader = torch.utils.data.DataLoader(list(range(64)), batch_size=4)
        steps = 0
        for i, batch in enumerate(loader):
            fake = gen(batch)
            optim_d.zero_grad()
            loss_d = disc(fake.detach()).mean()
            if steps >= freeze_step:
                loss_d.backward()
                optim_d.step()
            optim_g.zero_grad()
            loss_g = -disc(fake).mean()
            loss_g.backward()
            optim_g.step()
            steps += 1


    train()
"""


def test_a_switched_update_beside_an_every_batch_update_is_no_accumulation(cli, tmp_path):
    write(tmp_path, {"train.py": GAN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "batch.grad_accum").value == 1


def test_twin_a_step_on_every_kth_batch_says_nothing(cli, tmp_path):
    text = GAN.replace("if steps >= freeze_step:\n                loss_d.backward()\n                optim_d.step()",
                       "loss_d.backward()\n            if (i + 1) % 4 == 0:\n                optim_d.step()")
    assert text != GAN
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 1


def test_twin_backward_in_both_arms_is_accumulation_not_a_switch(cli, tmp_path):
    text = GAN.replace("if steps >= freeze_step:\n                loss_d.backward()\n                optim_d.step()",
                       "if steps >= freeze_step:\n                loss_d.backward()\n                optim_d.step()\n"
                       "            else:\n                loss_d.backward()")
    assert text != GAN
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "batch.grad_accum")
    assert got is None or got.value != 1


DS_CLI = """\
    import argparse

    {imports}


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--zero_stage", type=int, default=2, help="DeepSpeed ZeRO stage")
        parser.add_argument("--overlap_comm", action="store_true", default=False)
        parser.add_argument("--micro_train_batch_size", type=int, default=4, help="batch size per GPU")
        args = parser.parse_args()
"""


def test_zero_stage_option_of_a_deepspeed_project(cli, tmp_path):
    # OpenRLHF's --zero_stage / --overlap_comm (R1-Searcher OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py:230,240)
    write(tmp_path, {"train.py": DS_CLI.replace("{imports}", "import deepspeed")})
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus", "4", "train.py", "--zero_stage", "3", "--overlap_comm",
                   cwd=tmp_path)
    assert fact(plan, "dist.sharding").value == "zero3"
    assert fact(plan, "dist.overlap_comm").value is True


def test_twin_no_deepspeed_or_the_stage_not_given_says_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": DS_CLI.replace("{imports}", "import torch")})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "train.py", "--zero_stage", "3", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is None or got.value != "zero3"
    write(tmp_path, {"train.py": DS_CLI.replace("{imports}", "import deepspeed")})
    plan = plan_of(cli, "--", "deepspeed", "--num_gpus", "4", "train.py", cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is None or "ZeRO stage" not in (got.source.detail or "")


def test_twin_a_project_class_named_model_config_is_not_trls(cli, tmp_path):
    # TRI-ML/prismatic-vlms' own ``ModelConfig(ChoiceRegistry)``: its subclasses declare no TRL options
    _aria(tmp_path)
    (tmp_path / "pkg" / "config.py").write_text(
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass ModelConfig:\n    name: str = 'x'\n\n\n"
        "@dataclass\nclass MyModelConfig(ModelConfig):\n    freeze_vit: bool = field(default=True)\n")
    plan = plan_of(cli, "pkg/train.py", "--", "--config", "recipe.yaml", cwd=tmp_path)
    got = fact(plan, "peft.method")
    assert got is None or "use_peft" not in str(got.source.key)
