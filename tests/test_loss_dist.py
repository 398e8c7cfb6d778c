"""PF112-PF114 (activation vs loss contract) and PF201-PF203 (distributed data loading)."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from preflight.analysis.context import FileContext
from preflight.analysis.distributed import loader_analysis
from preflight.analysis.losses import loss_sites
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Finding, Severity
from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.sources import FileError, ParsedPython, SourceText, parse_python

CODES = ("PF112", "PF113", "PF114", "PF201", "PF202", "PF203")
RULES = {code: all_rules()[code] for code in CODES}


def parse(src: str) -> ParsedPython:
    src = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def check(src: str, *codes: str) -> list[Finding]:
    return analyse_parsed(parse(src), Selection(codes=codes or CODES))


def found(src: str, *codes: str) -> list[tuple[str, int, str]]:
    return [(f.code, f.span.line, f.severity.label) for f in check(src, *codes)]


# -- executable documentation ---------------------------------------------------

BAD = [(c, i, ex) for c in CODES for i, ex in enumerate(RULES[c].bad_examples)]
GOOD = [(c, i, ex) for c in CODES for i, ex in enumerate(RULES[c].good_examples)]


@pytest.mark.parametrize("code,index,example", BAD, ids=[f"{c}-bad{i}" for c, i, _ in BAD])
def test_bad_example_fires_only_its_rule(code: str, index: int, example: str) -> None:
    got = check(example, code)
    assert got and all(f.code == code for f in got)
    # a bad example may pin a lower severity on its line (`# warning: PF112`: the loss runs with gradients off)
    allowed = {RULES[code].severity} | ({Severity.WARNING} if f"# warning: {code}" in example else set())
    assert all(f.severity in allowed for f in got)
    assert all(f.evidence for f in got)


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_is_silent(code: str, index: int, example: str) -> None:
    assert check(example, code) == []


@pytest.mark.parametrize("code", CODES)
def test_metadata(code: str) -> None:
    cls = RULES[code]
    meta = cls.metadata()
    assert meta["code"] == code and not meta["fixable"]
    assert len(cls.good_examples) >= 4
    for heading in ("## What it finds", "## Why it matters", "## How to fix it",
                    "## When preflight stays silent"):
        assert heading in cls.explanation
    expected = {"PF112": "error", "PF113": "error", "PF114": "note", "PF201": "error",
                "PF202": "warning", "PF203": "error"}
    assert meta["severity"] == expected[code]


# -- PF112 / PF113 / PF114 --------------------------------------------------------

FN11 = """
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        h = self.fc(x)
        return F.softmax(h, dim=-1)

def main(loader):
    model = Net()
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_fn11_forward_returning_softmax_with_evidence_chain() -> None:
    (f,) = check(FN11, "PF112")
    assert (f.span.line, f.severity) == (20, Severity.ERROR)
    lines = [e.line for e in f.evidence]
    assert 12 in lines and 19 in lines and 16 in lines  # softmax, `out = model(x)`, criterion
    assert "expects raw logits" in f.message


def test_fp1_log_softmax_into_cross_entropy_is_a_note_only() -> None:
    src = """
    import torch.nn.functional as F
    def step(model, x, y):
        return F.cross_entropy(F.log_softmax(model(x), dim=-1), y)
    """
    assert found(src) == [("PF114", 4, "note")]


def test_fn12_unrelated_sigmoid_does_not_silence_raw_logits_into_bce() -> None:
    src = """
    import torch
    from torch import nn

    class Gate(nn.Module):
        def forward(self, x):
            return x * torch.sigmoid(x)

    head = nn.Linear(8, 1)
    gate = Gate()
    bce = nn.BCELoss()
    for x, y in loader:
        loss = bce(head(gate(x)), y)
        loss.backward()
    """
    assert found(src) == [("PF113", 13, "error")]


def test_per_value_two_names_in_one_function() -> None:
    src = """
    import torch.nn.functional as F
    def step(model, x, y):
        logits = model.fc(x)
        probs = F.softmax(logits, dim=1)
        loss = F.cross_entropy(logits, y)
        bad = F.cross_entropy(probs, y)
        return loss + bad
    """
    assert found(src) == [("PF112", 7, "error")]


def test_import_alias_and_self_criterion() -> None:
    src = """
    import torch
    from torch.nn import CrossEntropyLoss as CE
    import torch.nn.functional as nnf

    class Trainer:
        def __init__(self, model):
            self.model = model
            self.loss_fn = CE(label_smoothing=0.1)

        def step(self, x, y):
            probs = nnf.softmax(self.model(x), dim=-1)
            return self.loss_fn(probs, y)
    """
    assert found(src) == [("PF112", 13, "error")]


def test_softmax_into_ce_in_evaluation_is_a_warning() -> None:
    src = """
    import torch
    import torch.nn.functional as F

    @torch.no_grad()
    def evaluate(model, loader):
        total = 0.0
        for x, y in loader:
            total += F.cross_entropy(F.softmax(model(x), dim=1), y).item()
        return total
    """
    ((code, line, sev),) = found(src)
    assert (code, line, sev) == ("PF112", 9, "warning")


def test_sequential_with_local_module_tail_and_wrapped_model() -> None:
    src = """
    import torch
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(64, 1)
        def forward(self, x):
            return self.proj(x).sigmoid()

    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), Head())
    model = DDP(model.cuda())
    criterion = nn.BCEWithLogitsLoss()
    for x, y in loader:
        criterion(model(x), y).backward()
    """
    assert found(src, "PF112") == [("PF112", 17, "error")]


def test_helper_loss_through_parameters() -> None:
    src = """
    import torch
    import torch.nn.functional as F

    def bce(pred, target):
        return F.binary_cross_entropy_with_logits(pred, target)

    def step(model, x, y):
        return bce(torch.sigmoid(model(x)), y)
    """
    assert found(src) == [("PF112", 6, "error")]


def test_helper_called_with_logits_and_probabilities_stays_silent() -> None:
    src = """
    import torch
    import torch.nn.functional as F

    def ce(pred, target):
        return F.cross_entropy(pred, target)

    def step(model, x, y):
        return ce(model(x), y) + ce(torch.softmax(model(x), 1), y)
    """
    assert found(src) == []


def test_sigmoid_bce_pairs_are_silent() -> None:
    src = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    lin = nn.Linear(4, 1)
    def step(x, y):
        p = torch.sigmoid(lin(x))
        a = F.binary_cross_entropy(p, y)
        b = nn.BCELoss()(p.clamp(1e-6, 1 - 1e-6), y)
        c = F.binary_cross_entropy_with_logits(lin(x), y)
        return a + b + c
    """
    assert found(src) == []


def test_loss_names_in_comments_and_strings_change_nothing() -> None:
    src = """
    import torch.nn.functional as F
    def step(model, x, y):
        # logits = F.softmax(logits)  -- old code
        logits = model(x)
        note = "softmax before cross_entropy"
        return F.cross_entropy(logits, y)
    """
    assert found(src) == []


def test_forward_with_mixed_returns_and_unknown_models_are_silent() -> None:
    src = """
    import torch.nn as nn
    import torch.nn.functional as F
    from somewhere import Backbone

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = Backbone()
        def forward(self, x, return_probs=False):
            out = self.body(x)
            return F.softmax(out, -1) if return_probs else out

    net = Net()
    loss = nn.CrossEntropyLoss()(net(x), y)
    loss2 = nn.BCELoss()(net.body(x), y)
    """
    assert found(src) == []


# -- PF201 / PF202 / PF203 --------------------------------------------------------

DDP_LOOP = """
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torchvision.datasets import MNIST

def main():
    dist.init_process_group("nccl")
    model = DDP(Net().cuda())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    {comment}
    loader = DataLoader(MNIST("data", train=True), batch_size=32, shuffle=True)
    for epoch in range(3):
        for x, y in loader:
            loss = model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
"""


def test_fn2_a_comment_about_the_trainer_changes_nothing() -> None:
    plain = found(DDP_LOOP.format(comment="pass"))
    commented = found(DDP_LOOP.format(comment="# TODO: move this into the trainer (lightning)"))
    assert plain == commented == [("PF201", 13, "error")]


def test_pf201_evidence_names_wrapper_loader_and_loop() -> None:
    (f,) = check(DDP_LOOP.format(comment="pass"), "PF201")
    assert [e.line for e in f.evidence] == [10, 13, 15]
    assert "every rank iterates the whole dataset" in f.message


def test_fp4_split_dataset_by_node_stays_silent() -> None:
    src = """
    import torch
    from datasets import load_dataset
    from datasets.distributed import split_dataset_by_node
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader

    def get_data(rank, world):
        ds = load_dataset("json", data_files="train.jsonl", split="train")
        return split_dataset_by_node(ds, rank=rank, world_size=world)

    def main(rank, world):
        model = DDP(Net().cuda())
        opt = torch.optim.AdamW(model.parameters())
        loader = DataLoader(get_data(rank, world), batch_size=8, shuffle=True)
        for batch in loader:
            model(batch).mean().backward()
            opt.step()
    """
    assert found(src) == []


def test_helper_returning_a_tuple_of_loaders() -> None:
    src = """
    import torch
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DataLoader, TensorDataset

    def loaders(x, y):
        train = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
        val = DataLoader(TensorDataset(x, y), batch_size=8)
        return train, val

    def run(x, y):
        model = DistributedDataParallel(Net().cuda())
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        train_loader, val_loader = loaders(x, y)
        for epoch in range(2):
            for a, b in train_loader:
                model(a).sum().backward()
                opt.step()
    """
    assert found(src) == [("PF201", 7, "error")]


def test_deepspeed_training_data_loader_is_silent() -> None:
    src = """
    import deepspeed
    engine, opt, loader, _ = deepspeed.initialize(model=net, training_data=train_set, config=cfg)
    for epoch in range(3):
        for batch in loader:
            engine.backward(engine(batch))
            engine.step()
    """
    assert found(src) == []


def test_lightning_and_hf_trainer_loaders_are_silent() -> None:
    src = """
    import lightning as L
    from torch.utils.data import DataLoader
    from torch.nn.parallel import DistributedDataParallel

    class Model(L.LightningModule):
        def train_dataloader(self):
            return DataLoader(train_set, batch_size=32, shuffle=True)

    trainer = L.Trainer(devices=4, strategy="ddp")
    trainer.fit(Model(), DataLoader(train_set, batch_size=32, shuffle=True))
    """
    assert found(src) == []


def test_unrelated_single_gpu_function_is_not_blamed_for_ddp_elsewhere() -> None:
    src = """
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader

    def wrap(model):
        return DDP(model)

    def train_single(model, opt):
        for x, y in DataLoader(train_set, batch_size=32, shuffle=True):
            model(x).sum().backward()
            opt.step()
    """
    assert found(src) == []


def test_synthetic_random_tensor_dataset_is_silent() -> None:
    src = """
    import torch
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset

    def fake_loader(n):
        inputs = torch.rand(n, 16)
        targets = torch.randint(0, 4, (n,))
        return DataLoader(TensorDataset(inputs, targets), batch_size=4)

    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in fake_loader(64):
        model(x).sum().backward()
        opt.step()
    """
    assert found(src) == []


def test_pf202_set_epoch_on_another_sampler_does_not_count() -> None:
    src = """
    from torch.utils.data import DataLoader, DistributedSampler

    train_sampler = DistributedSampler(train_set)
    other = DistributedSampler(extra_set)
    loader = DataLoader(train_set, batch_size=32, sampler=train_sampler)
    for epoch in range(10):
        other.set_epoch(epoch)
        for x, y in loader:
            model(x).sum().backward()
            opt.step()
    """
    assert found(src) == [("PF202", 7, "warning")]  # the epoch loop, where set_epoch belongs


def test_pf202_set_epoch_through_a_parameter_counts() -> None:
    src = """
    from torch.utils.data import DataLoader, DistributedSampler

    def begin_epoch(loader, epoch):
        loader.sampler.set_epoch(epoch)

    loader = DataLoader(train_set, batch_size=32, sampler=DistributedSampler(train_set))
    for epoch in range(10):
        begin_epoch(loader, epoch)
        for x, y in loader:
            model(x).sum().backward()
            opt.step()
    """
    assert found(src) == []


def test_pf203_is_an_error_and_names_the_value_error() -> None:
    src = """
    from torch.utils.data import DataLoader, DistributedSampler
    loader = DataLoader(ds, batch_size=4, shuffle=True, sampler=DistributedSampler(ds))
    """
    (f,) = check(src, "PF203")
    assert f.severity == Severity.ERROR and f.span.line == 3
    assert "mutually exclusive with shuffle" in f.message


def test_speed_is_linear_in_the_number_of_functions() -> None:
    unit = """
def step_{i}(model, x, y, loader):
    probs = F.softmax(model(x), dim=1)
    out = model(x)
    loss = F.cross_entropy(out, y) + F.nll_loss(probs.log(), y)
    for a, b in DataLoader(ds_{i}, batch_size=4, shuffle=True, sampler=None):
        loss = loss + F.cross_entropy(model(a), b)
    return loss
"""
    head = "import torch.nn.functional as F\nfrom torch.utils.data import DataLoader\n"

    import gc

    def cost(n: int) -> float:
        parsed = parse(head + "".join(unit.format(i=i) for i in range(n)))
        best = float("inf")
        gc.collect()
        gc.disable()  # a collection landing in one run would dominate it
        try:
            for _ in range(5):  # the shared indexes are built first; time this task's analyses
                ctx = FileContext(parsed)
                scope_index(ctx)
                start = time.process_time()
                assert loss_sites(ctx) and loader_analysis(ctx).loader_calls
                for code in CODES:
                    list(RULES[code]().check(ctx))
                best = min(best, time.process_time() - start)
        finally:
            gc.enable()
        return best

    cost(20)
    # 4x the functions against an 8x bound, as the suite's other scaling checks: a quadratic
    # pass costs 16x, while a 2x step at these sizes varied from 1.3x to 4.4x on a busy machine
    small, large = cost(200), cost(800)
    assert large < small * 8.0 + 0.02, (small, large)


LIGHTNING_FIT = """
import pytorch_lightning as pl
from torch.utils.data import DataLoader, DistributedSampler

loader = DataLoader(train_set, batch_size=32, shuffle=True{sampler})
trainer = pl.Trainer({devices}, replace_sampler_ddp=False)
trainer.fit(model, loader)
"""


@pytest.mark.parametrize("devices,sampler,expected", [
    ("devices=8", "", [("PF201", 5, "error")]),
    ("gpus=1, num_nodes=2", "", [("PF201", 5, "error")]),
    ("devices=1", "", []),
    ("devices=8", ", sampler=DistributedSampler(train_set)", [("PF203", 5, "error")]),
])
def test_lightning_without_injected_sampler(devices: str, sampler: str, expected: list) -> None:
    assert found(LIGHTNING_FIT.format(devices=devices, sampler=sampler)) == expected
