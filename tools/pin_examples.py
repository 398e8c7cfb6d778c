"""Print, or write, the pins a rule's bad examples lack (see docs/plugins.md, "Examples that
pin their findings").

    python tools/pin_examples.py               # every bad example whose pins differ
    python tools/pin_examples.py PF427 PF428   # only these rules
    python tools/pin_examples.py --write PF427 # add the missing pins to the source

It runs every built-in rule on each bad example, as the meta-test does, and prints what the
example must pin. ``--write`` appends ``  # severity: CODE`` to the source line of each
missing pin (a triple-quoted literal whose value is the example, or the end of it) and puts
pins on JSON and launch lines in a ``# --- expect`` section; an example it cannot place (a
stale pin, an example built by ``.format``) is printed for a hand edit. Read the result
before committing: a pin states where a finding belongs, so check each line is right.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from preflight.plan_rules import EXAMPLE_MARK  # noqa: E402
from preflight.registry import all_rules  # noqa: E402
from preflight.rule_examples import _is_plan_rule, example_findings, pins, reported  # noqa: E402
from preflight.rules.base import examples as lazy  # noqa: E402


def _source_files(cls: type) -> list[str]:
    files = {sys.modules[cls.__module__].__file__ or ""}
    for klass in cls.__mro__:
        value = vars(klass).get("bad_examples")
        if isinstance(value, lazy):
            files.add(importlib.import_module(value.module).__file__ or "")
    return sorted(f for f in files if f)


def _locate(cls: type, example: str) -> Optional[tuple[str, ast.Constant, int]]:
    """The one string literal whose value is the example (or, failing that, its end), and how
    many example lines come before it."""
    whole, tail = [], []
    for path in _source_files(cls):
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value == example:
                    whole.append((path, node, 0))
                elif len(node.value) > 60 and example.endswith(node.value):
                    tail.append((path, node, example[: len(example) - len(node.value)].count("\n")))
    found = whole or tail
    return found[0] if len(found) == 1 else None


def _value_index(cls: type, example: str) -> dict[tuple[str, int], int]:
    """(file, line) a finding names -> index of that line in ``example.split("\\n")``."""
    if not _is_plan_rule(cls):
        return {("example.py", k + 1): k for k in range(example.count("\n") + 1)}
    dedented = textwrap.dedent(example)
    lead = len(dedented) - len(dedented.lstrip("\n"))
    current, number, out = "train.py", 0, {}
    for j, line in enumerate(dedented.strip("\n").splitlines()):
        if line.startswith(EXAMPLE_MARK):
            current, number = line[len(EXAMPLE_MARK):].strip(), 0
            continue
        number += 1
        out[(current, number)] = j + lead
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("codes", nargs="*")
    parser.add_argument("--write", action="store_true", help="add the missing pins to the source")
    args = parser.parse_args(argv)
    rules = all_rules(plugins=False)
    edits: dict[str, list[tuple[int, object]]] = defaultdict(list)
    status = 0
    for code, cls in rules.items():
        if args.codes and code not in args.codes:
            continue
        for index, example in enumerate(cls.bad_examples):
            want = reported(cls, example, example_findings(cls, example))
            have = pins(cls, example)
            if want == have:
                continue
            status = 1
            print(f"{code} bad example {index}: pins {have}, must pin {want}")
            if not args.write:
                continue
            if any(p not in want for p in have):
                print("  a pin is stale: edit by hand")
                continue
            located = _locate(cls, example)
            if located is None:
                print("  cannot find the example's literal: edit by hand")
                continue
            path, node, before = located
            src = Path(path).read_text(encoding="utf-8").splitlines()
            segment = src[node.lineno - 1][node.col_offset:].lstrip("rRbBuU")
            if not segment.startswith(('"""', "'''")):
                print("  not a triple-quoted literal: edit by hand")
                continue
            first = node.lineno + (1 if segment[3:] == "\\" else 0) - before
            values = example.split("\n")
            where = _value_index(cls, example)
            expects = []
            for pin_code, file, line, severity in (p for p in want if p not in have):
                k = where.get((file, line))
                text = values[k] if k is not None else ""
                if k is None or not text.strip():
                    print(f"  {file}:{line} not found in the example: edit by hand")
                    continue
                if file.endswith(".json") or file == "launch" or text.rstrip().endswith("\\"):
                    expects.append(f"{file}:{line}: {severity}: {pin_code}")
                    continue
                at = first + k
                if k < before or not src[at - 1].rstrip().endswith(text.rstrip()):
                    print(f"  {file}:{line} is not a source line of its own: edit by hand")
                    continue
                edits[path].append((at, f"  # {severity}: {pin_code}"))
            if expects:
                if not src[node.end_lineno - 1].strip().startswith(('"""', "'''")):
                    print("  the closing quotes share a line: add the `# --- expect` lines by hand")
                    continue
                indent = min((len(v) - len(v.lstrip()) for v in values if v.strip()), default=0)
                lines = [" " * indent + "# --- expect"] + [" " * indent + e for e in expects]
                edits[path].append((node.end_lineno or 0, lines))
    for path, changes in edits.items():
        src = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
        for at, change in sorted(changes, key=lambda c: c[0], reverse=True):
            if isinstance(change, str):
                src[at - 1] = src[at - 1].rstrip("\n") + change + "\n"
            else:
                src[at - 1:at - 1] = [f"{line}\n" for line in change]  # type: ignore[union-attr]
        Path(path).write_text("".join(src), encoding="utf-8")
        print(f"wrote {path}")
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
