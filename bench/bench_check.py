"""Benchmark `preflight check`, side by side with torch-preflight when it is installed.

Prints, from one run on one machine (machines are noisy; compare within a run):
  1. single-file `check` wall time, interpreter start-up included (median of N runs):
     with --no-cache, as typed in a new project (cache on, empty), and as typed again
     on the unchanged file (cached);
  2. over a large real tree, for 10% of its files (every tenth, in path order) and for all
     of them: the CPU seconds of a cold `check --no-cache -j 1`, of the parse floor (a
     child process that reads and `ast.parse`s the same files, notebooks' code cells
     included) measured beside it, and their ratio;
  3. the tree with the cache, `-j 1`: first run (empty cache) and unchanged re-run, and
     the re-run's share of the first;
  4. the same for torch-preflight, and the ratios.

CPU seconds (the child's user + system time from getrusage) are used for the ratios:
the machine may be shared, and wall time follows the neighbours' load.

The reference tree is huggingface/diffusers at commit
58eb52c0803ea9af3abec60841c2a093bdf1f951 (2,089 .py files, 1.03M lines, 3 notebooks),
the commit of docs/corpus.md. It is not vendored; re-create it with

    git clone --bare https://github.com/huggingface/diffusers /tmp/mirrors/huggingface+diffusers
    python bench/corpus_trees.py --mirrors /tmp/mirrors --out /tmp/speed \
        --only huggingface/diffusers
    python bench/bench_check.py --tree /tmp/speed/diffusers --skip-torch-preflight

(or `git archive 58eb52c0803ea9af3abec60841c2a093bdf1f951 | tar -x -C DIR` of any clone).

Usage: python bench/bench_check.py [--file F] [--tree DIR] [--runs N] [--jobs J] [--repeats R]

On a shared machine use ``--repeats 5``: each pair's ratio is measured under the same
neighbours, and the median with its spread (and the load average) is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parent.parent


def _timed(cmd: list[str], cwd: Path, timeout: float | None = None) -> tuple[float, float, int]:
    """(wall seconds, child CPU seconds, exit code) of one command; exit code -1 when it was
    stopped after ``timeout`` seconds (its CPU time is then not counted)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        code = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "NO_COLOR": "1"}, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        code = -1
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def _preflight_cmd() -> list[str]:
    exe = shutil.which("preflight")
    return [exe] if exe else [sys.executable, "-m", "preflight"]


def single_file(cmd: list[str], file: Path, runs: int, cwd: Path) -> float:
    _timed([*cmd, str(file)], cwd)  # warm the OS file cache
    return statistics.median(_timed([*cmd, str(file)], cwd)[0] for _ in range(runs))


def single_file_first_run(cmd: list[str], file: Path, runs: int, parent: Path) -> float:
    """As a user's first run sees it: the cache on but empty (a new project folder each run)."""
    walls = []
    for i in range(runs + 1):
        project = parent / f"project{i}"
        project.mkdir()
        walls.append(_timed([*cmd, str(file)], project)[0])
    return statistics.median(walls[1:])


def regular_install(parent: Path) -> Optional[list[str]]:
    """A ``preflight`` command from a fresh virtual environment that holds only preflight's
    files, laid out as pip installs them (``[tool.setuptools] package-dir`` of pyproject.toml)
    and byte-compiled, with a console script like pip's. An editable install (what a
    checkout's dev environment has) adds its own import hook and ``.pth`` start-up work to
    every run; this is the start-up a user's ``pip install`` gets. None when pyproject.toml
    cannot be read (Python < 3.11 without ``tomli``) or the environment cannot be made."""
    try:
        import tomllib as toml  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        try:
            import tomli as toml  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            return None
    import compileall
    import venv

    mapping = toml.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    env = parent / "regular-install"
    try:
        venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(env)
    except (OSError, subprocess.CalledProcessError):
        return None
    python = env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # the top package first, its mapped sub-packages (adapters -> preflight/adapters) into it
    for package, folder in sorted(mapping.items(), key=lambda kv: kv[0].count(".")):
        target = site.joinpath(*package.split("."))
        shutil.copytree(REPO / folder, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    compileall.compile_dir(str(site / "preflight"), quiet=1)
    script = env / "bin" / "preflight"
    script.write_text(f"#!{python}\nimport sys\nfrom preflight.cli import entry\n"
                      "if __name__ == '__main__':\n    sys.exit(entry())\n")
    script.chmod(0o755)
    return [str(script)]


_FLOOR = r"""
import ast, json, sys, warnings
warnings.simplefilter("ignore")
for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        continue
    if path.endswith(".ipynb"):
        try:
            cells = json.loads(text).get("cells", [])
        except (ValueError, AttributeError):
            continue
        text = "\n".join("".join(c.get("source", "")) for c in cells
                          if isinstance(c, dict) and c.get("cell_type") == "code")
    try:
        ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
"""


def tree_files(tree: Path) -> list[Path]:
    """The files `check` reads in ``tree`` (.py and .ipynb), in path order."""
    return sorted(p for p in tree.rglob("*") if p.suffix in (".py", ".ipynb") and p.is_file())


def floor_and_check(files: list[Path], cwd: Path) -> tuple[float, float]:
    """CPU seconds of the parse floor and of a cold `check -j 1` over ``files``."""
    floor = _timed([sys.executable, "-c", _FLOOR, *map(str, files)], cwd)[1]
    check = _timed([*_preflight_cmd(), "check", "--no-cache", "-q", "-j", "1", "--exit-zero",
                    *map(str, files)], cwd)[1]
    return floor, check


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load {one:.1f}/{five:.1f}/{fifteen:.1f}"
    except OSError:
        return "load n/a"


def ratio_runs(files: list[Path], cwd: Path, repeats: int) -> tuple[list[float], list[float], list[float]]:
    """``repeats`` interleaved (floor, check) pairs: CPU seconds of each, and each pair's ratio
    (a neighbour's load then weighs on both sides of a ratio alike)."""
    floors, checks, ratios = [], [], []
    for _ in range(repeats):
        floor, check = floor_and_check(files, cwd)
        floors.append(floor)
        checks.append(check)
        ratios.append(check / floor)
    return floors, checks, ratios


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, default=REPO / "examples" / "quickstart" / "train.py")
    ap.add_argument("--tree", type=Path, default=os.environ.get("PREFLIGHT_BENCH_TREE"))
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=1,
                    help="interleaved (parse floor, check) pairs per part of the tree; the median "
                         "ratio and the spread are printed (default: 1)")
    ap.add_argument("--torch-preflight", metavar="EXE", default=shutil.which("torch-preflight"),
                    help="torch-preflight executable to compare with (default: from PATH)")
    ap.add_argument("--skip-torch-preflight", action="store_true")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="stop torch-preflight's tree run after this many seconds (default: 1800)")
    args = ap.parse_args()
    # pip compiles bytecode at install time; do the same so start-up is measured as users see it
    import compileall

    for pkg in ("preflight", "adapters", "hardware", "architectures"):
        compileall.compile_dir(str(REPO / pkg), quiet=1)

    ours = [*_preflight_cmd(), "check", "--no-cache", "-q"]
    theirs_exe = None if args.skip_torch_preflight else args.torch_preflight
    theirs = [theirs_exe, "check", "--no-color"] if theirs_exe else None
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"file: {args.file} ({sum(1 for _ in args.file.open())} lines), median of {args.runs} runs")

    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        ours_one = single_file(ours, args.file.resolve(), args.runs, cwd)
        print(f"  preflight check FILE        {ours_one * 1000:8.1f} ms   (--no-cache -q; {ours[0]})")
        regular = None if os.name == "nt" else regular_install(cwd)
        if regular is not None:
            # interleaved with the command above, so that both see the same neighbours
            pairs = [(single_file(ours, args.file.resolve(), 1, cwd),
                      single_file([*regular, "check", "--no-cache", "-q"], args.file.resolve(), 1, cwd))
                     for _ in range(args.runs)]
            here = statistics.median(p[0] for p in pairs)
            clean = statistics.median(p[1] for p in pairs)
            print(f"  preflight check FILE        {clean * 1000:8.1f} ms   (--no-cache -q; a regular install: "
                  f"a fresh venv with preflight's files only; {here * 1000:.1f} ms here in the same "
                  f"{args.runs} interleaved runs)")
        plain = [*_preflight_cmd(), "check"]
        first = single_file_first_run(plain, args.file.resolve(), args.runs, cwd)
        print(f"  preflight check FILE        {first * 1000:8.1f} ms   (as typed; cache on, empty)")
        warm_one = single_file(plain, args.file.resolve(), args.runs, cwd)
        print(f"  preflight check FILE        {warm_one * 1000:8.1f} ms   (as typed; file unchanged, cached)")
        if theirs:
            theirs_one = single_file(theirs, args.file.resolve(), max(3, args.runs // 3), cwd)
            print(f"  torch-preflight check FILE  {theirs_one * 1000:8.1f} ms   "
                  f"(preflight is {theirs_one / ours_one:.1f}x faster)")
        else:
            print("  torch-preflight: not installed, skipped (pip install torch-preflight to compare)")

        if args.tree is None:
            print("tree: none given (--tree DIR or PREFLIGHT_BENCH_TREE); skipped")
            return 0
        tree = args.tree.resolve()
        files = tree_files(tree)
        n_lines = sum(f.read_bytes().count(b"\n") for f in files if f.suffix == ".py")
        print(f"tree: {tree} ({len(files)} files, {n_lines:,} lines of .py)")
        cwd = cwd / "tree"
        cwd.mkdir()
        for label, part in (("10%", files[::10]), ("100%", files)):
            before = _load()
            floors, checks, ratios = ratio_runs(part, cwd, args.repeats)
            med = statistics.median
            print(f"  {label:>4} ({len(part):5d} files) check -j 1 cold  cpu {med(checks):7.2f} s   "
                  f"parse floor cpu {med(floors):6.2f} s   ratio {med(ratios):4.2f}x"
                  + (f" (median of {len(ratios)} interleaved pairs; spread {min(ratios):.2f}-"
                     f"{max(ratios):.2f}x; {before} before, {_load()} after)" if len(ratios) > 1 else ""))
        jobs = ["-j", str(args.jobs or 1)]
        base = [*_preflight_cmd(), "check", "-q", "--exit-zero", *jobs, str(tree)]
        cache = cwd / ".preflight_cache"
        shutil.rmtree(cache, ignore_errors=True)
        cold = _timed(base, cwd)
        warm = _timed(base, cwd)
        print(f"  preflight {' '.join(jobs)} cold (empty cache)  wall {cold[0]:7.2f} s  cpu {cold[1]:7.2f} s")
        print(f"  preflight {' '.join(jobs)} warm (cached)       wall {warm[0]:7.2f} s  cpu {warm[1]:7.2f} s   "
              f"({warm[0] / cold[0]:.1%} of cold wall, {warm[1] / cold[1]:.1%} of cold cpu)")
        if theirs:
            t = _timed([theirs_exe, "check", "--no-color", *jobs, str(tree)], cwd, timeout=args.timeout)
            if t[2] == -1:
                print(f"  torch-preflight (no cache)    did not finish in {args.timeout:.0f} s; stopped "
                      f"(preflight cold is more than {t[0] / cold[0]:.0f}x faster)")
            else:
                print(f"  torch-preflight (no cache)    wall {t[0]:7.2f} s  cpu {t[1]:7.2f} s   "
                      f"(preflight cold is {t[0] / cold[0]:.1f}x faster, warm {t[0] / warm[0]:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
