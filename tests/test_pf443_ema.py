"""PF443 on a weight EMA left out of a resume checkpoint (ai2cm/ace issue 349): what it reports and where it
stays silent."""

from __future__ import annotations

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
    return analyse_parsed(parsed, Selection(codes=("PF443",)))


ACE = """\
import torch

model = Emulator().cuda()
ema = EMA(model, decay=0.9999)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
start = 0
if resume:
    state = torch.load("last.pt")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    start = state["epoch"] + 1
for epoch in range(start, 60):
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        ema.update(model)
    validate(ema.shadow)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, "last.pt")
torch.save(ema.shadow.state_dict(), "ema.pt")
"""


def test_the_ema_left_out_of_the_resume_checkpoint_is_reported_on_the_save():
    found = check(ACE)
    assert [(f.code, f.span.line) for f in found] == [("PF443", 19)]
    assert "not `ema` (EMA)" in found[0].message and "update counter at 0" in found[0].message
    assert "LR schedule" not in found[0].message  # no scheduler is involved
    assert [e.line for e in found[0].evidence] == [17]


def test_the_ema_saved_in_the_checkpoint_or_restored_is_silent():
    saved = ACE.replace('"epoch": epoch}', '"ema": ema.state_dict(), "epoch": epoch}')
    assert saved != ACE and check(saved) == []
    restored = ACE.replace('    start = state["epoch"] + 1', '    ema.load_state_dict(torch.load("ema_state.pt"))\n'
                           '    start = state["epoch"] + 1')
    assert restored != ACE and check(restored) == []


def test_a_script_that_does_not_resume_or_has_no_ema_update_is_silent():
    no_resume = ACE.replace('    optimizer.load_state_dict(state["optimizer"])\n', "")
    assert no_resume != ACE and check(no_resume) == []
    no_update = ACE.replace("        ema.update(model)\n", "")
    assert no_update != ACE and check(no_update) == []
    not_an_ema = ACE.replace("ema = EMA(model", "ema = SCHEMA(model")
    assert check(not_an_ema) == []
