"""jobs133 (in-sample for jobs set held-out-50): a Dataset class of a local module whose ``__getitem__`` pads
each sample with ``padding='max_length'`` gives ``data.padding`` max_length (adapters/dataset_pad.py).
Fixtures of our own rebuilding anttitapsa/TCR_transformer @ 3228e9f ``code/CDR3Dataset.py:39-40`` and
``code/train.py:33,131``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

DATASET = """\
    import torch


    class CDR3Dataset(torch.utils.data.Dataset):
        def __init__(self, labels, tokenizer):
            self.tokenizer = tokenizer
            self.labels = labels
            self.max_length = max(len(t.split()) for t in labels) + 3

        def __len__(self):
            return len(self.labels)

        def __getitem__(self, idx):
            tokenized = self.tokenizer(self.labels[idx], PADDING max_length=self.max_length, return_tensors="pt")
            return {"seq": tokenized["input_ids"][0]}
"""

TRAIN = """\
    import torch
    from torch.utils.data import DataLoader
    from transformers import AutoTokenizer, BertModel

    from CDR3Dataset import CDR3Dataset


    def train(train_set, batch_size=64):
        loader = DataLoader(train_set, shuffle=False, batch_size=batch_size LOADER)
        model = BertModel.from_pretrained("Rostlab/prot_bert_bfd")
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
        for batch in loader:
            loss = model(batch["seq"]).last_hidden_state.sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        tokenizer = AutoTokenizer.from_pretrained("Rostlab/prot_bert_bfd")
        train(CDR3Dataset(["A B C"], tokenizer), batch_size=320)
"""


def _plan(cli, tmp_path, padding: str = "padding='max_length',", loader: str = "", dataset: str = DATASET):
    write(tmp_path, {"code/CDR3Dataset.py": dataset.replace("PADDING", padding),
                     "code/train.py": TRAIN.replace(" LOADER", loader)})
    return plan_of(cli, "train.py", cwd=tmp_path / "code")


def test_local_dataset_padding_to_max_length(cli, tmp_path):
    padding = fact(_plan(cli, tmp_path), "data.padding")
    assert padding.value == "max_length"
    assert padding.confidence == "medium"
    assert padding.source.path.endswith("CDR3Dataset.py") and padding.source.line == 14


def test_legacy_pad_to_max_length(cli, tmp_path):
    assert fact(_plan(cli, tmp_path, padding="pad_to_max_length=True,"), "data.padding").value == "max_length"


def test_twin_longest_padding_is_not_max_length(cli, tmp_path):
    padding = fact(_plan(cli, tmp_path, padding="padding=True,"), "data.padding")
    assert padding is None or padding.value != "max_length"


def test_twin_a_collate_fn_may_recut_the_rows(cli, tmp_path):
    padding = fact(_plan(cli, tmp_path, loader=", collate_fn=lambda b: b"), "data.padding")
    assert padding is None


def test_twin_padding_under_an_if_is_not_decided(cli, tmp_path):
    guarded = DATASET.replace(
        "            tokenized = self.tokenizer(self.labels[idx], PADDING",
        "            if self.labels:\n"
        "                tokenized = self.tokenizer(self.labels[idx], PADDING")
    guarded = guarded.replace('            return {"seq"', '            else:\n'
                              '                tokenized = self.tokenizer(self.labels[idx])\n'
                              '            return {"seq"')
    assert fact(_plan(cli, tmp_path, dataset=guarded), "data.padding") is None


def test_twin_class_imported_but_not_built_says_nothing(cli, tmp_path):
    write(tmp_path, {"code/CDR3Dataset.py": DATASET.replace("PADDING", "padding='max_length',"),
                     "code/train.py": TRAIN.replace(" LOADER", "").replace("train(CDR3Dataset([\"A B C\"], tokenizer)",
                                                                           "train([1, 2, 3]")})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path / "code"), "data.padding") is None
