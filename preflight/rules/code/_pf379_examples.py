"""PF379 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # udacity deep-learning-v2-pytorch issue 132: CIFAR-10 validation carved from the augmented training set
    dedent("""
    from torch.utils.data import DataLoader, random_split
    from torchvision import datasets, transforms

    train_transform = transforms.Compose([
        transforms.RandomHorizontalFlip(),
        transforms.RandomRotation(10),
        transforms.ToTensor(),
    ])
    train_data = datasets.CIFAR10("data", train=True, download=True, transform=train_transform)
    n_train = int(0.8 * len(train_data))
    train_set, valid_set = random_split(train_data, [n_train, len(train_data) - n_train])  # warning: PF379
    valid_loader = DataLoader(valid_set, batch_size=20)
    """),
    # inside a function, the transform built inline, torch.utils.data spelled out
    dedent("""
    import torch
    import torchvision.transforms as T
    from torchvision.datasets import ImageFolder

    def loaders(root):
        full = ImageFolder(root, transform=T.Compose([T.RandomResizedCrop(224), T.ColorJitter(0.4), T.ToTensor()]))
        n_val = len(full) // 10
        train_ds, val_ds = torch.utils.data.random_split(full, [len(full) - n_val, n_val])  # warning: PF379
        return (torch.utils.data.DataLoader(train_ds, batch_size=64, shuffle=True),
                torch.utils.data.DataLoader(val_ds, batch_size=64))
    """),
    # the udacity CIFAR-10 notebook itself (issue 132): index samplers over the one augmented dataset
    dedent("""
    import numpy as np
    import torch
    from torch.utils.data.sampler import SubsetRandomSampler
    from torchvision import datasets, transforms

    transform = transforms.Compose([
        transforms.RandomHorizontalFlip(),
        transforms.RandomRotation(10),
        transforms.ToTensor(),
    ])
    train_data = datasets.CIFAR10("data", train=True, download=True, transform=transform)
    indices = list(range(len(train_data)))
    np.random.shuffle(indices)
    split = int(np.floor(0.2 * len(train_data)))
    train_idx, valid_idx = indices[split:], indices[:split]
    train_sampler = SubsetRandomSampler(train_idx)
    valid_sampler = SubsetRandomSampler(valid_idx)
    train_loader = torch.utils.data.DataLoader(train_data, batch_size=20, sampler=train_sampler)
    valid_loader = torch.utils.data.DataLoader(train_data, batch_size=20, sampler=valid_sampler)  # warning: PF379
    """),
]

BAD.append(
    # the indices taken back into the same augmented dataset: still augmented
    dedent("""
    from torch.utils.data import Subset, random_split
    from torchvision import datasets, transforms

    tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    data = datasets.CIFAR10("data", train=True, transform=tf)
    train_part, val_part = random_split(data, [45000, 5000])  # warning: PF379
    val_set = Subset(data, val_part.indices)  # warning: PF379
    """))

GOOD = [
    # the sampler version fixed: the validation sampler reads a dataset with the deterministic transform
    dedent("""
    import torch
    from torch.utils.data.sampler import SubsetRandomSampler
    from torchvision import datasets, transforms

    augment = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()])
    plain = transforms.Compose([transforms.ToTensor()])
    train_data = datasets.CIFAR10("data", train=True, transform=augment)
    valid_data = datasets.CIFAR10("data", train=True, transform=plain)
    idx = torch.randperm(len(train_data)).tolist()
    train_loader = torch.utils.data.DataLoader(train_data, batch_size=20, sampler=SubsetRandomSampler(idx[5000:]))
    valid_loader = torch.utils.data.DataLoader(valid_data, batch_size=20, sampler=SubsetRandomSampler(idx[:5000]))
    """),
    # the fix: validation indices taken from a second dataset with the test transform
    dedent("""
    import torch
    from torch.utils.data import Subset
    from torchvision import datasets, transforms

    train_transform = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()])
    test_transform = transforms.Compose([transforms.ToTensor()])
    train_data = datasets.CIFAR10("data", train=True, transform=train_transform)
    plain_data = datasets.CIFAR10("data", train=True, transform=test_transform)
    idx = torch.randperm(len(train_data)).tolist()
    train_set, valid_set = Subset(train_data, idx[:40000]), Subset(plain_data, idx[40000:])
    """),
    # tricky: no random transform in the split dataset
    dedent("""
    from torch.utils.data import random_split
    from torchvision import datasets, transforms

    tf = transforms.Compose([transforms.Resize(32), transforms.CenterCrop(32), transforms.ToTensor()])
    data = datasets.CIFAR10("data", train=True, transform=tf)
    train_set, val_set = random_split(data, [45000, 5000])
    """),
    # tricky: the validation split wrapped with the test transform afterwards
    dedent("""
    from torch.utils.data import random_split
    from torchvision import datasets, transforms

    from data import TransformedSubset

    train_tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    test_tf = transforms.Compose([transforms.ToTensor()])
    data = datasets.CIFAR10("data", train=True, transform=train_tf)
    train_set, val_set = random_split(data, [45000, 5000])
    val_loader_set = TransformedSubset(val_set, test_tf)
    """),
    # tricky: the split is train/unused (a subsample), not a validation split
    dedent("""
    from torch.utils.data import random_split
    from torchvision import datasets, transforms

    tf = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()])
    data = datasets.CIFAR10("data", train=True, transform=tf)
    small_train, _rest = random_split(data, [5000, 45000])
    """),
    # torchgeo PR 257's fix (held-out-47 twin): the split's indices are taken into a dataset built with the test
    # transforms, so no validation item is read from the augmented dataset
    dedent("""
    from torch.utils.data import Subset, random_split

    def setup(root, bands, patch_size):
        test_transforms = Compose([Normalize(bands)])
        train_transforms = Compose([Normalize(bands), RandomCrop(patch_size), RandomFlip()])
        dataset = OSCD(root, split="train", bands=bands, transforms=train_transforms)
        n_val = int(len(dataset) * 0.2)
        train_part, val_part = random_split(dataset, [len(dataset) - n_val, n_val])
        val_source = OSCD(root, split="train", bands=bands, transforms=test_transforms)
        return train_part, Subset(val_source, val_part.indices)
    """),
]
