"""PF160 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line, good
ones stay silent."""

from __future__ import annotations

import textwrap

_EVAL = textwrap.dedent("""
    # --- evaluate.py
    import argparse

    import torch
    from hydra import compose, initialize
    from hydra.utils import instantiate


    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--checkpoint", required=True)
        args = p.parse_args()
        with initialize(version_base="1.3", config_path="conf"):
            cfg = compose(config_name="config"{overrides})
        out_dir = cfg.eval.output_dir{pin}
        model = instantiate(cfg.model)
        model.load_state_dict(torch.load(args.checkpoint, map_location="cpu")["state_dict"])
        print(out_dir, model)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    model:
      _target_: models.ConvNet
      channels: [32, 64, 128]
    eval:
      output_dir: {output_dir}
    run_name: ${{hydra:job.name}}
""")

BAD_EXAMPLES = [
    # held-out-43, Hydra issue 716 (evaluate.py:16): the training config's ${hydra:job.name} read through compose
    _EVAL.format(overrides="", pin="  # error: PF160", output_dir="outputs/${hydra:job.name}/eval"),
    # through another key of the same file
    _EVAL.format(overrides="", pin="  # error: PF160", output_dir="outputs/${run_name}/eval"),
]

GOOD_EXAMPLES = [
    # the fix: the compose call gives the key a plain value
    _EVAL.format(overrides=', overrides=["eval.output_dir=outputs/evaluate/eval"]', pin="",
                 output_dir="outputs/${hydra:job.name}/eval"),
    # tricky-correct: the file has a ${hydra:...} key (run_name), but the script reads only plain keys
    _EVAL.format(overrides="", pin="", output_dir="outputs/eval"),
    # tricky-correct: the script sets the HydraConfig from the composed config before reading it
    textwrap.dedent("""
    # --- evaluate.py
    from hydra import compose, initialize
    from hydra.core.hydra_config import HydraConfig

    with initialize(version_base="1.3", config_path="conf"):
        cfg = compose(config_name="config", return_hydra_config=True)
        HydraConfig.instance().set_config(cfg)
    print(cfg.eval.output_dir)
    # --- conf/config.yaml
    eval:
      output_dir: outputs/${hydra:job.name}/eval
    """),
]
