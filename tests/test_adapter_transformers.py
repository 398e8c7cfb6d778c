"""The transformers / TRL adapter: TrainingArguments, SFTConfig, HfArgumentParser, versions."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Optional, Sequence

import pytest
from preflight.adapters.transformers_args import parse_flags
from preflight.adapters.transformers_version import find_version

from preflight.audit import build_plan
from preflight.cli import main
from preflight.plan import Fact, TrainingPlan
from preflight.registry import all_adapters

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "transformers"


def audit(root: Path, scripts: Sequence[str], configs: Sequence[str] = (), argv: Sequence[str] = ()) -> TrainingPlan:
    plan, project = build_plan([root / s for s in scripts], [root / c for c in configs], root=root,
                               argv=argv, strict=True)
    assert project.errors == []
    return plan


def fact(plan: TrainingPlan, field: str, kind: Optional[str] = None, adapter: str = "transformers") -> Fact:
    found = [f for f in plan.facts(field) if f.adapter == adapter and (kind is None or f.source.kind == kind)]
    assert len(found) == 1, plan.facts(field)
    return found[0]


def snippet(tmp_path: Path, code: str, requirements: Optional[str] = None, argv: Sequence[str] = ()) -> TrainingPlan:
    (tmp_path / "train.py").write_text(textwrap.dedent(code), encoding="utf-8")
    if requirements is not None:
        (tmp_path / "requirements.txt").write_text(requirements, encoding="utf-8")
    return audit(tmp_path, ["train.py"], argv=argv)


def test_registered():
    assert all_adapters()["transformers"].frameworks == ("transformers",)


# -- TRL SFT with QLoRA (clean) ------------------------------------------------------------


def test_sft_qlora_explicit_values_and_trl_defaults():
    plan = audit(FIXTURES / "sft_qlora", ["train_sft.py"])
    micro = fact(plan, "batch.micro")
    assert (micro.value, micro.source.kind, micro.source.path, micro.source.line) == (4, "code", "train_sft.py", 22)
    assert fact(plan, "batch.grad_accum").value == 8
    seq = fact(plan, "data.seq_len")
    assert (seq.value, seq.source.line) == (2048, 24)
    assert fact(plan, "optimizer.name").value == "paged_adamw_8bit"
    # SFTConfig defaults, with the TRL version range they hold for
    bf16 = fact(plan, "precision.mode")
    assert (bf16.value, bf16.source.kind, bf16.source.key) == ("amp_bf16", "default", "bf16")
    assert "TRL >= 0.19" in (bf16.source.detail or "")
    gc = fact(plan, "memory.gradient_checkpointing")
    assert gc.value is True and gc.source.kind == "default" and "TRL >= 0.22" in (gc.source.detail or "")
    assert fact(plan, "compile.enabled").value is False
    assert plan.value("task.mode") == "qlora"
    mode = fact(plan, "task.mode")
    assert mode.value == "qlora" and mode.source.line == 35 and "owns the training loop" in (mode.source.detail or "")
    attn = fact(plan, "model.attn_implementation")
    assert attn.value == "sdpa" and attn.source.kind == "default" and "4.57.6" in (attn.source.detail or "")
    assert plan.value("precision.weights_bits") == 4
    assert plan.value("peft.rank") == 16
    assert not plan.conflicts()
    notes = "\n".join(plan.notes)
    assert "transformers 4.57.6 (pinned, requirements.txt:2)" in notes
    assert "trl 0.22.0 (lower bound, requirements.txt:3)" in notes
    assert "LoraConfig(target_modules=None)" in notes


def test_sft_old_trl_uses_trainingarguments_defaults(tmp_path):
    plan = snippet(tmp_path, """
        from trl import SFTConfig, SFTTrainer
        args = SFTConfig(output_dir="o", max_seq_length=512)
        SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args).train()
    """, "transformers==4.45.2\ntrl==0.15.0\n")
    assert fact(plan, "precision.mode").value == "fp32"
    assert fact(plan, "memory.gradient_checkpointing").value is False
    assert fact(plan, "data.seq_len").value == 512  # the old name
    opt = fact(plan, "optimizer.name")
    assert opt.value == "adamw_torch" and opt.source.kind == "default" and "<= 4.45" in (opt.source.detail or "")
    assert fact(plan, "model.ref").value == "Qwen/Qwen2.5-0.5B"
    assert fact(plan, "task.mode").value == "finetune"


def test_a_singular_requirement_txt_pins_the_versions(tmp_path):
    # MAOJIASONG/TinyZero-TRL @ dd318ba requirement.txt:16 transformers==4.49.0 (no requirements.txt)
    (tmp_path / "requirement.txt").write_text("transformers==4.49.0\ntrl==0.15.0\n", encoding="utf-8")
    plan = snippet(tmp_path, """
        from trl import SFTConfig, SFTTrainer
        args = SFTConfig(output_dir="o")
        SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args).train()
    """)
    assert "transformers 4.49.0 (pinned, requirement.txt:1)" in "\n".join(plan.notes)
    assert fact(plan, "precision.mode").value == "fp32"  # trl 0.15's SFTConfig: bf16 not on by default


def test_sft_fp16_turns_off_the_bf16_default(tmp_path):
    plan = snippet(tmp_path, """
        from trl import SFTConfig
        args = SFTConfig(output_dir="o", fp16=True)
    """, "trl==0.24.0\n")
    # (derive adds the same value at medium: no load of the model is in the snippet)
    assert [f.value for f in plan.facts("precision.mode") if f.adapter != "derive"] == ["amp_fp16"]
    assert plan.value("precision.mode") == "amp_fp16"


# -- Trainer + HfArgumentParser ------------------------------------------------------------


def test_hfparser_json_config_both_precisions_conflict():
    root = FIXTURES / "trainer_hfparser"
    plan = audit(root, ["run_clm.py"], ["args.json"])
    micro = fact(plan, "batch.micro", "config")
    assert (micro.value, micro.source.path, micro.source.line, micro.source.key) == \
        (16, "args.json", 3, "per_device_train_batch_size")
    assert fact(plan, "batch.micro", "default").value == 8
    assert plan.value("batch.micro") == 16
    modes = {f.value: f.source.key for f in plan.facts("precision.mode") if f.source.kind == "config"}
    assert modes == {"amp_bf16": "bf16", "amp_fp16": "fp16"}
    assert "precision.mode" in plan.conflicts()
    assert any("At most one of fp16 and bf16" in n for n in plan.notes)
    assert plan.value("dist.sharding") == "fsdp_full"
    assert plan.value("dist.offload_params") == "cpu" and plan.value("dist.offload_optimizer") == "cpu"
    assert plan.value("memory.gradient_checkpointing") is True
    assert plan.value("compile.enabled") is True
    # the JSON idiom: with a JSON file the .args file and argv are not read
    assert all(f.source.path != "run_clm.args" for f in plan.facts("optimizer.name"))
    assert any("4.45.0 (lower bound, pyproject.toml:5)" in n for n in plan.notes)
    assert fact(plan, "precision.weights_bits").value == 32  # 4.x loads fp32 without dtype
    assert plan.value("task.mode") == "finetune"


def test_hfparser_args_file_and_cli_flags():
    root = FIXTURES / "trainer_hfparser"
    plan = audit(root, ["run_clm.py"], argv=["--per_device_train_batch_size", "4", "--no_gradient_checkpointing",
                                              "--bf16"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and (micro.value, micro.source.kind, micro.source.key) == \
        (4, "cli", "--per_device_train_batch_size")
    assert not plan.conflicts()  # the .args value is overridden by argv, not a second fact
    opt = plan.resolve("optimizer.name")
    assert opt is not None and (opt.value, opt.source.kind, opt.source.path, opt.source.line) == \
        ("adafactor", "config", "run_clm.args", 3)
    assert plan.resolve("memory.gradient_checkpointing").value is False  # type: ignore[union-attr]
    assert plan.resolve("precision.mode").source.kind == "cli"  # type: ignore[union-attr]
    assert plan.value("precision.mode") == "amp_bf16"
    assert any("run_clm.args:2" in n and "overridden" in n for n in plan.notes)


def test_cli_emit_plan_json(monkeypatch, capsys):
    monkeypatch.chdir(FIXTURES / "trainer_hfparser")
    code = main(["audit", "run_clm.py", "--config", "args.json", "--emit-plan", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    micro = [f for f in data["fields"]["batch.micro"] if f["adapter"] == "transformers"]
    assert {(f["value"], f["source"]["kind"]) for f in micro} == {(16, "config"), (8, "default")}
    cfg = next(f for f in micro if f["source"]["kind"] == "config")
    assert cfg["source"]["path"] == "args.json" and cfg["source"]["line"] == 3


def test_cli_argv_after_double_dash(monkeypatch, capsys):
    monkeypatch.chdir(FIXTURES / "trainer_hfparser")
    code = main(["audit", "run_clm.py", "--emit-plan", "json", "--", "--gradient_accumulation_steps=4"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    accum = [f for f in data["fields"]["batch.grad_accum"] if f["source"]["kind"] == "cli"]
    assert accum and accum[0]["value"] == 4 and accum[0]["source"]["key"] == "--gradient_accumulation_steps"


# -- Trainer + DeepSpeed file, 16-bit weights ----------------------------------------------


def test_trainer_deepspeed_note_and_16bit_weights():
    root = FIXTURES / "trainer_ds"
    plan = audit(root, ["train.py"], ["ds_config.json"])
    assert fact(plan, "batch.micro").value == 32
    assert plan.value("dist.sharding") == "zero3"  # from the deepspeed adapter
    assert any('deepspeed="ds_config.json"' in n and "read by the deepspeed adapter" in n for n in plan.notes)
    # bf16=False with bf16 weights: not fp32 compute, a note instead
    assert all(f.adapter != "transformers" for f in plan.facts("precision.mode"))
    assert any("no autocast" in n for n in plan.notes)
    assert fact(plan, "optimizer.name").value == "adamw_torch"
    assert fact(plan, "memory.gradient_checkpointing").source.line == 9


def test_deepspeed_file_not_given(tmp_path):
    plan = snippet(tmp_path, """
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", deepspeed="ds.json", fsdp=["shard_grad_op"])
    """)
    assert any("pass it with --config" in n for n in plan.notes)
    assert fact(plan, "dist.sharding").value == "fsdp_grad_op"


# -- versions, generation, loading defaults -----------------------------------------------


def test_generation_and_unknown_version():
    plan = audit(FIXTURES / "generate", ["generate.py"])
    assert fact(plan, "generation.max_new_tokens").value == 256
    assert fact(plan, "generation.num_beams").value == 4
    assert plan.value("task.mode") == "generation"
    assert any("version not found" in n and "assumed 5.x" in n for n in plan.notes)
    assert any('dtype="auto"' in n for n in plan.notes)
    assert "precision.weights_bits" not in plan


@pytest.mark.parametrize(("req", "torch", "expected"), [
    ("transformers==4.57.6\n", "torch==2.8.0\n", "adamw_torch_fused"),
    ("transformers==4.57.6\n", "torch==2.4.1\n", "adamw_torch"),
    ("transformers==4.36.2\n", "", "adamw_torch"),
    ("transformers==4.57.6\n", "", None),
])
def test_default_optim_by_version(tmp_path, req, torch, expected):
    plan = snippet(tmp_path, """
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", bf16=True)
    """, req + torch)
    if expected is None:
        # which AdamW implementation is the default is not known; that it is AdamW is (jobs127)
        got = fact(plan, "optimizer.name", "default")
        assert got.value == "AdamW" and got.confidence == "low"
        assert any("torch version not found" in n for n in plan.notes)
    else:
        assert fact(plan, "optimizer.name", "default").value == expected
    assert fact(plan, "precision.mode").value == "amp_bf16"


def test_old_transformers_eager_and_5x_removed_kwargs(tmp_path):
    plan = snippet(tmp_path, """
        from transformers import AutoModelForCausalLM
        m = AutoModelForCausalLM.from_pretrained("gpt2")
    """, "transformers==4.35.2\n")
    assert fact(plan, "model.attn_implementation").value == "eager"
    other = tmp_path / "v5"
    other.mkdir()
    plan = snippet(other, """
        from transformers import AutoModelForCausalLM
        m = AutoModelForCausalLM.from_pretrained("gpt2", load_in_4bit=True)
    """, "transformers>=5.0\n")
    assert any("removed in transformers 5.x" in n for n in plan.notes)


def test_activation_checkpointing_5x_name(tmp_path):
    plan = snippet(tmp_path, """
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", activation_checkpointing=True, torch_compile=True)
    """)
    assert fact(plan, "memory.gradient_checkpointing").value is True
    assert fact(plan, "compile.enabled", "code").value is True


def test_quiet_without_transformers(tmp_path):
    plan = snippet(tmp_path, "import torch\nx = torch.zeros(1)\n")
    assert all(f.adapter != "transformers" for name in plan.fields() for f in plan.facts(name))


def test_unresolvable_values_are_not_facts(tmp_path):
    plan = snippet(tmp_path, """
        import os
        from transformers import TrainingArguments
        args = TrainingArguments(output_dir="o", per_device_train_batch_size=int(os.environ["BS"]))
    """)
    assert "batch.micro" not in plan  # neither a fact nor the default the call overrides
    assert fact(plan, "batch.grad_accum").value == 1


def test_parse_flags_and_find_version(tmp_path):
    flags = parse_flags(["--bf16", "--optim=adamw_8bit", "--no_gradient_checkpointing", "--output_dir", "o",
                         "--per_device_train_batch_size", "2"])
    assert flags["bf16"] == ("true", "--bf16")
    assert flags["optim"][0] == "adamw_8bit"
    assert flags["gradient_checkpointing"][0] == "false"
    assert flags["per_device_train_batch_size"] == ("2", "--per_device_train_batch_size 2")
    sub = tmp_path / "src" / "job"
    sub.mkdir(parents=True)
    (tmp_path / "uv.lock").write_text('[[package]]\nname = "transformers"\nversion = "4.57.6"\n', encoding="utf-8")
    found = find_version("transformers", sub, tmp_path)
    assert found is not None and found.text == "4.57.6" and found.how == "pinned" and found.where == "uv.lock:3"
    assert find_version("trl", sub, tmp_path) is None


def test_yaml_file_with_subclassed_sftconfig(tmp_path):
    (tmp_path / "train.yaml").write_text(textwrap.dedent("""\
        output_dir: out
        per_device_train_batch_size: 2
        fp16: true
        max_length: 4096
        fsdp: [hybrid_shard, auto_wrap]
    """), encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import sys
        from dataclasses import dataclass
        from transformers import HfArgumentParser
        from trl import SFTConfig

        @dataclass
        class MyConfig(SFTConfig):
            note: str = ""

        parser = HfArgumentParser((MyConfig,))
        (cfg,) = parser.parse_yaml_file(sys.argv[1])
    """), encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("trl==0.23.0\n", encoding="utf-8")
    plan = audit(tmp_path, ["train.py"], ["train.yaml"])
    micro = fact(plan, "batch.micro", "config")
    assert (micro.value, micro.source.path, micro.source.line) == (2, "train.yaml", 2)
    assert fact(plan, "precision.mode", "config").value == "amp_fp16"
    assert fact(plan, "data.seq_len", "config").value == 4096
    assert fact(plan, "dist.sharding").value == "fsdp_hybrid"
    # SFTConfig defaults at the parser, lower than the file's values
    assert fact(plan, "data.seq_len", "default").value == 1024
    assert plan.value("data.seq_len") == 4096
    assert plan.value("memory.gradient_checkpointing") is True


def test_unpacked_kwargs_record_no_defaults(tmp_path):
    plan = snippet(tmp_path, """
        from transformers import TrainingArguments
        cfg = {"per_device_train_batch_size": 2}
        args = TrainingArguments(output_dir="o", **cfg)
    """)
    assert "batch.micro" not in plan and "batch.grad_accum" not in plan
    assert any("unpacking" in n for n in plan.notes)


@pytest.mark.parametrize("classes", ["TrainingArguments", "(TrainingArguments,)"])
def test_hfparser_with_a_bare_class_reads_the_json_file(tmp_path: Path, classes: str) -> None:
    (tmp_path / "args.json").write_text(json.dumps({"output_dir": "out", "per_device_train_batch_size": 3}))
    (tmp_path / "train.py").write_text(textwrap.dedent(f"""\
        import sys
        from transformers import HfArgumentParser, TrainingArguments
        parser = HfArgumentParser({classes})
        (args,) = parser.parse_json_file(sys.argv[1])
    """))
    plan = audit(tmp_path, ["train.py"], ["args.json"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and (micro.value, micro.source.path) == (3, "args.json")
