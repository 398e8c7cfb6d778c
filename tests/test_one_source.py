"""One owner for DeepSpeed stage semantics and one sharding spelling (issue 15, part 3)."""

from __future__ import annotations

import pytest

from preflight.plan import FIELDS, FSDP_MODES, SHARDING_VALUES, sharding_value


def test_every_adapter_uses_the_one_stage_map():
    from preflight.adapters import (
        accelerate,
        deepspeed,
        hydra_lightning,
        launchers,
        lightning_strategy,
    )

    owner = deepspeed.ZERO_STAGE_SHARDING
    assert accelerate._STAGE is owner and hydra_lightning._STAGE is owner and lightning_strategy._STAGE is owner
    assert launchers._ZERO is owner


@pytest.mark.parametrize("zero,fsdp,world", [(0, None, 1), (0, None, 8), (1, None, 8), (3, None, 8),
                                             (0, "full", 8), (0, "hybrid", 16), (0, "grad-op", 4)])
def test_estimator_speaks_the_plan_spelling(zero, fsdp, world):
    from preflight.estimate.inputs import EstimateInput

    inp = EstimateInput(zero_stage=zero, fsdp=fsdp, world_size=world)
    assert inp.sharding in SHARDING_VALUES
    assert inp.sharding in FIELDS["dist.sharding"].enum


def test_plan_to_estimate_and_back():
    for value, mode in FSDP_MODES.items():
        assert sharding_value(fsdp=mode) == value
    with pytest.raises(ValueError):
        sharding_value(fsdp="fsdp-full")


TRAIN = """\
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
model = AutoModelForCausalLM.from_pretrained("gpt2")
tok = AutoTokenizer.from_pretrained("gpt2")
opt = torch.optim.AdamW(model.parameters())
for batch in loader:
    out = model(**tok(batch, max_length=512, truncation=True, return_tensors="pt"))
    out.loss.backward()
    opt.step()
    opt.zero_grad()
"""


@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_audit_computes_one_estimate_and_renders_each_format_from_it(cli, tmp_path, monkeypatch, fmt):
    import json

    from preflight.estimate import audit_hook

    calls = []
    real = audit_hook._audit_estimate
    monkeypatch.setattr(audit_hook, "_audit_estimate", lambda *a: calls.append(a) or real(*a))
    if fmt != "text":  # the rendered report is never parsed back to add the plan or the estimate
        monkeypatch.setattr("preflight.audit.attach_plan", lambda *a, **k: pytest.fail("re-parsed the report"))
        monkeypatch.setattr(audit_hook, "attach_estimate", lambda *a, **k: pytest.fail("re-parsed the report"))
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("audit", "train.py", "--gpu", "a100-80gb", "--format", fmt, cwd=tmp_path)
    assert res.code in (0, 1), res.err
    assert len(calls) == 1  # PF801 and the report share it
    if fmt == "json":
        doc = json.loads(res.out)
        assert "plan" in doc and "estimate" in doc
    elif fmt == "sarif":
        props = json.loads(res.out)["runs"][0]["properties"]
        assert "trainingPlan" in props and "memoryEstimate" in props
    else:
        assert "Memory estimate:" in res.out


@pytest.mark.parametrize("name", ["tokenizer", "tok", "t", "enc"])
def test_sequence_length_does_not_depend_on_the_tokenizers_name(cli, tmp_path, name):
    import json

    code = TRAIN.replace("tok = ", f"{name} = ").replace("**tok(", f"**{name}(")
    (tmp_path / "train.py").write_text(code)
    res = cli("audit", "train.py", "--emit-plan", "json", cwd=tmp_path)
    plan = json.loads(res.out)
    assert [f["value"] for f in plan["fields"]["data.seq_len"]][:1] == [512], name


@pytest.mark.parametrize("module", ["pf502_deepspeed_batch_triple", "pf503_fp16_and_bf16",
                                    "pf504_offload_param_below_stage3", "pf505_zero3_save_without_gather",
                                    "pf540_offload_with_client_optimizer", "pf541_deepspeed_half_vs_trainer"])
def test_deepspeed_plan_rules_read_only_the_plan(module):
    """PF502-PF505 open no DeepSpeed, accelerate or TrainingArguments config: they read the facts
    the adapters that own those semantics wrote."""
    import importlib
    import inspect

    src = inspect.getsource(importlib.import_module(f"preflight.rules.plan.{module}"))
    for raw in ("deepspeed_configs", "deepspeed_block", "is_accelerate_config", "zero_optimization\")",
                "block.get", "zo.get"):
        assert raw not in src, (module, raw)
    assert "pctx.configs" not in src and ".data" not in src


def test_pf503_reads_no_script_call_either():
    """Its TrainingArguments half reads the precision.fp16_and_bf16 facts, not the calls."""
    import inspect

    from preflight.rules import pf503_fp16_and_bf16 as pf503

    src = inspect.getsource(pf503)
    for raw in ("pctx.scripts", "pctx.index", ".calls", "kwarg(", "TRAINING_KEYS", "ARG_CLASSES"):
        assert raw not in src, raw


def test_pf504_stage_numbers_follow_the_owner():
    from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING

    from preflight.rules.plan import pf504_offload_param_below_stage3 as pf504

    assert {v: k for k, v in ZERO_STAGE_SHARDING.items()} == pf504._STAGE_NUMBER


def test_pf504_fires_on_a_python_dict_config(cli, tmp_path):
    (tmp_path / "train.py").write_text(
        "import deepspeed\n"
        "ds_config = {\"train_batch_size\": 8,\n"
        "             \"zero_optimization\": {\"stage\": 2, \"offload_param\": {\"device\": \"cpu\"}}}\n"
        "engine, opt, _, _ = deepspeed.initialize(model=model, config=ds_config)\n")
    res = cli("audit", "train.py", "--select", "PF504", cwd=tmp_path)
    assert "train.py:3" in res.out and "PF504" in res.out


ARGS_FILE = "output_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 0.0001\nfp16: {fp16}\nbf16: true\n"


@pytest.mark.parametrize("fp16,fires", [("true", True), ("false", False)])
def test_pf503_on_one_arguments_file_from_the_plan(cli, tmp_path, fp16, fires):
    """`preflight check args.yaml`: the file alone carries the precision.fp16_and_bf16 pair."""
    (tmp_path / "args.yaml").write_text(ARGS_FILE.format(fp16=fp16))
    res = cli("check", "args.yaml", cwd=tmp_path)
    assert ("args.yaml:5:1: PF503" in res.out) is fires, res.out
    assert res.code == (1 if fires else 0)


def test_pf503_once_for_a_file_a_scripts_parser_reads(cli, tmp_path):
    (tmp_path / "args.json").write_text('{"output_dir": "out", "per_device_train_batch_size": 4,\n'
                                        ' "fp16": true,\n "bf16": true}\n')
    (tmp_path / "train.py").write_text(
        "import sys\n"
        "from transformers import HfArgumentParser, TrainingArguments\n"
        "parser = HfArgumentParser((TrainingArguments,))\n"
        "if len(sys.argv) == 2 and sys.argv[1].endswith('.json'):\n"
        "    (args,) = parser.parse_json_file(json_file=sys.argv[1])\n")
    res = cli("audit", "train.py", "--config", "args.json", "--select", "PF503", cwd=tmp_path)
    assert res.out.count("PF503") == 1, res.out
    assert "args.json:3" in res.out
