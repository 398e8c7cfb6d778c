"""Optimizer-step rules PF102-PF107: examples, competitor cases, evidence, severities."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import Finding, Severity
from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.sources import FileError, ParsedPython, SourceText, parse_python

CODES = ("PF102", "PF103", "PF104", "PF105", "PF106", "PF107")
NAMES = {
    "PF102": "retain-graph-in-loop",
    "PF103": "missing-zero-grad",
    "PF104": "zero-grad-wipes-gradients",
    "PF105": "fp16-without-grad-scaler",
    "PF106": "scaler-step-without-update",
    "PF107": "clip-before-unscale",
}
SEVERITIES = {"PF102": Severity.WARNING, "PF103": Severity.ERROR, "PF104": Severity.ERROR,
              "PF105": Severity.WARNING, "PF106": Severity.ERROR, "PF107": Severity.ERROR}


def parse(src: str) -> ParsedPython:
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def check(src: str, code: str) -> list[Finding]:
    found = analyse_parsed(parse(textwrap.dedent(src)), Selection(codes=(code,)))
    return [f for f in found if f.code == code]


def fired(src: str, code: str) -> list[int]:
    return [f.span.line for f in check(src, code)]


BAD = [(c, i, ex) for c in CODES for i, ex in enumerate(all_rules()[c].bad_examples)]
GOOD = [(c, i, ex) for c in CODES for i, ex in enumerate(all_rules()[c].good_examples)]


@pytest.mark.parametrize("code,index,example", BAD, ids=[f"{c}-bad{i}" for c, i, _ in BAD])
def test_bad_examples_fire_with_the_rule_severity(code: str, index: int, example: str) -> None:
    found = check(example, code)
    assert found, f"{code} bad example {index} is silent"
    assert all(f.severity == SEVERITIES[code] for f in found)
    assert all(f.evidence for f in found)


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_examples_stay_silent(code: str, index: int, example: str) -> None:
    assert check(example, code) == []


@pytest.mark.parametrize("code", CODES)
def test_metadata(code: str) -> None:
    rule = all_rules()[code]
    assert rule.name == NAMES[code]
    assert rule.severity == SEVERITIES[code]
    assert not rule.summary.endswith(".")
    assert len(rule.good_examples) >= 4
    for heading in ("## What it finds", "## Why it matters", "## How to fix it",
                    "## When preflight stays silent"):
        assert heading in rule.explanation


# -- PF103 missing-zero-grad: competitor cases ---------------------------------------

def test_fp3_grad_none_loop_is_a_reset() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        for p in model.parameters():
            p.grad = None
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    """
    assert fired(src, "PF103") == []


def test_grad_zero_in_place_is_a_reset() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        for p in model.parameters():
            if p.grad is not None:
                p.grad.zero_()
    """
    assert fired(src, "PF103") == []


def test_fn6_fabric_backward_without_zero_grad() -> None:
    src = """
    import torch
    from lightning.fabric import Fabric
    fabric = Fabric(accelerator="cuda")
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = fabric.setup(model, optimizer)
    for x, y in loader:
        fabric.backward(((model(x) - y) ** 2).mean())
        optimizer.step()
    """
    found = check(src, "PF103")
    assert [f.span.line for f in found] == [10]
    assert any("backward adds" in e.message and e.line == 9 for e in found[0].evidence)


def test_fn7_lightning_manual_optimization() -> None:
    src = """
    import torch
    import pytorch_lightning as pl

    class M(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.net = torch.nn.Linear(4, 1)

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.net(batch).mean()
            self.manual_backward(loss)
            opt.step()
    """
    assert fired(src, "PF103") == [15]


def test_lightning_automatic_optimization_is_left_to_lightning() -> None:
    src = """
    import torch
    import pytorch_lightning as pl

    class M(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(4, 1)

        def training_step(self, batch, batch_idx):
            return self.net(batch).mean()
    """
    assert fired(src, "PF103") == []


def test_lightning_manual_zero_grad_in_another_hook() -> None:
    src = """
    import torch
    import pytorch_lightning as pl

    class M(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.automatic_optimization = False
            self.net = torch.nn.Linear(4, 1)

        def on_train_batch_start(self, batch, batch_idx):
            self.optimizers().zero_grad()

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            self.manual_backward(self.net(batch).mean())
            opt.step()
    """
    assert fired(src, "PF103") == []


def test_fn9_gan_zeroing_one_optimizer_names_both() -> None:
    src = """
    import torch
    G, D = torch.nn.Linear(8, 8), torch.nn.Linear(8, 1)
    opt_g = torch.optim.Adam(G.parameters())
    opt_d = torch.optim.Adam(D.parameters())
    for real in loader:
        opt_g.zero_grad()
        fake = G(torch.randn(2, 8))
        D(fake.detach()).mean().backward()
        opt_d.step()
        (-D(fake).mean()).backward()
        opt_g.step()
    """
    found = check(src, "PF103")
    assert [f.span.line for f in found] == [10]
    assert "`opt_d`" in found[0].message and "opt_g.zero_grad()" in found[0].message
    assert [e.line for e in found[0].evidence] == [5, 6, 9, 7, 10]


def test_pix2pix_fresh_leaf_and_fresh_optimizer_per_iteration() -> None:
    src = """
    import torch
    for t in timesteps:
        x_in = latents.detach().clone()
        x_in.requires_grad = True
        opt = torch.optim.SGD([x_in], lr=0.1)
        with torch.enable_grad():
            unet(x_in, t).pow(2).mean().backward(retain_graph=False)
            opt.step()
        latents = x_in.detach()
    """
    assert fired(src, "PF103") == []


def test_fresh_optimizer_over_persistent_parameters_still_fires() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    for x, y in loader:
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    """
    assert fired(src, "PF103") == [7]


def test_optimizer_in_a_list_zeroed_in_a_loop() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizers = [opt]
    for x, y in loader:
        for o in optimizers:
            o.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    """
    assert fired(src, "PF103") == []


def test_optimizer_handed_to_an_unknown_function() -> None:
    src = """
    import torch
    from mylib import housekeeping
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        housekeeping(opt)
    """
    assert fired(src, "PF103") == []


def test_deepspeed_engine_step_clears_gradients() -> None:
    src = """
    import deepspeed
    import torch
    net = torch.nn.Linear(4, 1)
    engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters())
    for x, y in loader:
        loss = ((engine(x) - y) ** 2).mean()
        engine.backward(loss)
        engine.step()
    """
    assert fired(src, "PF103") == []


def test_zero_grad_only_in_a_comment_or_string_does_not_count() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    note = "opt.zero_grad() is called elsewhere"
    for x, y in loader:
        # opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    """
    assert fired(src, "PF103") == [9]


def test_self_attributes_and_aliases() -> None:
    src = """
    import torch

    class Runner:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.AdamW(model.parameters())

        def fit(self, loader):
            optimizer = self.optimizer
            for x, y in loader:
                self.optimizer.zero_grad()
                ((self.model(x) - y) ** 2).mean().backward()
                optimizer.step()
    """
    assert fired(src, "PF103") == []


# -- PF104 zero-grad-wipes-gradients ----------------------------------------------------

def test_pf104_evidence_and_set_to_none_message() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()
        opt.zero_grad(set_to_none=True)
        opt.step()
    """
    found = check(src, "PF104")
    assert [f.span.line for f in found] == [7]
    assert [e.line for e in found[0].evidence] == [6, 7, 8]
    assert "skips every parameter" in found[0].message


def test_pf104_backward_inside_autocast_block() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
        opt.zero_grad()
        opt.step()
    """
    assert fired(src, "PF104") == [9]


def test_pf104_accumulation_zero_outside_guard_is_not_claimed() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        ((model(x) - y) ** 2).mean().backward()
        opt.zero_grad()
        if (i + 1) % 4 == 0:
            opt.step()
    """
    assert fired(src, "PF104") == []


def test_pf104_step_then_zero_then_step_again_is_left_alone() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
        opt.zero_grad()
    """
    assert fired(src, "PF104") == []


# -- PF105 fp16-without-grad-scaler -------------------------------------------------

def test_pf105_one_off_backward_without_optimizer_is_not_training() -> None:
    # regression (corpus): a test of autocast itself runs one backward, no optimizer
    src = """
    import torch
    def test_autocast_cache():
        layer = torch.nn.Linear(2, 1, device="cuda")
        with torch.autocast("cuda", dtype=torch.float16):
            loss = layer(torch.randn(1, 2, device="cuda")).mean()
            loss.backward()
    """
    assert fired(src, "PF105") == []


def test_pf105_enabled_false_and_kwargs() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        with torch.autocast("cuda", enabled=False):
            loss = model(x).mean()
        with torch.autocast("cuda", **amp_kwargs):
            loss = loss + model(x).mean()
        loss.backward()
        opt.step()
    """
    assert fired(src, "PF105") == []


def test_pf105_deepspeed_engine_backward() -> None:
    src = """
    import deepspeed
    import torch
    net = torch.nn.Linear(4, 1)
    engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters())
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = engine(x).mean()
        engine.backward(loss)
        engine.step()
    """
    assert fired(src, "PF105") == []


# -- PF106 / PF107 -----------------------------------------------------------------

def test_pf106_evidence_points_at_the_scaler() -> None:
    found = check(all_rules()["PF106"].bad_examples[0], "PF106")
    assert len(found) == 1
    assert [e.line for e in found[0].evidence] == [6, 7, 12]
    assert "RuntimeError" in found[0].message


def test_pf107_unscale_through_a_local_helper_is_followed() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")

    def unscale(s, o):
        s.unscale_(o)

    for x, y in loader:
        opt.zero_grad()
        scaler.scale(model(x).mean()).backward()
        unscale(scaler, opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
    """
    assert fired(src, "PF107") == []


def test_pf107_evidence() -> None:
    found = check(all_rules()["PF107"].bad_examples[0], "PF107")
    assert [f.span.line for f in found] == [12]
    assert [e.line for e in found[0].evidence] == [11, 12, 13]


# -- PF102 retain-graph-in-loop ---------------------------------------------------------

def test_pf102_accelerate_backward_with_retain_graph() -> None:
    src = """
    import torch
    from accelerate import Accelerator
    accelerator = Accelerator()
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = accelerator.prepare(model, opt)
    for x, y in loader:
        accelerator.backward(model(x).mean(), retain_graph=True)
        opt.step()
        opt.zero_grad()
    """
    found = check(src, "PF102")
    assert [f.span.line for f in found] == [9]
    assert [e.line for e in found[0].evidence] == [8, 9, 9]


def test_pf102_second_backward_in_nested_loop() -> None:
    src = """
    import torch
    model = torch.nn.Linear(4, 3)
    for x in loader:
        out = model(x)
        out.sum().backward(retain_graph=True)
        for k in range(3):
            out[:, k].mean().backward(retain_graph=k < 2)
    """
    assert fired(src, "PF102") == []


# -- speed --------------------------------------------------------------------------------

def test_linear_in_the_number_of_steps() -> None:
    from conftest import cpu_cost

    def src(n: int) -> str:
        body = "\n".join(
            f"    l{i} = model(x).mean()\n    l{i}.backward()\n    opt.zero_grad()\n    opt.step()"
            for i in range(n))
        return ("import torch\nmodel = torch.nn.Linear(4, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor x in loader:\n"
                + body + "\n")

    def cost(n: int) -> float:
        text = src(n)
        return cpu_cost(lambda: [analyse_parsed(parse(text), Selection(codes=(code,)))
                                 for code in CODES], repeat=3)

    cost(20)
    small, large = cost(100), cost(400)
    assert large < small * 8 + 0.05, (small, large)  # linear ~4x, quadratic ~16x
