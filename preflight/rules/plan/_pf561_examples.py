"""PF561 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Neural-Network-Diffusion#6 shape
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="configs", config_name="base")  # error: PF561
    def main(cfg):
        print(cfg.task)


    if __name__ == "__main__":
        main()
    # --- configs/base.yaml
    task: cifar10
    system: ae_ddpm
    # --- launch
    python train.py --task cifar100 --system ae_ddpm
"""),
    # hydra#514 shape: the legacy launcher appends --local-rank
    textwrap.dedent("""
    # --- train.py
    import os

    import hydra


    @hydra.main(config_path="conf", config_name="config")  # error: PF561
    def main(cfg):
        local_rank = int(os.environ.get("LOCAL_RANK", 0))
        print(local_rank, cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    lr: 0.1
    # --- launch
    python -m torch.distributed.launch --nproc_per_node=2 train.py lr=0.2
"""),
]

GOOD_EXAMPLES = [
    # the fix, with Hydra's own options (a unique prefix too)
    textwrap.dedent("""
    # --- train.py
    import hydra


    @hydra.main(version_base=None, config_path="configs", config_name="base")
    def main(cfg):
        print(cfg.task)


    if __name__ == "__main__":
        main()
    # --- configs/base.yaml
    task: cifar10
    system: ae_ddpm
    # --- configs/other.yaml
    task: mnist
    system: ae_ddpm
    # --- launch
    python train.py --config-name other --multi task=cifar100,mnist system=ae_ddpm
"""),
    # tricky-correct: the script takes its own flags with parse_known_args and hands the rest on
    textwrap.dedent("""
    # --- train.py
    import argparse
    import sys

    import hydra


    @hydra.main(version_base=None, config_path="configs", config_name="base")
    def main(cfg):
        print(cfg.task)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=0)
        args, rest = parser.parse_known_args()
        sys.argv = [sys.argv[0], *rest]
        main()
    # --- configs/base.yaml
    task: cifar10
    # --- launch
    python train.py --local_rank 0 task=cifar100
"""),
    # tricky-correct: torchrun, and the legacy launcher with --use-env
    textwrap.dedent("""
    # --- train.py
    import os

    import hydra


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        print(int(os.environ.get("LOCAL_RANK", 0)), cfg.lr)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    lr: 0.1
    # --- launch
    python -m torch.distributed.launch --use-env --nproc_per_node=2 train.py lr=0.2
"""),
]
