"""A module-level name rebound under an `if` that tests the name itself (karpathy/nanochat's
`scripts/base_train.py` shape) must not send the resolver into endless recursion: the audit completes,
and an internal error in the derived facts is reported, never raised."""

from __future__ import annotations

import textwrap

from plan_helpers import plan_of, winner, write

_SCRIPT = textwrap.dedent("""\
    import torch
    import torch.nn as nn

    depth = 20
    if depth > 12:
        depth = 12
    batch_size = 8
    if batch_size > 64:
        batch_size = 64
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(depth)]).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loader = torch.utils.data.DataLoader(torch.randn(1024, 64), batch_size=batch_size)
    for x in loader:
        loss = model(x.cuda()).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
""")


def test_a_rebinding_under_a_test_of_the_name_itself_is_read_without_recursion(cli, tmp_path):
    write(tmp_path, {"train.py": _SCRIPT})
    res = cli("audit", "train.py", "--format", "json", cwd=tmp_path)
    assert res.code in (0, 1) and "internal error" not in res.out and "Traceback" not in res.err
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    # deciding `batch_size > 64` needs batch_size itself: the statements are followed in order (8, then the
    # test decided false with that 8; preflight/script_flow.py), never a wrong value and never a recursion
    assert winner(plan, "batch.micro") == 8
    assert winner(plan, "optimizer.name") is not None  # the rest of the plan is read


def test_an_internal_error_in_the_derived_facts_is_reported_not_raised(cli, tmp_path, monkeypatch):
    import preflight.adapters.derive as derive_module

    def broken(plan, project):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(derive_module, "derive", broken)
    write(tmp_path, {"train.py": _SCRIPT})
    res = cli("audit", "train.py", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in res.err
    assert "<derive>" in res.out and "internal error (RecursionError" in res.out
