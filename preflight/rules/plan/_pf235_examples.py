"""PF235 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_IMAGES = dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch.nn.functional as F
    import torchvision
    import torchvision.transforms as T

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()

    trainset = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=T.ToTensor())
    net = torchvision.models.resnet18(num_classes=10)
    engine, _, trainloader, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters(),
                                                     training_data=trainset)
    for epoch in range(20):
        for images, labels in trainloader:
            images = images.to(engine.local_rank){cast}
            labels = labels.to(engine.local_rank)
            loss = F.cross_entropy(engine(images), labels){pin}
            engine.backward(loss)
            engine.step()
    # --- ds_config.json
    {{
      "train_batch_size": 64,
      "train_micro_batch_size_per_gpu": 16,
      "fp16": {{"enabled": true{auto}}},
      "zero_optimization": {{"stage": 1}}
    }}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
    """)

# the loader and the engine handed to a function; the batches come from a TensorDataset of
# float tensors built by a helper (DeepSpeed issue 550's shape)
_TENSORS = dedent("""
    # --- demo.py
    import argparse

    import deepspeed
    import torch
    import torch.nn as nn
    from torch.utils.data import TensorDataset


    def make_data():
        feats = torch.randn(4096, 32)
        target = torch.randn(4096, 4)
        return TensorDataset(feats, target)


    def train(model_engine, loader):
        loss_fn = nn.MSELoss()
        for feats, target in loader:
            feats = feats.to(model_engine.local_rank){cast}
            target = target.to(model_engine.local_rank)
            out = model_engine(feats){pin}
            model_engine.backward(loss_fn(out.float(), target))
            model_engine.step()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        args = deepspeed.add_config_arguments(parser).parse_args()
        model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                    training_data=make_data())
        train(engine, loader)


    if __name__ == "__main__":
        main()
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": 32,
      "gradient_accumulation_steps": 1,
      "optimizer": {{"type": "Adam", "params": {{"lr": 1e-4}}}},
      "fp16": {{"enabled": true, "initial_scale_power": 16{auto}}}
    }}
    # --- launch
    deepspeed --num_gpus 2 demo.py --deepspeed --deepspeed_config ds_config.json
    """)

# DeepSpeed's CIFAR example shape: batch unpacked from the loop variable, cast to a dtype read from
# the engine when it runs in reduced precision
_LOOP = """    for images, labels in trainloader:
        images = images.to(engine.local_rank){cast}
        labels = labels.to(engine.local_rank)
"""
assert _LOOP in _IMAGES
_CIFAR = _IMAGES.replace(_LOOP, """    for i, data in enumerate(trainloader):
        images, labels = data[0].to(engine.local_rank), data[1].to(engine.local_rank){cast}
""")

# det83: the float dataset is a class of the job in another module: its __getitem__ returns a float tensor first
# (h31 speech-feature shape: `return item["mel"].float(), int(item["label"])`)
_JOB_DATASET = dedent("""
    # --- data.py
    import glob

    import torch
    from torch.utils.data import Dataset


    class FeatureDataset(Dataset):
        def __init__(self, root):
            self.files = sorted(glob.glob(root + "/*.pt"))

        def __len__(self):
            return len(self.files)

        def __getitem__(self, idx):
            item = torch.load(self.files[idx])
            return {first}, int(item["label"])
    # --- train.py
    import argparse
    import json

    import deepspeed
    import torch.nn as nn
    from torch.utils.data import DataLoader

    from data import FeatureDataset

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    with open("ds_config.json") as f:
        ds_config = json.load(f)
    model = nn.Sequential(nn.Conv1d(80, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, 10))
    loader = DataLoader(FeatureDataset("data/train"), batch_size=16)
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                           config=ds_config)
    for feats, labels in loader:
        feats = feats.to(engine.local_rank)
        labels = labels.to(engine.local_rank)
        loss = nn.functional.cross_entropy(engine(feats).float(), labels){pin}
        engine.backward(loss)
        engine.step()
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": 16,
      "fp16": {{"enabled": true}}
    }}
    # --- launch
    deepspeed --num_gpus 2 train.py
    """)

# det83: the job's Dataset class in the script itself, the float feature bound to a name first
_SCRIPT_DATASET = dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import numpy as np
    import torch
    import torch.nn as nn
    from torch.utils.data import Dataset


    class Windows(Dataset):
        def __init__(self, path):
            self.data = np.load(path)

        def __len__(self):
            return len(self.data) - 64

        def __getitem__(self, i):
            window = {first}
            return {ret}


    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = nn.LSTM(8, 32, batch_first=True)
    engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                training_data=Windows("series.npy"))
    for x, y in loader:
        x = x.to(engine.local_rank)
        out, _ = engine(x){pin}
        loss = nn.functional.mse_loss(out[:, -1, 0].float(), y.to(engine.local_rank))
        engine.backward(loss)
        engine.step()
    # --- ds_config.json
    {{
      "train_batch_size": 32,
      "fp16": {{"enabled": true}}
    }}
    # --- launch
    deepspeed train.py --deepspeed --deepspeed_config ds_config.json
    """)

PF235_BAD = [
    # DeepSpeed issue 2019: fp16 engine, float32 images from a torchvision dataset
    _IMAGES.format(cast="", pin="  # error: PF235", auto=""),
    # the same with the batch unpacked from the loop variable
    _CIFAR.format(cast="", pin="  # error: PF235", auto=""),
    # DeepSpeed issue 904: the batch unpacked in a nested target of enumerate(...)
    _IMAGES.replace("for images, labels in trainloader:", "for i, (images, labels) in enumerate(trainloader):")
    .format(cast="", pin="  # error: PF235", auto=""),
    # DeepSpeed issue 550: float32 TensorDataset batches, engine and loader passed to a function
    _TENSORS.format(cast="", pin="  # error: PF235", auto=""),
    # det83: the float samples come from a Dataset class of the job in another module
    _JOB_DATASET.format(first='item["mel"].float()', pin="  # error: PF235"),
    # det83: the script's own Dataset class, the float window bound to a name before the return
    _SCRIPT_DATASET.format(first="torch.from_numpy(self.data[i:i + 64]).float()",
                           ret="window, window[-1, 0]", pin="  # error: PF235"),
]

PF235_GOOD = [
    # the fix of issue 2019: the images are cast to half
    _IMAGES.format(cast=".half()", pin="", auto=""),
    # tricky: DeepSpeed casts the inputs itself with fp16.auto_cast
    _IMAGES.format(cast="", pin="", auto=', "auto_cast": true'),
    # tricky: DeepSpeed's CIFAR example casts to the engine's dtype through a variable
    _CIFAR.format(cast="\n        images = images.to(target_dtype) if target_dtype is not None else images",
                  pin="", auto="").replace("for epoch in range(20):",
                                           "target_dtype = torch.half if engine.fp16_enabled() else None\n"
                                           "for epoch in range(20):"),
    # the fix of issue 550
    _TENSORS.format(cast=".half()", pin="", auto=""),
    # tricky: cast to the engine's own dtype
    _TENSORS.format(cast=".to(dtype=torch.float16)", pin="", auto=""),
    # tricky: integer token ids (torch.randint) pass through an fp16 engine unchanged
    _TENSORS.replace("torch.randn(4096, 32)", "torch.randint(0, 1000, (4096, 32))").format(
        cast="", pin="", auto=""),
    # tricky: a bf16 engine whose inputs are cast to bf16
    _IMAGES.replace('"fp16"', '"bf16"').replace(".to(engine.local_rank){cast}",
                                                ".to(engine.local_rank, dtype=torch.bfloat16)").format(
        cast="", pin="", auto=""),
    # det83 tricky: the job's dataset returns integer token ids first (they pass an fp16 engine unchanged)
    _JOB_DATASET.format(first='torch.tensor(item["ids"])', pin=""),
    # det83 tricky: the job's dataset already returns half-precision features
    _JOB_DATASET.format(first='item["mel"].half()', pin=""),
    # det83 tricky: the script's Dataset returns a dict of tensors, not a float tensor first (not judged)
    _SCRIPT_DATASET.format(first="torch.from_numpy(self.data[i:i + 64]).float()",
                           ret='{"x": window, "y": window[-1, 0]}', pin=""),
    # det83 tricky: one path of __getitem__ returns integer token ids first, so the samples are not all float
    _SCRIPT_DATASET.format(first="torch.from_numpy(self.data[i:i + 64]).float()", ret="window, window[-1, 0]",
                           pin="").replace("        window = torch",
                                           "        if self.data.dtype == np.int64:\n"
                                           "            return torch.from_numpy(self.data[i:i + 64]), 0\n"
                                           "        window = torch"),
]

# det125: fp16 with ZeRO stage 0 on an unpinned DeepSpeed is also PF198's (since 0.18.3 engine.backward never
# multiplies the loss by the scale the FP16 optimizer divides by)
PF235_BAD[3] += "\n# --- expect\nds_config.json:5: warning: PF198\n"
PF235_BAD[4] += "\n# --- expect\nds_config.json:3: warning: PF198\n"
PF235_BAD[5] += "\n# --- expect\nds_config.json:3: warning: PF198\n"
