"""A length option handed to a truncating tokenizer call (adapters/cliargs_truncation.py). Fixtures of our own
copying the shape of OpenLMLab/LOMO @ 45d4bac (lomo/src/arguments.py:13-41, lomo/src/train_lomo.py:18-19,33,
lomo/src/mydatasets.py:60, lomo/config/args_lomo.yaml:8): must-read case and silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

ARGS = """\
    from dataclasses import dataclass, field
    from typing import Optional

    from transformers import Seq2SeqTrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="llama-7B")


    @dataclass
    class DataArguments:
        dataset_name: str = field(default="openbookqa")
        data_max_length: int = field(default=1024)


    @dataclass
    class MyTrainingArguments(Seq2SeqTrainingArguments):
        max_length: int = field(default=20, metadata={"help": "The maximum length of the sequence to be generated."})
"""

TRAIN = """\
    import sys

    from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser

    from arguments import DataArguments, ModelArguments, MyTrainingArguments
    from mydatasets import MyDataset


    def train():
        parser = HfArgumentParser((ModelArguments, DataArguments, MyTrainingArguments))
        model_args, data_args, training_args = parser.parse_yaml_file(yaml_file=sys.argv[1])
        tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path)
        model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        train_dataset = MyDataset(data_args, tokenizer, "train")
        model.train()


    if __name__ == "__main__":
        train()
"""

DATASETS = """\
    from torch.utils.data import Dataset


    class MyDataset(Dataset):
        def __init__(self, data_args, tokenizer, split):
            self.data_args = data_args
            self.tokenizer = tokenizer
            self.data = [self.tokenize(x) for x in ["a", "b"]]

        def tokenize(self, example):
            ids = self.tokenizer.encode(example, truncation=True, max_length=self.data_args.data_max_length)
            return ids + [self.tokenizer.eos_token_id]
"""

YAML = """\
    model_name_or_path: /models/llama_hf/7B
    dataset_name: wic
    data_max_length: 768
    output_dir: out
    per_device_train_batch_size: 16
"""


def _plan(cli, tmp_path, datasets=DATASETS):
    write(tmp_path, {"src/arguments.py": ARGS, "src/train_lomo.py": TRAIN, "src/mydatasets.py": datasets,
                     "config/args_lomo.yaml": YAML})
    return plan_of(cli, "src/train_lomo.py", "--", "config/args_lomo.yaml", cwd=tmp_path)


def test_option_handed_to_a_truncating_tokenizer_is_the_seq_len(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "data.seq_len")
    assert got is not None and got.value == 768 and got.confidence == "low"


def test_without_truncation_nothing_is_said(cli, tmp_path):
    """Silent twin: max_length without truncation=True (a padding length, say): not read."""
    got = fact(_plan(cli, tmp_path, DATASETS.replace("truncation=True, ", "")), "data.seq_len")
    assert got is None or got.value != 768


def test_two_options_cut_two_parts_nothing_is_said(cli, tmp_path):
    """Silent twin: another truncating call with another option (a question's own cap): which is the
    sequence's is not known."""
    datasets = DATASETS.replace(
        "            return ids",
        "            q = self.tokenizer.encode(example, truncation=True, max_length=self.data_args.dataset_name)\n"
        "            return ids")
    got = fact(_plan(cli, tmp_path, datasets), "data.seq_len")
    assert got is None or got.value != 768
