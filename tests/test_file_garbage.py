"""A checked file's tree and analyses are freed by reference counting once its rules have run.

The engine turns the automatic garbage collector off while it checks files and collects the
youngest generation after each one (``engine._check_each``). That per-file collection traces
everything the file left in reference cycles; when the analyses hold the tree in a cycle
(functions and their parents, the scope index and the bindings, the context and its cached
analyses, mutually recursive closures), every file's whole tree is traced once more. These
tests check that nothing of a file is left for the collector.
"""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from preflight.engine import Selection, analyse_parsed
from preflight.registry import rule_codes
from preflight.sources import ParsedPython, SourceText, parse_python

SCRIPT = '''
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        def inner(y):
            return self.fc(y)
        return inner(x)

def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        for batch in loader:
            model(batch)
    model.train()

def train(model, loader, opt, scaler):
    model = model.half()
    for epoch in range(3):
        for step, batch in enumerate(loader):
            loss = model(batch).sum()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            opt.zero_grad()
            if step % 10 == 0:
                evaluate(model, loader)

train(Net(), [torch.zeros(4)], torch.optim.SGD(Net().parameters(), lr=0.1), torch.cuda.amp.GradScaler())
'''


def _parsed(text: str) -> ParsedPython:
    parsed = parse_python(SourceText(path=Path("train.py"), display="train.py", kind="python",
                                     raw=text.encode(), text=text))
    assert isinstance(parsed, ParsedPython)
    return parsed


def _left_for_collector(text: str) -> list[object]:
    selection = Selection(tuple(rule_codes()))
    analyse_parsed(_parsed(text), selection)  # warm-up: lazy imports, compiled record classes
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        findings = analyse_parsed(_parsed(text), selection)
        assert findings is not None
        gc.collect()
        left = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    return left


def test_no_syntax_node_of_a_checked_file_waits_for_the_collector() -> None:
    left = _left_for_collector(SCRIPT)
    nodes = [o for o in left if isinstance(o, ast.AST)]
    assert nodes == [], f"{len(nodes)} syntax nodes left in reference cycles"


def test_no_analysis_object_waits_for_the_collector() -> None:
    left = _left_for_collector(SCRIPT)
    ours = sorted({type(o).__module__ + "." + type(o).__qualname__ for o in left
                   if type(o).__module__.startswith("preflight")})
    assert ours == []
