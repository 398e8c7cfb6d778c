"""PF501-PF506 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the
launch command); bad ones must fire, good ones stay silent."""

from __future__ import annotations

PF501_BAD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, deepspeed="ds.json")
Trainer(model=model, args=args, train_dataset=ds).train()
# --- ds.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 2}
}
# --- expect
ds.json:2: error: PF501
""",
]

PF501_BAD.append(
    # the explicit Accelerator argument beats the accelerate config: the config's bf16 is ignored
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="fp16")  # warning: PF501
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
mixed_precision: bf16
num_processes: 4
""")

PF501_BAD.append(
    # MedicalGPT: fp16 on in the DeepSpeed config, --fp16 left off the launch line
    """
# --- sft.py
from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
Seq2SeqTrainer(model=model, args=training_args).train()
# --- ds_config.json
{"fp16": {"enabled": true}, "zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": "auto"}
# --- launch
deepspeed --num_gpus 2 sft.py --do_train --output_dir out --deepspeed ds_config.json
# --- expect
ds_config.json:1: error: PF501
""")

PF501_GOOD = [
    # tricky-correct (transformers issue 25841's shape): the Trainer's model is built in an imported
    # module that attaches a LoRA adapter with add_adapter(); the Trainer's "full fine-tune" is only
    # a guess, not a second setting that disagrees with the LoRA read in model.py
    """
# --- model.py
from peft import LoraConfig
from transformers import AutoModelForCausalLM, PretrainedConfig, PreTrainedModel


class CustomModel(PreTrainedModel):
    config_class = PretrainedConfig

    def __init__(self, config):
        super().__init__(config)
        self.model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-70m")
        self.model.add_adapter(LoraConfig(task_type="CAUSAL_LM", r=8, lora_alpha=32))
        self.model.gradient_checkpointing_enable()
        self.model.enable_input_require_grads()

    def forward(self, input_ids, attention_mask=None, labels=None):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
# --- train.py
from transformers import PretrainedConfig, Trainer, TrainingArguments

from model import CustomModel
from data import train_dataset

model = CustomModel(PretrainedConfig())
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, num_train_epochs=1)
trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
trainer.train()
# --- requirements.txt
transformers==4.32.1
peft==0.5.0
""",
    # CVI-SZU/Linly issue 83's fix: fp32 weights handed to a bf16 DeepSpeed engine, which casts the
    # parameters to bf16 in `initialize`: the load dtype is no second precision setting
    """
# --- pretrain.py
import argparse

import deepspeed
import torch
from transformers import LlamaForCausalLM


def main(train_loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    deepspeed.init_distributed()
    with deepspeed.zero.Init(config_dict_or_path=args.deepspeed_config):
        model = LlamaForCausalLM.from_pretrained("models/llama_7b", torch_dtype=torch.float32)
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for batch in train_loader:
        loss = engine(**batch).loss
        engine.backward(loss)
        engine.step()
# --- ds_zero3_config.json
{"train_micro_batch_size_per_gpu": 24, "gradient_accumulation_steps": 1, "bf16": {"enabled": true},
 "zero_optimization": {"stage": 3}}
# --- launch
deepspeed --num_gpus 8 pretrain.py --deepspeed --deepspeed_config ds_zero3_config.json
""",
    # tricky-correct: the script accumulates over engine.backward calls itself, marking the last one
    # with set_gradient_accumulation_boundary; the config's accumulation of 1 is the design
    """
# --- train.py
import argparse
import json

import deepspeed

from rl_data import packed_microbatches, policy_loss


def main(policy):
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepspeed_config", type=str, required=True)
    parser.add_argument("--accumulation_steps", type=int, default=4)
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    with open(args.deepspeed_config) as f:
        ds_config = json.load(f)
    model, optimizer, _, _ = deepspeed.initialize(model=policy, model_parameters=policy.parameters(),
                                                  config=ds_config)
    for step in range(1000):
        micro_batches = packed_microbatches(step, args.accumulation_steps)
        for i, mb in enumerate(micro_batches):
            loss = policy_loss(model(input_ids=mb["input_ids"]).logits, mb) / args.accumulation_steps
            model.set_gradient_accumulation_boundary(i == len(micro_batches) - 1)
            model.backward(loss)
        model.step()
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 8 train.py --deepspeed_config ds_config.json --accumulation_steps 4
""",
    # DeepSpeed bf16 and TrainingArguments(bf16=True), a bfloat16 load: all bf16, no conflict
    """
# --- train.py
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", bf16=True, deepspeed="ds.json", per_device_train_batch_size=2)
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", torch_dtype=torch.bfloat16)
# --- ds.json
{"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
""",
    # "auto": the Trainer fills the DeepSpeed value from its own argument
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, deepspeed="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
""",
    # the same value in both places
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, deepspeed="ds.json")
# --- ds.json
{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
""",
    # "auto" is filled from TrainingArguments; or the launch line passes --fp16
    """
# --- sft.py
from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
Seq2SeqTrainer(model=model, args=training_args).train()
# --- ds_config.json
{"fp16": {"enabled": "auto"}, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 2 sft.py --do_train --output_dir out --bf16 --deepspeed ds_config.json
""",
    # a Trainer subclass whose training_step calls backward itself (transformers PR 9705's
    # shape): the Trainer still owns the loop, so the job fine-tunes; `trainer.train()` and the
    # override's backward are not two task modes
    """
# --- run_clm.py
from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

from trainer import RDropTrainer

training_args, rest = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(return_remaining_strings=True)
model = AutoModelForCausalLM.from_pretrained("gpt2-large")
trainer = RDropTrainer(model=model, args=training_args, train_dataset=None)
trainer.train()
# --- trainer.py
from transformers import Trainer


class RDropTrainer(Trainer):
    def training_step(self, model, inputs, num_items_in_batch=None):
        model.train()
        out1 = model(**inputs)
        out2 = model(**inputs)
        loss = 0.5 * (out1.loss + out2.loss)
        self.accelerator.backward(loss)
        return loss.detach()
# --- ds_config.json
{"fp16": {"enabled": "auto"}, "train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 4 run_clm.py --per_device_train_batch_size 4 --deepspeed ds_config.json --output_dir out
""",
    # tricky-correct (tinyworlds PR 13's shape): a two-stage pipeline, each stage its own script with a
    # `__main__` block; their DataLoader batch sizes belong to two jobs, not one job said twice
    """
# --- train_tokenizer.py
import torch
from torch.utils.data import DataLoader

from models import VideoTokenizer, clips


def main():
    model = VideoTokenizer().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for frames in DataLoader(clips(), batch_size=32, shuffle=True):
        loss = model(frames.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
# --- train_dynamics.py
import torch
from torch.utils.data import DataLoader

from models import DynamicsModel, clips


def main():
    model = DynamicsModel().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for frames in DataLoader(clips(), batch_size=16, shuffle=True):
        loss = model(frames.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
# --- launch
python train_tokenizer.py
""",
    # tricky-correct: float32 weights loaded in the LightningModule's file, `precision="16-mixed"` in the
    # training script: mixed precision autocasts the forward and keeps float32 parameters, as intended
    """
# --- train.py
import lightning as L

from model import LitLM

if __name__ == "__main__":
    trainer = L.Trainer(accelerator="gpu", devices=1, precision="16-mixed", max_steps=1000)
    trainer.fit(LitLM("EleutherAI/pythia-1b"))
# --- model.py
import lightning as L
import torch
from transformers import AutoModelForCausalLM


class LitLM(L.LightningModule):
    def __init__(self, name):
        super().__init__()
        self.model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float32)

    def training_step(self, batch, batch_idx):
        return self.model(**batch).loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=2e-5)
# --- launch
python train.py
""",
    # tricky-correct: an RL loop whose rollout helper only generates; the job trains (one task mode)
    """
# --- rollout.py
import torch


@torch.no_grad()
def rollout(model, prompts, max_new_tokens=256):
    return model.generate(**prompts, max_new_tokens=max_new_tokens, do_sample=True)
# --- train_rl.py
import torch
from transformers import AutoModelForCausalLM

from rollout import rollout


def main(loader):
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B").cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-6)
    for prompts in loader:
        completions = rollout(model, prompts)
        loss = model(input_ids=completions, labels=completions).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
# --- launch
python train_rl.py
""",
    # Lightning issue 12862 (held-out-20's tricky-correct program): training on 8 GPUs and testing on one
    # in a script of its own (each run on its own, neither importing the other): two jobs, not one job
    # that states its devices twice
    """
# --- train.py
import argparse

import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint

from seg.data import CityscapesDataModule
from seg.module import SegModule


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", default="/data/cityscapes")
    args = p.parse_args()
    dm = CityscapesDataModule(args.root, batch_size=4, num_workers=8)
    model = SegModule(num_classes=19, lr=0.01, max_epochs=200)
    ckpt = ModelCheckpoint(dirpath="checkpoints", monitor="val_miou", mode="max", save_top_k=1, filename="best")
    trainer = L.Trainer(max_epochs=200, accelerator="gpu", devices=8, strategy="ddp", sync_batchnorm=True, precision="16-mixed", callbacks=[ckpt])
    trainer.fit(model, datamodule=dm)


if __name__ == "__main__":
    main()
# --- test.py
import argparse

import lightning as L

from seg.data import CityscapesDataModule
from seg.module import SegModule


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", default="/data/cityscapes")
    p.add_argument("--ckpt", default="checkpoints/best.ckpt")
    args = p.parse_args()
    dm = CityscapesDataModule(args.root, batch_size=4, num_workers=8)
    model = SegModule.load_from_checkpoint(args.ckpt)
    tester = L.Trainer(accelerator="gpu", devices=1, num_nodes=1, precision="16-mixed", logger=False)
    tester.test(model, datamodule=dm)


if __name__ == "__main__":
    main()
# --- seg/module.py
import lightning as L
import torch
import torch.nn.functional as F
from torchmetrics.classification import MulticlassJaccardIndex

from seg.nets import deeplabv3plus


class SegModule(L.LightningModule):
    def __init__(self, num_classes, lr, max_epochs):
        super().__init__()
        self.save_hyperparameters()
        self.net = deeplabv3plus(num_classes)
        self.val_miou = MulticlassJaccardIndex(num_classes, ignore_index=255)
        self.test_miou = MulticlassJaccardIndex(num_classes, ignore_index=255)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y, ignore_index=255)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_miou.update(self.net(x).argmax(1), y)
        self.log("val_miou", self.val_miou, on_epoch=True)

    def test_step(self, batch, batch_idx):
        x, y = batch
        self.test_miou.update(self.net(x).argmax(1), y)
        self.log("test_miou", self.test_miou, on_epoch=True)

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9, weight_decay=1e-4)
        sched = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=self.hparams.max_epochs, power=0.9)
        return [opt], [sched]
# --- launch
python test.py --root /data/cityscapes --ckpt checkpoints/best.ckpt
""",
]

PF502_BAD = [
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{
  "train_batch_size": 32,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2}
}
# --- launch
torchrun --nnodes 1 --nproc_per_node 8 train.py
# --- expect
ds_config.json:2: error: PF502
""",
    # deepspeed --num_gpus 4 without --num_nodes: the world size is a multiple of 4, and
    # 40 is not a multiple of 4 x 2 x 4 = 32 for any node count
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": 40, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 4 train.py --deepspeed_config ds_config.json
# --- expect
ds_config.json:1: error: PF502
""",
    # bigcode-project/starcoder issue 77: one GPU, no hostfile: 64 != 4 x 8 x 1 (warning:
    # it would hold on two nodes of a hostfile)
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8,
 "zero_optimization": {"stage": 3}}
# --- launch
deepspeed --num_gpus 1 train.py --deepspeed_config ds_config.json
# --- expect
ds_config.json:1: warning: PF502
""",
    # no launch command: 30 is not a multiple of 4 x 2 for any world size
    """
# --- ds_config.json
{"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 1}}
# --- expect
ds_config.json:1: error: PF502
""",
    # held-out-14 (trlx GPT-J reward model): the HF Trainer runs with a DeepSpeed config that fixes
    # train_batch_size 32 while its TrainingArguments give 1 x 1 x 4 processes
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="rm", per_device_train_batch_size=1, gradient_accumulation_steps=1,
                         fp16=True, deepspeed="ds_config.json")
Trainer(model=model, args=args, train_dataset=train_set).train()
# --- ds_config.json
{"train_batch_size": 32, "fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}
# --- launch
torchrun --nproc_per_node 4 train.py
# --- expect
ds_config.json:1: error: PF502
""",
]

PF502_GOOD = [
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2}
}
# --- launch
torchrun --nnodes 1 --nproc_per_node 8 train.py
""",
    # deepspeed --num_gpus 4: 32 = 4 x 2 x 4 on one node
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --num_gpus 4 train.py --deepspeed_config ds_config.json
""",
    # a hostfile names the nodes: 64 = 4 x 2 x 4 x 2 holds on two of them
    """
# --- train.py
import deepspeed
engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 2}}
# --- launch
deepspeed --hostfile hosts.txt --num_gpus 4 train.py --deepspeed_config ds_config.json
""",
    # pipeline parallelism: 8 processes in 2 stages are 4 data-parallel ranks, 32 = 4 x 2 x 4
    """
# --- train.py
import deepspeed
from deepspeed.pipe import PipelineModule

net = PipelineModule(layers=layers, num_stages=2)
engine, _, _, _ = deepspeed.initialize(model=net, config="ds_config.json")
# --- ds_config.json
{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
 "zero_optimization": {"stage": 1}}
# --- launch
torchrun --nproc_per_node 8 train.py
""",
    # two of three given, the third derived; "auto" filled by the HF Trainer
    """
# --- ds_a.json
{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
# --- ds_b.json
{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
 "zero_optimization": {"stage": 3}}
""",
    # the HF Trainer with the same product: 32 = 4 (per device) x 2 (accumulation) x 4 processes
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="rm", per_device_train_batch_size=4, gradient_accumulation_steps=2,
                         fp16=True, deepspeed="ds_config.json")
Trainer(model=model, args=args, train_dataset=train_set).train()
# --- ds_config.json
{"train_batch_size": 32, "fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}
# --- launch
torchrun --nproc_per_node 4 train.py
""",
]

PF503_BAD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 2,
  "fp16": {"enabled": true},
  "bf16": {"enabled": true},
  "zero_optimization": {"stage": 2}
}
# --- expect
ds_config.json:4: error: PF503
""",
    """
# --- train.py
from transformers import TrainingArguments

args = TrainingArguments(output_dir="out", fp16=True, bf16=True)  # error: PF503
""",
]

PF503_GOOD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 2,
  "fp16": {"enabled": "auto"},
  "bf16": {"enabled": "auto"},
  "zero_optimization": {"stage": 2}
}
""",
    """
# --- train.py
from transformers import TrainingArguments

args = TrainingArguments(output_dir="out", fp16=False, bf16=True)
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
bf16: true
fp16: false
""",
]

PF504_BAD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {
    "stage": 2,
    "offload_optimizer": {"device": "cpu"},
    "offload_param": {"device": "cpu"}
  }
}
# --- expect
ds_config.json:6: warning: PF504
""",
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
num_processes: 8
deepspeed_config:
  zero_stage: 2
  offload_optimizer_device: cpu
  offload_param_device: cpu  # warning: PF504
""",
]

PF504_GOOD = [
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}
}
""",
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "none"}}
}
""",
]

PF505_BAD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json")
trainer = Trainer(model=model, args=args, train_dataset=ds)
trainer.train()
trainer.save_model("final")
# --- ds_zero3.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": 3, "overlap_comm": true}
}
# --- expect
ds_zero3.json:3: warning: PF505
""",
    # FastChat issue 508: safe_save_model_for_hf_trainer saves trainer.model.state_dict() through
    # Trainer._save with the gather flag false: a 400 MB "model" of placeholders
    """
# --- train.py
from transformers import Trainer


def safe_save_model_for_hf_trainer(trainer, output_dir):
    state_dict = trainer.model.state_dict()
    if trainer.args.should_save:
        trainer._save(output_dir, state_dict={k: v.cpu() for k, v in state_dict.items()})


trainer = Trainer(model=model, args=training_args, train_dataset=ds)
trainer.train()
safe_save_model_for_hf_trainer(trainer, "out")
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}
}
# --- launch
deepspeed train.py --deepspeed ds_config.json
# --- expect
ds_config.json:3: warning: PF505
""",
    # held-out-4 (accelerate issue 2294): the unwrapped UNet saved on the main process under ZeRO-3,
    # with the 16-bit save flag on (it applies to get_state_dict only)
    """
# --- train.py
import os

from accelerate import Accelerator


def main(args, unet, optimizer, loader):
    accelerator = Accelerator()
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    for batch in loader:
        accelerator.backward(unet(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        unet = accelerator.unwrap_model(unet)
        unet.save_pretrained(os.path.join(args.output_dir, "unet"))  # warning: PF505
# --- accelerate_config.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_machines: 1
num_processes: 8
""",
    # trlx PR 576: get_state_dict of the unwrapped module under ZeRO-3 (no engine to gather through)
    """
# --- trainer.py
from accelerate import Accelerator


class SFTTrainer:
    def __init__(self, model, opt, loader):
        self.accelerator = Accelerator()
        self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

    def save_pretrained(self, directory):
        self.accelerator.unwrap_model(self.model).save_pretrained(
            directory,
            save_function=self.accelerator.save,
            is_main_process=self.accelerator.is_main_process,
            state_dict=self.accelerator.get_state_dict(self.accelerator.unwrap_model(self.model)),  # warning: PF505
        )
# --- zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 8
""",
    # LAMM issue 32: the engine's module state dict torch.save()d from a method under ZeRO-3
    """
# --- agent.py
import os

import deepspeed
import torch


class DeepSpeedAgent:
    def __init__(self, model, ds_config_path="ds_config.json"):
        self.model = model
        self.ds_engine, self.optimizer, _, _ = deepspeed.initialize(
            model=self.model, model_parameters=self.model.parameters(), config=ds_config_path)

    def save_model(self, path):
        state_dict = self.ds_engine.module.state_dict()  # warning: PF505
        trainable = {k: v.detach().cpu() for k, v in state_dict.items() if "lora" in k}
        torch.save(trainable, os.path.join(path, "pytorch_model.pt"))
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}
""",
    # the DeepSpeed MNIST tutorial shape: the model given to deepspeed.initialize saved at the end
    """
# --- train.py
import deepspeed
import torch


def main(args, net, loader):
    model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    for x, y in loader:
        model_engine.backward(model_engine(x, y))
        model_engine.step()
    torch.save(net.state_dict(), "mnist_cnn.pt")  # warning: PF505
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3}, "bf16": {"enabled": true}}
# --- launch
deepspeed train.py --deepspeed_config ds_config.json
""",
    # accelerate issue 3238: the unwrapped FLUX transformer's own state dict written with safetensors
    """
# --- flux_train.py
import os

from accelerate import Accelerator
from safetensors.torch import save_file


def main(args, flux, optimizer, loader):
    accelerator = Accelerator()
    flux, optimizer, loader = accelerator.prepare(flux, optimizer, loader)
    for batch in loader:
        accelerator.backward(flux(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        flux = accelerator.unwrap_model(flux)
        save_file(flux.state_dict(), os.path.join(args.output_dir, "flux.safetensors"))  # warning: PF505
# --- ds_zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_machines: 1
num_processes: 8
""",
]

PF505_GOOD = [
    # ZeRO-3 with the state dict gathered, or read in the branch for stages 0-2; the engine's own
    # consolidated 16-bit dict; a state dict copied without writing a file; ZeRO-2 below
    """
# --- agent.py
import deepspeed
import torch


class Agent:
    def __init__(self, model, zero_stage):
        self.zero_stage = zero_stage
        self.engine, self.optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")

    def save(self, path):
        if self.zero_stage == 3:
            state_dict = self.engine._zero3_consolidated_16bit_state_dict()
        else:
            state_dict = self.engine.module.state_dict()
        torch.save(state_dict, path)

    def save_trainable(self, path):
        params = [p for p in self.engine.module.parameters() if p.requires_grad]
        with deepspeed.zero.GatheredParameters(params, modifier_rank=0):
            torch.save(self.engine.module.state_dict(), path)

    def snapshot(self):
        return {k: v.clone() for k, v in self.engine.module.state_dict().items()}
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}
""",
    """
# --- train.py
import deepspeed
import torch


def main(args, net, loader):
    model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    torch.save(model_engine.module.state_dict(), "model.pt")
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2}}
""",
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json")
trainer = Trainer(model=model, args=args, train_dataset=ds)
trainer.train()
trainer.save_model("final")
# --- ds_zero3.json
{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}
}
""",
    # DeepSpeedExamples zero_inference: dummy weights saved with an explicit state_dict before the
    # model is handed to DeepSpeed
    """
# --- run_model.py
import deepspeed
import torch
from accelerate import init_empty_weights
from transformers import OPTForCausalLM

with init_empty_weights():
    model = OPTForCausalLM(config)
model.save_pretrained("dummy", state_dict={k: torch.empty_like(v, device="cpu") for k, v in model.state_dict().items()})
engine = deepspeed.initialize(model=OPTForCausalLM.from_pretrained("dummy"), config="ds_zero3.json")[0]
# --- ds_zero3.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
""",
    # ZeRO-3 but only the tokenizer is saved
    """
# --- train.py
tokenizer.save_pretrained("out")
# --- ds_zero3.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
""",
    # ZeRO-2 keeps whole parameters on every rank
    """
# --- train.py
model.save_pretrained("out")
# --- ds_zero2.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}
""",
    # the fix: the gathered state dict, on every rank
    """
# --- train.py
import os

from accelerate import Accelerator


def main(args, unet, optimizer, loader):
    accelerator = Accelerator()
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    for batch in loader:
        accelerator.backward(unet(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.wait_for_everyone()
    unwrapped = accelerator.unwrap_model(unet)
    unwrapped.save_pretrained(os.path.join(args.output_dir, "unet"), is_main_process=accelerator.is_main_process,
                              save_function=accelerator.save, state_dict=accelerator.get_state_dict(unet))
# --- accelerate_config.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_machines: 1
num_processes: 8
""",
    # the trlx fix: get_state_dict of the prepared model, unwrap=True; and ZeRO-2, where the unwrapped
    # module holds whole weights
    """
# --- trainer.py
from accelerate import Accelerator


class SFTTrainer:
    def __init__(self, model, opt, loader):
        self.accelerator = Accelerator()
        self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

    def save_pretrained(self, directory):
        self.accelerator.unwrap_model(self.model).save_pretrained(
            directory, state_dict=self.accelerator.get_state_dict(self.model, unwrap=True))
# --- zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 8
""",
    """
# --- trainer.py
from accelerate import Accelerator

accelerator = Accelerator()
model, opt = accelerator.prepare(model, opt)
state = accelerator.get_state_dict(accelerator.unwrap_model(model))
# --- zero2.yaml
deepspeed_config:
  zero_stage: 2
distributed_type: DEEPSPEED
num_processes: 8
""",
    # the fix of accelerate issue 3238: get_state_dict on every rank gathers the weights, the main process writes them
    """
# --- flux_train.py
import os

from accelerate import Accelerator
from safetensors.torch import save_file


def main(args, flux, optimizer, loader):
    accelerator = Accelerator()
    flux, optimizer, loader = accelerator.prepare(flux, optimizer, loader)
    for batch in loader:
        accelerator.backward(flux(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.wait_for_everyone()
    state_dict = accelerator.get_state_dict(flux)
    if accelerator.is_main_process:
        save_file(state_dict, os.path.join(args.output_dir, "flux.safetensors"))
# --- ds_zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_machines: 1
num_processes: 8
""",
]

PF505_BAD.append(
    # a GRPO loop syncing vLLM from the unwrapped model's own state dict under ZeRO-3 (held-out-15 shape)
    """
# --- grpo_train.py
from accelerate import Accelerator


def sync_weights(accelerator, model, llm):
    state_dict = accelerator.unwrap_model(model).state_dict()  # warning: PF505
    if accelerator.is_main_process:
        llm.llm_engine.model_executor.driver_worker.model_runner.model.load_weights(state_dict.items())


def main(model, optimizer, loader, llm):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, batch in enumerate(loader):
        sync_weights(accelerator, model, llm)
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
# --- zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 7
""")

PF505_BAD.append(
    # the state dict of the unwrapped model bound to a name, then written with safetensors (Flux LoRA shape)
    """
# --- train_flux.py
from accelerate import Accelerator
from safetensors.torch import save_file


def train(args, transformer, optimizer, loader):
    accelerator = Accelerator(mixed_precision="bf16")
    transformer, optimizer, loader = accelerator.prepare(transformer, optimizer, loader)
    for epoch in range(args.epochs):
        for batch in loader:
            accelerator.backward(transformer(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        weights = accelerator.unwrap_model(transformer).state_dict()  # warning: PF505
        if accelerator.is_main_process:
            save_file(weights, f"{args.out}/epoch{epoch}.safetensors")
# --- zero3.yaml
deepspeed_config:
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 4
""")

PF505_GOOD.extend([
    # the Flux fix: the gathered state dict from get_state_dict, written on the main process
    """
# --- train_flux.py
from accelerate import Accelerator
from safetensors.torch import save_file


def train(args, transformer, optimizer, loader):
    accelerator = Accelerator(mixed_precision="bf16")
    transformer, optimizer, loader = accelerator.prepare(transformer, optimizer, loader)
    for epoch in range(args.epochs):
        for batch in loader:
            accelerator.backward(transformer(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        weights = accelerator.get_state_dict(transformer)
        if accelerator.is_main_process:
            save_file(weights, f"{args.out}/epoch{epoch}.safetensors")
# --- zero3.yaml
deepspeed_config:
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 4
""",
    # the fix: get_state_dict gathers on every rank
    """
# --- grpo_train.py
from accelerate import Accelerator


def sync_weights(accelerator, model, llm):
    state_dict = accelerator.get_state_dict(model)
    if accelerator.is_main_process:
        llm.llm_engine.model_executor.driver_worker.model_runner.model.load_weights(state_dict.items())


def main(model, optimizer, loader, llm):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        sync_weights(accelerator, model, llm)
        accelerator.backward(model(**batch).loss)
        optimizer.step()
        optimizer.zero_grad()
# --- zero3.yaml
deepspeed_config:
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 7
""",
    # tricky-correct: only the parameter names of the unwrapped state dict are used
    """
# --- train.py
from accelerate import Accelerator


def main(model, optimizer, loader):
    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    state_dict = accelerator.unwrap_model(model).state_dict()
    lora_names = [k for k in state_dict.keys() if "lora_" in k]
    print(len(lora_names))
# --- zero3.yaml
deepspeed_config:
  zero_stage: 3
distributed_type: DEEPSPEED
num_processes: 8
""",
    # ZeRO-2 keeps whole parameters on every rank
    """
# --- grpo_train.py
from accelerate import Accelerator


def sync_weights(accelerator, model, llm):
    state_dict = accelerator.unwrap_model(model).state_dict()
    llm.load_weights(state_dict.items())
# --- zero2.yaml
deepspeed_config:
  zero_stage: 2
distributed_type: DEEPSPEED
num_processes: 7
""",
])

PF506_BAD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", fsdp="full_shard auto_wrap", gradient_checkpointing=True,  # warning: PF506
                         bf16=True)
Trainer(model=model, args=args, train_dataset=ds).train()
""",
]

PF506_GOOD = [
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", fsdp="full_shard auto_wrap",
                         fsdp_config={"activation_checkpointing": True}, bf16=True)
Trainer(model=model, args=args, train_dataset=ds).train()
""",
    # a library module: checkpointing re-enabled in one helper, a frozen reference model
    # wrapped in FSDP by another
    """
# --- helpers.py
import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

def restore_checkpointing(model, was_on):
    if was_on:
        model.gradient_checkpointing_enable()

def wrap_reference(ref_model, device):
    ref_model.eval()
    return FSDP(ref_model, device_id=device)
""",
    # SHARD_GRAD_OP keeps parameters gathered between forward and backward
    """
# --- train.py
from transformers import Trainer, TrainingArguments

args = TrainingArguments(output_dir="out", fsdp="shard_grad_op", gradient_checkpointing=True)
""",
]

PF507_BAD = [
    """
# --- train.py
import hydra

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    model = hydra.utils.instantiate(cfg.model)

if __name__ == "__main__":
    main()
# --- configs/train.yaml
defaults:
  - model: mlp
  - _self_
seed: 0
# --- configs/model/mlp.yaml
_target_: mypkg.MLP
hidden: 256
lr: ???  # warning: PF507
""",
    # assigned at runtime, but only after the node holding it was already read
    """
# --- train.py
import hydra

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    model = build(**cfg.model)
    cfg.model.vocab_size = 100

if __name__ == "__main__":
    main()
# --- configs/train.yaml
defaults:
  - model: textcnn
  - _self_
seed: 0
# --- configs/model/textcnn.yaml
vocab_size: ???  # warning: PF507
dim: 300
""",
]

PF507_GOOD = [
    # the launch command gives the mandatory value
    """
# --- train.py
import hydra

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    model = hydra.utils.instantiate(cfg.model)
# --- configs/train.yaml
defaults:
  - model: mlp
  - _self_
# --- configs/model/mlp.yaml
_target_: mypkg.MLP
lr: ???
# --- launch
python train.py model.lr=3e-4
""",
    """
# --- train.py
import hydra

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    print(cfg.lr)
# --- configs/train.yaml
lr: 0.001
""",
    # the script fills the mandatory value in before it instantiates the node (facebookresearch/drqv2
    # train.py:28-31 @ c0c650b: `cfg.obs_shape = obs_spec.shape`)
    """
# --- train.py
import hydra

def make_agent(obs_shape, cfg):
    cfg.obs_shape = obs_shape
    return hydra.utils.instantiate(cfg)

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    agent = make_agent((9, 84, 84), cfg.agent)
# --- configs/train.yaml
agent:
  _target_: mypkg.Agent
  obs_shape: ???  # to be specified later
""",
    # the app fills the mandatory value in at runtime before anything reads it
    """
# --- train.py
import hydra

@hydra.main(config_path="configs", config_name="train", version_base=None)
def main(cfg):
    vocab = load_vocab(cfg.data.path)
    cfg.model.vocab_size = len(vocab)
    model = build(**cfg.model)

if __name__ == "__main__":
    main()
# --- configs/train.yaml
defaults:
  - model: textcnn
  - _self_
data:
  path: data
# --- configs/model/textcnn.yaml
vocab_size: ???
dim: 300
""",
]

PF501_BAD.append(
    # LlamaFactory issue 201: the accelerate config's DeepSpeed plugin accumulates 4, the Trainer 2
    """
# --- train_sft.py
from transformers import HfArgumentParser, Seq2SeqTrainingArguments, Trainer

model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
Trainer(model=model, args=training_args, train_dataset=train_ds).train()
# --- accelerate_config.yaml
compute_environment: LOCAL_MACHINE
deepspeed_config:
  gradient_accumulation_steps: 4  # error: PF501
  zero_stage: 2
distributed_type: DEEPSPEED
mixed_precision: fp16
num_machines: 1
num_processes: 4
# --- launch
accelerate launch --config_file accelerate_config.yaml train_sft.py --output_dir out --gradient_accumulation_steps 2
""")

PF501_GOOD.append(
    # the fix: the plugin and the Trainer accumulate the same number of micro-batches
    """
# --- train_sft.py
from transformers import HfArgumentParser, Seq2SeqTrainingArguments, Trainer

model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
Trainer(model=model, args=training_args, train_dataset=train_ds).train()
# --- accelerate_config.yaml
compute_environment: LOCAL_MACHINE
deepspeed_config:
  gradient_accumulation_steps: 2
  zero_stage: 2
distributed_type: DEEPSPEED
mixed_precision: fp16
num_machines: 1
num_processes: 4
# --- launch
accelerate launch --config_file accelerate_config.yaml train_sft.py --output_dir out --gradient_accumulation_steps 2
""")

PF501_BAD.append(
    # tricky-correct, reported only as a note: the launch line reuses an 8-GPU accelerate config for a
    # one-process run. `accelerate launch` fills from the file only what the command leaves unset, so
    # `--num_processes 1` is the deliberate override (InternImage's accelerate + DeepSpeed recipe)
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
# --- dist_8gpus.yaml
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
machine_rank: 0
num_machines: 1
num_processes: 8
# --- launch
accelerate launch --config_file dist_8gpus.yaml --num_processes 1 train.py
# --- expect
dist_8gpus.yaml:5: note: PF501
""")
