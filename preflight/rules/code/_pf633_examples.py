"""PF633 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF633_BAD = (
    # 1. gromo PR 58's shape: random_split, then the validation transform set through .dataset
    textwrap.dedent("""\
    import torch
    from torch.utils.data import DataLoader, random_split
    from torchvision import datasets, transforms

    aug = transforms.Compose([transforms.RandomResizedCrop(64), transforms.ToTensor()])
    plain = transforms.Compose([transforms.Resize(64), transforms.ToTensor()])
    data = datasets.ImageFolder("data/train", transform=aug)
    train_part, val_part = random_split(data, [0.9, 0.1])
    val_part.dataset.transform = plain  # warning: PF633
    train_loader = DataLoader(train_part, batch_size=64, shuffle=True)
    val_loader = DataLoader(val_part, batch_size=64)
"""),
    # 2. each split's transform set in turn: the last assignment is the one both splits get
    textwrap.dedent("""\
    from torch.utils.data import random_split
    from torchvision import datasets

    full = datasets.ImageFolder("data/images")
    train_ds, val_ds = random_split(full, [0.8, 0.2])
    train_ds.dataset.transform = train_tf
    val_ds.dataset.transform = val_tf  # warning: PF633
"""),
    # 3. two Subsets of one dataset object, inside a function
    textwrap.dedent("""\
    from torch.utils.data import Subset
    from torchvision import datasets


    def make_splits(root, train_tf, eval_tf, train_idx, val_idx):
        full = datasets.CIFAR10(root, train=True, transform=train_tf)
        train = Subset(full, train_idx)
        val = Subset(full, val_idx)
        val.dataset.transform = eval_tf  # warning: PF633
        return train, val
"""),
)

PF633_GOOD = (
    # the fix: one dataset object per split
    textwrap.dedent("""\
    import torch
    from torch.utils.data import Subset
    from torchvision import datasets

    perm = torch.randperm(50000).tolist()
    train_set = Subset(datasets.CIFAR10("data", train=True, transform=train_tf), perm[:45000])
    val_set = Subset(datasets.CIFAR10("data", train=True, transform=test_tf), perm[45000:])
"""),
    # tricky-correct: the validation split gets its own copy of the dataset before its transform is set
    textwrap.dedent("""\
    import copy

    from torch.utils.data import random_split
    from torchvision import datasets

    full = datasets.CIFAR10("data", train=True, transform=train_tf)
    train_set, val_set = random_split(full, [45000, 5000])
    val_set.dataset = copy.deepcopy(full)
    val_set.dataset.transform = test_tf
"""),
    # tricky-correct: a single Subset (a smaller training set), its dataset's transform set once
    textwrap.dedent("""\
    from torch.utils.data import Subset
    from torchvision import datasets

    full = datasets.CIFAR10("data", train=True)
    small = Subset(full, range(5000))
    small.dataset.transform = train_tf
"""),
)
