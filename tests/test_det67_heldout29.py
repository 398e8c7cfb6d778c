"""det67: held-out-29's false twin flags (PF406, PF438) and the rules written for its misses
(in-sample on held-out-29). Each test runs the rule the way ``audit`` does on a small project
rebuilt from the set's case and asserts the code and line a user sees; each silent twin is the
case's fix or a tricky-correct neighbour."""

from __future__ import annotations

import textwrap

from preflight.registry import all_rules
from preflight.rule_examples import example_findings

RULES = all_rules(plugins=False)


def _hits(code: str, example: str) -> list[tuple[str, str, int]]:
    return sorted((f.code, f.path, f.span.line) for f in example_findings(RULES[code], textwrap.dedent(example), (code,))
                  if f.code == code)


# -- PF406: a pinned transformers before 4.46 never passes num_items_in_batch (trl issue 1186) --------------

_WEIGHTED = """
    # --- train_weighted_sft.py
    import torch
    from transformers import Trainer, TrainingArguments


    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False):
            weight = inputs.pop("weight")
            labels = inputs.pop("labels")
            outputs = model(**inputs)
            nll = torch.nn.functional.cross_entropy(outputs.logits.transpose(1, 2), labels, reduction="none")
            loss = (nll.mean(1) * weight).mean()
            return (loss, outputs) if return_outputs else loss


    args = TrainingArguments(output_dir="out", per_device_train_batch_size=2, gradient_accumulation_steps=16)
    WeightedTrainer(model=model, args=args, train_dataset=dataset).train()
    # --- requirements.txt
    {pin}
"""


def test_pf406_silent_on_a_transformers_pin_before_the_loss_fix() -> None:
    assert _hits("PF406", _WEIGHTED.format(pin="transformers==4.36.2")) == []


def test_pf406_still_fires_on_a_pin_from_4_46_and_on_a_lower_bound() -> None:
    expected = [("PF406", "train_weighted_sft.py", 6)]
    assert _hits("PF406", _WEIGHTED.format(pin="transformers==4.46.0")) == expected
    assert _hits("PF406", _WEIGHTED.format(pin="transformers>=4.36.2")) == expected


# -- PF438: a metric computed from all_gathered outputs is the same on every rank (lightning 5604) ----------

_EPOCH_END = """
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    from pytorch_lightning.callbacks import EarlyStopping, ModelCheckpoint


    class RULRegressor(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, t = batch
            return {{"y": self(x), "t": t}}

        def validation_epoch_end(self, outputs):
            y = torch.cat([o["y"] for o in outputs])
            t = torch.cat([o["t"] for o in outputs])
    {gather}
            rmse = torch.sqrt(F.mse_loss(y, t))
            self.log("val_rmse", rmse)


    trainer = pl.Trainer(gpus=2, accelerator="ddp", callbacks=[EarlyStopping(monitor="val_rmse"),
                                                                ModelCheckpoint(monitor="val_rmse")])
    trainer.fit(RULRegressor())
"""


def test_pf438_fires_on_the_local_rmse() -> None:
    assert _hits("PF438", _EPOCH_END.format(gather="")) == [("PF438", "example.py", 18)]


def test_pf438_silent_when_the_rmse_is_computed_from_all_gathered_outputs() -> None:
    gathered = "        y, t = self.all_gather(y).flatten(), self.all_gather(t).flatten()"
    assert _hits("PF438", _EPOCH_END.format(gather=gathered)) == []


def test_pf438_a_tensor_gather_is_not_a_collective() -> None:
    local = "        y = y.gather(0, torch.argsort(t))"
    assert _hits("PF438", _EPOCH_END.format(gather=local)) == [("PF438", "example.py", 18)]


# -- the Hydra launch-line rules report on the launch script's line, as a user runs `audit launch.sh` -------

_SFT_APP = """import hydra


@hydra.main(config_path="conf", config_name="sft", version_base="1.3")
def main(cfg):
    print(cfg.data.train.dataset_name, cfg.data.val.dataset_name, cfg.trainer.lr)


if __name__ == "__main__":
    main()
"""
_SFT_CONF = """data:
  train:
    dataset_name: squad
  val:
    dataset_name: squad
trainer:
  lr: 5.0e-6
"""


def _job(tmp_path, launch: str):
    (tmp_path / "conf").mkdir()
    (tmp_path / "train.py").write_text(_SFT_APP)
    (tmp_path / "conf" / "sft.yaml").write_text(_SFT_CONF)
    (tmp_path / "launch.sh").write_text("#!/bin/bash\n" + launch + "\n")


def _audit(cli, tmp_path, codes: str) -> list[tuple[str, str, int]]:
    import json

    result = cli("audit", "launch.sh", "--no-cache", "--format", "json", "--select", codes, cwd=tmp_path)
    return sorted((f["code"], f["path"], f["line"]) for f in json.loads(result.out)["findings"])


def test_pf336_reports_the_force_added_path_on_the_launch_line(cli, tmp_path) -> None:
    _job(tmp_path, "python train.py ++data.dataset_name=openmathinstruct2 trainer.lr=1e-5")
    assert _audit(cli, tmp_path, "PF336") == [("PF336", "launch.sh", 2)]


def test_pf336_silent_on_the_paths_the_code_reads(cli, tmp_path) -> None:
    _job(tmp_path, "python train.py data.train.dataset_name=openmathinstruct2 data.val.dataset_name=openmathinstruct2")
    assert _audit(cli, tmp_path, "PF336") == []
