"""PF433 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

PF433_BAD = [
    # Image_Segmentation issue 17: leftover random search replaces --lr (and the epoch count)
    """
import argparse
import random


def main(config):
    lr = random.random() * 0.0005 + 0.0000005
    epoch = random.choice([100, 150, 200, 250])
    config.num_epochs = epoch  # warning: PF433
    print(config)
    config.lr = lr  # warning: PF433
    train(config)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_epochs", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.0002)
    config = parser.parse_args()
    main(config)
""",
    # at module level, with numpy
    """
import argparse

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--weight-decay", type=float, default=1e-4)
args = parser.parse_args()
args.weight_decay = 10 ** np.random.uniform(-5, -3)  # warning: PF433
""",
]

PF433_GOOD = [
    # the fix: the search has its own switch; a seed drawn only when none was given; a jitter around
    # the user's own value; an attribute that is not an option
    """
import argparse
import random


def main(config):
    if config.random_search:
        config.lr = random.random() * 0.0005 + 0.0000005
    if config.seed is None:
        config.seed = random.randint(0, 10000)
    config.dropout = config.dropout * random.uniform(0.9, 1.1)
    config.run_id = random.randint(0, 1 << 30)
    config.lr = float(config.lr)
    train(config)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.0002)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--random_search", action="store_true")
    main(parser.parse_args())
""",
    # a sweep loop draws a new value per trial on purpose
    """
import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=1e-3)
args = parser.parse_args()
for trial in range(20):
    args.lr = 10 ** random.uniform(-5, -2)
    run(args)
""",
    # tricky-correct, after sd-scripts' minimal inference scripts: the seed drawn through a local only
    # when the option was not given, then stored back on the options for saving
    """
import argparse
import random


def generate(args, model):
    seed = args.seed if args.seed is not None else random.randint(0, 2**32 - 1)
    args.seed = seed
    return model.sample(seed=seed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    generate(parser.parse_args(), load_model())
""",
]
