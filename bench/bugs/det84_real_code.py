"""det84: the false-positive check of PF369 (quantized-model-moved) and PF370 (cuda-dataset-in-forked-workers)
on real public code, the figures of bench/bugs/det84_real_code.txt.

    python bench/bugs/det84_real_code.py [--mirrors /work/.mirror] [--work /tmp/det84_real] [--rule PF369|PF370|PF371]

PF369: every .py file holding ``load_in_8bit``/``load_in_4bit`` at the HEAD of each bare mirror
(``MIRRORS/<owner>+<name>/repo``; at most 60 a repository) is re-created under WORK/pf369/<repo>/ and checked
with ``preflight check WORK/pf369 --select PF369``. Printed: every finding, and every candidate the rule may
have to decide (a name bound to ``from_pretrained(...)`` with a quantization keyword, then called with
``.to``/``.cuda``/``.half``/``.float`` in the same function), so the silent ones can be read.

PF370: every Dataset class of the mirrors' .py files that name cuda is read with the rule's own ``_cuda_use``
(the dataset half: a CUDA tensor stored in ``__init__`` or moved in ``__getitem__``); for each repository
where that half holds, its files holding DataLoader/Dataset (at most 30) are re-created and run through
``preflight audit FILES --select PF370``. Printed: the dataset hits and every finding.
PF371: every .py file holding ``.prepare(`` or ``unwrap_model(`` (at most 80 a repository) is re-created under
WORK/pf371/ and checked with ``preflight check WORK/pf371 --select PF371`` (a helper module of another file is
read only when it is in the pool). Printed: every finding, and every re-binding
``X = <...>.unwrap_model(X)`` (the candidates: the rule decides whether a training loop follows).
Nothing fetched is committed; WORK is scratch.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from preflight.rules.plan.pf370_cuda_dataset_in_forked_workers import _cuda_use

_MOVES = ("to", "cuda", "half", "float")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True,
                          errors="replace", check=False)
    return done.stdout


def pool(mirrors: Path, pattern: str, limit: int) -> dict[str, list[str]]:
    """repository -> its HEAD .py files matching the extended regex ``pattern`` (at most ``limit``)."""
    out: dict[str, list[str]] = {}
    for mirror in sorted(mirrors.iterdir()):
        repo = mirror / "repo"
        if not repo.is_dir():
            continue
        files = git(repo, "grep", "-l", "-E", pattern, "HEAD", "--", "*.py").splitlines()
        if files:
            out[mirror.name] = [f.split(":", 1)[1] for f in files[:limit]]
    return out


def materialise(mirrors: Path, work: Path, name: str, files: list[str]) -> list[Path]:
    written = []
    for path in files:
        target = work / name / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(git(mirrors / name / "repo", "show", f"HEAD:{path}"), encoding="utf-8")
        written.append(target)
    return written


def preflight(*args: str, cwd: Path) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "preflight", *args, "--format", "json", "--no-cache",
                           "--exit-zero"], capture_output=True, text=True, cwd=cwd, check=False)
    try:
        return list(json.loads(done.stdout).get("findings", []))
    except json.JSONDecodeError:
        print(f"  preflight failed in {cwd}: {done.stderr.strip()[-300:]}")
        return []


def candidates(path: Path) -> list[tuple[int, str]]:
    """(line, call) of ``X.to/cuda/half/float(...)`` after ``X = ...from_pretrained(<quantization keyword>)``
    in the same function: what PF369 decides (fires, or is silent on purpose)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return []
    found = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        loads: dict[str, int] = {}
        for node in sorted((n for n in ast.walk(scope) if hasattr(n, "lineno")),
                           key=lambda n: (n.lineno, n.col_offset)):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "from_pretrained" \
                    and any(k.arg in ("quantization_config", "load_in_8bit", "load_in_4bit")
                            for k in node.value.keywords):
                loads[ast.unparse(node.targets[0])] = node.lineno
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in _MOVES and ast.unparse(node.func.value) in loads:
                found.append((node.lineno, ast.unparse(node)[:100]))
    return sorted(set(found))


def run_pf369(mirrors: Path, work: Path) -> None:
    repos = pool(mirrors, "load_in_(8|4)bit", 60)
    root = work / "pf369"
    paths = [p for name, files in repos.items() for p in materialise(mirrors, root, name, files)]
    print(f"PF369 pool: {len(repos)} repositories, {len(paths)} files")
    found = preflight("check", ".", "--select", "PF369", "-j", "1", cwd=root)
    for f in found:
        print(f"  FINDING {f['path']}:{f['line']} {f['message'][:160]}")
    print(f"PF369 findings: {len(found)}")
    fired = {(Path(f["path"]).resolve(), f["line"]) for f in found}
    total = 0
    for path in paths:
        for line, call in candidates(path):
            total += 1
            mark = "fires " if (path.resolve(), line) in fired else "silent"
            print(f"  candidate {mark} {path.relative_to(root)}:{line} {call}")
    print(f"PF369 candidates (quantized load then a move/cast of the same name): {total}")


def run_pf370(mirrors: Path, work: Path) -> None:
    repos = pool(mirrors, r"class .*Dataset\b.*\)", 400)
    hits: dict[str, list[str]] = {}
    for name, files in repos.items():
        for path in files:
            text = git(mirrors / name / "repo", "show", f"HEAD:{path}")
            if "cuda" not in text:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
                use = _cuda_use(cls, ast.Call(func=ast.Name(id=cls.name), args=[], keywords=[]))
                if use:
                    hits.setdefault(name, []).append(f"{path}:{use[0].lineno} {cls.name}.{use[1]}")
    print(f"PF370 pool: {len(repos)} repositories with a Dataset class; dataset half holds in {len(hits)}")
    total = 0
    for name, where in sorted(hits.items()):
        for w in where:
            print(f"  dataset {name} {w}")
        files = pool_of(mirrors, name)
        written = materialise(mirrors, work / "pf370", name, files)
        found = preflight("audit", *(str(p.relative_to(work / "pf370" / name)) for p in written),
                          "--select", "PF370", cwd=work / "pf370" / name)
        for f in found:
            print(f"  FINDING {name} {f['path']}:{f['line']} {f['message'][:160]}")
        total += len(found)
    print(f"PF370 findings: {total}")


def run_pf371(mirrors: Path, work: Path) -> None:
    repos = pool(mirrors, r"\.prepare\(|unwrap_model\(", 80)
    root = work / "pf371"
    paths = [p for name, files in repos.items() for p in materialise(mirrors, root, name, files)]
    print(f"PF371 pool: {len(repos)} repositories, {len(paths)} files")
    found = preflight("check", ".", "--select", "PF371", "-j", "1", cwd=root)
    for f in found:
        print(f"  FINDING {f['path']}:{f['line']} {f['message'][:200]}")
    print(f"PF371 findings: {len(found)}")
    total = 0
    for path in paths:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "unwrap_model" \
                    and len(node.value.args) == 1 and ast.unparse(node.value.args[0]) == ast.unparse(node.targets[0]):
                total += 1
                print(f"  candidate {path.relative_to(root)}:{node.lineno} {ast.unparse(node)[:80]}")
    print(f"PF371 candidates (a name re-bound to its own unwrap_model): {total}")


def pool_of(mirrors: Path, name: str) -> list[str]:
    files = git(mirrors / name / "repo", "grep", "-l", "-E", "DataLoader|Dataset", "HEAD", "--", "*.py")
    return [f.split(":", 1)[1] for f in files.splitlines()[:30]]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--work", default="/tmp/det84_real")
    ap.add_argument("--rule", choices=("PF369", "PF370", "PF371"))
    args = ap.parse_args()
    mirrors, work = Path(args.mirrors), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.rule in (None, "PF369"):
        run_pf369(mirrors, work)
    if args.rule in (None, "PF370"):
        run_pf370(mirrors, work)
    if args.rule in (None, "PF371"):
        run_pf371(mirrors, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
