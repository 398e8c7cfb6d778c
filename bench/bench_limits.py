"""Growth of `preflight check` on input shapes, and time and memory at the limits.

    python bench/bench_limits.py [--scale 1.0] [--shapes-only] [--repeats 3] [--lines 100000] [--files 20000] [--jobs N]

1. Shapes (each generated at size n and 2n; a child process checks it in-process with
   `-j 1` semantics and reports the CPU seconds of `check_files` alone, start-up excluded):
   a flat top-level training script, many training loops in one function, one loop that
   rebinds the loss under many `if`s, and a notebook of thousands of cells. Printed: lines,
   CPU at n and 2n, and their ratio; linear growth means a ratio near 2 (the target is
   <= 2.2). ``--scale`` multiplies every n. Each size is run ``--repeats`` times, interleaved,
   and the least CPU kept; the last column is the same ratio for ``ast.parse`` alone.
2. Limits: a 100k-line file and a 20k-file tree (training-loop code: loops, optimizers,
   losses kept correctly and a few real bugs, so every analysis does work), each checked
   by `preflight check --no-cache` in a child process: wall time, CPU time and the child's
   peak RSS.

Run on an otherwise idle machine; the figures in docs/hardening.md come from this script.
"""

from __future__ import annotations

import argparse
import json
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


FLAT_HEAD = """import torch
import torch.nn.functional as F
model = torch.nn.Linear(10, 10).cuda()
optimizer = torch.optim.AdamW(model.parameters())
loader = torch.utils.data.DataLoader(dataset, batch_size=32, num_workers=4, pin_memory=True)
history = []
"""
FLAT_UNIT = """for step, (x, y) in enumerate(loader):
    x, y = x.to(device), y.to(device)
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    history.append(loss.item())
    if step % 100 == 0:
        print(step, sum(history[-100:]) / 100)
"""
BRANCH_UNIT = """    if flags[{i}]:
        loss = loss + {i} * model.penalty(x)
"""


def _indent(text: str) -> str:
    return "".join("    " + line if line.strip() else line for line in text.splitlines(True))


def shape_flat(n: int) -> tuple[str, str]:
    """A top-level script: n training loops one after another, no function."""
    return "flat.py", FLAT_HEAD + FLAT_UNIT * n


def shape_loops(n: int) -> tuple[str, str]:
    """One function holding n training loops."""
    return "loops.py", (HEAD + "\n\ndef train(model, loader, optimizer, device, history):\n"
                        + _indent(FLAT_UNIT) * n)


def shape_branches(n: int) -> tuple[str, str]:
    """One training loop whose loss is rebound under n ``if``s."""
    body = "".join(BRANCH_UNIT.format(i=i) for i in range(n))
    return "branches.py", (FLAT_HEAD + "for step, (x, y) in enumerate(loader):\n"
                           "    loss = F.cross_entropy(model(x), y)\n" + body
                           + "    loss.backward()\n    optimizer.step()\n    optimizer.zero_grad()\n")


def shape_notebook(n: int) -> tuple[str, str]:
    """A notebook of n code cells, one training loop each (after a set-up cell)."""
    cells = [FLAT_HEAD] + [FLAT_UNIT] * (n - 1)
    doc = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                      "source": c.splitlines(True)} for c in cells],
           "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return "notebook.ipynb", json.dumps(doc)


# name, generator, n at --scale 1 (the notebook's 2n is the 10,000 cells of the campaign)
SHAPES = (
    ("flat script", shape_flat, 1500),
    ("loops in one function", shape_loops, 1500),
    ("rebinding under ifs", shape_branches, 4000),
    ("notebook cells", shape_notebook, 5000),
)

_TIMER = """
import ast, gc, sys, time
from pathlib import Path
from preflight.engine import Selection, check_files
from preflight.registry import rule_codes
from preflight.workspace import discover
found = discover([Path(sys.argv[1])], Path.cwd(), [], kinds=frozenset({"python", "notebook"}))
selection = Selection(codes=tuple(rule_codes()))
start = time.process_time()
run = check_files(found.files, selection, jobs=1)
check = time.process_time() - start
gc.disable()  # the floor: ast.parse of the same Python text, as check_files runs it
text = open(sys.argv[2]).read()
start = time.process_time()
ast.parse(text)
floor = time.process_time() - start
print(check, floor, len(run.findings), len(run.errors))
"""


def _python_text(name: str, text: str) -> str:
    """The Python source preflight parses for a generated input (a notebook's code cells)."""
    if not name.endswith(".ipynb"):
        return text
    return "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])


def _shape_cpu(root: Path, name: str, text: str) -> tuple[float, float, int, int]:
    """CPU seconds of ``check_files`` on one generated input, of ``ast.parse`` on its Python
    text in the same child (the floor), its line count and its number of findings."""
    path = root / name
    path.write_text(text)
    python = root / (name + ".py.txt")
    python.write_text(_python_text(name, text))
    out = subprocess.run([sys.executable, "-c", _TIMER, str(path), str(python)], cwd=root, check=True,
                         capture_output=True, text=True).stdout.split()
    lines = text.count("\n") if not name.endswith(".ipynb") else text.count("\\n")
    return float(out[0]), float(out[1]), lines, int(out[2])


def shapes(root: Path, scale: float, repeats: int) -> None:
    """Each shape at n and 2n, ``repeats`` interleaved pairs (n, 2n, n, 2n, ...): the least
    CPU of each size is kept, which removes most of what neighbours on a shared machine add.
    The floor column is ``ast.parse`` of the same text in the same children: its own growth
    shows how much of a ratio is the interpreter's (allocating a larger tree), not preflight's."""
    print(f"shape                      lines(n)    cpu n     cpu 2n   ratio (2x input; linear <= 2.2)"
          f"   floor ratio   (least of {repeats} interleaved pairs)")
    for label, make, n in SHAPES:
        n = max(2, int(n * scale))
        small, large = make(n), make(2 * n)
        best1 = best2 = floor1 = floor2 = float("inf")
        lines1 = found1 = found2 = 0
        for _ in range(max(1, repeats)):
            cpu1, f1, lines1, found1 = _shape_cpu(root, *small)
            cpu2, f2, _, found2 = _shape_cpu(root, *large)
            best1, best2 = min(best1, cpu1), min(best2, cpu2)
            floor1, floor2 = min(floor1, f1), min(floor2, f2)
        print(f"  {label:24s} {lines1:8,d} {best1:8.2f} s {best2:8.2f} s   {best2 / best1:5.2f}x"
              f"   (n={n}; findings {found1} -> {found2})   {floor2 / max(floor1, 1e-9):5.2f}x")


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
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the n of every shape")
    parser.add_argument("--shapes-only", action="store_true", help="skip the 100k-line file and the tree")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved (n, 2n) pairs per shape; the least CPU of each size is kept")
    args = parser.parse_args()
    # pip compiles bytecode at install time; so does this, so that a rule module imported on
    # first need inside the timed check is not compiled there (PYTHONDONTWRITEBYTECODE, an
    # edited checkout)
    import compileall

    repo = Path(__file__).resolve().parent.parent
    for pkg in ("preflight", "adapters", "hardware", "architectures"):
        compileall.compile_dir(str(repo / pkg), quiet=1)
    exe = [sys.executable, "-m", "preflight"]
    unit_lines = UNIT.count("\n")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shapes(root, args.scale, args.repeats)
        if args.shapes_only:
            return 0
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
