"""PF617 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    import yaml


    def choose_scheduler(config, optimizer):
        if config["lr_scheduler"] is None:
            return None
        if config["lr_scheduler"] == "step":
            return torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)
        raise NotImplementedError(f"Scheduler {config['lr_scheduler']} is not implemented")


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", required=True)
        args = parser.parse_args()
        with open(args.config) as f:
            config = yaml.safe_load(f)
        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
        return choose_scheduler(config, optimizer)


    if __name__ == "__main__":
        main()
    """)

_FLOW = textwrap.dedent("""
    # --- train_flow.py
    import argparse

    import torch
    import yaml


    def build_flow(dim, num_layers, cond_dim=None):
        layers = [torch.nn.Linear(dim + (cond_dim or 0), dim) for _ in range(num_layers)]
        return torch.nn.Sequential(*layers)


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", required=True)
        args = parser.parse_args()
        with open(args.config) as f:
            config = yaml.safe_load(f)
        return build_flow(4, config["num_layers"], cond_dim=config["cond_dim"])


    if __name__ == "__main__":
        main()
    """)

BAD_EXAMPLES = [
    # ProDet issue 8: `None` is a string in YAML, the `is None` branch is never taken
    _TRAIN + """\
# --- config/detector.yaml
model_name: prodet
lr: 0.0002
lr_scheduler: None  # warning: PF617
nEpochs: 20
""",
    # a Hydra app testing a nested key through the DictConfig
    textwrap.dedent("""
        # --- train.py
        import hydra
        from omegaconf import DictConfig


        @hydra.main(version_base="1.3", config_path="conf", config_name="config")
        def main(cfg: DictConfig) -> None:
            if cfg.model.pretrained is not None:
                print("loading", cfg.model.pretrained)


        if __name__ == "__main__":
            main()
        # --- conf/config.yaml
        model:
          name: resnet50
          pretrained: None  # warning: PF617
        """),
    # jester PR 69: the key is handed to a function whose default None means "unconditional"
    _FLOW + """\
# --- config.yaml
num_layers: 8
cond_dim: None  # warning: PF617
""",
]

GOOD_EXAMPLES = [
    # the fix: YAML's null
    _TRAIN + """\
# --- config/detector.yaml
model_name: prodet
lr: 0.0002
lr_scheduler: null
nEpochs: 20
""",
    # tricky-correct: a quoted 'None' is a deliberate string, and the code compares with the string
    textwrap.dedent("""
        # --- train.py
        import yaml

        config = yaml.safe_load(open("config.yaml"))
        if config["norm"] is None or config["norm"] == "None":
            norm = None
        # --- config.yaml
        norm: None
        act: 'None'
        """),
    # tricky-correct: `None` for a key no code compares with None
    _TRAIN + """\
# --- config/detector.yaml
model_name: prodet
lr: 0.0002
lr_scheduler: step
comment: None
""",
    # the jester fix: null
    _FLOW + """\
# --- config.yaml
num_layers: 8
cond_dim: null
""",
    # tricky-correct: the callee turns the string "None" into None itself
    textwrap.dedent("""
        # --- train.py
        import yaml


        def build_head(width, dropout=None):
            if dropout == "None":
                dropout = None
            return width, dropout


        config = yaml.safe_load(open("config.yaml"))
        head = build_head(config["width"], dropout=config["dropout"])
        # --- config.yaml
        width: 128
        dropout: None
        """),
]


# hydra issue 2825: `max_grad_norm:` left empty ("use the script's default"), read with .get("max_grad_norm", 1.0):
# get returns None for the existing key and the clipping branch is skipped
_BLANK = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(8, 8)
        opt = torch.optim.AdamW(model.parameters(), lr=cfg.optim.lr)
        max_grad_norm = cfg.optim.get("max_grad_norm", 1.0)
        loss = model(torch.randn(4, 8)).sum()
        loss.backward()
        if max_grad_norm:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
        opt.step()


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    optim:
      lr: 3.0e-4
      {line}
      warmup_steps: 2000
    # --- launch
    python train.py
    """)

BAD_EXAMPLES.append(_BLANK.format(line="max_grad_norm:  # warning: PF617"))
GOOD_EXAMPLES += [
    # the fix: the value written
    _BLANK.format(line="max_grad_norm: 1.0"),
    # tricky: an explicit null is a deliberate "no clipping"
    _BLANK.format(line="max_grad_norm: null"),
    _BLANK.format(line="max_grad_norm: ~"),
    # tricky: a key that opens a nested mapping is not empty
    _BLANK.format(line="max_grad_norm:\n    value: 1.0"),
]
