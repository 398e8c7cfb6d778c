"""Generate ``preflight/schemas/config/axolotl.json``: the top-level field names of an axolotl config.

axolotl checks its YAML config with pydantic: ``axolotl.cli.config.load_cfg`` reads it with
``yaml.safe_load`` and replaces it with ``validate_config(cfg)``, which is
``AxolotlInputConfig(**cfg).model_dump(exclude_none=True)`` (``AxolotlConfigWCapabilities`` when
the GPU's capabilities are known), with the argument models of the config's ``plugins:`` merged
in (``merge_input_args``). None of those models sets ``extra``, so pydantic's default applies:
**a key no model declares is dropped**, silently, and the rest of axolotl never sees it.

This script reads the models from a git snapshot of axolotl-ai-cloud/axolotl at a pinned commit
with ``ast`` (nothing is imported or run) and writes only names: each field of
``AxolotlInputConfig`` / ``AxolotlConfigWCapabilities`` and their base classes (their pydantic
``alias`` / ``validation_alias`` too: ``populate_by_name`` accepts both), and, per integration
package (``axolotl.integrations.<name>``), the fields of the models in its ``args.py`` that a
plugin adds. No axolotl code is copied into this repository.

Recipe (the commit is recorded in the output):

    python tools/gen_axolotl_fields.py --git-dir PATH/TO/axolotl/.git --commit 067b021c8b87a9e5e380b9173c704cf7340e30f5
    python tools/gen_axolotl_fields.py --git-dir ... --commit ... --check   # exit 1 when the file would change
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

OUT = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config" / "axolotl.json"
SCHEMAS = "src/axolotl/utils/schemas/"
INTEGRATIONS = "src/axolotl/integrations/"
ROOTS = ("AxolotlInputConfig", "AxolotlConfigWCapabilities")


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True,
                          text=True).stdout


def _base_name(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _aliases(node: Optional[ast.expr]) -> set[str]:
    """String ``alias=`` / ``validation_alias=`` (and ``AliasChoices("a", "b")``) inside ``node``."""
    out: set[str] = set()
    if node is None:
        return out
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        for kw in call.keywords:
            if kw.arg not in ("alias", "validation_alias"):
                continue
            for sub in ast.walk(kw.value):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    out.add(sub.value)
    return out


def classes(sources: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Every class of ``sources``: its base names and the names of its annotated fields."""
    out: dict[str, dict[str, Any]] = {}
    for path, text in sources.items():
        tree = ast.parse(text, filename=path)
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            names: set[str] = set()
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                name = stmt.target.id
                if name.startswith("_") or name == "model_config":
                    continue  # pydantic private attributes and the model's own settings are not fields
                if isinstance(stmt.annotation, ast.Subscript) and _base_name(stmt.annotation.value) == "ClassVar":
                    continue
                names.add(name)
                names |= _aliases(stmt.value) | _aliases(stmt.annotation)
            entry = out.setdefault(cls.name, {"bases": set(), "fields": set(), "files": set()})
            entry["bases"] |= {b for b in map(_base_name, cls.bases) if b}
            entry["fields"] |= names
            entry["files"].add(path)
    return out


def resolve(name: str, table: dict[str, dict[str, Any]], seen: Optional[set[str]] = None) -> set[str]:
    """The fields of ``name`` and of every base class found in ``table``."""
    seen = set() if seen is None else seen
    if name in seen or name not in table:
        return set()
    seen.add(name)
    fields = set(table[name]["fields"])
    for base in table[name]["bases"]:
        fields |= resolve(base, table, seen)
    return fields


def build(git_dir: str, commit: str) -> dict[str, Any]:
    listing = _git(git_dir, "ls-tree", "-r", "--name-only", commit).splitlines()
    wanted = [p for p in listing if p.endswith(".py") and (
        p.startswith(SCHEMAS) or (p.startswith(INTEGRATIONS) and p.endswith("/args.py")))]
    sources = {p: _git(git_dir, "show", f"{commit}:{p}") for p in wanted}
    table = classes(sources)
    missing = [r for r in ROOTS if r not in table]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not found under {SCHEMAS} at {commit}")
    top: set[str] = set()
    for root in ROOTS:
        top |= resolve(root, table)
    plugins: dict[str, list[str]] = {}
    for path in sorted(p for p in sources if p.startswith(INTEGRATIONS)):
        package = "axolotl.integrations." + path[len(INTEGRATIONS):-len("/args.py")].replace("/", ".")
        fields: set[str] = set()
        for name, entry in table.items():
            if path in entry["files"]:
                fields |= resolve(name, table)
        plugins[package] = sorted(fields)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "axolotl config (AxolotlInputConfig top-level fields)",
        "type": "object",
        "properties": {name: {} for name in sorted(top)},
        "additionalProperties": False,
        "x-unknown-keys": "ignored",
        "x-plugins": plugins,
        "x-preflight": {"library": "axolotl", "version": commit[:12], "commit": commit,
                        "repository": "axolotl-ai-cloud/axolotl", "generator": "tools/gen_axolotl_fields.py",
                        "method": "ast of the pydantic models under " + SCHEMAS + " (" + ", ".join(ROOTS)
                                  + " and their bases, aliases included) and of " + INTEGRATIONS + "*/args.py "
                                  "(plugin arguments); names only, values not typed"},
    }


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(args.git_dir, args.commit), indent=1) + "\n"
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} would change")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
