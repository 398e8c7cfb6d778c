"""det83: rules whose reach stopped at a function boundary (issue 18).

Each reach lives in the shared analysis layer and is pinned here by must-fire examples (code and line)
and silent twins, including tricky-correct ones:

* a closure variable of a function that encloses both the helper and its caller is the same object in
  both (texar-pytorch PR 311: ``_eval_epoch()``, nested in ``main`` beside ``_train_epoch``, calls
  ``model.eval()`` on ``main``'s ``model`` inside ``_train_epoch``'s loop): the mode events of
  :mod:`preflight.analysis.evaluation` are mapped into the caller (PF111).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str, codes: tuple[str, ...]) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=text.encode(), text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=codes))


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in findings]


# texar-pytorch examples/bert/bert_classifier_main.py before PR 311, reduced
TEXAR = """\
    import texar.torch as tx
    import torch
    import torch.nn.functional as F


    def main(loader, eval_loader, epochs):
        model = tx.modules.BERTClassifier(pretrained_model_name="bert-base-uncased")
        optim = torch.optim.Adam(model.parameters())

        def _train_epoch():
            model.train()
            for step, (x, y) in enumerate(loader):
                optim.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                optim.step()
                if step % 100 == 0:
                    _eval_epoch()

        @torch.no_grad()
        def _eval_epoch():
            model.eval()
            for x, y in eval_loader:
                print(F.cross_entropy(model(x), y).item())

        for _ in range(epochs):
            _train_epoch()
"""


def test_pf111_closure_helper_called_in_the_loop_fires_at_the_call() -> None:
    found = check(TEXAR, ("PF111",))
    assert where(found) == [("PF111", 18)]
    assert "_eval_epoch()" in found[0].message
    assert [e.line for e in found[0].evidence][-1] == 22  # the helper's model.eval()


def test_pf111_closure_helper_that_switches_back_is_silent() -> None:
    fixed = TEXAR.replace("                print(F.cross_entropy(model(x), y).item())\n",
                          "                print(F.cross_entropy(model(x), y).item())\n"
                          "            model.train()\n")
    assert fixed != TEXAR
    assert check(fixed, ("PF111",)) == []


def test_pf111_closure_helper_then_train_in_the_loop_is_silent() -> None:
    fixed = TEXAR.replace("                    _eval_epoch()\n",
                          "                    _eval_epoch()\n                    model.train()\n")
    assert fixed != TEXAR
    assert check(fixed, ("PF111",)) == []


def test_pf111_closure_helper_called_only_after_the_loop_is_silent() -> None:
    moved = TEXAR.replace("                if step % 100 == 0:\n                    _eval_epoch()\n", "") + (
        "        _eval_epoch()\n")
    assert moved != TEXAR
    assert check(moved, ("PF111",)) == []


def test_pf111_closure_helper_defined_but_never_called_is_silent() -> None:
    unused = TEXAR.replace("                if step % 100 == 0:\n                    _eval_epoch()\n", "")
    assert unused != TEXAR
    assert check(unused, ("PF111",)) == []


def test_pf111_helper_switching_its_own_local_model_is_silent() -> None:
    # tricky-correct: the nested helper builds and switches a model of its own (a shadowing local)
    local = TEXAR.replace("            model.eval()\n",
                          "            model = tx.modules.BERTClassifier()\n"
                          "            model.eval()\n")
    assert local != TEXAR
    assert check(local, ("PF111",)) == []


def test_pf111_same_name_in_an_unrelated_function_is_not_the_closure() -> None:
    # tricky-correct: the loop's `model` is a parameter of a top-level function, not main's closure
    # variable that the nested helper switches
    src = """\
        import texar.torch as tx
        import torch
        import torch.nn.functional as F


        def train(model, loader, optim, evaluate):
            model.train()
            for x, y in loader:
                optim.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optim.step()
                evaluate()


        def main(loader):
            model = tx.modules.BERTClassifier()
            student = tx.modules.BERTClassifier()
            optim = torch.optim.Adam(student.parameters())

            def _eval():
                model.eval()

            train(student, loader, optim, _eval)
    """
    assert check(src, ("PF111",)) == []
