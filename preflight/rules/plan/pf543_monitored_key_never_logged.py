"""PF543 monitored-key-never-logged: a checkpoint/early-stopping monitor no ``self.log`` call writes."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._logged_keys import (
    LoggedKeys,
    fitted_modules,
    imported_module_class,
    key_pattern,
    lightning_class,
    module_classes,
)
from preflight.sources import ParsedPython

_MONITORS = ("ModelCheckpoint", "EarlyStopping")


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
                elif isinstance(node, list):  # a callbacks file that is a list of nodes (Mask3D's conf/callbacks)
                    todo.extend(((*path, k), v) for k, v in enumerate(node))
    return out


def _closest(key: str, logs: LoggedKeys) -> str:
    import difflib

    plain = [re.sub(r"\\(.)", r"\1", p) for p in logs.patterns if ".+" not in p]
    found = difflib.get_close_matches(key, plain, n=1, cutoff=0.6)
    return f" (`{found[0]}` is logged)" if found else ""


_CONFIG_ATTRS = ("config", "cfg", "conf")
_LOGGER_NAMES = ("self", "pl_module", "lightning_module")
_ABSENT = object()


def _config_path(node: ast.AST) -> Optional[tuple[str, ...]]:
    """``self.config.data.dataset_name`` -> ("data", "dataset_name"): a chain under the module's config attribute."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.reverse()
    if not isinstance(node, ast.Name) or node.id != "self" or len(parts) < 3 or parts[0] not in _CONFIG_ATTRS:
        return None
    return tuple(parts[1:])


def _constants(node: ast.AST) -> Optional[list[object]]:
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return None


def _false_under(test: ast.AST, config: dict) -> Optional[tuple[str, object]]:
    """(condition, value) when ``test`` compares the module's config (``self.config.a.b in ("x", "y")``,
    ``== "x"``) with constants and the composed config's scalar value makes it false."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.Eq))):
        return None
    path = _config_path(test.left)
    wanted = _constants(test.comparators[0])
    if path is None or wanted is None or (isinstance(test.ops[0], ast.Eq) and len(wanted) != 1):
        return None
    node: object = config
    for part in path:
        node = node.get(part, _ABSENT) if isinstance(node, dict) else _ABSENT
    if node is _ABSENT or isinstance(node, (dict, list)) or node is None or (isinstance(node, str) and "${" in node):
        return None
    if node in wanted:
        return None
    return ast.unparse(test), node


def _logged_only_where_false(trees: list[ast.AST], key: str, config: dict) -> Optional[tuple[str, object, int]]:
    """(condition, value, line) when every ``self.log`` writing ``key`` (a literal key) lies in the body of an
    ``if`` whose condition the composed config makes false; None when one is reachable or none is found."""
    found: Optional[tuple[str, object, int]] = None
    for tree in trees:
        parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for sub in ast.iter_child_nodes(node):
                parents[id(sub)] = node
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "log_dict":
                arg = node.args[0] if node.args else None
                if not isinstance(arg, ast.Dict) or any(
                        not isinstance(k, ast.Constant) or k.value == key for k in arg.keys):
                    return None  # a dict of keys preflight cannot rule out
                continue
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "log"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in _LOGGER_NAMES
                    and node.args):
                continue
            name = node.args[0]
            if not isinstance(name, ast.Constant) or not isinstance(name.value, str):
                if key_pattern(name) is None or re.fullmatch(key_pattern(name) or "", key):
                    return None  # a key preflight cannot rule out
                continue
            if name.value != key and re.sub(r"_(step|epoch)$", "", key) != name.value:
                continue
            dead = None
            child: ast.AST = node
            while id(child) in parents:
                parent = parents[id(child)]
                if isinstance(parent, ast.If) and any(child is b for b in parent.body):
                    dead = _false_under(parent.test, config)
                    if dead is not None:
                        break
                child = parent
            if dead is None:
                return None
            found = found or (dead[0], dead[1], node.lineno)
    return found


def _single_config(pctx: PlanContext, fitted: list[str]) -> Optional[dict]:
    """The composed config of the job's one ``@hydra.main`` app, when every fitted module class is built with
    that app's whole config (``InstanceSegmentation(cfg)``: its ``self.config`` is the composed root); else None."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return None
    comps = compositions(pctx.project)
    if len(comps) != 1 or not isinstance(comps[0], Composed) or not isinstance(comps[0].config, dict):
        return None
    app = comps[0].app
    if app.script is None or app.how != "@hydra.main" or not fitted:
        return None
    roots = {fn.args.args[0].arg for fn in ast.walk(app.script.tree)
             if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.args.args
             and any("hydra" in ast.unparse(d) and "main" in ast.unparse(d) for d in fn.decorator_list)}
    built = set()
    for node in ast.walk(app.script.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            values = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(v, ast.Name) and v.id in roots for v in values):
                built.add(name)
    if not all(name in built for name in fitted):
        return None
    return comps[0].config


def _conditional_message(key: str, dead: tuple[str, object, int]) -> str:
    condition, value, line = dead
    return (f"the monitored key `{key}` is logged only under `if {condition}` (line {line} of the module), and the "
            f"composed config makes that false (the value is {value!r}): the run never logs `{key}`, so Lightning "
            "stops after the first validation epoch with \"could not find the monitored key in the returned "
            "metrics\" (older versions never save a best checkpoint). Monitor a key this run logs (`val_loss`), "
            "or log the key on every path")


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

Also a monitored key that the module logs only in the body of an `if` on its Hydra config
(`if self.config.data.dataset_name in ("scannet", "s3dis"):`) when the job's one composed config,
with the launch line's overrides, makes that condition false (`data=my_dataset`): the run as
launched never logs it (Mask3D issue 116). A callbacks config may be a list of nodes.

## Why it matters

Lightning looks the key up after the first validation epoch and stops with
"`ModelCheckpoint(monitor='val/usdr')` could not find the monitored key in the
returned metrics" (older versions warn and never save a best checkpoint): a full
epoch of training is lost, or the run finishes with no best model (SCNet-PyTorch
issue 2, Mask3D issues 144 and 116, sgmse issue 32, Lightning issue 20046).

## How to fix it

Log the key the callback monitors (`self.log("val/usdr", ...)`), or monitor a key
the module logs.

## When preflight stays silent

* A logged key is not written out (`self.log(name, ...)`, `self.log_dict(metrics)`):
  preflight cannot list the keys.
* The fitted module's class, or one of its bases, is neither among the audited scripts
  nor imported by them from a module of the project (`from pkg.models import Net`, one level).
* The monitor is not a string literal.
* For a key logged under a condition: the fitted module is not built with the `@hydra.main` function's
  whole config (`Module(cfg)`), the condition is not `self.config.<keys> in (<constants>)` or
  `== <constant>` (`config`, `cfg` or `conf` attribute), the composed config lacks the keys or holds an
  interpolation there, the job has several Hydra apps, another branch or a `log_dict` (of keys preflight
  cannot list) may write the key, or a log call's key is not written out.
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
        fitted = fitted_modules(scripts)
        classes = module_classes(scripts)
        trees: list[ast.AST] = [script.tree for script in scripts]
        for name in fitted:
            if name not in classes:
                found = imported_module_class(pctx, name)
                if found is not None:
                    classes[name] = found
                    trees.append(found)
        if not fitted or not all(lightning_class(name, classes) for name in fitted):
            return
        logs = LoggedKeys()
        for tree in trees:
            logs.read(tree)
        if not logs.complete or not logs.patterns:
            return
        config = _single_config(pctx, fitted)
        for path, line, key in yaml_monitors:
            if logs.has(key):
                dead = _logged_only_where_false(trees, key, config) if config is not None else None
                if dead is not None:
                    yield pctx.location_finding(self, path, line, _conditional_message(key, dead))
                continue
            message = (f"`monitor: {key}` in this callback config, but no `self.log`/`log_dict` call of the fitted "
                       f"module ({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Monitor the key the module logs"
                       f"{_closest(key, logs)}")
            yield pctx.location_finding(self, path, line, message)
        for script, kw, key in monitors:
            if logs.has(key):
                dead = _logged_only_where_false(trees, key, config) if config is not None else None
                if dead is not None:
                    yield pctx.code_finding(self, script, kw.value, _conditional_message(key, dead))
                continue
            message = (f"`monitor=\"{key}\"`, but no `self.log`/`log_dict` call of the fitted module "
                       f"({', '.join(sorted(set(fitted)))}) writes that key: Lightning stops after the first "
                       "validation epoch with \"could not find the monitored key in the returned metrics\" (or, "
                       "in older versions, never saves a best checkpoint). Log the key, or monitor one the module "
                       "logs")
            yield pctx.code_finding(self, script, kw.value, message)
