"""A Hydra defaults list naming a config the script registers in the ConfigStore (adapters/hydra.py,
adapters/hydra_added_keys.py). Fixture of our own in the shape of codebyzeb/BabyLM @ dc4f13c:
train.py:29-30 ``cs.store(name="base_config", node=BabyLMConfig)``, conf/config.yaml ``defaults:
[base_config, _self_, ...]``, the launch line overriding ``experiment.name`` (a dataclass field the
YAML lacks). Not composable without running the script: composed with the entry empty, the
files' values read; the job is not an input error."""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, write
from preflight.adapters.hydra_core_compose import hydra_available

SCRIPT = """\
    from dataclasses import dataclass, field

    import hydra
    import torch
    from hydra.core.config_store import ConfigStore
    from torch.utils.data import DataLoader


    @dataclass
    class Experiment:
        name: str = "run"


    @dataclass
    class Config:
        experiment: Experiment = field(default_factory=Experiment)


    cs = ConfigStore.instance()
    cs.store(name="{stored}", node=Config)


    @hydra.main(version_base=None, config_path="conf", config_name="config")
    def main(cfg):
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in DataLoader(list(range(8)), batch_size=cfg.trainer.batch_size):
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        main()
"""
CONFIG = """\
    defaults:
      - base_config
      - _self_
    trainer:
      batch_size: 32
    experiment:
      seed: 42
"""


@pytest.mark.skipif(hydra_available() is None, reason="hydra-core composes ConfigStore entries")
def test_a_config_store_entry_composes_empty_and_the_files_count(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.replace("{stored}", "base_config"), "conf/config.yaml": CONFIG})
    plan = plan_of(cli, "train.py", "--", "experiment.name=baseline", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32
    assert any("ConfigStore" in n for n in plan["notes"])
    res = cli("audit", "train.py", "--", "experiment.name=baseline", cwd=tmp_path)
    assert res.code in (0, 1) and "PF526" not in res.out


def test_twin_a_name_the_script_does_not_store_stays_an_input_error(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.replace("{stored}", "other_config"), "conf/config.yaml": CONFIG})
    res = cli("audit", "train.py", cwd=tmp_path)
    assert res.code == 3 and "base_config" in res.out + res.err
