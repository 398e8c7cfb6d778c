"""The composite GitHub Action (``action.yml``) and its example workflows.

The action's shell steps are run here as the runner runs them: the ``run:`` script
of a step goes to ``bash -e`` with the step's ``env:`` mapping evaluated (``inputs``,
``github.action_path``, ``runner.temp``, outputs of earlier steps), ``GITHUB_OUTPUT``
pointing at a file, and the workspace as the working directory. The SARIF it writes
is validated against the official SARIF 2.1.0 schema and checked for what GitHub code
scanning reads.

The install step pip-installs preflight (from PyPI or the action's own checkout); it
runs only with ``PREFLIGHT_NETWORK_TESTS=1``. The other tests use this environment's
``preflight`` as the install step's output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest
import yaml
from conftest import REPO

ACTION = REPO / "action.yml"
EXAMPLES = REPO / ".github" / "workflows" / "examples"
SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
PREFLIGHT = str(Path(sys.executable).parent / "preflight")
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def action() -> dict[str, Any]:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def _step(step_id: str) -> dict[str, Any]:
    [step] = [s for s in action()["runs"]["steps"] if s.get("id") == step_id]
    return step


def _workflow(name: str) -> dict[str, Any]:
    doc = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
    if True in doc:  # YAML 1.1 reads the key `on` as a boolean
        doc["on"] = doc.pop(True)
    return doc


class Runner:
    """Just enough of the Actions runner to execute this action's ``run:`` steps."""

    def __init__(self, workspace: Path, temp: Path, inputs: dict[str, str]):
        declared = action()["inputs"]
        unknown = set(inputs) - set(declared)
        assert not unknown, f"not inputs of the action: {unknown}"
        self.inputs = {name: str(spec.get("default", "")) for name, spec in declared.items()}
        self.inputs.update(inputs)
        self.workspace = workspace
        self.temp = temp
        self.outputs: dict[str, dict[str, str]] = {}

    def evaluate(self, text: str) -> str:
        def value(m: re.Match) -> str:
            expr = m.group(1)
            if expr.startswith("inputs."):
                return self.inputs[expr[len("inputs."):]]
            if expr == "github.action_path":
                return str(REPO)
            if expr == "runner.temp":
                return str(self.temp)
            parts = expr.split(".")
            if len(parts) == 4 and parts[0] == "steps" and parts[2] == "outputs":
                return self.outputs.get(parts[1], {}).get(parts[3], "")
            raise AssertionError(f"the test runner does not evaluate ${{{{ {expr} }}}}")

        return _EXPR.sub(value, text)

    def run(self, step_id: str) -> subprocess.CompletedProcess:
        step = _step(step_id)
        assert step["shell"] == "bash"
        output_file = self.temp / f"output-{step_id}"
        output_file.write_text("", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))}
        env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
        env.update({key: self.evaluate(str(val)) for key, val in step.get("env", {}).items()})
        env.update({"GITHUB_OUTPUT": str(output_file), "GITHUB_WORKSPACE": str(self.workspace),
                    "RUNNER_TEMP": str(self.temp), "GITHUB_ACTIONS": "true", "CI": "true"})
        script = self.temp / f"{step_id}.sh"
        script.write_text(self.evaluate(step["run"]), encoding="utf-8")
        # `shell: bash` is `bash --noprofile --norc -eo pipefail {0}` on the runner
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=self.workspace, env=env, capture_output=True, text=True,
                              timeout=900)
        outputs: dict[str, str] = {}
        for line in output_file.read_text(encoding="utf-8").splitlines():
            key, _, val = line.partition("=")
            outputs[key] = val
        self.outputs[step_id] = outputs
        return proc


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A checked-out repository: the bundled quickstart example."""
    ws = tmp_path / "workspace"
    shutil.copytree(REPO / "examples", ws / "examples")
    return ws


def _runner(workspace: Path, tmp_path: Path, **inputs: str) -> Runner:
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    runner = Runner(workspace, temp, {k.replace("_", "-"): v for k, v in inputs.items()})
    runner.outputs["install"] = {"preflight": PREFLIGHT}
    return runner


# -- the action's definition -------------------------------------------------------------

def test_action_is_composite_and_every_input_is_used():
    doc = action()
    assert doc["runs"]["using"] == "composite"
    assert {"paths", "config", "format", "fail-on", "target-gpu", "version"} <= set(doc["inputs"])
    used: set[str] = set()
    step_ids = set()
    for step in doc["runs"]["steps"]:
        step_ids.add(step.get("id"))
        for text in [step.get("run", ""), *map(str, step.get("env", {}).values())]:
            used |= {m.group(1)[len("inputs."):] for m in _EXPR.finditer(text)
                     if m.group(1).startswith("inputs.")}
        assert "${{" not in step.get("run", ""), "inputs reach scripts through env, never inline"
    assert used == set(doc["inputs"])
    for name, spec in doc["outputs"].items():
        m = _EXPR.fullmatch(spec["value"])
        assert m is not None, name
        _, step_id, _, _ = m.group(1).split(".")
        assert step_id in step_ids


def test_example_workflows_parse_and_use_the_action():
    names = sorted(p.name for p in EXAMPLES.glob("*.yml"))
    assert names == ["annotations.yml", "code-scanning.yml"]
    inputs = set(action()["inputs"])
    for name in names:
        doc = _workflow(name)
        assert doc["on"] and doc["jobs"]
        steps = [s for job in doc["jobs"].values() for s in job["steps"]]
        ours = [s for s in steps if s.get("uses") == "./"]
        assert ours, name
        for step in ours:
            assert set(step.get("with", {})) <= inputs
    scanning = _workflow("code-scanning.yml")
    assert scanning["permissions"]["security-events"] == "write"
    steps = scanning["jobs"]["preflight"]["steps"]
    [ours] = [s for s in steps if s.get("uses") == "./"]
    [upload] = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    assert ours["with"]["format"] == "sarif"
    assert upload["with"]["sarif_file"] == "${{ steps." + ours["id"] + ".outputs.sarif-file }}"
    assert "always()" in upload["if"]  # uploaded even when the step found something
    [annotations] = [s for s in _workflow("annotations.yml")["jobs"]["preflight"]["steps"]
                     if s.get("uses") == "./"]
    assert annotations["with"]["format"] == "github"


def test_documented_inputs_are_the_actions():
    """docs/integrations.md lists every input with its real default."""
    text = (REPO / "docs" / "integrations.md").read_text(encoding="utf-8")
    section = text.split("## GitHub Actions\n", 1)[1].split("\n## ", 1)[0]
    documented = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`[a-z-]+`", cells[0]):
            documented[cells[0].strip("`")] = cells[1].strip("`")
    declared = {name: str(spec.get("default", "")) for name, spec in action()["inputs"].items()}
    assert documented == declared


# -- running the steps ---------------------------------------------------------------------

def _validate_sarif(doc: dict[str, Any]) -> None:
    from jsonschema.validators import validator_for

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = validator_for(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=str)
    assert not errors, errors[0]


def test_sarif_step_output_is_what_code_scanning_reads(workspace, tmp_path):
    runner = _runner(workspace, tmp_path, paths="examples/quickstart", format="sarif")
    proc = runner.run("run")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # findings at warning and above
    assert runner.outputs["run"] == {"exit-code": "1", "sarif-file": "preflight-results.sarif"}
    doc = json.loads((workspace / "preflight-results.sarif").read_text(encoding="utf-8"))
    _validate_sarif(doc)
    [run] = doc["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == workspace.resolve().as_uri() + "/"
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert {"PF101", "PF110", "PF305"} <= set(rules)
    for rule in rules.values():
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert rule["properties"]["problem.severity"] in ("error", "warning", "recommendation")
    results = run["results"]
    assert len(results) == 3  # PF101, PF110, PF305 (Classifier has no dropout/batch norm: no PF111)
    for result in results:
        assert rules[result["ruleId"]] is run["tool"]["driver"]["rules"][result["ruleIndex"]]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": "examples/quickstart/train.py",
                                                "uriBaseId": "%SRCROOT%"}
        region = location["region"]
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(region)
        assert re.fullmatch(r"[0-9a-f]{16}:[0-9]+",
                            result["partialFingerprints"]["primaryLocationLineHash"])
    pf101 = next(r for r in results if r["ruleId"] == "PF101")
    assert pf101["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 49, "startColumn": 13, "endLine": 49, "endColumn": 33}


def test_github_format_prints_annotations(workspace, tmp_path):
    runner = _runner(workspace, tmp_path, paths="examples/quickstart", format="github")
    proc = runner.run("run")
    assert proc.returncode == 1
    assert runner.outputs["run"] == {"exit-code": "1"}
    annotations = [line for line in proc.stdout.splitlines()
                   if line.startswith(("::error ", "::warning ", "::notice "))]
    assert len(annotations) == 3
    assert any(line.startswith("::warning file=examples/quickstart/train.py,line=49,endLine=49,"
                               "col=13,endColumn=33,title=preflight PF101::") for line in annotations)
    assert proc.stdout.splitlines()[0].startswith("::group::")


@pytest.mark.parametrize(("fail_on", "code"), [("never", "0"), ("error", "0"), ("note", "1")])
def test_fail_on(workspace, tmp_path, fail_on, code):
    runner = _runner(workspace, tmp_path, paths="examples/quickstart", fail_on=fail_on)
    proc = runner.run("run")
    assert str(proc.returncode) == code
    assert runner.outputs["run"]["exit-code"] == code


def test_audit_with_configs_and_extra_args(workspace, tmp_path):
    runner = _runner(workspace, tmp_path, command="audit", paths="examples/quickstart/train.py",
                     config="examples/quickstart/ds_config.json", format="json",
                     args="--select PF101", output="audit.json")
    proc = runner.run("run")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads((workspace / "audit.json").read_text(encoding="utf-8"))
    assert [f["code"] for f in doc["findings"]] == ["PF101"]
    assert "--config examples/quickstart/ds_config.json" in proc.stdout


@pytest.mark.parametrize(("inputs", "message"), [
    ({"format": "xml"}, "format must be sarif, github, text or json"),
    ({"fail_on": "sometimes"}, "fail-on must be error, warning, note or never"),
    ({"command": "lint"}, "command must be check or audit"),
    ({"target_gpu": "a100-80gb"}, "apply to command: audit"),
])
def test_bad_inputs_fail_clearly(workspace, tmp_path, inputs, message):
    runner = _runner(workspace, tmp_path, **inputs)
    proc = runner.run("run")
    assert proc.returncode == 2
    assert runner.outputs["run"] == {"exit-code": "2"}
    assert proc.stdout.startswith("::error title=preflight action::") and message in proc.stdout


@pytest.mark.skipif(os.environ.get("PREFLIGHT_NETWORK_TESTS") != "1",
                    reason="pip-installs preflight from PyPI; set PREFLIGHT_NETWORK_TESTS=1")
@pytest.mark.parametrize("version", ["", None])
def test_install_step(workspace, tmp_path, version: Optional[str]):
    """Empty version: the action's own checkout; otherwise the released version on PyPI."""
    if version is None:
        from preflight import __version__

        version = __version__
        if subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d",
                           str(tmp_path / "dl"), f"preflight-audit=={version}"],
                          capture_output=True, timeout=300).returncode != 0:
            pytest.skip(f"preflight-audit {version} is not on PyPI")
    runner = _runner(workspace, tmp_path, version=version)
    proc = runner.run("install")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    installed = runner.outputs["install"]["preflight"]
    assert Path(installed).is_file()
    proc = runner.run("run")
    assert proc.returncode == 1
