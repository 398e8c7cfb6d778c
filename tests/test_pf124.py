"""PF124 weight-decay-groups-inverted: the no_decay group gets the weight decay and the weight matrices get 0
(facebookresearch/BalancingGroups#6); the shapes it reads and the correct groupings it leaves alone."""

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
    return analyse_parsed(parsed, Selection(codes=("PF124",)))


def lines(src: str) -> list[int]:
    return [f.span.line for f in check(src)]


LOOP = """\
from transformers import AdamW


def get_bert_optim(network, lr, weight_decay):
    no_decay = ["bias", "LayerNorm.weight"]
    decay_params = []
    nodecay_params = []
    for n, p in network.named_parameters():
        if any(nd in n for nd in no_decay):
            decay_params.append(p)
        else:
            nodecay_params.append(p)
    optimizer_grouped_parameters = [
        {"params": decay_params, "weight_decay": weight_decay},
        {"params": nodecay_params, "weight_decay": 0.0},
    ]
    return AdamW(optimizer_grouped_parameters, lr=lr, eps=1e-8)
"""


def test_the_reported_loop_through_the_cli(cli, tmp_path):
    (tmp_path / "models.py").write_text(LOOP)
    res = cli("check", "models.py", "--select", "PF124", "--format", "json", "--no-cache")
    assert res.code == 1, res.err
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"], f["severity"]) for f in found] == [("PF124", 10, "warning")]
    assert "`weight_decay=weight_decay`" in found[0]["message"]
    assert "swapped" in found[0]["message"]


def test_the_fixed_loop_is_silent(cli, tmp_path):
    fixed = LOOP.replace("if any(nd in n", "if not any(nd in n")
    assert fixed != LOOP
    (tmp_path / "models.py").write_text(fixed)
    res = cli("check", "models.py", "--select", "PF124", "--format", "json", "--no-cache")
    assert json.loads(res.out)["findings"] == []


def test_the_else_branch_counts_as_the_negation():
    # the decayed list filled in the else branch of a positive test is the right way round ...
    right = LOOP.replace("decay_params.append(p)\n        else:\n            nodecay_params.append(p)",
                         "nodecay_params.append(p)\n        else:\n            decay_params.append(p)")
    assert right != LOOP and lines(right) == []
    # ... and a negated test filling the zero-decay list is wrong
    wrong = right.replace("if any(nd in n", "if not any(nd in n")
    assert lines(wrong) == [12]  # the else branch that fills the decayed list


def test_inline_comprehensions_and_dict_calls():
    src = """
        import torch


        def build(model, wd):
            no_decay = ["bias", "norm"]
            return torch.optim.AdamW([
                dict(params=[p for n, p in model.named_parameters() if any(k in n for k in no_decay)],
                     weight_decay=wd),
                dict(params=[p for n, p in model.named_parameters() if not any(k in n for k in no_decay)],
                     weight_decay=0.0),
            ])
    """
    assert lines(src) == [8]


def test_silent_without_a_zero_group_or_with_a_list_of_names_to_decay():
    src = """
        import torch


        def build(model, wd):
            no_decay = ["bias", "LayerNorm.weight"]
            decay = ["weight"]
            a = [
                {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
                 "weight_decay": 1e-4},
                {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
                 "weight_decay": wd},
            ]
            b = [
                {"params": [p for n, p in model.named_parameters() if any(d in n for d in decay)], "weight_decay": wd},
                {"params": [p for n, p in model.named_parameters() if not any(d in n for d in decay)],
                 "weight_decay": 0},
            ]
            return torch.optim.AdamW(a), torch.optim.AdamW(b)
    """
    assert lines(src) == []


def test_silent_when_the_list_is_rebound_or_computed():
    src = """
        import torch


        def build(model, wd, extra):
            no_decay = ["bias", "LayerNorm.weight"]
            no_decay = no_decay + extra
            skip = set(model.no_weight_decay())
            return torch.optim.AdamW([
                {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
                 "weight_decay": wd},
                {"params": [p for n, p in model.named_parameters() if n in skip], "weight_decay": wd},
                {"params": [p for n, p in model.named_parameters() if n not in skip], "weight_decay": 0.0},
            ])
    """
    assert lines(src) == []
