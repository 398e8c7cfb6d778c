"""A tokenizer's ``model_max_length`` as the sequence length when the project pads every sample to it
(adapters/hydra_reads.py through the value flow; adapters/config_object_arms.py
``pads_to_model_max_length``). Fixture of our own copying a real shape, with silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# baaivision/Emu3 @ f6ea9aaa44bd4ae5d7a048300cf0a16a863b0cae: emu3/train/train.py:33-40,54-80
# (a TrainingArguments subclass with max_position_embeddings; Emu3Tokenizer.from_pretrained(...,
# model_max_length=training_args.max_position_embeddings)), emu3/train/datasets.py:44-48
# (self.tokenizer(input, padding="max_length", return_tensors="pt")); scripts/t2i_sft.sh:27.
EMU3 = {
    "emu3/train/train.py": """\
        from dataclasses import dataclass, field
        from typing import Optional

        import transformers as tf
        from emu3.mllm import Emu3Tokenizer
        from emu3.train.datasets import Emu3FeatureDataset


        @dataclass
        class ModelArguments:
            model_name_or_path: Optional[str] = field(default="BAAI/Emu3-Stage1")


        @dataclass
        class TrainingArguments(tf.TrainingArguments):
            max_position_embeddings: Optional[int] = field(default=None)


        def train():
            parser = tf.HfArgumentParser((ModelArguments, TrainingArguments))
            model_args, training_args = parser.parse_args_into_dataclasses()
            tokenizer = Emu3Tokenizer.from_pretrained(
                model_args.model_name_or_path,
                model_max_length=training_args.max_position_embeddings,
                padding_side="right",
            )
            train_dataset = Emu3FeatureDataset(tokenizer=tokenizer)
            trainer = tf.Trainer(model=None, args=training_args, train_dataset=train_dataset)
            trainer.train()


        if __name__ == "__main__":
            train()
    """,
    "emu3/__init__.py": "",
    "emu3/mllm/__init__.py": """\
        class Emu3Tokenizer:
            pass
    """,
    "emu3/train/__init__.py": "",
    "emu3/train/datasets.py": """\
        import torch


        class Emu3FeatureDataset(torch.utils.data.Dataset):
            def __init__(self, tokenizer):
                self.tokenizer = tokenizer

            def __getitem__(self, index):
                sample = self.tokenizer("text", padding="max_length", return_tensors="pt")
                return sample
    """,
}
LINE = ["--", "--output_dir", "out", "--max_position_embeddings", "10240", "--per_device_train_batch_size", "2"]


def test_model_max_length_with_padding_to_it_is_the_sequence_length(cli, tmp_path):
    write(tmp_path, EMU3)
    plan = plan_of(cli, "emu3/train/train.py", *LINE, cwd=tmp_path)
    seq = ours(plan, "data.seq_len")
    assert seq is not None and seq.value == 10240 and seq.source.kind == "cli"


def test_padding_to_the_longest_says_nothing(cli, tmp_path):
    """Silent twin: samples padded to the longest in the batch: the tokenizer's limit is only a cap."""
    files = dict(EMU3)
    files["emu3/train/datasets.py"] = files["emu3/train/datasets.py"].replace('padding="max_length"',
                                                                              'padding="longest"')
    write(tmp_path, files)
    plan = plan_of(cli, "emu3/train/train.py", *LINE, cwd=tmp_path)
    assert ours(plan, "data.seq_len") is None


def test_padding_to_an_explicit_length_says_nothing_here(cli, tmp_path):
    """Silent twin: ``padding="max_length", max_length=512``: the explicit length is not this reading's."""
    files = dict(EMU3)
    files["emu3/train/datasets.py"] = files["emu3/train/datasets.py"].replace('padding="max_length"',
                                                                              'padding="max_length", max_length=512')
    write(tmp_path, files)
    plan = plan_of(cli, "emu3/train/train.py", *LINE, cwd=tmp_path)
    seq = ours(plan, "data.seq_len")
    assert seq is None or seq.value != 10240
