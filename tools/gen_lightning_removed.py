"""Generate ``preflight/schemas/config/lightning_removed.json``: Trainer arguments of older Lightning releases.

``lightning_trainer.json`` (``tools/gen_schemas.py``) holds the ``Trainer.__init__`` arguments of
the installed Lightning (2.x). Many real configs are written for a Lightning 1.x release their
project pins (``pytorch-lightning==1.8.6``), whose Trainer still takes ``gpus``,
``resume_from_checkpoint``, ``amp_backend``... This script reads ``Trainer.__init__`` from the
last patch release of each minor version, 1.0 to 2.0, in a git snapshot of
Lightning-AI/pytorch-lightning with ``ast`` (nothing is imported or run), and writes, for every
argument the current schema lacks, the newest of those releases that still takes it
(``last``) and the first that does not (``gone_by``). Only names and version numbers are
written; no Lightning code is copied.

Recipe (the releases read are recorded in the output):

    python tools/gen_lightning_removed.py --git-dir PATH/TO/pytorch-lightning/.git
    python tools/gen_lightning_removed.py --git-dir ... --check   # exit 1 when the file would change
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config"
OUT = HERE / "lightning_removed.json"
CURRENT = HERE / "lightning_trainer.json"
RELEASES = ("1.0.8", "1.1.8", "1.2.10", "1.3.8", "1.4.9", "1.5.10", "1.6.5", "1.7.7", "1.8.6", "1.9.5", "2.0.0")
PATHS = ("pytorch_lightning/trainer/trainer.py", "src/pytorch_lightning/trainer/trainer.py",
         "src/lightning/pytorch/trainer/trainer.py")


def trainer_args(text: str) -> list[str]:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.name == "Trainer":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    args = item.args
                    return [a.arg for a in (*args.args[1:], *args.kwonlyargs)]
    return []


def _show(git_dir: str, tag: str) -> str:
    for path in PATHS:
        proc = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{tag}:{path}"], capture_output=True,
                              text=True)
        if proc.returncode == 0:
            return proc.stdout
    raise SystemExit(f"no Trainer source at {tag} (looked for {', '.join(PATHS)})")


def build(git_dir: str) -> dict[str, Any]:
    current = set(json.loads(CURRENT.read_text(encoding="utf-8"))["properties"])
    per_release = {tag: set(trainer_args(_show(git_dir, tag))) for tag in RELEASES}
    removed: dict[str, dict[str, Optional[str]]] = {}
    for i, tag in enumerate(RELEASES):
        for name in sorted(per_release[tag] - current):
            later = [t for t in RELEASES[i + 1:] if name not in per_release[t]]
            removed[name] = {"last": tag, "gone_by": later[0] if later else None}
    return {
        "about": "Trainer.__init__ arguments of older Lightning releases that the current schema "
                 "(lightning_trainer.json) lacks: `last` is the newest release read that takes it, `gone_by` "
                 "the first release read after it that does not",
        "removed": dict(sorted(removed.items())),
        "x-preflight": {"library": "lightning", "repository": "Lightning-AI/pytorch-lightning",
                        "releases": list(RELEASES), "generator": "tools/gen_lightning_removed.py",
                        "method": "ast of Trainer.__init__ at each release tag"},
    }


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(args.git_dir), indent=1) + "\n"
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} would change")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
