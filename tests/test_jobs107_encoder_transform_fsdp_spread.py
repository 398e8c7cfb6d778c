"""Two wrong readings of Stability-AI/StableCascade @ 7a7d341 (issue 15, set 45): ``train/train_c_lora.py:112-118``
``clip_preprocess = Compose([Resize(224), CenterCrop(224), Normalize(CLIP mean/std)])`` is the CLIP image
encoder's input, not the data's size (the data transform resizes to ``self.config.image_size``); and
``:245`` ``FSDP(lora, **self.fsdp_defaults, auto_wrap_policy=..., device_id=...)`` takes its sharding strategy
from the mapping (``:327`` sets ``fsdp_defaults['sharding_strategy'] = ShardingStrategy.NO_SHARD``): no
FULL_SHARD default is claimed. Twins: an ImageNet-normalised data Compose keeps its crop; ``FSDP(model)``
without a mapping keeps the FULL_SHARD default."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import torch
    import torchvision
    from torch.utils.data import DataLoader
    from torchvision.datasets import ImageFolder

    {transforms}

    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
    loader = DataLoader(ImageFolder("data", transform=transform), batch_size=4)
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
"""

CLIP = """\
clip_preprocess = torchvision.transforms.Compose([
        torchvision.transforms.Resize(224),
        torchvision.transforms.CenterCrop(224),
        torchvision.transforms.Normalize(mean=(0.48145466, 0.4578275, 0.40821073), std=(0.26862954, 0.26130258, 0.27577711)),
    ])
    transform = torchvision.transforms.Compose([torchvision.transforms.ToTensor()])"""

DATA = """\
transform = torchvision.transforms.Compose([
        torchvision.transforms.RandomResizedCrop(224),
        torchvision.transforms.Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)),
    ])"""


def test_a_clip_preprocess_crop_is_not_the_image_size(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN.format(transforms=CLIP)})
    size = fact(plan_of(cli, "train.py", cwd=tmp_path), "data.image_size")
    assert size is None or size.value != 224


def test_twin_an_imagenet_data_transform_keeps_its_crop(cli, tmp_path):
    write(tmp_path, {"train.py": TRAIN.format(transforms=DATA)})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "data.image_size").value == 224


FSDP = """\
    import torch
    import torch.distributed as dist
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    defaults = {{"sharding_strategy": None}}
    dist.init_process_group("nccl")
    model = torch.nn.Linear(4, 4)
    model = FSDP(model{extra})
    opt = torch.optim.AdamW(model.parameters())
    for x in range(3):
        loss = model(torch.ones(4)).sum()
        loss.backward()
        opt.step()
"""


def test_fsdp_with_a_mapping_claims_no_default_strategy(cli, tmp_path):
    write(tmp_path, {"train.py": FSDP.format(extra=", **defaults, device_id=0")})
    sharding = fact(plan_of(cli, "train.py", "--", cwd=tmp_path), "dist.sharding")
    assert sharding is None or sharding.value != "fsdp_full"


def test_twin_plain_fsdp_is_full_shard(cli, tmp_path):
    write(tmp_path, {"train.py": FSDP.format(extra="")})
    assert fact(plan_of(cli, "train.py", "--", cwd=tmp_path), "dist.sharding").value == "fsdp_full"
