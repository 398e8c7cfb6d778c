"""det78: train/eval-mode and scheduler classes chosen from public reports (docs/corpus.md 'det78').

PF368 batchnorm-eval-undone-by-train (new) and PF474 extended to OneCycleLR and transformers warm-up
schedules sized in batches and stepped per epoch. Each test pins what a user sees: the code, the file and
line, and the words of the message that name the evidence; the twins pin the silences the real-code run
required (bench/bugs/det78_real_code.txt).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cli_check_helpers import check, write

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def findings(src: str, code: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=text.encode(),
                                     text=text))
    assert not isinstance(parsed, FileError), parsed
    return [f for f in analyse_parsed(parsed, Selection(codes=(code,))) if f.code == code]


# --- PF368 -----------------------------------------------------------------------------------------------

RAFT_TRAIN = """\
    import torch
    from network import FlowNet

    model = torch.nn.DataParallel(FlowNet())
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model.cuda()
    model.train()
    model.module.freeze_bn()
    loader = torch.utils.data.DataLoader(range(8), batch_size=2)
    for epoch in range(10):
        model.train()
        for batch in loader:
            loss = model(batch).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""

NETWORK = """\
    import torch
    from torch import nn


    class FlowNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.bn = nn.BatchNorm2d(8)

        def forward(self, x):
            return self.bn(self.conv(x))

        def freeze_bn(self):
            for m in self.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()
"""

OVERRIDE = """\

        def train(self, mode=True):
            super().train(mode)
            self.freeze_bn()
            return self
"""


def test_pf368_reports_the_epoch_train_call_after_a_freezer_from_another_module(cli, tmp_path):
    # RAFT's shape (model.module.freeze_bn() once), but the epoch loop calls model.train() again
    write(tmp_path, "train.py", RAFT_TRAIN)
    write(tmp_path, "network.py", NETWORK)
    assert check(cli, tmp_path, "PF368") == [("train.py", 11)]


def test_pf368_is_silent_when_the_model_module_overrides_train(cli, tmp_path):
    # TRI-ML/sdflabel PR 8: the override lives in the model's module, not in the training script
    write(tmp_path, "train.py", RAFT_TRAIN)
    write(tmp_path, "network.py", NETWORK + OVERRIDE)
    assert check(cli, tmp_path, "PF368") == []


def test_pf368_is_silent_when_the_loop_refreezes_after_train():
    # RAFT's own train.py: model.train(); model.module.freeze_bn() after every validation
    src = RAFT_TRAIN.replace("        model.train()\n        for batch",
                             "        model.train()\n        model.module.freeze_bn()\n        for batch")
    assert findings(src, "PF368") == []


def test_pf368_message_names_the_freeze_call_and_its_line():
    src = """\
    import torch
    from torch import nn


    def freeze_bn(net):
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


    def train(net, loader, optimizer, epochs):
        freeze_bn(net)
        for epoch in range(epochs):
            net.train()
            for x, y in loader:
                loss = nn.functional.l1_loss(net(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """
    [found] = findings(src, "PF368")
    assert found.span.line == 14
    assert "`freeze_bn(net)` (line 12)" in found.message
    assert found.evidence[0].line == 12


@pytest.mark.parametrize("call", ["net.train(False)", "net.eval()", "teacher.train()"])
def test_pf368_is_silent_for_eval_mode_or_another_model(call):
    src = f"""\
    import torch
    from torch import nn


    def freeze_bn(net):
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


    def train(net, teacher, loader, optimizer, epochs):
        freeze_bn(net)
        for epoch in range(epochs):
            {call}
            for x, y in loader:
                loss = nn.functional.l1_loss(net(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """
    assert findings(src, "PF368") == []


# --- PF474 extension --------------------------------------------------------------------------------------

ONE_CYCLE = """\
import torch

model = torch.nn.Linear(8, 2)
loader = torch.utils.data.DataLoader(torch.randn(64, 8), batch_size=8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, {sizing})
for epoch in range(5):
    for x in loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
{step}
"""


@pytest.mark.parametrize("sizing", ["epochs=5, steps_per_epoch=len(loader)",
                                    "total_steps=5 * len(loader)"])
def test_pf474_reports_a_one_cycle_sized_in_batches_stepped_per_epoch(sizing):
    [found] = findings(ONE_CYCLE.format(sizing=sizing, step="    scheduler.step()"), "PF474")
    assert found.span.line == 13
    assert "OneCycleLR(" in found.message and "never anneals" in found.message
    assert found.evidence[0].line == 6


@pytest.mark.parametrize("sizing,step", [
    ("epochs=5, steps_per_epoch=len(loader)", "        scheduler.step()"),  # stepped per batch
    ("epochs=5, steps_per_epoch=1", "    scheduler.step()"),  # a cycle over epochs
    ("total_steps=5", "    scheduler.step()"),
])
def test_pf474_is_silent_when_the_one_cycle_unit_matches_its_step(sizing, step):
    assert findings(ONE_CYCLE.format(sizing=sizing, step=step), "PF474") == []


def test_pf474_reports_a_warmup_schedule_in_batches_stepped_per_epoch_and_not_an_update_loop():
    per_epoch = """\
    from transformers import get_cosine_schedule_with_warmup


    def train(model, optimizer, train_dataloader, epochs):
        sched = get_cosine_schedule_with_warmup(optimizer, 100, len(train_dataloader) * epochs)
        for epoch in range(epochs):
            for batch in train_dataloader:
                model(**batch).loss.backward()
                optimizer.step()
                optimizer.zero_grad()
            sched.step()
    """
    [found] = findings(per_epoch, "PF474")
    assert found.span.line == 11
    assert "get_cosine_schedule_with_warmup(num_training_steps=len(train_dataloader) * epochs)" in found.message
    per_update = per_epoch.replace("for epoch in range(epochs):", "for update in range(num_updates):")
    assert findings(per_update, "PF474") == []
