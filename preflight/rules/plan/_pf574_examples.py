"""PF574 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- discover.py
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base=None, config_path="conf", config_name="config"){pin}
    def main(cfg: DictConfig) -> None:
        encoder = hydra.utils.instantiate(cfg.net.encoder)
        print(encoder, cfg.net.head.width)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - net: small
      - _self_

    lr: 0.001
    # --- conf/net/small.yaml
    defaults:
      - encoder: conv

    head:
      width: ${{net.encoder.width}}
    # --- conf/net/large.yaml
    defaults:
      - encoder: conv

    head:
      width: 512
    # --- conf/net/encoder/conv.yaml
    _target_: models.ConvEncoder
    width: 64
    # --- conf/net/encoder/vit.yaml
    _target_: models.ViTEncoder
    width: 384
    patch: 16
""")

BAD_EXAMPLES = [
    # MESH issue 1: the README's `model.slot_attention=mesh` for the nested group model/slot_attention
    _APP.format(pin="  # error: PF574") + """\
# --- launch
python discover.py net=small net.encoder=vit
""",
    # a sweep over two options of the nested group, written with dots
    _APP.format(pin="  # error: PF574") + """\
# --- launch
python discover.py -m net.encoder=conv,vit lr=0.001,0.0003
""",
]

GOOD_EXAMPLES = [
    # the fix: the group path with a slash
    _APP.format(pin="") + """\
# --- launch
python discover.py net=small net/encoder=vit
""",
    # tricky-correct: a value inside the selected option, and a top-level group with its plain name
    _APP.format(pin="") + """\
# --- launch
python discover.py net=large net.encoder.width=96 net.head.width=128
""",
    # tricky-correct: a dotted key whose value is not an option of the folder (a plain value override)
    _APP.format(pin="") + """\
# --- launch
python discover.py net.encoder._target_=models.ConvEncoder
""",
]
