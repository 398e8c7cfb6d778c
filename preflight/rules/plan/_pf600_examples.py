"""PF600 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = textwrap.dedent("""
    # --- config.yaml
    name: REPLACE_ME
    output_dir: ${name}/logs
    max_steps: 100
""")


def _app(body: str, launch: str = "python train.py --config config.yaml name=llama3_lora_r16") -> str:
    return textwrap.dedent("""
        # --- train.py
        import argparse

        from omegaconf import OmegaConf


        def load():
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", required=True)
            args, overrides = parser.parse_known_args()
    """) + textwrap.indent(body, "    ") + "\n    return conf\n\n\nprint(load().output_dir)\n" + _CONFIG + \
        "# --- launch\n" + launch + "\n"


BAD_EXAMPLES = [
    # meta-pytorch/torchtune PR 2236: output_dir is resolved with name=REPLACE_ME before name=... is merged
    _app("conf = OmegaConf.create(OmegaConf.to_container(OmegaConf.load(args.config), resolve=True))"
         "  # warning: PF600\n"
         "conf = OmegaConf.merge(conf, OmegaConf.from_dotlist(overrides))"),
    # resolved in place before the merge
    _app("conf = OmegaConf.load(args.config)\n"
         "OmegaConf.resolve(conf)  # warning: PF600\n"
         "conf = OmegaConf.merge(conf, OmegaConf.from_dotlist(overrides))"),
]

GOOD_EXAMPLES = [
    # the fix of the PR: merge, then resolve
    _app("conf = OmegaConf.merge(OmegaConf.load(args.config), OmegaConf.from_dotlist(overrides))\n"
         "OmegaConf.resolve(conf)"),
    # tricky-correct: the launch line overrides a key nothing interpolates
    _app("conf = OmegaConf.create(OmegaConf.to_container(OmegaConf.load(args.config), resolve=True))\n"
         "conf = OmegaConf.merge(conf, OmegaConf.from_dotlist(overrides))",
         "python train.py --config config.yaml max_steps=10"),
]
