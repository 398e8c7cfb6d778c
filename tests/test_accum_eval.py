"""PF108-PF111: gradient-accumulation scaling, evaluation with autograd, model stuck in eval()."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import Applicability, Finding, Severity
from preflight.engine import Selection, analyse_parsed
from preflight.fix import apply_fixes
from preflight.rules.code.pf108_unscaled_accumulation import UnscaledAccumulation
from preflight.rules.code.pf109_double_scaled_accumulation import DoubleScaledAccumulation
from preflight.rules.code.pf110_eval_with_autograd import EvalWithAutograd
from preflight.rules.code.pf111_model_stuck_in_eval import ModelStuckInEval
from preflight.sources import FileError, ParsedPython, SourceText, parse_python

RULES = {r.code: r for r in (UnscaledAccumulation, DoubleScaledAccumulation, EvalWithAutograd,
                             ModelStuckInEval)}


def parse(src: str) -> ParsedPython:
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=src.encode(), text=src))
    assert not isinstance(parsed, FileError), parsed
    return parsed


def check(code: str, src: str) -> list[Finding]:
    return analyse_parsed(parse(textwrap.dedent(src)), Selection(codes=(code,)))


def fix_text(code: str, src: str, unsafe: bool = False) -> str:
    src = textwrap.dedent(src)
    found = analyse_parsed(parse(src), Selection(codes=(code,)))
    source = SourceText(path=Path("t.py"), display="t.py", kind="python", raw=src.encode(), text=src)
    outcome = apply_fixes(source, [f.fix for f in found if f.fix is not None], unsafe=unsafe)
    assert outcome.applied, outcome.skipped
    ast.parse(outcome.text)
    return outcome.text


def _bare(src: str) -> str:
    """An example without its pin comments (``# error: PF111``), to edit its lines."""
    return re.sub(r"  # (?:error|warning|note): PF[0-9]+", "", src)


# -- executable documentation and metadata ----------------------------------------

CASES = [(c, i, True) for c, r in RULES.items() for i in range(len(r.bad_examples))] + [
    (c, i, False) for c, r in RULES.items() for i in range(len(r.good_examples))]


@pytest.mark.parametrize("code,index,bad", CASES,
                         ids=[f"{c}-{'bad' if b else 'good'}{i}" for c, i, b in CASES])
def test_examples(code: str, index: int, bad: bool) -> None:
    rule = RULES[code]
    found = check(code, (rule.bad_examples if bad else rule.good_examples)[index])
    assert bool(found) is bad, [(f.span.line, f.message) for f in found]


@pytest.mark.parametrize("code", sorted(RULES))
def test_metadata(code: str) -> None:
    rule = RULES[code]
    meta = rule.metadata()
    assert meta["name"] == {"PF108": "unscaled-accumulation", "PF109": "double-scaled-accumulation",
                            "PF110": "eval-with-autograd", "PF111": "model-stuck-in-eval"}[code]
    for heading in ("## What it finds", "## Why it matters", "## How to fix it",
                    "## When preflight stays silent"):
        assert heading in rule.explanation
    assert len(rule.good_examples) >= 4
    assert not meta["summary"].endswith(".")


# -- PF108 unscaled-accumulation ---------------------------------------------------

RAW = """\
import torch
import torch.nn as nn

model = nn.Linear(10, 1)
optimizer = torch.optim.{opt}(model.parameters(), lr=0.1)
accum_steps = 4
for i, (x, y) in enumerate(loader):
    loss = nn.functional.mse_loss(model(x), y){scale}
    loss.backward()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
"""


def test_pf108_severity_follows_the_optimizer_and_evidence_names_the_chain() -> None:
    (sgd,) = check("PF108", RAW.format(opt="SGD", scale=""))
    assert sgd.severity == Severity.ERROR and sgd.span.line == 9
    assert [e.line for e in sgd.evidence] == [7, 9, 8, 10, 5]
    assert "`accum_steps`" in sgd.message
    (adam,) = check("PF108", RAW.format(opt="AdamW", scale=""))
    assert adam.severity == Severity.WARNING


@pytest.mark.parametrize("scale", [" / accum_steps", ".div(accum_steps)", " * (1 / accum_steps)",
                                   ".mul(1.0 / accum_steps)", " / len(loader)"])
def test_pf108_every_scaling_form_is_recognised(scale: str) -> None:
    assert check("PF108", RAW.format(opt="SGD", scale=scale)) == []


def test_pf108_fix_divides_once_and_is_idempotent() -> None:
    fixed = fix_text("PF108", RAW.format(opt="SGD", scale=""))
    assert "(loss / accum_steps).backward()" in fixed
    assert check("PF108", fixed) == [] and check("PF109", fixed) == []


def test_pf108_fix_for_a_scaled_backward_wraps_the_argument() -> None:
    fixed = fix_text("PF108", UnscaledAccumulation.bad_examples[1])
    assert "self.scaler.scale(loss / self.accum).backward()" in fixed
    assert check("PF108", fixed) == []


def test_pf108_fp2_div_method_is_a_scaling_and_gets_no_second_division() -> None:
    src = RAW.format(opt="SGD", scale=".div(accum_steps)")
    assert check("PF108", src) == []
    fixed_twice = src.replace(".div(accum_steps)", "")
    assert fix_text("PF108", fixed_twice).count("accum_steps)") == 1


def test_pf108_fn1_a_user_class_named_trainer_changes_nothing() -> None:
    src = UnscaledAccumulation.bad_examples[1]
    runner = src.replace("Trainer", "Runner")
    comment = "# TODO: use accelerate / lightning Trainer instead\n" + src
    found = [[(f.span.line, f.severity) for f in check("PF108", s)] for s in (src, runner)]
    assert found[0] == found[1] == [(16, Severity.WARNING)]
    assert [f.span.line for f in check("PF108", comment)] == [17]


def test_pf108_scaled_inside_amp_scale_loss_context() -> None:
    src = """\
    import torch
    from apex import amp
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, batch in enumerate(loader):
        loss = model(batch).sum()
        if args.gradient_accumulation_steps > 1:
            loss = loss / args.gradient_accumulation_steps
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    """
    assert check("PF108", src) == []


def test_pf108_loss_from_an_unseen_helper_or_a_weight_is_not_judged() -> None:
    src = RAW.format(opt="SGD", scale=" * weight")
    assert check("PF108", src) == []
    helper = RAW.format(opt="SGD", scale="").replace(
        "nn.functional.mse_loss(model(x), y)", "compute_loss(model, x, y, accum_steps)")
    assert check("PF108", helper) == []


def test_pf108_an_unseen_callable_is_judged_unless_handed_the_window() -> None:
    base = RAW.format(opt="SGD", scale="")
    plain = base.replace("nn.functional.mse_loss(model(x), y)", "loss_fn(model(x), y)")
    assert [f.span.line for f in check("PF108", plain)] == [9]
    for call in ("loss_fn(model(x), y, **cfg)", "loss_fn(model(x), y, steps=accum_steps)"):
        assert check("PF108", base.replace("nn.functional.mse_loss(model(x), y)", call)) == []


def test_pf108_loss_from_a_local_helper_that_divides() -> None:
    src = RAW.format(opt="SGD", scale="").replace(
        "loss = nn.functional.mse_loss(model(x), y)", "loss = step_loss(x, y)") + textwrap.dedent("""\

    def step_loss(x, y):
        return nn.functional.mse_loss(model(x), y) / accum_steps
    """)
    assert check("PF108", src) == []


def test_pf108_accelerate_without_accumulation_configured_is_a_note_without_fix() -> None:
    # a note, not a warning: under a DeepSpeed plugin (set in the accelerate config, not the
    # code) the engine divides by its config's steps and this loop is right (held-out-4
    # h4-ds-accelerate-example-loss-divided-again: the warning recommended the bug)
    src = """\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        if (i + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
    """
    (found,) = check("PF108", src)
    assert found.severity == Severity.NOTE and found.fix is None
    assert "gradient_accumulation_steps" in found.message and "DeepSpeed" in found.message


def test_pf108_untraceable_backward_owner_is_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn


    def train(runner, model, opt, loader):
        for i, (x, y) in enumerate(loader):
            loss = nn.functional.mse_loss(model(x), y)
            runner.backward(loss)
            if (i + 1) % 4 == 0:
                opt.step()
                opt.zero_grad()
    """
    assert check("PF108", src) == []


# -- PF109 double-scaled-accumulation ----------------------------------------------

def test_pf109_fn8_evidence_and_unsafe_fix() -> None:
    (found,) = check("PF109", DoubleScaledAccumulation.bad_examples[0])
    assert found.span.line == 11 and found.severity == Severity.WARNING
    assert [e.line for e in found.evidence] == [11, 5, 12]
    assert found.fix is not None and found.fix.applicability == Applicability.UNSAFE
    fixed = fix_text("PF109", DoubleScaledAccumulation.bad_examples[0], unsafe=True)
    assert "loss = nn.functional.mse_loss(model(x), y)\n" in _bare(fixed)
    assert check("PF109", fixed) == [] and check("PF108", fixed) == []


def test_pf109_inline_division_fix_is_safe_and_never_divides() -> None:
    src = """\
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=4)
    for x in loader:
        with accelerator.accumulate(model):
            accelerator.backward(model(x).sum() * (1 / accelerator.gradient_accumulation_steps))
    """
    (found,) = check("PF109", src)
    assert found.fix is not None and found.fix.applicability == Applicability.SAFE
    fixed = fix_text("PF109", src)
    assert "accelerator.backward(model(x).sum())" in fixed
    assert "/" not in fixed.split("accelerator.backward")[1]
    assert check("PF109", fixed) == []


@pytest.mark.parametrize("ctor", ["Accelerator(gradient_accumulation_steps=1)", "Accelerator()",
                                  "Accelerator(gradient_accumulation_plugin=plugin)",
                                  "Accelerator(**cfg)"])
def test_pf109_silent_without_a_known_window(ctor: str) -> None:
    src = DoubleScaledAccumulation.bad_examples[0].replace("Accelerator(gradient_accumulation_steps=8)",
                                                           ctor)
    assert check("PF109", src) == []


def test_pf109_lightning_trainer_window_and_a_user_trainer() -> None:
    src = """\
    import lightning as L
    import torch.nn as nn


    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(10, 1)

        def training_step(self, batch, batch_idx):
            loss = self.net(batch).sum()
            loss = loss / 4
            return {"loss": loss}


    L.Trainer(accumulate_grad_batches=4).fit(Model())
    """
    (found,) = check("PF109", src)
    assert found.span.line == 12 and "Lightning" in found.message
    user = src.replace("L.Trainer(accumulate_grad_batches=4)", "Trainer(accumulate_grad_batches=4)")
    user = "class Trainer:\n    def __init__(self, **kw): pass\n" + textwrap.dedent(user)
    assert check("PF109", user) == []


# -- PF110 eval-with-autograd ------------------------------------------------------

def test_pf110_fn14_self_model_error_with_evidence() -> None:
    (found,) = check("PF110", EvalWithAutograd.bad_examples[0])
    assert found.severity == Severity.ERROR and found.span.line == 13
    assert [e.line for e in found.evidence] == [11, 10, 13, 14]


def test_pf110_fn15_accuracy_helper_and_safe_decorator_fix() -> None:
    (found,) = check("PF110", EvalWithAutograd.bad_examples[1])
    assert found.severity == Severity.WARNING
    assert any("calls `accuracy()`" in e.message for e in found.evidence)
    fixed = fix_text("PF110", EvalWithAutograd.bad_examples[1])
    assert "@torch.no_grad()\ndef accuracy(model, loader):" in fixed
    assert check("PF110", fixed) == []


def test_pf110_fp6_saliency_never_fires_nor_gets_a_fix() -> None:
    assert check("PF110", EvalWithAutograd.good_examples[1]) == []
    src = """\
    import torch
    import torch.nn as nn


    def input_grad(model, x):
        x.requires_grad_(True)
        return torch.autograd.grad(model(x).sum(), x)[0]


    def evaluate_saliency(model, loader):
        model.eval()
        return [input_grad(model, x) for x in loader]
    """
    assert check("PF110", src) == []


def test_pf110_fix_is_unsafe_when_the_function_returns_a_graph() -> None:
    src = """\
    import torch
    import torch.nn as nn

    model = nn.Linear(4, 2)


    def predict(x):
        model.eval()
        return model(x)


    for x in loader:
        print(predict(x).argmax())
    """
    (found,) = check("PF110", src)
    assert found.fix is not None and found.fix.applicability == Applicability.UNSAFE


def test_pf110_decorator_goes_below_existing_decorators() -> None:
    src = EvalWithAutograd.bad_examples[1].replace("def accuracy", "@functools.cache\ndef accuracy")
    fixed = fix_text("PF110", src)
    assert "@functools.cache\n@torch.no_grad()\ndef accuracy" in fixed


def test_pf110_a_frozen_model_builds_no_graph() -> None:
    src = """\
    import torch


    class Pipe:
        def encode(self, prompts):
            self.text_encoder.requires_grad_(False)
            self.text_encoder.eval()
            return [self.text_encoder(p) for p in prompts]
    """
    assert check("PF110", src) == []


def test_pf110_an_eval_name_called_by_a_script_that_never_loops_over_training() -> None:
    src = """\
    import torch


    def test_layer_norm():
        layer = torch.nn.LayerNorm(4)
        for x in inputs:
            print(layer(x).sum().item())


    def test_backward():
        y = torch.nn.Linear(2, 2)(torch.randn(1, 2)).sum()
        y.backward()


    test_backward()
    test_layer_norm()
    """
    assert check("PF110", src) == []


def test_pf110_forward_that_feeds_training_is_silent() -> None:
    src = """\
    import torch
    import torch.nn as nn

    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model.eval()
    for x, y in loader:
        out = model(x)
        (out - y).pow(2).mean().backward()
        opt.step()
        opt.zero_grad()
    """
    assert check("PF110", src) == []


# -- PF111 model-stuck-in-eval -------------------------------------------------------

def test_pf111_fn10_evidence_points_at_the_helper_and_its_eval() -> None:
    (found,) = check("PF111", ModelStuckInEval.bad_examples[0])
    assert found.span.line == 19 and found.severity == Severity.ERROR
    assert [e.line for e in found.evidence] == [14, 19, 6]
    assert "`evaluate(...)`" not in found.message and "calls `model.eval()`" in found.message


def test_pf111_severity_is_warning_when_preflight_cannot_see_the_layers() -> None:
    src = "from mylib import Net\n" + _bare(ModelStuckInEval.bad_examples[0]).replace(
        "nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.5), nn.Linear(10, 1))", "Net()")
    (found,) = check("PF111", src)
    assert found.severity == Severity.WARNING


@pytest.mark.parametrize("model", ["nn.Linear(10, 1)", "nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1))",
                                   "nn.Sequential(nn.LSTM(10, 10, num_layers=2, dropout=0.0))"])
def test_pf111_silent_when_the_model_has_no_mode_dependent_layers(model: str) -> None:
    # eval() changes nothing for these layers (only dropout, batch norm and the like read
    # ``self.training``): training on in eval mode trains the same network
    src = _bare(ModelStuckInEval.bad_examples[0]).replace(
        "nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.5), nn.Linear(10, 1))", model)
    assert check("PF111", src) == []


@pytest.mark.parametrize("model", ["nn.Sequential(nn.Linear(10, 10), nn.BatchNorm1d(10))",
                                   "nn.Sequential(nn.LSTM(10, 10, num_layers=2, dropout=0.3))",
                                   "nn.TransformerEncoderLayer(10, 2)", "nn.Sequential(nn.Linear(10, 10), nn.RReLU())"])
def test_pf111_still_fires_when_a_layer_reads_the_mode(model: str) -> None:
    src = _bare(ModelStuckInEval.bad_examples[0]).replace(
        "nn.Sequential(nn.Linear(10, 10), nn.Dropout(0.5), nn.Linear(10, 1))", model)
    assert len(check("PF111", src)) == 1


@pytest.mark.parametrize("reset", ["model.train()", "model.train(True)", "model.train(mode=flag)",
                                   "model.to(device).train()"])
def test_pf111_any_train_call_after_evaluation_resets(reset: str) -> None:
    src = _bare(ModelStuckInEval.bad_examples[0]).replace(
        "    print(evaluate(model, val_loader))\n",
        f"    print(evaluate(model, val_loader))\n    {reset}\n")
    assert check("PF111", src) == []


def test_pf111_train_before_the_training_step_but_after_it_does_not_reset() -> None:
    src = _bare(ModelStuckInEval.bad_examples[0]).replace(
        "    print(evaluate(model, val_loader))\n",
        "    model.train()\n    print(evaluate(model, val_loader))\n")
    assert [f.span.line for f in check("PF111", src)] == [20]


def test_pf111_per_model_object() -> None:
    src = _bare(ModelStuckInEval.bad_examples[0]).replace(
        "    print(evaluate(model, val_loader))\n",
        "    print(evaluate(model, val_loader))\n    other.train()\n")
    assert len(check("PF111", src)) == 1


@pytest.mark.parametrize("tail", [
    "    if epoch == 9:\n        print(evaluate(model, val_loader))\n",
    "    if loss_is_low:\n        print(evaluate(model, val_loader))\n        break\n",
])
def test_pf111_evaluation_only_at_the_end(tail: str) -> None:
    src = _bare(ModelStuckInEval.bad_examples[0]).replace("    print(evaluate(model, val_loader))\n", tail)
    assert check("PF111", src) == []


def test_pf111_class_based_loop_with_self_model() -> None:
    src = """\
    import torch
    import torch.nn as nn


    class Runner:
        def __init__(self):
            self.model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))
            self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

        def validate(self):
            self.model.eval()
            with torch.no_grad():
                return [self.model(x) for x in val_loader]

        def fit(self):
            for epoch in range(3):
                for x in train_loader:
                    self.opt.zero_grad()
                    self.model(x).sum().backward()
                    self.opt.step()
                self.validate()
    """
    (found,) = check("PF111", src)
    assert found.span.line == 21 and found.severity == Severity.ERROR
    fixed = src.replace("                self.validate()\n",
                        "                self.validate()\n                self.model.train()\n")
    assert check("PF111", fixed) == []


def test_pf111_lightning_modules_are_left_to_lightning() -> None:
    src = """\
    import lightning as L


    class Model(L.LightningModule):
        def fit_loop(self):
            for batch in loader:
                self.manual_backward(self(batch).sum())
                self.eval()
    """
    assert check("PF111", src) == []


def test_pf111_an_unbound_model_and_its_ddp_module_are_one_object() -> None:
    src = """\
    import torch


    def run(model, opt, train_loader, val_loader):
        for epoch in range(3):
            for x in train_loader:
                opt.zero_grad()
                loss = crit(model(x))
                loss.backward()
                opt.step()
            model.module.eval()
            with torch.no_grad():
                print([model(x) for x in val_loader])
            {reset}
    """
    (found,) = check("PF111", src.format(reset="print(epoch)"))
    assert found.span.line == 11 and found.severity == Severity.WARNING
    assert check("PF111", src.format(reset="model.train()")) == []


def test_pf110_saliency_after_training_in_the_same_function() -> None:
    src = """\
    import torch
    import torch.nn as nn

    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    model.eval()
    for x, y in loader:
        x.requires_grad_(True)
        print(torch.autograd.grad(model(x).max(), x)[0].abs().sum())
    """
    assert check("PF110", src) == []
    plain = src.replace("        x.requires_grad_(True)\n", "").replace(
        "torch.autograd.grad(model(x).max(), x)[0].abs().sum()", "model(x).argmax()")
    (found,) = check("PF110", plain)
    assert found.fix is None  # the enclosing code trains: no decorator for it


def _synthetic(n: int) -> str:
    parts = ["import torch\nimport torch.nn as nn\nmodel = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))\n"
             "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"]
    for i in range(n):
        parts.append(f"def loss{i}(x, y):\n    return (model(x) - y).pow(2).mean()\n\n"
                     f"def ev{i}(loader):\n    model.eval()\n    return [model(x).argmax().item() for x in loader]\n\n"
                     f"def tr{i}(loader):\n    for i, (x, y) in enumerate(loader):\n"
                     f"        loss{i}(x, y).backward()\n        if (i + 1) % 4 == 0:\n"
                     f"            opt.step()\n            opt.zero_grad()\n"
                     f"        if i % 100 == 0:\n            ev{i}(loader)\n\n")
    return "".join(parts)


def test_the_four_rules_scale_linearly() -> None:

    from conftest import cpu_cost

    def cost(n: int) -> float:
        parsed = parse(_synthetic(n))
        found = analyse_parsed(parsed, Selection(codes=tuple(RULES)))
        assert {f.code for f in found} == {"PF108", "PF110", "PF111"}
        return cpu_cost(lambda: analyse_parsed(parsed, Selection(codes=tuple(RULES))), repeat=3)

    small, large = cost(150), cost(300)
    assert large < 3.0 * small + 0.2, (small, large)


def test_pf111_an_object_only_evaluated_in_the_loop_is_not_the_trained_model() -> None:
    src = """\
    import torch


    def train_one_epoch(model, loader, opt):
        trainable = model
        trainable.train()
        for x in loader:
            opt.zero_grad()
            trainable(x).sum().backward()
            opt.step()


    def validate(model, loader):
        model.eval()
        with torch.no_grad():
            return [model(x).sum().item() for x in loader]


    def main(task, loader, opt):
        model = task.get_trainable_module()
        eval_model = task.get_eval_model()
        for epoch in range(10):
            train_one_epoch(model, loader, opt)
            validate(eval_model, loader)
    """
    assert check("PF111", src) == []


def test_pf111_silent_when_the_training_step_itself_switches_to_eval():
    """Training in eval mode on purpose (frozen BatchNorm) inside the step is a choice."""
    src = '''
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8), nn.Dropout(0.1))
sgd = torch.optim.SGD(net.parameters(), lr=0.01)


def step_frozen_bn(batch, target):
    net.eval()
    out = net(batch)
    err = nn.functional.mse_loss(out, target)
    sgd.zero_grad()
    err.backward()
    sgd.step()


for batch, target in data:
    step_frozen_bn(batch, target)
'''
    from pathlib import Path

    from preflight.engine import Selection, analyse_parsed
    from preflight.sources import SourceText, parse_python

    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=src.encode(), text=src))
    assert [f.code for f in analyse_parsed(parsed, Selection(codes=("PF111",)))] == []
    # the same evaluation in a helper that does not train still fires
    bad = src.replace("    err.backward()\n    sgd.step()\n", "") + "    err.backward()\n    sgd.step()\n"
    bad = bad.replace("for batch, target in data:\n    step_frozen_bn(batch, target)\n",
                      "for batch, target in data:\n    step_frozen_bn(batch, target)\n"
                      "    err = nn.functional.mse_loss(net(batch), target)\n")
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python", raw=bad.encode(), text=bad))
    assert [f.code for f in analyse_parsed(parsed, Selection(codes=("PF111",)))] == ["PF111"]
