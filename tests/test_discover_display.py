"""The walk names each file as display_path does (relative inside the project root, absolute
outside it), whether the walked folder is the root, below it, above it or beside it, and for
names that begin with two dots."""

from __future__ import annotations

import pytest

from preflight.workspace import discover, display_path

KINDS = frozenset({"python", "notebook", "json", "yaml"})


@pytest.fixture
def tree(tmp_path):
    for rel in ("proj/train.py", "proj/..odd.py", "proj/..dir/a.py", "proj/sub/deep/b.py",
                "proj/conf/c.yaml", "proj/nb.ipynb", "other/x.py", "other/..y/z.json"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n" if rel.endswith((".json", ".ipynb")) else "x = 1\n")
    return tmp_path


@pytest.mark.parametrize("walked, root", [
    ("proj", "proj"),            # the root itself
    ("proj/sub", "proj"),        # below the root
    (".", "proj"),               # above the root: its files are outside, the root's inside
    ("other", "proj"),           # beside the root
    ("proj", "proj/sub/deep"),   # the root is deep inside the walked folder
])
def test_walked_files_are_named_as_display_path_names_them(tree, walked, root):
    found = discover([tree / walked], tree / root, (), kinds=KINDS)
    assert found.files
    for item in found.files:
        assert item.display == display_path(item.path, tree / root)
    shown = {item.display for item in found.files}
    if walked == "proj" and root == "proj":
        assert {"train.py", "sub/deep/b.py", "conf/c.yaml"} <= shown
        assert str(tree / "proj" / "..odd.py") in shown  # a name display_path shows absolute


def test_one_walk_gives_the_python_files_and_the_configs(cli, tree):
    result = cli("check", "proj", "--no-cache", cwd=tree)
    assert "Configs: 0 checked, 1 not recognised as a config" in result.out
    assert "No findings in 5 files. 1 file could not be checked." in result.out  # nb.ipynb
