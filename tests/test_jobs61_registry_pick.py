"""jobs61: an object whose class a registry table of the project picks by a key the launch line decides, so only
that class's method is followed when the options pass through it (preflight/registry_pick.py).

Shape from a real job (a fixture of our own that reproduces it): epfml/llm-baselines @ c8a5105 ``src/main.py:51-52``
``distributed_backend = distributed.make_backend_from_args(args)``; ``args =
distributed_backend.get_adjusted_args_for_process(args)``, with ``src/distributed/__init__.py:1-10`` a table
``{"nccl": ddp.DataParallelDistributedBackend, None: single.SinlgeNodeBackend}`` indexed by
``args.distributed_backend`` (``src/config/base.py:22-28`` ``default=None``): the single-node backend hands the
options back untouched; the DDP one rescales ``batch_size``.
"""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

INIT = '''
from . import ddp, single

BACKENDS = {
    "nccl": ddp.DDPBackend,
    None: single.SingleBackend,
}


def make_backend_from_args(args):
    return BACKENDS[args.distributed_backend](args)
'''

BASE = '''
class Backend:
    def __init__(self, args):
        pass

    def get_adjusted_args_for_process(self, args):
        raise NotImplementedError
'''

SINGLE = '''
from .backend import Backend


class SingleBackend(Backend):
    def get_adjusted_args_for_process(self, args):
        return args
'''

DDP = '''
import os

from .backend import Backend


class DDPBackend(Backend):
    def get_adjusted_args_for_process(self, args):
        world_size = int(os.environ["WORLD_SIZE"])
        args.batch_size = args.batch_size // world_size
        return args
'''

MAIN = '''
import argparse

import torch
from torch.utils.data import DataLoader

import distributed


def main(args):
    backend = distributed.make_backend_from_args(args)
    args = backend.get_adjusted_args_for_process(args)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loader = DataLoader(dataset, batch_size=args.batch_size)
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed_backend", default=None, type=str, required=False)
    parser.add_argument("--batch_size", default=50, type=int)
    main(parser.parse_args())
'''


def _plan(tmp_path, argv, init=INIT, main=MAIN):
    pkg = tmp_path / "distributed"
    pkg.mkdir()
    for name, text in (("__init__.py", init), ("backend.py", BASE), ("single.py", SINGLE), ("ddp.py", DDP)):
        (pkg / name).write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "main.py").write_text(textwrap.dedent(main), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "main.py"], [], root=tmp_path, argv=argv)
    return plan


def test_the_backend_a_none_default_picks_hands_the_options_back_untouched(tmp_path):
    plan = _plan(tmp_path, ["--batch_size", "8"])
    fact = plan.resolve("batch.micro")
    assert fact is not None and fact.value == 8
    assert fact.source.kind == "cli" and fact.source.key == "--batch_size"


def test_the_backend_a_key_on_the_line_picks(tmp_path):
    # ``--distributed_backend single`` names the entry whose method returns the options as given
    init = INIT.replace("None: single.SingleBackend", '"single": single.SingleBackend')
    plan = _plan(tmp_path, ["--batch_size", "8", "--distributed_backend", "single"], init=init)
    assert plan.value("batch.micro") == 8


def test_the_backend_that_rewrites_the_batch_makes_it_unknown(tmp_path):
    plan = _plan(tmp_path, ["--batch_size", "8", "--distributed_backend", "nccl"])
    assert plan.resolve("batch.micro") is None


def test_a_key_not_in_the_table_keeps_every_definition(tmp_path):
    # no entry for None: the class is not known, and the DDP definition (which writes batch_size) still counts
    init = INIT.replace("None: single.SingleBackend", '"gloo": single.SingleBackend')
    plan = _plan(tmp_path, ["--batch_size", "8"], init=init)
    assert plan.resolve("batch.micro") is None


def test_a_table_filled_at_run_time_keeps_every_definition(tmp_path):
    init = INIT + '''

def register(name, cls):
    BACKENDS[name] = cls
'''
    plan = _plan(tmp_path, ["--batch_size", "8"], init=init)
    assert plan.resolve("batch.micro") is None


def test_a_key_the_defaults_do_not_fix_keeps_every_definition(tmp_path):
    # declared without a default: argparse's None is not written, so nothing claims the key is None
    main = MAIN.replace('parser.add_argument("--distributed_backend", default=None, type=str, required=False)',
                        'parser.add_argument("--distributed_backend", type=str)')
    plan = _plan(tmp_path, ["--batch_size", "8"], main=main)
    assert plan.resolve("batch.micro") is None
