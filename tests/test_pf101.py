"""PF101 retained-graph: examples, evidence, severities, positions, fixes, speed."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import Finding, Severity
from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.rules.code.pf101_retained_graph import RetainedGraph
from preflight.sources import FileError, ParsedPython, SourceText, parse_python


def parse(src: str, name: str = "t.py", kind: str = "python") -> ParsedPython:
    parsed = parse_python(SourceText(path=Path(name), display=name, kind=kind, raw=src.encode(),
                                     text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def check(src: str, name: str = "t.py", kind: str = "python") -> list[Finding]:
    return analyse_parsed(parse(textwrap.dedent(src) if kind == "python" else src, name, kind),
                          Selection(codes=("PF101",)))


def lines(findings: list[Finding]) -> list[tuple[int, str]]:
    return [(f.span.line, f.severity.label) for f in findings]


# -- executable documentation ---------------------------------------------------

@pytest.mark.parametrize("index", range(len(RetainedGraph.bad_examples)))
def test_bad_example_is_flagged(index: int) -> None:
    found = check(RetainedGraph.bad_examples[index])
    assert found, f"bad example {index + 1} produced no PF101"
    assert all(f.code == "PF101" for f in found)


@pytest.mark.parametrize("index", range(len(RetainedGraph.good_examples)))
def test_good_example_is_silent(index: int) -> None:
    found = check(RetainedGraph.good_examples[index])
    assert found == [], [f.message for f in found]


def test_metadata() -> None:
    assert all_rules()["PF101"] is RetainedGraph
    meta = RetainedGraph.metadata()
    assert meta["name"] == "retained-graph"
    assert meta["severity"] == "error" and meta["category"] == "memory" and meta["fixable"]
    assert len(RetainedGraph.bad_examples) >= 6
    assert len(RetainedGraph.good_examples) >= 10
    for heading in ("## What it finds", "## Why it matters", "## How to fix it",
                    "## When preflight stays silent"):
        assert heading in RetainedGraph.explanation


# -- verdicts, severities and evidence ------------------------------------------

CLASSIC = """\
import torch
import torch.nn as nn

model = nn.Linear(10, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    losses.append(loss)
"""


def test_evidence_chain_lines() -> None:
    (finding,) = check(CLASSIC)
    assert finding.span.line == 13 and finding.severity == Severity.WARNING
    assert [e.line for e in finding.evidence] == [10, 8, 11, 7, 13]
    origin, loop, backward, created, store = finding.evidence
    assert "`model(x)`" in origin.message and "nn.Linear(10, 1)" in origin.message
    assert "training loop" in loop.message and "loss.backward" in loop.message
    assert "backward" in backward.message
    assert "before the training loop" in created.message and "`losses`" in store.message
    assert "backward already ran" in finding.message and "memory grows slowly" in finding.message


def test_error_when_no_backward_runs_on_the_stored_graph() -> None:
    src = """\
    import torch
    import torch.nn as nn

    model, probe = nn.Linear(4, 1), nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    probes = []
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        opt.step()
        probes.append(probe(x))
    """
    (finding,) = check(src)
    assert finding.severity == Severity.ERROR
    assert "no backward runs on that graph" in finding.message
    assert "until it runs out" in finding.message
    assert [e.line for e in finding.evidence] == [11, 7, 6, 11]


def test_partially_backwarded_value_is_an_error() -> None:
    src = """\
    import torch.nn as nn
    import torch

    a, b = nn.Linear(4, 1), nn.Linear(4, 1)
    opt = torch.optim.SGD(a.parameters(), lr=0.1)
    kept = []
    for x in loader:
        la, lb = a(x).mean(), b(x).mean()
        la.backward()
        opt.step()
        kept.append(la + lb)
    """
    assert lines(check(src)) == [(11, "error")]


def test_total_loss_accumulator_with_item_fix() -> None:
    src = """\
    import torch
    import torch.nn.functional as F

    def train(model, loader, opt):
        total = 0.0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss
        print(f"mean loss {total / len(loader):.3f}")
    """
    (finding,) = check(src)
    assert finding.span.line == 11 and finding.severity == Severity.WARNING
    assert finding.fix is not None and finding.fix.operation == "item"
    # ``loss`` gets its graph from backward() (the model is a parameter here)
    assert "passed to `loss.backward()`" in finding.evidence[0].message


def test_accumulator_logged_with_format_and_math_gets_item_fix() -> None:
    src = """\
    import math
    import torch.nn as nn
    model = nn.LSTM(8, 8)
    criterion = nn.NLLLoss()
    total_loss = 0.
    for i, (x, y) in enumerate(loader):
        output, hidden = model(x)
        loss = criterion(output, y)
        loss.backward()
        total_loss += loss
        if i % 100 == 0:
            cur_loss = total_loss / 100
            print("loss {:5.2f} | ppl {:8.2f}".format(cur_loss, math.exp(cur_loss)))
            total_loss = 0
    """
    (finding,) = check(src)
    assert finding.span.line == 10 and finding.fix is not None
    assert finding.fix.operation == "item"


def test_name_reused_after_backward_is_not_assumed_to_carry_a_graph() -> None:
    src = """\
    from helpers import evaluate_batch, compute

    def fit(model, opt, train_loader, val_loader):
        val_history = []
        for epoch in range(10):
            for x, y in train_loader:
                loss = compute(model, x, y)
                loss.backward()
                opt.step()
                loss = evaluate_batch(model, x, y)
                val_history.append(loss)
            for x, y in val_loader:
                loss = evaluate_batch(model, x, y)
                val_history.append(loss)
    """
    assert check(src) == []


def test_periodically_reset_accumulator_says_until_when() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(3, 1)
    running_loss = 0.0
    for i, x in enumerate(loader):
        loss = net(x).mean()
        loss.backward()
        running_loss += loss
        if i % 2000 == 1999:
            print(running_loss / 2000)
            running_loss = 0.0
    """
    (finding,) = check(src)
    assert finding.severity == Severity.WARNING
    assert "until `running_loss` is reset (line 10)" in finding.message


def test_accumulator_used_as_tensor_gets_detach_fix() -> None:
    src = """\
    import torch.nn.functional as F

    def train(model, loader, opt):
        total = 0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            total += loss
        return total.item() / len(loader)
    """
    (finding,) = check(src)
    assert finding.fix is not None and finding.fix.operation == "detach"


def test_running_sum_assignment_form() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(3, 1)
    running = 0
    for x in loader:
        out = net(x).sum()
        out.backward()
        running = running + out
    """
    (finding,) = check(src)
    assert finding.span.line == 7 and finding.fix is not None
    assert finding.fix.operation == "detach"


def test_moving_average_of_the_loss() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(3, 1)
    ema = 0.0
    smooth = 0.0
    for x in loader:
        loss = net(x).mean()
        loss.backward()
        ema = 0.98 * ema + 0.02 * loss
        smooth = 0.98 * smooth + 0.02 * loss.item()
    """
    (finding,) = check(src)
    assert finding.span.line == 8 and finding.severity == Severity.WARNING
    assert finding.fix is None


def test_per_step_key_flagged_constant_key_silent() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(3, 1)
    history, last = {}, {}
    step = 0
    for x in loader:
        loss = net(x).mean()
        loss.backward()
        history[step] = loss
        last["loss"] = loss
        step += 1
    """
    assert lines(check(src)) == [(8, "warning")]


def test_tensor_buffer_is_not_a_container() -> None:
    src = """\
    import torch
    import torch.nn as nn
    net = nn.Linear(3, 1)
    buf = torch.zeros(100)
    for i, x in enumerate(loader):
        loss = net(x).mean()
        loss.backward()
        buf[i] = loss
    """
    assert check(src) == []


def test_helper_returned_loss_stored_in_list() -> None:
    src = """\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    model = nn.Linear(8, 2)
    optimizer = torch.optim.Adam(model.parameters())

    def compute_loss(x, y):
        logits = model(x)
        return F.cross_entropy(logits, y)

    losses = []
    for x, y in loader:
        loss = compute_loss(x, y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
        losses.append(compute_loss(x, y))
    """
    found = check(src)
    assert lines(found) == [(17, "warning"), (18, "error")]
    evidence = [e.line for e in found[1].evidence]
    assert evidence[:2] == [18, 9]  # the helper call, then the forward inside it
    assert "compute_loss()" in found[1].evidence[0].message


def test_helper_that_trains_and_returns_its_loss() -> None:
    src = """\
    import torch
    import torch.nn as nn

    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_step(x, y):
        opt.zero_grad()
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        opt.step()
        return loss

    history = []
    for x, y in loader:
        history.append(train_step(x, y))
    """
    (finding,) = check(src)
    assert finding.span.line == 16 and finding.severity == Severity.WARNING
    assert any("calls `train_step()`" in e.message for e in finding.evidence)


def test_fn13_self_q_net_appended() -> None:
    src = """\
    import torch
    import torch.nn as nn

    class QNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x)

    class DQNAgent:
        def __init__(self):
            self.q_net = QNet()
            self.target_net = QNet()
            self.q_history = []

        def act(self, state):
            q = self.q_net(state)
            self.q_history.append(q)
            return q.argmax().item()

        def target(self, state):
            with torch.no_grad():
                t = self.target_net(state)
            self.q_history.append(t)
            return t
    """
    (finding,) = check(src)
    assert finding.span.line == 20 and finding.severity == Severity.ERROR
    assert "`self.q_net(state)`" in finding.evidence[0].message
    assert "QNet()" in finding.evidence[0].message
    assert "outlives each call of `act()`" in finding.message


def test_fn14_self_model_predictions() -> None:
    src = """\
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x)

    class Evaluator:
        def __init__(self, model):
            self.model = model
            self.all_preds = []

        def run(self, loader):
            self.model.eval()
            for x in loader:
                preds = self.model(x)
                self.all_preds.append(preds)

    model = Net()
    evaluator = Evaluator(model)
    """
    (finding,) = check(src)
    assert finding.span.line == 20 and finding.severity == Severity.ERROR
    assert "self.model" in finding.evidence[0].message


def test_called_only_under_no_grad_is_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn

    class Tracker:
        def __init__(self):
            self.net = nn.Linear(4, 2)
            self.outputs = []

        def record(self, x):
            self.outputs.append(self.net(x))

    tracker = Tracker()
    with torch.no_grad():
        for x in loader:
            tracker.record(x)
    """
    assert check(src) == []


def test_lightning_validation_outputs_silent_training_outputs_flagged() -> None:
    src = """\
    import torch
    import pytorch_lightning as pl
    import torch.nn.functional as F

    class Model(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = torch.nn.Linear(4, 2)
            self.validation_step_outputs = []
            self.train_losses = []

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self.net(x), y)
            self.train_losses.append(loss)
            return {"loss": loss}

        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            self.validation_step_outputs.append(loss)

        def test_step(self, batch, batch_idx):
            self.validation_step_outputs.append(self.net(batch[0]))
    """
    (finding,) = check(src)
    assert finding.span.line == 15 and finding.severity == Severity.WARNING
    assert "Lightning runs backward" in finding.evidence[-2].message


def test_hooks_of_classes_imported_from_lightning_run_without_grad() -> None:
    src = """\
    import torch
    from lightning.pytorch.demos.boring_classes import BoringModel

    class TestModel(BoringModel):
        outputs = []

        def validation_step(self, *args):
            x = torch.tensor(2.0, requires_grad=True)
            y = x * 2
            self.outputs.append(y)
            return y
    """
    assert check(src) == []


def test_no_grad_forms_are_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn
    from torch import no_grad as ng, inference_mode

    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    keep = []
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        with ng():
            keep.append(model(x))
        with inference_mode():
            keep.append(model(x))
        with torch.set_grad_enabled(False):
            keep.append(model(x))
        with torch.autograd.no_grad():
            keep.append(model(x))

    @ng()
    def evaluate(batch):
        keep.append(model(batch))

    def sample(batch):
        torch.set_grad_enabled(False)
        keep.append(model(batch))
    """
    assert check(src) == []


def test_cuts_are_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    a, b, c, d, e, f, g, h = [], [], [], [], [], [], [], []
    for x, y in loader:
        out = model(x)
        loss = nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
        a.append(loss.item())
        b.append(loss.detach())
        c.append(float(loss))
        d.append(out.tolist())
        e.append(out.cpu().numpy())
        f.append(out.argmax(-1))
        g.append(out.data)
        h.append(out > 0)
        a.append(len(out))
    """
    assert check(src) == []


def test_deferred_backward_and_returned_containers() -> None:
    src = """\
    import torch
    import torch.nn as nn
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def micro_batches(batch):
        outs = []
        for step, chunk in enumerate(batch.chunk(4)):
            out = model(chunk).mean()
            out.backward()
            outs.append(out)
        return outs

    pending = []
    for i, batch in enumerate(loader):
        pending.append(model(batch).mean())
        if i % 4 == 3:
            sum(pending).backward()
            opt.step()
            pending.clear()
        outs = micro_batches(batch)
        torch.stack(outs).sum().backward()
    """
    assert check(src) == []


def test_returned_container_that_no_caller_backwards_is_flagged() -> None:
    src = """\
    import torch
    import torch.nn as nn
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run_epoch(loader):
        losses = []
        for x, y in loader:
            loss = (model(x) - y).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss)
        return losses

    history = run_epoch(train_loader)
    print(torch.stack(history).mean().item())
    """
    assert lines(check(src)) == [(13, "warning")]


def test_container_passed_to_unknown_function_is_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn
    from mylib import update_policy
    policy = nn.Linear(4, 2)
    opt = torch.optim.Adam(policy.parameters())
    log_probs = []
    for state in env_steps:
        log_probs.append(policy(state).log_softmax(-1)[0])
        loss = policy(state).sum()
        loss.backward()
        opt.step()
    update_policy(log_probs)
    """
    assert check(src) == []


def test_diffusers_false_positives_stay_silent() -> None:
    src = """\
    import torch
    from diffusers import UNet2DConditionModel, AutoencoderKL
    from transformers import CLIPTextModel

    unet = UNet2DConditionModel.from_pretrained("x", subfolder="unet")
    vae = AutoencoderKL.from_pretrained("x", subfolder="vae")
    text_encoder = CLIPTextModel.from_pretrained("x")
    vae.requires_grad_(False)
    text_encoder.requires_grad_(False)
    params_to_optimize = []
    for name, param in unet.named_parameters():
        param.requires_grad = True
        params_to_optimize.append(param)
    text_lora_parameters = list(filter(lambda p: p.requires_grad, text_encoder.parameters()))
    optimizer = torch.optim.AdamW(params_to_optimize)
    cached_latents = []
    for batch in loader:
        latents = vae.encode(batch["pixel_values"]).latent_dist.sample()
        cached_latents.append(vae(batch["pixel_values"]))
        encoder_hidden_states = text_encoder(batch["input_ids"])[0]
        cached_latents.append(encoder_hidden_states)
        model_pred = unet(latents, 1, encoder_hidden_states).sample
        loss = torch.nn.functional.mse_loss(model_pred.float(), latents.float())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    """
    assert check(src) == []


def test_vqgan_and_boxdiff_patterns_stay_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Guided:
        def __init__(self):
            self.unet = nn.Conv2d(4, 4, 3)

        def _distances(self, latents):
            maps = self.unet(latents)
            dist_x, dist_y = [], []
            for m in maps:
                dist_x.append(m.sum(0))
                dist_y.append(m.sum(1))
            return dist_x, dist_y

        def step(self, latents):
            latents = latents.detach().requires_grad_(True)
            dist_x, dist_y = self._distances(latents)
            loss = sum(d.mean() for d in dist_x) + sum(d.mean() for d in dist_y)
            grad = torch.autograd.grad(loss, [latents])[0]
            return latents - grad

    vgg = nn.Sequential(nn.Conv2d(3, 3, 3), nn.ReLU())

    def get_perceptual_loss(x, y):
        perceptual_loss = 0
        for layer in vgg:
            x, y = layer(x), layer(y)
            perceptual_loss += F.mse_loss(x, y)
        return perceptual_loss
    """
    assert check(src) == []


def test_container_rebuilt_or_cleared_each_iteration() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(4, 1)
    keep = []
    other = []
    for x in loader:
        keep = []
        loss = net(x).mean()
        loss.backward()
        keep.append(loss)
        other.append(loss)
        other.clear()
        scratch = {}
        scratch["loss"] = loss
    """
    assert check(src) == []


def test_names_and_comments_never_change_the_verdict() -> None:
    plain = CLASSIC
    renamed = (CLASSIC.replace("loss", "banana").replace("model", "thing")
               .replace("losses", "apples"))
    commented = CLASSIC.replace("losses.append(loss)",
                                "losses.append(loss)  # trainer: no_grad, detached, lightning")
    commented = "# This file uses accelerate and torch.no_grad()\n" + commented
    assert lines(check(plain)) == [(13, "warning")]
    assert lines(check(renamed)) == [(13, "warning")]
    assert lines(check(commented)) == [(14, "warning")]
    class_named = CLASSIC.replace("model = nn.Linear(10, 1)", "model = nn.Linear(10, 1)\n"
                                  "class Trainer:\n    pass")
    assert len(check(class_named)) == 1


def test_loop_nesting_and_epoch_level_retention() -> None:
    src = """\
    import torch
    import torch.nn as nn
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    epoch_losses = []
    for epoch in range(3):
        batch_losses = []
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            batch_losses.append(loss)
        epoch_losses.append(torch.stack(batch_losses).mean())
    """
    found = check(src)
    # batch_losses lives across the inner training loop; epoch_losses across the outer one
    assert lines(found) == [(12, "warning"), (13, "warning")]


def test_global_container_in_training_function() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(4, 1)
    HISTORY = []

    def step(x):
        loss = net(x).mean()
        loss.backward()
        HISTORY.append(loss)

    def record(value):
        HISTORY.append(value)

    TOTAL = 0

    def step2(x):
        global TOTAL
        loss = net(x).mean()
        loss.backward()
        TOTAL += loss
    """
    assert lines(check(src)) == [(8, "warning"), (19, "warning")]


def test_module_list_and_parameters_are_not_flagged() -> None:
    src = """\
    import torch
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList()
            self.scales = nn.ParameterList()
            for _ in range(3):
                self.blocks.append(nn.Linear(2, 2))
                self.scales.append(nn.Parameter(torch.ones(2)))

        def forward(self, x):
            feats = []
            for block in self.blocks:
                x = block(x)
                feats.append(x)
            return x, feats

    leaves = []
    w = torch.randn(3, requires_grad=True)
    for _ in range(3):
        leaves.append(w)
        loss = (w * 2).sum()
        loss.backward()
    """
    assert check(src) == []


def test_frozen_module_outputs_are_silent_unless_inputs_carry_a_graph() -> None:
    src = """\
    import torch
    import torch.nn as nn
    encoder = nn.Linear(4, 4)
    head = nn.Linear(4, 1)
    for p in encoder.parameters():
        p.requires_grad = False
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    feats, outs = [], []
    for x in loader:
        f = encoder(x)
        feats.append(f)
        out = head(f)
        out.mean().backward()
        opt.step()
        outs.append(encoder(out))
    """
    assert lines(check(src)) == [(15, "error")]


def test_rl_rollout_buffer_consumed_later_is_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn

    class ActorCritic(nn.Module):
        def __init__(self):
            super().__init__()
            self.actor = nn.Linear(4, 2)

        def forward(self, x):
            return self.actor(x)

    class Agent:
        def __init__(self):
            self.net = ActorCritic()
            self.opt = torch.optim.Adam(self.net.parameters())
            self.log_probs = []

        def act(self, state):
            logits = self.net(state)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            self.log_probs.append(dist.log_prob(action))
            return action.item()

        def update(self, returns):
            loss = -(torch.stack(self.log_probs) * returns).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.log_probs = []
    """
    assert check(src) == []


def test_nn_module_forward_caches_are_left_alone() -> None:
    src = """\
    import torch.nn as nn

    class MoE(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = nn.Linear(4, 2)
            self.aux_losses = []

        def forward(self, x):
            g = self.gate(x)
            self.aux_losses.append(g.pow(2).mean())
            return g
    """
    assert check(src) == []


def test_notebook_cell_positions_and_no_fix() -> None:
    cells = [
        {"cell_type": "markdown", "source": ["# Training\n"]},
        {"cell_type": "code", "source": ["import torch\n", "import torch.nn as nn\n",
                                         "model = nn.Linear(4, 1)\n",
                                         "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
                                         "losses = []\n"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "for x in loader:\n",
                                         "    loss = model(x).mean()\n",
                                         "    loss.backward()\n",
                                         "    opt.step()\n",
                                         "    losses.append(loss)\n"]},
    ]
    src = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    (finding,) = check(src, name="train.ipynb", kind="notebook")
    assert finding.cell == 3 and finding.span.line == 6
    assert finding.fix is None
    assert [(e.line, e.message[:8]) for e in finding.evidence] == [
        (3, "[cell 3]"), (2, "[cell 3]"), (4, "[cell 3]"), (5, "[cell 2]"), (6, "[cell 3]")]
    assert "cell 3, line 4" in finding.evidence[1].message  # the backward call


def test_fix_text_is_applied_and_idempotent() -> None:
    from preflight.fix import apply_fixes

    src = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses, total = [], 0.0
    for x, y in loader:
        out = model(x)
        loss = (out - y).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append((out * 2 + 1))
        total += loss
        losses.insert(0, out)
    print(total)
    """)
    findings = analyse_parsed(parse(src), Selection(codes=("PF101",)))
    assert len(findings) == 3
    source = SourceText(path=Path("t.py"), display="t.py", kind="python", raw=src.encode(), text=src)
    outcome = apply_fixes(source, [f.fix for f in findings if f.fix is not None])
    assert outcome.skipped == []
    assert "losses.append((out * 2 + 1).detach())" in outcome.text
    assert "total += loss.item()" in outcome.text
    assert "losses.insert(0, out.detach())" in outcome.text
    assert analyse_parsed(parse(outcome.text), Selection(codes=("PF101",))) == []


def test_fix_is_never_offered_for_containers_or_unknown_kinds() -> None:
    src = """\
    import torch.nn as nn
    from transformers import AutoModel
    enc = nn.Linear(4, 4)
    big = AutoModel.from_pretrained("bert-base-uncased")
    keep = []
    for x in loader:
        outs = [enc(c) for c in x.chunk(2)]
        loss = sum(o.sum() for o in outs)
        loss.backward()
        keep.extend(outs)
        keep.append(big(x))
    """
    found = check(src)
    assert lines(found) == [(10, "warning"), (11, "error")]
    assert all(f.fix is None for f in found)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match statements need Python 3.10")
def test_modern_syntax() -> None:
    src = """\
    import torch.nn as nn
    net = nn.Linear(4, 1)
    keep = []
    for x in loader:
        match x:
            case [a, b]:
                loss = net(a).mean()
            case _:
                loss = net(x).mean()
        loss.backward()
        if (kept := loss) is not None:
            keep.append(kept)
    """
    assert lines(check(src)) == [(12, "warning")]


# -- unknown objects stay quiet; container escapes are precise (corpus triage) -------

def test_value_handed_to_an_unknown_object_does_not_taint_its_attributes() -> None:
    # DeepSpeed vit_finetuning shape: a tracker class from another file receives the
    # loss; its averages and a step counter come back in a tuple and are kept per epoch.
    src = """\
    import torch
    import torch.nn as nn
    from bookkeeping import EpochLog

    net = nn.Linear(8, 3)
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(net.parameters())


    def run_epoch(batches, counter):
        log = EpochLog()
        for inputs, labels in batches:
            counter += 1
            scores = net(inputs)
            loss = loss_fn(scores, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.update(loss, scores, labels)
        return log.loss_meter.mean, log.acc_meter.mean, counter


    record = {"loss": [], "counter": []}
    counter = 0
    for epoch in range(4):
        mean_loss, mean_acc, counter = run_epoch(batches, counter)
        record["loss"].append(mean_loss)
        record["counter"].append(counter)
    """
    assert check(src) == []


# A meter class the job defines (det82 reads its methods: preflight.analysis.meter_stores). Its
# ``update`` keeps what it is given in ``self.total`` (KEEP): detached there, a graph-carrying
# loss passed to it keeps no graph, and reading the meter afterwards (``.value``) stores a
# plain number; kept as it is, the update call is PF101's store.
METER_THEN_READ = """\
    import torch.nn as nn
    import torch.nn.functional as F


    class Averager:
        def __init__(self):
            self.total = 0.0
            self.count = 0
            self.value = 0.0

        def update(self, val, n=1):
            KEEP
            self.count += n
            self.value = self.total / self.count


    class Runner:
        def __init__(self):
            self.net = nn.Linear(2, 1)
            self.meter = Averager()
            self.trace = []

        def fit(self, loader, opt):
            meter = Averager()
            for x, y in loader:
                loss = F.l1_loss(self.net(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                RECEIVER.update(loss, len(x))
                self.trace.append(RECEIVER.value)
    """


@pytest.mark.parametrize("receiver", ["meter", "self.meter"])
@pytest.mark.parametrize("keep", ["self.total += float(val) * n", "self.total += val.item() * n",
                                  "self.total += val.detach() * n"])
def test_meter_update_then_reading_the_meter_is_silent(receiver: str, keep: str) -> None:
    # the job's own meter detaches in update(); the meter's value read after the update is a number
    src = METER_THEN_READ.replace("KEEP", keep).replace("RECEIVER", receiver)
    assert f"{receiver}.update(loss, len(x))" in src and f"self.trace.append({receiver}.value)" in src
    assert check(src) == []


@pytest.mark.parametrize("receiver", ["meter", "self.meter"])
def test_meter_update_that_keeps_the_loss_then_reading_the_meter_fires_at_the_update(receiver: str) -> None:
    # the must-fire twin: the same meter keeps the tensor itself (self.total += val * n)
    src = METER_THEN_READ.replace("KEEP", "self.total += val * n").replace("RECEIVER", receiver)
    found = check(src)
    assert lines(found) == [(30, "warning")]
    assert textwrap.dedent(src).splitlines()[29].strip() == f"{receiver}.update(loss, len(x))"
    assert "`Averager.update` keeps it in `self.total` (line 12)" in found[0].message


def test_update_of_a_dict_built_here_still_stores_the_graph() -> None:
    src = """\
    import torch
    import torch.nn as nn

    net = nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    log = []
    for x, y in loader:
        err = (net(x) - y).abs().mean()
        opt.zero_grad()
        err.backward()
        opt.step()
        row = dict()
        row.update(err=err)
        log.append(row)
    """
    assert lines(check(src)) == [(14, "warning")]


TUPLE_HELPER = """\
import torch
import torch.nn as nn

net = nn.Linear(5, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def one_epoch(batches, done):
    for x, y in batches:
        done += 1
        err = (net(x) - y).pow(2).mean()
        opt.zero_grad()
        err.backward()
        opt.step()
    return err, done


kept = []
done = 0
for epoch in range(3):
    last_err, done = one_epoch(batches, done)
    kept.append(KEPT)
"""


def test_tuple_return_gives_each_unpacked_name_its_own_element() -> None:
    assert check(TUPLE_HELPER.replace("KEPT", "done")) == []
    (finding,) = check(TUPLE_HELPER.replace("KEPT", "last_err"))
    assert finding.span.line == 22 and finding.severity == Severity.WARNING
    assert "`one_epoch()` returns a value" in finding.evidence[0].message


def test_tuple_elements_that_share_a_graph_share_its_backward() -> None:
    src = """\
    import torch
    import torch.nn as nn

    body, side = nn.Linear(6, 2), nn.Linear(6, 2)
    opt = torch.optim.SGD(body.parameters(), lr=0.1)


    def forward_pair(x, y):
        feats = body(x)
        return (feats - y).pow(2).mean(), feats, side(x)


    kept_feats, kept_side = [], []
    for x, y in loader:
        err, feats, extra = forward_pair(x, y)
        opt.zero_grad()
        err.backward()
        opt.step()
        kept_feats.append(feats)
        kept_side.append(extra)
    """
    # feats is part of the backwarded graph (freed); side(x) was never backwarded
    assert lines(check(src)) == [(19, "warning"), (20, "error")]


def test_backward_inside_a_nested_helper_counts_as_freed() -> None:
    src = """\
    import torch
    import torch.nn as nn

    net = nn.Linear(3, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)


    def inner_step(x):
        err = net(x).pow(2).mean()
        err.backward()
        return err


    def outer_step(x):
        return inner_step(x)


    kept = []
    for x in loader:
        kept.append(outer_step(x))
        opt.step()
        opt.zero_grad()
    """
    assert lines(check(src)) == [(20, "warning")]


def test_max_values_keep_the_graph_and_indices_do_not() -> None:
    src = """\
    import torch
    import torch.nn as nn

    net = nn.Linear(7, 3)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    best, where = [], []
    for x in loader:
        scores = net(x)
        scores.sum().backward()
        opt.step()
        opt.zero_grad()
        best.append(scores.max(dim=1).values)
        where.append(scores.max(dim=1).indices)
    """
    assert lines(check(src)) == [(12, "warning")]


EPOCH = """\
import numpy as np
import torch
import torch.nn.functional as F


def fit_epoch(net, batches, opt):
    batch_errs = []
    for x, y in batches:
        opt.zero_grad()
        err = F.smooth_l1_loss(net(x), y)
        err.backward()
        opt.step()
        batch_errs.append(err)
    TAIL
"""


@pytest.mark.parametrize("tail", [
    "return sum(e.item() for e in batch_errs) / len(batch_errs)",
    "return float(np.mean([e.item() for e in batch_errs]))",
    "return {'err': sum(float(e) for e in batch_errs) / len(batch_errs)}",
    "mean_err = sum(e.item() for e in batch_errs) / max(len(batch_errs), 1)\n    return mean_err",
    "return torch.stack(batch_errs).mean().item()",
    "print(sum(batch_errs) / len(batch_errs))",
    "print(f'epoch error {sum(batch_errs) / len(batch_errs):.3f}')",
    "mean_err = sum(batch_errs) / len(batch_errs)\n    accelerator.print(mean_err)",
])
def test_container_that_only_yields_numbers_does_not_escape(tail: str) -> None:
    (finding,) = check(EPOCH.replace("TAIL", tail))
    assert finding.span.line == 13 and finding.severity == Severity.WARNING
    assert finding.fix is not None and "detach" in finding.fix.description


@pytest.mark.parametrize("tail", [
    "return batch_errs",
    "return torch.stack(batch_errs).mean()",
    "return sum(batch_errs) / len(batch_errs)",
    "return [e for e in batch_errs]",
    "return [2 * e for e in batch_errs]",
    "return {i: e for i, e in enumerate(batch_errs)}",
    "return sum(e for e in batch_errs if e.item() > 0)",
    "return [v for row in [batch_errs] for v in row]",
])
def test_returning_losses_whose_graph_backward_freed_still_leaks(tail: str) -> None:
    # issue 18: every step already ran backward on its loss, so no caller can differentiate
    # what is returned; the stored tensors (stacked, averaged or not) still live until return.
    (finding,) = check(EPOCH.replace("TAIL", tail))
    assert finding.span.line == 13 and finding.severity == Severity.WARNING


@pytest.mark.parametrize("tail", [
    "return summarize(batch_errs)",
    "summarize(e for e in batch_errs)",
    "return summarize(e for e in batch_errs)",
])
def test_container_passed_to_an_unseen_function_escapes(tail: str) -> None:
    assert check(EPOCH.replace("TAIL", tail)) == []


def test_returned_losses_of_a_forward_only_loop_may_be_differentiated_by_the_caller() -> None:
    text = EPOCH.replace("TAIL", "return torch.stack(batch_errs).mean()").replace(
        "        err.backward()\n", "")
    assert check(text) == []


def test_retain_graph_keeps_the_returned_graph_usable_by_a_caller() -> None:
    text = EPOCH.replace("TAIL", "return torch.stack(batch_errs).mean()").replace(
        "err.backward()", "err.backward(retain_graph=True)")
    assert check(text) == []


def test_files_without_a_store_that_outlives_its_step_skip_the_dataflow(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import preflight.rules.code.pf101_retained_graph as pf101

    def boom(ctx: object) -> None:
        raise AssertionError("grad_flow computed for a file with no candidate store")

    monkeypatch.setattr(pf101, "grad_flow", boom)
    src = """\
    import torch.nn as nn


    class Tower(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

        def forward(self, x):
            states = []
            for block in self.blocks:
                x = block(x)
                states.append(x)
            return x, states
    """
    assert check(src) == []
    with pytest.raises(AssertionError):
        check(CLASSIC)


def _generated(functions: int) -> str:
    parts = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F", "",
             "class Net(nn.Module):", "    def __init__(self):", "        super().__init__()",
             "        self.fc = nn.Linear(10, 2)", "", "    def forward(self, x):",
             "        return self.fc(x)", ""]
    for i in range(functions):
        parts.append(textwrap.dedent(f"""
        def helper_{i}(model, batch):
            x, y = batch
            return F.cross_entropy(model(x), y)


        def train_{i}(model, loader, optimizer):
            history, total = [], 0.0
            for epoch in range(3):
                for step, batch in enumerate(loader):
                    optimizer.zero_grad()
                    loss = helper_{i}(model, batch)
                    if step % 10 == 0:
                        with torch.no_grad():
                            extra = model(batch[0]).mean()
                    loss.backward()
                    optimizer.step()
                    history.append(loss.item())
                    total += float(loss)
                    tmp = [model(b) for b in batch[0].chunk(2)]
                with torch.no_grad():
                    for x, y in loader:
                        history.append(model(x).argmax(-1))
            return history, total
        """))
    parts.append("model = Net()")
    parts.append("opt = torch.optim.SGD(model.parameters(), lr=0.1)")
    parts.extend(f"train_{i}(model, loader, opt)" for i in range(functions))
    return "\n".join(parts) + "\n"


def test_large_file_scales_linearly() -> None:
    from conftest import cpu_cost

    src = _generated(200)
    assert len(src.splitlines()) >= 5000
    parsed = parse(src)
    assert analyse_parsed(parsed, Selection(codes=("PF101",))) == []  # and warms imports

    def cost(functions: int) -> float:
        parsed = parse(_generated(functions))
        return cpu_cost(lambda: analyse_parsed(parsed, Selection(codes=("PF101",))), repeat=3)

    small, large = cost(40), cost(160)
    # linear is ~4x; a quadratic pass would be ~16x. Absolute speed lives in bench/.
    assert large < small * 8 + 0.05, (small, large)


# -- held-out-16: the micro-batch losses of one DeepSpeed step (gpt-neox PR 404 shape) ---------

ENGINE_STEP = """
import torch


def train_step(args, batches, model):
    losses = []
    for _ in range(args.{bound}):
        loss = model(next(batches)).mean()
        losses.append(loss)
        model.backward(loss)
        model.step()
    return torch.stack([t.detach() for t in losses]).mean().item()
"""


def test_local_list_of_one_steps_micro_batch_losses_is_silent() -> None:
    assert check(ENGINE_STEP.format(bound="gradient_accumulation_steps")) == []


def test_the_same_list_over_a_loop_not_named_for_accumulation_still_warns() -> None:
    # `range(args.num_steps)`: the loop is the training loop itself, the list grows with every step
    assert lines(check(ENGINE_STEP.format(bound="num_steps"))) == [(9, "warning")]


def test_the_same_list_kept_on_self_across_calls_still_warns() -> None:
    src = """
import torch


class Runner:
    def __init__(self):
        self.losses = []

    def train_step(self, args, batches, model):
        for _ in range(args.gradient_accumulation_steps):
            loss = model(next(batches)).mean()
            self.losses.append(loss)
            model.backward(loss)
            model.step()
"""
    assert lines(check(src)) == [(12, "warning")]
