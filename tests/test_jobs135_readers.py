"""jobs135: the readers behind set 51's wrong values and misses, each with fixtures of our own that reproduce
the real job's shape (the jobs are named in each test).

- a LightningModule handed to ``LightningCLI(Model)`` takes its ``model:`` section, not its ``__init__``
  defaults (davidguzmanr/siamese-neural-networks: ``batch_size: int = 16``, ``config.yml`` 128);
- ``DataLoader(dataset, batch_size=1)`` over a dataset built with ``batch_size=N`` loads N samples a step
  (mmmmayi/Grad-W ``IRMDataset(..., batch_size=configs["batchsize"])``), a module-level dict literal read
  by its keys;
- a Hydra override ``trainer.deepspeed=FILE`` names a DeepSpeed config that is read;
- the precision-by-absence derivation reads the Hydra group files it composed;
- ``data.padding`` stays unknown from ``padding=`` keywords of imported modules alone (the lead removed the
  module-wide reader after merging: it read calls that do not feed training, failing jobs127's and jobs133's twins).
"""

from __future__ import annotations

import textwrap

from plan_helpers import fact, plan_of, write

from preflight.audit import build_plan


def _plan(tmp_path, files, script="train.py", configs=(), argv=()):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    plan, _ = build_plan([tmp_path / script], [tmp_path / c for c in configs], root=tmp_path,
                         argv=list(argv), strict=True)
    return plan


# --------------------------------------------------------------------------- LightningCLI(Model)

CLI_TRAIN = '''
from pytorch_lightning import LightningModule
from pytorch_lightning.utilities.cli import LightningCLI
from torch.utils.data import DataLoader


class Siamese(LightningModule):
    def __init__(self, batch_size: int = 16, lr: float = 1e-3, num_workers: int = 2):
        super().__init__()
        self.save_hyperparameters()

    def train_dataloader(self):
        return DataLoader(self.pairs, batch_size=self.hparams.batch_size, num_workers=self.hparams.num_workers)


def cli_main():
    cli = LightningCLI(Siamese, seed_everything_default=42, run=False)
    cli.trainer.fit(cli.model)


if __name__ == "__main__":
    cli_main()
'''

CLI_CONFIG = '''
model:
    batch_size: 128
    lr: 0.001
trainer:
    gpus: 1
'''


def test_lightning_cli_model_section_is_the_modules_init(tmp_path):
    plan = _plan(tmp_path, {"train.py": CLI_TRAIN, "config.yml": CLI_CONFIG}, configs=["config.yml"],
                 argv=["train.py", "--config=config.yml"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 128 and micro.confidence == "medium"
    assert micro.source.key == "model.batch_size"
    workers = plan.resolve("data.num_workers")  # not in the section: the __init__ default LightningCLI keeps
    assert workers is not None and workers.value == 2


def test_lightning_cli_model_flag_wins_over_the_config(tmp_path):
    plan = _plan(tmp_path, {"train.py": CLI_TRAIN, "config.yml": CLI_CONFIG}, configs=["config.yml"],
                 argv=["train.py", "--config=config.yml", "--model.batch_size=64"])
    assert plan.value("batch.micro") == 64


def test_a_datamodule_given_to_lightning_cli_leaves_the_models_loader_alone(tmp_path):
    train = CLI_TRAIN.replace("LightningCLI(Siamese, ", "LightningCLI(Siamese, OtherData, ")
    plan = _plan(tmp_path, {"train.py": train, "config.yml": CLI_CONFIG}, configs=["config.yml"],
                 argv=["train.py", "--config=config.yml"])
    micro = plan.resolve("batch.micro")
    assert micro is None or micro.value != 128
    assert micro is None or micro.confidence != "high"


def test_a_module_built_by_the_script_keeps_its_init_default(tmp_path):
    train = CLI_TRAIN.replace('''    cli = LightningCLI(Siamese, seed_everything_default=42, run=False)
    cli.trainer.fit(cli.model)''', '''    import pytorch_lightning as pl
    pl.Trainer(gpus=1).fit(Siamese())''')
    plan = _plan(tmp_path, {"train.py": train}, argv=["train.py"])
    assert plan.value("batch.micro") == 16


# --------------------------------------------------------------------------- a dataset of whole batches

GW_TRAIN = '''
import torch
from torch.utils.data import DataLoader
from data import GroupDataset

configs = {
    "batchsize": 32,
    "optimizer": {"initial_lr": 0.001},
}

if __name__ == "__main__":
    ds = GroupDataset(path="lst", batch_size=configs["batchsize"], dur=5)
    loader = DataLoader(dataset=ds, batch_size=1, shuffle=None, num_workers=8)
    model = torch.nn.Linear(4, 4)
    optimizer = torch.optim.Adam(model.parameters(), lr=configs["optimizer"]["initial_lr"])
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
'''

GW_DATA = '''
import torch
from torch.utils.data import Dataset


class GroupDataset(Dataset):
    def __init__(self, path, batch_size, dur):
        self.groups = [[i] * batch_size for i in range(10)]

    def __len__(self):
        return len(self.groups)

    def __getitem__(self, idx):
        return torch.stack([torch.zeros(4) for _ in self.groups[idx]])
'''


def test_a_loader_of_one_over_a_dataset_of_batches_loads_the_datasets_batch(tmp_path):
    plan = _plan(tmp_path, {"train.py": GW_TRAIN, "data.py": GW_DATA}, argv=["train.py"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 32 and micro.confidence == "medium"


def test_a_dataset_batch_that_cannot_be_read_stays_unknown_not_one(tmp_path):
    train = GW_TRAIN.replace('batch_size=configs["batchsize"]', 'batch_size=int(input())')
    plan = _plan(tmp_path, {"train.py": train, "data.py": GW_DATA}, argv=["train.py"])
    assert plan.resolve("batch.micro") is None


def test_a_loader_of_one_over_a_plain_dataset_is_one(tmp_path):
    train = GW_TRAIN.replace('batch_size=configs["batchsize"], ', '')
    plan = _plan(tmp_path, {"train.py": train, "data.py": GW_DATA}, argv=["train.py"])
    assert plan.value("batch.micro") == 1


def test_a_dict_literal_key_written_elsewhere_is_not_read(tmp_path):
    train = GW_TRAIN.replace('    ds = GroupDataset(', '    configs["batchsize"] = 64\n    ds = GroupDataset(')
    plan = _plan(tmp_path, {"train.py": train, "data.py": GW_DATA}, argv=["train.py"])
    assert plan.resolve("batch.micro") is None


def test_a_dict_literal_updated_is_not_read(tmp_path):
    train = GW_TRAIN.replace('    ds = GroupDataset(', '    configs.update(load())\n    ds = GroupDataset(')
    plan = _plan(tmp_path, {"train.py": train, "data.py": GW_DATA}, argv=["train.py"])
    assert plan.resolve("batch.micro") is None


# --------------------------------------------------------------------------- Hydra: trainer.deepspeed=FILE

LV_TRAIN = '''
import hydra
from omegaconf import DictConfig
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


@hydra.main(config_path="../configs", config_name="train_config", version_base="1.2")
def main(cfg: DictConfig):
    model = AutoModelForCausalLM.from_pretrained(cfg.model_name_or_path)
    args = TrainingArguments(**cfg.trainer)
    Trainer(model=model, args=args, train_dataset=None).train()


if __name__ == "__main__":
    main()
'''

LV_CONFIG = '''
model_name_or_path: "google/gemma-2b-it"
trainer:
  output_dir: out
  per_device_train_batch_size: 8
  gradient_accumulation_steps: 4
  bf16: true
  deepspeed: "configs/deepspeed_config.json"
'''

LV_DS = '''
{
  "train_micro_batch_size_per_gpu": 8,
  "gradient_accumulation_steps": 4,
  "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}},
  "bf16": {"enabled": true}
}
'''


def test_a_hydra_override_naming_a_deepspeed_file_is_read(cli, tmp_path):
    write(tmp_path, {"src/train.py": LV_TRAIN, "configs/train_config.yaml": LV_CONFIG,
                     "configs/gemma-ds.json": LV_DS})
    plan = plan_of(cli, "--", "python", "src/train.py", "trainer.deepspeed=configs/gemma-ds.json", cwd=tmp_path)
    assert any("read configs/gemma-ds.json" in n for n in plan["notes"]), plan["notes"]
    sharding = fact(plan, "dist.sharding")
    assert sharding is not None and sharding.value == "zero3"
    assert fact(plan, "dist.offload_params").value == "cpu"


def test_a_hydra_override_of_another_key_names_no_config(cli, tmp_path):
    write(tmp_path, {"src/train.py": LV_TRAIN, "configs/train_config.yaml": LV_CONFIG,
                     "configs/gemma-ds.json": LV_DS})
    plan = plan_of(cli, "--", "python", "src/train.py", "trainer.output_dir=configs/gemma-ds.json", cwd=tmp_path)
    assert not any("read configs/gemma-ds.json" in n for n in plan["notes"]), plan["notes"]
    sharding = fact(plan, "dist.sharding")
    assert sharding is None or sharding.value != "zero3"


# --------------------------------------------------------------------------- fp32 by absence, Hydra groups

SV_TRAIN = '''
import hydra
import torch
from hydra.utils import instantiate


@hydra.main(config_path="../configs", config_name="train")
def run(cfg):
    torch.distributed.init_process_group(backend="nccl")
    model = instantiate(cfg.model)
    trainer = instantiate(cfg.trainer.trainer, cfg=cfg, model=model)
    trainer.train()


if __name__ == "__main__":
    run()
'''


def _sv(tmp_path, accelerate: str) -> dict:
    return {"pkg/train.py": SV_TRAIN,
            "configs/train.yaml": "defaults:\n  - _self_\n  - model:\n  - accelerate: gpu_amp\n  - trainer: train\n",
            "configs/accelerate/gpu_amp.yaml": accelerate,
            "configs/trainer/train.yaml": "trainer:\n  _target_: pkg.trainer.Trainer\n",
            "configs/model/unet.yaml": "_target_: pkg.model.Unet\n"}


def test_fp32_is_not_claimed_over_a_composed_amp_group(cli, tmp_path):
    write(tmp_path, _sv(tmp_path, "device: cuda\namp: true\ndtype:\n"))
    plan = plan_of(cli, "--", "python", "pkg/train.py", "model=unet", cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode is None or mode.value != "fp32"


def test_fp32_stays_claimed_when_no_composed_file_names_a_precision(cli, tmp_path):
    write(tmp_path, _sv(tmp_path, "device: cuda\nworkers: 2\n"))
    plan = plan_of(cli, "--", "python", "pkg/train.py", "model=unet", cwd=tmp_path)
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "fp32"


# --------------------------------------------------------------------------- padding in the imported modules

PAD_TRAIN = '''
import argparse
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments
from datasets import load_dataset
from utils_pad import Preprocessor

p = argparse.ArgumentParser()
p.add_argument("--sequence-length", type=int, default=1024)
args = p.parse_args()
tokenizer = AutoTokenizer.from_pretrained("gpt2")
model = AutoModelForCausalLM.from_pretrained("gpt2")
ds = load_dataset("x")["train"].map(Preprocessor(tokenizer, args.sequence_length))
Trainer(model=model, args=TrainingArguments(output_dir="o"), train_dataset=ds).train()
'''

PAD_UTILS = '''
class Preprocessor:
    def __init__(self, tokenizer, seq_length):
        self.tokenizer = tokenizer
        self.seq_length = seq_length

    def __call__(self, row):
        return self.tokenizer(row["text"], truncation=True, max_length=self.seq_length, padding="max_length")
'''


def test_padding_that_disagrees_across_modules_stays_unknown(cli, tmp_path):
    utils = PAD_UTILS + '''

def encode_condition(tokenizer, texts):
    return tokenizer(texts, padding=True, return_tensors="pt")
'''
    write(tmp_path, {"train.py": PAD_TRAIN, "utils_pad.py": utils})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "data.padding") is None
