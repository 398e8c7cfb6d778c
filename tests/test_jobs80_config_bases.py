"""A YAML config's ``_base_`` file, read where the job's code honours the key (branch jobs80, issue 15,
set 37's GroupViT): fixtures of our own copying the real shape, with must-read tests and silent twins.

NVlabs/GroupViT @ 13b7861: ``configs/group_vit_gcc_yfcc_30e.yml:1`` ``_base_: 'default.yml'``, merged by
the project's ``utils/config.py:17-24`` (``if '_base_' in cfg: ... cfg = OmegaConf.merge(base_cfg, cfg)``);
``data.num_workers: 6``, ``pin_memory: true`` and ``img_aug.img_size: 224`` are in ``configs/default.yml``
only, read by ``datasets/builder.py``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

TRAIN = textwrap.dedent("""\
    import argparse
    import torch
    from utils import get_config

    def main():
        p = argparse.ArgumentParser()
        p.add_argument("--cfg", type=str, required=True)
        args = p.parse_args()
        cfg = get_config(args)
        data = cfg.data
        loader = torch.utils.data.DataLoader(list(range(10)), batch_size=None,
                                             num_workers=data.num_workers, pin_memory=data.pin_memory)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for batch in loader:
            loss = model(batch).sum()
            loss.backward()
            opt.step()
            opt.zero_grad()

    if __name__ == "__main__":
        main()
""")

UTILS_INIT = "from .config import get_config\n"

CONFIG_PY = textwrap.dedent("""\
    import os.path as osp
    from omegaconf import OmegaConf

    def load_config(cfg_file):
        cfg = OmegaConf.load(cfg_file)
        if '_base_' in cfg:
            base_cfg = OmegaConf.load(osp.join(osp.dirname(cfg_file), cfg._base_))
            cfg = OmegaConf.merge(base_cfg, cfg)
        return cfg

    def get_config(args):
        cfg = load_config(args.cfg)
        cfg.local_rank = 0
        return cfg
""")

PLAIN_CONFIG_PY = textwrap.dedent("""\
    import yaml

    def get_config(args):
        with open(args.cfg) as f:
            cfg = yaml.safe_load(f)
        cfg["local_rank"] = 0
        return cfg
""")

DEFAULT = textwrap.dedent("""\
    data:
      batch_size: 256
      pin_memory: true
      num_workers: 6
    train:
      epochs: 30
""")

CHILD = textwrap.dedent("""\
    _base_: 'default.yml'
    data:
      text_aug:
        multi_label: 3
    model:
      type: GroupViT
""")


def _job(tmp_path: Path, child: str = CHILD, config_py: str = CONFIG_PY, default: str = DEFAULT) -> None:
    (tmp_path / "main.py").write_text(TRAIN)
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text(UTILS_INIT)
    (tmp_path / "utils" / "config.py").write_text(config_py)
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "default.yml").write_text(default)
    (tmp_path / "configs" / "child.yml").write_text(child)


def _plan(cli, cwd: Path) -> dict:
    res = cli("audit", "--emit-plan", "json", "--", "python", "main.py", "--cfg", "configs/child.yml", cwd=cwd)
    assert res.code in (0, 1), res.out + res.err
    return json.loads(res.out)


def _winner(fields: dict, name: str):
    got = fields.get(name)
    return got[0] if got else None


def test_base_file_keys_are_read_at_their_own_line(cli, tmp_path):
    _job(tmp_path)
    plan = _plan(cli, tmp_path)
    workers = _winner(plan["fields"], "data.num_workers")
    assert workers is not None and workers["value"] == 6
    assert workers["source"]["path"] == "configs/default.yml" and workers["source"]["line"] == 4
    pin = _winner(plan["fields"], "data.pin_memory")
    assert pin is not None and pin["value"] is True
    assert any("the _base_ of configs/child.yml" in n for n in plan["notes"])
    assert [i["path"] for i in plan["inputs"] if i["kind"] == "yaml"] == ["configs/default.yml", "configs/child.yml"]


def test_the_child_key_wins_over_its_base(cli, tmp_path):
    child = CHILD.replace("  text_aug:\n", "  num_workers: 2\n  text_aug:\n")
    _job(tmp_path, child=child)
    workers = _winner(_plan(cli, tmp_path)["fields"], "data.num_workers")
    assert workers is not None and workers["value"] == 2
    assert workers["source"]["path"] == "configs/child.yml"


def test_a_list_of_bases_later_one_wins(cli, tmp_path):
    _job(tmp_path, child=CHILD.replace("_base_: 'default.yml'", "_base_: ['default.yml', 'more.yml']"))
    (tmp_path / "configs" / "more.yml").write_text("data:\n  num_workers: 12\n")
    fields = _plan(cli, tmp_path)["fields"]
    workers = _winner(fields, "data.num_workers")
    assert workers is not None and workers["value"] == 12 and workers["source"]["path"] == "configs/more.yml"
    pin = _winner(fields, "data.pin_memory")
    assert pin is not None and pin["source"]["path"] == "configs/default.yml"


def test_a_base_of_a_base_is_read(cli, tmp_path):
    _job(tmp_path, default="_base_: 'root.yml'\ntrain:\n  epochs: 30\n")
    (tmp_path / "configs" / "root.yml").write_text(DEFAULT)
    workers = _winner(_plan(cli, tmp_path)["fields"], "data.num_workers")
    assert workers is not None and workers["value"] == 6 and workers["source"]["path"] == "configs/root.yml"


def test_twin_code_that_never_merges_base_leaves_it_unread(cli, tmp_path):
    _job(tmp_path, config_py=PLAIN_CONFIG_PY)
    plan = _plan(cli, tmp_path)
    assert _winner(plan["fields"], "data.num_workers") is None
    assert not any("_base_ of" in n for n in plan["notes"])
    assert [i["path"] for i in plan["inputs"] if i["kind"] == "yaml"] == ["configs/child.yml"]


def test_twin_mmcv_delete_drops_the_base_section(cli, tmp_path):
    child = CHILD.replace("  text_aug:\n", "  _delete_: true\n  text_aug:\n")
    _job(tmp_path, child=child)
    assert _winner(_plan(cli, tmp_path)["fields"], "data.num_workers") is None


def test_twin_missing_base_is_named_not_guessed(cli, tmp_path):
    _job(tmp_path, child=CHILD.replace("default.yml", "absent.yml"))
    plan = _plan(cli, tmp_path)
    assert _winner(plan["fields"], "data.num_workers") is None
    assert any("_base_ absent.yml not found" in n for n in plan["notes"])


def test_upper_case_base_key_where_the_code_names_it(cli, tmp_path):
    _job(tmp_path, child=CHILD.replace("_base_:", "_BASE_:"), config_py=CONFIG_PY.replace("'_base_'", "'_BASE_'")
         .replace("cfg._base_", "cfg._BASE_"))
    workers = _winner(_plan(cli, tmp_path)["fields"], "data.num_workers")
    assert workers is not None and workers["value"] == 6 and workers["source"]["path"] == "configs/default.yml"


def test_twin_upper_case_key_when_the_code_merges_only_lower_case(cli, tmp_path):
    _job(tmp_path, child=CHILD.replace("_base_:", "_BASE_:"))
    assert _winner(_plan(cli, tmp_path)["fields"], "data.num_workers") is None


def test_mmcv_config_fromfile_honours_a_yaml_base(cli, tmp_path):
    fromfile = "from mmcv import Config\n\ndef get_config(args):\n    return Config.fromfile(args.cfg)\n"
    _job(tmp_path, config_py=fromfile)
    workers = _winner(_plan(cli, tmp_path)["fields"], "data.num_workers")
    assert workers is not None and workers["value"] == 6 and workers["source"]["path"] == "configs/default.yml"
