"""PF125 padded-targets-in-cross-entropy: token sequences padded with the pad id by the collate function reach
cross-entropy with the default ignore_index=-100 (lukas-blecher/LaTeX-OCR#305)."""

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
    return analyse_parsed(parsed, Selection(codes=("PF125",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


TRAIN = """\
import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

PAD = 0


def collate(batch):
    return torch.stack([b[0] for b in batch]), pad_sequence([b[1] for b in batch], batch_first=True, padding_value=PAD)


def main(model, dataset):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, collate_fn=collate)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for images, seq in loader:
        images, seq = images.cuda(), seq.cuda()
        logits = model(images, seq[:, :-1])
        loss = F.cross_entropy(logits.transpose(1, 2), seq[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_reported_through_the_cli(cli, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "train.py", "--select", "PF125", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF125", 19, "warning")]
    msg = found[0]["message"]
    assert "`seq[:, 1:]`" in msg and "`collate`" in msg and "padding_value=PAD" in msg
    assert "ignore_index=-100" in msg


def test_silent_with_ignore_index_or_minus_100_padding(cli, tmp_path):
    fixed = TRAIN.replace("seq[:, 1:])", "seq[:, 1:], ignore_index=PAD)")
    (tmp_path / "a.py").write_text(fixed)
    (tmp_path / "b.py").write_text(TRAIN.replace("PAD = 0", "PAD = -100"))
    res = cli("check", "a.py", "b.py", "--select", "PF125", "--format", "json", "--no-cache")
    assert json.loads(res.out)["findings"] == []


def test_the_default_padding_and_a_criterion_object():
    src = """
        import torch
        from torch import nn
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader


        def collate(batch):
            src = pad_sequence([s for s, _ in batch], batch_first=True)
            tgt = pad_sequence([t for _, t in batch], batch_first=True)
            return src, tgt


        class Trainer:
            def __init__(self, model, data):
                self.model = model
                self.criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
                self.loader = DataLoader(data, batch_size=16, collate_fn=collate)
                self.opt = torch.optim.Adam(model.parameters())

            def fit(self):
                for step, (src, tgt) in enumerate(self.loader):
                    out = self.model(src, tgt[:, :-1])
                    gold = tgt[:, 1:].contiguous().view(-1)
                    loss = self.criterion(out.view(-1, out.size(-1)), gold)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
    """
    assert lines(src) == [25]


def test_silent_when_only_the_inputs_are_padded_or_the_targets_are_masked():
    src = """
        import torch
        import torch.nn.functional as F
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader


        def collate(batch):
            return pad_sequence([x for x, _ in batch], batch_first=True), torch.tensor([y for _, y in batch])


        def collate_lm(batch):
            return (pad_sequence(batch, batch_first=True, padding_value=2),)


        def train(model, data, opt):
            for x, y in DataLoader(data, collate_fn=collate):
                pass
            loader = DataLoader(data, collate_fn=collate)
            for x, y in loader:
                opt.zero_grad()
                F.cross_entropy(model(x), y).backward()
                opt.step()
            lm = DataLoader(data, collate_fn=collate_lm)
            for (seq,) in lm:
                opt.zero_grad()
                logits = model(seq)
                keep = seq != 2
                F.cross_entropy(logits[keep], seq[keep]).backward()
                target = seq.masked_fill(seq == 2, -100)
                F.cross_entropy(logits.transpose(1, 2), target).backward()
                opt.step()
    """
    assert lines(src) == []
