"""Third-party rules and adapters load through the `preflight.rules` and `preflight.adapters`
entry-point groups.

The plugin is the one docs/plugins.md builds: its fenced blocks marked
``<!-- plugin: <path> -->`` are written to disk (``acme_preflight/*`` and the entry points
of its ``pyproject.toml`` as an installed distribution on PYTHONPATH, the other files as the
project), so the page cannot drift from what is tested. Its ``<!-- plugin-output -->``
blocks are commands with their exact output, run here with the plugin installed.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO, run_subprocess, write

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

DOC = REPO / "docs" / "plugins.md"
FILE_RE = re.compile(r"^<!-- plugin: (?P<path>\S+) -->\n```\w+\n(?P<body>.*?)^```$", re.S | re.M)
OUTPUT_RE = re.compile(r"^<!-- plugin-output -->\n```text\n(?P<body>.*?)^```$", re.S | re.M)
PACKAGE = "acme_preflight"


def doc_files() -> dict[str, str]:
    files = {m["path"]: m["body"] for m in FILE_RE.finditer(DOC.read_text(encoding="utf-8"))}
    assert {f"{PACKAGE}/rules.py", f"{PACKAGE}/plan_rules.py", f"{PACKAGE}/adapter.py",
            "pyproject.toml", "train.py", "save.py"} <= set(files), sorted(files)
    return files


def entry_points_txt(pyproject: str) -> tuple[str, str]:
    """The distribution's name-version and its entry_points.txt, as pip would write them."""
    data = tomllib.loads(pyproject)
    project = data["project"]
    sections = [f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in eps.items())
                for group, eps in project["entry-points"].items()]
    return f"{project['name'].replace('-', '_')}-{project['version']}", "\n".join(sections)


def make_plugin(root: Path) -> Path:
    """Install the documented plugin under ``root/site`` (a fake dist-info, as pip leaves it)
    and its example project under ``root/proj``; returns the site folder."""
    site = root / "site"
    for path, body in doc_files().items():
        if path.startswith(PACKAGE + "/"):
            write(site / path, body)
        elif path == "pyproject.toml":
            dist, eps = entry_points_txt(body)
            name, version = dist.rsplit("-", 1)
            write(site / f"{dist}.dist-info" / "METADATA",
                  f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
            write(site / f"{dist}.dist-info" / "entry_points.txt", eps)
        else:
            write(root / "proj" / path, body)
    write(site / PACKAGE / "__init__.py", "")
    return site


def preflight(root: Path, *args: str, cwd: Path | None = None):
    return run_subprocess("-m", "preflight", *args, cwd=cwd or root / "proj",
                          env={"PYTHONPATH": str(root / "site"), "PREFLIGHT_NO_CACHE": "1"})


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("preflight: warning:")]


FP16 = '''\
import torch


def train(model, loader, optimizer, scaler):
    for x in loader:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
'''


# --------------------------------------------------------------------------- the page


def test_the_documented_pyproject_declares_both_groups():
    _, eps = entry_points_txt(doc_files()["pyproject.toml"])
    assert "[preflight.rules]\nacme = acme_preflight.rules\nacme-jobs = acme_preflight.plan_rules\n" in eps
    assert "[preflight.adapters]\nacme = acme_preflight.adapter\n" in eps


def test_documented_commands_print_what_the_page_shows(tmp_path):
    make_plugin(tmp_path)
    blocks = OUTPUT_RE.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    for block in blocks:
        command, *expected = block.splitlines()
        assert command.startswith("$ preflight "), command
        proc = preflight(tmp_path, *shlex.split(command[len("$ preflight "):]))
        assert not proc.stderr, proc.stderr
        got = [line.rstrip() for line in proc.stdout.splitlines()]
        assert got == [line.rstrip() for line in expected], f"{command}\n{proc.stdout}"


EXAMPLES = '''
import json, sys, tempfile, textwrap
from pathlib import Path
from preflight.engine import Selection, analyse_parsed
from preflight.plan_rules import PlanRule, example_findings
from preflight.registry import all_rules
from preflight.sources import SourceText, parse_python

def findings(code, cls, text):
    if issubclass(cls, PlanRule):
        return [f.code for f in example_findings(code, text)]
    text = textwrap.dedent(text)
    parsed = parse_python(SourceText(path=Path("example.py"), display="example.py", kind="python",
                                     raw=text.encode(), text=text))
    return [f.code for f in analyse_parsed(parsed, Selection(codes=(code,)))]

out = {}
for code, cls in all_rules().items():
    if code.startswith("ACME"):
        out[code] = {"bad": [findings(code, cls, t) for t in cls.bad_examples],
                     "good": [findings(code, cls, t) for t in cls.good_examples]}
print(json.dumps(out))
'''


def test_the_documented_rules_examples_hold(tmp_path):
    site = make_plugin(tmp_path)
    proc = run_subprocess("-c", EXAMPLES, cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    assert sorted(results) == ["ACME001", "ACME101"]
    for code, found in results.items():
        assert found["bad"] and all(code in codes for codes in found["bad"]), (code, found)
        assert found["good"] and all(codes == [] for codes in found["good"]), (code, found)


# --------------------------------------------------------------------------- rules


def test_entry_point_rule_is_listed_and_runs(tmp_path):
    make_plugin(tmp_path)
    proc = preflight(tmp_path, "rules")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ACME001  raw-torch-save +warning +correctness ", proc.stdout, re.M)
    assert re.search(r"^ACME101  fp16-on-acme-cluster +error +config ", proc.stdout, re.M)
    proc = preflight(tmp_path, "explain", "ACME001")
    assert proc.returncode == 0, proc.stderr
    assert "# ACME001 `raw-torch-save`" in proc.stdout and "acme.ckpt.save(obj, path)" in proc.stdout
    proc = preflight(tmp_path, "check", "save.py")
    assert proc.returncode == 1
    assert "save.py:2:1: ACME001 checkpoint written in place; use acme.ckpt.save()" in proc.stdout
    for option in (("--select", "PF"), ("--ignore", "ACME001"), ("--select", "ACME101")):
        proc = preflight(tmp_path, "check", "save.py", *option)
        assert proc.returncode == 0, (option, proc.stdout, proc.stderr)
    write(tmp_path / "proj" / "pyproject.toml", '[tool.preflight]\nignore = ["ACME"]\n')
    assert preflight(tmp_path, "check", "save.py").returncode == 0


def test_broken_plugin_is_reported_and_run_goes_on(tmp_path):
    site = make_plugin(tmp_path)
    write(site / PACKAGE / "rules.py", "raise RuntimeError('boom')\n")
    proc = preflight(tmp_path, "check", "save.py")
    assert proc.returncode == 0
    assert warnings(proc.stderr) == [
        "preflight: warning: plugin 'acme' (acme_preflight.rules) failed to load: boom"]


def test_plugin_reusing_a_built_in_code_is_refused_and_the_built_in_still_runs(tmp_path):
    site = make_plugin(tmp_path)
    rules = site / PACKAGE / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8").replace('"ACME001"', '"PF101"'), encoding="utf-8")
    write(tmp_path / "proj" / "leak.py", "losses = []\nfor x in loader:\n    loss = model(x)\n"
          "    loss.backward()\n    losses.append(loss)\n")
    proc = preflight(tmp_path, "check", "leak.py", "save.py")
    assert proc.returncode == 1
    assert "rule code PF101 is registered twice: preflight.rules.code.pf101_retained_graph (built in)" \
        in proc.stderr
    assert "leak.py:5:5: PF101" in proc.stdout and "acme.ckpt" not in proc.stdout


def test_plan_rule_plugin_runs_in_audit_and_not_in_check(tmp_path):
    make_plugin(tmp_path)
    write(tmp_path / "proj" / "fp16.py", FP16)
    proc = preflight(tmp_path, "check", "fp16.py")
    assert proc.returncode == 0, proc.stdout
    assert "ACME101" not in proc.stdout
    proc = preflight(tmp_path, "audit", "fp16.py", "-q")
    assert proc.returncode == 1, proc.stderr
    assert "fp16.py:6:9: ACME101 amp_fp16 on the ACME cluster; use bf16" in proc.stdout
    assert preflight(tmp_path, "audit", "fp16.py", "-q", "--ignore", "ACME101").returncode == 0
    proc = preflight(tmp_path, "explain", "ACME101")
    assert "## Where it runs" in proc.stdout and "`preflight check` (one file at a time) does not" \
        in proc.stdout


# --------------------------------------------------------------------------- adapters


def test_adapter_plugin_adds_facts_with_their_sources(tmp_path):
    make_plugin(tmp_path)
    proc = preflight(tmp_path, "audit", "train.py", "--emit-plan", "json")
    assert proc.returncode == 0, proc.stderr
    fields = json.loads(proc.stdout)["fields"]
    (micro,) = fields["batch.micro"]
    assert micro["value"] == 16 and micro["adapter"] == "acme" and micro["confidence"] == "high"
    assert micro["source"] == {"kind": "code", "path": "train.py", "line": 3, "key": None,
                               "detail": "Trainer(batch_size=...)"}
    assert [f["value"] for f in fields["batch.grad_accum"]] == [4]
    assert fields["framework.names"][0]["value"] == ["acme"]


def test_adapter_plugin_reads_a_value_from_the_launch_command(tmp_path):
    make_plugin(tmp_path)
    write(tmp_path / "proj" / "cli_train.py", textwrap.dedent('''\
        import argparse
        from acme.train import Trainer

        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=8)
        args = parser.parse_args()
        if args.batch_size > 4:
            Trainer(model="gpt2", batch_size=args.batch_size).fit()
    '''))
    proc = preflight(tmp_path, "audit", "cli_train.py", "--emit-plan", "json", "--", "--batch-size", "64")
    assert proc.returncode == 0, proc.stderr
    (micro,) = json.loads(proc.stdout)["fields"]["batch.micro"]
    assert micro["value"] == 64 and micro["confidence"] == "high"
    assert micro["source"]["kind"] == "cli" and micro["source"]["key"] == "--batch-size"


def test_broken_adapter_plugin_gives_one_warning_and_the_audit_completes(tmp_path):
    site = make_plugin(tmp_path)
    write(site / PACKAGE / "adapter.py", "import acme_internal\n")
    write(tmp_path / "proj" / "fp16.py", FP16)
    expected = ["preflight: warning: plugin 'acme' (acme_preflight.adapter) failed to load: "
                "No module named 'acme_internal'"]
    proc = preflight(tmp_path, "audit", "train.py", "fp16.py", "--emit-plan", "json")
    assert proc.returncode == 0, proc.stderr
    assert warnings(proc.stderr) == expected
    fields = json.loads(proc.stdout)["fields"]
    assert "batch.micro" not in fields and fields["precision.mode"][0]["value"] == "amp_fp16"
    proc = preflight(tmp_path, "audit", "fp16.py")
    assert proc.returncode == 1  # the rule plugins still run: ACME101
    assert warnings(proc.stderr) == expected
    assert "ACME101" in proc.stdout and "Training plan:" in proc.stdout


def test_failing_adapter_is_an_input_error_and_the_plan_is_built_without_it(tmp_path):
    site = make_plugin(tmp_path)
    adapter = site / PACKAGE / "adapter.py"
    adapter.write_text(adapter.read_text(encoding="utf-8").replace(
        'return bool(project.calls("acme.train.Trainer"))', 'raise KeyError("boom")'), encoding="utf-8")
    write(tmp_path / "proj" / "fp16.py", FP16)
    proc = preflight(tmp_path, "audit", "fp16.py", "--emit-plan", "json")
    assert proc.returncode == 3
    assert proc.stderr == ("<adapter acme>: error: internal error (KeyError: 'boom'); the plan may be "
                           "incomplete; report this to the authors of the plugin that provides it "
                           "(acme_preflight.adapter)\n")
    assert json.loads(proc.stdout)["fields"]["precision.mode"][0]["adapter"] == "pytorch"


@pytest.mark.parametrize("class_name,name,why", [
    ("PyTorchAdapter", '"pytorch"', "adapter 'pytorch' is registered twice: preflight.adapters.pytorch."
                                    "PyTorchAdapter and acme_preflight.adapter.PyTorchAdapter"),
    ("AcmeTrainerAdapter", '"pytorch"', "adapter 'pytorch' is registered twice"),
    ("AcmeTrainerAdapter", '""', "adapter acme_preflight.adapter.AcmeTrainerAdapter has no name"),
])
def test_adapter_plugin_cannot_take_a_built_in_name_or_none(tmp_path, class_name, name, why):
    site = make_plugin(tmp_path)
    adapter = site / PACKAGE / "adapter.py"
    adapter.write_text(adapter.read_text(encoding="utf-8").replace("class AcmeTrainerAdapter", f"class {class_name}")
                       .replace('name = "acme"', f"name = {name}"), encoding="utf-8")
    write(tmp_path / "proj" / "loader.py", "from torch.utils.data import DataLoader\n"
          "loader = DataLoader(dataset, batch_size=8)\n")
    proc = preflight(tmp_path, "audit", "loader.py", "--emit-plan", "json")
    assert proc.returncode == 0, proc.stderr
    (warning,) = warnings(proc.stderr)
    assert warning.startswith("preflight: warning: plugin 'acme' (acme_preflight.adapter) failed to load: "
                              + why), warning
    (micro,) = json.loads(proc.stdout)["fields"]["batch.micro"]  # the built-in adapter still reads it
    assert micro["adapter"] == "pytorch" and micro["value"] == 8


def test_adapter_plugins_load_after_a_call_without_plugins(tmp_path):
    site = make_plugin(tmp_path)
    code = ("from preflight.registry import all_adapters\n"
            "print('acme' in all_adapters(plugins=False), 'acme' in all_adapters())\n")
    proc = run_subprocess("-c", code, cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "False True\n"


@pytest.mark.parametrize("command,module,anchor", [
    ("check", "rules.py", "torch_imports = {}"),
    ("audit", "plan_rules.py", "fact = pctx.plan.resolve"),
])
def test_a_rule_plugin_that_raises_does_not_stop_the_run(tmp_path, command, module, anchor):
    site = make_plugin(tmp_path)
    path = site / PACKAGE / module
    path.write_text(path.read_text(encoding="utf-8").replace(anchor, "raise RuntimeError('boom'); " + anchor),
                    encoding="utf-8")
    write(tmp_path / "proj" / "fp16.py", FP16)
    proc = preflight(tmp_path, command, "save.py", "fp16.py")
    assert "Traceback" not in proc.stderr
    whom = "its findings are missing, the other rules ran; report this to the authors of the plugin " \
           "that provides it (acme_preflight."
    if command == "check":  # each file: one error, exit 3 (input not fully analysed)
        assert proc.returncode == 3, proc.stdout
        for name in ("save.py", "fp16.py"):
            assert f"{name}: error: rule ACME001 failed on this file (RuntimeError: boom); {whom}rules)" \
                in proc.stdout
    else:  # the job rule is skipped with a warning; the file rule still reports
        assert proc.returncode == 1, proc.stdout
        assert "save.py:2:1: ACME001 checkpoint written in place" in proc.stdout
        assert warnings(proc.stderr) == [
            f"preflight: warning: rule ACME101 failed on this job (RuntimeError: boom); {whom}plan_rules)"]


def test_a_built_in_rule_that_raises_is_one_error_and_the_other_rules_still_report(tmp_path):
    """A bug in a built-in rule must not cost the user the other rules' findings."""
    write(tmp_path / "proj" / "train.py", "losses = []\nfor x in loader:\n    loss = model(x)\n"
          "    loss.backward()\n    losses.append(loss)\n")
    write(tmp_path / "site" / "sitecustomize.py",
          "from preflight.rules.code import pf110_eval_with_autograd as m\n"
          "def boom(self, ctx):\n    raise ZeroDivisionError('bug')\n"
          "for v in vars(m).values():\n"
          "    if getattr(v, 'code', None) == 'PF110':\n        v.check = boom\n")
    proc = preflight(tmp_path, "check", "train.py")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1  # PF101 still found (an error-severity finding)
    assert "train.py:5:5: PF101" in proc.stdout
    assert ("train.py: error: rule PF110 failed on this file (ZeroDivisionError: bug); its findings "
            "are missing, the other rules ran; please report this to preflight") in proc.stdout


def test_the_check_cache_follows_an_edited_plugin(tmp_path):
    site = make_plugin(tmp_path)
    env = {"PYTHONPATH": str(site)}
    first = run_subprocess("-m", "preflight", "check", "save.py", cwd=tmp_path / "proj", env=env)
    assert "ACME001 checkpoint written in place" in first.stdout
    rules = site / PACKAGE / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8").replace("checkpoint written in place",
                                                               "checkpoint saved in place"),
                     encoding="utf-8")
    second = run_subprocess("-m", "preflight", "check", "save.py", cwd=tmp_path / "proj", env=env)
    assert "ACME001 checkpoint saved in place" in second.stdout, second.stdout
    third = run_subprocess("-m", "preflight", "check", "save.py", "--format", "json",
                           cwd=tmp_path / "proj", env=env)
    assert json.loads(third.stdout)["summary"]["files_cached"] == 1  # unchanged: cached again


def test_rules_lists_the_built_ins_and_warns_about_a_broken_rule_plugin(tmp_path):
    site = make_plugin(tmp_path)
    (site / PACKAGE / "rules.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    proc = preflight(tmp_path, "rules")
    assert proc.returncode == 0 and "PF101  retained-graph" in proc.stdout
    assert warnings(proc.stderr) == [
        "preflight: warning: plugin 'acme' (acme_preflight.rules) failed to load: boom"]
