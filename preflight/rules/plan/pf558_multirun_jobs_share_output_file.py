"""PF558 multirun-jobs-share-output-file: every job of a Hydra sweep writes the same relative file in the
launch directory."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import hydra_main_apps
from preflight.rules.plan._hydra_cwd import changes_cwd, is_relative_path
from preflight.rules.plan._hydra_sweeps import is_sweep

# writers by the last name of the callee, and where their path argument is
_PATH_FIRST = frozenset({"savefig", "to_csv", "to_json", "to_parquet", "save_pretrained", "save_model", "savetxt"})
_PATH_SECOND = frozenset({"save"})  # torch.save(obj, path); np.save(path, arr) is handled below


def _literal_path(node: Optional[ast.AST]) -> Optional[str]:
    """A path written in the code: a string, or an f-string of loop counters and constants only."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                names = {n.id for n in ast.walk(value.value) if isinstance(n, ast.Name)}
                if not names or any(any(w in n.lower() for w in ("dir", "path", "cfg", "conf", "hydra", "job", "run",
                                                                  "out", "name", "args")) for n in names):
                    return None
                if any(isinstance(n, ast.Attribute) for n in ast.walk(value.value)):
                    return None
        return ast.unparse(node)[2:-1]
    return None


def _written(call: ast.Call) -> Optional[tuple[ast.AST, str]]:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    target: Optional[ast.AST] = None
    if name == "open" and isinstance(func, ast.Name) and call.args:
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and mode.value[:1] in ("w", "a", "x"):
            target = call.args[0]
    elif name in _PATH_SECOND and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module = func.value.id
        if module == "torch" and len(call.args) > 1:
            target = call.args[1]
        elif module in ("np", "numpy") and call.args:
            target = call.args[0]
    elif name in _PATH_FIRST and call.args:
        target = call.args[0]
    if target is None:
        return None
    path = _literal_path(target)
    if path is None or not is_relative_path(path):
        return None
    return target, path


@register
class MultirunJobsShareOutputFile(PlanRule):
    code = "PF558"
    name = "multirun-jobs-share-output-file"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "Every job of a Hydra sweep writes the same relative file in the launch directory"
    explanation = """
## What it finds

A `--multirun` sweep (`-m lr=1e-3,3e-4`) of a `@hydra.main` app that keeps the launch
directory as its working directory (`version_base` 1.2 or later, or `None`, without
`hydra.job.chdir: true`), whose main function writes a result to a fixed relative path:
`torch.save(model.state_dict(), "best.pt")`, `open("metrics.json", "w")`,
`model.save_pretrained("final")`.

## Why it matters

Since Hydra 1.2 `hydra.job.chdir` defaults to False: every job of the sweep runs in
the directory it was launched from, so each one writes the same `best.pt` and
`metrics.json` and the last job wins: the checkpoints and metrics of the others are
overwritten (hydra issue 2282; before 1.2 each job ran in its own
`multirun/<date>/<time>/<job>` folder).

## How to fix it

Write under the job's output folder
(`HydraConfig.get().runtime.output_dir`, or `${hydra:runtime.output_dir}` in the
config), or set `hydra.job.chdir: true`.

## When preflight stays silent

* A single run, or a launch that sweeps nothing.
* The app changes into its output folder (`version_base` under 1.2 or not given,
  `hydra.job.chdir: true`).
* The path is absolute or built from the config, a variable or the output folder.
"""
    bad_examples = examples("preflight.rules.plan._pf555_examples", "PF558_BAD")
    good_examples = examples("preflight.rules.plan._pf555_examples", "PF558_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        argv = list(project.argv)
        if not any(tok == "-m" or (tok.startswith("--m") and "--multirun".startswith(tok)) for tok in argv):
            return
        for comp, script, fn in hydra_main_apps(project):
            if changes_cwd(comp) or not is_sweep(project.script_args(script)):
                continue
            text = script.text if script.text is not None else script.source.text
            if "output_dir" in text or "HydraConfig" in text or "hydra:runtime" in text:
                continue
            calls = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
            for call in calls:
                found = _written(call)
                if found is None:
                    continue
                node, path = found
                evidence = []
                if project.launch_at is not None:
                    where, line = project.launch_at
                    evidence.append(Evidence(line=line, path=where, message="the sweep's jobs"))
                yield pctx.code_finding(
                    self, script, node,
                    f"every job of this --multirun sweep writes {path!r} in the same folder: the app keeps the launch "
                    f"directory (version_base={comp.app.version_base!r}, `hydra.job.chdir` defaults to False from "
                    "Hydra 1.2), so each job overwrites the file of the job before it. Write it under "
                    "`HydraConfig.get().runtime.output_dir`, or set `hydra.job.chdir: true`", evidence=evidence or None)
                break
