"""The issue's remediation rules, over a grid of jobs: a suggestion never asks for what the job
already does (no flag that restates the job's own setting), never saves less than 1% of the
peak, and the cheapest target "as configured" keeps the job's world size."""

from __future__ import annotations

import itertools

import pytest

from preflight import hardware
from preflight.estimate import EstimateInput, cheapest_targets, estimate, remediate
from preflight.estimate.arch import from_hf_config

LLAMA3_8B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
             "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": False}

#: flag -> (input field, the value the flag sets)
_FLAG_FIELDS = {"--attention": ("attention", str), "--precision": ("precision", str),
                "--optimizer": ("optimizer", str), "--loss": ("loss", str),
                "--batch-size": ("micro_batch", int), "--zero": ("zero_stage", int),
                "--fsdp": ("fsdp", str), "--offload-optimizer": ("offload_optimizer", str),
                "--offload-params": ("offload_params", str), "--quant": ("quant", str),
                "--num-beams": ("num_beams", int), "--world-size": ("world_size", int),
                "--transformers-version": ("transformers_version", str),
                "--deepspeed-version": ("deepspeed_version", str)}

JOBS = [dict(zip(("precision", "lora_r", "grad_ckpt", "world_size", "zero_stage",
                  "offload_optimizer", "offload_params", "micro_batch", "attention"), combo))
        for combo in itertools.product(("bf16", "amp-bf16", "fp32"), (None, 16), (False, True),
                                       (1, 8), (0, 3), (None, "cpu"), (None, "cpu"), (1, 4),
                                       ("sdpa", "eager"))
        if not (combo[6] and combo[4] < 3) and not (combo[4] and combo[3] == 1 and not combo[5])]


GENERATE = [dict(mode="generate", max_new_tokens=256, num_beams=b, quant=q, world_size=w,
                 micro_batch=m)
            for b, q, w, m in itertools.product((1, 4), (None, "4bit"), (1, 2), (1, 8))]


def _inp(**kw):
    base = dict(arch=from_hf_config(LLAMA3_8B, name="llama3-8b"), seq_len=4096,
                transformers_version="4.44")
    base.update(kw)
    return EstimateInput(**base)


def _restates(inp, flag):
    name, _, value = flag.partition(" ")
    if name == "--grad-ckpt":
        return inp.grad_ckpt
    if name == "--lora-r":
        return bool(inp.lora_r)
    if name not in _FLAG_FIELDS:
        return False
    field, cast = _FLAG_FIELDS[name]
    return getattr(inp, field) == cast(value)


@pytest.mark.parametrize("job", JOBS[::3] + GENERATE)
def test_no_suggestion_restates_the_job_or_saves_under_one_percent(job):
    inp = _inp(**job)
    base = estimate(inp).peak_bytes
    for r in remediate(inp, hardware.find("A10G-24GB")):
        assert r.saved_bytes >= 0.01 * base, (job, r.changes)
        for flag in r.flags:
            assert not _restates(inp, flag), (job, r.changes, flag)


@pytest.mark.parametrize("world", (1, 2, 8))
def test_the_cheapest_instance_as_configured_keeps_the_world_size(world):
    inp = _inp(world_size=world, zero_stage=3 if world > 1 else 0, lora_r=16)
    _, inst = cheapest_targets(inp)
    assert inst is not None and inst.count >= world


def test_a_job_offloading_its_optimizer_is_told_only_to_offload_parameters():
    inp = _inp(zero_stage=3, offload_optimizer="cpu", world_size=8)
    r = [r for r in remediate(inp, hardware.find("A10G-24GB")) if "--offload-params cpu" in r.flags]
    assert r and r[0].flags == ["--offload-params cpu"]
    assert "optimizer" not in r[0].changes[0]


#: est17: the same rules over the settings the first grid leaves fixed: FSDP, 4-bit bases,
#: the loss implementation, the optimizer, the transformers version, kept outputs
MORE_JOBS = [dict(zip(("fsdp", "quant", "loss", "optimizer", "transformers_version", "keeps_outputs",
                       "world_size", "lora_r"), combo))
             for combo in itertools.product((None, "full"), (None, "4bit"), ("standard", "chunked", "fused"),
                                            ("adamw", "adamw-8bit", "paged-adamw-8bit", "sgd"),
                                            ("4.47", "4.50"), (False, True), (1, 4), (None, 16))
             if not (combo[0] and combo[6] == 1) and not (combo[1] and not combo[7])]


@pytest.mark.parametrize("job", MORE_JOBS[::7])
def test_more_settings_no_restatement_no_small_saving(job):
    inp = _inp(**job)
    base = estimate(inp).peak_bytes
    for r in remediate(inp, hardware.find("A10G-24GB")):
        assert r.saved_bytes >= 0.01 * base, (job, r.changes)
        for flag in r.flags:
            assert not _restates(inp, flag), (job, r.changes, flag)
        if job["fsdp"]:
            # an FSDP job is never told to shard with ZeRO or FSDP again
            assert not any(f.startswith(("--zero", "--fsdp")) for f in r.flags), (job, r.changes)


@pytest.mark.parametrize("world,fsdp", ((2, "full"), (4, "full"), (8, None)))
def test_the_cheapest_instance_keeps_the_world_size_of_sharded_jobs(world, fsdp):
    inp = _inp(world_size=world, fsdp=fsdp, zero_stage=0 if fsdp else 3, micro_batch=2)
    _, inst = cheapest_targets(inp)
    assert inst is None or inst.count >= world
