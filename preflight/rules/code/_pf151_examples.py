"""PF151 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CLICK = textwrap.dedent("""
    import click
    from hydra import compose, initialize_config_dir


    @click.command(context_settings={{"ignore_unknown_options": True}})
    @click.option("--config-dir", "config_dir", required=True)
    @click.option("--config-name", "config_name", required=True)
    @click.argument("overrides", nargs=-1, type=click.UNPROCESSED)
    def train(config_dir, config_name, overrides):
        with initialize_config_dir(config_dir=config_dir, version_base=None):
            cfg = {compose}{mark}
        ModelTrainer(cfg).train()


    if __name__ == "__main__":
        train()
""")

PF151_BAD = [
    # sleap-nn issue 301: the click CLI collects overrides and composes without them
    _CLICK.format(compose="compose(config_name=config_name)", mark="  # error: PF151"),
    # argparse: a positional override list never read
    textwrap.dedent("""
    import argparse

    from hydra import compose, initialize

    parser = argparse.ArgumentParser()
    parser.add_argument("--config-name", default="train")
    parser.add_argument("overrides", nargs="*", help="key=value Hydra overrides")
    args = parser.parse_args()
    with initialize(config_path="configs", version_base=None):
        cfg = compose(config_name=args.config_name)  # error: PF151
    run(cfg)
    """),
]

PF151_GOOD = [
    # the fix
    _CLICK.format(compose="compose(config_name=config_name, overrides=list(overrides))", mark=""),
    # tricky: the overrides are merged after composing
    _CLICK.format(compose="compose(config_name=config_name)\n        cfg.merge_with(OmegaConf.from_dotlist(list(overrides)))",
                  mark=""),
    # argparse, read back
    textwrap.dedent("""
    import argparse

    from hydra import compose, initialize

    parser = argparse.ArgumentParser()
    parser.add_argument("--overrides", nargs="*", default=[])
    args = parser.parse_args()
    with initialize(config_path="configs", version_base=None):
        cfg = compose("train", args.overrides)
    run(cfg)
    """),
    # tricky: no override argument at all (a fixed config for a test)
    textwrap.dedent("""
    from hydra import compose, initialize


    def test_config_composes():
        with initialize(config_path="../configs", version_base=None):
            cfg = compose(config_name="train")
        assert cfg.trainer.max_epochs > 0
    """),
]
