"""Generate ``preflight/schemas/config/gpt_neox.json``: the fields of GPT-NeoX's ``NeoXArgs``.

GPT-NeoX is not a pip package; its arguments are the ``@dataclass`` fields of the classes in
``megatron/neox_arguments/neox_args.py`` and ``deepspeed_args.py`` (``NeoXArgs`` inherits
them all). This script reads those two files from a git snapshot of EleutherAI/gpt-neox at a
pinned commit with ``ast`` (nothing is imported or run) and writes only the field list: name,
a JSON type for the annotations ``NeoXArgs.validate_types`` checks, ``Literal`` choices, and
the default when it is a literal. No GPT-NeoX code is copied into this repository.

What GPT-NeoX does with a config (``NeoXArgs.from_ymls``): YAML keys have ``-`` replaced by
``_``, then ``NeoXArgs(**config)`` runs, so an unknown key is a ``TypeError`` at start-up
(``x-unknown-keys: error``); ``validate_types`` rejects a value whose type is not the
annotation (``None`` is always allowed, an int is allowed for a float, ``Literal`` values
compare case-insensitively).

Recipe (the commit is recorded in the output):

    git clone https://github.com/EleutherAI/gpt-neox /tmp/gpt-neox   # or any bare snapshot
    python tools/gen_neox_fields.py --git-dir /tmp/gpt-neox/.git --commit ea7aefd8f8e183256992d9fede4d7c71a46d67a5
    python tools/gen_neox_fields.py --git-dir ... --commit ... --check   # exit 1 when the file would change
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

OUT = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config" / "gpt_neox.json"
FILES = ("megatron/neox_arguments/neox_args.py", "megatron/neox_arguments/deepspeed_args.py")
SIMPLE = {"int": "integer", "float": "number", "bool": "boolean", "str": "string", "dict": "object",
          "list": "array"}


def _type_of(node: ast.expr) -> Optional[dict[str, Any]]:
    """The JSON schema of an annotation NeoX's ``validate_types`` enforces, or None (unchecked)."""
    if isinstance(node, ast.Name) and node.id in SIMPLE:
        kind = SIMPLE[node.id]
        return {"type": ["number", "integer"] if kind == "number" else kind}
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        name = node.value.id
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name == "Literal":
            values = [a.value for a in args if isinstance(a, ast.Constant)]
            return {"enum": values, "x-case-insensitive": True} if len(values) == len(args) else None
        if name in ("Union", "Optional"):
            subs = [_type_of(a) for a in args if not (isinstance(a, ast.Constant) and a.value is None)]
            if any(s is None for s in subs):
                return None
            return {"anyOf": subs}
    return None


def fields(sources: dict[str, str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path, text in sources.items():
        tree = ast.parse(text, filename=path)
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef) or not cls.name.startswith("NeoXArgs"):
                continue
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                schema: dict[str, Any] = dict(_type_of(stmt.annotation) or {})
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, (int, float, str, bool)):
                    schema["default"] = stmt.value.value
                schema["x-class"] = cls.name
                out[stmt.target.id] = schema
    return out


def build(git_dir: str, commit: str) -> dict[str, Any]:
    sources = {p: subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{p}"], check=True,
                                 capture_output=True, text=True).stdout for p in FILES}
    props = fields(sources)
    # NeoX reads `a-b` as `a_b`: both spellings are the same field
    for name in list(props):
        if "_" in name:
            props[name.replace("_", "-")] = {**props[name], "x-same-as": name}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "GPT-NeoX NeoXArgs (YAML config)",
        "type": "object",
        "properties": dict(sorted(props.items())),
        "additionalProperties": False,
        "x-unknown-keys": "error",
        "x-preflight": {"library": "gpt-neox", "version": commit[:12], "commit": commit,
                        "repository": "EleutherAI/gpt-neox", "generator": "tools/gen_neox_fields.py",
                        "method": "ast of the NeoXArgs* dataclasses in " + ", ".join(FILES)},
    }


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(args.git_dir, args.commit), indent=1, sort_keys=False) + "\n"
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} would change")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
