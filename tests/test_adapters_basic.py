from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any, Sequence

import pytest

from preflight.audit import build_plan, format_plan_text
from preflight.plan import TrainingPlan, load_plan
from preflight.registry import all_adapters

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "plan"


def audit(scripts: Sequence[str] = (), configs: Sequence[str] = (), argv: Sequence[str] = (),
          root: Path = FIXTURES) -> TrainingPlan:
    plan, project = build_plan([root / s for s in scripts], [root / c for c in configs], root=root,
                               argv=argv, strict=True)
    assert project.errors == []
    return plan


def snippet(tmp_path: Path, code: str, name: str = "train.py", argv: Sequence[str] = ()) -> TrainingPlan:
    (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    return audit([name], argv=argv, root=tmp_path)


def only(plan: TrainingPlan, field: str) -> Any:
    facts = plan.facts(field)
    assert len({repr(f.value) for f in facts}) == 1, facts
    return facts[0].value


def test_builtin_adapters_are_registered():
    adapters = all_adapters()
    assert {"pytorch", "deepspeed"} <= set(adapters)
    assert adapters["pytorch"].frameworks == ("pytorch",)


# -- raw PyTorch loop with argparse ------------------------------------------------------


def test_raw_loop_argparse_defaults():
    plan = audit(["raw_loop.py"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 32
    assert micro.source.kind == "code" and micro.source.path == "raw_loop.py"
    assert micro.source.line == 35 and micro.source.key == "--batch_size"  # the add_argument line
    assert "argparse default" in (micro.source.detail or "")
    assert plan.value("data.num_workers") == 4
    assert plan.value("data.pin_memory") is True
    assert plan.value("data.sampler") == "DistributedSampler"
    assert plan.value("dist.sharding") == "ddp"
    assert plan.value("optimizer.name") == "AdamW"
    assert plan.value("task.mode") == "train"
    assert plan.value("model.ref") == "Net"  # the outer local nn.Module, not Block
    # --bf16 not given: fp16 autocast (the dtype is chosen by the flag) and no torch.compile
    assert plan.value("precision.mode") == "amp_fp16"
    assert plan.value("compile.enabled") is False  # ``if args.compile:`` decided by the flag's default
    # save_checkpoint() is not gradient checkpointing (and nothing else names it: False, medium)
    assert plan.value("memory.gradient_checkpointing") is False
    # the validation loader (batch 256) is not the training batch
    assert only(plan, "batch.micro") == 32
    assert plan.value("framework.names") == ("pytorch",)


@pytest.mark.parametrize("argv", [
    ["--batch_size", "64", "--bf16", "--compile", "--num-workers=8"],
    ["--batch_size=64", "--bf16", "--compile", "--num-workers", "8"],
    ["--batch", "64", "--bf", "--comp", "--num-w", "8"],  # argparse accepts unique prefixes
    ["torchrun", "--nproc_per_node", "8", "raw_loop.py", "--batch_size", "64", "--bf16", "--compile",
     "--num-workers", "8"],
])
def test_raw_loop_argv_overrides(argv):
    plan = audit(["raw_loop.py"], argv=argv)
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 64 and micro.source.kind == "cli"
    assert micro.source.key == "--batch_size"
    assert "overrides the argparse default 32" in (micro.source.detail or "")
    assert only(plan, "batch.micro") == 64  # the overridden default is not kept as a rival fact
    assert plan.value("data.num_workers") == 8
    assert plan.value("precision.mode") == "amp_bf16"
    assert plan.value("compile.enabled") is True
    assert plan.conflicts() == {}


def test_argv_of_another_script_is_ignored():
    plan = audit(["raw_loop.py"], argv=["torchrun", "other.py", "--batch_size", "64"])
    assert plan.value("batch.micro") == 32


def test_literals_names_and_real_checkpoint_function(tmp_path):
    plan = snippet(tmp_path, """
        import torch
        from torch.utils.checkpoint import checkpoint
        from torch.utils.data import DataLoader
        BATCH = 16
        WORKERS = 2

        def forward(block, x):
            return checkpoint(block, x, use_reentrant=False)

        loader = DataLoader(ds, BATCH, shuffle=True, num_workers=WORKERS)
        model = torch.nn.Linear(4, 4).bfloat16()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
    """)
    assert plan.value("batch.micro") == 16
    assert plan.resolve("batch.micro").source.line == 5  # type: ignore[union-attr]
    assert plan.value("data.num_workers") == 2
    assert plan.value("data.sampler") == "RandomSampler"
    assert plan.value("memory.gradient_checkpointing") is True
    assert plan.value("optimizer.name") == "SGD"


def test_names_containing_checkpoint_are_not_gradient_checkpointing(tmp_path):
    plan = snippet(tmp_path, """
        import torch
        def checkpoint(model, path):
            torch.save(model.state_dict(), path)
        manager = CheckpointManager()
        manager.checkpoint(model)
        checkpoint(model, "a.pt")
        torch.save(model, "checkpoint.pt")
        loss.backward()
    """)
    assert "memory.gradient_checkpointing" not in plan


def test_ambiguous_values_are_not_guessed(tmp_path):
    plan = snippet(tmp_path, """
        import os
        import torch
        from torch.utils.data import DataLoader
        bs = 8
        if os.environ.get("BIG"):
            bs = 64
        loader = DataLoader(ds, batch_size=bs, num_workers=os.cpu_count())
        def build(batch_size):
            return DataLoader(ds, batch_size=batch_size)
    """)
    assert "batch.micro" not in plan
    # os.cpu_count() is not followed; only the second loader's default is known
    assert [(f.value, f.source.kind, f.source.line) for f in plan.facts("data.num_workers")] == [(0, "default", 10)]


def test_fsdp_wrapping_and_offload(tmp_path):
    plan = snippet(tmp_path, """
        import torch
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy, CPUOffload
        model = FSDP(model, sharding_strategy=ShardingStrategy.HYBRID_SHARD,
                     cpu_offload=CPUOffload(offload_params=True))
        model.gradient_checkpointing_enable()
    """)
    assert plan.value("dist.sharding") == "fsdp_hybrid"
    assert plan.value("dist.offload_params") == "cpu"
    assert plan.value("dist.offload_optimizer") == "cpu"
    assert plan.value("memory.gradient_checkpointing") is True


def test_guarded_calls_are_medium_confidence(tmp_path):
    plan = snippet(tmp_path, """
        import torch
        def setup(model, cfg):
            if cfg.use_gc:
                model.gradient_checkpointing_enable()
            if False:
                model = torch.compile(model)
    """)
    fact = plan.resolve("memory.gradient_checkpointing")
    assert fact is not None and fact.value is True and fact.confidence == "medium"
    off = plan.resolve("compile.enabled")  # the compile under `if False:` never runs: off, not on
    assert off is not None and off.value is False and off.confidence == "medium"


# -- Hugging Face loading idioms ----------------------------------------------------------


def test_qlora_snippet():
    plan = audit(["qlora.py"])
    assert plan.value("model.ref") == "meta-llama/Llama-2-7b-hf"
    assert plan.value("model.class_name") == "AutoModelForCausalLM"
    assert only(plan, "precision.weights_bits") == 4  # torch_dtype is the compute dtype here
    assert plan.value("task.mode") == "qlora"
    assert plan.value("peft.method") == "lora"
    assert plan.value("peft.rank") == 16
    assert plan.value("peft.target_modules") == ("q_proj", "k_proj", "v_proj", "o_proj")
    assert plan.value("model.attn_implementation") == "flash_attention_2"
    assert plan.value("memory.gradient_checkpointing") is True
    seq = plan.resolve("data.seq_len")
    assert seq is not None and seq.value == 1024 and seq.confidence == "high"
    assert plan.conflicts() == {}


def test_generation_script():
    plan = audit(["generate.py"])
    assert plan.value("task.mode") == "generation"
    assert plan.value("generation.max_new_tokens") == 256
    assert plan.value("generation.num_beams") == 4
    assert plan.value("generation.use_cache") is True
    assert plan.value("precision.mode") == "fp16"
    assert plan.value("precision.weights_bits") == 16


def test_load_in_8bit_dora_and_default_rank(tmp_path):
    plan = snippet(tmp_path, """
        from transformers import AutoModelForSeq2SeqLM
        from peft import LoraConfig, get_peft_model
        model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large", load_in_8bit=True)
        model = get_peft_model(model, LoraConfig(use_dora=True))
        loss = model(**batch).loss
        loss.backward()
    """)
    assert plan.value("precision.weights_bits") == 8
    assert plan.value("peft.method") == "dora"
    rank = plan.resolve("peft.rank")
    assert rank is not None and rank.value == 8 and rank.source.kind == "default"
    assert plan.value("task.mode") == "lora"


# -- DeepSpeed -------------------------------------------------------------------------------


def test_deepspeed_stage3_offload_and_batch_triple():
    plan = audit(configs=["ds_zero3.json"])
    stage = plan.resolve("dist.sharding")
    assert stage is not None and stage.value == "zero3"
    assert (stage.source.kind, stage.source.path, stage.source.line, stage.source.key) == (
        "config", "ds_zero3.json", 14, "zero_optimization.stage")
    offload = plan.resolve("dist.offload_params")
    assert offload is not None and offload.value == "nvme" and offload.source.line == 17
    assert offload.source.key == "zero_optimization.offload_param.device"
    assert plan.value("dist.offload_optimizer") == "cpu"
    assert plan.value("batch.micro") == 4
    assert plan.value("batch.grad_accum") == 2
    assert plan.value("batch.global") == 64
    world = plan.resolve("dist.world_size")
    assert world is not None and world.value == 8 and world.source.kind == "derived"
    assert plan.value("precision.mode") == "bf16"
    assert plan.value("optimizer.name") == "AdamW"
    assert plan.value("framework.names") == ("deepspeed",)


def test_script_and_deepspeed_disagree_on_the_batch():
    plan = audit(["ds_train.py"], ["ds_zero3.json"])
    facts = plan.facts("batch.micro")
    assert sorted(f.value for f in facts) == [4, 8]
    assert "batch.micro" in plan.conflicts()
    winner = plan.resolve("batch.micro")
    assert winner is not None and winner.value == 4 and winner.adapter == "deepspeed"
    assert plan.value("framework.names") == ("deepspeed", "pytorch", "transformers")  # ds_train.py imports transformers
    text = format_plan_text(plan)
    assert "! conflict" in text and "ds_zero3.json:3 [train_micro_batch_size_per_gpu]" in text
    assert "ds_train.py:7" in text


def test_deepspeed_auto_values_are_notes_not_facts():
    plan = audit(configs=["ds_auto.json"])
    for field in ("batch.micro", "batch.grad_accum", "batch.global", "dist.world_size", "precision.mode"):
        assert field not in plan, field
    assert plan.value("dist.sharding") == "zero2"
    assert plan.value("dist.offload_optimizer") == "cpu"
    notes = "\n".join(plan.notes)
    assert 'ds_auto.json:3: train_micro_batch_size_per_gpu is "auto"' in notes
    assert 'fp16.enabled is "auto"' in notes


def test_deepspeed_nested_in_yaml():
    plan = audit(configs=["ds_zero2.yaml"])
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 4
    assert (micro.source.line, micro.source.key) == (3, "deepspeed.train_micro_batch_size_per_gpu")
    assert plan.value("batch.grad_accum") == 8
    assert plan.value("precision.mode") == "fp16"
    assert plan.value("dist.sharding") == "zero2"
    assert "dist.world_size" not in plan  # train_batch_size not given


@pytest.mark.parametrize(("config", "expected"), [
    ({"train_batch_size": 32, "zero_optimization": True}, {"dist.sharding": "zero1"}),
    ({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2, "cpu_offload": True}},
     {"dist.sharding": "zero2", "dist.offload_optimizer": "cpu", "batch.grad_accum": 1}),
    ({"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
      "fp16": {"enabled": True}, "bf16": {"enabled": True}}, {"dist.world_size": None}),
    ({"train_micro_batch_size_per_gpu": 0, "zero_optimization": {"stage": 7}},
     {"batch.micro": None, "dist.sharding": None}),
])
def test_deepspeed_edge_cases(tmp_path, config, expected):
    (tmp_path / "ds.json").write_text(json.dumps(config, indent=2))
    plan = audit(configs=["ds.json"], root=tmp_path)
    for field, value in expected.items():
        if value is None:
            assert field not in plan, field
        else:
            assert plan.value(field) == value, field
    if "bf16" in config:
        assert "precision.mode" in plan.conflicts()  # fp16 and bf16 both enabled: both kept


def test_non_deepspeed_configs_are_ignored(tmp_path):
    (tmp_path / "accelerate.yaml").write_text("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n")
    (tmp_path / "hparams.toml").write_text("[train]\nbatch_size = 8\n")
    plan = audit(configs=["accelerate.yaml", "hparams.toml"], root=tmp_path)
    assert plan.fields() == []


# -- the audit as a whole ---------------------------------------------------------------------


def test_bad_inputs_become_errors_and_the_rest_goes_on(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    (tmp_path / "broken.json").write_text('{\n  "zero_optimization": {"stage": 3}\n  "x": 1\n}')
    (tmp_path / "notes.txt").write_text("hi")
    (tmp_path / "ds.json").write_text('{"zero_optimization": {"stage": 2}}')
    plan, project = build_plan([tmp_path / "broken.py", tmp_path / "missing.py"],
                               [tmp_path / "broken.json", tmp_path / "ds.json", tmp_path / "notes.txt",
                                tmp_path / "gone.yaml"], root=tmp_path, strict=True)
    rendered = [e.render() for e in project.errors]
    assert "broken.json:3:3: error: invalid JSON: Expecting ',' delimiter" in rendered
    assert any(r.startswith("broken.py:1:") and "syntax error" in r for r in rendered)
    assert "missing.py: error: no such file" in rendered
    assert "gone.yaml: error: no such file" in rendered
    assert any(r.startswith("notes.txt: error: not a config file") for r in rendered)
    assert plan.value("dist.sharding") == "zero2"
    assert [i.path for i in plan.inputs] == ["ds.json"]


def test_notebook_facts_point_at_cells(tmp_path):
    nb = {"cells": [{"cell_type": "markdown", "source": "# train"},
                    {"cell_type": "code", "source": ["import torch\n", "model.gradient_checkpointing_enable()\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    plan = audit(["nb.ipynb"], root=tmp_path)
    fact = plan.resolve("memory.gradient_checkpointing")
    assert fact is not None and fact.source.path == "nb.ipynb:cell 2" and fact.source.line == 2


def test_emitted_plan_validates_and_round_trips(tmp_path):
    plan = audit(["ds_train.py", "raw_loop.py"], ["ds_zero3.json", "ds_auto.json"], argv=["--batch_size", "48"])
    (tmp_path / "plan.json").write_text(plan.to_json())
    (tmp_path / "plan.yaml").write_text(plan.to_yaml())
    for name in ("plan.json", "plan.yaml"):
        loaded = load_plan(tmp_path / name)
        assert isinstance(loaded, TrainingPlan), loaded
        assert loaded.to_dict() == plan.to_dict()
    assert format_plan_text(loaded) == format_plan_text(plan)


def test_audit_output_is_deterministic():
    first = audit(["raw_loop.py", "qlora.py"], ["ds_zero3.json"]).to_json()
    second = audit(["raw_loop.py", "qlora.py"], ["ds_zero3.json"]).to_json()
    assert first == second


def test_amp_scaler_bnb_optimizer_and_compile(tmp_path):
    plan = snippet(tmp_path, """
        import bitsandbytes as bnb
        import torch
        from torch.cuda.amp import GradScaler, autocast
        from torchvision import transforms
        from transformers import AutoModel, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        model = AutoModel.from_pretrained("bert-base-uncased", use_flash_attention_2=True)
        model = torch.compile(model, mode="max-autotune")
        optimizer = bnb.optim.PagedAdamW8bit(model.parameters(), lr=1e-4)
        scaler = GradScaler()
        tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor()])
        for batch in loader:
            enc = tokenizer(batch["text"], truncation=True, max_length=384)
            with autocast():
                loss = model(**enc).loss
            scaler.scale(loss).backward()
            scaler.step(optimizer)
    """)
    assert plan.value("precision.mode") == "amp_fp16"
    assert only(plan, "precision.mode") == "amp_fp16"  # GradScaler adds nothing once autocast is known
    assert plan.value("optimizer.name") == "PagedAdamW8bit"
    assert plan.value("optimizer.state_dtype") == "int8"
    assert plan.value("compile.enabled") is True
    assert plan.value("model.attn_implementation") == "flash_attention_2"
    assert plan.value("model.ref") == "bert-base-uncased"
    assert plan.value("task.mode") == "finetune"
    assert plan.value("data.image_size") == 224
    seq = plan.resolve("data.seq_len")
    assert seq is not None and seq.value == 384 and seq.confidence == "medium"  # an upper bound


def test_half_model_inference_and_default_batch(tmp_path):
    plan = snippet(tmp_path, """
        import torch
        import torchvision
        from torch.utils.data import DataLoader
        model = torchvision.models.resnet50(weights="IMAGENET1K_V2").half().cuda()
        model.eval()
        loader = DataLoader(dataset)
        with torch.no_grad():
            for x in loader:
                model(x.half())
    """)
    assert plan.value("model.ref") == "resnet50"
    assert plan.value("task.mode") == "inference"
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 1 and micro.source.kind == "default"
    assert plan.value("data.sampler") == "SequentialSampler"


def test_plain_fp32_training_gets_the_pytorch_default(tmp_path):
    plan = snippet(tmp_path, """
        import torch.nn as nn
        import torch
        class MLP(nn.Module):
            def forward(self, x):
                return x
        model = MLP()
        opt = torch.optim.Adam(model.parameters())
        opt.step()
    """)
    mode = plan.resolve("precision.mode")
    assert mode is not None and mode.value == "fp32" and mode.source.kind == "default"
    assert plan.value("task.mode") == "train"


def test_submodule_eval_in_a_lightning_module_is_not_an_inference_job(tmp_path):
    # held-out-4 h4-pl-frozen-backbone-eval-undone-by-trainer: a frozen backbone's eval() in
    # __init__ and a no_grad forward made PF501 report "inference" against the Trainer's fit
    plan = snippet(tmp_path, """
        import pytorch_lightning as pl
        import torch
        import torchvision

        class Frozen(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.backbone = torchvision.models.resnet50(weights="IMAGENET1K_V2")
                self.backbone.eval()

            def forward(self, x):
                with torch.no_grad():
                    return self.backbone(x)

            def training_step(self, batch, batch_idx):
                return self(batch).sum()
    """)
    assert plan.value("task.mode") != "inference"


def test_submodule_eval_alone_is_not_an_inference_job(tmp_path):
    plan = snippet(tmp_path, """
        import torchvision

        class Wrapper:
            def __init__(self):
                self.model = torchvision.models.resnet50(weights="IMAGENET1K_V2")
                self.model.eval()
    """)
    assert plan.value("task.mode") != "inference"
