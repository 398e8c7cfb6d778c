"""No rule imports another rule's private helper: a helper two rules share lives in a shared module
(``preflight/rules/<kind>/_<topic>.py``, the analysis layer, or ``preflight.loaders``) under a public
name, so that changing one rule's internals cannot silently change another rule."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "preflight" / "rules"
_RULE_MODULE = re.compile(r"^pf\d{3,4}")


def private_rule_imports(root: Path) -> list[str]:
    """``file:line name <- module`` for each private name a module under ``root`` imports from a rule
    module (``pfNNN_*``) other than itself."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            last = node.module.rsplit(".", 1)[-1]
            if not _RULE_MODULE.match(last) or last == path.stem:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {alias.name} <- {node.module}")
    return found


def test_no_rule_imports_another_rules_private_helper():
    assert private_rule_imports(RULES) == []


def test_the_check_finds_a_private_import_at_its_line_and_passes_a_shared_module(tmp_path):
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "pf901_one.py").write_text("def _load(path):\n    return path\n")
    (tmp_path / "plan" / "pf902_two.py").write_text(textwrap.dedent("""\
        from __future__ import annotations

        from acme.rules.plan._shared import load_config_file
        from acme.rules.plan.pf901_one import _load
        from acme.rules.plan.pf901_one import __doc__ as one_doc
    """))
    assert private_rule_imports(tmp_path) == ["plan/pf902_two.py:4 _load <- acme.rules.plan.pf901_one"]


def private_adapter_imports(root: Path, package: str = "preflight.adapters") -> list[str]:
    """``file:line name <- module`` for each private name a module under ``root`` takes from an adapter
    (``from preflight.adapters.x import _name``, or ``x._name`` on a module bound by ``import
    preflight.adapters.x as x`` / ``from preflight.adapters import x``): a rule reads the plan or an
    adapter's public helper, never an adapter's internals."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules: dict[str, str] = {}  # a local name bound to an adapter module -> that module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and (
                    node.module == package or node.module.startswith(package + ".")):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(root)}:{node.lineno} {alias.name} <- {node.module}")
                    elif node.module == package:
                        modules[alias.asname or alias.name] = f"{package}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(package + ".") and alias.asname:
                        modules[alias.asname] = alias.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in modules and node.attr.startswith("_") and not node.attr.startswith("__"):
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.attr} <- {modules[node.value.id]}")
    return sorted(found)


def test_no_rule_imports_an_adapters_private_helper():
    assert private_adapter_imports(RULES) == []


def test_the_adapter_check_finds_each_private_use_at_its_line_and_passes_public_names(tmp_path):
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "pf903_three.py").write_text(textwrap.dedent("""\
        from __future__ import annotations

        from preflight.adapters.hydra_compose import find_file, strip_config_ext
        from preflight.adapters import hydra_apps
        import preflight.adapters.hydra as hydra


        def check(project):
            from preflight.adapters.hydra_apps import _load, compositions

            hydra_apps.find_apps(project)
            hydra.__doc__
            return hydra_apps._nodes({}, ()), hydra._args_like, compositions, _load, find_file
    """))
    (tmp_path / "plan" / "pf904_four.py").write_text(textwrap.dedent("""\
        from preflight.adapters.hydra_apps import composed_leaves
        from preflight.rules.plan._hydra_tree import config_leaves
        import preflight.adapters.hydra


        def leaves(data):
            return composed_leaves(data, ()), config_leaves(data, ()), preflight.adapters.hydra.find_apps
    """))
    assert private_adapter_imports(tmp_path) == [
        "plan/pf903_three.py:13 _args_like <- preflight.adapters.hydra",
        "plan/pf903_three.py:13 _nodes <- preflight.adapters.hydra_apps",
        "plan/pf903_three.py:9 _load <- preflight.adapters.hydra_apps",
    ]
