"""The table of library-release defects (PF384 code features, PF385 config features): every entry is
well formed, has a must-fire example that reports it (release, fix and source in the message) and
twins that stay silent; the range's ends decide, and an unpinned or lower-bound project is silent."""

from __future__ import annotations

import re
import textwrap

import pytest

from preflight.diagnostics import Severity
from preflight.plan_rules import example_findings
from preflight.rules.plan import _pf384_examples as code_examples
from preflight.rules.plan import _pf385_examples as config_examples
from preflight.rules.plan._release_common import SEVERITIES
from preflight.rules.plan._release_config_features import CONFIG_FEATURES
from preflight.rules.plan._release_defects import DEFECTS, Defect
from preflight.rules.plan._release_features import CODE_FEATURES

_BY_KEY = {d.key: d for d in DEFECTS}
_PIN = re.compile(r"^((?:transformers|accelerate|peft|trl|pytorch-lightning|lightning|deepspeed|hydra-core))"
                  r"==(\S+)$", re.M)


def _keys(findings) -> list[str]:
    return [m.group(1) for f in findings for m in [re.search(r"release defect `([^`]+)`", f.message)] if m]


def _rule(defect: Defect) -> str:
    return "PF384" if defect.kind == "code" else "PF385"


def _bad() -> list[tuple[str, str]]:
    return [("PF384", e) for e in code_examples.BAD_EXAMPLES] + [("PF385", e) for e in config_examples.BAD_EXAMPLES]


def _version(parts: tuple[int, ...]) -> str:
    return ".".join(map(str, parts + (0,) * (3 - len(parts))))


def test_the_table_is_well_formed():
    assert len(DEFECTS) >= 20
    assert len({d.key for d in DEFECTS}) == len(DEFECTS)
    for d in DEFECTS:
        assert d.ranges and all(low < high for low, high in d.ranges), d.key
        assert all(a[1] <= b[0] for a, b in zip(d.ranges, d.ranges[1:])), d.key
        fixed = tuple(int(p) for p in d.fixed.split("."))
        assert d.ranges[-1][1] == fixed[: len(d.ranges[-1][1])] or d.ranges[-1][1] == fixed, d.key
        assert d.source.startswith("https://github.com/"), d.key
        assert d.read and d.effect and d.remedy
        assert d.severity in SEVERITIES
        features = CODE_FEATURES if d.kind == "code" else CONFIG_FEATURES
        assert d.feature in features, d.key


@pytest.mark.parametrize("rule,example", _bad(), ids=[f"{r}-{i}" for i, (r, _) in enumerate(_bad())])
def test_a_bad_example_names_release_fix_and_source(rule, example):
    found = [f for f in example_findings(rule, example) if f.code == rule]
    assert len(found) == 1, [f.message for f in found]
    key = _keys(found)[0]
    defect = _BY_KEY[key]
    pin = _PIN.search(example)
    assert pin is not None
    message = found[0].message
    assert f"{pin.group(1)} {pin.group(2)} (pinned, requirements.txt:" in message
    assert f"fixed in {defect.package if defect.package != 'lightning' else 'lightning'} {defect.fixed}" in message
    assert defect.source in message
    assert found[0].severity == SEVERITIES[defect.severity]


def test_every_entry_has_a_must_fire_example_except_the_notes():
    fired = {key for rule, example in _bad() for key in _keys(example_findings(rule, example))}
    expected = {d.key for d in DEFECTS if d.severity != "note"}
    assert fired == expected


def _repin(example: str, version: str) -> str:
    return _PIN.sub(lambda m: f"{m.group(1)}=={version}", example, count=1)


@pytest.mark.parametrize("rule,example", _bad(), ids=[f"{r}-{i}" for i, (r, _) in enumerate(_bad())])
def test_the_range_ends_decide(rule, example):
    """The same project pinned at the first fixed release is silent; pinned at the range's first
    release (when the range has one) it is reported."""
    key = _keys(example_findings(rule, example))[0]
    defect = _BY_KEY[key]
    assert key not in _keys(example_findings(rule, _repin(example, defect.fixed)))
    low = defect.ranges[0][0]
    if low != (0,):
        assert key in _keys(example_findings(rule, _repin(example, _version(low))))


@pytest.mark.parametrize("rule,example", _bad(), ids=[f"{r}-{i}" for i, (r, _) in enumerate(_bad())])
def test_no_pin_or_a_lower_bound_is_silent(rule, example):
    unpinned = _PIN.sub(lambda m: m.group(1), example, count=1)
    bound = _PIN.sub(lambda m: f"{m.group(1)}>={m.group(2)}", example, count=1)
    assert not [f for f in example_findings(rule, unpinned) if f.code == rule]
    assert not [f for f in example_findings(rule, bound) if f.code == rule]


_GA_MEAN = textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments

    from data import encoded

    tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")
    model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps={ga},
                             learning_rate=2e-5)
    Trainer(model=model, args=args, train_dataset=encoded(tokenizer),
            data_collator=DataCollatorForSeq2Seq(tokenizer, padding=True)).{train}
    # --- requirements.txt
    transformers=={version}
    # --- launch
    python train.py
""")


def test_the_mean_of_means_loss_before_4_46_is_a_note_at_the_training_arguments():
    found = example_findings("PF384", _GA_MEAN.format(ga=8, version="4.28.1", train="train()"))
    notes = [f for f in found if f.code == "PF384"]
    assert _keys(notes) == ["transformers-ga-mean-of-means"]
    assert notes[0].severity == Severity.NOTE and notes[0].span.line == 7
    assert "gradient_accumulation_steps=8" in notes[0].message and "4.46.0" in notes[0].message


@pytest.mark.parametrize("ga,version", [(1, "4.28.1"), (8, "4.46.0"), (8, "4.48.0")])
def test_the_mean_of_means_note_needs_accumulation_before_4_46(ga, version):
    found = example_findings("PF384", _GA_MEAN.format(ga=ga, version=version, train="train()"))
    assert "transformers-ga-mean-of-means" not in _keys(found)


def test_a_compute_loss_of_its_own_turns_the_trainer_entries_off():
    custom = _GA_MEAN.format(ga=8, version="4.28.1", train="train()").replace(
        "from data import encoded", "from data import encoded\n\n\ndef compute_loss(model, inputs):\n"
        "    return model(**inputs).loss")
    assert not _keys(example_findings("PF384", custom))


_HF_OFFLOAD = textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    from data import encoded

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1b")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, gradient_accumulation_steps={ga},
                             bf16=True, deepspeed="ds_offload.json")
    Trainer(model=model, args=args, train_dataset=encoded()).train()
    # --- ds_offload.json
    {{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
     "zero_optimization": {{"stage": 2, "offload_optimizer": {{"device": "cpu"}}}},
     "bf16": {{"enabled": "auto"}}, "gradient_clipping": "auto"}}
    # --- requirements.txt
    transformers==4.44.2
    deepspeed==0.15.1
    # --- launch
    deepspeed --num_gpus 2 train.py
""")


@pytest.mark.parametrize("ga,reported", [(8, True), (1, False)])
def test_an_auto_accumulation_in_a_deepspeed_config_is_the_training_arguments_value(ga, reported):
    found = [f for f in example_findings("PF385", _HF_OFFLOAD.format(ga=ga)) if f.code == "PF385"]
    assert ("deepspeed-offload-accumulation" in _keys(found)) is reported
    if reported:
        assert "gradient_accumulation_steps=8" in found[0].message and found[0].span.line == 2


def test_a_lightning_trainer_is_not_the_transformers_trainer():
    """A LightningModule around a Hugging Face causal LM, accumulating in Lightning: no Trainer entry."""
    example = textwrap.dedent("""
        # --- train.py
        import pytorch_lightning as pl
        from transformers import AutoModelForCausalLM

        from data import TextData


        class LM(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.model = AutoModelForCausalLM.from_pretrained("gpt2")

            def training_step(self, batch, batch_idx):
                return self.model(**batch).loss


        pl.Trainer(max_epochs=1, accumulate_grad_batches=8).fit(LM(), datamodule=TextData())
        # --- requirements.txt
        transformers==4.45.2
        # --- launch
        python train.py
    """)
    assert not _keys(example_findings("PF384", example))
    as_hf = example.replace("import pytorch_lightning as pl\n", "import pytorch_lightning as pl\nfrom transformers "
                            "import Trainer, TrainingArguments\n").replace(
        "pl.Trainer(max_epochs=1, accumulate_grad_batches=8).fit(LM(), datamodule=TextData())",
        "Trainer(model=LM().model, args=TrainingArguments(output_dir='o', gradient_accumulation_steps=8)).train()")
    assert _keys(example_findings("PF384", as_hf)) == ["transformers-ga-mean-of-means"]


def test_the_mean_of_means_note_is_silent_on_fixed_length_blocks():
    """run_clm's group_texts (michael-wzhu/PromptCBLUE run_clm_pt_with_peft.py, GA 16 on 4.28.1): every
    micro-batch holds block_size tokens, so the mean of the means is the token mean."""
    grouped = _GA_MEAN.format(ga=16, version="4.28.1", train="train()").replace(
        "from data import encoded", "from data import encoded, group_texts")
    assert not _keys(example_findings("PF384", grouped))


def test_the_fixed_shuffle_order_of_accelerate_0_30_to_1_5_is_a_note_at_the_loader():
    """accelerate PR 3459: on several processes the sampler gets torch.Generator() with its fixed seed."""
    seeded = code_examples._ACC_SHUFFLE.format(seed_import="from accelerate.utils import set_seed\n",
                                                seed="set_seed(42)", pin="", version="1.5.2")
    found = [f for f in example_findings("PF384", seeded) if f.code == "PF384"]
    assert _keys(found) == ["accelerate-shuffle-seed-ignored"]
    assert found[0].severity == Severity.NOTE and found[0].span.line == 12
    assert "accelerate 1.5.2 (pinned" in found[0].message and "fixed in accelerate 1.6.0" in found[0].message
    assert not _keys(example_findings("PF384", seeded.replace("accelerate==1.5.2", "accelerate==1.6.0")))
    own = seeded.replace("shuffle=True)", "shuffle=True, generator=torch.Generator().manual_seed(42))")
    assert not _keys(example_findings("PF384", own))
    single = seeded.replace("--multi_gpu --num_processes 4 ", "")
    assert not _keys(example_findings("PF384", single))
