"""Shapes of the twenty-seventh held-out set's real jobs (issue 15), reproduced in minimal fixtures of our own,
each citing the repository, path and commit it copies the shape of; each with twins that must stay as they were."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

# project-baize/baize-chatbot @ 4fae6c4e550f087958c1f60746f0e6290e6b9f02 finetune.py:21-24,55-65,105-114,129-138:
# values from ``sys.argv`` positions, the Hub id built by ``str.format``, an accumulation rebound only
# ``if ddp:`` (False under plain python), an int8 load, and ``max_length=CUTOFF_LEN + 1`` with the last
# token dropped from ``input_ids``
BAIZE = """\
    import os
    import sys

    import transformers
    from transformers import LlamaForCausalLM, LlamaTokenizer

    MICRO_BATCH_SIZE = int(sys.argv[2])
    BATCH_SIZE = 64
    size = sys.argv[1]
    GRADIENT_ACCUMULATION_STEPS = BATCH_SIZE // MICRO_BATCH_SIZE
    CUTOFF_LEN = 512

    device_map = "auto"
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    if ddp:
        device_map = {"": int(os.environ.get("LOCAL_RANK") or 0)}
        GRADIENT_ACCUMULATION_STEPS = GRADIENT_ACCUMULATION_STEPS // world_size

    model = LlamaForCausalLM.from_pretrained(
        "decapoda-research/llama-{}-hf".format(size),
        load_in_8bit=True,
        device_map=device_map,
    )
    tokenizer = LlamaTokenizer.from_pretrained("decapoda-research/llama-{}-hf".format(size))


    def tokenize(prompt):
        result = tokenizer(
            prompt,
            truncation=True,
            max_length=CUTOFF_LEN + 1,
            padding="max_length",
        )
        return {
            "input_ids": result["input_ids"][:-1],
            "attention_mask": result["attention_mask"][:-1],
        }


    trainer = transformers.Trainer(
        model=model,
        train_dataset=None,
        args=transformers.TrainingArguments(
            per_device_train_batch_size=MICRO_BATCH_SIZE,
            gradient_accumulation_steps=GRADIENT_ACCUMULATION_STEPS,
            fp16=True,
            output_dir="out",
        ),
    )
    trainer.train()
"""


def test_sys_argv_positions_and_str_format_are_the_launch_line_words(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32
    micro = fact(plan, "batch.micro")
    assert micro is not None and "sys.argv[2]" in (micro.source.detail or "")
    assert winner(plan, "model.ref") == "decapoda-research/llama-7b-hf"
    # 64 // 32, the `if ddp:` rebinding not run by one plain python process
    assert winner(plan, "batch.grad_accum") == 2
    assert winner(plan, "batch.global") == 64


def test_sys_argv_other_words_give_other_values(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "finetune.py", "--", "13b", "16", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 16
    assert winner(plan, "model.ref") == "decapoda-research/llama-13b-hf"
    assert winner(plan, "batch.grad_accum") == 4


def test_sys_argv_edited_by_the_script_is_not_read(cli, tmp_path: Path) -> None:
    # `sys.argv.pop(1)` shifts every position: the words of the launch line no longer say the values
    write(tmp_path, {"finetune.py": BAIZE.replace("MICRO_BATCH_SIZE = int(sys.argv[2])",
                                                  "sys.argv.pop(1)\n    MICRO_BATCH_SIZE = int(sys.argv[2])")})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 32
    assert winner(plan, "model.ref") is None


def test_sys_argv_position_past_the_line_is_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "finetune.py", "--", "7b", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None
    assert winner(plan, "model.ref") == "decapoda-research/llama-7b-hf"


def test_rebinding_under_a_taken_if_is_not_the_first_value(cli, tmp_path: Path) -> None:
    # torchrun sets WORLD_SIZE=2: `ddp` is true and the accumulation is rebound (64 // 32 // 2)
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "2", "finetune.py", "7b", "32", "0.0002", "alpaca",
                   cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32
    assert winner(plan, "batch.grad_accum") != 2


def test_dropped_last_token_is_the_sequence_length(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 512
    assert winner(plan, "data.padding") == "max_length"


def test_unsliced_input_ids_keep_max_length(cli, tmp_path: Path) -> None:
    # twin: the ids are returned whole, so every sample is max_length = 513 tokens
    write(tmp_path, {"finetune.py": BAIZE.replace('result["input_ids"][:-1]', 'result["input_ids"]')
                     .replace('result["attention_mask"][:-1]', 'result["attention_mask"]')})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 513


def test_slice_of_another_name_cuts_nothing(cli, tmp_path: Path) -> None:
    # tricky twin: `other["input_ids"][:-1]` slices a different result, not the tokenizer call's
    write(tmp_path, {"finetune.py": BAIZE.replace('result["input_ids"][:-1]', 'other["input_ids"][:-1]')
                     .replace("def tokenize(prompt):", "def tokenize(prompt, other=None):")})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "data.seq_len") == 513


def test_int8_load_is_the_int8_quant_type(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "precision.weights_bits") == 8
    assert winner(plan, "precision.quant_type") == "int8"


def test_no_quantized_load_has_no_quant_type(cli, tmp_path: Path) -> None:
    write(tmp_path, {"finetune.py": BAIZE.replace("load_in_8bit=True,", "")})
    plan = plan_of(cli, "finetune.py", "--", "7b", "32", "0.0002", "alpaca", cwd=tmp_path)
    assert winner(plan, "precision.quant_type") is None


# AetherCortex/Llama-X @ its pinned commit README.md:151 ``pip install transformers==4.31.0``, the only
# place the release is named; ``src/train.py`` loads LLaMA with no attn_implementation
LLAMAX_TRAIN = """\
    import transformers

    parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
"""


def _readme(line: str) -> str:
    return f"# Llama-X\n\n```bash\nconda create -n llamax python=3.10\n{line}\npip install -r requirements.txt\n```\n"


def test_readme_install_line_pins_the_transformers_release(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/train.py": LLAMAX_TRAIN, "requirements.txt": "numpy\nfire\n",
                     "README.md": _readme("pip install transformers==4.31.0")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path / "src")
    assert winner(plan, "model.attn_implementation") == "eager"
    attn = fact(plan, "model.attn_implementation")
    assert attn is not None and "4.31.0" in (attn.source.detail or "")


def test_readme_install_line_of_a_recent_release_keeps_sdpa(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/train.py": LLAMAX_TRAIN, "requirements.txt": "numpy\n",
                     "README.md": _readme("pip install transformers==4.40.0")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path / "src")
    assert winner(plan, "model.attn_implementation") == "sdpa"


def test_readme_prose_or_lower_bound_is_no_pin(cli, tmp_path: Path) -> None:
    # tricky twins: a sentence naming the release, and a lower bound on an install line
    for text in ("We tested with transformers==4.31.0 on V100s.", "pip install 'transformers>=4.31.0'"):
        write(tmp_path, {"src/train.py": LLAMAX_TRAIN, "requirements.txt": "numpy\n", "README.md": _readme(text)})
        plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path / "src")
        assert winner(plan, "model.attn_implementation") == "sdpa", text


def test_requirements_pin_beats_the_readme_line(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/train.py": LLAMAX_TRAIN, "requirements.txt": "transformers==4.40.0\n",
                     "README.md": _readme("pip install transformers==4.31.0")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path / "src")
    assert winner(plan, "model.attn_implementation") == "sdpa"


# epfml/llm-baselines @ its pinned commit src/distributed/{__init__,ddp,single}.py: the DDP backend class,
# picked by ``--distributed_backend nccl``, reads RANK and starts its process group itself; one plain python
# process gets the single-node backend, which returns the model unwrapped
LB_MAIN = """\
    import argparse

    import torch

    import distributed

    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed_backend", default=None)
    args = parser.parse_args()
    backend = distributed.make_backend_from_args(args)
    model = backend.transform_model(torch.nn.Linear(4, 4))
    opt = torch.optim.AdamW(model.parameters())
    for x in torch.randn(8, 4):
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
"""
LB_INIT = """\
    from . import ddp, single

    BACKENDS = {"nccl": ddp.DataParallelDistributedBackend, None: single.SingleNodeBackend}


    def make_backend_from_args(args):
        return BACKENDS[args.distributed_backend](args)
"""
LB_DDP = """\
    import os

    from torch.distributed import init_process_group
    from torch.nn.parallel import DistributedDataParallel as DDP


    class DataParallelDistributedBackend:
        def __init__(self, args):
            self.rank = int(os.environ.get("RANK", -1))
            assert self.rank != -1, "DDP backend can not be used without rank"
            init_process_group(backend=args.distributed_backend)
            self.local_rank = int(os.environ["LOCAL_RANK"])

        def transform_model(self, model):
            return DDP(model, device_ids=[self.local_rank])
"""
LB_SINGLE = """\
    class SingleNodeBackend:
        def __init__(self, args):
            self.rank = 0

        def transform_model(self, model):
            return model
"""


def _llm_baselines(tmp_path: Path, ddp: str = LB_DDP) -> None:
    write(tmp_path, {"src/main.py": LB_MAIN, "src/distributed/__init__.py": LB_INIT,
                     "src/distributed/ddp.py": ddp, "src/distributed/single.py": LB_SINGLE})


def test_ddp_module_that_needs_a_launcher_is_not_the_plain_python_job(cli, tmp_path: Path) -> None:
    _llm_baselines(tmp_path)
    plan = plan_of(cli, "--", "python", "./src/main.py", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 1
    assert winner(plan, "dist.sharding") == "none"
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.confidence == "medium"


def test_ddp_module_under_torchrun_stays_ddp(cli, tmp_path: Path) -> None:
    _llm_baselines(tmp_path)
    plan = plan_of(cli, "--", "torchrun", "--nproc_per_node", "4", "./src/main.py", "--distributed_backend", "nccl",
                   cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "ddp"


def test_ddp_module_with_its_own_single_process_group_stays_ddp(cli, tmp_path: Path) -> None:
    # tricky twin: the module starts a one-process group itself (an address and rank of its own): the wrap runs
    own = LB_DDP.replace('self.rank = int(os.environ.get("RANK", -1))\n            assert self.rank != -1, '
                         '"DDP backend can not be used without rank"\n', "self.rank = 0\n") \
        .replace("init_process_group(backend=args.distributed_backend)",
                 'init_process_group("gloo", init_method="tcp://127.0.0.1:29500", rank=0, world_size=1)') \
        .replace('int(os.environ["LOCAL_RANK"])', "0")
    _llm_baselines(tmp_path, own)
    plan = plan_of(cli, "--", "python", "./src/main.py", cwd=tmp_path)
    assert winner(plan, "dist.sharding") == "ddp"


# AetherCortex/Llama-X @ its pinned commit src/configs/deepspeed_config.json:3-20: ZeRO-3 with "auto" bucket sizes,
# filled by the HF Trainer from LLaMA-7B's hidden size 4096 (transformers integrations/deepspeed.py)
DS_AUTO = {
    "zero_optimization": {
        "stage": 3,
        "offload_param": {"device": "cpu"},
        "offload_optimizer": {"device": "cpu"},
        "reduce_bucket_size": "auto",
        "stage3_prefetch_bucket_size": "auto",
        "stage3_max_live_parameters": 0,
    },
    "fp16": {"enabled": "auto"},
    "train_micro_batch_size_per_gpu": "auto",
    "train_batch_size": "auto",
}


def _llamax_ds(cli, tmp_path: Path, config: dict, model: str = "huggyllama/llama-7b") -> dict:
    import json

    write(tmp_path, {"train.py": LLAMAX_TRAIN.replace("huggyllama/llama-7b", model),
                     "configs/ds.json": json.dumps(config, indent=1)})
    return plan_of(cli, "--", "deepspeed", "train.py", "--output_dir", "out",
                   "--deepspeed", "configs/ds.json", "--fp16", "True", cwd=tmp_path)


def test_auto_buckets_are_filled_from_the_models_hidden_size(cli, tmp_path: Path) -> None:
    plan = _llamax_ds(cli, tmp_path, DS_AUTO)
    assert winner(plan, "dist.reduce_bucket_size") == 4096 * 4096
    assert winner(plan, "dist.stage3_prefetch_bucket_size") == int(0.9 * 4096 * 4096)
    got = fact(plan, "dist.reduce_bucket_size")
    assert got is not None and got.confidence == "medium" and got.source.path == "configs/ds.json"
    assert winner(plan, "dist.stage3_max_live_parameters") == 0


def test_auto_buckets_of_a_model_not_in_the_catalog_stay_unknown(cli, tmp_path: Path) -> None:
    plan = _llamax_ds(cli, tmp_path, DS_AUTO, model="someone/unknown-model-xyz")
    assert winner(plan, "dist.reduce_bucket_size") is None
    assert winner(plan, "dist.stage3_prefetch_bucket_size") is None


def test_auto_prefetch_below_zero3_and_explicit_buckets_are_not_filled(cli, tmp_path: Path) -> None:
    # ZeRO-2: the Trainer fills no prefetch bucket; a number written in the config is the config's
    zo = {"stage": 2, "reduce_bucket_size": 5e8, "stage3_prefetch_bucket_size": "auto"}
    plan = _llamax_ds(cli, tmp_path, {**DS_AUTO, "zero_optimization": zo})
    assert winner(plan, "dist.reduce_bucket_size") == 500000000
    assert winner(plan, "dist.stage3_prefetch_bucket_size") is None


# epfml/llm-baselines @ its pinned commit src/main.py:14,35-47 and src/config/{__init__,base}.py: a first parser
# reads --config_format, then `import config`'s module table hands the same parser to config/base.py, which adds
# every other option and parses the rest
TWO_STAGE_MAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    import config


    def get_args():
        parser = argparse.ArgumentParser(allow_abbrev=False)
        parser.add_argument("--config_format", default="base", choices=config.registered_formats())
        args, rem_args = parser.parse_known_args()
        return config.parse_args_with_format(format=args.config_format, base_parser=parser, args=rem_args,
                                             namespace=args)


    def main(args):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        loader = DataLoader(range(100), batch_size=args.batch_size)
        for x in loader:
            model(x).sum().backward()
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        main(get_args())
"""
TWO_STAGE_INIT = """\
    from . import base

    CONFIG_FORMAT_TO_MODULE_MAP = {"base": base}


    def parse_args_with_format(format, base_parser, args, namespace):
        return CONFIG_FORMAT_TO_MODULE_MAP[format].parse_args(base_parser, args, namespace)


    def registered_formats():
        return CONFIG_FORMAT_TO_MODULE_MAP.keys()
"""
TWO_STAGE_BASE = """\
    def parse_args(base_parser, args, namespace):
        parser = base_parser
        parser.add_argument("--batch_size", default=50, type=int)
        parser.add_argument("--acc_steps", default=1, type=int)
        return parser.parse_args(args, namespace)
"""


def test_options_added_by_a_plainly_imported_config_package_are_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"src/main.py": TWO_STAGE_MAIN, "src/config/__init__.py": TWO_STAGE_INIT,
                     "src/config/base.py": TWO_STAGE_BASE})
    plan = plan_of(cli, "--", "python", "./src/main.py", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32
    plan = plan_of(cli, "--", "python", "./src/main.py", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 50


def test_plain_import_of_a_library_declares_nothing(cli, tmp_path: Path) -> None:
    # twin: `import config` names no local module here (no config/ folder): the option stays undeclared
    write(tmp_path, {"src/main.py": TWO_STAGE_MAIN})
    plan = plan_of(cli, "--", "python", "./src/main.py", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


# w86763777/pytorch-ddpm @ its pinned commit main.py:7,19-53,104-106 and config/CIFAR10.txt: absl flags read as
# FLAGS.name, launched `python main.py --train --flagfile ./config/CIFAR10.txt`
DDPM = """\
    import torch
    from absl import app, flags

    FLAGS = flags.FLAGS
    flags.DEFINE_bool('train', False, help='train from scratch')
    flags.DEFINE_integer('batch_size', 128, help='batch size')
    flags.DEFINE_integer('num_workers', 4, help='workers of Dataloader')
    flags.DEFINE_bool('parallel', False, help='multi gpu training')


    def train():
        dataset = torch.utils.data.TensorDataset(torch.randn(1000, 3, 32, 32))
        dataloader = torch.utils.data.DataLoader(dataset, batch_size=FLAGS.batch_size, shuffle=True,
                                                 num_workers=FLAGS.num_workers, drop_last=True)
        net = torch.nn.Conv2d(3, 3, 3)
        optim = torch.optim.Adam(net.parameters(), lr=2e-4)
        for (x,) in dataloader:
            loss = net(x).mean()
            optim.zero_grad()
            loss.backward()
            optim.step()


    def main(argv):
        if FLAGS.train:
            train()


    if __name__ == '__main__':
        app.run(main)
"""
FLAGFILE = "--batch_size=64\n# a comment\n--num_workers=2\n--noparallel\n--train\n"


def test_absl_flagfile_values_are_the_jobs(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": DDPM, "config/CIFAR10.txt": FLAGFILE})
    plan = plan_of(cli, "main.py", "--", "--train", "--flagfile", "./config/CIFAR10.txt", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 64
    assert winner(plan, "data.num_workers") == 2


def test_absl_flag_after_the_flagfile_wins(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": DDPM, "config/CIFAR10.txt": FLAGFILE})
    plan = plan_of(cli, "main.py", "--", "--flagfile=./config/CIFAR10.txt", "--batch_size", "32", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 32


def test_absl_default_without_flags(cli, tmp_path: Path) -> None:
    write(tmp_path, {"main.py": DDPM})
    plan = plan_of(cli, "main.py", "--", "--train", cwd=tmp_path)
    assert winner(plan, "batch.micro") == 128


def test_absl_unreadable_flagfile_takes_no_default(cli, tmp_path: Path) -> None:
    # twin: the flag file is not there; any flag may be set in it, so the declared 128 is not claimed
    write(tmp_path, {"main.py": DDPM})
    plan = plan_of(cli, "main.py", "--", "--train", "--flagfile", "./config/missing.txt", cwd=tmp_path)
    assert winner(plan, "batch.micro") is None


# tatsu-lab/stanford_alpaca's collator as AetherCortex/Llama-X @ its pinned commit src/train.py:144-160 copies it:
# each batch padded to its longest sample by torch.nn.utils.rnn.pad_sequence
ALPACA = """\
    from dataclasses import dataclass

    import torch
    import transformers

    IGNORE_INDEX = -100


    @dataclass
    class DataCollatorForSupervisedDataset(object):
        tokenizer: transformers.PreTrainedTokenizer

        def __call__(self, instances):
            input_ids, labels = tuple([i[key] for i in instances] for key in ("input_ids", "labels"))
            input_ids = torch.nn.utils.rnn.pad_sequence(input_ids, batch_first=True,
                                                        padding_value=self.tokenizer.pad_token_id)
            labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=IGNORE_INDEX)
            return dict(input_ids=input_ids, labels=labels)


    tokenizer = transformers.AutoTokenizer.from_pretrained("huggyllama/llama-7b")
    model = transformers.AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    args = transformers.TrainingArguments(output_dir="out", per_device_train_batch_size=4)
    trainer = transformers.Trainer(model=model, args=args, data_collator=DataCollatorForSupervisedDataset(tokenizer))
    trainer.train()
"""


def test_pad_sequence_collator_is_dynamic_padding(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": ALPACA})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.padding") == "dynamic"


def test_pad_sequence_collator_in_a_local_module_is_dynamic_padding(cli, tmp_path: Path) -> None:
    # FreedomIntelligence/LLMZoo llmzoo/datasets/datasets.py:44-58: the collator in a package the script imports
    head, _, tail = ALPACA.partition('    tokenizer = transformers.AutoTokenizer')
    write(tmp_path, {"zoo/__init__.py": "", "zoo/data.py": head,
                     "train.py": "    from zoo.data import DataCollatorForSupervisedDataset\n    import transformers\n\n"
                                 "    tokenizer = transformers.AutoTokenizer" + tail})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.padding") == "dynamic"
    got = fact(plan, "data.padding")
    assert got is not None and got.source.path == "zoo/data.py"


def test_samples_padded_to_max_length_are_not_dynamic(cli, tmp_path: Path) -> None:
    # twin: the tokenizer pads every sample to max_length first; pad_sequence then changes nothing
    write(tmp_path, {"train.py": ALPACA.replace(
        "    tokenizer = transformers.AutoTokenizer.from_pretrained(\"huggyllama/llama-7b\")\n",
        "    tokenizer = transformers.AutoTokenizer.from_pretrained(\"huggyllama/llama-7b\")\n"
        "    enc = tokenizer(\"a\", padding=\"max_length\", max_length=n_ctx, truncation=True)\n")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.padding") != "dynamic"


def test_collator_never_built_says_nothing(cli, tmp_path: Path) -> None:
    # twin: the class is defined but the Trainer gets the library's default collator
    write(tmp_path, {"train.py": ALPACA.replace(", data_collator=DataCollatorForSupervisedDataset(tokenizer)", "")})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert winner(plan, "data.padding") is None


# DLLXW/baby-llama2-chinese @ its pinned commit pretrain.py:283-290: the loader's workers chosen by the OS
BABY = """\
    import os

    import torch

    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
    train_loader = torch.utils.data.DataLoader(
        torch.randn(64, 4),
        batch_size=8,
        pin_memory=False,
        drop_last=False,
        shuffle=False,
        num_workers=0 if os.name == 'nt' else 4,
    )
    for x in train_loader:
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
"""


def test_os_name_is_the_linux_machines(cli, tmp_path: Path) -> None:
    write(tmp_path, {"pretrain.py": BABY})
    plan = plan_of(cli, "pretrain.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") == 4
    got = fact(plan, "data.num_workers")
    assert got is not None and got.confidence != "high"


def test_sys_platform_is_the_linux_machines(cli, tmp_path: Path) -> None:
    write(tmp_path, {"pretrain.py": BABY.replace("import os", "import sys")
                     .replace("0 if os.name == 'nt' else 4", "2 if sys.platform != 'win32' else 0")})
    plan = plan_of(cli, "pretrain.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") == 2


def test_a_local_object_named_os_is_not_the_platform(cli, tmp_path: Path) -> None:
    # twin: `os` rebound to the script's own object: its `name` is not the platform's
    write(tmp_path, {"pretrain.py": BABY.replace("import os\n", "import os\n    os = load_settings()\n")})
    plan = plan_of(cli, "pretrain.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") is None
