"""PF186 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones mark each line they must be reported on (``# error: PF186``), good ones stay silent. Jobs that lack config files (composed without them) are in
tests/test_hydra_partial.py: an example project must compose."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base=None, config_path="configs", config_name="train")
    def main(cfg):
        callbacks = [instantiate(cb) for cb in cfg.callback.values()]
        print(cfg.logger.video.num_videos, len(callbacks))


    if __name__ == "__main__":
        main()
""")

_CALLBACKS = """\
# --- configs/callback/base.yaml
last_ckpt:
  _target_: pytorch_lightning.callbacks.ModelCheckpoint
  every_n_epochs: 1
# --- configs/callback/render.yaml
defaults:
  - base
  - _self_

render:
  _target_: sinc.callback.RenderCallback
  nvids_to_save: 5
"""

BAD_EXAMPLES = [
    # atnikos/sinc issue 6: the selected callback option (base) has no `render` node
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: base
  - _self_

seed: 1234
logger:
  video:
    num_videos: ${callback.render.nvids_to_save}  # error: PF186
    fps: 30
""" + _CALLBACKS,
    # a misspelled key inside a longer string, in a group option
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: render
  - logger: wandb
  - _self_

seed: 1234
# --- configs/logger/wandb.yaml
video:
  num_videos: 4
name: run-${callback.render.nvid_to_save}-videos  # error: PF186
""" + _CALLBACKS,
    # the option that defines the key is chosen away on the launch line
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: render
  - _self_

logger:
  video:
    num_videos: ${callback.render.nvids_to_save}  # error: PF186
""" + _CALLBACKS + """\
# --- launch
python train.py callback=base
""",
]

GOOD_EXAMPLES = [
    # the corrected twin: the option that defines `render` is selected
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: render
  - _self_

logger:
  video:
    num_videos: ${callback.render.nvids_to_save}
""" + _CALLBACKS,
    # selected on the launch line
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: base
  - _self_

logger:
  video:
    num_videos: ${callback.render.nvids_to_save}
""" + _CALLBACKS + """\
# --- launch
python train.py callback=render
""",
    # relative interpolations, resolvers and Hydra's own keys are not followed
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: base
  - _self_

out: ${hydra:runtime.output_dir}
logger:
  video:
    fps: 30
    num_videos: ${.fps}
    name: ${oc.env:RUN_NAME,run}
    sel: ${oc.select:callback.render.nvids_to_save,4}
""" + _CALLBACKS,
    # tricky: the key is defined by the primary config itself, below the value that reads it
    _APP + """\
# --- configs/train.yaml
defaults:
  - callback: base
  - _self_

logger:
  video:
    num_videos: 4
    dir: ${paths.output_dir}/videos
paths:
  output_dir: outputs
""" + _CALLBACKS,
    # tricky: the script adds the node at runtime before anything reads it
    textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import open_dict


    @hydra.main(version_base=None, config_path="configs", config_name="train")
    def main(cfg):
        with open_dict(cfg):
            cfg.callback.render = {"nvids_to_save": 2}
        print(cfg.logger.video.num_videos)


    if __name__ == "__main__":
        main()
    """) + """\
# --- configs/train.yaml
defaults:
  - callback: base
  - _self_

logger:
  video:
    num_videos: ${callback.render.nvids_to_save}
""" + _CALLBACKS,
]
