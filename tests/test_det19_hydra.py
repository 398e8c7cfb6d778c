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
    from hydra.core.config_store import ConfigStore
    from hydra.utils import instantiate


    @dataclass
    class NodeConfig:
        _target_: str = "TARGET"
        sample_size: int = 32
        block_out_channels: Tuple[int, ...] = (128, 256, 256, 256)


    @dataclass
    class TrainConfig:
        model: Any = field(default_factory=NodeConfig)
        epochs: int = 30


    ConfigStore.instance().store(name="train_config", node=TrainConfig)


    @hydra.main(config_path=None, config_name="train_config")
    def main(cfg):
        model = instantiate(cfg.model CALL)
        model.save_pretrained("outputs/final")
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


def program(target: str, call: str = "") -> str:
    return STRUCTURED.replace("TARGET", target).replace(" CALL", call)


def test_a_structured_config_tuple_reaches_a_diffusers_model_as_a_listconfig(cli, tmp_path):
    write(tmp_path, "train.py", program("diffusers.models.UNet2DModel"))
    assert audit(cli, tmp_path, "PF554") == [("PF554", "train.py", 27)]


def test_the_same_list_converted_in_the_call_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", program("diffusers.models.UNet2DModel", ', _convert_="all"'))
    assert audit(cli, tmp_path, "PF554") == []


def test_an_optimizer_node_is_quiet_current_torch_converts_betas(cli, tmp_path):
    write(tmp_path, "train.py", program("torch.optim.Adam"))
    assert audit(cli, tmp_path, "PF554") == []
