"""The real-jobs benchmark's held-out sets (issue 15): from the third set on, each set is built
from repositories that no other set uses, so a set scored blind was never tuned on through a
sibling job of the same repository; every set can be chosen on run.py's command line."""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

JOBS = Path(__file__).resolve().parents[1] / "bench" / "realworld" / "jobs"
ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
            "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
            "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth",
            "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth",
            "thirty-first", "thirty-second", "thirty-third", "thirty-fourth", "thirty-fifth",
            "thirty-sixth", "thirty-seventh", "thirty-eighth", "thirty-ninth",
            "fortieth", "forty-first", "forty-second", "forty-third", "forty-fourth",
            "forty-fifth", "forty-sixth", "forty-seventh", "forty-eighth", "forty-ninth",
            "fiftieth", "fifty-first")


def _set_of(job: dict) -> int:
    for n, word in enumerate(ORDINALS, start=2):
        if job["note"].startswith(f"{word} held-out set"):
            return n
    return 1 if job["held_out"] else 0


@functools.cache
def _jobs() -> tuple[dict, ...]:
    """The committed manifest's jobs, parsed once per session (1.4 MB of JSON; every test here
    reads it, one of them once per set)."""
    return tuple(json.loads((JOBS / "manifest.json").read_text())["jobs"])


@pytest.mark.parametrize("n", range(3, len(ORDINALS) + 2))
def test_a_set_from_the_third_on_shares_no_repository_with_another_set(n: int) -> None:
    sets_of = defaultdict(set)
    for job in _jobs():
        sets_of[job["repo"]].add(_set_of(job))
    mine = {repo for repo, sets in sets_of.items() if n in sets}
    assert len(mine) >= 8, f"held-out-{n} has {len(mine)} repositories"
    shared = {repo: sorted(sets_of[repo] - {n}) for repo in mine if sets_of[repo] - {n}}
    assert not shared, f"held-out-{n} reuses {shared}"


def test_every_job_of_a_numbered_set_is_held_out_and_every_field_has_a_reason() -> None:
    for job in _jobs():
        if _set_of(job) >= 2:
            assert job["held_out"], job["id"]
        for field, truth in job["truth"].items():
            assert truth["why"].strip(), (job["id"], field)


def test_the_newest_set_is_a_choice_of_run_py(capsys) -> None:
    spec = importlib.util.spec_from_file_location("jobs_run", JOBS / "run.py")
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    newest = f"held-out-{len(ORDINALS) + 1}"
    # an unknown job id selects nothing, so nothing is fetched or run; the choice is still validated
    assert run.main(["--set", newest, "--job", "no-such-job", "--no-fetch"]) == 0
    assert "jobs 0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        run.main(["--set", f"held-out-{len(ORDINALS) + 2}", "--no-fetch"])


def test_manifest_json_is_what_labels_py_writes_from_the_truth_modules(tmp_path: Path) -> None:
    # labels.py and truth/ copied elsewhere and run from another folder: the manifest written there is
    # the committed one, byte for byte (a label edited without regenerating manifest.json fails here)
    shutil.copy(JOBS / "labels.py", tmp_path / "labels.py")
    shutil.copytree(JOBS / "truth", tmp_path / "truth", ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, str(tmp_path / "labels.py")], cwd=tmp_path.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "manifest.json").read_bytes() == (JOBS / "manifest.json").read_bytes()
    jobs, fields = (int(x) for x in done.stdout.split()[:2])
    assert jobs == len(_jobs()) and fields == sum(len(j["truth"]) for j in _jobs())


def test_labels_py_imports_every_set_module_of_truth_once_and_in_set_order() -> None:
    tree = ast.parse((JOBS / "labels.py").read_text())
    sets = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", None) == "SETS" for t in node.targets))
    modules = {p.stem for p in (JOBS / "truth").glob("*.py")} - {"__init__", "core"}
    assert sorted(sets) == sorted(modules)  # a module missing from SETS would drop its jobs silently
    assert list(sets) == ["dev_and_held_out", *(f"held_out_{n}" for n in range(2, len(ORDINALS) + 2))]
    # each numbered module holds exactly the jobs of its set
    for n in range(2, len(ORDINALS) + 2):
        text = (JOBS / "truth" / f"held_out_{n}.py").read_text()
        written = set(re.findall(r'^J\("([^"]+)"', text, flags=re.MULTILINE))
        assert written == {job["id"] for job in _jobs() if _set_of(job) == n}, n


def test_fetch_writes_the_launch_script_a_job_names_whatever_its_suffix(tmp_path: Path, monkeypatch) -> None:
    # a Slurm batch file without a known suffix (set 22's launch_slurm.wilkes3) is what the user runs: it
    # is re-created because the invocation names it; another file of that unknown suffix still is not
    src = tmp_path / "src"
    (src / "scripts").mkdir(parents=True)
    (src / "scripts" / "launch_slurm.wilkes3").write_text("#SBATCH --nodes=1\ncd ..\nsrun torchrun train.py\n")
    (src / "scripts" / "other.wilkes3").write_text("#SBATCH --nodes=2\n")
    (src / "train.py").write_text("print('train')\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(src)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(src), str(mirrors / "o+r" / "repo")], check=True)
    monkeypatch.setenv("PREFLIGHT_MIRRORS", str(mirrors))
    monkeypatch.setenv("PREFLIGHT_REALJOBS_WORK", str(tmp_path / "work"))
    spec = importlib.util.spec_from_file_location("jobs_fetch", JOBS / "fetch.py")
    assert spec is not None and spec.loader is not None
    fetch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fetch)
    job = {"repo": "o/r", "commit": commit, "paths": ["."], "cwd": "scripts",
           "invocation": ["launch_slurm.wilkes3", "--", "experiment.name=x"]}
    fetch.fetch_all([job])
    here = fetch.job_dir(job)
    assert (here / "scripts" / "launch_slurm.wilkes3").read_text().startswith("#SBATCH")
    assert (here / "train.py").is_file()
    assert not (here / "scripts" / "other.wilkes3").exists()
    launcher = dict(job, invocation=["--", "torchrun", "train.py"])
    assert fetch.named_script(launcher) is None


def test_fetch_reads_a_mirror_that_arrives_as_a_checkouts_git_folder(tmp_path: Path, monkeypatch) -> None:
    # set 30's reid-strong-baseline snapshot came as owner+name/repo/.git (a checkout's git folder),
    # not a bare repository: fetch must read it there rather than fail on repo/ itself
    src = tmp_path / "mirrors" / "o+r" / "repo"
    src.mkdir(parents=True)
    (src / "train.py").write_text("print('train')\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(src)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    monkeypatch.setenv("PREFLIGHT_MIRRORS", str(tmp_path / "mirrors"))
    monkeypatch.setenv("PREFLIGHT_REALJOBS_WORK", str(tmp_path / "work"))
    spec = importlib.util.spec_from_file_location("jobs_fetch_git_folder", JOBS / "fetch.py")
    assert spec is not None and spec.loader is not None
    fetch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fetch)
    job = {"repo": "o/r", "commit": commit, "paths": ["."], "cwd": ".", "invocation": ["train.py"]}
    fetch.fetch_all([job])
    assert (fetch.job_dir(job) / "train.py").read_text() == "print('train')\n"
