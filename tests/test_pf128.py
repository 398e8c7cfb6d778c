"""PF128 accumulate-around-batch-loop: `with accelerator.accumulate(model):` entered once around the batch loop
(huggingface/accelerate#1211); the per-batch and micro-chunk shapes stay silent."""

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
    return analyse_parsed(parsed, Selection(codes=("PF128",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


TRAIN = """\
import torch
from accelerate import Accelerator


class Trainer:
    def __init__(self, model, loader):
        self.accelerator = Accelerator(gradient_accumulation_steps=4)
        self.optimizer = torch.optim.AdamW(model.parameters())
        self.model, self.optimizer, self.train_loader = self.accelerator.prepare(model, self.optimizer, loader)

    def train_epoch(self):
        self.model.train()
        with self.accelerator.accumulate(self.model):
            for batch in self.train_loader:
                loss = self.model(**batch).loss
                self.accelerator.backward(loss)
                self.optimizer.step()
                self.optimizer.zero_grad()
"""


def test_reported_through_the_cli(cli, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "train.py", "--select", "PF128", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF128", 13, "error")]
    msg = found[0]["message"]
    assert "`with self.accelerator.accumulate(self.model):`" in msg and "`self.train_loader` (line 14)" in msg


def test_the_fixed_order_is_silent():
    fixed = TRAIN.replace("""        with self.accelerator.accumulate(self.model):
            for batch in self.train_loader:
""", """        for batch in self.train_loader:
            with self.accelerator.accumulate(self.model):
""")
    assert fixed != TRAIN and lines(fixed) == []


def test_silent_for_another_receiver_or_a_loop_without_backward():
    src = """
        import torch
        from accelerate import Accelerator


        def main(model, loader, ema):
            accelerator = Accelerator(gradient_accumulation_steps=2)
            with ema.accumulate(model):
                for batch in loader:
                    accelerator.backward(model(batch).sum())
            with accelerator.accumulate(model):
                for batch in loader:
                    accelerator.print(batch)
    """
    assert lines(src) == []
