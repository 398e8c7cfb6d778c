"""PF529 hydra-relative-path-in-run-dir: a relative data path from the config, read inside Hydra's per-run directory."""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_app_support import config_chain, hydra_main_apps, lookup
from preflight.rules.plan._hydra_cwd import changes_cwd, is_relative_path

# keywords that take a folder or file to read data from
_PATH_KEYWORDS = frozenset({"root", "data_dir", "data_root", "dataset_root", "data_path", "dataset_path",
                            "root_dir", "image_dir", "img_dir", "train_dir", "data_folder", "image_folder"})


@register
class HydraRelativePathInRunDir(PlanRule):
    code = "PF529"
    name = "hydra-relative-path-in-run-dir"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A relative data path from the config is read inside Hydra's per-run working directory"
    explanation = """
## What it finds

An `@hydra.main` app whose runs change into their output folder (`version_base` under
1.2 or not given, or `hydra.job.chdir: true`) that passes a config value holding a
relative path (`root: ./data`) straight to a data-path keyword (`root=cfg.dataset.root`,
`data_dir=`, `data_path=`, ...).

## Why it matters

With those settings Hydra runs the job inside `outputs/<date>/<time>/`, so a relative
path is read from (and written to) a new, empty folder on every run: a dataset with
`download=True` is downloaded and extracted again each time, one without it is not found,
and files land scattered in timestamped folders (super-gradients PR 321: "datasets such as
cifar10, mnist, etc. were downloaded and extracted from scratch in each run").

## How to fix it

`hydra.utils.to_absolute_path(cfg.dataset.root)`, an absolute path in the config
(`${hydra:runtime.cwd}/data`, `${oc.env:DATA_ROOT}`), `hydra.job.chdir: false`, or
`version_base="1.2"` or later.

## When preflight stays silent

* The app keeps the launch directory (`version_base=None` or >= 1.2, `hydra.job.chdir: false`).
* The path is made absolute in the app (`to_absolute_path(cfg.data.root)`, passed on or
  assigned back), or the file restores the launch directory some other way
  (`get_original_cwd()`, `os.chdir(...)`, `to_absolute_path` of a helper's parameter): a
  `to_absolute_path` on one config path no longer silences the other paths of the app.
* The value is absolute, an interpolation (`${paths.data_dir}`) or a URL.

A resume whose checkpoint path is a relative literal of the code (`ckpt = "checkpoints/last.pt"`;
`if os.path.exists(ckpt): torch.load(ckpt)`) is reported when `hydra.run.dir` holds
`${now:...}` (Hydra's default) and the launch line does not set it: every launch runs in a
new folder, so a relaunch never finds what the previous launch saved.

A read guarded by an existence test on the same path (`if os.path.exists(cfg.resume):
torch.load(cfg.resume)`) is reported at the test: the test is false in the new folder, so
the guarded load never runs and the job silently starts without it.
"""
    bad_examples = examples("preflight.rules.plan._pf527_examples", "PF529_BAD")
    good_examples = examples("preflight.rules.plan._pf527_examples", "PF529_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp, script, fn in hydra_main_apps(pctx.project):
            if not changes_cwd(comp):
                continue
            root = fn.args.args[0].arg
            made_absolute = _made_absolute(script, fn, root)
            if made_absolute is None:
                continue
            stamped = _timestamped_run_dir(pctx, comp)
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call):
                    continue
                if stamped is not None:
                    yield from self._literal_resume(pctx, comp, script, fn, call, stamped)
                yield from self._positional(pctx, comp, script, fn, call, root, made_absolute)
                yield from self._instantiated(pctx, comp, call, root)
                for kw in call.keywords:
                    if kw.arg not in _PATH_KEYWORDS:
                        continue
                    path = config_chain(kw.value, root)
                    value = lookup(comp.config, path) if path else None
                    if path is None or path in made_absolute or not is_relative_path(value):
                        continue
                    origin = comp.origins.get(path)
                    where = f" ({origin[0]}:{origin[1]})" if origin and origin[1] else ""
                    yield pctx.code_finding(
                        self, script, kw.value,
                        f"`{kw.arg}={ast.unparse(kw.value)}` is the relative path {value!r}{where}, and this app "
                        f"runs inside Hydra's per-run output folder (version_base={comp.app.version_base!r}, no "
                        "`hydra.job.chdir: false`): every run reads and writes it under a new "
                        "outputs/<date>/<time>/ folder, so the data is downloaded again or not found. Wrap it in "
                        "`hydra.utils.to_absolute_path(...)`, or keep the launch directory "
                        "(`hydra.job.chdir: false`, version_base >= 1.2)")

    def _positional(self, pctx: PlanContext, comp: Any, script: Any, fn: ast.FunctionDef, call: ast.Call, root: str,
                    made_absolute: frozenset[tuple[str, ...]]) -> Iterable[Finding]:
        """``os.listdir(cfg.data.dir)``, ``open(cfg.paths.train)``: a relative config path read by a
        function that takes the path as its first argument."""
        if not call.args or _reader(call) is None:
            return
        path = config_chain(call.args[0], root)
        value = lookup(comp.config, path) if path else None
        if path is None or path in made_absolute or not is_relative_path(value):
            return
        origin = comp.origins.get(path)
        where = f" ({origin[0]}:{origin[1]})" if origin and origin[1] else ""
        test = _existence_test(fn, call, lambda arg: config_chain(arg, root) == path)
        if test is not None and _timestamped_run_dir(pctx, comp) is not None:
            # held-out-28's nnabla-nas resume: `if cfg.resume and os.path.exists(cfg.resume): torch.load(...)`
            yield pctx.code_finding(
                self, script, test,
                f"`{ast.unparse(test)}` tests the relative path {value!r}{where}, and this app runs inside "
                f"Hydra's per-run output folder (version_base={comp.app.version_base!r}, no "
                "`hydra.job.chdir: false`): the test looks in the new outputs/<date>/<time>/ folder, where the "
                f"file never is, so the `{_reader(call)}(...)` it guards (line {call.lineno}) never runs and the "
                "job silently starts without it (a resume starts again from scratch). Wrap the path in "
                "`hydra.utils.to_absolute_path(...)`, or keep the launch directory (`hydra.job.chdir: false`, "
                "version_base >= 1.2)")
            return
        yield pctx.code_finding(
            self, script, call.args[0],
            f"`{_reader(call)}({ast.unparse(call.args[0])})` reads the relative path {value!r}{where}, and this app "
            f"runs inside Hydra's per-run output folder (version_base={comp.app.version_base!r}, no "
            "`hydra.job.chdir: false`): the path is resolved against outputs/<date>/<time>/, not the launch "
            "directory, so the data is not found. Wrap it in `hydra.utils.to_absolute_path(...)`, or keep the "
            "launch directory (`hydra.job.chdir: false`, version_base >= 1.2)")

    def _literal_resume(self, pctx: PlanContext, comp: Any, script: Any, fn: ast.FunctionDef, call: ast.Call,
                        run_dir: str) -> Iterable[Finding]:
        """``ckpt = "checkpoints/last.pt"``; ``if os.path.exists(ckpt): torch.load(ckpt)``: a resume from a
        relative path of the code, in an app that runs every launch in a new timestamped folder."""
        if not call.args or _reader(call) is None:
            return
        value = _literal_path(fn, call.args[0])
        if value is None:
            return
        target = ast.dump(call.args[0])
        test = _existence_test(fn, call, lambda arg: ast.dump(arg) == target)
        if test is None:
            return
        yield pctx.code_finding(
            self, script, test,
            f"`{ast.unparse(test)}` looks for the relative path {value!r} in this launch's working directory, and "
            f"this app runs every launch in a new folder (`hydra.run.dir: {run_dir}` with `hydra.job.chdir` on): "
            f"the file a previous launch wrote is in that launch's folder, so the `{_reader(call)}(...)` it guards "
            f"(line {call.lineno}) never runs and a relaunch after a crash silently starts again from scratch. Use a "
            "fixed run folder (`hydra.run.dir: outputs/${experiment_name}`), an absolute path "
            "(`hydra.utils.to_absolute_path(...)`), or relaunch with `hydra.run.dir=<the earlier folder>`")

    def _instantiated(self, pctx: PlanContext, comp: Any, call: ast.Call, root: str) -> Iterable[Finding]:
        """``instantiate(cfg.dataset)`` of a node with ``_target_`` whose data-path argument is relative."""
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in ("instantiate", "call") or not call.args:
            return
        path = config_chain(call.args[0], root)
        node = lookup(comp.config, path) if path else None
        if path is None or not isinstance(node, dict) or "_target_" not in node:
            return
        for key in sorted(_PATH_KEYWORDS & set(node)):
            value = node[key]
            origin = comp.origins.get((*path, key))
            if not is_relative_path(value) or not origin or not origin[1]:
                continue
            yield pctx.location_finding(
                self, origin[0], origin[1],
                f"`{key}: {value}` is a relative path of the node `{'.'.join(path)}` ({node['_target_']}) that "
                f"`{ast.unparse(call)[:80]}` builds, and this app runs inside Hydra's per-run output folder "
                f"(version_base={comp.app.version_base!r}, no `hydra.job.chdir: false`): the path is resolved "
                "against outputs/<date>/<time>/ (one level deeper under --multirun), so the data is not found or "
                "downloaded again. Use `${hydra:runtime.cwd}/...` or an absolute path, or keep the launch directory "
                "(`hydra.job.chdir: false`, version_base >= 1.2)")


_ABSOLUTE = frozenset({"to_absolute_path"})
_EXISTS = frozenset({"exists", "isfile", "isdir"})


def _made_absolute(script: Any, fn: ast.FunctionDef, root: str) -> Optional[frozenset[tuple[str, ...]]]:
    """The config paths the app makes absolute itself (``to_absolute_path(cfg.data.root)``, directly or
    assigned back), or None when the file restores the launch directory in a way not tied to one path:
    ``get_original_cwd()``, ``os.chdir(...)``, or ``to_absolute_path`` of something other than a config
    path of the app (a helper's parameter, a joined string): then every path may be absolute."""
    text = script.text if script.text is not None else script.source.text
    if "get_original_cwd" in text or "chdir(" in text or "runtime.cwd" in text or "to_absolute_path as" in text:
        return None
    inside = {id(n) for n in ast.walk(fn)}
    out: set[tuple[str, ...]] = set()
    for call in ast.walk(script.tree):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in _ABSOLUTE:
            continue
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            continue  # `to_absolute_path("data/imagenet")`: a literal of the code, no config path
        path = config_chain(call.args[0], root) if call.args and id(call) in inside else None
        if path is None:
            return None
        out.add(path)
    return frozenset(out)


def _existence_test(fn: ast.FunctionDef, call: ast.Call, same: Callable[[ast.expr], bool]) -> Optional[ast.Call]:
    """``os.path.exists(cfg.resume)`` in the test of an ``if`` whose body holds ``call``, on the same path."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.If) or not any(call is n for b in node.body for n in ast.walk(b)):
            continue
        for test in ast.walk(node.test):
            if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in _EXISTS \
                    and test.args and same(test.args[0]):
                return test
    return None


_DEFAULT_RUN_DIR = "outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}"


def _timestamped_run_dir(pctx: PlanContext, comp: Any) -> Optional[str]:
    """``hydra.run.dir`` when it holds ``${now:...}`` (Hydra's default does): every launch runs in a new
    folder. None when the launch line sets it (relaunching into an earlier run's folder), for a
    ``--multirun`` (sweep folders), or when it is fixed."""
    args = [*comp.app.overrides, *(pctx.project.script_args(comp.app.script) if comp.app.script else [])]
    if any(t in ("-m", "--multirun") or t.lstrip("+").startswith("hydra.run.dir=") for t in args):
        return None
    run_dir: Any = _DEFAULT_RUN_DIR
    for loaded in comp.files.values():
        data = getattr(loaded, "data", None)
        hydra = data.get("hydra") if isinstance(data, dict) else None
        run = hydra.get("run") if isinstance(hydra, dict) else None
        if isinstance(run, dict) and "dir" in run:
            run_dir = run["dir"]
    return run_dir if isinstance(run_dir, str) and "${now:" in run_dir else None


def _literal_path(fn: ast.FunctionDef, expr: ast.expr) -> Optional[str]:
    """A relative path written in the code: a string literal, or a local name bound once to one."""
    if isinstance(expr, ast.Constant):
        return expr.value if isinstance(expr.value, str) and is_relative_path(expr.value) else None
    if not isinstance(expr, ast.Name):
        return None
    stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == expr.id and isinstance(n.ctx, ast.Store)]
    bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
    if len(stores) != 1:
        return None
    if len(bound) != 1 or not isinstance(bound[0], ast.Constant):
        return None
    value = bound[0].value
    return value if isinstance(value, str) and is_relative_path(value) else None


# functions that take the path to read as their first argument (by the last name of the callee)
_READERS = frozenset({"listdir", "scandir", "walk", "glob", "iglob", "read_csv", "read_json", "read_parquet",
                      "read_table", "loadtxt", "genfromtxt", "load_from_disk", "ImageFolder", "DatasetFolder",
                      "imread", "File"})
_MODULE_READERS = frozenset({"load", "open"})  # np.load, torch.load, Image.open: on a module, not any object
_MODULES = frozenset({"np", "numpy", "torch", "Image", "h5py", "gzip", "io", "tarfile", "zipfile", "pickle"})


def _reader(call: ast.Call) -> Optional[str]:
    func = call.func
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and not mode.value.startswith("r"):
        return None  # a file written in the run's folder is what Hydra's run directory is for
    if isinstance(func, ast.Name):
        return func.id if func.id in _READERS | {"open"} else None
    if isinstance(func, ast.Attribute) and (func.attr in _READERS or (
            func.attr in _MODULE_READERS and isinstance(func.value, ast.Name) and func.value.id in _MODULES)):
        return ast.unparse(func)
    return None

