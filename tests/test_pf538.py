"""PF538: `Accelerator(split_batches=...)` is accepted and ignored by accelerate 1.x (accelerate issue
3177), run the way a user runs `preflight audit` on the script."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import write

TRAIN = """\
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator(split_batches=True)
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    """


def found(cli, root: Path, files: dict[str, str]) -> list[tuple[int, str, str]]:
    write(root, files)
    res = cli("audit", "train.py", "--format", "json", "--no-cache", "--exit-zero", cwd=root)
    doc = json.loads(res.out)
    return [(f["line"], f["severity"], f["message"]) for f in doc["findings"] if f["code"] == "PF538"]


def test_a_pinned_1_x_release_is_a_warning_on_the_keyword(cli, tmp_path):
    out = found(cli, tmp_path, {"train.py": TRAIN, "requirements.txt": "accelerate==1.0.1\n"})
    assert [(line, sev) for line, sev, _ in out] == [(4, "warning")]
    assert "DataLoaderConfiguration" in out[0][2] and "accelerate 1.0.1" in out[0][2]


def test_no_declared_version_is_a_note(cli, tmp_path):
    out = found(cli, tmp_path, {"train.py": TRAIN})
    assert [(line, sev) for line, sev, _ in out] == [(4, "note")]


def test_a_0_x_pin_is_quiet(cli, tmp_path):
    assert found(cli, tmp_path, {"train.py": TRAIN, "requirements.txt": "accelerate==0.34.2\n"}) == []


def test_the_dataloader_configuration_is_quiet(cli, tmp_path):
    fixed = TRAIN.replace("Accelerator(split_batches=True)",
                          "Accelerator(dataloader_config=DataLoaderConfiguration(split_batches=True))")
    assert found(cli, tmp_path, {"train.py": fixed, "requirements.txt": "accelerate==1.0.1\n"}) == []
