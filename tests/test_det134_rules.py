"""Branch det134: PF276 when the DataModule and its multi-process Trainer are in two files (the shape of
held-out-46's lightning-transformers issue 7 case), which the single-file rule examples cannot hold."""

from __future__ import annotations

import json
import textwrap

DATA = textwrap.dedent("""\
    import lightning as L
    from datasets import load_dataset, load_from_disk

    CACHE = "cache/imdb_tok"


    class TextData(L.LightningDataModule):
        def setup(self, stage=None):
            raw = load_dataset("imdb", cache_dir="cache/raw")
            tok = raw.map(self._tokenize, batched=True)
            tok.save_to_disk(CACHE)
            self.ds = load_from_disk(CACHE)
""")

FIXED = DATA.replace("    def setup(self, stage=None):\n", "    def prepare_data(self):\n").replace(
    "        self.ds = load_from_disk(CACHE)\n",
    "\n    def setup(self, stage=None):\n        self.ds = load_from_disk(CACHE)\n")

TRAIN = textwrap.dedent("""\
    import lightning as L

    from data import TextData


    def main():
        trainer = L.Trainer(accelerator="gpu", devices=8, strategy="ddp")
        trainer.fit(model, datamodule=TextData())
""")


def _findings(res) -> list[tuple[str, str, int]]:
    return [(f["code"], f["path"].rsplit("/", 1)[-1], f["line"]) for f in json.loads(res.out)["findings"]]


def test_save_in_setup_with_the_ddp_trainer_in_the_script_beside_it(cli, tmp_path):
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "data.py", "--select", "PF276", "--format", "json", "--no-cache")
    assert _findings(res) == [("PF276", "data.py", 11)]
    message = json.loads(res.out)["findings"][0]["message"]
    assert "train.py:7" in message and "prepare_data()" in message


def test_silent_when_fixed_single_device_or_the_script_does_not_use_the_class(cli, tmp_path):
    (tmp_path / "data.py").write_text(FIXED)
    (tmp_path / "train.py").write_text(TRAIN)
    res = cli("check", "data.py", "--select", "PF276", "--format", "json", "--no-cache")
    assert _findings(res) == []
    (tmp_path / "data.py").write_text(DATA)
    (tmp_path / "train.py").write_text(TRAIN.replace('devices=8, strategy="ddp"', "devices=1"))
    assert _findings(cli("check", "data.py", "--select", "PF276", "--format", "json", "--no-cache")) == []
    (tmp_path / "train.py").write_text(TRAIN.replace("TextData", "OtherData"))
    assert _findings(cli("check", "data.py", "--select", "PF276", "--format", "json", "--no-cache")) == []
