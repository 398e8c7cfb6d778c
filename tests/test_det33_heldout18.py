"""Behaviours closed while reading held-out-18's misses (issue 18, branch det33; held-out-18 is in-sample
for these). The rules' own examples are pinned by the meta-tests; these run the CLI the way a user does."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def audit(cli, tmp_path: Path, code: str, script: str, *extra: str) -> list[tuple[str, int, str]]:
    result = cli("audit", script, *extra, "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return sorted((f["path"], f["line"], f["severity"]) for f in json.loads(result.out)["findings"]
                  if f["code"] == code)


TRAINER = """\
    import deepspeed


    def build(args, model, data):
        return deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                    training_data=data, config="./ds.json")
    """


def ds_config(scheduler: str, zero_stage: int, fp16: bool) -> str:
    return json.dumps({
        "train_batch_size": 4,
        "optimizer": {"type": "AdamW", "params": {"lr": 5e-4}},
        "scheduler": {"type": scheduler, "params": {}},
        "fp16": {"enabled": fp16},
        "zero_optimization": {"stage": zero_stage},
    }, indent=2)


def test_torch_scheduler_in_deepspeed_config_fails_only_when_the_optimizer_is_wrapped(cli, tmp_path):
    write(tmp_path, "trainer.py", TRAINER)
    (tmp_path / "ds.json").write_text(ds_config("CosineAnnealingLR", 2, True), encoding="utf-8")
    assert audit(cli, tmp_path, "PF469", "trainer.py", "--config", "ds.json") == [("ds.json", 10, "error")]
    # fp32, no ZeRO: DeepSpeed hands the torch optimizer itself to the torch scheduler
    (tmp_path / "ds.json").write_text(ds_config("CosineAnnealingLR", 0, False), encoding="utf-8")
    assert audit(cli, tmp_path, "PF469", "trainer.py", "--config", "ds.json") == []
    # DeepSpeed's own schedule under ZeRO
    (tmp_path / "ds.json").write_text(ds_config("WarmupCosineLR", 2, True), encoding="utf-8")
    assert audit(cli, tmp_path, "PF469", "trainer.py", "--config", "ds.json") == []


TRAIN_LOOP = """\
    import torch


    def train(model, loader, epochs, loss_fn):
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max={period})
        for epoch in range(epochs):
            for x, y in loader:
                loss = loss_fn(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
    """


def test_cosine_period_in_batches_stepped_per_epoch(cli, tmp_path):
    write(tmp_path, "train.py", TRAIN_LOOP.replace("{period}", "len(loader)"))
    assert audit(cli, tmp_path, "PF474", "train.py") == [("train.py", 13, "warning")]
    write(tmp_path, "train.py", TRAIN_LOOP.replace("{period}", "epochs"))
    assert audit(cli, tmp_path, "PF474", "train.py") == []
