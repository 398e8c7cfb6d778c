"""Behaviours closed while reading the transformers family's misses of the bug benchmark (issue 18, branch
det18; the sets whose cases are named below are in-sample for these rules). The rules' own examples are
pinned by the meta-tests; these run ``preflight check`` the way a user does, on programs written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

CODES = ("PF484", "PF485", "PF486", "PF487", "PF488", "PF489", "PF494", "PF495", "PF496", "PF497", "PF498", "PF499")


def check(cli, tmp_path: Path, text: str) -> list[tuple[str, int]]:
    (tmp_path / "train.py").write_text(textwrap.dedent(text), encoding="utf-8")
    result = cli("check", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    doc = json.loads(result.out)
    return [(f["code"], f["line"]) for f in doc["findings"] if f["code"] in CODES]


ADDED_TOKENS = """\
    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")
    tokenizer.add_tokens(["<ent>", "</ent>"])
    model = AutoModelForTokenClassification.from_pretrained("bert-base-cased", num_labels=9)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    model.train()
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    """


def test_tokens_added_without_resizing_the_embeddings_are_flagged_at_the_model_load(cli, tmp_path):
    assert check(cli, tmp_path, ADDED_TOKENS) == [("PF484", 6)]


def test_resizing_after_the_load_is_quiet(cli, tmp_path):
    fixed = ADDED_TOKENS.replace(
        "    optimizer = torch", "    model.resize_token_embeddings(len(tokenizer))\n    optimizer = torch")
    assert check(cli, tmp_path, fixed) == []


PAD_ON_TOKENIZER = """\
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("mistralai/Mistral-7B-v0.1")
    tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForSequenceClassification.from_pretrained("mistralai/Mistral-7B-v0.1", num_labels=3)
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
    Trainer(model=model, args=args, train_dataset=ds).train()
    """


def test_a_decoder_classifier_whose_config_never_gets_the_pad_id_is_flagged(cli, tmp_path):
    assert check(cli, tmp_path, PAD_ON_TOKENIZER) == [("PF485", 5)]


def test_setting_the_config_pad_id_is_quiet(cli, tmp_path):
    fixed = PAD_ON_TOKENIZER.replace(
        "    args = ", "    model.config.pad_token_id = tokenizer.pad_token_id\n    args = ")
    assert check(cli, tmp_path, fixed) == []


EVAL_MODE_LOOP = """\
    import torch
    from transformers import AutoModelForSeq2SeqLM

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(2):
        for batch in loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """


def test_a_from_pretrained_model_trained_without_train_mode_is_flagged_at_its_forward(cli, tmp_path):
    assert check(cli, tmp_path, EVAL_MODE_LOOP) == [("PF487", 8)]


def test_train_mode_set_in_the_loop_is_quiet(cli, tmp_path):
    fixed = EVAL_MODE_LOOP.replace("    for epoch in range(2):\n", "    for epoch in range(2):\n        model.train()\n")
    assert check(cli, tmp_path, fixed) == []


PADDED_LABELS = """\
    def tokenize(batch, tokenizer):
        out = tokenizer(batch["text"], truncation=True, max_length=256, padding="max_length")
        out["labels"] = out["input_ids"].copy()
        return out
    """


def test_labels_copied_from_max_length_padding_are_flagged(cli, tmp_path):
    assert check(cli, tmp_path, PADDED_LABELS) == [("PF488", 3)]


def test_pads_masked_to_minus_100_are_quiet(cli, tmp_path):
    fixed = PADDED_LABELS.replace(
        "        return out",
        "        out[\"labels\"] = [[t if m else -100 for t, m in zip(ids, mask)]\n"
        "                         for ids, mask in zip(out[\"input_ids\"], out[\"attention_mask\"])]\n"
        "        return out")
    assert check(cli, tmp_path, fixed) == []


def test_a_raw_tokenizers_object_given_to_a_collator_is_flagged(cli, tmp_path):
    text = """\
        from tokenizers import Tokenizer
        from transformers import DataCollatorForLanguageModeling

        tok = Tokenizer.from_file("tokenizer.json")
        collator = DataCollatorForLanguageModeling(tok, mlm=True)
        """
    assert check(cli, tmp_path, text) == [("PF489", 5)]


def test_a_run_checkpoint_loaded_as_weights_without_resume_is_flagged_and_resume_is_quiet(cli, tmp_path):
    text = """\
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("out/checkpoint-1200")
        trainer = Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=ds)
        trainer.train()
        """
    assert check(cli, tmp_path, text) == [("PF495", 5)]
    resumed = text.replace('from_pretrained("out/checkpoint-1200")', 'from_pretrained("gpt2")').replace(
        "trainer.train()", 'trainer.train(resume_from_checkpoint="out/checkpoint-1200")')
    assert check(cli, tmp_path, resumed) == []


def test_compute_loss_reading_a_removed_column_is_flagged_at_the_arguments(cli, tmp_path):
    text = """\
        from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


        class WTrainer(Trainer):
            def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
                w = inputs.pop("weight")
                out = model(**inputs)
                return (out.loss * w).mean()


        model = AutoModelForSequenceClassification.from_pretrained("roberta-base", num_labels=3)
        args = TrainingArguments(output_dir="out")
        WTrainer(model=model, args=args, train_dataset=ds).train()
        """
    assert check(cli, tmp_path, text) == [("PF494", 12)]
    kept = text.replace('TrainingArguments(output_dir="out")',
                        'TrainingArguments(output_dir="out", remove_unused_columns=False)')
    assert check(cli, tmp_path, kept) == []


def test_a_base_checkpoint_head_left_at_two_labels_is_flagged(cli, tmp_path):
    text = """\
        from transformers import AutoModelForSequenceClassification, Trainer

        CLASSES = ["sports", "politics", "tech", "health"]
        model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased")
        Trainer(model=model, train_dataset=ds).train()
        """
    assert check(cli, tmp_path, text) == [("PF496", 4)]
    fixed = text.replace('"distilbert-base-uncased")', '"distilbert-base-uncased", num_labels=len(CLASSES))')
    assert check(cli, tmp_path, fixed) == []


def test_load_best_that_can_be_on_with_saving_off_is_flagged(cli, tmp_path):
    text = """\
        from transformers import TrainingArguments


        def make(eval_ds):
            return TrainingArguments(output_dir="out", eval_strategy="epoch" if eval_ds else "no",
                                     save_strategy="no", load_best_model_at_end=eval_ds is not None)
        """
    assert check(cli, tmp_path, text) == [("PF497", 6)]
    assert check(cli, tmp_path, text.replace('save_strategy="no"', 'save_strategy="epoch"')) == []


def test_a_trainer_override_preparing_a_distributed_sampler_loader_is_flagged(cli, tmp_path):
    text = """\
        from torch.utils.data import DataLoader
        from torch.utils.data.distributed import DistributedSampler
        from transformers import Trainer


        class T(Trainer):
            def get_train_dataloader(self):
                loader = DataLoader(self.train_dataset, batch_size=8, sampler=DistributedSampler(self.train_dataset))
                return self.accelerator.prepare(loader)
        """
    assert check(cli, tmp_path, text) == [("PF498", 8)]
    assert check(cli, tmp_path, text.replace("self.accelerator.prepare(loader)", "loader")) == []


def test_reentrant_checkpoint_over_a_loralib_frozen_model_is_flagged(cli, tmp_path):
    text = """\
        import loralib as lora
        import torch.utils.checkpoint as cp


        def run(model, ids):
            lora.mark_only_lora_as_trainable(model)
            h = model.emb(ids)
            return cp.checkpoint(model.block, h)
        """
    assert check(cli, tmp_path, text) == [("PF499", 8)]
    assert check(cli, tmp_path, text.replace("cp.checkpoint(model.block, h)",
                                             "cp.checkpoint(model.block, h, use_reentrant=False)")) == []
