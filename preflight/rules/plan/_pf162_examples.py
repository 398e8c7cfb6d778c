"""PF162 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# DeepSpeed issue 904's shape: a CIFAR ResNet under ZeRO with fp16
_CIFAR = textwrap.dedent("""
    # --- train_cifar.py
    import argparse

    import deepspeed
    import torch
    import torchvision
    import torchvision.transforms as T

    from resnet import resnet18

    p = argparse.ArgumentParser()
    p.add_argument("--local_rank", type=int, default=-1)
    p = deepspeed.add_config_arguments(p)
    args = p.parse_args()

    trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=T.ToTensor())
    net = resnet18(num_classes=10)
    model_engine, optimizer, trainloader, _ = deepspeed.initialize(
        args=args, model=net, model_parameters=net.parameters(), training_data=trainset
    )
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(30):
        for i, (inputs, labels) in enumerate(trainloader):
            inputs = inputs.to(model_engine.local_rank){cast}
            labels = labels.to(model_engine.local_rank)
            outputs = model_engine(inputs)  # {pin}
            loss = criterion(outputs, labels)
            model_engine.backward(loss)
            model_engine.step()
    # --- resnet.py
    import torchvision


    def resnet18(num_classes):
        return torchvision.models.resnet18(num_classes=num_classes)
    # --- ds_config.json
    {{
      "train_batch_size": 64,
      "optimizer": {{"type": "Adam", "params": {{"lr": 0.001}}}},
      {precision},
      "zero_optimization": {{"stage": 1}}
    }}
    # --- launch
    deepspeed train_cifar.py --deepspeed --deepspeed_config ds_config.json
""")

_FP16 = '"fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 15}'

# a vision transformer fine-tuned from PIL images, the batch moved with .cuda() inside a function
_VIT = textwrap.dedent("""
    # --- finetune.py
    import deepspeed
    import torch.nn.functional as F
    from PIL import Image


    def main(model, dataset, cmd_args):
        engine, _, loader, _ = deepspeed.initialize(args=cmd_args, model=model,
                                                    model_parameters=model.parameters(), training_data=dataset)
        for batch in loader:
            images = batch[0].cuda()
            logits = engine(images)  # {pin}
            loss = F.cross_entropy(logits, batch[1].cuda())
            engine.backward(loss)
            engine.step()
    # --- ds.json
    {{"train_micro_batch_size_per_gpu": 32, "fp16": {{"enabled": true{auto}}}, "zero_optimization": {{"stage": 2}}}}
    # --- launch
    deepspeed finetune.py --deepspeed_config ds.json
""")

BAD_EXAMPLES = [
    _CIFAR.format(cast="", pin="error: PF162", precision=_FP16),
    _VIT.format(pin="error: PF162", auto=""),
    # DeepSpeed issue 6789: the same with a bf16 engine
    _CIFAR.format(cast="", pin="error: PF162", precision='"bf16": {"enabled": true}'),
    # batches drawn with next() from a repeating iterator (DeepSpeedExamples pipeline_parallelism's base loop)
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch
    import torchvision


    def train_base(args, net, trainset):
        engine, _, dataloader, __ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(),
                                                         training_data=trainset)
        data_iter = iter(dataloader)
        criterion = torch.nn.CrossEntropyLoss()
        for step in range(args.steps):
            batch = next(data_iter)
            inputs = batch[0].to(engine.device)
            outputs = engine(inputs)  # error: PF162
            engine.backward(criterion(outputs, batch[1].to(engine.device)))
            engine.step()


    if __name__ == "__main__":
        print(torchvision.__version__)
    # --- ds_config.json
    {"train_batch_size": 256, "train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": true}}
    # --- launch
    deepspeed train.py --deepspeed_config ds_config.json
"""),
]

GOOD_EXAMPLES = [
    # the fix: the batch cast to half before the forward
    _CIFAR.format(cast=".half()", pin="", precision=_FP16),
    # tricky-correct: fp16 left off, the engine keeps fp32 weights
    _CIFAR.format(cast="", pin="", precision='"fp16": {"enabled": false}'),
    # tricky-correct: auto_cast makes the engine cast its inputs
    _VIT.format(pin="", auto=', "auto_cast": true'),
    # tricky-correct (DeepSpeedExamples cifar10_deepspeed.py): the dtype read from the engine, the cast conditional
    _CIFAR.format(cast="\n        if model_engine.fp16_enabled():\n            inputs = inputs.to(torch.half)",
                  pin="", precision=_FP16),
    # tricky-correct: a language model fed token ids under fp16
    textwrap.dedent("""
    # --- train_lm.py
    import deepspeed


    def train(model, data, args):
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=data)
        for input_ids, labels in loader:
            out = engine(input_ids.cuda())
            engine.backward(out.loss)
            engine.step()
    # --- ds.json
    {"train_batch_size": 16, "fp16": {"enabled": true}}
    # --- launch
    deepspeed train_lm.py --deepspeed_config ds.json
"""),
]
