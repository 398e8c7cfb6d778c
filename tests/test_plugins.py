"""Third-party rules load through the `preflight.rules` entry-point group."""

from __future__ import annotations

import textwrap

from conftest import run_subprocess, write

PLUGIN = '''
import ast
from preflight.diagnostics import Category, Severity
from preflight.registry import register
from preflight.rules.base import Rule


@register
class NoPrint(Rule):
    code = "ACME001"
    name = "no-print"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    summary = "print() in training code"
    explanation = "Internal rule of the ACME team: use the logger. " * 10
    bad_examples = ["print(1)"]
    good_examples = ["log(1)", "x = 1"]

    def check(self, ctx):
        for call in ctx.nodes(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == "print":
                yield ctx.finding(self, call, "use the logger instead of print()")
'''


def make_plugin(root):
    site = root / "site"
    write(site / "acme_rules.py", PLUGIN)
    write(site / "acme_rules-0.1.dist-info" / "METADATA", "Metadata-Version: 2.1\nName: acme-rules\nVersion: 0.1\n")
    write(site / "acme_rules-0.1.dist-info" / "entry_points.txt",
          "[preflight.rules]\nacme = acme_rules\n")
    return site


def test_entry_point_rule_is_listed_and_runs(tmp_path):
    site = make_plugin(tmp_path)
    write(tmp_path / "proj" / "train.py", "print('hi')\n")
    env = {"PYTHONPATH": str(site)}
    proc = run_subprocess("-m", "preflight", "rules", cwd=tmp_path / "proj", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "ACME001  no-print" in proc.stdout
    proc = run_subprocess("-m", "preflight", "check", "train.py", "--no-cache", cwd=tmp_path / "proj", env=env)
    assert proc.returncode == 1
    assert "train.py:1:1: ACME001 use the logger instead of print()" in proc.stdout
    proc = run_subprocess("-m", "preflight", "check", "train.py", "--select", "PF", "--no-cache",
                          cwd=tmp_path / "proj", env=env)
    assert proc.returncode == 0


def test_broken_plugin_is_reported_and_run_goes_on(tmp_path):
    site = make_plugin(tmp_path)
    write(site / "acme_rules.py", "raise RuntimeError('boom')\n")
    write(tmp_path / "proj" / "train.py", "x = 1\n")
    proc = run_subprocess("-m", "preflight", "check", "train.py", "--no-cache",
                          cwd=tmp_path / "proj", env={"PYTHONPATH": str(site)})
    assert proc.returncode == 0
    assert textwrap.dedent("preflight: warning: plugin 'acme' (acme_rules) failed to load: boom") in proc.stderr


def test_plugin_reusing_a_built_in_code_is_refused_and_the_built_in_still_runs(tmp_path):
    site = make_plugin(tmp_path)
    write(site / "acme_rules.py", PLUGIN.replace('"ACME001"', '"PF101"'))
    write(tmp_path / "proj" / "train.py", "losses = []\nfor x in loader:\n    loss = model(x)\n"
          "    loss.backward()\n    losses.append(loss)\n")
    proc = run_subprocess("-m", "preflight", "check", "train.py", "--no-cache",
                          cwd=tmp_path / "proj", env={"PYTHONPATH": str(site)})
    assert proc.returncode == 1
    assert "rule code PF101 is registered twice: preflight.rules.pf101_retained_graph (built in)" \
        in proc.stderr
    assert "PF101" in proc.stdout and "use the logger" not in proc.stdout
