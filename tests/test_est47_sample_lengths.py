"""Dynamic padding sized at the longest sample the data holds (est47, issue 17;
``preflight/estimate/sample_lengths.py``).

A job that pads each batch to its longest sample never runs a step longer than the longest sample
of its data. When that length is cited (a table of published per-dataset token statistics, for the
model's tokenizer) or stated, the step is sized at it instead of the length cap; a table length
lowers the point only (the interval's top keeps the cap), a stated one moves both. Anything
unknown keeps the cap."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from preflight import architectures  # type: ignore[attr-defined]
from preflight.estimate import EstimateInput, estimate
from preflight.estimate import sample_lengths as SL
from preflight.estimate.arch import from_hf_config

ALPACA_MIX = ("AI-ModelScope/alpaca-gpt4-data-zh#500", "AI-ModelScope/alpaca-gpt4-data-en#500",
              "swift/self-cognition#500")


def _catalog(name):
    entry = next(e for e in architectures.entries() if e["name"] == name)
    return from_hf_config(dict(entry["config"]), name=name, source="catalog")


QWEN = _catalog("Qwen2.5-7B")
LLAMA = _catalog("Llama-3.2-1B")


def _inp(**kw):
    base = dict(arch=QWEN, mode="train", precision="bf16", optimizer="adamw", micro_batch=1,
                seq_len=2048, grad_ckpt=True, attention="sdpa", loss="standard", padding="dynamic",
                lora_r=8, lora_targets=("all-linear",), lora_dropout=0.05, datasets=ALPACA_MIX)
    base.update(kw)
    return EstimateInput(**base)


def test_table_maxima_are_the_largest_figure_each_citation_gives():
    # every row's length is recomputed from the figures its source quotes ("..., max=N")
    for stat in SL.LENGTHS:
        quoted = [int(n) for n in re.findall(r"max=(\d+)", stat.source)]
        assert quoted and stat.max_tokens == max(quoted), stat.dataset


def test_lookup_by_id_alias_and_sample_suffix_for_the_tokenizer_family_only():
    assert SL.stat_for("AI-ModelScope/alpaca-gpt4-data-zh#500", "qwen").max_tokens == 856
    assert SL.stat_for("vicgalle/alpaca-gpt4", "qwen").max_tokens == 740
    assert SL.stat_for("yahma/alpaca-cleaned", "qwen").max_tokens == 1044
    assert SL.stat_for("alpaca-gpt4-data-en", "qwen") is None       # not an id the table knows
    assert SL.stat_for("vicgalle/alpaca-gpt4", "llama") is None
    assert SL.tokenizer_family(QWEN) == "qwen" and SL.tokenizer_family(LLAMA) is None
    # the mix's longest sample is its longest dataset's (alpaca-gpt4 zh: 856 tokens)
    assert SL.table_longest(ALPACA_MIX, QWEN)[0] == 856
    assert SL.table_longest((*ALPACA_MIX, "my-org/unknown"), QWEN) is None


def test_the_point_is_the_step_at_the_longest_sample_and_the_top_stays_at_the_cap():
    est = estimate(_inp())
    at_856 = estimate(_inp(seq_len=856, datasets=None))
    at_cap = estimate(_inp(datasets=None))
    assert est.peak_bytes == at_856.peak_bytes < at_cap.peak_bytes
    assert est.phases == at_856.phases
    assert est.interval_bytes[0] == at_856.interval_bytes[0]
    assert est.interval_bytes[1] == at_cap.interval_bytes[1]           # a table length: top at the cap
    assert est.reclaimable[2] == at_cap.reclaimable[2]                  # paired with that top
    assert any("856 tokens" in n and "Supported-models-datasets.md:581" in n for n in est.notes)


def test_a_stated_length_moves_the_whole_interval():
    est = estimate(_inp(datasets=None, longest_sample=600))
    at_600 = estimate(_inp(seq_len=600, datasets=None))
    assert est.peak_bytes == at_600.peak_bytes
    assert est.interval_bytes == at_600.interval_bytes


def test_the_cap_stays_without_a_shorter_cited_length():
    at_cap = estimate(_inp(datasets=None))
    for changes in (dict(padding="max_length"), dict(padding="packed"), dict(padding=None),
                    dict(arch=LLAMA), dict(datasets=(*ALPACA_MIX, "tatsu-lab/alpaca")),
                    dict(seq_len=512), dict(datasets=("cls-fudan-news-zh",), seq_len=8192),
                    dict(longest_sample=4096)):
        inp = _inp(**changes)
        reference = estimate(replace(inp, datasets=None, longest_sample=None))
        assert estimate(inp).peak_bytes == reference.peak_bytes, changes
    # under the cap of 512 the table's 856 is no shorter: unchanged
    assert estimate(_inp(seq_len=512)).peak_bytes == estimate(_inp(seq_len=512, datasets=None)).peak_bytes
    assert at_cap.peak_bytes > 0


def _plan(script: Path):
    from preflight.audit import build_plan

    return build_plan([script], [], root=script.parent, strict=True)[0]


def test_the_plan_fact_reaches_the_estimate(tmp_path: Path):
    from preflight.estimate.inputs import input_from_plan

    script = tmp_path / "train.py"
    script.write_text(
        "from datasets import load_dataset\n"
        "from transformers import AutoModelForCausalLM, DataCollatorForSeq2Seq, Trainer, TrainingArguments\n"
        "model = AutoModelForCausalLM.from_pretrained('Qwen/Qwen2.5-7B')\n"
        "ds = load_dataset('vicgalle/alpaca-gpt4', split='train')\n"
        "collator = DataCollatorForSeq2Seq(tokenizer=None, padding=True)\n"
        "args = TrainingArguments(output_dir='o', per_device_train_batch_size=1, bf16=True)\n"
        "Trainer(model=model, args=args, train_dataset=ds, data_collator=collator).train()\n",
        encoding="utf-8")
    plan = _plan(script)
    fact = plan.resolve("data.datasets")
    assert fact is not None and tuple(fact.value) == ("vicgalle/alpaca-gpt4",)
    assert fact.source.line == 4
    inp = input_from_plan(plan, {"seq_len": 2048}, arch=QWEN)
    assert inp.datasets == ("vicgalle/alpaca-gpt4",) and inp.padding == "dynamic"
    assert SL.at_longest_sample(inp)[0].seq_len == 740


def test_a_dataset_the_code_cannot_name_leaves_the_list_unwritten(tmp_path: Path):
    script = tmp_path / "train.py"
    script.write_text(
        "import sys\n"
        "from datasets import load_dataset\n"
        "a = load_dataset('vicgalle/alpaca-gpt4', split='train')\n"
        "b = load_dataset('json', data_files='mine.jsonl')\n"
        "c = load_dataset(sys.argv[1])\n", encoding="utf-8")
    assert _plan(script).resolve("data.datasets") is None


def test_the_cli_flag_states_the_length_and_rejects_a_non_positive_one(capsys):
    import json

    from preflight.cli import main

    base = ["estimate", "--model", "Qwen2.5-7B", "--seq-len", "2048", "--lora-r", "8",
            "--padding", "dynamic", "--format", "json"]
    assert main(base) == 0
    at_cap = json.loads(capsys.readouterr().out)
    assert main([*base, "--longest-sample", "600"]) == 0
    stated = json.loads(capsys.readouterr().out)
    assert main([*base, "--seq-len", "600"]) == 0
    at_600 = json.loads(capsys.readouterr().out)
    assert stated["peak_bytes"] == at_600["peak_bytes"] < at_cap["peak_bytes"]
    assert any("longest sample is 600 tokens (cli" in n for n in stated["notes"])
    assert main([*base, "--longest-sample", "0"]) != 0
    assert "longest sample must be at least 1 token" in capsys.readouterr().err


def _config_plan(path: Path):
    from preflight.audit import build_plan

    return build_plan([], [path], root=path.parent, strict=True)[0]


def test_axolotl_datasets_and_its_multiple_of_64_round_the_longest_sample_up(tmp_path: Path):
    from preflight.estimate.inputs import input_from_plan

    cfg = tmp_path / "qwen.yml"
    base = ("base_model: Qwen/Qwen2.5-7B\nadapter: lora\nlora_r: 8\nsequence_len: 2048\n"
            "micro_batch_size: 1\ngradient_checkpointing: true\nbf16: true\n")
    cfg.write_text(base + "datasets:\n  - path: yahma/alpaca-cleaned\n    type: alpaca\n", encoding="utf-8")
    plan = _config_plan(cfg)
    assert tuple(plan.resolve("data.datasets").value) == ("yahma/alpaca-cleaned",)
    assert plan.value("data.pad_to_multiple_of") == 64 and plan.value("data.padding") == "dynamic"
    inp = input_from_plan(plan, {}, arch=QWEN)
    short, stated, note = SL.at_longest_sample(inp)
    # alpaca-cleaned's longest sample, 1,044 tokens, padded up to 17 x 64 = 1,088
    assert short.seq_len == 1088 and not stated and "multiple of 64" in note
    # a local file among the datasets: the list is not whole, nothing is written
    cfg.write_text(base + "datasets:\n  - path: yahma/alpaca-cleaned\n    type: alpaca\n"
                   "  - path: data/mine.jsonl\n    ds_type: json\n    type: alpaca\n", encoding="utf-8")
    assert _config_plan(cfg).resolve("data.datasets") is None
    # packed rows are full length: no multiple, no dynamic padding
    cfg.write_text(base + "sample_packing: true\ndatasets:\n  - path: yahma/alpaca-cleaned\n", encoding="utf-8")
    packed = _config_plan(cfg)
    assert packed.resolve("data.pad_to_multiple_of") is None and packed.value("data.padding") == "packed"


def test_a_collators_literal_multiple_is_read(tmp_path: Path):
    script = tmp_path / "train.py"
    script.write_text(
        "from transformers import DataCollatorForSeq2Seq\n"
        "collator = DataCollatorForSeq2Seq(tokenizer=None, padding=True, pad_to_multiple_of=8)\n",
        encoding="utf-8")
    fact = _plan(script).resolve("data.pad_to_multiple_of")
    assert fact is not None and fact.value == 8 and fact.source.line == 2
    inp = _inp(pad_multiple=8, datasets=("vicgalle/alpaca-gpt4",))
    assert SL.at_longest_sample(inp)[0].seq_len == 744           # 740 rounded up to 8
