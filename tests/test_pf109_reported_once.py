"""PF109 reports one manual division once, however many ``accelerator.backward`` calls receive the
divided loss (it reported the same division once per backward call: twice for a loop whose two
branches each call ``accelerator.backward``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.diagnostics import Applicability, Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    src = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF109",)))


TWO_BACKWARDS = """\
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, batch in enumerate(loader):
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            loss = loss / 4
            if step % 2:
                accelerator.backward(loss)
            else:
                accelerator.backward(loss, retain_graph=False)
            optimizer.step()
            optimizer.zero_grad()
"""


def test_one_division_handed_to_two_backward_calls_is_one_finding_with_both_as_evidence():
    found = check(TWO_BACKWARDS)
    assert [(f.code, f.span.line, f.span.column) for f in found] == [("PF109", 8, 16)]
    # the division, the Accelerator that sets the window, then each backward that divides again
    assert [e.line for e in found[0].evidence] == [8, 3, 10, 12]
    assert found[0].fix is not None and found[0].fix.applicability == Applicability.UNSAFE


def test_two_divisions_are_two_causes_each_reported_at_its_line():
    src = """\
        from accelerate import Accelerator

        accelerator = Accelerator(gradient_accumulation_steps=4)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            with accelerator.accumulate(model):
                if step % 2:
                    loss = model(**batch).loss / 4
                    accelerator.backward(loss)
                else:
                    aux = model(**batch).loss
                    accelerator.backward(aux / 4)
                optimizer.step()
                optimizer.zero_grad()
    """
    found = check(src)
    assert [(f.code, f.span.line) for f in found] == [("PF109", 8), ("PF109", 12)]
    assert [[e.line for e in f.evidence] for f in found] == [[8, 3, 9], [12, 3, 12]]


def test_twin_without_the_manual_division_stays_silent():
    twin = "".join(line for line in TWO_BACKWARDS.splitlines(keepends=True) if "loss / 4" not in line)
    assert check(twin) == []


def test_tricky_twin_dividing_by_another_window_stays_silent():
    # a division by the number of sub-batches, not the accumulation window: not the framework's division
    assert check(TWO_BACKWARDS.replace("loss = loss / 4", "loss = loss / 3")) == []
