"""det83: rules whose reach stopped at a function boundary (issue 18).

Each reach lives in the shared analysis layer and is pinned here by must-fire examples (code and line)
and silent twins, including tricky-correct ones:

* a closure variable of a function that encloses both the helper and its caller is the same object in
  both (texar-pytorch PR 311: ``_eval_epoch()``, nested in ``main`` beside ``_train_epoch``, calls
  ``model.eval()`` on ``main``'s ``model`` inside ``_train_epoch``'s loop): the mode events of
  :mod:`preflight.analysis.evaluation` are mapped into the caller (PF111).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str, codes: tuple[str, ...]) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=text.encode(), text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=codes))


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in findings]


# texar-pytorch examples/bert/bert_classifier_main.py before PR 311, reduced
TEXAR = """\
    import texar.torch as tx
    import torch
    import torch.nn.functional as F


    def main(loader, eval_loader, epochs):
        model = tx.modules.BERTClassifier(pretrained_model_name="bert-base-uncased")
        optim = torch.optim.Adam(model.parameters())

        def _train_epoch():
            model.train()
            for step, (x, y) in enumerate(loader):
                optim.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                optim.step()
                if step % 100 == 0:
                    _eval_epoch()

        @torch.no_grad()
        def _eval_epoch():
            model.eval()
            for x, y in eval_loader:
                print(F.cross_entropy(model(x), y).item())

        for _ in range(epochs):
            _train_epoch()
"""


def test_pf111_closure_helper_called_in_the_loop_fires_at_the_call() -> None:
    found = check(TEXAR, ("PF111",))
    assert where(found) == [("PF111", 18)]
    assert "_eval_epoch()" in found[0].message
    assert [e.line for e in found[0].evidence][-1] == 22  # the helper's model.eval()


def test_pf111_closure_helper_that_switches_back_is_silent() -> None:
    fixed = TEXAR.replace("                print(F.cross_entropy(model(x), y).item())\n",
                          "                print(F.cross_entropy(model(x), y).item())\n"
                          "            model.train()\n")
    assert fixed != TEXAR
    assert check(fixed, ("PF111",)) == []


def test_pf111_closure_helper_then_train_in_the_loop_is_silent() -> None:
    fixed = TEXAR.replace("                    _eval_epoch()\n",
                          "                    _eval_epoch()\n                    model.train()\n")
    assert fixed != TEXAR
    assert check(fixed, ("PF111",)) == []


def test_pf111_closure_helper_called_only_after_the_loop_is_silent() -> None:
    moved = TEXAR.replace("                if step % 100 == 0:\n                    _eval_epoch()\n", "") + (
        "        _eval_epoch()\n")
    assert moved != TEXAR
    assert check(moved, ("PF111",)) == []


def test_pf111_closure_helper_defined_but_never_called_is_silent() -> None:
    unused = TEXAR.replace("                if step % 100 == 0:\n                    _eval_epoch()\n", "")
    assert unused != TEXAR
    assert check(unused, ("PF111",)) == []


def test_pf111_helper_switching_its_own_local_model_is_silent() -> None:
    # tricky-correct: the nested helper builds and switches a model of its own (a shadowing local)
    local = TEXAR.replace("            model.eval()\n",
                          "            model = tx.modules.BERTClassifier()\n"
                          "            model.eval()\n")
    assert local != TEXAR
    assert check(local, ("PF111",)) == []


def test_pf111_same_name_in_an_unrelated_function_is_not_the_closure() -> None:
    # tricky-correct: the loop's `model` is a parameter of a top-level function, not main's closure
    # variable that the nested helper switches
    src = """\
        import texar.torch as tx
        import torch
        import torch.nn.functional as F


        def train(model, loader, optim, evaluate):
            model.train()
            for x, y in loader:
                optim.zero_grad()
                F.cross_entropy(model(x), y).backward()
                optim.step()
                evaluate()


        def main(loader):
            model = tx.modules.BERTClassifier()
            student = tx.modules.BERTClassifier()
            optim = torch.optim.Adam(student.parameters())

            def _eval():
                model.eval()

            train(student, loader, optim, _eval)
    """
    assert check(src, ("PF111",)) == []


# PF440 through calls: Auto-PyTorch's BaseTrainerComponent (PR 210), reduced. The schedule is built in the
# class, its period in epochs; ``train_step`` steps it and ``train_epoch`` calls ``train_step`` per batch.
TRAINER = """\
    import torch


    class Trainer:
        def __init__(self, model, optimizer, epochs):
            self.model = model
            self.optimizer = optimizer
            self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)

        def train_epoch(self, train_loader):
            self.model.train()
            for data, targets in train_loader:
                self.train_step(data, targets)

        def train_step(self, data, targets):
            self.optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(self.model(data), targets)
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            return loss.item()
"""


def test_pf440_step_in_a_method_the_batch_loop_calls_fires_at_the_step() -> None:
    found = check(TRAINER, ("PF440",))
    assert where(found) == [("PF440", 20)]
    assert "`self.train_step()`" in found[0].message
    assert [e.line for e in found[0].evidence] == [8, 12, 13]  # built, the batch loop, the call


def test_pf440_two_calls_deep_fires_at_the_step() -> None:
    deeper = TRAINER.replace("                self.train_step(data, targets)\n",
                             "                self.run_batch(data, targets)\n\n"
                             "        def run_batch(self, data, targets):\n"
                             "            return self.train_step(data, targets)\n")
    found = check(deeper, ("PF440",))
    assert where(found) == [("PF440", 23)]
    assert "`self.run_batch()` -> `self.train_step()`" in found[0].message


def test_pf440_step_after_the_batch_loop_is_silent() -> None:
    fixed = TRAINER.replace("            self.scheduler.step()\n", "").replace(
        "                self.train_step(data, targets)\n",
        "                self.train_step(data, targets)\n            self.scheduler.step()\n")
    assert fixed != TRAINER
    assert check(fixed, ("PF440",)) == []


def test_pf440_method_called_once_per_epoch_is_silent() -> None:
    # tricky-correct: the method that steps is called from the epoch loop, not the batch loop
    epochs = TRAINER.replace("            for data, targets in train_loader:\n                self.train_step(data, targets)\n",
                             "            for data, targets in train_loader:\n                self.train_step(data, targets)\n"
                             "            self.end_epoch()\n\n"
                             "        def end_epoch(self):\n"
                             "            self.scheduler.step()\n").replace(
        "            self.optimizer.step()\n            self.scheduler.step()\n", "            self.optimizer.step()\n")
    assert epochs.count("self.scheduler.step()") == 1
    assert check(epochs, ("PF440",)) == []


def test_pf440_step_method_defined_but_never_called_in_the_loop_is_silent() -> None:
    unused = TRAINER.replace("                self.train_step(data, targets)\n", "                pass\n")
    assert check(unused, ("PF440",)) == []


def test_pf440_step_gated_at_the_epoch_end_in_the_loop_is_silent() -> None:
    gated = TRAINER.replace("            for data, targets in train_loader:\n                self.train_step(data, targets)\n",
                            "            for i, (data, targets) in enumerate(train_loader):\n"
                            "                if i == len(train_loader) - 1:\n"
                            "                    self.train_step(data, targets)\n")
    assert gated != TRAINER
    assert check(gated, ("PF440",)) == []


def test_pf440_period_in_steps_is_silent() -> None:
    steps = TRAINER.replace("def __init__(self, model, optimizer, epochs):", "def __init__(self, model, optimizer, epochs, loader):"
                            ).replace("T_max=epochs)", "T_max=epochs * len(loader))")
    assert steps != TRAINER
    assert check(steps, ("PF440",)) == []


# the schedule is built in the script and handed to the trainer, which stores it on ``self``
HANDED = """\
    import torch


    class Trainer:
        def prepare(self, model, optimizer, scheduler):
            self.model = model
            self.optimizer = optimizer
            self.scheduler = scheduler

        def train_epoch(self, train_loader):
            for data, targets in train_loader:
                self.train_step(data, targets)

        def train_step(self, data, targets):
            self.optimizer.zero_grad()
            torch.nn.functional.cross_entropy(self.model(data), targets).backward()
            self.optimizer.step()
            if self.scheduler:
                self.scheduler.step()


    def main(model, loader, epochs):
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
        trainer = Trainer()
        trainer.prepare(model, optimizer, scheduler)
        for _ in range(epochs):
            trainer.train_epoch(loader)
"""


def test_pf440_schedule_handed_to_a_job_class_fires_at_the_step() -> None:
    found = check(HANDED, ("PF440",))
    assert where(found) == [("PF440", 19)]
    assert [e.line for e in found[0].evidence] == [24, 11, 12]


def test_pf440_schedule_handed_but_stepped_per_epoch_is_silent() -> None:
    fixed = HANDED.replace("            if self.scheduler:\n                self.scheduler.step()\n", "").replace(
        "                self.train_step(data, targets)\n",
        "                self.train_step(data, targets)\n            self.scheduler.step()\n")
    assert check(fixed, ("PF440",)) == []


def test_pf440_step_sized_schedule_handed_to_the_class_is_silent() -> None:
    # tricky-correct: the schedule handed over is sized in steps; the per-batch step is right
    steps = HANDED.replace("T_max=epochs)", "T_max=epochs * len(loader))")
    assert check(steps, ("PF440",)) == []


def test_pf440_schedule_handed_to_a_class_in_another_module(cli, tmp_path: Path) -> None:
    head, script = HANDED.split("    def main(")
    (tmp_path / "trainer.py").write_text(textwrap.dedent(head))
    (tmp_path / "train.py").write_text(textwrap.dedent(
        "    import torch\n\n    from trainer import Trainer\n\n\n    def main(" + script))
    res = cli("check", ".", "--select", "PF440", "--format", "json", "--no-cache")
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("PF440", "train.py", 10)]
    assert "(trainer.py:19)" in found[0]["message"]
    # the fixed trainer (stepped once per epoch) leaves the script silent
    (tmp_path / "trainer.py").write_text(textwrap.dedent(head).replace(
        "        if self.scheduler:\n            self.scheduler.step()\n", "").replace(
        "            self.train_step(data, targets)\n",
        "            self.train_step(data, targets)\n        self.scheduler.step()\n"))
    res = cli("check", ".", "--select", "PF440", "--format", "json", "--no-cache")
    assert json.loads(res.out)["findings"] == []


# PF110 through a flag-dispatched epoch function: jpata/particleflow's train_and_valid, reduced. The function
# trains when `is_train` is true and evaluates when it is false; the call with False runs with autograd on.
FLAGGED = """\
    import torch
    import torch.nn.functional as F


    def train_and_valid(model, optimizer, loader, is_train):
        if is_train:
            model.train()
        else:
            model.eval()
        total = 0.0
        for x, y in loader:
            pred = model(x)
            loss = F.cross_entropy(pred, y)
            if is_train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item()
        return total


    def fit(model, optimizer, train_loader, valid_loader, epochs):
        for _ in range(epochs):
            train_and_valid(model, optimizer, train_loader, True)
            train_and_valid(model, optimizer, valid_loader, False)
"""


def test_pf110_flag_false_call_fires_at_the_forward() -> None:
    found = check(FLAGGED, ("PF110",))
    assert where(found) == [("PF110", 12)]
    assert "`is_train` false path of `train_and_valid()`, which line 25 runs" in found[0].message
    assert 25 in [e.line for e in found[0].evidence]


def test_pf110_flag_keyword_false_fires() -> None:
    kw = FLAGGED.replace("valid_loader, False)", "valid_loader, is_train=False)")
    assert where(check(kw, ("PF110",))) == [("PF110", 12)]


def test_pf110_flag_with_set_grad_enabled_is_silent() -> None:
    fixed = FLAGGED.replace("            pred = model(x)\n            loss = F.cross_entropy(pred, y)\n",
                            "            with torch.set_grad_enabled(is_train):\n"
                            "                pred = model(x)\n                loss = F.cross_entropy(pred, y)\n")
    assert fixed != FLAGGED
    assert check(fixed, ("PF110",)) == []


def test_pf110_flag_false_call_under_no_grad_is_silent() -> None:
    fixed = FLAGGED.replace("            train_and_valid(model, optimizer, valid_loader, False)\n",
                            "            with torch.no_grad():\n"
                            "                train_and_valid(model, optimizer, valid_loader, False)\n")
    assert fixed != FLAGGED
    assert check(fixed, ("PF110",)) == []


def test_pf110_flag_never_passed_false_is_silent() -> None:
    # tricky-correct: the evaluation path exists but no call of the file takes it
    only_train = FLAGGED.replace("            train_and_valid(model, optimizer, valid_loader, False)\n", "")
    assert check(only_train, ("PF110",)) == []


def test_pf110_flag_from_a_variable_is_silent() -> None:
    # the flag's value is not known at the call: quiet
    var = FLAGGED.replace("valid_loader, False)", "valid_loader, args.train)")
    assert check(var, ("PF110",)) == []


def test_pf110_flag_function_that_trains_on_both_paths_is_silent() -> None:
    # tricky-correct: the backward is outside the flag's branch (a frozen-BatchNorm fine-tune in eval mode)
    both = FLAGGED.replace("            if is_train:\n                optimizer.zero_grad()\n"
                           "                loss.backward()\n                optimizer.step()\n",
                           "            optimizer.zero_grad()\n            loss.backward()\n            optimizer.step()\n")
    assert both != FLAGGED
    assert check(both, ("PF110",)) == []


def test_pf110_flag_with_a_grad_context_chosen_by_the_flag_is_silent() -> None:
    # the shape most public run_epoch(..., train) functions use: the flag picks the grad context
    for chosen in ("        ctx = torch.enable_grad() if is_train else torch.no_grad()\n",
                   "        ctx = torch.set_grad_enabled(is_train)\n"):
        fixed = FLAGGED.replace("        for x, y in loader:\n            pred = model(x)\n"
                                "            loss = F.cross_entropy(pred, y)\n",
                                chosen + "        for x, y in loader:\n            with ctx:\n"
                                "                pred = model(x)\n                loss = F.cross_entropy(pred, y)\n")
        assert fixed != FLAGGED
        assert check(fixed, ("PF110",)) == []


def test_pf110_flag_conditional_expression_fires() -> None:
    # ``model.train() if is_train else model.eval()``: the eval() on the flag's false path, no grad context
    inline = FLAGGED.replace("        if is_train:\n            model.train()\n        else:\n            model.eval()\n",
                             "        model.train() if is_train else model.eval()\n")
    assert inline != FLAGGED
    assert where(check(inline, ("PF110",))) == [("PF110", 9)]
