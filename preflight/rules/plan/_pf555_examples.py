"""PF555 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    from argparse import ArgumentParser

    import hydra


    @hydra.main(config_path="conf", config_name="config")
    def my_app(cfg):
        print(cfg.optimizer.lr, cfg.epochs)


    if __name__ == "__main__":
        parser = ArgumentParser()
        parser.add_argument("--verbosity", help="increase output verbosity", action="store_true")
        {parse}{pin}
        my_app()
    # --- conf/config.yaml
    optimizer:
      lr: 0.1
    epochs: 90
    # --- launch
    python train.py {args}
""")

PF555_BAD = [
    # hydra issue 443: the overrides never reach Hydra
    _APP.format(parse="parser.parse_args()", pin="  # error: PF555", args="optimizer.lr=0.05 epochs=30"),
    _APP.format(parse="args = parser.parse_args()", pin="  # error: PF555", args="--verbosity epochs=30"),
]

PF555_GOOD = [
    # the fix: no parser of its own
    _APP.format(parse="pass", pin="", args="optimizer.lr=0.05 epochs=30"),
    # parse_known_args leaves the overrides to Hydra (it rewrites sys.argv)
    _APP.format(parse="args, rest = parser.parse_known_args()", pin="", args="optimizer.lr=0.05 epochs=30"),
    # no override on the launch line
    _APP.format(parse="parser.parse_args()", pin="", args=""),
    # tricky-correct: the parser reads an explicit list
    _APP.format(parse="parser.parse_args([])", pin="", args="optimizer.lr=0.05"),
]

# an imported project module that parses the command line when it is imported
_PKG = textwrap.dedent("""
    # --- src/train.py
    import hydra

    from src import utils


    @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
    def main(cfg):
        utils.extras(cfg)
        return utils.global_vector(cfg.model.csv)


    if __name__ == "__main__":
        main()
    # --- src/__init__.py
    # --- src/utils/__init__.py
    from src.utils.pooling import global_vector
    from src.utils.utils import extras
    # --- src/utils/utils.py
    def extras(cfg):
        return cfg
    # --- src/utils/pooling.py
    import argparse

    {top}


    def global_vector(csv_file, size=7):
        return csv_file, size


    if __name__ == "__main__":
    {main}
    # --- configs/train.yaml
    model:
      csv: data/a.csv
      resize: 7
    # --- launch
    python src/train.py {args}
""")

_PARSER = ('parser = argparse.ArgumentParser(description="preprocess")\n'
           'parser.add_argument("--csv_path", type=str, default="data")\n')


def _pkg(top: str, main: str, args: str = "model.resize=7") -> str:
    return _PKG.replace("{top}", top.rstrip()) \
        .replace("{main}", "    " + main.replace("\n", "\n    ").rstrip()).replace("{args}", args)


PF555_BAD.extend([
    # lightning-hydra-template issue 556: a helper imported through src/utils/__init__.py parses argv on import
    _pkg(_PARSER + "args = parser.parse_args()  # error: PF555", "print(args.csv_path)"),
])

PF555_GOOD.extend([
    # the fix: the helper parses only when run as a script
    _pkg("", _PARSER + "args = parser.parse_args()\nprint(args.csv_path)"),
    # tricky-correct: the helper parses on import but leaves unknown words alone
    _pkg(_PARSER + "args, _ = parser.parse_known_args()", "print(args.csv_path)"),
    # tricky-correct: parse_args inside a function nobody calls on import
    _pkg("def cli():\n    " + _PARSER.replace("\n", "\n    ") + "return parser.parse_args()", "print(cli())"),
    # no override on the launch line
    _pkg(_PARSER + "args = parser.parse_args()", "print(args.csv_path)", args=""),
])

_SPHERE = textwrap.dedent("""
    # --- sphere.py
    import hydra


    @hydra.main(config_path="conf", config_name="config"){pin}
    def sphere(cfg):
        return cfg.x ** 2 + cfg.y ** 2


    if __name__ == "__main__":
        sphere()
    # --- conf/config.yaml
    defaults:
      - {sweeper}
    {hydra}
    x: 1
    y: 1
    # --- launch
    python sphere.py {args}
""")

PF556_BAD = [
    # optuna issue 1799: the old `low:high` syntax reaches the trials as a string
    _SPHERE.format(hydra="hydra:\n  sweeper:\n    direction: minimize\n    n_trials: 20\n", pin="  # error: PF556", sweeper="override hydra/sweeper: optuna",
                   args="--multirun x=-5.0:5.0 y=1:10"),
]

PF556_GOOD = [
    # the fix: the override grammar's sweeps
    _SPHERE.format(hydra="hydra:\n  sweeper:\n    direction: minimize\n    n_trials: 20\n", pin="", sweeper="override hydra/sweeper: optuna",
                   args="--multirun 'x=interval(-5.0, 5.0)' 'y=range(1, 10)'"),
    # tricky-correct: the basic sweeper, or no --multirun: a colon value is just a string value
    _SPHERE.format(hydra="", pin="", sweeper="_self_", args="--multirun x=-5.0:5.0"),
    _SPHERE.format(hydra="hydra:\n  sweeper:\n    direction: minimize\n    n_trials: 20\n", pin="", sweeper="override hydra/sweeper: optuna", args="x=1:10"),
]

_PARTIAL = textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg):
        model = instantiate(cfg.model)
        optimizer = instantiate(cfg.optimizer)(params=model.parameters())
        return optimizer


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - optimizer: adam
      - _self_
    model:
      _target_: torch.nn.Linear
      in_features: 784
      out_features: 10
    # --- conf/optimizer/adam.yaml
    _target_: torch.optim.Adam
    _partial_: true{pin}
    lr: 1e-3
    # --- requirements.txt
    torch>=1.10
    hydra-core{hydra}
""")

PF557_BAD = [
    # hydra issue 1998: the environment pins Hydra 1.1
    _PARTIAL.format(pin="  # error: PF557", hydra="==1.1.1"),
]

PF557_GOOD = [
    # the fix, and a lower bound that may resolve to a current release
    _PARTIAL.format(pin="", hydra="==1.2.0"),
    _PARTIAL.format(pin="", hydra=">=1.1"),
]

_SWEEP = textwrap.dedent("""
    # --- train.py
    import json

    import hydra
    import torch


    @hydra.main(config_path="conf", config_name="config", version_base="1.2")
    def main(cfg):
        model = torch.nn.Linear(784, cfg.hidden)
        best = 0.0
        for epoch in range(cfg.epochs):
            best = max(best, float(epoch))
            torch.save(model.state_dict(), {target}){pin}
        with open({metrics}, "w") as f:
            json.dump({{"best": best}}, f)
        return best


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    lr: 1.0e-3
    hidden: 256
    epochs: 3
    {extra}# --- launch
    python train.py {args}
""")

PF558_BAD = [
    # hydra issue 2282: the jobs of the sweep overwrite each other's checkpoint and metrics
    _SWEEP.format(metrics='"metrics.json"', target='"best.pt"', pin="  # warning: PF558", extra="", args="-m lr=1e-3,3e-4,1e-4 hidden=128,256"),
]

PF558_GOOD = [
    # the fix: each job changes into its own folder
    _SWEEP.format(metrics='"metrics.json"', target='"best.pt"', pin="", extra="hydra:\n  job:\n    chdir: true\n",
                  args="-m lr=1e-3,3e-4,1e-4 hidden=128,256"),
    # one run: nothing to overwrite
    _SWEEP.format(metrics='"metrics.json"', target='"best.pt"', pin="", extra="", args="lr=1e-3"),
    # tricky-correct: a path built from the config
    _SWEEP.format(metrics='f"{cfg.hidden}_{cfg.lr}_metrics.json"', target='f"{cfg.hidden}_{cfg.lr}_best.pt"', pin="", extra="", args="-m lr=1e-3,3e-4"),
]

_JOBLIB = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    {imp}

    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        device = {device}{pin}
        model = torch.nn.Linear(8, 2).to(device)
        return float(model.weight.sum())


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - override hydra/launcher: joblib
      - _self_
    lr: 0.0003
    weight_decay: 0.05
    {jobs}# --- launch
    python train.py -m lr=1e-4,3e-4,1e-3,3e-3 weight_decay=0.0,0.01
""")

PF559_BAD = [
    # hydra issue 1331: four jobs at a time, all on the first GPU
    _JOBLIB.format(imp="", device='torch.device("cuda")', pin="  # warning: PF559",
                   jobs="hydra:\n  launcher:\n    n_jobs: 4\n"),
]

# held-out-23 (hydra issue 2021's shape): the sweep lives in the config and the device comes from it
_CONFIG_SWEEP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        device = torch.device(cfg.device){pin}
        model = torch.nn.Linear(8, 2).to(device)
        return float(model.weight.sum())


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - override hydra/launcher: joblib
      - _self_
    device: {device}
    lr: 0.1
    hydra:
      launcher:
        n_jobs: 4
      sweeper:
        params:
          lr: 0.2,0.1,0.05
    # --- launch
    python train.py --multirun
""")

PF559_BAD.append(_CONFIG_SWEEP.format(pin="  # warning: PF559", device="cuda"))

PF559_GOOD = [
    # the fix: a GPU per job
    _JOBLIB.format(imp="from hydra.core.hydra_config import HydraConfig\n",
                   device='torch.device(f"cuda:{HydraConfig.get().job.num % torch.cuda.device_count()}")', pin="",
                   jobs="hydra:\n  launcher:\n    n_jobs: 4\n"),
    # one job at a time
    _JOBLIB.format(imp="", device='torch.device("cuda")', pin="", jobs="hydra:\n  launcher:\n    n_jobs: 1\n"),
    # tricky: the config's device is per job (the sweep job's number picks the GPU)
    _CONFIG_SWEEP.format(pin="", device="cuda:${hydra:job.num}"),
]
