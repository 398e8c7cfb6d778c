"""``model.use_cache``: the KV cache a training forward returns (see
``preflight/estimate/held_outputs.py`` and ``adapters/_cache.py``).

FSDP activation checkpointing is torch's ``checkpoint_wrapper``: it leaves transformers'
``gradient_checkpointing`` flag off, so ``config.use_cache`` stays on and every step returns the
cache (llama-recipes PR #41/#165: about 4 GB for Llama-2-7B at 4 x 2,048 tokens). The adapters
write that as a default; an explicit ``use_cache=`` in the script wins; transformers' own
checkpointing writes nothing (the estimator's default already switches the cache off).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from preflight.audit import build_plan
from preflight.estimate import estimate, input_from_plan
from preflight.estimate.arch import from_hf_config

LLAMA2_7B = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096}

TRAIN = '''\
import torch
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", torch_dtype=torch.bfloat16{kw})
{extra}
args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True)
Trainer(model=model, args=args, train_dataset=None).train()
'''
FSDP_LAUNCH = ("accelerate launch --use_fsdp --num_processes 4 --fsdp_activation_checkpointing true "
               "train.py")


def _plan(tmp_path: Path, kw: str = "", extra: str = "", launch: str = FSDP_LAUNCH):
    (tmp_path / "train.py").write_text(TRAIN.format(kw=kw, extra=extra), encoding="utf-8")
    plan, _project = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=shlex.split(launch))
    return plan


def test_fsdp_activation_checkpointing_leaves_the_cache_on(tmp_path):
    plan = _plan(tmp_path)
    assert plan.value("memory.gradient_checkpointing") is True
    fact = plan.resolve("model.use_cache")
    assert fact is not None and fact.value is True
    assert fact.source.kind == "default" and fact.confidence == "medium"
    assert "checkpoint_wrapper" in (fact.source.detail or "")


def test_an_explicit_use_cache_wins(tmp_path):
    assert _plan(tmp_path, kw=", use_cache=False").value("model.use_cache") is False
    assert _plan(tmp_path, extra="model.config.use_cache = False").value("model.use_cache") is False


def test_transformers_checkpointing_writes_no_fact(tmp_path):
    plan = _plan(tmp_path, extra="model.gradient_checkpointing_enable()",
                 launch="accelerate launch --num_processes 4 train.py")
    assert plan.value("memory.gradient_checkpointing") is True
    assert plan.resolve("model.use_cache") is None
    # a True set back for generation after training is not read
    plan = _plan(tmp_path, extra="model.config.use_cache = True",
                 launch="accelerate launch --num_processes 4 train.py")
    assert plan.resolve("model.use_cache") is None


def test_the_estimate_charges_the_cache_from_the_plan(tmp_path):
    arch = from_hf_config(LLAMA2_7B, name="llama-2-7b")
    given = {"seq_len": 2048, "micro_batch": 4}
    on = input_from_plan(_plan(tmp_path), given, arch=arch)
    off = input_from_plan(_plan(tmp_path, kw=", use_cache=False"), given, arch=arch)
    assert on.use_cache is True and off.use_cache is False
    cache = 32 * 4 * 2048 * 2 * 4096 * 2
    assert estimate(on).phases["forward"]["held_outputs"] == cache
    assert not estimate(off).phases["forward"].get("held_outputs")


def test_an_fsdp_plan_or_override_reaches_the_estimate(tmp_path):
    """Regression: ``input_from_plan`` imported the plan's FSDP_MODES dict under the module's
    tuple name inside the function, so every FSDP plan failed validation ("unknown FSDP mode
    'full'") and an --fsdp override without a plan raised UnboundLocalError."""
    arch = from_hf_config(LLAMA2_7B, name="llama-2-7b")
    assert input_from_plan(_plan(tmp_path), {"seq_len": 2048}, arch=arch).fsdp == "full"
    assert input_from_plan(None, {"fsdp": "full", "seq_len": 2048}, arch=arch).fsdp == "full"
