"""[tool.preflight] settings: every mistake is one line naming the file and line."""

from __future__ import annotations

import pytest
from conftest import write

from preflight.config import SettingsError, load_settings, resolve_codes
from preflight.diagnostics import Severity

CODES = ["PF101", "PF102", "PF201", "PF301"]


def test_no_settings_gives_defaults(tmp_path):
    s = load_settings(cwd=tmp_path)
    assert s.select == ["ALL"] and s.ignore == [] and s.fail_on is Severity.WARNING and s.source is None


def test_reads_nearest_pyproject_upwards(tmp_path):
    write(tmp_path / "pyproject.toml", """
[project]
name = "x"

[tool.preflight]
select = ["PF1"]
ignore = ["PF102"]
fail-on = "error"
exclude = ["gen/*"]
target-gpu = "a100-80gb"
per-file-ignores = {"tests/*" = ["PF101"]}

[tool.preflight.severity]
PF101 = "warning"
""")
    (tmp_path / "src" / "deep").mkdir(parents=True)
    s = load_settings(cwd=tmp_path / "src" / "deep")
    assert s.root == tmp_path.resolve()
    assert s.select == ["PF1"] and s.ignore == ["PF102"] and s.fail_on is Severity.ERROR
    assert s.per_file_ignores == {"tests/*": ["PF101"]}
    assert s.severity == {"PF101": Severity.WARNING}
    assert s.target_gpu == "a100-80gb" and s.exclude == ["gen/*"]


def test_pyproject_without_our_table_is_skipped(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    assert load_settings(cwd=tmp_path).source is None


def test_unknown_key_names_line_and_suggests(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nselect = ['PF']\nfail_onn = 'error'\n")
    with pytest.raises(SettingsError) as exc:
        load_settings(cwd=tmp_path)
    assert exc.value.line == 3
    assert "unknown key 'fail_onn'" in exc.value.message and "did you mean 'fail-on'" in exc.value.message
    assert exc.value.render().startswith(str(tmp_path / "pyproject.toml") + ":3: error:")


def test_wrong_type(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.preflight]\n\nselect = 3\n")
    with pytest.raises(SettingsError) as exc:
        load_settings(cwd=tmp_path)
    assert exc.value.line == 3 and "'select' must be a list of strings" in exc.value.message


def test_bad_severity(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nfail-on = 'fatal'\n")
    with pytest.raises(SettingsError) as exc:
        load_settings(cwd=tmp_path)
    assert "unknown severity 'fatal'" in exc.value.message and exc.value.line == 2


def test_invalid_toml(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.preflight]\nselect = [\n")
    with pytest.raises(SettingsError) as exc:
        load_settings(cwd=tmp_path)
    assert exc.value.message.startswith("invalid TOML")


def test_explicit_settings_file(tmp_path):
    write(tmp_path / "preflight.toml", "select = ['PF2']\n")
    s = load_settings(tmp_path / "preflight.toml", cwd=tmp_path)
    assert s.select == ["PF2"]
    with pytest.raises(SettingsError, match="settings file not found"):
        load_settings(tmp_path / "missing.toml", cwd=tmp_path)


def test_resolve_codes_prefixes_and_specificity():
    assert resolve_codes(["PF"], [], CODES) == CODES
    assert resolve_codes(["PF1"], [], CODES) == ["PF101", "PF102"]
    assert resolve_codes(["PF"], ["PF1"], CODES) == ["PF201", "PF301"]
    # the more specific selector wins
    assert resolve_codes(["PF101"], ["PF1"], CODES) == ["PF101"]
    assert resolve_codes(["PF1"], ["PF1"], CODES) == []
    assert resolve_codes(["ALL"], ["PF3"], CODES) == ["PF101", "PF102", "PF201"]


def test_resolve_codes_unknown_selector():
    with pytest.raises(SettingsError) as exc:
        resolve_codes(["PF109"], [], CODES)
    assert "unknown rule code or prefix 'PF109'" in exc.value.message
    with pytest.raises(SettingsError, match="'XY'"):
        resolve_codes(["PF"], ["XY"], CODES)
