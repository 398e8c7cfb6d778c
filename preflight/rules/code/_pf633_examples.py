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
    # 4. torchgeo PR 257's shape: the transform assigned to the Subset itself, an attribute nothing reads
    textwrap.dedent("""\
    from torch.utils.data import DataLoader, random_split


    class OSCDData:
        def setup(self):
            dataset = OSCD("data", split="train", transforms=train_transforms)
            n_val = int(len(dataset) * 0.2)
            self.train_dataset, self.val_dataset = random_split(dataset, [len(dataset) - n_val, n_val])
            self.val_dataset.transforms = test_transforms  # warning: PF633

        def val_dataloader(self):
            return DataLoader(self.val_dataset, batch_size=1)
"""),
    # 5. a module-level script: the split's transform set directly, then straight into a DataLoader
    textwrap.dedent("""\
    from torch.utils.data import DataLoader, random_split
    from torchvision import datasets

    full = datasets.ImageFolder("data/train", transform=get_transforms(is_train=True))
    train_ds, val_ds = random_split(full, [0.9, 0.1])
    val_ds.transform = get_transforms(is_train=False)  # warning: PF633
    val_loader = DataLoader(val_ds, batch_size=64)
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
    # torchgeo PR 257's fix: the validation indices taken into a dataset built with the test transforms
    textwrap.dedent("""\
    from torch.utils.data import Subset, random_split


    def setup(root):
        dataset = OSCD(root, split="train", transforms=train_transforms)
        train_part, val_part = random_split(dataset, [0.8, 0.2])
        val_source = OSCD(root, split="train", transforms=test_transforms)
        return train_part, Subset(val_source, val_part.indices)
"""),
    # tricky-correct: the split is wrapped in the project's dataset, which may read the attribute set on it
    textwrap.dedent("""\
    from torch.utils.data import DataLoader, random_split

    train_dataset, val_dataset = random_split(full_dataset, [0.9, 0.1])
    val_dataset.transform = eval_transforms
    val_dataset = TransformedSubset(val_dataset)
    val_loader = DataLoader(val_dataset, batch_size=32)
"""),
    # tricky-correct: the name is rebound to a wrapper before its transform is set
    textwrap.dedent("""\
    from torch.utils.data import random_split

    train_dataset, val_dataset = random_split(full_dataset, [0.9, 0.1])
    val_dataset = ApplyTransform(val_dataset)
    val_dataset.transform = eval_transforms
"""),
    # tricky-correct: not a torch Subset (the project's own split function returns datasets with a transform)
    textwrap.dedent("""\
    from mydata import random_split

    train_dataset, val_dataset = random_split(full_dataset, [0.9, 0.1])
    val_dataset.transform = eval_transforms
"""),
)
