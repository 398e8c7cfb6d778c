"""Generate ``preflight/schemas/config/trl_preference_fields.json``: the fields of TRL's preference configs.

A file with TRL preference-trainer keys (``beta``, ``max_prompt_length``, ...) is checked as
TrainingArguments (``preflight/validate_kinds.py``); the script reads it with ``DPOConfig``,
``KTOConfig``, ``ORPOConfig``, ``CPOConfig``, ``BCOConfig`` (or ``TrlParser``/``H4ArgumentParser`` with
them), whose own fields (``label_smoothing``, ``loss_type``, ``rpo_alpha``...) are not typos. TRL is not
installed in the environment that generates the other schemas, so this script reads those
classes from a git snapshot of huggingface/trl at a pinned commit with ``ast`` (nothing is imported
or run) and writes only the field names. No TRL code is copied into this repository.

    python tools/gen_trl_preference_fields.py --git-dir PATH/TO/trl/.git --commit f2cd57710ae345ea6428ae95363267fcf38a3dc8
    python tools/gen_trl_preference_fields.py --git-dir ... --commit ... --check
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

OUT = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config" / "trl_preference_fields.json"
CLASSES = {
    "DPOConfig": ("trl/trainer/dpo_config.py",),
    "KTOConfig": ("trl/trainer/kto_config.py",),
    "ORPOConfig": ("trl/experimental/orpo/orpo_config.py", "trl/trainer/orpo_config.py"),
    "CPOConfig": ("trl/experimental/cpo/cpo_config.py", "trl/trainer/cpo_config.py"),
    "BCOConfig": ("trl/experimental/bco/bco_config.py", "trl/trainer/bco_config.py"),
}


def fields_of(text: str, name: str) -> list[str]:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return [s.target.id for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and not s.target.id.startswith("_")]
    return []


def build(git_dir: str, commit: str) -> dict[str, Any]:
    out: dict[str, list[str]] = {}
    for name, paths in CLASSES.items():
        for path in paths:
            proc = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True,
                                  text=True)
            if proc.returncode == 0:
                out[name] = sorted(set(fields_of(proc.stdout, name)))
                break
        else:
            raise SystemExit(f"{name} not found at {commit} (looked in {', '.join(paths)})")
    return {"classes": out,
            "x-preflight": {"library": "trl", "version": commit[:12], "commit": commit,
                            "repository": "huggingface/trl", "generator": "tools/gen_trl_preference_fields.py",
                            "method": "ast of the preference config dataclasses; their own fields only"}}


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
