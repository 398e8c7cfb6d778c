"""Cached results follow the running build, not only its version string: two installs of the same
version from different commits (``pip install git+URL@COMMIT``) or an edited checkout must not reuse
each other's cached findings."""

from __future__ import annotations

import os

from preflight import _build_id, engine
from preflight._build_id import build_id


def test_the_build_id_changes_when_a_package_file_changes(tmp_path):
    (tmp_path / "rules").mkdir()
    rule = tmp_path / "rules" / "pf999_rule.py"
    rule.write_text("A = 1\n")
    first = build_id([str(tmp_path)])
    _build_id._MEMO.clear()
    assert build_id([str(tmp_path)]) == first  # nothing changed: the same id
    rule.write_text("A = 22\n")  # a fixed rule
    os.utime(rule, ns=(1, 2))
    _build_id._MEMO.clear()
    assert build_id([str(tmp_path)]) != first
    (tmp_path / "notes.txt").write_text("not code")  # neither .py nor .json: no part of the build
    second = build_id([str(tmp_path)])
    _build_id._MEMO.clear()
    assert build_id([str(tmp_path)]) == second


def test_the_running_build_covers_every_installed_package_folder():
    folders = _build_id._folders()
    names = {os.path.basename(f) for f in folders}
    assert {"preflight", "adapters", "hardware", "architectures"} <= names


def test_a_cached_result_of_another_build_is_not_used(monkeypatch):
    sel = engine.Selection(codes=("PF101",))
    engine._FINGERPRINTS.clear()
    monkeypatch.setattr(_build_id, "build_id", lambda folders=None: "build-a")
    a = sel.fingerprint()
    engine._FINGERPRINTS.clear()
    monkeypatch.setattr(_build_id, "build_id", lambda folders=None: "build-b")
    assert sel.fingerprint() != a
