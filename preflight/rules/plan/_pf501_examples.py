"""PF501 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF501_BAD = [
    textwrap.dedent("""
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
"""),
]

PF501_BAD.append(
    # the explicit Accelerator argument beats the accelerate config: the config's bf16 is ignored
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="fp16")  # warning: PF501
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- accelerate.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    mixed_precision: bf16
    num_processes: 4
"""))

PF501_BAD.append(
    # MedicalGPT: fp16 on in the DeepSpeed config, --fp16 left off the launch line
    textwrap.dedent("""
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
"""))

PF501_GOOD = [
    # tricky-correct (transformers issue 25841's shape): the Trainer's model is built in an imported
    # module that attaches a LoRA adapter with add_adapter(); the Trainer's "full fine-tune" is only
    # a guess, not a second setting that disagrees with the LoRA read in model.py
    textwrap.dedent("""
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
"""),
    # CVI-SZU/Linly issue 83's fix: fp32 weights handed to a bf16 DeepSpeed engine, which casts the
    # parameters to bf16 in `initialize`: the load dtype is no second precision setting
    textwrap.dedent("""
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
"""),
    # tricky-correct: the script accumulates over engine.backward calls itself, marking the last one
    # with set_gradient_accumulation_boundary; the config's accumulation of 1 is the design
    textwrap.dedent("""
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
"""),
    # DeepSpeed bf16 and TrainingArguments(bf16=True), a bfloat16 load: all bf16, no conflict
    textwrap.dedent("""
    # --- train.py
    import torch
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", bf16=True, deepspeed="ds.json", per_device_train_batch_size=2)
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", torch_dtype=torch.bfloat16)
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
"""),
    # "auto": the Trainer fills the DeepSpeed value from its own argument
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=8, deepspeed="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
"""),
    # the same value in both places
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, deepspeed="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}
"""),
    # "auto" is filled from TrainingArguments; or the launch line passes --fp16
    textwrap.dedent("""
    # --- sft.py
    from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    model_args, training_args = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    Seq2SeqTrainer(model=model, args=training_args).train()
    # --- ds_config.json
    {"fp16": {"enabled": "auto"}, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 2 sft.py --do_train --output_dir out --bf16 --deepspeed ds_config.json
"""),
    # a Trainer subclass whose training_step calls backward itself (transformers PR 9705's
    # shape): the Trainer still owns the loop, so the job fine-tunes; `trainer.train()` and the
    # override's backward are not two task modes
    textwrap.dedent("""
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
"""),
    # tricky-correct (tinyworlds PR 13's shape): a two-stage pipeline, each stage its own script with a
    # `__main__` block; their DataLoader batch sizes belong to two jobs, not one job said twice
    textwrap.dedent("""
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
"""),
    # tricky-correct: float32 weights loaded in the LightningModule's file, `precision="16-mixed"` in the
    # training script: mixed precision autocasts the forward and keeps float32 parameters, as intended
    textwrap.dedent("""
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
"""),
    # tricky-correct: an RL loop whose rollout helper only generates; the job trains (one task mode)
    textwrap.dedent("""
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
"""),
    # Lightning issue 12862 (held-out-20's tricky-correct program): training on 8 GPUs and testing on one
    # in a script of its own (each run on its own, neither importing the other): two jobs, not one job
    # that states its devices twice
    textwrap.dedent("""
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
"""),
]

PF501_BAD.append(
    # LlamaFactory issue 201: the accelerate config's DeepSpeed plugin accumulates 4, the Trainer 2
    textwrap.dedent("""
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
"""))

PF501_GOOD.append(
    # the fix: the plugin and the Trainer accumulate the same number of micro-batches
    textwrap.dedent("""
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
"""))

PF501_BAD.append(
    # tricky-correct, reported only as a note: the launch line reuses an 8-GPU accelerate config for a
    # one-process run. `accelerate launch` fills from the file only what the command leaves unset, so
    # `--num_processes 1` is the deliberate override (InternImage's accelerate + DeepSpeed recipe)
    textwrap.dedent("""
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
"""))

PF501_GOOD.append(
    # held-out-23 (torchmetrics issue 269's Lightning job): the LightningModule builds its network with a
    # function of nets.py; the wrapper class and the torchvision model are one model, not two values
    textwrap.dedent("""
    # --- train.py
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F

    from nets import resnet18_cifar


    class LitClassifier(pl.LightningModule):
        def __init__(self, num_classes=10):
            super().__init__()
            self.model = resnet18_cifar(num_classes)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.cross_entropy(self.model(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.05)


    trainer = pl.Trainer(max_epochs=100, accelerator="gpu", devices=1)
    trainer.fit(LitClassifier(), train_dataloaders=loader)
    # --- nets.py
    import torch.nn as nn
    import torchvision


    def resnet18_cifar(num_classes):
        net = torchvision.models.resnet18(num_classes=num_classes)
        net.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        return net
"""))

PF501_GOOD.append(
    # tricky-correct: a project module class attached to each layer of a pretrained model
    # (`layer.mlp.adapter = Bottleneck(...)`) is a part of that model, not a second model
    textwrap.dedent("""
    # --- adapters_lite.py
    from torch import nn


    class Bottleneck(nn.Module):
        def __init__(self, hidden, width=64):
            super().__init__()
            self.down = nn.Linear(hidden, width)
            self.up = nn.Linear(width, hidden)

        def forward(self, x):
            return x + self.up(self.down(x).relu())


    def add_bottlenecks(model):
        for layer in model.model.layers:
            layer.mlp.adapter = Bottleneck(model.config.hidden_size)
        return model
    # --- train.py
    import torch
    from transformers import AutoModelForCausalLM

    from adapters_lite import add_bottlenecks

    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    model.requires_grad_(False)
    add_bottlenecks(model)
    params = [p for n, p in model.named_parameters() if "adapter" in n]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""))

PF501_GOOD.append(
    # tricky-correct: DeepSpeed's fused transformer kernel (`deepspeed.ops.transformer`) builds layers
    # and their config, not an optimizer: the config's Lamb is the job's only optimizer
    textwrap.dedent("""
    # --- pretrain.py
    import argparse

    import deepspeed
    from deepspeed.ops.transformer import DeepSpeedTransformerConfig, DeepSpeedTransformerLayer
    from torch import nn

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    cfg = DeepSpeedTransformerConfig(batch_size=32, hidden_size=768, intermediate_size=3072, heads=12,
                                     attn_dropout_ratio=0.1, hidden_dropout_ratio=0.1, num_hidden_layers=12,
                                     initializer_range=0.02, local_rank=args.local_rank, fp16=True)
    net = nn.Sequential(*[DeepSpeedTransformerLayer(cfg) for _ in range(12)])
    engine, _, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
    for x, y in loader:
        loss = nn.functional.mse_loss(engine(x), y)
        engine.backward(loss)
        engine.step()
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 32,
      "fp16": {"enabled": true},
      "optimizer": {"type": "Lamb", "params": {"lr": 2e-3}}
    }
    # --- launch
    deepspeed --num_gpus 4 pretrain.py --deepspeed --deepspeed_config ds_config.json
"""))

PF501_GOOD.append(
    # tricky-correct (held-out-27's Hydra CIFAR twin): a helper returns the train and test loaders together, so
    # neither call has a name; the test loader's batch_size=256 (over a dataset built with train=False) is not
    # the training micro-batch, which is the config's batch_size 128 handed to the train loader
    textwrap.dedent("""
    # --- train.py
    import hydra
    import torch

    from cifar_lite import cifar_loaders


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(3072, 10).cuda()
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr)
        train_loader, test_loader = cifar_loaders(cfg.data_dir, cfg.batch_size)
        for epoch in range(cfg.epochs):
            for images, labels in train_loader:
                loss = torch.nn.functional.cross_entropy(model(images.cuda().flatten(1)), labels.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


    if __name__ == "__main__":
        main()
    # --- cifar_lite.py
    import torch
    import torchvision


    def cifar_loaders(root, batch_size):
        train = torchvision.datasets.CIFAR10(root, train=True)
        held = torchvision.datasets.CIFAR10(root, train=False)
        return (torch.utils.data.DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=4),
                torch.utils.data.DataLoader(held, batch_size=256, num_workers=4))
    # --- conf/config.yaml
    data_dir: data/cifar10
    batch_size: 128
    lr: 0.1
    epochs: 200
    # --- launch
    python train.py
"""))
