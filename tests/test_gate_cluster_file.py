"""Cluster files that used to be accepted silently (issue 14, smaller items) and the
failure-policy settings (item 3): each refusal has the file and line."""

from __future__ import annotations

import pytest

from preflight.cli import main
from preflight.gate.cluster import ClusterError, load_cluster


@pytest.mark.parametrize("name,text,line,words", [
    ("empty.yaml", "", 1, "the cluster file is empty"),
    ("comments.yaml", "# partitions: TODO\n\n", 1, "the cluster file is empty"),
    ("empty.toml", "", 1, "the cluster file is empty"),
    ("dup.yaml", "partitions:\n  a100: a100-80gb\npolicy:\n  allow_unknown: false\npolicy:\n  allow_unknown: true\n",
     5, "duplicate key 'policy' (also at line 3)"),
    ("dupnested.yaml", "partitions:\n  a100: a100-80gb\n  a100: h100-sxm\n", 3, "duplicate key 'a100' (also at line 2)"),
    ("dup.json", '{"policy": {"allow_unknown": false,\n  "allow_unknown": true}}\n', 2,
     "duplicate key 'allow_unknown' (also at line 1)"),
    ("fail.yaml", "policy:\n  on_failure: ignore\n", 2, "policy.on_failure: expected one of reject, admit"),
    ("contact.yaml", "contact: [a, b]\n", 1, "contact: expected one line of text"),
])
def test_bad_cluster_files_are_errors_with_file_and_line(tmp_path, monkeypatch, capsys, name, text, line, words):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ClusterError) as info:
        load_cluster(path, name)
    assert info.value.error.line == line and words in info.value.error.message
    (tmp_path / "job.sh").write_text("#!/bin/bash\n#SBATCH --gres=gpu:1\npython train.py\n")
    monkeypatch.chdir(tmp_path)
    assert main(["gate", "job.sh", "--cluster", name]) == 2
    assert f"{name}:{line}: error: {words}" in capsys.readouterr().err
    # --write-lua refuses it too: the plugins hold a copy of the failure policy
    assert main(["gate", "--write-lua", str(tmp_path / "lua"), "--cluster", name]) == 2
    assert not (tmp_path / "lua" / "job_submit.lua").exists()


def test_failure_policy_and_contact_are_read_and_reach_the_plugins(tmp_path, monkeypatch, capsys):
    path = tmp_path / "cluster.yaml"
    path.write_text('partitions:\n  a100: a100-80gb\ncontact: "#hpc-help"\npolicy:\n  on_failure: admit\n')
    cluster = load_cluster(path)
    assert cluster.policy.on_failure == "admit" and cluster.contact == "#hpc-help"
    assert load_cluster(path).whom() == "#hpc-help"
    path.write_text("partitions:\n  a100: a100-80gb\n")
    assert load_cluster(path).policy.on_failure == "reject"  # the default: fail closed
    path.write_text('partitions:\n  a100: a100-80gb\ncontact: "#hpc-help"\npolicy:\n  on_failure: admit\n')
    assert main(["gate", "--write-lua", str(tmp_path / "lua"), "--cluster", str(path)]) == 0
    text = (tmp_path / "lua" / "job_submit.lua").read_text()
    assert "local FAIL_OPEN = true" in text and 'local CONTACT = "#hpc-help"' in text
