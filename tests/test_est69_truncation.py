"""est69: ``data.truncation`` (cut / drop) read from the code and the recipe configs, and what the estimate does with
it. Every must-read example is the shape of a real repository (cited at its commit); the twins stay unknown."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from plan_helpers import fact, plan_of

HEAD = """\
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments
    tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
    model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    """
TAIL = """\
    args = TrainingArguments(output_dir="o", per_device_train_batch_size=2, bf16=True)
    Trainer(model=model, args=args, train_dataset=data, data_collator=DataCollatorForSeq2Seq(tokenizer, padding=True)).train()
    """


def _build(tmp_path: Path, body: str, extra: dict[str, str] | None = None):
    from preflight.audit import build_plan

    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(HEAD) + textwrap.dedent(body) + textwrap.dedent(TAIL), encoding="utf-8")
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return build_plan([script], [], root=tmp_path, strict=True)[0]


def _line(body: str, needle: str) -> int:
    """The line of ``needle`` in train.py (HEAD has 4 lines)."""
    lines = textwrap.dedent(body).splitlines()
    return 4 + next(i for i, text in enumerate(lines, 1) if needle in text)


# (real repository and line, body, value, the text on the reported line)
MUST_READ = [
    # tloen/alpaca-lora finetune.py:129-135 at 8bb8579e (tokenize(): truncation=True, max_length=cutoff_len)
    ("alpaca-lora", """\
        cutoff_len = 256
        def tokenize(prompt):
            result = tokenizer(
                prompt,
                truncation=True,
                max_length=cutoff_len,
                padding=False,
                return_tensors=None,
            )
            return result
        data = load_dataset("json", data_files="alpaca_data.json")["train"].map(lambda x: tokenize(x["text"]))
        """, "cut", "result = tokenizer("),
    # tatsu-lab/stanford_alpaca train.py:88-96 at 761dc5b (_tokenize_fn: padding="longest", truncation=True)
    ("stanford_alpaca", """\
        def _tokenize_fn(strings, tokenizer):
            return [
                tokenizer(
                    text,
                    return_tensors="pt",
                    padding="longest",
                    max_length=tokenizer.model_max_length,
                    truncation=True,
                )
                for text in strings
            ]
        data = _tokenize_fn(["a", "b"], tokenizer)
        """, "cut", "        tokenizer("),
    # hquzhuguofeng/LLM-RoadMap 02-NLP_tasks/13-chatbot.ipynb (process_func: input_ids[:MAX_LENGTH])
    ("LLM-RoadMap", """\
        MAX_LENGTH = 1024
        def process_func(example):
            input_ids = tokenizer(example["instruction"])["input_ids"] + [tokenizer.eos_token_id]
            if len(input_ids) > MAX_LENGTH:
                input_ids = input_ids[:MAX_LENGTH]
            return {"input_ids": input_ids}
        data = load_dataset("json", data_files="a.json")["train"].map(process_func)
        """, "cut", "input_ids = input_ids[:MAX_LENGTH]"),
    # shibing624/MedicalGPT training/supervised_finetuning.py:551-554 (source_ids[:max_source_len])
    ("MedicalGPT", """\
        max_length = 512
        def preprocess(dialog):
            source_ids = tokenizer.encode(text=dialog[0])
            target_ids = tokenizer.encode(text=dialog[1])
            max_source_len = int(max_length * 0.5)
            if len(source_ids) > max_source_len:
                source_ids = source_ids[:max_source_len]
            if len(target_ids) > max_source_len - 1:
                target_ids = target_ids[:max_source_len - 1]
            if len(target_ids) > 0 and target_ids[-1] == tokenizer.eos_token_id:
                target_ids = target_ids[:-1]
            return source_ids + target_ids
        data = load_dataset("json", data_files="a.json")["train"].map(preprocess)
        """, "cut", "source_ids = source_ids[:max_source_len]"),
    # LianjiaTech/BELLE train/src/entry_point/ppo_train.py:175 (ds.filter(lambda x: len(x["input_ids"]) <= input_length))
    ("BELLE", """\
        input_length = 512
        def preprocess_function(examples):
            return {"input_ids": [tokenizer(t, add_special_tokens=False)["input_ids"] for t in examples["text"]]}
        data = load_dataset("json", data_files="a.json")["train"].map(preprocess_function, batched=True)
        data = data.filter(lambda x: len(x["input_ids"]) <= input_length)
        """, "drop", "data = data.filter("),
    # FlagOpen/FlagEmbedding research/Long_LLM/longllm_qlora/src/data.py:73-76 (if len(...) > max_length: continue)
    ("FlagEmbedding longllm_qlora", """\
        max_length = 4096
        rows = []
        for source in load_dataset("json", data_files="a.json")["train"]:
            encoded = tokenizer(source["text"])
            if len(encoded["input_ids"]) > max_length:
                continue
            rows.append(encoded)
        data = rows
        """, "drop", "if len(encoded"),
    # huggingface/nanoVLM data/advanced_datasets.py:127-128 (>= self.max_sample_length: continue)
    ("nanoVLM", """\
        class Packed:
            def __init__(self, ds, max_sample_length):
                self.ds, self.max_sample_length = ds, max_sample_length
            def __iter__(self):
                for sample in self.ds:
                    if len(sample["input_ids"]) >= self.max_sample_length:
                        continue  # skip overly long samples
                    yield sample
        data = Packed(load_dataset("json", data_files="a.json")["train"], 2048)
        """, "drop", "if len(sample"),
    # databrickslabs/dolly training/trainer.py:81-85 and :171 at e2d664d: the tokenizer cuts to max_length, then
    # every record that reached it is filtered out ("Make sure we don't have any truncated records")
    ("dolly", """\
        max_length = 1024
        def preprocess_batch(batch, tokenizer, max_length):
            return tokenizer(
                batch["text"],
                max_length=max_length,
                truncation=True,
            )
        data = load_dataset("databricks/databricks-dolly-15k")["train"].map(
            lambda b: preprocess_batch(b, tokenizer, max_length), batched=True)
        data = data.filter(lambda rec: len(rec["input_ids"]) < max_length)
        """, "drop", "data = data.filter("),
    # ymcui/Chinese-LLaMA-Alpaca-2 scripts/training/build_dataset.py:46 at 2a334d16 (a tensor sliced, named input_ids)
    ("Chinese-LLaMA-Alpaca-2", """\
        import torch
        max_seq_length = 512
        def tokenization(sources, targets):
            all_input_ids = []
            for s, t in zip(sources, targets):
                input_ids = torch.LongTensor(s + t)[:max_seq_length]
                all_input_ids.append(input_ids)
            return all_input_ids
        data = load_dataset("json", data_files="a.json")["train"]
        """, "cut", "input_ids = torch.LongTensor"),
    # a comprehension that keeps the short samples (our own example: no real-code instance found in /work/.mirror)
    ("comprehension", """\
        max_len = 2048
        rows = [tokenizer(t)["input_ids"] for t in open("a.txt")]
        data = [ids for ids in rows if len(ids) <= max_len]
        """, "drop", "data = [ids"),
]


@pytest.mark.parametrize("name,body,value,needle", MUST_READ, ids=[c[0] for c in MUST_READ])
def test_the_truncation_is_read_with_its_line(tmp_path: Path, name: str, body: str, value: str, needle: str):
    plan = _build(tmp_path, body)
    found = plan.resolve("data.truncation")
    assert found is not None, name
    assert found.value == value
    assert found.source.path == "train.py" and found.source.line == _line(body, needle)
    assert found.confidence == "medium"


def test_a_collator_in_a_local_module_cuts(tmp_path: Path):
    """yangjianxin1/Firefly component/collator.py:34 (``input_ids[:self.max_seq_length]`` in the collator the
    script imports): the fact names the module and its line."""
    collator = """\
        class SFTDataCollator:
            def __init__(self, tokenizer, max_seq_length):
                self.tokenizer, self.max_seq_length = tokenizer, max_seq_length
            def __call__(self, batch):
                out = []
                for x in batch:
                    input_ids = x["input_ids"]
                    # truncate
                    input_ids = input_ids[:self.max_seq_length]
                    out.append(input_ids)
                return out
        """
    body = """\
        from collator import SFTDataCollator
        data = load_dataset("json", data_files="a.json")["train"]
        """
    plan = _build(tmp_path, body, {"collator.py": collator})
    found = plan.resolve("data.truncation")
    assert found is not None and found.value == "cut"
    assert found.source.path == "collator.py" and found.source.line == 9


TWINS = [
    # nothing over any cap: tokenized without truncation, no filter
    ("no cap", """\
        data = load_dataset("json", data_files="a.json")["train"].map(lambda x: tokenizer(x["text"]))
        """),
    # truncation=False said out loud
    ("truncation False", """\
        data = load_dataset("json", data_files="a.json")["train"].map(
            lambda x: tokenizer(x["text"], truncation=False, max_length=512))
        """),
    # empty rows removed: a length test against 0 is not a cap
    ("empty rows", """\
        data = load_dataset("json", data_files="a.json")["train"].filter(lambda x: len(x["text"]) > 0)
        """),
    # a lower bound skipped (FlagEmbedding's min_length line), images counted (nanoVLM's second test)
    ("min length and images", """\
        min_length, max_images = 32, 4
        rows = []
        for sample in load_dataset("json", data_files="a.json")["train"]:
            if len(sample["input_ids"]) < min_length:
                continue
            if len(sample["images"]) > max_images:
                continue
            rows.append(sample)
        data = rows
        """),
    # the loss shift and a generation crop are no cap of the data
    ("shift and crop", """\
        import torch
        data = load_dataset("json", data_files="a.json")["train"]
        def shift(input_ids, logits, max_new_tokens):
            labels = input_ids[:, 1:]
            out = input_ids[:-1]
            return labels, out, logits[..., :-1, :], input_ids[:max_new_tokens]
        """),
    # LianjiaTech/BELLE ppo_train.py:160-175 as written: the query is cut to model_max_length (truncation=True,
    # no max_length) and then filtered on another bound: which one decides is not read
    ("BELLE as written", """\
        input_length = 512
        def preprocess_function(examples):
            return {"input_ids": [tokenizer(t, add_special_tokens=False, truncation=True)["input_ids"]
                                  for t in examples["text"]]}
        data = load_dataset("json", data_files="a.json")["train"].map(preprocess_function, batched=True)
        data = data.filter(lambda x: len(x["input_ids"]) <= input_length)
        """),
    # an inference pipeline truncates, the training data does not say
    ("pipeline", """\
        from transformers import pipeline
        judge = pipeline("text-classification", truncation=True)
        data = load_dataset("json", data_files="a.json")["train"]
        """),
]


@pytest.mark.parametrize("name,body", TWINS, ids=[c[0] for c in TWINS])
def test_twins_stay_unknown(tmp_path: Path, name: str, body: str):
    plan = _build(tmp_path, body)
    assert plan.resolve("data.truncation") is None, name


def test_both_shapes_without_one_bound_leave_a_note(tmp_path: Path):
    plan = _build(tmp_path, TWINS[5][1])
    assert any("data.truncation not said" in note and "train.py:" in note for note in plan.notes)


# --- recipe configs (the launch line a user types)

AXOLOTL = """\
    base_model: NousResearch/Llama-3.2-1B
    adapter: lora
    sequence_len: 2048
    micro_batch_size: 2
    """


def test_axolotl_drops_by_default_and_cuts_when_told(cli, tmp_path: Path):
    """axolotl drops samples over sequence_len (excess_length_strategy default 'drop',
    src/axolotl/utils/data/utils.py:334 at 067b021c); 'truncate' cuts them."""
    (tmp_path / "a.yml").write_text(textwrap.dedent(AXOLOTL))
    got = fact(plan_of(cli, "--", "axolotl", "train", "a.yml", cwd=tmp_path), "data.truncation")
    assert got is not None and got.value == "drop"
    assert got.source.path == "a.yml" and got.source.line == 3 and got.source.key == "sequence_len"
    (tmp_path / "b.yml").write_text(textwrap.dedent(AXOLOTL) + "excess_length_strategy: truncate\n")
    got = fact(plan_of(cli, "--", "axolotl", "train", "b.yml", cwd=tmp_path), "data.truncation")
    assert got is not None and got.value == "cut" and got.source.line == 5
    (tmp_path / "c.yml").write_text(textwrap.dedent(AXOLOTL) + "excess_length_strategy: raise\n")
    assert fact(plan_of(cli, "--", "axolotl", "train", "c.yml", cwd=tmp_path), "data.truncation") is None


def test_llamafactory_cutoff_len_cuts(cli, tmp_path: Path):
    """LLaMA-Factory cuts source and target to cutoff_len (infer_seqlen, processor_utils.py:76-86 at ff6d4d12)."""
    (tmp_path / "sft.yaml").write_text(textwrap.dedent("""\
        model_name_or_path: Qwen/Qwen2.5-0.5B
        stage: sft
        finetuning_type: lora
        cutoff_len: 1024
        per_device_train_batch_size: 2
        """))
    got = fact(plan_of(cli, "--", "llamafactory-cli", "train", "sft.yaml", cwd=tmp_path), "data.truncation")
    assert got is not None and got.value == "cut" and got.source.line == 4


def test_trl_sft_config_cuts(tmp_path: Path):
    """TRL's SFTTrainer cuts each sample to max_seq_length (v0.7.4 sft_trainer.py:352 truncation=True;
    v0.19.0 :789-792 truncate_dataset)."""
    from preflight.audit import build_plan

    script = tmp_path / "sft.py"
    script.write_text(textwrap.dedent("""\
        from trl import SFTConfig, SFTTrainer
        args = SFTConfig(output_dir="o", max_seq_length=512)
        SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=args, train_dataset=None).train()
        """), encoding="utf-8")
    got = build_plan([script], [], root=tmp_path, strict=True)[0].resolve("data.truncation")
    assert got is not None and got.value == "cut" and got.source.line == 2
    script.write_text(script.read_text().replace("max_seq_length=512", "max_seq_length=512, packing=True"))
    assert build_plan([script], [], root=tmp_path, strict=True)[0].resolve("data.truncation") is None


# --- the estimate reads the plan


def test_the_estimate_takes_the_plans_truncation(tmp_path: Path):
    """cut -> est67's cut runs, drop -> the dropped runs: the length cache at the plan's value equals the
    estimate given --truncation by hand, and differs from the unknown one (shuffled, native)."""
    from dataclasses import replace

    from preflight.estimate import estimate
    from preflight.estimate.inputs import input_from_plan

    plan = _build(tmp_path, MUST_READ[0][1])
    inp = input_from_plan(plan, {"seq_len": 2048})
    assert inp.truncation == "truncate" and inp.padding == "dynamic"
    assert inp.sources["truncation"].startswith("train.py:")
    by_hand = estimate(replace(inp, truncation="truncate"))
    unknown = estimate(replace(inp, truncation=None))
    dropped = estimate(replace(inp, truncation="delete"))
    got = estimate(inp)
    assert got.breakdown["length_cache"] == by_hand.breakdown["length_cache"]
    assert got.breakdown["length_cache"] < unknown.breakdown["length_cache"] < dropped.breakdown["length_cache"]
    assert any("samples over the cap cut" in note for note in got.notes)
    # `preflight estimate --truncation delete` wins over the plan
    flag = input_from_plan(plan, {"seq_len": 2048, "truncation": "delete"})
    assert flag.truncation == "delete" and flag.sources["truncation"] == "cli"


# --- the rows est69 corrected from their sources' own words (in-sample)

def _rows(name: str) -> list[dict]:
    import json

    data = json.loads((Path(__file__).resolve().parent.parent / "calibration" / "public" / name).read_text())
    return data["rows"] if isinstance(data, dict) else data


def test_chatglm_finetuning_rows_are_padded_to_1560():
    """utils.DataCollator at 79bdc89 pads every batch to max(its longest, 1560) and every sample is at most
    --max_len 1560: each step is 1,560 tokens, so no cache of other lengths is charged."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import public_accuracy as PA

    from preflight.estimate import estimate

    rows = [r for r in _rows("heldout20.json") if r["id"].startswith("chatglm-finetuning-")]
    assert len(rows) == 11
    for row in rows:
        assert row["setup"]["padding"] == "max_length" and row["setup"]["seq_len"] == 1560
        inp, _ = PA.estimate_input(row["setup"])
        assert estimate(inp).breakdown.get("length_cache", 0) == 0
    dynamic, _ = PA.estimate_input(dict(rows[0]["setup"], padding="dynamic"))
    assert estimate(dynamic).breakdown.get("length_cache", 0) > 0


def test_liger_hf_rows_cut_at_512():
    """Liger-Kernel examples/huggingface at 1129508: SFTTrainer(max_seq_length=512) tokenizes with truncation=True."""
    rows = [r for r in _rows("heldout13.json") if r["id"].startswith("liger-kernel-hf-trainer-example/")]
    assert len(rows) == 8 and all(r["setup"]["truncation"] == "truncate" for r in rows)


def test_trl_parser_sft_script_cuts_unless_it_packs(cli, tmp_path: Path):
    """huggingface/trl trl/scripts/sft.py's shape (TrlParser over SFTConfig): max_length 1024 by default, each sample
    cut to it; with --packing the rows are packed and nothing is said."""
    (tmp_path / "sft.py").write_text(textwrap.dedent("""\
        from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser

        parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
        script_args, training_args, model_args = parser.parse_args_and_config()
        SFTTrainer(model=model_args.model_name_or_path, args=training_args).train()
        """))
    plan = plan_of(cli, "sft.py", "--", "--model_name_or_path", "Qwen/Qwen2-0.5B", "--max_length", "2048",
                   cwd=tmp_path)
    got = fact(plan, "data.truncation")
    assert got is not None and got.value == "cut" and got.source.key == "--max_length"
    plan = plan_of(cli, "sft.py", "--", "--model_name_or_path", "Qwen/Qwen2-0.5B", "--packing", cwd=tmp_path)
    assert fact(plan, "data.truncation") is None
