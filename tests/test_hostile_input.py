"""Hostile input, part two (issue 14, items 5, 9-12, and Ctrl-C of issue 20): what preflight
reads is bounded and regular, its cache is untrusted, its output always valid, fixes found
anywhere are applied, and Ctrl-C stops a pooled run at once.

The hanging cases run in a subprocess with a timeout: before the fixes they blocked forever
or read without end, and a test must fail, not hang.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LEAKY, run_subprocess, write

from preflight.sources import MAX_FILE_BYTES, InputRefused, read_bytes_limited, read_source

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero are POSIX")

DS_CONFIG = '{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}}\n'


def preflight(*args: str, cwd: Path, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    """``python -m preflight ...`` bounded in time (a hang fails the test instead of hanging it)."""
    env = dict(os.environ, NO_COLOR="1", PREFLIGHT_NO_CACHE="1")
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    return subprocess.run([sys.executable, "-m", "preflight", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, **kwargs)


# -- item 5: only regular files, and never more than the limit ---------------------------------

@posix_only
def test_a_fifo_script_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "train.py")  # no writer: a plain open() blocks forever
    write(tmp_path / "ok.py", LEAKY)
    r = preflight("check", ".", "train.py", cwd=tmp_path, timeout=30)
    assert "Traceback" not in r.stderr
    assert "train.py: error: not a regular file (a named pipe (FIFO)); skipped" in r.stdout
    assert "ok.py:10:9: PF101" in r.stdout  # the rest of the run completes
    assert r.returncode == 1


@posix_only
@pytest.mark.parametrize("config", ["fifo", "zero"])
def test_a_fifo_or_dev_zero_config_is_one_clear_error(tmp_path: Path, config: str) -> None:
    write(tmp_path / "train.py", LEAKY)
    if config == "fifo":
        os.mkfifo(tmp_path / "ds_config.json")
    else:
        os.symlink("/dev/zero", tmp_path / "ds_config.json")
    r = preflight("audit", "train.py", "--config", "ds_config.json", cwd=tmp_path, timeout=30)
    assert "Traceback" not in r.stderr
    expected = "a named pipe (FIFO)" if config == "fifo" else "a character device"
    assert f"ds_config.json: error: not a regular file ({expected}); skipped" in r.stdout + r.stderr
    assert r.returncode in (1, 3)


@posix_only
def test_dev_zero_as_a_script_reads_nothing(tmp_path: Path) -> None:
    os.symlink("/dev/zero", tmp_path / "train.py")
    r = preflight("check", "train.py", cwd=tmp_path, timeout=30)
    assert "train.py: error: not a regular file (a character device); skipped" in r.stdout
    assert r.returncode == 3


@posix_only
def test_gate_reads_a_bounded_standard_input(tmp_path: Path) -> None:
    # before: 7-12 GB read in 15-30 s, then killed
    with open("/dev/zero", "rb") as zero:
        r = preflight("gate", "-", cwd=tmp_path, timeout=60, stdin=zero)
    assert "Traceback" not in r.stderr
    assert "preflight: error: <stdin>: input is 16.0 MiB, over the 16 MiB limit" in r.stderr
    assert r.returncode == 2


@posix_only
def test_a_fifo_cluster_file_is_an_error_not_a_hang(tmp_path: Path) -> None:
    write(tmp_path / "job.sh", "#!/bin/bash\n#SBATCH --gres=gpu:1\npython train.py\n")
    os.mkfifo(tmp_path / "cluster.yaml")
    r = preflight("gate", "job.sh", "--cluster", "cluster.yaml", cwd=tmp_path, timeout=30)
    assert "cluster.yaml: error: not a regular file (a named pipe (FIFO))" in r.stderr
    assert r.returncode == 2


def test_a_file_larger_than_its_size_claims_is_cut_at_the_limit(tmp_path: Path) -> None:
    path = write(tmp_path / "big.py", "x = 1\n" * 40)
    assert read_bytes_limited(path, 1000) == b"x = 1\n" * 40
    with pytest.raises(InputRefused, match="over the 100 byte limit"):
        read_bytes_limited(path, 100)
    write(tmp_path / "huge.py", b"#" * (MAX_FILE_BYTES + 1))
    err = read_source(tmp_path / "huge.py", "huge.py", "python")
    assert err.message == "file is 16.0 MiB, over the 16 MiB limit; skipped"  # type: ignore[union-attr]


def test_a_directory_named_like_a_script_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "d.py").mkdir()
    err = read_source(tmp_path / "d.py", "d.py", "python")
    assert err.message == "is a directory"  # type: ignore[union-attr]


@posix_only
def test_a_fix_target_swapped_for_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    import threading

    from preflight import fix as fixer

    path = write(tmp_path / "train.py", LEAKY)
    source = read_source(path, "train.py", "python")
    path.unlink()
    os.mkfifo(path)  # swapped between the analysis and the write: opening it would block
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            fixer.write_atomic(path, source, LEAKY.replace("losses.append(loss)", "losses.append(loss.item())"))
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "write_atomic blocked on a FIFO"
    assert len(outcome) == 1 and isinstance(outcome[0], fixer.FileChangedError), outcome
    assert stat.S_ISFIFO(os.stat(path).st_mode)  # left alone


# -- item 12: fixes from the pool and the cache are applied --------------------------------------

def _pf110_tree(root: Path, n: int) -> None:
    from preflight.rules.code._pf110_examples import PF110_BAD

    for i in range(n):
        write(root / f"eval{i:02d}.py", PF110_BAD[0])


def test_fixes_registered_by_rule_modules_apply_through_the_process_pool(tmp_path: Path) -> None:
    # 30 files and -j 2: the findings come from worker processes; the parent never ran PF110
    _pf110_tree(tmp_path, 30)
    r = run_subprocess("-m", "preflight", "check", "-j", "2", "--no-cache", "--fix", ".", cwd=tmp_path)
    assert "unknown fix operation" not in r.stderr
    assert "@torch.no_grad()\n    def run(self, loader):" in (tmp_path / "eval07.py").read_text()
    again = run_subprocess("-m", "preflight", "check", "--no-cache", ".", cwd=tmp_path)
    assert "PF110" not in again.stdout
    assert again.returncode == 0, again.stdout


def test_fixes_registered_by_rule_modules_apply_from_a_warm_cache(tmp_path: Path) -> None:
    _pf110_tree(tmp_path, 2)
    cold = run_subprocess("-m", "preflight", "check", "-j", "1", ".", cwd=tmp_path)
    assert "4 fixable with --fix" in cold.stdout
    # every finding now comes from the cache: no rule module is imported by this run
    r = run_subprocess("-m", "preflight", "check", "-j", "1", "--fix", ".", cwd=tmp_path)
    assert "unknown fix operation" not in r.stderr
    assert "Applied 2 fixes. All checks passed (2 files, 2 cached)" in r.stdout
    assert "@torch.no_grad()" in (tmp_path / "eval01.py").read_text()


def test_a_fix_refused_because_the_file_changed_is_not_counted(cli, tmp_path: Path, monkeypatch) -> None:
    from preflight import fix as fixer

    write(tmp_path / "train.py", LEAKY)

    def another_run_wrote_first(path, source, new_text):
        raise fixer.FileChangedError("changed")

    monkeypatch.setattr(fixer, "write_atomic", another_run_wrote_first)
    r = cli("check", "--no-cache", "--fix", "train.py")
    assert "not fixed: the file changed while preflight ran" in r.out
    assert "Applied" not in r.out
    assert (tmp_path / "train.py").read_text() == LEAKY


# -- issue 20: Ctrl-C stops a pooled run at once --------------------------------------------------

SLOW_RULE = '''\
import os
import time

from preflight.diagnostics import Category, Severity
from preflight.registry import register
from preflight.rules.base import Rule


@register
class Slow(Rule):
    code = "SLOW001"
    name = "slow"
    severity = Severity.NOTE
    category = Category.PERFORMANCE
    summary = "takes a second per file"
    explanation = "A test rule."
    bad_examples = ["x = 1\\n"]
    good_examples = ["y = 2\\n"]

    def check(self, ctx):
        with open(os.path.join(os.environ["SLOW_PIDS"], str(os.getpid())), "w"):
            pass
        time.sleep(1.0)
        return []
'''


@posix_only
def test_ctrl_c_stops_a_pooled_run_within_seconds_and_leaves_no_worker(tmp_path: Path) -> None:
    site, pids, proj = tmp_path / "site", tmp_path / "pids", tmp_path / "proj"
    write(site / "slow_rule" / "__init__.py", SLOW_RULE)
    write(site / "slow_rule-1.0.dist-info" / "METADATA", "Metadata-Version: 2.1\nName: slow-rule\nVersion: 1.0\n")
    write(site / "slow_rule-1.0.dist-info" / "entry_points.txt", "[preflight.rules]\nslow = slow_rule\n")
    pids.mkdir()
    for i in range(60):  # 60 s of work over 2 workers
        write(proj / f"f{i:02d}.py", "x = 1\n")
    env = dict(os.environ, PYTHONPATH=str(site), SLOW_PIDS=str(pids), NO_COLOR="1")
    # a test run started in the background (`pytest &` from a script) has SIGINT ignored, and a
    # child inherits that: give preflight the disposition a terminal gives it
    proc = subprocess.Popen([sys.executable, "-m", "preflight", "check", "-j", "2", "--no-cache", "."],
                            cwd=proj, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while len(os.listdir(pids)) < 2 and time.monotonic() < deadline:  # both workers busy
            time.sleep(0.05)
        assert len(os.listdir(pids)) >= 2, "the pool never started"
        # a terminal sends SIGINT to the whole foreground process group
        os.kill(proc.pid, signal.SIGINT)
        for pid in map(int, os.listdir(pids)):
            if pid != proc.pid:
                with contextlib.suppress(ProcessLookupError):  # the parent may have ended it already
                    os.kill(pid, signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "preflight: interrupted" in err
    assert "Traceback" not in err  # neither the parent's nor a worker's
    assert took < 5, f"took {took:.1f} s to stop"  # before: every queued chunk ran (about 30 s)
    time.sleep(0.2)
    alive = [pid for pid in map(int, os.listdir(pids)) if _alive(pid)]
    assert not alive, f"workers left behind: {alive}"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True



# -- item 11: the cache is untrusted input ---------------------------------------------------------

def _entries(root: Path) -> list[Path]:
    return sorted((root / ".preflight_cache").glob("??/*.json"))


def _edit_entries(root: Path, edit) -> None:
    """Rewrite each entry's JSON with ``edit`` and keep whatever header the entry has."""
    import json

    for path in _entries(root):
        text = path.read_text(encoding="utf-8")
        head, body = ("", text) if text.startswith("{") else text.split("\n", 1)
        data = json.loads(body)
        path.write_text((head + "\n" if head else "") + json.dumps(edit(data)), encoding="utf-8")


def test_a_cache_entry_edited_to_drop_findings_is_not_trusted(cli, tmp_path: Path) -> None:
    write(tmp_path / "train.py", LEAKY)
    cold = cli("check", "train.py")
    assert "train.py:10:9: PF101" in cold.out and cold.code == 1
    assert _entries(tmp_path)

    def drop_findings(data: dict) -> dict:
        return {**data, "findings": []}

    _edit_entries(tmp_path, drop_findings)
    warm = cli("check", "train.py")
    assert "train.py:10:9: PF101" in warm.out  # before: "All checks passed (1 file, 1 cached)"
    assert warm.code == 1
    assert _cached(cli) == 1  # the entry written again is trusted


def _cached(cli) -> int:
    import json

    return json.loads(cli("check", "--format", "json", "train.py").out)["summary"]["files_cached"]


def test_a_deeply_nested_cache_entry_is_a_miss_not_a_crash(cli, tmp_path: Path) -> None:
    write(tmp_path / "train.py", LEAKY)
    cli("check", "train.py")
    for path in _entries(tmp_path):
        path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")  # before: RecursionError
    warm = cli("check", "train.py")
    assert "train.py:10:9: PF101" in warm.out and warm.code == 1


def test_an_entry_with_a_valid_hash_under_a_deeply_nested_payload_is_a_miss(tmp_path: Path) -> None:
    from preflight import cache

    d = str(tmp_path)
    key = cache.secret(d)
    assert key is not None
    payload = b"[" * 200_000 + b"]" * 200_000
    entry = Path(cache._entry(d, "ab" * 16))
    entry.parent.mkdir(parents=True)
    entry.write_bytes(cache._MAGIC + cache._mac(key, "ab" * 16, payload) + b"\n" + payload)
    assert cache.load(d, "ab" * 16) is None


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_the_cache_key_is_private_and_a_shared_one_is_not_used(cli, tmp_path: Path) -> None:
    from preflight import cache

    write(tmp_path / "train.py", LEAKY)
    cli("check", "train.py")
    key_file = tmp_path / ".preflight_cache" / cache.KEY_NAME
    assert os.stat(key_file).st_mode & 0o777 == 0o600
    assert _cached(cli) == 1
    os.chmod(key_file, 0o644)  # anyone may read it, so anyone could forge entries
    assert _cached(cli) == 0
    r = cli("check", "train.py")
    assert "train.py:10:9: PF101" in r.out


# -- item 10: a file name that is not UTF-8 --------------------------------------------------------

@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the file system must accept any bytes")
@pytest.mark.parametrize("fmt", ["sarif", "json"])
def test_a_file_name_that_is_not_utf8_gives_valid_output(cli, tmp_path: Path, fmt: str) -> None:
    import json

    name = os.fsdecode(b"tr\xe9in.py")  # Latin-1 'é': a lone surrogate in Python
    write(tmp_path / name, LEAKY)
    r = cli("check", "--no-cache", "--format", fmt, ".")
    assert r.code == 1, r.err  # before (SARIF): UnicodeEncodeError in the fingerprint
    doc = json.loads(r.out)
    json.dumps(doc, ensure_ascii=False).encode("utf-8")  # before (JSON): "\udce9", not Unicode
    if fmt == "sarif":
        location = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uri"] == "tr%E9in.py"  # the name's own byte, percent-encoded
    else:
        assert doc["findings"][0]["path"] == "tr\\xe9in.py"


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the file system must accept any bytes")
def test_a_file_name_that_is_not_utf8_is_written_back_as_its_bytes(cli, tmp_path: Path) -> None:
    write(tmp_path / os.fsdecode(b"tr\xe9in.py"), LEAKY)
    r = cli("check", "--no-cache", "--output", "report.txt", ".")
    assert r.code == 1, r.err
    assert (tmp_path / "report.txt").read_bytes().startswith(b"tr\xe9in.py:10:9: PF101")


# -- item 9: a directory preflight may not enter ---------------------------------------------------

def _locked_tree(root: Path) -> None:
    write(root / "ok.py", LEAKY)
    write(root / "locked" / "b.py", "x = 1\n")
    write(root / "conf" / "config.yaml", "lr: 1\n")


def test_a_directory_that_cannot_be_entered_is_one_message_and_the_run_goes_on(
        cli, tmp_path: Path, monkeypatch) -> None:
    # what a mode-000 directory does to a normal user, simulated so that it holds as root too
    _locked_tree(tmp_path)
    locked = str(tmp_path / "locked")
    real_scandir, real_stat = os.scandir, os.stat

    def scandir(path="."):
        if os.path.abspath(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    def stat_(path, *args, **kwargs):
        if os.path.dirname(os.path.abspath(path)) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "stat", stat_)
    r = cli("check", "--no-cache", ".")  # before: PermissionError traceback from pyvenv.cfg's is_file
    assert "locked: error: cannot list directory: permission denied; skipped" in r.out
    assert "ok.py:10:9: PF101" in r.out
    assert r.code == 1
    r = cli("check", "--no-cache", "locked/b.py")
    assert "locked/b.py: error: permission denied; skipped" in r.out and r.code == 3


def _drop_root_powers() -> list[str]:
    """A command prefix that runs as this user without the powers that let root ignore file
    modes; [] when not root; skips the test when root cannot drop them here."""
    if os.name != "posix":
        pytest.skip("POSIX file modes")
    if os.geteuid() != 0:
        return []
    import shutil

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: file modes do not apply to root")
    caps = "-dac_override,-dac_read_search"
    prefix = [setpriv, "--bounding-set", caps, "--inh-caps", caps]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot drop root's file-mode powers here")
    return prefix


@pytest.mark.parametrize("command", [["check", "."], ["audit", "ok.py", "--config", "locked/c.yaml"],
                                     ["audit", "ok.py", "--config", "conf"]],
                         ids=["check-tree", "audit-config-inside", "audit-hydra-dir"])
def test_a_mode_000_directory_for_real(tmp_path: Path, command: list[str]) -> None:
    prefix = _drop_root_powers()
    _locked_tree(tmp_path)
    write(tmp_path / "locked" / "c.yaml", "a: 1\n")
    os.chmod(tmp_path / "locked", 0)
    os.chmod(tmp_path / "conf", 0)
    try:
        env = dict(os.environ, NO_COLOR="1", PREFLIGHT_NO_CACHE="1")
        r = subprocess.run([*prefix, sys.executable, "-m", "preflight", *command], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    finally:
        os.chmod(tmp_path / "locked", 0o755)
        os.chmod(tmp_path / "conf", 0o755)
    out = r.stdout + r.stderr
    assert "Traceback" not in out
    expected = {"check": "locked: error: cannot list directory: permission denied; skipped",
                "locked/c.yaml": "locked/c.yaml: error: permission denied; skipped",
                "conf": "conf: error: cannot list the Hydra config directory: permission denied; skipped"}
    assert expected[command[-1] if command[0] == "audit" else "check"] in out
    assert r.returncode in (1, 3)


# -- item 6: a Hydra interpolation bomb --------------------------------------------------------------

def _interpolation_bomb(root: Path, levels: int = 9) -> None:
    lines = ["trainer:", "  _target_: lightning.Trainer", f"  devices: ${{a{levels}}}", "  num_nodes: 2", "a0: x"]
    lines += [f"a{i}: " + f"${{a{i - 1}}}" * 10 for i in range(1, levels + 1)]  # 10**9 characters
    write(root / "conf" / "config.yaml", "\n".join(lines) + "\n")
    write(root / "run.py", 'import hydra\n\n@hydra.main(config_path="conf", config_name="config", '
                           'version_base=None)\ndef main(cfg):\n    pass\n')


@pytest.mark.parametrize("composer", ["hydra-core", "own"])
def test_a_hydra_interpolation_bomb_is_not_followed(tmp_path: Path, composer: str) -> None:
    import json

    _interpolation_bomb(tmp_path)
    hide = "import sys; sys.modules['hydra'] = None; " if composer == "own" else ""
    code = (f"{hide}from preflight.cli import main; "
            "raise SystemExit(main(['audit', 'run.py', '--no-cache', '--emit-plan', 'json']))")
    # before: never finished (and grew about 5 MB/s)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    assert plan["fields"]["dist.nodes"][0]["value"] == 2  # the rest of the config is read
    assert "dist.devices_per_node" not in plan["fields"]
    assert any("conf/config.yaml:3: trainer.devices not known statically: interpolation expands beyond"
               in n and "an interpolation bomb?" in n for n in plan["notes"]), plan["notes"]
    method = "hydra-core" if composer == "hydra-core" else "preflight's composer"
    assert any(method in n for n in plan["notes"])


def test_interpolation_within_the_bounds_is_still_followed() -> None:
    from preflight.adapters.hydra_compose import resolve

    data = {"a0": "ab", "a1": "${a0}" * 10, "a2": "${a1}-${a1}", "b": "${a2}"}
    assert resolve(data, "${b}") == "-".join(["ab" * 10] * 2)
    assert resolve(data, "x ${a0} y ${a0}") == "x ab y ab"


# -- smaller: a Hydra config with a YAML syntax error ---------------------------------------------

@pytest.mark.parametrize("composer", ["hydra-core", "own"])
def test_a_hydra_yaml_syntax_error_is_one_located_error(cli, tmp_path: Path, monkeypatch, composer: str) -> None:
    import json

    if composer == "own":
        for name in [m for m in sys.modules if m == "hydra" or m.startswith("hydra.")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, "hydra", None)
    write(tmp_path / "conf" / "config.yaml", "defaults:\n  - trainer: gpu\n  - _self_\nlr: 0.1\n")
    write(tmp_path / "conf" / "trainer" / "gpu.yaml", "_target_: lightning.Trainer\ndevices: [1, 2\nnum_nodes: 2\n")
    write(tmp_path / "run.py", 'import hydra\n\n@hydra.main(config_path="conf", config_name="config", '
                               'version_base=None)\ndef main(cfg):\n    pass\n')
    r = cli("audit", "run.py", "--no-cache", "--format", "json")
    assert "internal error" not in r.out + r.err and "failed on" not in r.out + r.err
    errors = json.loads(r.out)["errors"]
    assert [(e["path"], e["line"]) for e in errors] == [("conf/trainer/gpu.yaml", 3)], errors
    assert "conf/trainer/gpu.yaml:3:10: error: Hydra config 'config' not composed: invalid YAML" in cli(
        "audit", "run.py", "--no-cache").out
    assert errors[0]["message"] == ("Hydra config 'config' not composed: invalid YAML: expected ',' or ']', "
                                    "but got ':' (while parsing a flow sequence at line 2)")
    assert r.code == 3


@pytest.mark.parametrize("composer", ["hydra-core", "own"])
def test_an_oversized_hydra_config_is_not_read_by_either_composer(cli, tmp_path: Path, monkeypatch,
                                                                  composer: str) -> None:
    import preflight.sources as sources

    if composer == "own":
        for name in [m for m in sys.modules if m == "hydra" or m.startswith("hydra.")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.setitem(sys.modules, "hydra", None)
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 4096)
    write(tmp_path / "conf" / "config.yaml", "lr: 0.1\n" + "# padding\n" * 1000)
    write(tmp_path / "run.py", 'import hydra\n\n@hydra.main(config_path="conf", config_name="config", '
                               'version_base=None)\ndef main(cfg):\n    pass\n')
    r = cli("audit", "run.py", "--no-cache")
    assert "Hydra config 'config' not composed" in r.out
    assert "over the 4096 byte limit" in r.out, r.out
    assert r.code == 3
