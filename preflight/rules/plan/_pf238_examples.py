"""PF238 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# the optimizer imported from transformers in a fine-tuning script (ColBERT PR 390's shape)
_SCRIPT = dedent("""
    # --- train.py
    import torch
    {imports}
    from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


    def main(loader, steps):
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
        optimizer = AdamW(model.parameters(), lr=2e-5)
        scheduler = get_linear_schedule_with_warmup(optimizer, 100, steps)
        model.train()
        for batch in loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
    # --- requirements.txt
    torch>=2.2
    {pin}
    # --- launch
    python train.py
    """)

# pytorch-ie PR 279's shape: the Hydra optimizer node of a template
_HYDRA = dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="configs", config_name="train")
    def main(cfg: DictConfig) -> None:
        model = hydra.utils.instantiate(cfg.model)
        optimizer = hydra.utils.instantiate(cfg.optimizer, params=model.parameters())
        print(optimizer)


    if __name__ == "__main__":
        main()
    # --- configs/train.yaml
    defaults:
      - optimizer: adamw
      - _self_
    model:
      _target_: torch.nn.Linear
      in_features: 8
      out_features: 2
    # --- configs/optimizer/adamw.yaml
    _target_: {target}{mark}
    lr: 5.0e-5
    # --- requirements.txt
    hydra-core>=1.3
    {pin}
    # --- launch
    python train.py
    """)

PF238_BAD = [
    _SCRIPT.format(imports="from transformers import AdamW  # error: PF238", pin="transformers>=4.50"),
    _HYDRA.format(target="transformers.AdamW", mark="  # error: PF238", pin="transformers==4.57.1"),
    # no version declared: a current release is assumed, so a warning
    _SCRIPT.format(imports="from transformers.optimization import AdamW  # warning: PF238", pin=""),
]

PF238_GOOD = [
    # the fix: torch's AdamW
    _SCRIPT.format(imports="from torch.optim import AdamW", pin="transformers>=4.50"),
    _HYDRA.format(target="torch.optim.AdamW", mark="", pin="transformers==4.57.1"),
    # tricky: an old transformers pinned, where the class still exists
    _SCRIPT.format(imports="from transformers import AdamW", pin="transformers==4.41.0"),
    # tricky: a guarded import with a fallback
    _SCRIPT.format(imports="try:\n    from transformers import AdamW\nexcept ImportError:\n"
                           "    from torch.optim import AdamW", pin="transformers>=4.50"),
]
