"""A project's own configuration object (adapters/config_object.py, config_object_reads.py):
its values (class defaults, constructor keywords, builder assignments, launch-line updates) and
where the code uses them, followed across calls into the project's functions and classes.
Fixtures of our own copying real shapes, each citing repository, path and commit."""

from __future__ import annotations

import textwrap

from plan_helpers import fact, plan_of, write


def ours(plan: dict, field: str):
    """The value_flow adapter (adapters/config_object_reads.py)'s fact for ``field`` (None when it wrote none)."""
    from preflight.plan import TrainingPlan

    for f in TrainingPlan.from_dict(plan).facts(field):
        if f.adapter == "value_flow":
            return f
    return None


# meta-llama/llama-cookbook @ 0e0033518623d03ac5c1654bf04b7e480f7d5e5a:
# src/llama_cookbook/finetuning.py:87-90,245-294,343-349 (main(**kwargs) given to fire.Fire;
# train_config, fsdp_config = TRAIN_CONFIG(), FSDP_CONFIG(); update_config((...), **kwargs)),
# configs/__init__.py re-exports, configs/training.py:8-16, configs/fsdp.py:9-13,
# utils/config_utils.py:22-29 (update_config calls setattr).
COOKBOOK = {
    "getting-started/finetuning.py": """\
        import fire
        from llama_cookbook.finetuning import main

        if __name__ == "__main__":
            fire.Fire(main)
    """,
    "src/llama_cookbook/__init__.py": "",
    "src/llama_cookbook/configs/__init__.py": """\
        from llama_cookbook.configs.fsdp import fsdp_config
        from llama_cookbook.configs.training import train_config
    """,
    "src/llama_cookbook/configs/training.py": """\
        from dataclasses import dataclass


        @dataclass
        class train_config:
            model_name: str="PATH/to/Model"
            enable_fsdp: bool=False
            batching_strategy: str="packing"
            context_length: int=4096
            batch_size_training: int=4
            val_batch_size: int=1
            use_peft: bool=False
    """,
    "src/llama_cookbook/configs/fsdp.py": """\
        from dataclasses import dataclass

        from torch.distributed.fsdp import ShardingStrategy


        @dataclass
        class fsdp_config:
            mixed_precision: bool=True
            sharding_strategy: ShardingStrategy = ShardingStrategy.FULL_SHARD
    """,
    "src/llama_cookbook/utils/__init__.py": "",
    "src/llama_cookbook/utils/config_utils.py": """\
        def get_dataloader_kwargs(train_config, dataset, dataset_processer, mode):
            kwargs = {}
            batch_size = train_config.batch_size_training if mode=="train" else train_config.val_batch_size
            if train_config.batching_strategy == "padding":
                kwargs["batch_sampler"] = LengthBasedBatchSampler(dataset, batch_size, drop_last=True)
            elif train_config.batching_strategy == "packing":
                if train_config.enable_fsdp:
                    kwargs["sampler"] = DistributedSampler(dataset)
                kwargs["batch_size"] = batch_size
                kwargs["drop_last"] = True
            else:
                raise ValueError(f"Unknown batching strategy: {train_config.batching_strategy}")
            return kwargs


        def update_config(config, **kwargs):
            if isinstance(config, (tuple, list)):
                for c in config:
                    update_config(c, **kwargs)
            else:
                for k, v in kwargs.items():
                    if hasattr(config, k):
                        setattr(config, k, v)
    """,
    "src/llama_cookbook/finetuning.py": """\
        import fire
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
        from transformers import LlamaForCausalLM

        from llama_cookbook.configs import fsdp_config as FSDP_CONFIG, train_config as TRAIN_CONFIG
        from llama_cookbook.utils.config_utils import get_dataloader_kwargs, update_config


        class ConcatDataset(torch.utils.data.Dataset):
            def __init__(self, dataset, chunk_size=4096):
                self.dataset = dataset
                self.chunk_size = chunk_size


        def main(**kwargs):
            train_config, fsdp_config = TRAIN_CONFIG(), FSDP_CONFIG()
            update_config((train_config, fsdp_config), **kwargs)
            model = LlamaForCausalLM.from_pretrained(train_config.model_name)
            if train_config.enable_fsdp:
                model = FSDP(model, sharding_strategy=fsdp_config.sharding_strategy)
            dataset_train = []
            if train_config.batching_strategy == "packing":
                dataset_train = ConcatDataset(dataset_train, chunk_size=train_config.context_length)
            train_dl_kwargs = get_dataloader_kwargs(train_config, dataset_train, None, "train")
            train_dataloader = torch.utils.data.DataLoader(dataset_train, pin_memory=True, **train_dl_kwargs)
            optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
            for batch in train_dataloader:
                model(**batch).loss.backward()
                optimizer.step()


        if __name__ == "__main__":
            fire.Fire(main)
    """,
}


def test_cookbook_dataclass_updated_by_fire_kwargs(cli, tmp_path):
    write(tmp_path, COOKBOOK)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "finetuning.py", "--enable_fsdp",
                   "--model_name", "meta-llama/Llama-3.1-8B", cwd=tmp_path / "getting-started")
    sharding = ours(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "fsdp_full"
    assert sharding.source.path.endswith("configs/fsdp.py") and sharding.source.line == 9
    assert "class default" in sharding.source.detail
    seq = ours(plan, "data.seq_len")
    assert seq is not None and seq.value == 4096 and seq.source.path.endswith("configs/training.py")
    assert seq.source.line == 9 and seq.source.key == "train_config.context_length"


def test_cookbook_launch_line_overrides_the_default(cli, tmp_path):
    write(tmp_path, COOKBOOK)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", "--enable_fsdp", "--context_length", "2048",
                   cwd=tmp_path / "getting-started")
    seq = ours(plan, "data.seq_len")
    assert seq is not None and seq.value == 2048 and seq.source.kind == "cli"
    assert seq.source.key == "--context_length"


def test_cookbook_fsdp_under_a_guard_decided_false_is_silent(cli, tmp_path):
    """Without ``--enable_fsdp`` the FSDP wrap does not run: no sharding from the object."""
    write(tmp_path, COOKBOOK)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", cwd=tmp_path / "getting-started")
    assert ours(plan, "dist.sharding") is None


def test_cookbook_value_assigned_from_a_call_stays_unknown(cli, tmp_path):
    """``train_config.context_length = compute()`` after the object is built: not guessed."""
    files = dict(COOKBOOK)
    files["src/llama_cookbook/finetuning.py"] = files["src/llama_cookbook/finetuning.py"].replace(
        "update_config((train_config, fsdp_config), **kwargs)\n",
        "update_config((train_config, fsdp_config), **kwargs)\n"
        "            train_config.context_length = compute_length()\n")
    write(tmp_path, files)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", "--enable_fsdp", cwd=tmp_path / "getting-started")
    assert ours(plan, "data.seq_len") is None
    assert ours(plan, "dist.sharding") is not None  # the rest of the object is still read


# karpathy/minGPT @ 37baab71b9abea1b76ab957409a1cc2fbfba8a26: projects/chargpt/chargpt.py:18-51,
# 86-97 (a CfgNode tree built by attribute assignment in get_config() and static
# get_default_config() builders; config.merge_from_args(sys.argv[1:])), mingpt/trainer.py:15-27,
# 31-33,61-74 (Trainer(config.trainer, ...) keeps self.config; run() reads config.batch_size
# through ``model, config = self.model, self.config``), mingpt/utils.py (CfgNode).
MINGPT = {
    "mingpt/__init__.py": "",
    "mingpt/utils.py": """\
        class CfgNode:
            def __init__(self, **kwargs):
                self.__dict__.update(kwargs)

            def merge_from_args(self, args):
                for arg in args:
                    key, val = arg.split('=')
                    obj = self
                    keys = key[2:].split('.')
                    for k in keys[:-1]:
                        obj = getattr(obj, k)
                    setattr(obj, keys[-1], val)
    """,
    "mingpt/trainer.py": """\
        import torch
        from torch.utils.data.dataloader import DataLoader
        from mingpt.utils import CfgNode as CN


        class Trainer:

            @staticmethod
            def get_default_config():
                C = CN()
                C.num_workers = 4
                C.batch_size = 64
                C.learning_rate = 3e-4
                return C

            def __init__(self, config, model, train_dataset):
                self.config = config
                self.model = model
                self.train_dataset = train_dataset

            def run(self):
                model, config = self.model, self.config
                optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate)
                train_loader = DataLoader(
                    self.train_dataset,
                    batch_size=config.batch_size,
                    num_workers=config.num_workers,
                )
                for x, y in train_loader:
                    model(x, y).backward()
                    optimizer.step()
    """,
    "projects/chargpt/chargpt.py": """\
        import sys

        import torch
        from torch.utils.data import Dataset

        from mingpt.trainer import Trainer
        from mingpt.utils import CfgNode as CN


        def get_config():
            C = CN()
            C.system = CN()
            C.system.seed = 3407
            C.data = CharDataset.get_default_config()
            C.trainer = Trainer.get_default_config()
            C.trainer.learning_rate = 5e-4
            return C


        class CharDataset(Dataset):

            @staticmethod
            def get_default_config():
                C = CN()
                C.block_size = 128
                return C

            def __init__(self, config, data):
                self.config = config
                self.data = data

            def __len__(self):
                return len(self.data) - self.config.block_size


        if __name__ == '__main__':
            config = get_config()
            config.merge_from_args(sys.argv[1:])
            train_dataset = CharDataset(config.data, open('input.txt').read())
            model = torch.nn.Linear(8, 8)
            trainer = Trainer(config.trainer, model, train_dataset)
            trainer.run()
    """,
}


def test_mingpt_cfgnode_tree_followed_into_the_trainer(cli, tmp_path):
    write(tmp_path, MINGPT)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "chargpt.py", "--", "--trainer.batch_size=32", cwd=tmp_path / "projects/chargpt")
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 32 and batch.source.kind == "cli"
    assert batch.source.key == "--trainer.batch_size"
    workers = ours(plan, "data.num_workers")
    assert workers is not None and workers.value == 4
    assert workers.source.path.endswith("mingpt/trainer.py") and workers.source.line == 11
    seq = ours(plan, "data.seq_len")
    assert seq is not None and seq.value == 128 and seq.source.line == 25


def test_mingpt_default_without_launch_override(cli, tmp_path):
    write(tmp_path, MINGPT)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "chargpt.py", cwd=tmp_path / "projects/chargpt")
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 64 and batch.source.path.endswith("mingpt/trainer.py")
    assert batch.source.line == 12


def test_mingpt_value_from_the_environment_is_not_guessed(cli, tmp_path):
    files = dict(MINGPT)
    files["mingpt/trainer.py"] = files["mingpt/trainer.py"].replace(
        "C.batch_size = 64", "C.batch_size = int(os.environ['BS'])")
    write(tmp_path, files)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "chargpt.py", cwd=tmp_path / "projects/chargpt")
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers") is not None


# huggingface/accelerate @ 16cb6eb80dd9aa8b4df1a63ef57863e455d53b83: examples/nlp_example.py:
# 105-110,200-205: a dict literal handed to training_function(config, args), read as
# ``int(config["batch_size"])``.
DICT_ACROSS = """\
    import torch
    from torch.utils.data import DataLoader


    def training_function(config, args):
        lr = config["lr"]
        batch_size = int(config["batch_size"])
        loader = DataLoader(list(range(64)), batch_size=batch_size, shuffle=True)
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    def main():
        config = {"lr": 2e-5, "num_epochs": 3, "seed": 42, "batch_size": 16}
        training_function(config, None)


    if __name__ == "__main__":
        main()
"""


def test_dict_passed_across_a_call(cli, tmp_path):
    write(tmp_path, {"nlp_example.py": DICT_ACROSS})
    plan = plan_of(cli, "nlp_example.py", cwd=tmp_path)
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 16
    assert batch.source.path == "nlp_example.py" and batch.source.line == 17


def test_dict_value_reassigned_under_a_guard_is_silent(cli, tmp_path):
    """The real nlp_example.py:116-118 rebinds batch_size under ``if batch_size > MAX_GPU_BATCH_SIZE
    and ...``: two bindings, not followed."""
    text = DICT_ACROSS.replace(
        "        loader = DataLoader(",
        "        if batch_size > 8 and args.cpu:\n            batch_size = 8\n        loader = DataLoader(")
    write(tmp_path, {"nlp_example.py": text})
    plan = plan_of(cli, "nlp_example.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


# pytorch/examples @ the pinned commit of the benchmark: distributed/FSDP2/example.py:55-63
# ``ModelArgs(..., max_seq_len=seq_len)`` over model.py:12 ``max_seq_len: int = 16``: the keyword
# given (a local name) replaces the default; it is not read here, so the key is unknown.
FSDP2 = {
    "model.py": """\
        from dataclasses import dataclass

        import torch.nn as nn


        @dataclass
        class ModelArgs:
            n_layers: int = 2
            max_seq_len: int = 16


        class Transformer(nn.Module):
            def __init__(self, args: ModelArgs):
                super().__init__()
                self.max_seq_len = args.max_seq_len
                self.pos = nn.Embedding(args.max_seq_len, 8)
    """,
    "example.py": """\
        import torch
        from model import ModelArgs, Transformer

        seq_len = 64
        model_args = ModelArgs(n_layers=10, max_seq_len=seq_len)
        model = Transformer(model_args)
        optimizer = torch.optim.AdamW(model.parameters())
        for _ in range(3):
            model(torch.randint(0, 8, (4, seq_len))).sum().backward()
            optimizer.step()
    """,
}


def test_keyword_not_read_hides_the_class_default(cli, tmp_path):
    write(tmp_path, FSDP2)
    plan = plan_of(cli, "example.py", cwd=tmp_path)
    assert ours(plan, "data.seq_len") is None


def test_literal_keyword_replaces_the_class_default(cli, tmp_path):
    files = dict(FSDP2)
    files["example.py"] = files["example.py"].replace("max_seq_len=seq_len", "max_seq_len=64")
    write(tmp_path, files)
    plan = plan_of(cli, "example.py", cwd=tmp_path)
    seq = ours(plan, "data.seq_len")
    assert seq is not None and seq.value == 64 and seq.source.path == "example.py" and seq.source.line == 5
    assert "constructor keyword" in seq.source.detail


# OptimalScale/LMFlow @ f3597dba134e (the benchmark's pin): examples/finetune.py:25-44 imports
# its argument dataclasses from the project's package under src/ (src/lmflow/args.py:58,128,513,
# 626 FinetunerArguments(TrainingArguments)) and parses them with HfArgumentParser.
LMFLOW = {
    "examples/finetune.py": """\
        import sys

        from transformers import HfArgumentParser

        from lmflow.args import AutoArguments, DatasetArguments, ModelArguments


        def main():
            PipelineArguments = AutoArguments.get_pipeline_args_class("finetuner")
            parser = HfArgumentParser((ModelArguments, DatasetArguments, PipelineArguments))
            model_args, data_args, pipeline_args = parser.parse_args_into_dataclasses()


        if __name__ == "__main__":
            main()
    """,
    "src/lmflow/__init__.py": "",
    "src/lmflow/args.py": """\
        from dataclasses import dataclass, field
        from typing import Optional

        from transformers import TrainingArguments


        @dataclass
        class ModelArguments:
            model_name_or_path: Optional[str] = field(default=None)


        @dataclass
        class DatasetArguments:
            block_size: Optional[int] = field(default=None)


        @dataclass
        class FinetunerArguments(TrainingArguments):
            use_lora: bool = field(default=False)


        class AutoArguments:
            def get_pipeline_args_class(pipeline_name):
                return {"finetuner": FinetunerArguments}[pipeline_name]
    """,
}


def test_argument_dataclasses_of_a_src_layout_package(cli, tmp_path):
    write(tmp_path, LMFLOW)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "accelerate", "launch", "examples/finetune.py", "--model_name_or_path",
                   "meta-llama/Llama-3.2-3B-Instruct", "--per_device_train_batch_size", "1", "--block_size", "512",
                   cwd=tmp_path)
    ref = fact(plan, "model.ref")
    assert ref is not None and ref.value == "meta-llama/Llama-3.2-3B-Instruct"
    assert "src/lmflow/args.py" in ref.source.detail
    batch = fact(plan, "batch.micro")
    assert batch is not None and batch.value == 1


def test_package_not_in_the_project_declares_nothing(cli, tmp_path):
    files = {k: v for k, v in LMFLOW.items() if not k.startswith("src/")}
    write(tmp_path, files)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "accelerate", "launch", "examples/finetune.py", "--model_name_or_path",
                   "meta-llama/Llama-3.2-3B-Instruct", "--per_device_train_batch_size", "1", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None


# OptimalScale/LMFlow @ f3597dba134e: the parsed argument dataclasses followed into the project's
# package: examples/finetune.py:44,53 -> src/lmflow/models/auto_model.py:12-15
# (AutoModel.get_model(model_args) -> HFDecoderModel(model_args)) -> hf_decoder_model.py:83-84
# (HFModelMixin.__init__(self, model_args=model_args)) -> hf_model_mixin.py:83,248-273
# (self.__prepare_peft_config(model_args): if model_args.use_lora: LoraConfig(r=model_args.lora_r);
# if model_args.use_dora: LoraConfig(use_dora=True, ...)).
LMFLOW_PEFT = dict(LMFLOW)
LMFLOW_PEFT["examples/finetune.py"] = """\
    import sys

    from transformers import HfArgumentParser

    from lmflow.args import DatasetArguments, ModelArguments
    from lmflow.models.auto_model import AutoModel


    def main():
        parser = HfArgumentParser((ModelArguments, DatasetArguments))
        if len(sys.argv) == 2 and sys.argv[1].endswith(".json"):
            model_args, data_args = parser.parse_json_file(json_file=sys.argv[1])
        else:
            model_args, data_args = parser.parse_args_into_dataclasses()
        model = AutoModel.get_model(model_args)


    if __name__ == "__main__":
        main()
"""
LMFLOW_PEFT["src/lmflow/args.py"] = textwrap.dedent(LMFLOW["src/lmflow/args.py"]).replace(
    "    model_name_or_path: Optional[str] = field(default=None)\n",
    "    model_name_or_path: Optional[str] = field(default=None)\n"
    "    use_lora: bool = field(default=False)\n"
    "    use_dora: bool = field(default=False)\n"
    "    lora_r: int = field(default=8)\n")
LMFLOW_PEFT["src/lmflow/models/__init__.py"] = ""
LMFLOW_PEFT["src/lmflow/models/auto_model.py"] = """\
    from lmflow.models.hf_decoder_model import HFDecoderModel


    class AutoModel:
        @classmethod
        def get_model(self, model_args, *args, **kwargs):
            return HFDecoderModel(model_args, *args, **kwargs)
"""
LMFLOW_PEFT["src/lmflow/models/hf_decoder_model.py"] = """\
    from lmflow.models.hf_model_mixin import HFModelMixin


    class HFDecoderModel(HFModelMixin):
        def __init__(self, model_args, do_train=True, **kwargs):
            HFModelMixin.__init__(self, model_args=model_args, do_train=do_train, **kwargs)
"""
LMFLOW_PEFT["src/lmflow/models/hf_model_mixin.py"] = """\
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    class HFModelMixin:
        def __init__(self, model_args, do_train):
            self.peft_config = self.__prepare_peft_config(model_args)
            model = AutoModelForCausalLM.from_pretrained("gpt2")
            if model_args.use_lora or model_args.use_dora:
                model = get_peft_model(model, self.peft_config)

        def __prepare_peft_config(self, model_args):
            peft_config = None
            if model_args.use_lora:
                peft_config = LoraConfig(r=model_args.lora_r, lora_alpha=16)
            if model_args.use_dora:
                peft_config = LoraConfig(use_dora=True, r=model_args.lora_r)
            return peft_config
"""


def test_parsed_options_followed_into_the_project_package(cli, tmp_path):
    write(tmp_path, LMFLOW_PEFT)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "accelerate", "launch", "examples/finetune.py", "--model_name_or_path",
                   "meta-llama/Llama-3.2-3B-Instruct", "--use_lora", "1", "--lora_r", "16", cwd=tmp_path)
    method = ours(plan, "peft.method")
    assert method is not None and method.value == "lora" and method.source.kind == "cli"
    assert method.source.key == "--use_lora"
    rank = ours(plan, "peft.rank")
    assert rank is not None and rank.value == 16 and rank.source.key == "--lora_r"


def test_parsed_options_default_off_and_undeclared_are_silent(cli, tmp_path):
    write(tmp_path, LMFLOW_PEFT)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "accelerate", "launch", "examples/finetune.py", "--model_name_or_path", "m/x",
                   cwd=tmp_path)
    # every LoRA construct is under a guard the defaults decide false (`use_lora or use_dora` around
    # get_peft_model, jobs51 reads an `or` of decided operands): no LoRA, at medium; no rank
    method = ours(plan, "peft.method")
    assert method is not None and method.value == "none" and method.confidence == "medium"
    assert ours(plan, "peft.rank") is None
    files = dict(LMFLOW_PEFT)
    files["src/lmflow/args.py"] = files["src/lmflow/args.py"].replace(
        "    use_lora: bool = field(default=False)\n", "")
    write(tmp_path, files)
    plan = plan_of(cli, "--", "accelerate", "launch", "examples/finetune.py", "--model_name_or_path", "m/x",
                   cwd=tmp_path)
    assert ours(plan, "peft.method") is None  # use_lora is not an option the job declares: unknown


def test_key_set_again_in_the_callee_is_unknown(cli, tmp_path):
    """huggingface/accelerate examples/by_feature/*.py: ``if os.environ.get("TESTING_MOCKED_DATALOADERS",
    None) == "1": config["num_epochs"] = 2`` in training_function: any other store makes the key unknown."""
    text = DICT_ACROSS.replace(
        '        lr = config["lr"]\n',
        '        lr = config["lr"]\n        if args.testing:\n            config["batch_size"] = 2\n')
    write(tmp_path, {"nlp_example.py": text})
    plan = plan_of(cli, "nlp_example.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None


def test_cookbook_loader_kwargs_built_by_a_helper(cli, tmp_path):
    write(tmp_path, COOKBOOK)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", "--enable_fsdp", "--batch_size_training", "8",
                   cwd=tmp_path / "getting-started")
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 8
    assert batch.source.path.endswith("utils/config_utils.py") and batch.source.line == 9


def test_cookbook_loader_kwargs_without_a_batch_size_key_are_silent(cli, tmp_path):
    """``--batching_strategy padding``: the batch goes to a batch sampler, no ``batch_size`` key."""
    write(tmp_path, COOKBOOK)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", "--batching_strategy", "padding",
                   cwd=tmp_path / "getting-started")
    assert ours(plan, "batch.micro") is None


# A value of the object handed to a project class and kept on ``self`` (the shape of CarperAI/trlx
# trlx/trainer/accelerate_base_trainer.py ``self.config = config`` + accelerate_ppo_trainer.py:231
# ``create_loader(self.config.train.batch_size)``; here one key at a time).
SELF_VALUE = """\
    from dataclasses import dataclass

    import torch
    from torch.utils.data import DataLoader


    @dataclass
    class Cfg:
        batch_size: int = 12
        num_workers: int = 2


    class Trainer:
        def __init__(self, model, batch_size, workers=0):
            self.model = model
            self.batch_size = batch_size
            self.workers = workers

        def loader(self, ds):
            return DataLoader(ds, batch_size=self.batch_size, num_workers=self.workers)


    cfg = Cfg()
    model = torch.nn.Linear(2, 2)
    trainer = Trainer(model, cfg.batch_size, workers=cfg.num_workers)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in trainer.loader(list(range(10))):
        model(x).sum().backward()
        optimizer.step()
"""


def test_value_kept_on_self_by_a_project_class(cli, tmp_path):
    write(tmp_path, {"train.py": SELF_VALUE})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 12 and batch.source.line == 9
    workers = ours(plan, "data.num_workers")
    assert workers is not None and workers.value == 2 and workers.source.line == 10


def test_parameter_rebound_in_the_callee_is_not_the_callers_value(cli, tmp_path):
    text = SELF_VALUE.replace("            self.batch_size = batch_size\n",
                              "            batch_size = batch_size * torch.cuda.device_count()\n"
                              "            self.batch_size = batch_size\n")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers") is not None


# An option the code sets itself (the shape of DiT train.py / many DDP scripts:
# ``args.batch_size = args.global_batch_size // dist.get_world_size()``) is no longer the launch
# line's value where the namespace is followed into a helper.
NAMESPACE = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def make_loader(args, ds):
        return DataLoader(ds, batch_size=args.batch_size, num_workers=args.workers)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", type=int, default=8)
        parser.add_argument("--workers", type=int, default=2)
        args = parser.parse_args()
        loader = make_loader(args, list(range(10)))
        model = torch.nn.Linear(2, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in loader:
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_namespace_followed_into_a_helper(cli, tmp_path):
    write(tmp_path, {"train.py": NAMESPACE})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "32", cwd=tmp_path)
    batch = ours(plan, "batch.micro")
    assert batch is not None and batch.value == 32 and batch.source.kind == "cli"
    workers = ours(plan, "data.num_workers")
    assert workers is not None and workers.value == 2


def test_option_the_code_sets_itself_is_unknown(cli, tmp_path):
    text = NAMESPACE.replace("        args = parser.parse_args()\n",
                             "        args = parser.parse_args()\n"
                             "        if torch.distributed.is_initialized():\n"
                             "            args.batch_size = args.batch_size // torch.distributed.get_world_size()\n")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "--batch_size", "32", cwd=tmp_path)
    assert ours(plan, "batch.micro") is None
    assert ours(plan, "data.num_workers") is not None


def test_cookbook_evaluation_loader_is_not_the_batch(cli, tmp_path):
    """finetuning.py:378-389 builds the validation loader the same way with mode "val"
    (``val_batch_size`` 1): it is not the training batch."""
    files = dict(COOKBOOK)
    files["src/llama_cookbook/finetuning.py"] = files["src/llama_cookbook/finetuning.py"].replace(
        "            optimizer = torch.optim.AdamW(",
        "            val_dl_kwargs = get_dataloader_kwargs(train_config, dataset_train, None, 'val')\n"
        "            eval_dataloader = torch.utils.data.DataLoader(dataset_train, **val_dl_kwargs)\n"
        "            optimizer = torch.optim.AdamW(")
    write(tmp_path, files)
    (tmp_path / ".git").mkdir()
    plan = plan_of(cli, "--", "python", "finetuning.py", "--enable_fsdp", cwd=tmp_path / "getting-started")
    values = {f.value for f in facts_of(plan, "batch.micro") if f.adapter == "value_flow"}
    assert values == {4}


def facts_of(plan: dict, field: str):
    from preflight.plan import TrainingPlan

    return TrainingPlan.from_dict(plan).facts(field)
