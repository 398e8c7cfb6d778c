"""No rule imports another rule's private helper: a helper two rules share lives in a shared module
(``preflight/rules/<kind>/_<topic>.py``, the analysis layer, or ``preflight.loaders``) under a public
name, so that changing one rule's internals cannot silently change another rule."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "preflight" / "rules"
_RULE_MODULE = re.compile(r"^pf\d{3}")


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
