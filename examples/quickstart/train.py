"""A small fine-tuning script with the kind of bugs preflight exists to catch.

Run `preflight check examples/quickstart` (or `preflight audit train.py --config ds_config.json`)
to see them reported; nothing here is imported or executed by preflight.
"""

import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Classifier(nn.Module):
    def __init__(self, width: int = 512, classes: int = 10) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, classes))

    def forward(self, x):
        return self.body(x)


def evaluate(model, loader) -> float:
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(-1) == y).sum().item()
    return correct / len(loader.dataset)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    data = TensorDataset(torch.randn(4096, 512), torch.randint(0, 10, (4096,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = Classifier()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

    history = []
    running = 0.0
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            history.append(loss)  # keeps every step's autograd graph alive
            loss.backward()
            optimizer.step()
            running += loss.item()  # fine: a Python float
        accuracy = evaluate(model, loader)
        print(f"epoch {epoch}: mean loss {running / len(loader):.4f}, accuracy {accuracy:.3f}")
        running = 0.0


if __name__ == "__main__":
    main()
