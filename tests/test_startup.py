"""Start-up of a one-file ``check``: the fast command-line path, the modules it loads, the exit.

The wall-time figure itself lives in ``bench/bench_check.py``; these tests pin the
behaviour that the figure depends on and that a user would notice if it broke.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preflight.cli import _LINT_OPTIONS, _fast_check_args, build_parser

REPO = Path(__file__).resolve().parent.parent
FLAGS = [flag for _title, options in _LINT_OPTIONS for flags, _kw in options for flag in flags]


def _argparse(argv: list[str]) -> dict | None:
    try:
        return vars(build_parser(only="check").parse_args(argv))
    except SystemExit:
        return None


TYPICAL = [
    ["check"],
    ["check", "train.py"],
    ["check", "src/", "scripts/train.py", "-q"],
    ["check", "--no-cache", "-q", "train.py"],
    ["check", "--select", "PF1,PF2", "--ignore=PF301", "train.py"],
    ["check", "--format", "json", "-o", "out.json", "--exit-zero", "a.py", "b.py"],
    ["check", "--fix", "--unsafe-fixes", "--diff", "--fail-on", "error", "."],
    ["check", "-j", "4", "--baseline", "b.json", "--write-baseline=c.json", "nb.ipynb"],
    ["check", "--settings", "pyproject.toml", "--exclude", "build/*", "--statistics", "--no-color"],
    ["check", "--extend-select", "PF4", "--format=sarif", "--jobs=2", "x.py"],
]


@pytest.mark.parametrize("argv", TYPICAL, ids=[" ".join(a) for a in TYPICAL])
def test_typical_command_lines_take_the_fast_path_and_match_argparse(argv: list[str]) -> None:
    fast = _fast_check_args(argv)
    assert fast is not None, "a plain check command line must not need argparse"
    assert vars(fast) == _argparse(argv)


@pytest.mark.parametrize("argv", [
    ["check", "-h"], ["check", "--help"], ["check", "--sel", "PF1"],  # abbreviation
    ["check", "-qj4"], ["check", "-j", "four"], ["check", "--format", "yaml"],
    ["check", "--fix=yes"], ["check", "--select"], ["check", "--select", "-PF1"],
    ["check", "a.py", "--select", "PF1", "b.py"], ["audit", "train.py"], ["rules"],
])
def test_anything_unusual_is_left_to_argparse(argv: list[str]) -> None:
    assert _fast_check_args(argv) is None


VALUES = ["PF1", "PF101,PF2", "", "a.py", "dir/", "-x", "-", "4", "0", "-1", " 3", "²", "json",
          "text", "bogus", "error", "note", "weird name.py", "-q", "--", "x=y"]
TOKENS = FLAGS + VALUES + ["-h", "--sel", "--no-c", "-qj", "-j4", "-oout", "--fix=1", "--select=PF1",
                           "--format=json", "--format=", "--jobs=2", "--jobs=x", "--output=o.txt"]


@given(st.lists(st.sampled_from(TOKENS), max_size=8))
def test_the_fast_path_never_disagrees_with_argparse(tokens: list[str]) -> None:
    argv = ["check", *tokens]
    fast = _fast_check_args(argv)
    if fast is not None:
        assert vars(fast) == _argparse(argv), argv


def _run(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          cwd=REPO, env={**os.environ, "NO_COLOR": "1", **(env or {})})


def test_a_plain_check_loads_no_argparse_no_rule_examples_and_no_plan_machinery(tmp_path: Path) -> None:
    target = tmp_path / "train.py"
    target.write_text("import torch\nlosses = []\nfor x in loader:\n    loss = model(x)\n"
                      "    loss.backward()\n    losses.append(loss)\n")
    out = _run(textwrap.dedent(f"""
        import sys
        from preflight.cli import main
        rc = main(['check', '--no-cache', {str(target)!r}])
        heavy = ['argparse', 'dataclasses', 'inspect', 'json', 'tokenize', 'preflight.baseline',
                 'preflight.plan', 'preflight.plan_rules', 'preflight.adapters_api']
        print(rc, sorted(m for m in sys.modules if m in heavy or m.endswith('_examples')))
    """))
    assert "PF101" in out.stdout, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "1 []"


def test_the_console_entry_keeps_the_exit_code_and_every_line_of_output(tmp_path: Path) -> None:
    body = "".join(f"    losses{i}.append(loss)\n" for i in range(300))
    target = tmp_path / "train.py"
    target.write_text("import torch\n" + "".join(f"losses{i} = []\n" for i in range(300))
                      + "for x in loader:\n    loss = model(x)\n    loss.backward()\n" + body)
    code = f"import sys; sys.argv = ['preflight', 'check', '--no-cache', {str(target)!r}]\n" \
           "from preflight.cli import entry\nentry()\n"
    fast = _run(code)
    normal = _run(code, {"PREFLIGHT_NORMAL_EXIT": "1"})
    assert fast.returncode == normal.returncode == 1
    assert fast.stdout == normal.stdout
    assert fast.stdout.count("PF101") >= 300
    assert fast.stdout.rstrip().splitlines()[-1].startswith("Found ")


def test_the_console_entry_reports_usage_errors_with_exit_2() -> None:
    out = _run("import sys; sys.argv = ['preflight', 'check', '--select', 'XX999']\n"
               "from preflight.cli import entry\nentry()\n")
    assert out.returncode == 2
    assert "XX999" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_full_disk_under_stdout_is_one_clear_line_and_exit_2(tmp_path: Path, fmt: str) -> None:
    target = tmp_path / "train.py"
    target.write_text("losses = []\nfor x in loader:\n    loss = model(x)\n    loss.backward()\n"
                      "    losses.append(loss)\n")
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "preflight", "check", "--no-cache", "--format", fmt,
                              str(target)], stdout=full, stderr=subprocess.PIPE, text=True, check=False,
                             env={**os.environ, "NO_COLOR": "1"})
    assert out.returncode == 2
    assert out.stderr == "preflight: error: cannot write the report: No space left on device\n"
