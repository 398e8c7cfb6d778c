"""The built-in rules sit one folder per kind, and the registry finds a rule module wherever
it is dropped under ``preflight/rules/`` (top level or any sub-folder)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from preflight.registry import all_rules
from preflight.rules import KINDS

REPO = Path(__file__).resolve().parent.parent
RULES_DIR = REPO / "preflight" / "rules"
RULES = all_rules(plugins=False)


@pytest.mark.parametrize("code", sorted(RULES))
def test_each_rule_sits_in_the_folder_of_its_kind(code):
    cls = RULES[code]
    parts = cls.__module__.split(".")
    where = "/".join(parts[:-1]).replace(".", "/") + f"/{parts[-1]}.py"
    assert cls.kind in KINDS, f"{code}: unknown kind {cls.kind!r}"
    assert parts[:2] == ["preflight", "rules"] and len(parts) == 4 and parts[2] == cls.kind, (
        f"{code} ({cls.__name__}, kind {cls.kind!r}) is in {where}: "
        f"`git mv` it to preflight/rules/{cls.kind}/ and run `python -m preflight.docs`")


def test_the_kind_follows_the_base_class():
    from preflight.plan_rules import ConfigRule, PlanRule
    from preflight.rules.base import MetaRule

    for code, cls in RULES.items():
        expected = ("config" if issubclass(cls, ConfigRule) else "plan" if issubclass(cls, PlanRule)
                    else "meta" if issubclass(cls, MetaRule) else "code")
        assert cls.kind == expected, code


def test_examples_and_helpers_sit_beside_the_rules_that_use_them():
    """An examples module in a kind folder is read only by rules of that kind."""
    for code, cls in RULES.items():
        for attr in ("bad_examples", "good_examples"):
            lazy = next((vars(k)[attr] for k in cls.__mro__ if attr in vars(k)), None)
            module = getattr(lazy, "module", None)
            if module is not None:
                assert module.startswith(f"preflight.rules.{cls.kind}."), (code, module)


def test_every_kind_folder_is_a_shipped_package():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    folders = sorted(p.name for p in RULES_DIR.iterdir()
                     if p.is_dir() and p.name.isidentifier() and not p.name.startswith("_"))
    assert folders == sorted(KINDS)
    for kind in KINDS:
        assert (RULES_DIR / kind / "__init__.py").is_file()
        assert f'"preflight.rules.{kind}"' in pyproject, f"pyproject.toml does not ship preflight.rules.{kind}"


def test_a_module_is_found_at_the_top_level_and_in_any_sub_folder(tmp_path):
    """What the registry does for ``preflight.rules``, on a package laid out the same way: a rule
    module merged in at the top level, one in a kind folder, one in a folder without
    ``__init__.py``; private modules (examples, support) are not imported."""
    pkg = tmp_path / "acme_rules"
    (pkg / "code").mkdir(parents=True)
    (pkg / "newkind").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "code" / "__init__.py").write_text("")
    seen = "import builtins\nbuiltins.SEEN = getattr(builtins, 'SEEN', []) + [__name__]\n"
    for path in ("pf990_top.py", "code/pf991_code.py", "newkind/pf992_new.py", "code/_pf991_examples.py"):
        (pkg / path).write_text(seen)
    script = textwrap.dedent(f"""
        import builtins, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from preflight.registry import _import_package_modules
        _import_package_modules("acme_rules", recursive=True)
        print(sorted(builtins.SEEN))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sorted(["acme_rules.pf990_top", "acme_rules.code.pf991_code",
                                             "acme_rules.newkind.pf992_new"]))


def test_a_module_is_importable_under_its_flat_name_as_the_same_object():
    """A rule written against the flat layout (``preflight.rules._pf60x_support``) still imports,
    and gets the one module, so nothing registers twice."""
    import importlib

    flat = importlib.import_module("preflight.rules._pf60x_support")
    moved = importlib.import_module("preflight.rules.config._pf60x_support")
    assert flat is moved and moved.__spec__.name == "preflight.rules.config._pf60x_support"
    flat_rule = importlib.import_module("preflight.rules.pf101_retained_graph")
    assert flat_rule.RetainedGraph is RULES["PF101"]
    with pytest.raises(ImportError):
        importlib.import_module("preflight.rules.pf999_no_such_rule")
