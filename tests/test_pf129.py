"""PF129 trainer-reused-for-new-model: one Lightning Trainer fitted again for a new model
(Lightning-AI/pytorch-lightning#12789); continued training, per-model Trainers and tests stay silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF129",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


COMPARE = """\
import lightning as L

from models import CNN, MLP


def compare(dm):
    trainer = L.Trainer(max_epochs=5)
    model = MLP()
    trainer.fit(model, datamodule=dm)
    mlp = trainer.test(model, datamodule=dm)
    model = CNN()
    trainer.fit(model, datamodule=dm)
    return mlp, trainer.test(model, datamodule=dm)
"""


def test_the_same_name_bound_to_a_new_model_is_reported_through_the_cli(cli, tmp_path):
    (tmp_path / "compare.py").write_text(COMPARE)
    res = cli("check", "compare.py", "--select", "PF129", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF129", 12, "warning")]
    msg = found[0]["message"]
    assert "`trainer.fit(model)`" in msg and "(line 9)" in msg and "max_epochs" in msg


def test_silent_when_the_trainer_is_built_again_or_its_loop_changed():
    again = COMPARE.replace("    model = CNN()\n", "    model = CNN()\n    trainer = L.Trainer(max_epochs=5)\n")
    assert lines(again) == []
    raised = COMPARE.replace("    model = CNN()\n", "    model = CNN()\n    trainer.fit_loop.max_epochs = 10\n")
    assert lines(raised) == []


def test_a_loop_over_configurations_with_one_trainer():
    src = """
        import pytorch_lightning as pl

        from model import Net

        trainer = pl.Trainer(max_epochs=3)
        for width in (64, 128, 256):
            net = Net(width)
            trainer.fit(net)
    """
    assert lines(src) == [9]


def test_silent_for_other_fit_methods_and_tests():
    src = """
        import lightning as L
        from sklearn.linear_model import LogisticRegression


        def probe(features, labels, a, b):
            clf = LogisticRegression()
            clf.fit(features, labels)
            clf.fit(a, b)


        def test_reuse(dm):
            trainer = L.Trainer(max_epochs=1)
            trainer.fit(A(), datamodule=dm)
            model = A()
            trainer.fit(model, datamodule=dm)
    """
    assert lines(src) == []
