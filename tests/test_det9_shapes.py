"""Shapes from held-out-7's misses and false positives (branch det9), each with the finding a user
must see and a twin that must stay quiet. The programs here are written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def audit(cli, tmp_path: Path, *argv: str) -> list[tuple[str, str]]:
    result = cli("audit", "--format", "json", "--no-cache", "--exit-zero", *argv, cwd=tmp_path)
    doc = json.loads(result.out)
    return sorted((f["code"], Path(f["path"]).name) for f in doc["findings"]
                  if f["severity"] in ("error", "warning"))


TRAIN = """
import torch
from omegaconf import OmegaConf


def main(model, loader, learning_rate=1e-4, gradient_accumulation_steps=1, max_grad_norm=1.0, **kwargs):
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
    for step, batch in enumerate(loader):
        loss = model(batch) / gradient_accumulation_steps
        loss.backward()
        if (step + 1) % gradient_accumulation_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main(None, None, **OmegaConf.load("configs/train.yaml"))
"""


def test_project_training_yaml_with_batch_keys_is_not_a_deepspeed_config(cli, tmp_path):
    """AnimateDiff's OmegaConf training YAML (held-out-7): `train_batch_size` next to
    `gradient_accumulation_steps` among the project's own keys, in a program without DeepSpeed. It
    was read as a DeepSpeed config (PF502 "micro-batch 0" and PF511 on both variants)."""
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "configs/train.yaml", """
        output_dir: outputs
        pretrained_model_path: models/sd
        learning_rate: 1.0e-05
        train_batch_size: 2
        max_train_steps: 100000
        lr_warmup_steps: 0
        gradient_accumulation_steps: 4
        max_grad_norm: 1.0
        """)
    found = audit(cli, tmp_path, "train.py", "--config", "configs", "--", "torchrun", "--nproc_per_node", "8",
                  "train.py")
    assert not [c for c, _ in found if c in ("PF502", "PF511")], found


def test_minimal_deepspeed_json_with_only_batch_keys_is_still_read(cli, tmp_path):
    """The twin: a DeepSpeed JSON with no key only DeepSpeed has (no zero_optimization, no
    micro-batch) is still DeepSpeed's when most of its keys are: the batch triple is checked."""
    write(tmp_path, "train.py", "import deepspeed\nengine = deepspeed.initialize(model=net, config='ds.json')[0]\n")
    write(tmp_path, "ds.json", '{"train_batch_size": 2, "gradient_accumulation_steps": 4, '
                               '"fp16": {"enabled": true}}')
    found = audit(cli, tmp_path, "train.py", "--config", "ds.json", "--", "deepspeed", "--num_gpus", "8",
                  "train.py")
    assert ("PF502", "ds.json") in found, found
