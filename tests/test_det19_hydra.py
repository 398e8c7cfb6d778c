"""Behaviours closed while reading the hydra family's misses of the bug benchmark (issue 18, branch det19;
every set is in-sample for these). The rules' own examples are pinned by the meta-tests; these run the CLI
the way a user does (the programs are written from scratch)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

STRUCTURED = """\
    from dataclasses import dataclass, field
    from typing import Any, Tuple

    import hydra
    import torch
    from hydra.core.config_store import ConfigStore
    from hydra.utils import instantiate


    @dataclass
    class AdamConfig:
        _target_: str = "torch.optim.Adam"
        lr: float = 0.001
        betas: Tuple[float, float] = (0.9, 0.999)


    @dataclass
    class TrainConfig:
        optimizer: Any = field(default_factory=AdamConfig)
        epochs: int = 30


    ConfigStore.instance().store(name="train_config", node=TrainConfig)


    @hydra.main(config_path=None, config_name="train_config")
    def main(cfg):
        optimizer = instantiate(cfg.optimizer, model.parameters()CALL)
        torch.save({"optimizer": optimizer.state_dict()}, "last.pt")
    """


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def audit(cli, tmp_path: Path, code: str, *launch: str) -> list[tuple[str, str, int]]:
    args = ["audit", "train.py", "--format", "json", "--no-cache", "--exit-zero"]
    if launch:
        args += ["--", *launch]
    doc = json.loads(cli(*args, cwd=tmp_path).out)
    return [(f["code"], Path(f["path"]).name, f["line"]) for f in doc["findings"] if f["code"] == code]


def test_a_structured_config_tuple_reaches_adam_as_a_listconfig(cli, tmp_path):
    write(tmp_path, "train.py", STRUCTURED.replace("CALL", ""))
    assert audit(cli, tmp_path, "PF554") == [("PF554", "train.py", 28)]


def test_an_optimizer_whose_state_is_never_saved_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", STRUCTURED.replace("CALL", "").replace(
        '        torch.save({"optimizer": optimizer.state_dict()}, "last.pt")\n', "        return optimizer\n"))
    assert audit(cli, tmp_path, "PF554") == []


def test_the_tuple_passed_again_in_the_call_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", STRUCTURED.replace("CALL", ", betas=tuple(cfg.optimizer.betas)"))
    assert audit(cli, tmp_path, "PF554") == []
    write(tmp_path, "train.py", STRUCTURED.replace("CALL", ', _convert_="all"'))
    assert audit(cli, tmp_path, "PF554") == []
