"""Cached blocks of other sequence lengths (``preflight/estimate/length_cache.py``), recomputed by
hand: under dynamic padding reserved memory holds a multiple of the step's length-dependent
tensors above the allocated peak (est23: ``LENGTH_SPREAD``, for data of unknown lengths;
est10's ``LENGTH_CACHE_RATIO`` for its one known dataset is checked below); allocated is unchanged, and the verdict
leaves the cache out (the allocator releases it before an OOM). The ratio comes from
``calibration/data/variable_length.json`` (the allocator simulator's runs), checked here."""

from __future__ import annotations

import json
import statistics
import textwrap
from pathlib import Path

import hardware
from preflight.audit import build_plan
from preflight.estimate import EstimateInput, estimate
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.inputs import input_from_plan
from preflight.estimate.length_cache import LENGTH_TERMS
from preflight.estimate.remedy import verdict

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "variable_length.json"
QWEN_7B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 32, "vocab_size": 151936, "max_position_embeddings": 8192,
           "rms_norm_eps": 1e-6, "tie_word_embeddings": False}
GIB = 2 ** 30


def _inp(**kw):
    base = dict(arch=from_hf_config(QWEN_7B, name="qwen-7b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=2048, grad_ckpt=True, attention="flash",
                lora_r=8, lora_targets=("q_proj", "k_proj", "v_proj"), torch_version="2.1.1",
                gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def test_the_term_by_hand():
    fixed = estimate(_inp(padding="max_length"))
    dynamic = estimate(_inp(padding="dynamic"))
    assert "length_cache" not in fixed.breakdown and fixed.reclaimable == (0, 0, 0)
    step = max(sum(v for t, v in terms.items() if t in LENGTH_TERMS) for terms in fixed.phases.values())
    assert step > 2 * GIB          # checkpoint recomputation, logits and loss of 2,048 tokens
    _low, median, high = C.LENGTH_SPREAD[("shuffled", "native")]   # unknown order and allocator (est23)
    want = step * median
    assert abs(dynamic.breakdown["length_cache"] - want) <= 1
    # every other term is the same: only reserved memory grows
    for term, value in fixed.breakdown.items():
        assert dynamic.breakdown[term] == value, term
    assert abs(dynamic.peak_bytes - fixed.peak_bytes - want) <= 2
    assert dynamic.tensor_peak() == fixed.tensor_peak()
    assert dynamic.allocated_peak() == fixed.allocated_peak()
    lo, _point, hi = dynamic.reclaimable
    assert lo == 0
    # est39: the part left in segments still in use is counted by the verdict (not reclaimable)
    assert abs(hi - step * (high - max(C.LENGTH_CACHE_KEPT[2], 0.0))) <= 1
    assert any("dynamic padding" in n for n in dynamic.notes)


def test_unknown_padding_and_inference_have_no_cache():
    assert "length_cache" not in estimate(_inp()).breakdown
    assert "length_cache" not in estimate(_inp(mode="inference", padding="dynamic",
                                                lora_r=None)).breakdown


def test_the_verdict_leaves_the_cache_out():
    """A job that fits at its longest length still fits: the cache is released before an OOM."""
    gpu = hardware.find("a100-80gb")
    for seq in (2048, 8192):
        fixed = estimate(_inp(seq_len=seq, padding="max_length"))
        dynamic = estimate(_inp(seq_len=seq, padding="dynamic"))
        assert verdict(dynamic, gpu) == verdict(fixed, gpu)
    small = hardware.find("rtx-4090")
    fixed = estimate(_inp(seq_len=4096, padding="max_length"))
    dynamic = estimate(_inp(seq_len=4096, padding="dynamic"))
    assert dynamic.peak_bytes > small.memory_bytes > fixed.peak_bytes - 6 * GIB
    assert verdict(dynamic, small) == verdict(fixed, small)


def test_the_constants_are_the_simulators_runs():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    ratios = [r["ratio"] for r in doc["ratios"]]
    assert len(ratios) == 28
    for r in doc["ratios"]:   # the estimator describes the simulated step within 1%
        assert abs(r["estimator_tensor_peak_gib"] / r["simulated_allocated_gib"] - 1) < 0.01
    assert round(statistics.median(ratios), 1) == C.LENGTH_CACHE_RATIO
    assert (round(min(ratios), 1), round(max(ratios), 1)) == C.LENGTH_CACHE_RANGE


def test_the_adapter_reads_the_padding(tmp_path):
    code = """
        from transformers import AutoTokenizer
        tokenizer = AutoTokenizer.from_pretrained("gpt2")
        for batch in loader:
            enc = tokenizer(batch["text"], truncation=True, max_length=512, padding={})
    """
    for padding, want in (('"max_length"', "max_length"), ("True", "dynamic"), ('"longest"', "dynamic")):
        script = tmp_path / f"train_{want}.py"
        script.write_text(textwrap.dedent(code.format(padding)), encoding="utf-8")
        plan, _ = build_plan([script], [], root=tmp_path)
        fact = plan.resolve("data.padding")
        assert fact is not None and fact.value == want, padding
        assert fact.source.line == 5
        assert input_from_plan(plan).padding == want
    silent = tmp_path / "train_none.py"
    silent.write_text(textwrap.dedent(code.replace(", padding={}", "")), encoding="utf-8")
    assert build_plan([silent], [], root=tmp_path)[0].resolve("data.padding") is None


def test_the_adapter_reads_a_padding_collator(tmp_path):
    code = """
        from transformers import AutoTokenizer, DataCollatorForSeq2Seq, DataCollatorWithPadding
        tokenizer = AutoTokenizer.from_pretrained("gpt2")
        collator = {}
    """
    cases = (("DataCollatorWithPadding(tokenizer)", "dynamic"),
             ("DataCollatorForSeq2Seq(tokenizer, padding='longest')", "dynamic"),
             ("DataCollatorForSeq2Seq(tokenizer, padding='max_length', max_length=512)", "max_length"))
    for i, (call, want) in enumerate(cases):
        script = tmp_path / f"collate_{i}.py"
        script.write_text(textwrap.dedent(code.format(call)), encoding="utf-8")
        plan, _ = build_plan([script], [], root=tmp_path)
        fact = plan.resolve("data.padding")
        assert fact is not None and fact.value == want, call
        assert fact.source.line == 4
    # silent twins: the language-modeling collator (grouped equal blocks) and padding=False
    for i, call in enumerate(("DataCollatorForLanguageModeling(tokenizer, mlm=False)",
                              "DataCollatorWithPadding(tokenizer, padding=False)")):
        script = tmp_path / f"silent_{i}.py"
        script.write_text(textwrap.dedent(code.format(call)), encoding="utf-8")
        assert build_plan([script], [], root=tmp_path)[0].resolve("data.padding") is None, call


def test_the_text_report_says_what_the_verdict_leaves_out():
    from preflight.estimate.report import estimate_text

    gpu = hardware.find("a100-80gb")
    est = estimate(_inp(padding="dynamic"))
    text = estimate_text(_inp(padding="dynamic"), est, target=gpu, verdict=verdict(est, gpu))
    assert "cached blocks of other batch lengths" in text
    fixed = estimate(_inp(padding="max_length"))
    assert "cached blocks" not in estimate_text(_inp(padding="max_length"), fixed, target=gpu,
                                                verdict=verdict(fixed, gpu))
