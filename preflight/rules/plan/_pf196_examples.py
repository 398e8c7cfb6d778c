"""PF196 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    import torch
    from omegaconf import DictConfig
    from torch.utils.data import DataLoader, Subset

    from data import build_dataset


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        dataset = build_dataset(cfg.data.root)
        {test}
            dataset = Subset(dataset, range(64))
        loader = DataLoader(dataset, batch_size=cfg.train.batch_size, shuffle=True)
        model = torch.nn.Linear(16, 4)
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.train.lr)
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
    # --- requirements.txt
    hydra-core==1.3.2
    omegaconf==2.3.0
    # --- conf/config.yaml
    data:
      root: /datasets/train
    train:
      batch_size: 32
      lr: 3e-4
    executor:
      debug: {value}
    """)


def _app(test: str, value: str) -> str:
    return _APP.replace("{test}", test).replace("{value}", value)


BAD = [
    # zotero-arxiv-daily's config/custom.yaml `debug: ${oc.env:DEBUG,null}` over base.yaml's `debug: false`:
    # DEBUG=false is the string "false", which is true, so the job silently trains on the 64-sample subset
    _app("if cfg.executor.debug:  # warning: PF196", "${oc.env:DEBUG,null}").replace(
        "# --- conf/config.yaml\ndata:", "# --- conf/config.yaml\ndefaults:\n  - base\n  - _self_\ndata:").replace(
        "# --- requirements.txt", "# --- conf/base.yaml\nexecutor:\n  debug: false\n# --- requirements.txt"),
    # a `false` default: oc.env turns it into the string "False" even with the variable unset
    _app("if bool(cfg.executor.debug):  # warning: PF196",
         "${oc.env:DEBUG,false}"),
]

GOOD = [
    # the fix: oc.decode parses "false"/"0"/"null"
    _app("if cfg.executor.debug:", "${oc.decode:${oc.env:DEBUG,null}}"),
    # a plain YAML boolean
    _app("if cfg.executor.debug:", "false"),
    # tricky: the code parses the string itself
    _app("if str(cfg.executor.debug).lower() in (\"1\", \"true\", \"yes\"):", "${oc.env:DEBUG,null}"),
    # tricky: the env value is only compared with a string
    _app("if cfg.executor.debug == \"full\":", "${oc.env:DEBUG_MODE,none}"),
    # tricky: part of a longer string, never a flag
    _app("if cfg.executor.debug:", "${oc.env:HOME}/debug_dumps").replace(
        "if cfg.executor.debug:", "if cfg.data.root:"),
]

GOOD.append(
    # tricky: another node of the same name holds a plain boolean (preflight cannot tell which one is read)
    _app("if cfg.executor.debug:", "${oc.env:DEBUG,null}").replace("train:\n", "train:\n  debug: false\n"))
GOOD.append(
    # tricky: a typed structured-config schema declares `debug: bool`; OmegaConf converts "false" to False
    _app("if cfg.executor.debug:", "${oc.env:DEBUG,false}").replace(
        "from data import build_dataset\n",
        "from data import build_dataset\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass ExecutorConfig:\n"
        "    debug: bool = False\n"))
