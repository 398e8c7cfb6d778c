"""PF543 monitored-key-never-logged: a checkpoint/early-stopping monitor no ``self.log`` call writes."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import ParsedPython

_MONITORS = ("ModelCheckpoint", "EarlyStopping")
_BUILTIN = ("epoch", "step")
_LIGHTNING_BASES = ("LightningModule",)
_LOGGERS = ("self", "pl_module", "lightning_module")  # the module's own log, or a callback's


def _pattern(node: ast.AST) -> Optional[str]:
    """A regex for the key a ``log`` call writes: a literal, an f-string or ``"val_" + name``
    (each unknown part as ``.+``); None when the key is not written out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(re.escape(v.value) if isinstance(v, ast.Constant) and isinstance(v.value, str) else ".+"
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _pattern(node.left), _pattern(node.right)
        if left is None and right is None:
            return None
        return (left or ".+") + (right or ".+")
    return None


class _Logs:
    """Every key the audited scripts log (``x.log(key, value)``, ``x.log_dict({...})``), or
    ``complete=False`` when some key is not written out."""

    def __init__(self) -> None:
        self.patterns: list[str] = []
        self.complete = True

    def read(self, tree: ast.AST) -> None:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("log", "log_dict") and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in _LOGGERS):
                continue
            if node.func.attr == "log":
                key = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                pattern = _pattern(key) if key is not None else None
                if pattern is None:
                    self.complete = False
                else:
                    self.patterns.append(pattern)
                continue
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "dictionary"),
                                                      None)
            if not isinstance(arg, ast.Dict) or any(k is None for k in arg.keys):
                self.complete = False
                continue
            for k in arg.keys:
                pattern = _pattern(k) if k is not None else None
                if pattern is None:
                    self.complete = False
                else:
                    self.patterns.append(pattern)

    def has(self, key: str) -> bool:
        if key in _BUILTIN:
            return True
        stem = re.sub(r"_(step|epoch)$", "", key)  # on_step/on_epoch suffixes
        return any(re.fullmatch(p, key) or re.fullmatch(p, stem) for p in self.patterns)


def _classes(scripts: list[ParsedPython]) -> dict[str, ast.ClassDef]:
    return {n.name: n for s in scripts for n in ast.walk(s.tree) if isinstance(n, ast.ClassDef)}


def _lightning_class(name: str, classes: dict[str, ast.ClassDef], depth: int = 0) -> bool:
    """``name`` is defined in the audited scripts and all its bases are LightningModule or such
    classes: every ``self.log`` it inherits is in view."""
    cls = classes.get(name)
    if cls is None or depth > 6 or not cls.bases:
        return False
    for base in cls.bases:
        text = ast.unparse(base).rsplit(".", 1)[-1]
        if text in _LIGHTNING_BASES:
            continue
        if not _lightning_class(text, classes, depth + 1):
            return False
    return True


def _fitted(scripts: list[ParsedPython]) -> list[str]:
    """Class names of the modules handed to ``trainer.fit(...)`` (through a name bound once)."""
    built: dict[str, str] = {}
    fitted: list[Optional[str]] = []
    for script in scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                func = node.value.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name is not None:
                    built[node.targets[0].id] = name
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit":
                arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "model"), None)
                if isinstance(arg, ast.Name):
                    fitted.append(built.get(arg.id))
                elif isinstance(arg, ast.Call):
                    func = arg.func
                    fitted.append(func.id if isinstance(func, ast.Name) else None)
                else:
                    fitted.append(None)
    return [f for f in fitted if f is not None] if all(f is not None for f in fitted) else []


def _imported(pctx: PlanContext, name: str) -> Optional[ast.ClassDef]:
    """The class ``name`` imported by an audited script from a module of the project (one level)."""
    from preflight.analysis.project_imports import imported_class

    for script in pctx.scripts:
        got = imported_class(pctx.file_context(script), name)
        if got is not None:
            return got[1]
    return None


def _yaml_monitors(pctx: PlanContext) -> list[tuple[str, int, str]]:
    """(file, line, key) of the ``monitor:`` of every ``ModelCheckpoint``/``EarlyStopping`` node
    (``_target_``) in the configs the job's Hydra apps compose."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return []
    out: list[tuple[str, int, str]] = []
    seen: set[tuple[str, int]] = set()
    for comp in compositions(pctx.project):
        if not isinstance(comp, Composed):
            continue
        for _item, loaded in comp.item_configs:
            todo: list[tuple[tuple, object]] = [((), loaded.data)]
            while todo:
                path, node = todo.pop()
                if isinstance(node, dict):
                    target = node.get("_target_")
                    monitor = node.get("monitor")
                    if isinstance(target, str) and target.rsplit(".", 1)[-1] in _MONITORS \
                            and isinstance(monitor, str) and "${" not in monitor:
                        line = loaded.line_of((*path, "monitor")) or 1
                        if (loaded.path, line) not in seen:
                            seen.add((loaded.path, line))
                            out.append((loaded.path, line, monitor))
                    todo.extend(((*path, k), v) for k, v in node.items())
    return out


def _closest(key: str, logs: _Logs) -> str:
    import difflib

    plain = [re.sub(r"\\(.)", r"\1", p) for p in logs.patterns if ".+" not in p]
    found = difflib.get_close_matches(key, plain, n=1, cutoff=0.6)
    return f" (`{found[0]}` is logged)" if found else ""


@register
class MonitoredKeyNeverLogged(PlanRule):
    code = "PF543"
    name = "monitored-key-never-logged"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`ModelCheckpoint`/`EarlyStopping` monitor a key that no `self.log` call of the module writes"
    explanation = """
## What it finds

`ModelCheckpoint(monitor="val/usdr")` or `EarlyStopping(monitor=...)` (in the code, or
as a `_target_` node with `monitor:` in a config the job's Hydra app composes, such as
`configs/callbacks/default.yaml`) with a key that none of the `self.log(...)` / `self.log_dict({...})` calls of the fitted
LightningModule writes (f-string keys are matched as patterns; `_step`/`_epoch`
suffixes and `epoch`/`step` count).

## Why it matters

Lightning looks the key up after the first validation epoch and stops with
"`ModelCheckpoint(monitor='val/usdr')` could not find the monitored key in the
returned metrics" (older versions warn and never save a best checkpoint): a full
epoch of training is lost, or the run finishes with no best model (SCNet-PyTorch
issue 2, Mask3D issue 144, sgmse issue 32, Lightning issue 20046).

## How to fix it

Log the key the callback monitors (`self.log("val/usdr", ...)`), or monitor a key
the module logs.

## When preflight stays silent

* A logged key is not written out (`self.log(name, ...)`, `self.log_dict(metrics)`):
  preflight cannot list the keys.
* The fitted module's class, or one of its bases, is neither among the audited scripts
  nor imported by them from a module of the project (`from pkg.models import Net`, one level).
* The monitor is not a string literal.
"""
    bad_examples = examples("preflight.rules.plan._pf543_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf543_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        scripts = pctx.scripts
        monitors: list[tuple[ParsedPython, ast.keyword, str]] = []
        for script in scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "monitor" not in text:
                continue
            for site in pctx.index(script).calls:
                if site.last not in _MONITORS:
                    continue
                kw = next((k for k in site.call.keywords if k.arg == "monitor"), None)
                if kw is not None and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    monitors.append((script, kw, kw.value.value))
        yaml_monitors = _yaml_monitors(pctx)
        if not monitors and not yaml_monitors:
            return
        fitted = _fitted(scripts)
        classes = _classes(scripts)
        trees: list[ast.AST] = [script.tree for script in scripts]
        for name in fitted:
            if name not in classes:
                found = _imported(pctx, name)
                if found is not None:
                    classes[name] = found
                    trees.append(found)
        if not fitted or not all(_lightning_class(name, classes) for name in fitted):
            return
        logs = _Logs()
        for tree in trees:
            logs.read(tree)
        if not logs.complete or not logs.patterns:
            return
        for path, line, key in yaml_monitors:
            if logs.has(key):
                continue
            message = (f"`monitor: {key}` in this callback config, but no `self.log`/`log_dict` call of the fitted "
                       f"module ({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Monitor the key the module logs"
                       f"{_closest(key, logs)}")
            yield pctx.location_finding(self, path, line, message)
        for script, kw, key in monitors:
            if logs.has(key):
                continue
            message = (f"`monitor=\"{key}\"`, but no `self.log`/`log_dict` call of the fitted module "
                       f"({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Log the key, or monitor one the module "
                       "logs")
            yield pctx.code_finding(self, script, kw.value, message)
