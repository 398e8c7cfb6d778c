"""CPU seconds of chunks of the test suite, in two checkouts side by side (before / after a change).

Each chunk runs as its own ``python -m pytest -q -p no:cacheprovider`` with the checkout's own
``.venv``; the figure is the CPU time (user + system) of that pytest and every process it
started, read with ``getrusage(RUSAGE_CHILDREN)``, so it does not depend on how busy a shared
machine is (the wall time is printed too, but only the CPU time compares across runs).

    python bench/suite_speed.py --before /path/to/main-checkout --after . [--chunk 'ARGS' ...]

The default chunks are the slowest tests of ``.ci/run``'s ``--durations=30`` lists that the
speed work of this file's commit touched.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DEFAULT_CHUNKS = (
    "tests/test_jobs63_batch_keys.py",
    "tests/test_readme.py -k quickstart",
    "tests/test_validate.py -k valid_files_are_silent",
    "tests/test_docs_commands.py",
)


def run_chunk(root: Path, chunk: str) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, pytest's last line) of one chunk in checkout ``root``, run in a
    child process that reports its children's CPU time."""
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "wall = time.perf_counter() - t\n"
        "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "last = (p.stdout.strip().splitlines() or [''])[-1]\n"
        "print(f'{r.ru_utime + r.ru_stime:.2f} {wall:.2f} {last}')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFLIGHT_")}
    cmd = [sys.executable, "-c", probe, str(root / ".venv" / "bin" / "python"), "-m", "pytest", "-q",
           "-p", "no:cacheprovider", *shlex.split(chunk)]
    out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True).stdout.strip()
    cpu, wall, last = out.split(" ", 2)
    return float(cpu), float(wall), last


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="checkout before the change (with its .venv)")
    ap.add_argument("--after", type=Path, default=Path("."), help="checkout after the change (with its .venv)")
    ap.add_argument("--chunk", action="append", help="pytest arguments of one chunk (repeatable)")
    args = ap.parse_args(argv)
    chunks = args.chunk or list(DEFAULT_CHUNKS)
    roots = {"before": args.before.resolve(), "after": args.after.resolve()}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:  # the two checkouts side by side, chunk by chunk
        rows = []
        for chunk in chunks:
            futures = {name: pool.submit(run_chunk, root, chunk) for name, root in roots.items()}
            rows.append((chunk, {name: f.result() for name, f in futures.items()}))
    print(f"{'chunk':52} {'before CPU s':>12} {'after CPU s':>12} {'change':>8}   pytest (after)")
    total = {"before": 0.0, "after": 0.0}
    for chunk, got in rows:
        b, a = got["before"][0], got["after"][0]
        total["before"] += b
        total["after"] += a
        print(f"{chunk:52} {b:12.1f} {a:12.1f} {(a - b) / b:+8.0%}   {got['after'][2]}")
        if got["before"][2].split(" in ")[0] != got["after"][2].split(" in ")[0]:
            print(f"  before: {got['before'][2]}")
    b, a = total["before"], total["after"]
    print(f"{'total':52} {b:12.1f} {a:12.1f} {(a - b) / b:+8.0%}")
    print(f"(CPU = user + system of pytest and its subprocesses; wall {time.perf_counter() - started:.0f} s on a "
          f"shared machine, not compared; {resource.getrusage(resource.RUSAGE_SELF).ru_utime:.1f} s here)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
