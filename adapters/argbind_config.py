"""argbind: function arguments bound to the command line and to a YAML file (pseeth/argbind).

``argbind.parse_args()`` reads ``--args.load FILE.yml``; the YAML's keys are ``Function.param``,
or the bare ``param`` of a function bound with ``without_prefix=True``; an ``$include:`` list loads
other files first, the including file's own keys then override them (argbind README, "YAML
support and features"). ``--param value`` / ``--Function.param value`` on the launch line override
the file. Keys with a scope (``train/AudioDataset.n_examples``) apply inside ``argbind.scope`` only
and are not read here.

descriptinc/descript-audio-codec ``scripts/train.py`` at c7cfc5d: ``@argbind.bind(without_prefix=True)
def train(args, accel, ..., batch_size: int = 12, num_workers: int = 8)`` builds
``accel.prepare_dataloader(state.train_data, num_workers=num_workers, batch_size=batch_size)``;
``Accelerator = argbind.bind(ml.Accelerator, without_prefix=True)`` (audiotools, whose ``amp``
turns on fp16 autocast with a GradScaler, off: fp32); ``AdamW = argbind.bind(torch.optim.AdamW,
"generator", "discriminator")``; ``python scripts/train.py --args.load conf/ablations/baseline.yml``
with ``$include: [conf/base.yml, conf/1gpu.yml]`` (``batch_size: 72`` then ``12``).

Facts (medium: the value reaches the call through argbind's binding):

- a bound function's parameter given as ``batch_size=``/``num_workers=``/``pin_memory=`` to a
  training data loader call (a callee named ``*dataloader*``/``*DataLoader``, not assigned to a
  validation/test name): ``batch.micro``, ``data.num_workers``, ``data.pin_memory``;
- audiotools' ``Accelerator`` bound without prefix and its ``amp`` key: ``precision.mode``;
- a ``torch.optim`` class bound by ``argbind.bind`` and called: ``optimizer.name``.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_MAX_FILES = 16
_LOADER_KEYS = (("batch_size", "batch.micro"), ("num_workers", "data.num_workers"), ("pin_memory", "data.pin_memory"))
_EVAL = re.compile(r"val|test|eval")


def _bind(node: Optional[ast.AST]) -> Optional[ast.Call]:
    """``argbind.bind(...)`` (or ``bind(...)`` imported from argbind)."""
    if isinstance(node, ast.Call) and (dotted_name(node.func) or "") in ("argbind.bind", "bind"):
        return node
    return None


def _no_prefix(call: ast.Call) -> bool:
    return any(k.arg == "without_prefix" and isinstance(k.value, ast.Constant) and k.value.value is True
               for k in call.keywords)


class _Values:
    """The argbind keys of the YAML named by ``--args.load`` (with ``$include``) and the launch line."""

    def __init__(self, project: Project, args: list[str]) -> None:
        self.values: dict[str, tuple[Any, Source]] = {}
        self.root = Path(str(project.root)) if project.root else Path(".")
        self.project = project
        self.seen = 0
        load = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "--args.load"), None)
        if load is not None:
            self._load(load, 0)
        i = 0
        while i < len(args):
            tok = args[i]
            if tok.startswith("--") and tok != "--args.load" and "/" not in tok:
                key, eq, value = tok[2:].partition("=")
                if not eq and i + 1 < len(args) and not args[i + 1].startswith("--"):
                    value, i = args[i + 1], i + 1
                elif not eq:
                    value = "true"
                self.values[key] = (_scalar(value), Source("cli", None, None, f"--{key}", "argbind launch-line key"))
            elif tok == "--args.load":
                i += 1
            i += 1

    def _load(self, name: str, depth: int) -> None:
        import yaml

        path = (self.root / name) if not os.path.isabs(name) else Path(name)
        self.seen += 1
        if depth > 4 or self.seen > _MAX_FILES or not path.is_file() or not self.project.may_read(path):
            return
        try:
            text = read_text_limited(path)
            data = yaml.safe_load(text)
        except (OSError, ValueError, yaml.YAMLError):
            return
        if not isinstance(data, dict):
            return
        includes = data.get("$include")
        for inc in includes if isinstance(includes, list) else []:
            if isinstance(inc, str):
                self._load(inc, depth + 1)
        shown = os.path.relpath(path, self.root) if str(path.resolve()).startswith(str(self.root.resolve())) \
            else str(path)
        lines = text.splitlines()
        for key, value in data.items():
            if not isinstance(key, str) or key == "$include" or "/" in key:
                continue
            line = next((n for n, t in enumerate(lines, 1) if t.startswith(f"{key}:")), None)
            self.values[key] = (value, Source("config", shown, line, key, "argbind key (--args.load, $include)"))


def _scalar(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


@register_adapter
class ArgbindAdapter(Adapter):
    name = "argbind"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and "argbind" in s.source.text and "parse_args" in s.source.text
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if not isinstance(script.tree, ast.Module) or not project.index(script).imports_any("argbind"):
                continue
            values = _Values(project, project.script_args(script))
            if values.values:
                self._read(project, plan, script, values)

    def _read(self, project: Project, plan: TrainingPlan, script: Any, values: _Values) -> None:
        idx = project.index(script)
        tree = script.tree
        bound_objects: dict[str, tuple[str, bool]] = {}  # local name -> (qualified target, without_prefix)
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                call = _bind(node.value)
                if call is not None and call.args:
                    target = dotted_name(call.args[0]) or ""
                    bound_objects[node.targets[0].id] = (idx.qualify(target) or target, _no_prefix(call))
        for name, (target, bare) in bound_objects.items():
            if target.startswith("torch.optim.") and any(
                    isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in ast.walk(tree)):
                self.add_checked(plan, "optimizer.name", target.rsplit(".", 1)[-1],
                                 project.source(script, None, "code", detail=f"{name} = argbind.bind({target}) called"),
                                 "medium")
            if bare and target.startswith("audiotools") and target.endswith("Accelerator") and "amp" in values.values:
                amp, src = values.values["amp"]
                if isinstance(amp, bool):
                    self.add_checked(plan, "precision.mode", "amp_fp16" if amp else "fp32",
                                     Source(src.kind, src.path, src.line, src.key,
                                            f"audiotools Accelerator(amp={amp}) bound by argbind: "
                                            + ("fp16 autocast with a GradScaler" if amp else "no autocast, fp32")),
                                     "medium")
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            binds = [d for d in fn.decorator_list if _bind(d) is not None]
            if not binds:
                continue
            bare = _no_prefix(binds[0])  # type: ignore[arg-type]
            params = {a.arg: (a.arg if bare else f"{fn.name}.{a.arg}") for a in fn.args.args + fn.args.kwonlyargs}
            self._loaders(project, plan, script, fn, params, values)

    def _loaders(self, project: Project, plan: TrainingPlan, script: Any, fn: ast.FunctionDef,
                 params: dict[str, str], values: _Values) -> None:
        targets: dict[int, str] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                targets[id(node.value)] = " ".join(ast.unparse(t) for t in node.targets)
        calls = []
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            last = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
            if "dataloader" not in last.lower() or _EVAL.search(targets.get(id(node), "").lower()):
                continue
            calls.append(node)
        if len(calls) != 1:
            return
        call = calls[0]
        for kw, field in _LOADER_KEYS:
            given = next((k.value for k in call.keywords if k.arg == kw), None)
            if not isinstance(given, ast.Name) or given.id not in params:
                continue
            key = params[given.id]
            got = values.values.get(key)
            if got is None:
                continue
            value, src = got
            self.add_checked(plan, field, value,
                             Source(src.kind, src.path, src.line, src.key,
                                    f"{src.detail}: {fn.name}({given.id}) given to "
                                    f"{dotted_name(call.func) or 'a loader'}({kw}=...) at line {call.lineno}"),
                             "medium")
