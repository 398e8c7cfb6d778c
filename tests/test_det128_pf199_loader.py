"""det128: PF199's DataLoader form as a user meets it: ``preflight audit train.py`` on a Hydra app whose custom
OmegaConf resolver is registered only inside the task while spawned DataLoader workers read the unresolved config
(facebookresearch/mmf issue 370) reports PF199 at the registration; the fixes and the forms that work stay silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

_APP = '''import os

import hydra
import torch
from omegaconf import DictConfig, OmegaConf
from torch.utils.data import DataLoader, Dataset
{top}

class Frames(Dataset):
    def __init__(self, config):
        {init}

    def __len__(self):
        return 1000

    def __getitem__(self, idx):
        {getitem}


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg: DictConfig):
    OmegaConf.register_new_resolver("root", lambda: os.environ.get("DATA", "/data"))
    {resolve}
    model = torch.nn.Linear(8, 2).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr)
    loader = DataLoader(Frames(cfg), batch_size=32, num_workers=4, multiprocessing_context={method})
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
'''

_KEEP = dict(init="self.config = config", getitem="return torch.load(os.path.join(self.config.data_dir, f'{idx}.pt'))")


def _findings(cli, tmp_path: Path, **parts: str) -> list[tuple[str, int]]:
    values = dict(top="", resolve="", method='"spawn"', **_KEEP)
    values.update(parts)
    (tmp_path / "conf").mkdir(exist_ok=True)
    (tmp_path / "conf" / "config.yaml").write_text("data_dir: ${root:}/frames\nlr: 0.1\n")
    (tmp_path / "train.py").write_text(_APP.format(**values))
    res = cli("audit", "train.py", "--format", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    return [(f["code"], f["line"]) for f in json.loads(res.out)["findings"] if f["code"] == "PF199"]


@pytest.mark.parametrize("method", ['"spawn"', '"spawn" if torch.cuda.is_available() else None',
                                    'torch.multiprocessing.get_context("spawn")'])
def test_resolver_registered_in_the_task_and_read_in_spawned_workers_is_reported(cli, tmp_path: Path,
                                                                                 method: str) -> None:
    assert _findings(cli, tmp_path, method=method) == [("PF199", 22)]  # the registration line


@pytest.mark.parametrize("parts", [
    {"resolve": "OmegaConf.resolve(cfg)"},  # the fix: workers get plain values
    {"method": '"fork"'},  # forked workers inherit the resolver registry
    {"init": "self.data_dir = config.data_dir",  # resolved in the parent, in __init__
     "getitem": "return torch.load(os.path.join(self.data_dir, f'{idx}.pt'))"},
    # also registered at module level: the spawned worker registers it again when it imports the script
    {"top": '\nOmegaConf.register_new_resolver("root", lambda: os.environ.get("DATA", "/data"), replace=True)\n'},
], ids=["resolved", "fork", "copied-in-init", "module-level"])
def test_the_fix_and_the_working_forms_stay_silent(cli, tmp_path: Path, parts: dict) -> None:
    assert _findings(cli, tmp_path, **parts) == []
