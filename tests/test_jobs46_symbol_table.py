"""The model in real jobs (issue 15, branch jobs46): a vocabulary that is the length of a symbol table the
project builds from string constants (preflight/module_constants.py, read by preflight/script_hparams.py),
and the model built as ``Tacotron2(hparams).cuda()`` from an HParams object, or handed ``len(symbols)``
directly (jaywalnut310/vits ``train.py:88``) (adapters/model_imported.py).
Small projects of our own in the shape of NVIDIA/tacotron2 (the keithito/tacotron text package):
``hparams.py:2,47`` ``from text import symbols`` ... ``n_symbols=len(symbols)``; ``text/__init__.py``
``from text.symbols import symbols``; ``text/symbols.py`` ``symbols = [_pad] + list(_punctuation) + ... +
_arpabet`` with ``_arpabet = ['@' + s for s in cmudict.valid_symbols]``; ``train.py:73-74,278``
``hparams = create_hparams(args.hparams)`` ... ``def load_model(hparams): model = Tacotron2(hparams).cuda()``.
Twins that must state nothing: a table changed after it is built, a name bound twice, a table the package
does not export (``from text import symbols`` then names the submodule, not the list).
"""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse

    import torch

    from hparams import create_hparams
    from model import Tacotron2


    def load_model(hparams):
        model = Tacotron2(hparams).cuda()
        return model


    def train(output_directory, hparams):
        model = load_model(hparams)
        optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("-o", "--output_directory", type=str)
        parser.add_argument("--hparams", type=str, required=False)
        args = parser.parse_args()
        hparams = create_hparams(args.hparams)
        train(args.output_directory, hparams)
"""

HPARAMS = """\
    import tensorflow as tf
    from text import symbols


    def create_hparams(hparams_string=None, verbose=False):
        hparams = tf.contrib.training.HParams(
            learning_rate=1e-3,
            n_symbols=len(symbols),
            symbols_embedding_dim=16,
            hidden=8,
        )
        if hparams_string:
            hparams.parse(hparams_string)
        return hparams
"""

MODEL = """\
    import torch.nn as nn


    class Tacotron2(nn.Module):
        def __init__(self, hparams):
            super().__init__()
            self.embedding = nn.Embedding(hparams.n_symbols, hparams.symbols_embedding_dim)
            self.proj = nn.Linear(hparams.symbols_embedding_dim, hparams.hidden)
"""

INIT = """\
    from text.symbols import symbols
"""

SYMBOLS = """\
    from text import cmudict

    _pad = '_'
    _punctuation = '!,.? '
    _letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    _arpabet = ['@' + s for s in cmudict.valid_symbols]
    symbols = [_pad] + list(_punctuation) + list(_letters) + _arpabet
"""

CMUDICT = """\
    import re

    valid_symbols = ['AA', 'AA0', 'AE', 'B', 'CH']
"""


def _count(cli, tmp_path: Path, symbols: str = SYMBOLS, init: str = INIT):
    write(tmp_path, {"train.py": TRAIN, "hparams.py": HPARAMS, "model.py": MODEL, "text/__init__.py": init,
                     "text/symbols.py": symbols, "text/cmudict.py": CMUDICT})
    return fact(plan_of(cli, "train.py", "--", "-o", "out", cwd=tmp_path), "model.num_parameters")


def test_a_vocabulary_built_from_the_text_package_constants_is_counted(cli, tmp_path: Path) -> None:
    got = _count(cli, tmp_path)
    n_symbols = 1 + len("!,.? ") + 26 + 5
    assert got is not None and got.value == n_symbols * 16 + 16 * 8 + 8
    assert "Tacotron2" in got.source.detail


def test_a_table_changed_after_it_is_built_states_nothing(cli, tmp_path: Path) -> None:
    assert _count(cli, tmp_path, symbols=SYMBOLS + "symbols.append('~')\n") is None


def test_a_table_bound_twice_states_nothing(cli, tmp_path: Path) -> None:
    assert _count(cli, tmp_path, symbols=SYMBOLS + "symbols = symbols + ['~']\n") is None


def test_a_package_that_does_not_export_the_table_states_nothing(cli, tmp_path: Path) -> None:
    # ``from text import symbols`` then binds the submodule ``text/symbols.py``: its len() is no vocabulary
    assert _count(cli, tmp_path, init="") is None


VITS_TRAIN = """\
    import torch

    from text.symbols import symbols
    from models import Synth


    def run():
        net_g = Synth(len(symbols), 8)
        optim_g = torch.optim.AdamW(net_g.parameters(), lr=2e-4)


    if __name__ == "__main__":
        run()
"""

VITS_MODELS = """\
    import torch.nn as nn


    class Synth(nn.Module):
        def __init__(self, n_vocab, hidden):
            super().__init__()
            self.emb = nn.Embedding(n_vocab, hidden)
            self.out = nn.Linear(hidden, hidden)
"""


def _vits(cli, tmp_path: Path, symbols: str = SYMBOLS):
    write(tmp_path, {"train.py": VITS_TRAIN, "models.py": VITS_MODELS, "text/__init__.py": INIT,
                     "text/symbols.py": symbols, "text/cmudict.py": CMUDICT})
    return fact(plan_of(cli, "train.py", cwd=tmp_path), "model.num_parameters")


def test_the_length_of_the_symbol_table_handed_to_the_model_is_counted(cli, tmp_path: Path) -> None:
    # jaywalnut310/vits ``train.py:88`` ``SynthesizerTrn(len(symbols), ...)``
    got = _vits(cli, tmp_path)
    n_symbols = 1 + len("!,.? ") + 26 + 5
    assert got is not None and got.value == n_symbols * 8 + 8 * 8 + 8


def test_a_symbol_table_extended_in_a_function_states_nothing(cli, tmp_path: Path) -> None:
    extended = SYMBOLS + "\n\ndef add(extra):\n    global symbols\n    symbols = symbols + extra\n"
    assert _vits(cli, tmp_path, symbols=extended) is None
