"""A launch-line mapping given to an existing Hydra node (issue 18, held-out-23, branch det48): Hydra
merges it into the node (``OmegaConf.update(..., merge=True)``) instead of replacing it. PF526 says so
when struct mode refuses a key of the mapping; PF262 when the merge keeps the old node's keys under a new
``_target_``. Shape of facebookresearch/optimizers PR 257 (``optimizer.grafting_config={_target_:...}``)."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write
from preflight.adapters.hydra_values import parse_value

APP = """\
    import hydra
    import torch


    @hydra.main(version_base="1.3", config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(4, 2)
        optimizer = hydra.utils.instantiate(cfg.optimizer, params=model.parameters())
        optimizer.zero_grad()
        model(torch.randn(8, 4)).sum().backward()
        optimizer.step()


    if __name__ == "__main__":
        main()
"""

CONFIG = """\
    optimizer:
      _target_: torch.optim.AdamW
      lr: 0.001
      betas: [0.9, 0.999]
      eps: 1.0e-8
"""


def _findings(cli, tmp_path: Path, override: str) -> list[dict]:
    write(tmp_path, {"train.py": APP, "conf/config.yaml": CONFIG, "launch.sh": f"python train.py {override}\n"})
    res = cli("audit", "launch.sh", "--format", "json", cwd=tmp_path)
    return json.loads(res.out)["findings"]


def test_hydra_dict_values_need_no_space_after_the_colon() -> None:
    # Hydra's grammar: `{lr:0.1}` is a mapping (YAML flow syntax alone would read one scalar key)
    assert parse_value("{_target_:torch.optim.SGD,lr:0.1,nested:{a:1}}") == {
        "_target_": "torch.optim.SGD", "lr": 0.1, "nested": {"a": 1}}
    assert parse_value("{path:/data/x}") == {"path": "/data/x"}


def test_pf526_names_the_merge_when_the_node_exists(cli, tmp_path: Path) -> None:
    found = [f for f in _findings(cli, tmp_path, "'optimizer={_target_:torch.optim.SGD,lr:0.1,momentum:0.9}'")
             if f["code"] == "PF526"]
    assert len(found) == 1
    message = found[0]["message"]
    assert "already has the node `optimizer` (conf/config.yaml:1)" in message
    assert "refuses `momentum`" in message and "`betas`, `eps`" in message
    assert "'~optimizer' '+optimizer=" in message
    assert "does not have:" not in message  # not the missing-key reason


def test_pf526_keeps_the_missing_key_reason_for_a_missing_key(cli, tmp_path: Path) -> None:
    found = [f for f in _findings(cli, tmp_path, "scheduler.warmup=100") if f["code"] == "PF526"]
    assert len(found) == 1 and "which the composed Hydra config of this app does not have" in found[0]["message"]


def test_pf262_new_target_keeps_the_old_keys(cli, tmp_path: Path) -> None:
    found = [f for f in _findings(cli, tmp_path, "'optimizer={_target_:torch.optim.SGD,lr:0.1}'")
             if f["code"] == "PF262"]
    assert len(found) == 1
    assert found[0]["path"] == "launch.sh" and found[0]["line"] == 1
    assert "`betas`, `eps` of the config's torch.optim.AdamW node stay" in found[0]["message"]


def test_pf262_twins_delete_then_add_and_same_target(cli, tmp_path: Path) -> None:
    for override in ("'~optimizer' '+optimizer={_target_:torch.optim.SGD,lr:0.1}'",
                     "'optimizer={_target_:torch.optim.AdamW,lr:0.1}'"):
        codes = [f["code"] for f in _findings(cli, tmp_path, override)]
        assert "PF262" not in codes and "PF526" not in codes, override
