"""Hydra composition never reads a file outside the config directory.

The scheduler gate may run preflight with more rights than the job's author, so a defaults
entry, an override or a symbolic link that leaves the config directory must not make
preflight read that file. Each case has a canary config outside the config directory: if
it were read, its value would show up in ``audit --emit-plan``. Both composers are tested:
hydra-core (whose file source is confined while preflight calls it) and preflight's own.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Optional

import pytest

CANARY = "CANARY-SECRET-7f3a"
SCRIPT = textwrap.dedent("""\
    import hydra


    @hydra.main(config_path="conf", config_name="config", version_base=None)
    def main(cfg):
        pass
""")
SCRIPT_LINE = 4  # the line of @hydra.main


@pytest.fixture(params=["hydra-core", "own"])
def composer(request, monkeypatch) -> str:
    if request.param == "own":
        for name in [m for m in sys.modules if m == "hydra" or m.startswith("hydra.")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, "hydra", None)
    return str(request.param)


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """tmp/secret/{leak.yaml, db/leak.yaml} (the canaries), tmp/job/{train.py, ds.json, conf/}."""
    secret = tmp_path / "secret"
    (secret / "db").mkdir(parents=True)
    for path in (secret / "leak.yaml", secret / "db" / "leak.yaml"):
        path.write_text(f"model_name_or_path: {CANARY}\n", encoding="utf-8")
    job = tmp_path / "job"
    (job / "conf" / "db").mkdir(parents=True)
    (job / "conf" / "db" / "ok.yaml").write_text("model_name_or_path: inside-ok\n", encoding="utf-8")
    (job / "train.py").write_text(SCRIPT, encoding="utf-8")
    (job / "ds.json").write_text('{"train_micro_batch_size_per_gpu": 4}\n', encoding="utf-8")
    return job


def audit(cli, job: Path, primary: str, *argv: str):
    (job / "conf" / "config.yaml").write_text(primary, encoding="utf-8")
    result = cli("audit", "train.py", "--config", "ds.json", "--no-cache", "--emit-plan", "json",
                 *(["--", *argv] if argv else []), cwd=job)
    return result


def assert_refused(result, where: str, line: Optional[int], *phrases: str) -> None:
    """Canary not read, one located error, and the rest of the plan still there."""
    assert CANARY not in result.out + result.err
    assert "Traceback" not in result.err
    assert result.code == 3, (result.out, result.err)
    location = f"{where}:{line}" if line is not None else where
    errors = [e for e in result.err.splitlines() if "outside the config directory" in e]
    assert len(errors) == 1, result.err
    assert errors[0].startswith(f"{location}: error: "), errors[0]
    for phrase in phrases:
        assert phrase in errors[0], errors[0]
    fields = json.loads(result.out)["fields"]
    assert fields["batch.micro"][0]["value"] == 4  # the DeepSpeed config was still read


def test_the_canary_would_show_up_if_read(cli, layout, composer):
    """The detector works: the same layout with the entry inside shows its value."""
    result = audit(cli, layout, "defaults:\n  - db: ok\n  - _self_\n")
    assert result.code == 0, result.err
    assert json.loads(result.out)["fields"]["model.ref"][0]["value"] == "inside-ok"
    (layout / "conf" / "db" / "ok.yaml").write_text(f"model_name_or_path: {CANARY}\n", encoding="utf-8")
    assert CANARY in audit(cli, layout, "defaults:\n  - db: ok\n  - _self_\n").out


@pytest.mark.parametrize("entry", [
    "db: ../../../secret/leak",  # a group option
    "/../../secret/leak",  # a config entry, absolute in the config dir
    "../../secret/leak",  # a config entry, relative
    "../../secret/db: leak",  # a group name
    "db@x: ../../../secret/leak",  # with a package
    "optional db: ../../../secret/leak",  # optional does not make it silent
])
def test_defaults_entry_leaving_the_config_dir(cli, layout, composer, entry):
    result = audit(cli, layout, f"defaults:\n  - {entry}\n  - _self_\n")
    assert_refused(result, "conf/config.yaml", 2, "defaults entry", "not read")


def test_absolute_path_entry(cli, layout, composer):
    absolute = (layout.parent / "secret" / "leak").as_posix()
    result = audit(cli, layout, f"defaults:\n  - db: ok\n  - /{absolute}\n  - _self_\n")
    assert_refused(result, "conf/config.yaml", 3, "defaults entry")


def test_nested_defaults_entry_is_located_in_its_file(cli, layout, composer):
    (layout / "conf" / "db" / "nested.yaml").write_text(
        "defaults:\n  - base: ok\n  - /../../secret/leak\nx: 1\n", encoding="utf-8")
    (layout / "conf" / "db" / "base").mkdir()
    (layout / "conf" / "db" / "base" / "ok.yaml").write_text("y: 2\n", encoding="utf-8")
    result = audit(cli, layout, "defaults:\n  - db: nested\n  - _self_\n")
    assert_refused(result, "conf/db/nested.yaml", 3, "defaults entry")


def test_override_entry_in_another_file(cli, layout, composer):
    (layout / "conf" / "experiment").mkdir()
    (layout / "conf" / "experiment" / "x.yaml").write_text(
        "# @package _global_\ndefaults:\n  - override /db: ../../../secret/leak\n", encoding="utf-8")
    result = audit(cli, layout, "defaults:\n  - db: ok\n  - experiment: x\n  - _self_\n")
    assert_refused(result, "conf/experiment/x.yaml", 3, "override")


@pytest.mark.parametrize("override", ["db=../../../secret/leak", "+db=../../../secret/leak",
                                      "+../../secret/db=leak"])
def test_command_line_override(cli, layout, composer, override):
    primary = "defaults:\n  - db: ok\n  - _self_\n" if not override.startswith("+") else "x: 1\n"
    result = audit(cli, layout, primary, override)
    if composer == "hydra-core" and override.startswith("+../"):
        # hydra-core's override grammar has no '..' in a key: refused before any file is looked up
        assert CANARY not in result.out + result.err
        assert f"train.py:{SCRIPT_LINE}: error: Hydra config 'config' not composed: OverrideParseException" \
            in result.err
        return
    assert_refused(result, "train.py", SCRIPT_LINE, override)


def test_config_name_leaving_the_config_dir(cli, layout, composer):
    result = audit(cli, layout, "x: 1\n", "--config-name", "../../secret/leak")
    assert_refused(result, "train.py", SCRIPT_LINE, "../../secret/leak")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlinked_group_dir(cli, layout, composer):
    (layout / "conf" / "vault").symlink_to(layout.parent / "secret" / "db", target_is_directory=True)
    result = audit(cli, layout, "defaults:\n  - vault: leak\n  - _self_\n")
    assert_refused(result, "conf/config.yaml", 2, "symbolic link")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlinked_config_file(cli, layout, composer):
    (layout / "conf" / "db" / "leak.yaml").symlink_to(layout.parent / "secret" / "leak.yaml")
    result = audit(cli, layout, "defaults:\n  - db: leak\n  - _self_\n")
    assert_refused(result, "conf/config.yaml", 2, "symbolic link")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlink_inside_the_config_dir_is_followed(cli, layout, composer):
    (layout / "conf" / "db" / "alias.yaml").symlink_to(layout / "conf" / "db" / "ok.yaml")
    result = audit(cli, layout, "defaults:\n  - db: alias\n  - _self_\n")
    assert result.code == 0, result.err
    assert json.loads(result.out)["fields"]["model.ref"][0]["value"] == "inside-ok"


def test_dotdot_that_stays_inside_is_followed(cli, layout, composer):
    result = audit(cli, layout, "defaults:\n  - db: ../db/ok\n  - _self_\n")
    assert result.code == 0, result.err
    assert json.loads(result.out)["fields"]["model.ref"][0]["value"] == "inside-ok"


@pytest.mark.parametrize("how", ["absolute", "relative"])
def test_searchpath_outside_the_config_dir(cli, layout, composer, how):
    entry = (layout.parent / "secret").as_posix() if how == "absolute" else "../secret"
    result = audit(cli, layout, f"hydra:\n  searchpath:\n    - file://{entry}\n"
                                "defaults:\n  - db: leak\n  - _self_\n")
    assert CANARY not in result.out + result.err
    assert "Traceback" not in result.err
    assert result.code == 3
    assert "train.py:4: error: Hydra config 'config' not composed" in result.err
    if composer == "hydra-core":
        plan = json.loads(result.out)
        assert plan["fields"]["batch.micro"][0]["value"] == 4


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_config_directory_primary_is_never_a_link_out(cli, layout):
    """``--config DIR`` picks the one top-level file with a defaults list as the primary
    config; a symbolic link out of the directory is not read to find it."""
    outside = layout.parent / "secret" / "primary.yaml"
    outside.write_text(f"defaults:\n  - _self_\nmodel_name_or_path: {CANARY}\n", encoding="utf-8")
    (layout / "conf" / "main.yaml").symlink_to(outside)
    result = cli("audit", "--config", "conf", "--no-cache", "--emit-plan", "json", cwd=layout)
    assert CANARY not in result.out + result.err
    assert result.code == 3
    assert "conf: error: a Hydra config directory needs a primary config" in result.err


def test_hydra_core_that_cannot_be_confined_is_not_used(cli, layout, monkeypatch):
    """A hydra-core release without the config-source classes preflight replaces: preflight's
    composer composes, and a note says why."""
    import hydra._internal.sources_registry as registry

    monkeypatch.delattr(registry, "SourcesRegistry")
    result = audit(cli, layout, "defaults:\n  - db: ok\n  - _self_\n")
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    assert plan["fields"]["model.ref"][0]["value"] == "inside-ok"
    notes = "\n".join(plan["notes"])
    assert "config sources could not be confined" in notes
    assert "composed by preflight's composer" in notes
