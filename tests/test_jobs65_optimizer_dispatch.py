"""A project helper that picks the torch optimizer by the name it is given (issue 15, set 32:
THUDM/GraphMAE ``main_graph.py:168`` ``create_optimizer(optim_type, model, lr, weight_decay)`` with
``--optimizer adam`` on the line; ``graphmae/utils.py:129-147`` lowers the name, keeps its last
``_``-part and dispatches ``if opt_lower == "adam": optim.Adam(...)``). Twins: a name no arm takes,
a name not known."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

UTILS = """\
    from torch import optim


    def create_optimizer(opt, model, lr, weight_decay):
        opt_lower = opt.lower()
        parameters = model.parameters()
        opt_args = dict(lr=lr, weight_decay=weight_decay)
        opt_split = opt_lower.split("_")
        opt_lower = opt_split[-1]
        if opt_lower == "adam":
            optimizer = optim.Adam(parameters, **opt_args)
        elif opt_lower == "adamw":
            optimizer = optim.AdamW(parameters, **opt_args)
        elif opt_lower == "sgd":
            return optim.SGD(parameters, **opt_args)
        else:
            assert False and "Invalid optimizer"
        return optimizer
"""

MAIN = """\
    import argparse
    import torch
    from helpers import create_optimizer

    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", type=str, default="adam")
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    optimizer = create_optimizer(args.optimizer, model, 1e-3, 0.0)
    loader = torch.utils.data.DataLoader(list(range(64)), batch_size=8)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
"""


def _plan(cli, tmp_path, *line: str, main: str = MAIN) -> dict:
    write(tmp_path, {"helpers.py": UTILS, "main.py": main})
    return plan_of(cli, "main.py", "--", *line, cwd=tmp_path)


def test_the_name_on_the_line_takes_its_arm(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "--optimizer", "lookahead_AdamW"), "optimizer.name")
    assert (got.value, got.confidence) == ("AdamW", "medium")
    assert "takes the arm at helpers.py:12" in got.source.detail
    assert fact(_plan(cli, tmp_path), "optimizer.name").value == "Adam"  # the default


def test_twin_a_name_no_arm_takes_says_nothing(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, "--optimizer", "lamb"), "optimizer.name")
    assert got is None or got.value not in ("Adam", "AdamW", "SGD")


def test_twin_a_name_not_known_says_nothing(cli, tmp_path):
    main = MAIN.replace("create_optimizer(args.optimizer,", "create_optimizer(input(),")
    got = fact(_plan(cli, tmp_path, main=main), "optimizer.name")
    assert got is None or got.value not in ("Adam", "AdamW", "SGD")
