"""det81: shapes through which a stored graph escaped PF101 although the rule owns the class.

Two reaches of the shared analysis layer, each with must-fire examples pinned to code and line and
silent twins:

* the value a backwarded loss is derived from by one operand (``loss = sum(losses) if
  isinstance(losses, tuple) else losses``, ``loss = out.mean()``, ``torch.stack(parts).sum()``)
  carries the graph too (``preflight.analysis.flow_backward``);
* a comprehension's loop variable is not the function's name of the same spelling
  (``[losses[j] for losses in losses_list]`` does not make ``losses_list`` reach the backward
  of the step's ``losses``: ``preflight.analysis.consumers``).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.diagnostics import Finding
from preflight.engine import Selection, analyse_parsed
from preflight.sources import FileError, SourceText, parse_python


def check(src: str, codes: tuple[str, ...] = ("PF101",)) -> list[Finding]:
    text = textwrap.dedent(src)
    parsed = parse_python(SourceText(path=Path("t.py"), display="t.py", kind="python",
                                     raw=text.encode(), text=text))
    assert not isinstance(parsed, FileError), parsed
    return analyse_parsed(parsed, Selection(codes=codes))


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in findings]


# RecBole's Trainer._train_epoch (RUCAIBox/RecBole PR 307), reduced: the stored value is the
# tuple (or tensor) of losses that ``loss``, the backwarded value, is summed from
RECBOLE = """\
    import torch


    class Trainer(object):
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

        def _train_epoch(self, train_data):
            self.model.train()
            losses_list = []
            for interaction in train_data:
                self.optimizer.zero_grad()
                losses = self.model.calculate_loss(interaction)
                loss = sum(losses) if isinstance(losses, tuple) else losses
                loss.backward()
                self.optimizer.step()
                losses_list.append(losses)
            if isinstance(losses_list[0], tuple):
                totals = []
                for j in range(len(losses_list[0])):
                    totals.append(sum([losses[j] for losses in losses_list]).item())
                return tuple(totals)
            return sum(losses_list).item()
    """


def test_recbole_losses_summed_into_the_backwarded_loss_and_stored_fire() -> None:
    found = check(RECBOLE)
    assert where(found) == [("PF101", 18)]
    assert "`losses` is stored in `losses_list`" in found[0].message
    # the evidence names the backward the stored value is summed into
    assert any(e.line == 14 and "`loss.backward()`" in e.message for e in found[0].evidence), \
        [(e.line, e.message) for e in found[0].evidence]


def test_recbole_fix_storing_the_item_is_silent() -> None:
    fixed = RECBOLE.replace("losses_list.append(losses)",
                            "losses_list.append(tuple(x.item() for x in losses) if isinstance(losses, tuple)"
                            " else losses.item())")
    assert check(fixed) == []


def test_recbole_fix_storing_detached_losses_is_silent() -> None:
    assert check(RECBOLE.replace("losses_list.append(losses)", "losses_list.append(losses.detach())")) == []


def test_comprehension_variable_alone_no_longer_excuses_the_list() -> None:
    # the same loop with ``loss`` stored (no derivation): before det81 the comprehension variable
    # ``losses`` linked ``losses_list`` to the backwarded ``losses`` and the list was excused
    src = """\
        import torch

        def train(model, loader, opt):
            history = []
            for x in loader:
                opt.zero_grad()
                loss = model(x.cuda()).mean()
                loss.backward()
                opt.step()
                history.append(loss)
            return sum([loss.item() for loss in history])
        """
    assert where(check(src)) == [("PF101", 10)]


def test_derivation_shapes_fire_at_the_store() -> None:
    src = """\
        import torch

        class Runner:
            def __init__(self, net, opt):
                self.net = net
                self.opt = opt
                self.outputs = []
                self.parts = []

            def step(self, batch):
                self.opt.zero_grad()
                out = self.net.compute(batch)
                loss = out.mean()
                loss.backward()
                self.opt.step()
                self.outputs.append(out)

            def step_parts(self, batch):
                self.opt.zero_grad()
                parts = self.net.loss_terms(batch)
                total = torch.stack(parts).sum()
                total.backward()
                self.opt.step()
                self.parts.append(parts)

            def fit(self, loader):
                for batch in loader:
                    self.step(batch)
                    self.step_parts(batch)
        """
    assert where(check(src)) == [("PF101", 16), ("PF101", 24)]


def test_second_operand_and_other_values_stay_silent() -> None:
    # tricky-correct: the target of a two-operand loss, a value detached before it is stored, a
    # name rebound to plain numbers after the backward, and a reduction of something else
    src = """\
        import torch

        def train(model, loader, opt, criterion):
            targets, kept, numbers, sizes = [], [], [], []
            for x, y in loader:
                opt.zero_grad()
                out = model(x.cuda())
                loss = criterion(out, y)
                loss.backward()
                opt.step()
                targets.append(y)
                kept.append(out.detach())
                parts = model.loss_terms(x)
                total = sum(parts)
                total.backward()
                parts = [p.item() for p in parts]
                numbers.append(parts)
                sizes.append(out.shape[0])
            return targets, kept, numbers, sizes
        """
    assert check(src) == []


def test_method_never_called_in_a_loop_stays_silent() -> None:
    # the derivation is stored into a local list that dies with the call
    src = """\
        class Runner:
            def __init__(self, net):
                self.net = net

            def once(self, batch):
                seen = []
                out = self.net.compute(batch)
                loss = out.mean()
                loss.backward()
                seen.append(out)
                return len(seen)
        """
    assert check(src) == []
