"""NVIDIA Apex AMP's opt level as the job's precision (adapters/apex_amp.py). Fixtures are our own small
rewrites of real shapes, each citing repository, path and commit; each must-read test has a twin where the
call does not run or its level cannot be told, and nothing is claimed."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# NVIDIA/tacotron2 @ 185cd24e046cc1304b4f8e564734d2498c6e2e6f train.py:173-176 (``from apex import amp``;
# ``model, optimizer = amp.initialize(model, optimizer, opt_level='O2')`` when fp16 is on) and the ImageNet
# example of NVIDIA/apex (``--opt-level`` on the command line passed to amp.initialize).
TACOTRON_LIKE = {
    "train.py": """\
        import argparse

        import torch
        from apex import amp

        parser = argparse.ArgumentParser()
        parser.add_argument("--fp16", action="store_true")
        parser.add_argument("--opt-level", type=str, default="O2")
        args = parser.parse_args()

        model = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        if args.fp16:
            model, optimizer = amp.initialize(model, optimizer, opt_level=args.opt_level)
        for x in [torch.zeros(2, 4)]:
            loss = model(x).sum()
            with amp.scale_loss(loss, optimizer) as scaled_loss:
                scaled_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
}


def test_o2_is_fp16_weights_and_o1_is_mixed_precision(cli, tmp_path):
    write(tmp_path, TACOTRON_LIKE)
    plan = plan_of(cli, "train.py", "--", "--fp16", cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is not None and got.value == "fp16" and got.confidence == "medium"
    assert got.adapter == "apex_amp"
    plan = plan_of(cli, "train.py", "--", "--fp16", "--opt-level", "O1", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "amp_fp16"


def test_the_default_level_is_o1(cli, tmp_path):
    text = TACOTRON_LIKE["train.py"].replace(
        "            model, optimizer = amp.initialize(model, optimizer, opt_level=args.opt_level)",
        "            model, optimizer = amp.initialize(model, optimizer)")
    write(tmp_path, {"train.py": text})
    plan = plan_of(cli, "train.py", "--", "--fp16", cwd=tmp_path)
    assert fact(plan, "precision.mode").value == "amp_fp16"


def test_a_call_that_does_not_run_or_is_switched_by_a_value_says_nothing(cli, tmp_path):
    """Twins: --fp16 not given (the call is skipped); enabled= from a variable; a level that is no apex level."""
    write(tmp_path, TACOTRON_LIKE)
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    got = fact(plan, "precision.mode")
    assert got is None or got.adapter != "apex_amp"
    text = TACOTRON_LIKE["train.py"].replace(
        "opt_level=args.opt_level)", "opt_level=args.opt_level, enabled=args.fp16)").replace(
        "        if args.fp16:\n            model, optimizer", "        if True:\n            model, optimizer")
    write(tmp_path, {"train.py": text})
    got = fact(plan_of(cli, "train.py", "--", "--fp16", cwd=tmp_path), "precision.mode")
    assert got is None or got.adapter != "apex_amp"
    write(tmp_path, TACOTRON_LIKE)
    got = fact(plan_of(cli, "train.py", "--", "--fp16", "--opt-level", "O5", cwd=tmp_path), "precision.mode")
    assert got is None or got.adapter != "apex_amp"
