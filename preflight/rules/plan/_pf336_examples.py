"""PF336 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from datasets import load_dataset


    @hydra.main(config_path="conf", config_name="sft", version_base="1.3")  # {pin}
    def main(cfg):
        train = load_dataset(cfg.data.train.dataset_name, split="train")
        val = load_dataset(cfg.data.val.dataset_name, split="validation")
        print(len(train), len(val), cfg.data.max_length, cfg.trainer.lr){extra}


    if __name__ == "__main__":
        main()
    # --- conf/sft.yaml
    data:
      max_length: 1024
      train:
        dataset_name: squad
      val:
        dataset_name: squad
    trainer:
      lr: 5.0e-6
    # --- launch
    python train.py {args}
""")

BAD_EXAMPLES = [
    # NVIDIA-NeMo/RL issue 2719: the documented ++data.dataset_name is read by nothing
    _APP.format(pin="warning: PF336", args="++data.dataset_name=openmathinstruct2 trainer.lr=1e-5", extra=""),
    # + at the top level: the key lives under data.train / data.val only
    _APP.format(pin="warning: PF336", args="+dataset_name=openmathinstruct2", extra=""),
]

GOOD_EXAMPLES = [
    # the fix: the paths the code reads, without +
    _APP.format(pin="", args="data.train.dataset_name=openmathinstruct2 data.val.dataset_name=openmathinstruct2",
                extra=""),
    # tricky: a ++ override of a key the config has at that path
    _APP.format(pin="", args="++data.max_length=2048", extra=""),
    # tricky: a new key no node has (PF258's business when it is a near miss)
    _APP.format(pin="", args="+data.seed=3", extra=""),
    # tricky: the code also reads the key directly under `data`, with a default
    _APP.format(pin="", args="++data.dataset_name=openmathinstruct2",
                extra='\n    print(cfg.data.get("dataset_name", "squad"))'),
]
