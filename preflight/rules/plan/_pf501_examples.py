"""PF501 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

from preflight.rules.plan._pf501_good_examples import (
    PF501_GOOD,  # the list the later good examples below extend
)

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

PF501_GOOD.append(
    # tricky-correct (DeepSpeed issue 745's pins): fp16 on in the DeepSpeed config and --fp16 left off the
    # launch line, but transformers 4.3.3 predates the Trainer's "auto"/mismatch check (4.6): its
    # `init_deepspeed` keeps the config's fp16 block, nothing is refused
    textwrap.dedent("""
    # --- sft.py
    from transformers import HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments

    (training_args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
    Seq2SeqTrainer(model=model, args=training_args).train()
    # --- ds_config.json
    {
      "fp16": {"enabled": true, "loss_scale": 0},
      "zero_optimization": {"stage": 2, "cpu_offload": true},
      "train_micro_batch_size_per_gpu": 8
    }
    # --- requirements.txt
    transformers==4.3.3
    deepspeed==0.3.11
    # --- launch
    deepspeed --num_gpus 4 sft.py --output_dir out --deepspeed ds_config.json --per_device_train_batch_size 8
"""))
