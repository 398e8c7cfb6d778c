"""det82: a loss kept through a job's helper-object method (``meter.update(loss, n)``).

``preflight.analysis.meter_stores``: a method of a class the job defines (in the file, or in a
project module it imports) that accumulates or appends one of its parameters into ``self``
(``self.sum += val * n``) is a store of the argument, so PF101 follows it (namisan/mt-dnn issue
196). Must-fire examples pinned to line; twins: a number passed, a meter that cuts the graph
itself, a meter reset on every step, a library meter.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=text.encode(), text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=("PF101",)))


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in findings]


METER = """\
    class AverageMeter(object):
        def __init__(self):
            self.reset()

        def reset(self):
            self.val = 0
            self.sum = 0
            self.count = 0

        def update(self, val, n=1):
            self.val = val
            self.sum += val * n
            self.count += n
            self.avg = self.sum / self.count
"""

# the meter in the same file; a plain training loop
SAME_FILE = METER + """\


    import torch


    def train(model, loader, optimizer, criterion):
        losses = AverageMeter()
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.update(LOSS, x.size(0))
        return losses.avg
"""


def test_meter_in_the_same_file_keeps_the_loss_graph():
    found = check(SAME_FILE.replace("LOSS", "loss"))
    assert where(found) == [("PF101", 27)]  # losses.update(loss, x.size(0))
    message = found[0].message
    assert "`losses.update()`" in message and "`AverageMeter.update` keeps it in `self.sum` (line 12)" in message
    assert found[0].fix is not None and found[0].fix.operation == "detach"


def test_meter_twins_numbers_or_detached_values_are_silent():
    for cut in ("loss.item()", "loss.detach()", "float(loss)"):
        assert check(SAME_FILE.replace("LOSS", cut)) == [], cut


def test_meter_that_cuts_the_graph_itself_is_silent():
    for body in ("self.sum += val.item() * n", "self.sum += float(val) * n", "self.sum += val.detach() * n"):
        src = SAME_FILE.replace("self.sum += val * n", body).replace("LOSS", "loss")
        assert check(src) == [], body
    rebinds = SAME_FILE.replace("            self.val = val\n",
                                "            val = val.item() if hasattr(val, 'item') else val\n"
                                "            self.val = val\n").replace("LOSS", "loss")
    assert "val = val.item()" in rebinds
    assert check(rebinds) == []


def test_meter_reset_on_every_step_is_silent_and_reset_per_epoch_is_not():
    every_step = SAME_FILE.replace("LOSS", "loss").replace(
        "        losses.update(loss, x.size(0))\n",
        "        losses.update(loss, x.size(0))\n            print(losses.avg)\n            losses.reset()\n")
    assert check(every_step) == []
    assert "losses.reset()" in every_step
    # another object's reset() in the loop does not reset the meter
    other = every_step.replace("losses.reset()", "loader.reset()")
    assert where(check(other)) == [("PF101", 27)]
    fresh = SAME_FILE.replace("LOSS", "loss").replace(
        "        loss = criterion(model(x), y)\n",
        "        losses = AverageMeter()\n            loss = criterion(model(x), y)\n")
    assert check(fresh) == []


def test_dict_of_meters_reset_through_its_values_is_silent_only_when_reset_each_step():
    src = METER + textwrap.indent(textwrap.dedent("""\


        def train(model, loader, optimizer, criterion):
            meters = {"loss": AverageMeter()}
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                meters["loss"].update(loss, x.size(0))
                for m in RESET:
                    m.reset()
    """), "    ")
    # reset at each step through another container: still kept
    assert where(check(src.replace("RESET", "[loader]"))) == [("PF101", 24)]  # meters["loss"].update(...)
    assert check(src.replace("RESET", "meters.values()")) == []


def test_library_meter_is_not_the_jobs_class():
    src = SAME_FILE.replace(METER, "").replace("LOSS", "loss")
    lib = "    from torchmetrics import MeanMetric as AverageMeter\n" + src
    assert check(lib) == []
    assert check(src) == []  # not defined anywhere: nothing known about it


def test_meter_appending_its_parameter_is_a_store_too():
    src = """\
        import torch


        class LossHistory:
            def __init__(self):
                self.values = []

            def add(self, value):
                self.values.append(value)


        def fit(model, loader, optimizer):
            history = LossHistory()
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                history.add(loss)
    """
    assert where(check(src)) == [("PF101", 19)]
    assert check(src.replace("history.add(loss)", "history.add(loss.item())")) == []


# namisan/mt-dnn issue 196, reduced: the meter is defined in another module of the job
MODEL = """\
    import torch
    import torch.nn as nn

    from data_utils.utils import AverageMeter


    class MTDNNModel(object):
        def __init__(self, network, lr):
            self.train_loss = AverageMeter()
            self.network = network
            self.optimizer = torch.optim.AdamW(network.parameters(), lr=lr)
            self.criterion = nn.CrossEntropyLoss()

        def update(self, inputs, labels):
            self.network.train()
            logits = self.network(*inputs)
            loss = self.criterion(logits, labels)
            self.train_loss.update(LOSS, labels.size(0))
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
"""


def _job(tmp_path: Path, loss: str, meter: str = METER) -> None:
    (tmp_path / "data_utils").mkdir()
    (tmp_path / "data_utils" / "__init__.py").write_text("")
    (tmp_path / "data_utils" / "utils.py").write_text(textwrap.dedent(meter))
    (tmp_path / "mt_dnn").mkdir()
    (tmp_path / "mt_dnn" / "__init__.py").write_text("")
    (tmp_path / "mt_dnn" / "model.py").write_text(textwrap.dedent(MODEL.replace("LOSS", loss)))


def _findings(res) -> list[tuple[str, str, int]]:
    return [(f["code"], f["path"], f["line"]) for f in json.loads(res.out)["findings"]]


def test_meter_in_another_module_of_the_job_keeps_the_loss_graph(cli, tmp_path):
    _job(tmp_path, "loss")
    res = cli("check", ".", "--select", "PF101", "--format", "json", "--no-cache")
    assert _findings(res) == [("PF101", "mt_dnn/model.py", 18)]
    message = json.loads(res.out)["findings"][0]["message"]
    assert "`AverageMeter.update` keeps it in `self.sum` (../data_utils/utils.py:12)" in message


def test_meter_in_another_module_twins_are_silent(cli, tmp_path):
    _job(tmp_path, "loss.item()")
    res = cli("check", ".", "--select", "PF101", "--format", "json", "--no-cache")
    assert _findings(res) == []


def test_meter_in_another_module_that_cuts_the_graph_is_silent(cli, tmp_path):
    _job(tmp_path, "loss", METER.replace("self.sum += val * n", "self.sum += float(val) * n"))
    res = cli("check", ".", "--select", "PF101", "--format", "json", "--no-cache")
    assert _findings(res) == []
