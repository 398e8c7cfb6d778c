"""PF158 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="conf", config_name="config"){pin}
    def main(cfg: DictConfig) -> None:
        transforms = [instantiate(t) for t in cfg.preprocessing.transform.values()]
        print(transforms, cfg.trainer.max_epochs)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    preprocessing:
      transform:
        resample:
          _target_: torchaudio.transforms.Resample
          orig_freq: 44100
        {key}:
          _target_: audio_tx.transforms.SegmentLabels
          window_s: 20
    trainer:
      max_epochs: 100
      layers: [64, 64]
""")

BAD_EXAMPLES = [
    # held-out-43, Hydra issue 2674 (launch.sh:3): deleting the `20s_labels` transform from the command line
    _APP.format(key="20s_labels", pin="  # error: PF158") + """\
# --- launch
python train.py '~preprocessing.transform.20s_labels' trainer.max_epochs=40
""",
    # the same key changed rather than deleted
    _APP.format(key="20s_labels", pin="  # error: PF158") + """\
# --- launch
python train.py preprocessing.transform.20s_labels.window_s=10
""",
]

GOOD_EXAMPLES = [
    # the fix: the key renamed so that it starts with a letter
    _APP.format(key="labels_20s", pin="") + """\
# --- launch
python train.py '~preprocessing.transform.labels_20s' trainer.max_epochs=40
""",
    # tricky-correct: a list index is an unsigned integer key part, and digits in values are values
    _APP.format(key="labels_20s", pin="") + """\
# --- launch
python train.py trainer.layers.0=128 preprocessing.transform.labels_20s.window_s=20 +tag=20s_run
""",
    # tricky-correct: an app that parses its own command line (argparse): the tokens are not overrides
    textwrap.dedent("""
    # --- train.py
    import argparse

    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        print(cfg)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("rest", nargs="*")
        parser.parse_args()
        main()
    # --- conf/config.yaml
    lr: 0.1
    # --- launch
    python train.py 3d_head=big
"""),
]
