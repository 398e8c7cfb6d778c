"""Vocabulary tables trained beside LoRA adapters (preflight/estimate/trained_embeddings.py):
PEFT's modules_to_save copy, and resize_token_embeddings after the adapter before
transformers 4.35 (which made the resized tables trainable: huggingface/transformers#26865)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import public_accuracy as pa

from preflight.estimate import estimate
from preflight.estimate.trained_embeddings import resize_keeps_frozen

#: artidoro/qlora's guanaco setup (qlora.py at 0fc40da) on Llama-2-7B's shapes under DDP
JOB = dict(mode="train", model="Llama-2-7B", precision="amp-bf16", optimizer="paged-adamw",
           micro_batch=2, grad_accum=16, seq_len=528, padding="max_length", grad_ckpt=True, attention="eager",
           world_size=2, quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False,
           lora_r=64, lora_targets=["all-linear"], lora_dropout=0.05, transformers_version="4.31.0",
           torch_version="2.0.1")
#: embed_tokens and the untied lm_head of Llama-2-7B: 32,000 x 4,096 each
TABLES = 2 * 32000 * 4096


def _est(**over):
    inp, unknown = pa.estimate_input(dict(JOB, **over))
    assert unknown == []
    return estimate(inp)


def test_resized_tables_add_their_gradients_buckets_and_paged_states():
    base, resized = _est(), _est(trained_embeddings="resized")
    f0, f1 = base.phases["forward"], resized.phases["forward"]
    # bf16 tables (kbit_prepared false): a 2-byte gradient per element, and DDP's bucket copy
    assert f1["gradients"] - f0["gradients"] == TABLES * 2
    assert f1["ddp_buckets"] - f0["ddp_buckets"] == TABLES * 2
    # no second copy of the weights: the model's own tables train
    assert f1["weights"] == f0["weights"]
    # bitsandbytes' 32-bit paged AdamW: two fp32 states per element, all in managed memory
    # (each table is far above the 1e5-element paging floor), so none in the allocator's phases
    assert resized.paged_bytes - base.paged_bytes == TABLES * 2 * 4
    assert f1.get("optimizer_states", 0) == f0.get("optimizer_states", 0)
    assert resized.params_trainable - base.params_trainable == TABLES
    assert any("resize_token_embeddings (transformers < 4.35)" in n for n in resized.notes)


def test_modules_to_save_trains_a_copy_with_torch_adamw_states():
    base, copy = _est(optimizer="adamw"), _est(optimizer="adamw", trained_embeddings="copy",
                                               transformers_version="4.45.0")
    f0, f1 = base.phases["forward"], copy.phases["forward"]
    assert f1["weights"] - f0["weights"] == TABLES * 2           # the trained bf16 copy
    assert f1["gradients"] - f0["gradients"] == TABLES * 2
    # torch's AdamW keeps zeros_like(param): two bf16 states per element, on the device
    assert f1["optimizer_states"] - f0["optimizer_states"] == TABLES * 2 * 2
    assert copy.paged_bytes == base.paged_bytes == 0


def test_resize_from_transformers_4_35_keeps_the_tables_frozen():
    assert resize_keeps_frozen("4.35.0") is True
    assert resize_keeps_frozen("4.34.1") is False
    assert resize_keeps_frozen(None) is None
    base = _est(transformers_version="4.35.0")
    kept = _est(transformers_version="4.35.0", trained_embeddings="resized")
    assert kept.phases == base.phases
    # an unknown version: estimated frozen, and the note says what would change it
    unknown = _est(transformers_version=None, trained_embeddings="resized")
    assert unknown.phases == _est(transformers_version=None).phases
    assert any("the version is unknown" in n for n in unknown.notes)


def test_full_fine_tunes_and_inference_are_unchanged():
    full = {k: v for k, v in JOB.items() if k not in ("quant", "quant_type", "double_quant",
                                                       "kbit_prepared", "lora_r", "lora_targets")}
    a = estimate(pa.estimate_input(dict(full, world_size=1))[0])
    b = estimate(pa.estimate_input(dict(full, world_size=1, trained_embeddings="copy"))[0])
    assert a.phases == b.phases
    infer = dict(JOB, mode="infer", world_size=1)
    assert (estimate(pa.estimate_input(infer)[0]).phases
            == estimate(pa.estimate_input(dict(infer, trained_embeddings="resized"))[0]).phases)


# -- the plan fact, read from the script ---------------------------------------------------------

QLORA_SHAPE = '''
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

def get_model():
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    model = prepare_model_for_kbit_training(model)
    return get_peft_model(model, LoraConfig(r=64))

def resize(tokenizer, model):
    tokenizer.add_special_tokens(dict(pad_token="[PAD]"))
    model.resize_token_embeddings(len(tokenizer))

def train():
    model = get_model()
    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    resize(tokenizer, model)
    Trainer(model=model, args=TrainingArguments(output_dir="o")).train()

train()
'''


def _plan(tmp_path, text):
    import textwrap

    from preflight.audit import build_plan

    (tmp_path / "train.py").write_text(textwrap.dedent(text), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [], root=tmp_path)
    return plan


def test_resize_after_the_adapter_is_read_as_resized(tmp_path):
    from preflight.estimate.inputs import input_from_plan

    plan = _plan(tmp_path, QLORA_SHAPE)
    fact = plan.resolve("peft.trained_embeddings")
    assert fact is not None and fact.value == "resized"
    assert fact.source.line == 12 and fact.confidence == "medium"
    assert input_from_plan(plan, {"seq_len": 8}).trained_embeddings == "resized"


def test_resize_before_the_adapter_says_nothing(tmp_path):
    # get_peft_model freezes everything but the adapters after the resize
    text = QLORA_SHAPE.replace("    model = get_model()\n    tokenizer = AutoTokenizer.from_pretrained(\"meta-llama/Llama-2-7b-hf\")\n    resize(tokenizer, model)\n",
                               "    tokenizer = AutoTokenizer.from_pretrained(\"meta-llama/Llama-2-7b-hf\")\n    resize(tokenizer, None)\n    model = get_model()\n")
    assert "resize(tokenizer, None)\n    model = get_model()" in text
    assert _plan(tmp_path, text).resolve("peft.trained_embeddings") is None


def test_modules_to_save_is_read_as_copy(tmp_path):
    plan = _plan(tmp_path, '''
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForCausalLM
        config = LoraConfig(r=8, modules_to_save=["embed_tokens", "lm_head"])
    ''')
    assert plan.value("peft.trained_embeddings") == "copy"
    # a classifier head is no vocabulary table
    plan = _plan(tmp_path, '''
        from peft import LoraConfig
        from transformers import AutoModelForSequenceClassification
        config = LoraConfig(r=8, modules_to_save=["classifier", "score"])
    ''')
    assert plan.resolve("peft.trained_embeddings") is None


def test_a_tied_head_gets_its_own_trained_copy():
    # Llama-3.2-1B ties lm_head to embed_tokens (128,256 x 2,048 stored once); PEFT deep-copies
    # each wrapped module, so modules_to_save trains two tables
    job = dict(JOB, model="Llama-3.2-1B", world_size=1, optimizer="adamw", quant=None,
               quant_type=None, double_quant=None, kbit_prepared=None, precision="bf16")
    job = {k: v for k, v in job.items() if v is not None}
    base = estimate(pa.estimate_input(job)[0])
    copy = estimate(pa.estimate_input(dict(job, trained_embeddings="copy"))[0])
    table = 128256 * 2048
    assert copy.phases["forward"]["weights"] - base.phases["forward"]["weights"] == 2 * table * 2
    assert copy.params_trainable - base.params_trainable == 2 * table


def test_the_remedy_freezes_the_resized_tables_and_saves_their_bytes():
    from preflight import hardware
    from preflight.estimate.remedy import remediate

    gpu = hardware.find("RTX-3090-24GB")
    inp = pa.estimate_input(dict(JOB, trained_embeddings="resized", optimizer="adamw"), gpu)[0]
    fixes = remediate(inp, gpu)
    freeze = [r for r in fixes if "freeze the resized embeddings" in r.description]
    assert len(freeze) == 1
    # the step with torch AdamW: each bf16 table element adds its gradient, DDP's bucket copy
    # and two bf16 states (8 bytes), plus foreach AdamW's sqrt(exp_avg_sq) temporary
    a = estimate(pa.estimate_input(dict(JOB, optimizer="adamw"))[0]).phases["optimizer"]
    b = estimate(inp).phases["optimizer"]
    for term, per in (("gradients", 2), ("ddp_buckets", 2), ("optimizer_states", 4)):
        assert b[term] - a[term] == TABLES * per
    assert b["optimizer_temporaries"] > a["optimizer_temporaries"]
    assert freeze[0].saved_bytes >= TABLES * 8
    assert freeze[0].new_peak_bytes == estimate(pa.estimate_input(
        dict(JOB, optimizer="adamw"), gpu)[0]).peak_bytes
    # never offered when the tables stay frozen (transformers 4.35+)
    kept = pa.estimate_input(dict(JOB, trained_embeddings="resized", optimizer="adamw",
                                  transformers_version="4.35.0"), gpu)[0]
    assert not [r for r in remediate(kept, gpu) if "freeze the resized" in r.description]


def test_the_cli_flag_sets_the_fact(capsys):
    import json

    from preflight.cli import main

    base = ["estimate", "--model", "Llama-2-7B", "--seq-len", "528", "--lora-r", "64",
            "--quant", "4bit", "--optimizer", "adamw", "--transformers-version", "4.31.0",
            "--format", "json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*base, "--trained-embeddings", "resized"]) == 0
    resized = json.loads(capsys.readouterr().out)
    # bf16 tables (4-bit base, no kbit preparation): 2-byte gradients in the optimizer step
    grads = resized["phases"]["optimizer"]["gradients"] - plain["phases"]["optimizer"]["gradients"]
    # (the catalog scales part counts to its published total: within a millionth)
    assert abs(grads - TABLES * 2) < TABLES * 2e-6
    assert any("resize_token_embeddings (transformers < 4.35)" in n for n in resized["notes"])
