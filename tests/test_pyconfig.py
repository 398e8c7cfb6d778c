"""nanoGPT-style override files: read as literal assignments, never executed."""

from __future__ import annotations

import json
import textwrap

from plan_helpers import winner

TRAIN = textwrap.dedent("""\
    import torch
    batch_size = 12
    gradient_accumulation_steps = 5 * 8
    block_size = 1024
    n_layer = 12
    n_embd = 768
    init_from = 'scratch'
    dataset = 'openwebtext'
    dtype = 'bfloat16' if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else 'float16'
    compile = True
    exec(open('configurator.py').read())
    ddp = True
    if ddp:
        gradient_accumulation_steps //= 8
    ctx = torch.amp.autocast(device_type='cuda', dtype=torch.bfloat16)
    """)


def test_override_file_and_key_value(cli, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "configurator.py").write_text("raise SystemExit('never run')\n")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "small.py").write_text("batch_size = 64\nblock_size = 256\nraise SystemExit('never run')\n")
    res = cli("audit", "train.py", "--emit-plan", "json", "--", "config/small.py", "--compile=False", cwd=tmp_path)
    assert res.code == 0, res.err
    plan = json.loads(res.out)
    assert winner(plan, "batch.micro") == 64 and winner(plan, "data.seq_len") == 256
    assert winner(plan, "batch.grad_accum") == 40  # one process: not divided
    assert winner(plan, "compile.enabled") is False
    assert winner(plan, "precision.mode") == "amp_bf16"
    src = plan["fields"]["batch.micro"][0]["source"]
    assert src["path"] == "config/small.py" and src["line"] == 1


def test_accumulation_divided_over_ranks_and_parameter_count(cli, tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "configurator.py").write_text("")
    res = cli("audit", "--emit-plan", "json", "--", "torchrun", "--standalone", "--nproc_per_node=8", "train.py",
              cwd=tmp_path)
    plan = json.loads(res.out)
    assert winner(plan, "batch.grad_accum") == 5
    params = winner(plan, "model.num_parameters")
    assert abs(params - 124_000_000) < 0.05 * 124_000_000
    assert plan["fields"]["model.num_parameters"][0]["confidence"] == "low"


def test_no_configurator_no_facts(cli, tmp_path):
    (tmp_path / "train.py").write_text("batch_size = 64\nprint(batch_size)\n")
    res = cli("audit", "train.py", "--emit-plan", "json", cwd=tmp_path)
    plan = json.loads(res.out)
    assert not any(f["adapter"] == "pyconfig" for facts in plan["fields"].values() for f in facts)
