"""jobs133 (in-sample for jobs set held-out-50): a torchvision dataset of fixed-size images built in a local
module the script imports gives its native size (adapters/data_shapes_local.py). Fixtures of our own
rebuilding pat-coady/pytorch-sandbox @ b7cd72a ``data.py:9-33`` and ``train.py:13,46,66``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

DATA = """\
    import lightning as L
    from torch.utils.data import DataLoader, random_split
    from torchvision import datasets
    from torchvision.transforms import ToTensor


    class MNISTDataModule(L.LightningDataModule):
        def __init__(self, batch_size):
            super().__init__()
            self.batch_size = batch_size
            self.transform = TRANSFORM

        def setup(self, stage):
            train_data = datasets.MNIST("data", train=True, download=False, transform=self.transform)
            self.train_data, self.val_data = random_split(train_data, lengths=[0.9, 0.1])

        def train_dataloader(self):
            return DataLoader(self.train_data, batch_size=self.batch_size, shuffle=True)
"""

TRAIN = """\
    import lightning as L

    from data import MNISTDataModule
    from models import LitCNN


    def main():
        trainer = L.Trainer(max_epochs=3, devices=1)
        trainer.fit(LitCNN(), MNISTDataModule(32))


    if __name__ == "__main__":
        main()
"""

MODELS = """\
    import lightning as L
    import torch


    class LitCNN(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(784, 10)

        def training_step(self, batch, idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.net(x.flatten(1)), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)
"""


def _size(cli, tmp_path, transform: str = "ToTensor()", extra: str = ""):
    write(tmp_path, {"data.py": DATA.replace("TRANSFORM", transform) + extra, "train.py": TRAIN,
                     "models.py": MODELS})
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "data.image_size")


def test_mnist_in_a_local_datamodule_is_28(cli, tmp_path):
    size = _size(cli, tmp_path)
    assert size.value == 28
    assert size.confidence == "medium"
    assert size.source.path == "data.py" and size.source.line == 14


def test_a_torchvision_compose_without_resizing_is_still_native(cli, tmp_path):
    size = _size(cli, tmp_path, transform="Compose([ToTensor(), Normalize((0.1307,), (0.3081,))])",
                 extra="\n    from torchvision.transforms import Compose, Normalize\n")
    assert size.value == 28


def test_twin_a_resize_in_the_module_says_nothing(cli, tmp_path):
    size = _size(cli, tmp_path, transform="Compose([Resize(64), ToTensor()])",
                 extra="\n    from torchvision.transforms import Compose, Resize\n")
    assert size is None


def test_twin_a_project_transform_helper_says_nothing(cli, tmp_path):
    size = _size(cli, tmp_path, transform="make_transform(64)",
                 extra="\n\n    def make_transform(n):\n        return ToTensor()\n")
    assert size is None


def test_twin_two_native_sizes_say_nothing(cli, tmp_path):
    extra = "\n\n    def cifar():\n        return datasets.CIFAR10('data', transform=ToTensor())\n"
    assert _size(cli, tmp_path, extra=extra) is None
