"""Side by side with torch-preflight on preflight's own rule examples.

Writes every rule's bad and good examples to a temporary folder, runs
`preflight check` and `torch-preflight check` over them (JSON output) and prints,
per rule: how many bad examples each tool flags, and how many good ("correct
twin") examples each tool flags. Then lists every bad example torch-preflight
flags that preflight does not (should be none), and every correct twin preflight
flags at warning or error severity (should be none).

Usage: python bench/compare_torch_preflight.py --torch-preflight PATH/TO/torch-preflight
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections import defaultdict
from pathlib import Path


def _run(cmd: list[str], cwd: Path) -> dict:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.exit(f"could not read JSON from {cmd[0]}: {proc.stderr[-500:]}")


def _files_with_findings(doc: dict, key: str, *, min_severity: set[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for f in doc.get(key, []):
        sev = f.get("severity", "error")
        if sev not in min_severity:
            continue
        path = f.get("path") or f.get("file") or f.get("filename") or ""
        out[Path(path).name].append(f.get("code", "?"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--torch-preflight", default=shutil.which("torch-preflight"), required=False)
    args = ap.parse_args()
    if not args.torch_preflight:
        sys.exit("torch-preflight not found: pass --torch-preflight PATH")
    from preflight.registry import all_rules

    rules = all_rules(plugins=False)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        kinds: dict[str, tuple[str, str]] = {}
        for code, cls in rules.items():
            for kind, examples in (("bad", cls.bad_examples), ("good", cls.good_examples)):
                for i, example in enumerate(examples):
                    name = f"{code}_{kind}{i}.py"
                    (root / name).write_text(textwrap.dedent(example), encoding="utf-8")
                    kinds[name] = (code, kind)
        ours = _run([sys.executable, "-m", "preflight", "check", ".", "--no-cache", "--format", "json",
                     "--exit-zero"], root)
        theirs = _run([args.torch_preflight, "check", ".", "-f", "json", "--no-color"], root)
        our_hits = _files_with_findings(ours, "findings", min_severity={"error", "warning", "note"})
        our_serious = _files_with_findings(ours, "findings", min_severity={"error", "warning"})
        key = "diagnostics" if "diagnostics" in theirs else "findings"
        their_serious = _files_with_findings(theirs, key, min_severity={"error", "warning"})

    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    missed: list[str] = []
    noisy: list[str] = []
    for name, (code, kind) in sorted(kinds.items()):
        row = table[code]
        row[f"{kind}_n"] += 1
        if kind == "bad":
            row["ours_bad"] += code in our_hits.get(name, [])
            row["theirs_bad"] += bool(their_serious.get(name))
            if their_serious.get(name) and not our_hits.get(name):
                missed.append(f"{name}: torch-preflight {their_serious[name]}, preflight nothing")
        else:
            row["ours_good"] += bool(our_serious.get(name))
            row["theirs_good"] += bool(their_serious.get(name))
            if our_serious.get(name):
                noisy.append(f"{name}: preflight {our_serious[name]}")
    print(f"{'rule':<7} {'bad examples flagged':>28}   {'correct twins flagged (warning+)':>34}")
    print(f"{'':<7} {'preflight':>12} {'torch-preflight':>15}   {'preflight':>16} {'torch-preflight':>17}")
    totals = defaultdict(int)
    for code, row in sorted(table.items()):
        for k, v in row.items():
            totals[k] += v
        print(f"{code:<7} {row['ours_bad']:>5}/{row['bad_n']:<6} {row['theirs_bad']:>8}/{row['bad_n']:<6}   "
              f"{row['ours_good']:>9}/{row['good_n']:<6} {row['theirs_good']:>10}/{row['good_n']:<6}")
    print(f"{'total':<7} {totals['ours_bad']:>5}/{totals['bad_n']:<6} {totals['theirs_bad']:>8}/{totals['bad_n']:<6}   "
          f"{totals['ours_good']:>9}/{totals['good_n']:<6} {totals['theirs_good']:>10}/{totals['good_n']:<6}")
    print("\nbad examples torch-preflight flags and preflight does not:", len(missed))
    for line in missed:
        print("  " + line)
    print("correct twins preflight flags at warning or error:", len(noisy))
    for line in noisy:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
