"""PF239 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# pytorch-template issue 89's shape: the scheduler comes from the composed config
_HYDRA = dedent("""
    # --- train.py
    import hydra
    import torch
    import torch.nn.functional as F
    from hydra.utils import instantiate
    from omegaconf import DictConfig

    from data import make_loaders


    def evaluate(model, loader):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for x, y in loader:
                total += F.mse_loss(model(x), y).item()
        return total / len(loader)


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> float:
        train_loader, val_loader = make_loaders(cfg.batch_size)
        model = instantiate(cfg.model)
        optimizer = instantiate(cfg.optimizer, params=model.parameters())
        scheduler = instantiate(cfg.scheduler, optimizer=optimizer)
        val_loss = float("inf")
        for epoch in range(cfg.epochs):
            model.train()
            for x, y in train_loader:
                loss = F.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            val_loss = evaluate(model, val_loader)
            {step}
        return val_loss


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - optimizer: adamw
      - scheduler: {choice}
      - _self_
    epochs: 50
    batch_size: 256
    model:
      _target_: torch.nn.Linear
      in_features: 16
      out_features: 1
    # --- conf/optimizer/adamw.yaml
    _target_: torch.optim.AdamW
    lr: 1.0e-3
    # --- conf/scheduler/plateau.yaml
    _target_: torch.optim.lr_scheduler.ReduceLROnPlateau
    mode: min
    factor: 0.5
    patience: 5
    # --- conf/scheduler/cosine.yaml
    _target_: torch.optim.lr_scheduler.CosineAnnealingLR
    T_max: 50
    # --- launch
    python train.py
    """)

# plain torch: the plateau scheduler built in the code
_PLAIN = dedent("""
    import torch
    from torch.optim.lr_scheduler import ReduceLROnPlateau


    def fit(model, loader, validate, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        scheduler = ReduceLROnPlateau(optimizer, mode="max", patience=3)
        for epoch in range(epochs):
            model.train()
            for x, y in loader:
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            accuracy = validate(model)
            {step}
    """)

PF239_BAD = [
    _HYDRA.format(choice="plateau", step="scheduler.step()  # error: PF239"),
    "# --- train.py" + _PLAIN.format(step="scheduler.step()  # error: PF239") + "# --- launch\npython train.py\n",
]

PF239_GOOD = [
    # the fix: the metric passed
    _HYDRA.format(choice="plateau", step="scheduler.step(val_loss)"),
    # tricky: the config selects a scheduler that steps without arguments
    _HYDRA.format(choice="cosine", step="scheduler.step()"),
    # tricky: the trainer branches on the scheduler's type
    _HYDRA.format(choice="plateau", step="if isinstance(scheduler, torch.optim.lr_scheduler.ReduceLROnPlateau):\n"
                                         "            scheduler.step(val_loss)\n"
                                         "        else:\n"
                                         "            scheduler.step()"),
    "# --- train.py" + _PLAIN.format(step="scheduler.step(accuracy)") + "# --- launch\npython train.py\n",
]
