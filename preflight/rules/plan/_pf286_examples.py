"""PF286 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    import yaml

    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="config.yaml")
    args = parser.parse_args()
    with open(args.config) as f:
        cfg = yaml.safe_load(f)
    train_cfg = cfg["training"]
    {helper}
    model = torch.nn.Linear(8, 2).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=float(train_cfg["lr"]))
    use_fp16 = {test}{pin}
    scaler = torch.cuda.amp.GradScaler(enabled=use_fp16)
    for step in range(100):
        x = torch.randn(4, 8, device="cuda")
        with torch.autocast("cuda", dtype=torch.float16, enabled=use_fp16):
            loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    # --- config.yaml
    training:
      lr: 0.001
      fp16: {value}
    # --- launch.sh
    python train.py --config config.yaml
""")

_IF_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(8, 2)
        ema = None
        if cfg.train.use_ema:{pin}
            ema = torch.optim.swa_utils.AveragedModel(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=cfg.train.lr)
        for step in range(10):
            loss = model(torch.randn(4, 8)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if ema is not None:
                ema.update_parameters(model)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    train:
      lr: 0.1
      use_ema: {value}
""")

BAD_EXAMPLES = [
    # hermes-agent PR 50604: bool() of a quoted "false" switches fp16 on
    _APP.format(helper="", test='bool(train_cfg.get("fp16", False))', pin="  # warning: PF286", value='"false"'),
    # an `if` on a Hydra value quoted 'no'
    _IF_APP.format(pin="  # warning: PF286", value="'no'"),
]

GOOD_EXAMPLES = [
    # the fix: the string is parsed
    _APP.format(helper=("def is_truthy(value):\n"
                        "    if isinstance(value, str):\n"
                        "        return value.strip().lower() in {'1', 'true', 'yes', 'on'}\n"
                        "    return bool(value)\n"),
                test='is_truthy(train_cfg.get("fp16", False))', pin="",
                value='"false"'),
    # an unquoted YAML boolean: bool(False) is False
    _APP.format(helper="", test='bool(train_cfg.get("fp16", False))', pin="", value="false"),
    # tricky: the quoted string is compared as a string, never by truthiness
    _APP.format(helper="", test='str(train_cfg.get("fp16", "false")).lower() == "true"', pin="", value='"false"'),
    # tricky: a quoted "true" is truthy and means it
    _IF_APP.format(pin="", value='"true"'),
]
