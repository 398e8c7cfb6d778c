"""jobs61: an optimizer class bound through ``functools.partial`` and called later with the parameters.

Shape from a real job (a fixture of our own that reproduces it): PrimeIntellect-ai/OpenDiloco @ a5b7236
``open_diloco/train_fsdp.py:250,328``: ``inner_optimizer = partial(torch.optim.AdamW, lr=config.lr,
weight_decay=0.1, betas=(0.9, 0.95))`` ... ``optimizer = inner_optimizer(model.parameters())``.
"""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

SCRIPT = '''
from functools import partial

import torch


def train(model, loader, lr):
    inner_optimizer = partial(torch.optim.AdamW, lr=lr, weight_decay=0.1, betas=(0.9, 0.95))
    optimizer = inner_optimizer(model.parameters())
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
'''


def _plan(tmp_path, code):
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    return plan


def test_an_optimizer_class_bound_by_partial(tmp_path):
    fact = _plan(tmp_path, SCRIPT).resolve("optimizer.name")
    assert fact is not None and fact.value == "AdamW" and fact.source.line == 9


def test_functools_partial_spelled_in_full(tmp_path):
    code = SCRIPT.replace("from functools import partial\n", "import functools\n").replace(
        "= partial(", "= functools.partial(")
    assert _plan(tmp_path, code).value("optimizer.name") == "AdamW"


def test_a_partial_of_a_project_function_names_no_optimizer(tmp_path):
    code = SCRIPT.replace("partial(torch.optim.AdamW,", "partial(make_optimizer,")
    code = "def make_optimizer(params, **kw):\n    return build(params, **kw)\n" + code
    assert _plan(tmp_path, code).resolve("optimizer.name") is None


def test_a_partial_bound_in_two_arms_nothing_decides_names_no_optimizer(tmp_path):
    code = SCRIPT.replace(
        "    inner_optimizer = partial(torch.optim.AdamW, lr=lr, weight_decay=0.1, betas=(0.9, 0.95))\n",
        "    if lr > 1e-3:\n        inner_optimizer = partial(torch.optim.SGD, lr=lr)\n"
        "    else:\n        inner_optimizer = partial(torch.optim.AdamW, lr=lr)\n")
    assert _plan(tmp_path, code).resolve("optimizer.name") is None


TABLE = '''
import argparse
from functools import partial

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--opt", default="adamw")
args = parser.parse_args()
model = torch.nn.Linear(4, 2)
opt_clz = {
    "adamw": partial(torch.optim.AdamW, betas=(0.9, 0.95)),
    "sgd": partial(torch.optim.SGD, momentum=0.9),
}[args.opt]
optimizer = opt_clz(params=model.parameters(), lr=1e-3)
for x, y in loader:
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
'''


def test_a_table_of_partials_indexed_where_it_is_written(tmp_path):
    # FoundationVision/VAR @ 78b9539 ``train.py:117-125``: ``opt_clz = {'adam': partial(torch.optim.AdamW, ...),
    # 'adamw': partial(torch.optim.AdamW, ...)}[args.opt.lower().strip()]`` then ``opt_clz(params=...)``
    assert _plan(tmp_path, TABLE).value("optimizer.name") == "AdamW"
    (tmp_path / "b").mkdir()
    plan, _ = build_plan([_write(tmp_path / "b", TABLE)], [], root=tmp_path / "b", argv=["--opt", "sgd"])
    assert plan.value("optimizer.name") == "SGD"


def test_a_table_key_not_known_names_no_optimizer(tmp_path):
    code = TABLE.replace('parser.add_argument("--opt", default="adamw")', 'parser.add_argument("--opt")')
    assert _plan(tmp_path, code).resolve("optimizer.name") is None


def _write(folder, code):
    (folder / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder / "train.py"
