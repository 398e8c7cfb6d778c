"""PF219 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig{extra_import}

    from text_data import build_vocab, load_corpus
    from textcnn import TextCNN


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        corpus = load_corpus(cfg.data.path)
        vocab = build_vocab(corpus)
    {assign}
        model = TextCNN(**cfg.model)
        print(model)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: textcnn
      - _self_

    data:
      path: data/cnews
    # --- conf/model/textcnn.yaml
    {declared}embedding_dim: 300
    num_classes: 10
    # --- launch
    python train.py
""")

BAD_EXAMPLES = [
    # hydra issue 258: a key computed at runtime, added to the struct-mode config
    _APP.format(assign="    cfg.model.vocab_size = len(vocab)  # error: PF219", declared="", extra_import=""),
    # the same with item syntax
    _APP.format(assign='    cfg["model"]["vocab_size"] = len(vocab)  # error: PF219', declared="", extra_import=""),
]

GOOD_EXAMPLES = [
    # the fix: the key declared with a placeholder
    _APP.format(assign="    cfg.model.vocab_size = len(vocab)", declared="vocab_size: ???\n", extra_import=""),
    # tricky-correct: added under open_dict
    _APP.format(assign="    with open_dict(cfg):\n        cfg.model.vocab_size = len(vocab)", declared="",
                extra_import=", open_dict"),
    # tricky-correct: an existing key changed
    _APP.format(assign="    cfg.model.num_classes = len(vocab)", declared="", extra_import=""),
]
