"""Time and peak memory of `preflight check` on a 100k-line file and a 20k-file tree.

    python bench/bench_limits.py [--lines 100000] [--files 20000] [--jobs N]

Generates both inputs in a temporary directory (training-loop code: loops, optimizers,
losses kept correctly and a few real bugs, so every analysis does work), runs
`preflight check --no-cache` on each in a child process and prints wall time, CPU time
and the child's peak RSS. Run on an otherwise idle machine; the figures in
docs/hardening.md come from this script.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UNIT = '''
def train_{i}(model, loader, optimizer, scheduler, scaler, device):
    model.train()
    history = []
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        history.append(loss.item())
        if step % 100 == 0:
            print(step, sum(history[-100:]) / 100)
    with torch.no_grad():
        model.eval()
        correct = sum((model(x).argmax(-1) == y).sum().item() for x, y in loader)
    model.train()
    return history, correct
'''
HEAD = "import torch\nimport torch.nn.functional as F\n"


def _file(units: int, start: int = 0) -> str:
    return HEAD + "".join(UNIT.format(i=start + i) for i in range(units))


def _run(cmd: list[str], cwd: Path) -> tuple[float, float, int, int]:
    """Wall s, CPU s (the command and its workers), peak RSS KiB of its largest process, rc."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage (its peak RSS)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, usage.ru_maxrss, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    exe = [sys.executable, "-m", "preflight"]
    unit_lines = UNIT.count("\n")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        big = root / "big"
        big.mkdir()
        (big / "train.py").write_text(_file(max(1, args.lines // unit_lines)))
        lines = (big / "train.py").read_text().count("\n")
        wall, cpu, rss, rc = _run([*exe, "check", "--no-cache", "-j", "1", "train.py"], big)
        print(f"one file, {lines:,} lines: wall {wall:.2f} s, cpu {cpu:.2f} s, "
              f"peak RSS {rss / 1024:.0f} MiB, exit {rc}")
        tree = root / "tree"
        for i in range(args.files):
            d = tree / f"pkg{i // 500}"
            d.mkdir(parents=True, exist_ok=True)
            (d / f"m{i}.py").write_text(_file(1, i))
        wall, cpu, rss2, rc = _run([*exe, "check", "--no-cache", "-q", "-j", str(args.jobs), "."], tree)
        print(f"tree, {args.files:,} files ({args.files * (unit_lines + 2):,} lines), -j{args.jobs}: "
              f"wall {wall:.2f} s, cpu {cpu:.2f} s, peak RSS of the main process {rss2 / 1024:.0f} MiB, "
              f"exit {rc}")
        wall, cpu, _, rc = _run([*exe, "check", "-q", "-j", str(args.jobs), "."], tree)
        wall2, _, _, _ = _run([*exe, "check", "-q", "-j", str(args.jobs), "."], tree)
        print(f"tree with the cache: first {wall:.2f} s, unchanged re-run {wall2:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
