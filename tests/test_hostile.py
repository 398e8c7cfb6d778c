"""Hostile and pathological input: one clear error or a normal result, never a traceback,
and nothing preflight reads is ever executed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pytest
from conftest import write

CANARY_CODE = '''\
import os
open({canary!r}, "w").write("executed")
os.system("touch {canary}.sh")
__import__("subprocess").run(["touch", "{canary}.sub"])
import torch
losses = []
for x in loader:
    loss = model(x)
    loss.backward()
    losses.append(loss)
'''


@pytest.mark.parametrize("name, text, expected", [
    ("parens.py", "x = " + "(" * 300 + "1" + ")" * 300 + "\n", "too many nested parentheses"),
    ("nots.py", "y = " + "not " * 20000 + "x\n", "nested too deeply to parse"),
    # whether these two overflow the parser depends on the Python version (3.9 parses them):
    # either one clear error or a normal analysis, never a traceback
    ("chain.py", "loss = " + " + ".join(["m(x)"] * 30000) + "\n", None),
    ("attrs.py", "loss = model" + ".a" * 30000 + "(x)\n", None),
    ("nul.py", "x = 1\0\n", "binary file"),
], ids=["parens", "nots", "chain", "attrs", "nul"])
def test_pathological_python_is_one_clear_error(cli, tmp_path: Path, name: str, text: str,
                                                expected: Optional[str]) -> None:
    write(tmp_path / name, text)
    write(tmp_path / "ok.py", "import torch\nlosses = []\nfor x in loader:\n    loss = model(x)\n"
                              "    loss.backward()\n    losses.append(loss)\n")
    r = cli("check", "--no-cache", ".")
    assert "Traceback" not in r.err + r.out
    if expected is not None:
        assert expected in r.out + r.err
    else:
        problems = [line for line in (r.out + r.err).splitlines() if line.startswith(f"{name}:")]
        assert all("nested too deeply to parse" in line for line in problems), problems
    assert "ok.py:6:5: PF101" in r.out  # the rest of the run completes
    assert r.code == 1


def test_deep_but_legal_nesting_is_analysed(cli, tmp_path: Path) -> None:
    write(tmp_path / "calls.py", "import torch\nlosses = []\nfor x in loader:\n    loss = "
          + "f(" * 150 + "model(x)" + ")" * 150 + "\n    loss.backward()\n    losses.append(loss)\n")
    r = cli("check", "--no-cache", "calls.py")
    assert "Traceback" not in r.err
    assert "calls.py:6:5: PF101" in r.out


def test_notebook_with_megabytes_of_output_is_analysed(cli, tmp_path: Path) -> None:
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": 1,
                     "source": "import torch\nlosses = []\nfor x in loader:\n    loss = model(x)\n"
                               "    loss.backward()\n    losses.append(loss)\n",
                     "outputs": [{"output_type": "stream", "name": "stdout", "text": "x" * 4_000_000}]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    write(tmp_path / "big.ipynb", json.dumps(nb))
    r = cli("check", "--no-cache", "big.ipynb")
    assert "big.ipynb:cell 1:6:5: PF101" in r.out


@pytest.mark.parametrize("name, text, expected", [
    ("deep.json", "[" * 100000 + "]" * 100000, "nested too deeply"),
    ("deep.yaml", "a: " + "[" * 50000 + "]" * 50000 + "\n", "nested too deeply"),
    ("tag.yaml", "a: !!python/object/apply:os.system ['touch CANARY']\n", "python/object"),
], ids=["deep-json", "deep-yaml", "python-tag"])
def test_hostile_configs_are_refused_clearly(cli, tmp_path: Path, name: str, text: str,
                                             expected: str) -> None:
    write(tmp_path / "train.py", "import torch\n")
    write(tmp_path / name, text)
    r = cli("audit", "train.py", "--config", name, "--no-cache")
    assert "Traceback" not in r.err + r.out
    assert expected in r.out + r.err
    assert r.code == 3
    assert not (tmp_path / "CANARY").exists()


@pytest.mark.parametrize("command", [
    ["check", "--no-cache", "train.py"],
    ["check", "--no-cache", "--fix", "train.py"],
    ["audit", "--no-cache", "train.py"],
    ["audit", "train.py", "--emit-plan", "json"],
])
def test_nothing_preflight_reads_is_executed(cli, tmp_path: Path, command: list[str]) -> None:
    canary = tmp_path / "CANARY"
    write(tmp_path / "train.py", CANARY_CODE.format(canary=str(canary)))
    write(tmp_path / "conftest.py", CANARY_CODE.format(canary=str(canary)))
    write(tmp_path / "setup.py", CANARY_CODE.format(canary=str(canary)))
    cli(*command)
    leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("CANARY"))
    assert leftovers == []


@pytest.mark.parametrize("name", ["../secret.py", "{outside}/secret.py", "link.py"])
def test_gate_does_not_read_files_outside_the_job(cli, tmp_path: Path, name: str) -> None:
    """The gate may run with more rights than the submitting user (slurmctld's job_submit
    plugin): a launch line naming a file outside the job's directories is not read."""
    outside = tmp_path / "outside"
    secret = write(outside / "secret.py", 'TOPSECRET = "hunter2" +\nlosses.append(model(x))\n')
    job = tmp_path / "job"
    job.mkdir()
    (job / "link.py").symlink_to(secret)
    name = name.format(outside=outside)
    if name == "../secret.py":
        write(tmp_path / "secret.py", secret.read_text())
    write(job / "job.sbatch", f"#!/bin/bash\n#SBATCH --gres=gpu:a100:1\nsrun python {name}\n")
    r = cli("gate", "job.sbatch", "--format", "json", cwd=job)
    assert "TOPSECRET" not in r.out + r.err and "hunter2" not in r.out + r.err
    assert "secret.py:" not in r.out  # no error or finding located in the file
    assert "outside the job's directories and was not read" in r.out
    assert r.code == 1  # fit unknown: fail closed


def test_expressions_deeper_than_the_limit_are_refused_on_every_python(cli, tmp_path: Path) -> None:
    """A unary chain parses on every version (one character per level) but is over the
    depth the analyses accept: one clear error instead of minutes of work."""
    from preflight.sources import MAX_AST_DEPTH

    write(tmp_path / "deep.py", "x = " + "-" * (MAX_AST_DEPTH + 50) + "1\n")
    write(tmp_path / "fine.py", "x = " + "-" * (MAX_AST_DEPTH // 2) + "1\n")
    r = cli("check", "--no-cache", ".")
    assert "deep.py: error: cannot parse: expressions nested too deeply to parse" in r.out + r.err
    assert "fine.py" not in r.out + r.err
    assert r.code == 3


@pytest.mark.parametrize("config_path", ["../secret/conf", "{outside}/conf", "linked_conf"])
def test_gate_does_not_compose_a_hydra_config_directory_outside_the_job(cli, tmp_path: Path,
                                                                        config_path: str) -> None:
    """A script's ``@hydra.main(config_path=...)`` is a path the job's author chose: the gate
    composes it only inside the job's directories."""
    outside = tmp_path / "secret"
    write(outside / "conf" / "config.yaml", "model_name_or_path: CANARY-OUTSIDE-DIR\n")
    job = tmp_path / "job"
    job.mkdir()
    (job / "linked_conf").symlink_to(outside / "conf")
    config_path = config_path.format(outside=outside)
    write(job / "train.py", "import hydra\n\n\n"
          f"@hydra.main(config_path={config_path!r}, config_name='config', version_base=None)\n"
          "def main(cfg):\n    pass\n")
    write(job / "job.sbatch", "#!/bin/bash\n#SBATCH --gres=gpu:a100:1\nsrun python train.py\n")
    r = cli("gate", "job.sbatch", "--format", "json", cwd=job)
    assert "CANARY-OUTSIDE-DIR" not in r.out + r.err
    assert "is outside the job's directories and was not read" in r.out
    assert r.code == 1  # fit unknown: fail closed
    # the same script under `audit`, which reads what its user may read, composes it
    a = cli("audit", "train.py", "--no-cache", "--emit-plan", "json", cwd=job)
    assert "CANARY-OUTSIDE-DIR" in a.out
