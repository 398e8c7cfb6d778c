"""A `preflight` stand-in for bench/bugs/score.py that runs only the named rules (det75).

``score.py --preflight "python bench/bugs/det75_only_rules.py PF384,PF385"`` scores what those rules
add: ``check`` and ``validate`` return no findings, ``audit`` runs with ``--select`` the rules. Since a
bug is found when some (code, file) pair is reported more often on the bug than on its twin, and a twin
is flagged when any finding at warning or above is on it, the rules' contribution is separable from
the other rules' (their codes are their own): a case is found after a change when it was found before
or the rules find it, and a twin is flagged when it was before or the rules flag it
(``det75_combine.py`` joins the two ``-v`` outputs)."""

from __future__ import annotations

import json
import subprocess
import sys


def run_only(rules: str, command: str, rest: list[str]) -> int:
    """Run ``preflight COMMAND REST`` with only ``rules`` selected (``check``/``validate``: nothing)."""
    if command == "check":
        print(json.dumps({"findings": []}))
        return 0
    if command == "validate":
        print(json.dumps({"files": []}))
        return 0
    if "--" in rest:
        at = rest.index("--")
        argv = [*rest[:at], "--select", rules, *rest[at:]]
    else:
        argv = [*rest, "--select", rules]
    proc = subprocess.run([sys.executable, "-m", "preflight", command, *argv], capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc.returncode


def main() -> int:
    return run_only(sys.argv[1], sys.argv[2], sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
