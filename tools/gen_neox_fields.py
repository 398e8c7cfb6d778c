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

``--release TAG`` (v1.0, v2.0) also records, under ``x-removed``, the fields those tagged releases
declared that the pinned commit no longer has (``gas``): configs written for a release (Pythia's
README trains with ``git checkout v1.0``) use them, and ``validate`` says which release has them.

``--fork GIT_DIR REF NAME`` does the same for a public fork's branch (Stability AI's
``Stability-AI/gpt-neox`` branch ``stable``, whose fields StableLM's configs use:
``attention_head_type``, ``rotary_interleaved``, ``eval_batch_size``): its fields that the pinned
commit lacks are recorded under ``x-removed`` with the fork's NAME and commit, so ``validate`` says
which GPT-NeoX declares them instead of calling them typos.

Recipe (the commit is recorded in the output):

    git clone https://github.com/EleutherAI/gpt-neox /tmp/gpt-neox   # or any bare snapshot
    python tools/gen_neox_fields.py --git-dir /tmp/gpt-neox/.git --commit ea7aefd8f8e183256992d9fede4d7c71a46d67a5 \
        --release v1.0 --release v2.0 \
        --fork /tmp/stability-gpt-neox.git stable Stability-AI/gpt-neox@stable
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from preflight.validate_neox import FILES, neox_fields, with_dashes

OUT = Path(__file__).resolve().parent.parent / "preflight" / "schemas" / "config" / "gpt_neox.json"


def fields(sources: dict[str, str], skip_broken: bool = False) -> dict[str, dict[str, Any]]:
    """The NeoXArgs fields (``preflight.validate_neox.neox_fields``, also used for a config inside a
    GPT-NeoX checkout); with ``skip_broken`` a file that does not parse is named and left out
    (v2.0's deepspeed_args.py has an unclosed docstring in this snapshot: its fields are the
    DeepSpeed/runner ones, which the pinned commit still has; only neox_args.py is read then)."""
    for path, text in sources.items():
        try:
            ast.parse(text, filename=path)
        except SyntaxError:
            if not skip_broken:
                raise
            print(f"note: {path} does not parse at this release; its fields are not compared", file=sys.stderr)
    return neox_fields(sources, skip_broken=skip_broken)


def _sources(git_dir: str, commit: str) -> dict[str, str]:
    return {p: subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{p}"], check=True,
                              capture_output=True, text=True).stdout for p in FILES}


def _resolve(git_dir: str, ref: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", f"{ref}^{{commit}}"], check=True,
                          capture_output=True, text=True).stdout.strip()


def build(git_dir: str, commit: str, releases: tuple[str, ...] = (),
          forks: tuple[tuple[str, str, str], ...] = ()) -> dict[str, Any]:
    props = fields(_sources(git_dir, commit))
    # fields a tagged release declared and this commit no longer does (`gas`, removed after v2.0):
    # a config written for that release runs there and fails here
    removed: dict[str, list[str]] = {}
    release_commits = {}
    for tag in releases:
        release_commits[tag] = _resolve(git_dir, tag)
        for name in fields(_sources(git_dir, release_commits[tag]), skip_broken=True):
            if name not in props:
                removed.setdefault(name, []).append(tag)
    # a public fork's branch (git dir, ref, name): its fields the commit lacks, under the fork's name
    fork_commits = {}
    for fork_dir, ref, name in forks:
        fork_commits[name] = _resolve(fork_dir, ref)
        for field in fields(_sources(fork_dir, fork_commits[name]), skip_broken=True):
            if field not in props and name not in removed.get(field, []):
                removed.setdefault(field, []).append(name)
    for name in list(removed):
        if "_" in name:
            removed.setdefault(name.replace("_", "-"), removed[name])
    # NeoX reads `a-b` as `a_b`: both spellings are the same field
    props = with_dashes(props)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "GPT-NeoX NeoXArgs (YAML config)",
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "x-unknown-keys": "error",
        "x-removed": dict(sorted(removed.items())),
        "x-preflight": {"library": "gpt-neox", "version": commit[:12], "commit": commit,
                        "repository": "EleutherAI/gpt-neox", "generator": "tools/gen_neox_fields.py",
                        "releases": release_commits,
                        **({"forks": fork_commits} if fork_commits else {}),
                        "method": "ast of the NeoXArgs* dataclasses in " + ", ".join(FILES)},
    }


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--release", action="append", default=[],
                        help="a tagged release whose fields the commit no longer has are recorded (x-removed)")
    parser.add_argument("--fork", nargs=3, action="append", default=[], metavar=("GIT_DIR", "REF", "NAME"),
                        help="a public fork's branch whose fields the commit lacks are recorded (x-removed) under NAME")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(args.git_dir, args.commit, tuple(args.release),
                            tuple(tuple(f) for f in args.fork)), indent=1, sort_keys=False) + "\n"
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} would change")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
