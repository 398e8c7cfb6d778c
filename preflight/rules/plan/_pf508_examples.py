"""PF508-PF513 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the
launch command); bad ones must fire, good ones stay silent."""

from __future__ import annotations

PF508_BAD = [
    # held-out-14 (text-generation-webui issue 3427's shape): eval_steps derived as ceil(100 / 8) = 13
    """
# --- train.py
import math

from transformers import TrainingArguments

grad_accum = 32 // 4
args = TrainingArguments(output_dir="out", gradient_accumulation_steps=grad_accum, eval_strategy="steps",
                         eval_steps=math.ceil(100 / grad_accum), save_strategy="steps",
                         save_steps=500,  # error: PF508
                         load_best_model_at_end=True)
""",
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", eval_strategy="no", save_strategy="epoch", load_best_model_at_end=True)  # error: PF508
""",
    """
# --- train.py
import yaml
from transformers import TrainingArguments

args = TrainingArguments(**yaml.safe_load(open("args.yaml")))
# --- args.yaml
output_dir: out
eval_strategy: steps
save_strategy: steps
eval_steps: 30
save_steps: 100  # error: PF508
load_best_model_at_end: true
""",
    # the TrainingArguments come from the launch line, which leaves the evaluation strategy out ("no")
    """
# --- train.py
from transformers import HfArgumentParser, Trainer, TrainingArguments

training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)  # error: PF508
Trainer(model=model, args=training_args, train_dataset=ds, eval_dataset=ev).train()
# --- launch
python train.py --do_train --output_dir out --load_best_model_at_end True --save_steps 2000
""",
    # held-out-4 (the values come from the launch line through conditional expressions and `or`)
    """
# --- train.py
import argparse

from transformers import Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--eval_steps", type=int, default=None)
parser.add_argument("--save_steps", type=int, default=None)
cli_args = parser.parse_args()
args = TrainingArguments(
    output_dir="out",
    load_best_model_at_end=True,
    save_strategy="steps" if cli_args.save_steps is not None else "epoch",
    save_steps=cli_args.save_steps or 500,  # error: PF508
    eval_strategy="steps" if cli_args.eval_steps is not None else "epoch",
    eval_steps=cli_args.eval_steps,
)
Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
# --- launch
python train.py --eval_steps 300 --save_steps 500
""",
]

PF508_GOOD = [
    # the fix: save_steps derived as a multiple of the rounded eval_steps (13 * 38 = 494)
    """
# --- train.py
import math

from transformers import TrainingArguments

grad_accum = 32 // 4
eval_steps = math.ceil(100 / grad_accum)
args = TrainingArguments(output_dir="out", gradient_accumulation_steps=grad_accum, eval_strategy="steps",
                         eval_steps=eval_steps, save_strategy="steps", save_steps=eval_steps * (500 // eval_steps),
                         load_best_model_at_end=True)
""",
    """
# --- train.py
from transformers import TrainingArguments

args = TrainingArguments(output_dir="out", eval_strategy="epoch", save_strategy="epoch", load_best_model_at_end=True)
""",
    """
# --- train.py
from transformers import TrainingArguments

args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50, save_steps=100,
                         load_best_model_at_end=True)
""",
    # the launch line gives both strategies
    """
# --- train.py
from transformers import HfArgumentParser, Trainer, TrainingArguments

training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)
Trainer(model=model, args=training_args, train_dataset=ds, eval_dataset=ev).train()
# --- launch
python train.py --output_dir out --load_best_model_at_end True --eval_strategy steps --eval_steps 500 --save_steps 1000
""",
    # the fix: 600 is a multiple of 300
    """
# --- train.py
import argparse

from transformers import Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--eval_steps", type=int, default=None)
parser.add_argument("--save_steps", type=int, default=None)
cli_args = parser.parse_args()
args = TrainingArguments(
    output_dir="out",
    load_best_model_at_end=True,
    save_strategy="steps" if cli_args.save_steps is not None else "epoch",
    save_steps=cli_args.save_steps or 500,
    eval_strategy="steps" if cli_args.eval_steps is not None else "epoch",
    eval_steps=cli_args.eval_steps,
)
Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
# --- launch
python train.py --eval_steps 300 --save_steps 600
""",
]

PF509_BAD = [
    """
# --- train.py
import deepspeed

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}}
# --- expect
ds.json:1: error: PF509
""",
]

PF509_GOOD = [
    """
# --- train.py
import deepspeed

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": 1,
 "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "/local_nvme"}}}
""",
    """
# --- train.py
import deepspeed

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}
""",
]

PF510_BAD = [
    """
# --- train.py
import deepspeed

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
# --- expect
ds.json:1: error: PF510
""",
    # the script fills the batch size but not the clipping, which stays "auto"
    """
# --- train.py
import json

import deepspeed

with open("ds.json") as f:
    ds_config = json.load(f)
ds_config["train_micro_batch_size_per_gpu"] = 4
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
# --- ds.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_clipping": "auto",
  "zero_optimization": {"stage": 2}
}
# --- expect
ds.json:3: error: PF510
""",
]

PF510_GOOD = [
    # the HF Trainer fills the "auto" values
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds.json", per_device_train_batch_size=4)
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
""",
    """
# --- train.py
import deepspeed

engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": 4, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}
""",
    # Roblox/FAI-RL PR 70's fix: the script writes every "auto" value into the loaded dict
    """
# --- train.py
import json

import deepspeed


def main(model, micro_batch=4, accumulation=8, world_size=2):
    with open("ds_zero3.json") as f:
        ds_config = json.load(f)
    ds_config["train_micro_batch_size_per_gpu"] = micro_batch
    ds_config["gradient_accumulation_steps"] = accumulation
    ds_config.update({"train_batch_size": micro_batch * accumulation * world_size})
    ds_config["zero_optimization"]["stage3_prefetch_bucket_size"] = 5e7
    return deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
# --- ds_zero3.json
{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
 "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"}}
""",
]

PF511_BAD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds.json", max_grad_norm=1.0)  # warning: PF511
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
""",
    # `--max_grad_norm` on the launch command, parsed by HfArgumentParser (a shape the rule
    # missed when probed while hunting)
    """
# --- train.py
from transformers import HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
Trainer(model=model, args=args, train_dataset=ds).train()
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto",
 "gradient_clipping": 1.0,
 "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 2 train.py --output_dir out --deepspeed ds.json --max_grad_norm 0.3
# --- expect
ds.json:2: warning: PF511
""",
    # accelerate issue 3807: accelerator.clip_grad_norm_ under DeepSpeed (from the accelerate config)
    # is a no-op, and the DeepSpeed JSON it names sets no gradient_clipping
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.clip_grad_norm_(model.parameters(), 1.0)  # warning: PF511
    optimizer.step()
    optimizer.zero_grad()
# --- accelerate_config.yaml
distributed_type: DEEPSPEED
num_processes: 8
deepspeed_config:
  deepspeed_config_file: ds_config.json
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
# --- launch
accelerate launch --config_file accelerate_config.yaml train.py
""",
]

PF511_GOOD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds.json", max_grad_norm=1.0)
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "gradient_clipping": "auto", "zero_optimization": {"stage": 2}}
""",
    # max_grad_norm left at its default
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
""",
    # the fix: the DeepSpeed JSON clips; and DeepSpeed set up in the accelerate config itself, with its
    # gradient_clipping
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad()
# --- accelerate_config.yaml
distributed_type: DEEPSPEED
num_processes: 8
deepspeed_config:
  deepspeed_config_file: ds_config.json
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 4, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}
# --- launch
accelerate launch --config_file accelerate_config.yaml train.py
""",
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    accelerator.backward(model(**batch).loss)
    accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad()
# --- accelerate_config.yaml
distributed_type: DEEPSPEED
num_processes: 8
deepspeed_config:
  zero_stage: 2
  gradient_clipping: 1.0
# --- launch
accelerate launch --config_file accelerate_config.yaml train.py
""",
]

PF512_BAD = [
    """
# --- train.py
from hydra.utils import instantiate

optimizer = instantiate(cfg.optimizer)(params=model.parameters())
# --- config.yaml
optimizer:
  _target_: torch.optim.Adam  # error: PF512
  lr: 0.001
""",
    # nested in a model node that is instantiated recursively: built before the module can
    # pass its parameters (the module's own instantiate call does not help)
    """
# --- train.py
from hydra.utils import instantiate

model = instantiate(cfg.model)
# --- model.py
from hydra.utils import instantiate


class Lit:
    def configure_optimizers(self):
        return instantiate(self.hparams.optimizer, params=self.parameters())
# --- config.yaml
model:
  _target_: model.Lit
  optimizer:
    _target_: torch.optim.Adam  # error: PF512
    lr: 0.001
""",
    # Hydra issue 1413: a nested config group (conf/model/optimizer/) selected by the defaults
    # list of a model node that train.py instantiates recursively
    """
# --- train.py
import hydra
from hydra.utils import instantiate


@hydra.main(config_path="conf", config_name="train", version_base="1.1")
def main(cfg):
    model = instantiate(cfg.model)
# --- conf/train.yaml
defaults:
  - model: crab
  - _self_
seed: 42
# --- conf/model/crab.yaml
defaults:
  - optimizer: adam
_target_: mm.models.Crab
# --- conf/model/optimizer/adam.yaml
_target_: torch.optim.Adam  # error: PF512
lr: 0.001
# --- mm/models.py
from hydra.utils import instantiate


class Crab:
    def __init__(self, optimizer):
        self.optimizer_cfg = optimizer

    def configure_optimizers(self):
        return instantiate(self.optimizer_cfg, params=self.parameters())
""",
]

PF512_GOOD = [
    # the same with `_recursive_=False`: the module builds the node itself with its parameters
    """
# --- train.py
from hydra.utils import instantiate

model = instantiate(cfg.model, _recursive_=False)
# --- model.py
from hydra.utils import instantiate


class Lit:
    def configure_optimizers(self):
        return instantiate(self.hparams.optimizer, params=self.parameters())
# --- config.yaml
model:
  _target_: model.Lit
  optimizer:
    _target_: torch.optim.Adam
    lr: 0.001
""",
    """
# --- train.py
from hydra.utils import instantiate

optimizer = instantiate(cfg.optimizer)(params=model.parameters())
# --- config.yaml
optimizer:
  _target_: torch.optim.Adam
  _partial_: true
  lr: 0.001
""",
    # the parameters are passed when the node is instantiated
    """
# --- train.py
from hydra.utils import instantiate

optimizer = instantiate(cfg.optimizer, params=model.parameters())
# --- config.yaml
optimizer:
  _target_: torch.optim.Adam
  lr: 0.001
""",
    # the nodes reach the module's __init__ and are instantiated with params=/optimizer= from there
    """
# --- train.py
import hydra
import lightning as L


class LitModel(L.LightningModule):
    def __init__(self, optimizer_conf, scheduler_conf):
        super().__init__()
        self.optimizer_conf = optimizer_conf
        self.scheduler_conf = scheduler_conf

    def configure_optimizers(self):
        optimizer = hydra.utils.instantiate(self.optimizer_conf, params=self.parameters())
        scheduler = hydra.utils.instantiate(self.scheduler_conf, optimizer=optimizer)
        return [optimizer], [scheduler]


@hydra.main(config_path=".", config_name="config", version_base="1.2")
def main(cfg):
    L.Trainer().fit(LitModel(cfg.optimizer, scheduler_conf=cfg.scheduler))
# --- config.yaml
optimizer:
  _target_: torch.optim.AdamW
  lr: 0.0003
scheduler:
  _target_: torch.optim.lr_scheduler.CosineAnnealingLR
  T_max: 50
""",
    # the same nested group with `_recursive_=False`: Hydra passes the node to Crab(optimizer=...),
    # which instantiates it with the parameters
    """
# --- train.py
import hydra
from hydra.utils import instantiate


@hydra.main(config_path="conf", config_name="train", version_base="1.1")
def main(cfg):
    model = instantiate(cfg.model, _recursive_=False)
# --- conf/train.yaml
defaults:
  - model: crab
  - _self_
seed: 42
# --- conf/model/crab.yaml
defaults:
  - optimizer: adam
_target_: mm.models.Crab
# --- conf/model/optimizer/adam.yaml
_target_: torch.optim.Adam
lr: 0.001
# --- mm/models.py
from hydra.utils import instantiate


class Crab:
    def __init__(self, optimizer):
        self.optimizer_cfg = optimizer

    def configure_optimizers(self):
        return instantiate(self.optimizer_cfg, params=self.parameters())
""",
    # the root of a config-group file is the optimizer node itself, built with its parameters
    """
# --- train.py
import hydra
from hydra.utils import instantiate


@hydra.main(config_path="conf", config_name="config", version_base="1.3")
def main(cfg):
    model = instantiate(cfg.model)
    optimizer = instantiate(cfg.optimizer, params=model.parameters())
# --- conf/config.yaml
defaults:
  - model: resnet
  - optimizer: adamw
  - _self_
# --- conf/model/resnet.yaml
_target_: torchvision.models.resnet50
# --- conf/optimizer/adamw.yaml
_target_: torch.optim.AdamW
lr: 0.001
""",
    # Hydra issue 1715: the node reaches a helper as a parameter, which passes the parameters
    """
# --- train.py
import hydra


def build_optimizer(optcfg, model):
    return hydra.utils.instantiate(optcfg, params=model.parameters())


@hydra.main(config_path=".", config_name="config", version_base="1.1")
def main(cfg):
    optimizer = build_optimizer(cfg.optimizer, model)
# --- config.yaml
optimizer:
  _target_: torch.optim.Adam
  lr: 0.001
""",
    # nuplan-devkit: no script of the job builds the node (an installed package does):
    # whether it passes the parameters cannot be seen
    """
# --- run_training.py
import hydra
from nuplan.planning.training.experiments.training import build_training_engine


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    engine = build_training_engine(cfg)
# --- conf/config.yaml
seed: 0
# --- conf/training/raster.yaml
# @package _global_
optimizer:
  _target_: torch.optim.Adam
  lr: 5.0e-5
""",
]

PF513_BAD = [
    """
# --- train.py
from hydra.utils import instantiate

loader = instantiate(cfg.train_loader)
# --- config.yaml
train_loader:
  _target_: torch.utils.data.DataLoader
  batch_size: 32
  shuffle: false  # warning: PF513
""",
    # super-gradients issue 416: a config group's loader settings omit shuffle (DataLoader's default is False)
    """
# --- train.py
import hydra
from torch.utils.data import DataLoader


@hydra.main(config_path="conf", config_name="config", version_base="1.2")
def main(cfg):
    train_loader = DataLoader(train_set, **cfg.dataset_params.train_dataloader_params)
    val_loader = DataLoader(val_set, **cfg.dataset_params.val_dataloader_params)
# --- conf/config.yaml
defaults:
  - dataset_params: imagenet
  - _self_
# --- conf/dataset_params/imagenet.yaml
train_dataloader_params:  # warning: PF513
  batch_size: 196
  drop_last: true
val_dataloader_params:
  batch_size: 196
""",
]

PF513_GOOD = [
    """
# --- train.py
from hydra.utils import instantiate

loader = instantiate(cfg.train_loader)
# --- config.yaml
train_loader:
  _target_: torch.utils.data.DataLoader
  batch_size: 32
  shuffle: true
val_loader:
  _target_: torch.utils.data.DataLoader
  batch_size: 64
  shuffle: false
""",
    """
# --- train.py
from hydra.utils import instantiate

loader = instantiate(cfg.train_loader)
# --- config.yaml
train_loader:
  batch_size: 32
  shuffle: false
  sampler: distributed
""",
    # the unpacked training settings shuffle; the validation ones may omit it
    """
# --- train.py
import hydra
from torch.utils.data import DataLoader


@hydra.main(config_path="conf", config_name="config", version_base="1.2")
def main(cfg):
    train_loader = DataLoader(train_set, **cfg.data.train)
    val_loader = DataLoader(val_set, **cfg.data.val)
    sampled = DataLoader(train_set, sampler=sampler, **cfg.data.train_sampled)
# --- conf/config.yaml
data:
  train:
    batch_size: 64
    shuffle: true
  val:
    batch_size: 128
  train_sampled:
    batch_size: 64
""",
]

PF514_BAD = [
    """
# --- train.py
from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

(args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")  # warning: PF514
# --- launch
python train.py --output_dir out --fp16
""",
    """
# --- train.py
import hydra

model_name = cfg.model_name
# --- config.yaml
model_name: google/flan-t5-large
trainer:
  _target_: lightning.Trainer
  precision: 16-mixed  # warning: PF514
""",
]

PF514_GOOD = [
    """
# --- train.py
from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

(args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
# --- launch
python train.py --output_dir out --bf16
""",
    """
# --- train.py
from transformers import AutoModel

model = AutoModel.from_pretrained("bert-base-uncased")
# --- launch
python train.py --fp16
""",
]

PF515_BAD = [
    """
# --- train.py
from hydra.utils import instantiate

model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
# --- config.yaml
loss:
  _target_: torch.nn.CrossEntropyLoss
model:
  _target_: torch.nn.Sequential
  _args_:
    - _target_: torch.nn.Linear
      in_features: 64
      out_features: 10
    - _target_: torch.nn.Softmax  # error: PF515
      dim: 1
""",
]

PF515_GOOD = [
    """
# --- train.py
from hydra.utils import instantiate

model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
# --- config.yaml
loss:
  _target_: torch.nn.CrossEntropyLoss
model:
  _target_: torch.nn.Sequential
  _args_:
    - _target_: torch.nn.Linear
      in_features: 64
      out_features: 10
""",
    """
# --- train.py
from hydra.utils import instantiate

model, loss_fn = instantiate(cfg.model), instantiate(cfg.loss)
# --- config.yaml
loss:
  _target_: torch.nn.NLLLoss
model:
  _target_: torch.nn.Sequential
  _args_:
    - _target_: torch.nn.Linear
      in_features: 64
      out_features: 10
    - _target_: torch.nn.LogSoftmax
      dim: 1
""",
]

PF516_BAD = [
    """
# --- train.py
import hydra

trainer = hydra.utils.instantiate(cfg.trainer)
# --- config.yaml
trainer:
  _target_: lightning.Trainer
  devices: 4
  strategy: ddp
  use_distributed_sampler: false  # error: PF516
""",
]

PF516_GOOD = [
    """
# --- train.py
import hydra

trainer = hydra.utils.instantiate(cfg.trainer)
# --- config.yaml
trainer:
  _target_: lightning.Trainer
  devices: 4
  strategy: ddp
""",
    """
# --- train.py
import hydra
from torch.utils.data.distributed import DistributedSampler

trainer = hydra.utils.instantiate(cfg.trainer)
sampler = DistributedSampler(dataset)
# --- config.yaml
trainer:
  _target_: lightning.Trainer
  devices: 4
  strategy: ddp
  use_distributed_sampler: false
""",
    # NeMo's Megatron models build rank-aware data samplers themselves and its configs switch
    # Lightning's off (the shape of NeMo's megatron_gpt_config.yaml trainer section, seen in
    # public configs found by searching for `use_distributed_sampler: false`)
    """
# --- megatron_gpt_pretraining.py
from nemo.collections.nlp.models.language_modeling.megatron_gpt_model import MegatronGPTModel
from nemo.collections.nlp.parts.megatron_trainer_builder import MegatronTrainerBuilder
from nemo.core.config import hydra_runner


@hydra_runner(config_path="conf", config_name="megatron_gpt_config")
def main(cfg):
    trainer = MegatronTrainerBuilder(cfg).create_trainer()
    trainer.fit(MegatronGPTModel(cfg.model, trainer))
# --- conf/megatron_gpt_config.yaml
trainer:
  devices: 8
  accelerator: gpu
  precision: bf16
  use_distributed_sampler: False
model:
  micro_batch_size: 4
  global_batch_size: 256
""",
]
