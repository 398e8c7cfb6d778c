"""A project's subclass of ``LightningCLI``, followed to what it hands ``LightningCLI.__init__`` (read by
:mod:`preflight.adapters.lightning_cli`; nothing imported or executed).

krasserm/perceiver-io @ 46c6325: ``examples/training/img_clf/train.sh`` runs ``python -m
perceiver.scripts.vision.image_classifier fit ... --trainer.devices=2 --trainer.strategy=ddp_static_graph``;
that module's ``ImageClassifierCLI(CLI)`` extends ``perceiver/scripts/cli.py``'s ``CLI(LightningCLI)``, whose
``__init__`` calls ``super().__init__(model_class, ..., parser_kwargs={"fit": trainer_defaults, ...})`` with
``trainer_defaults = {"default_config_files": [str(p)]}`` and ``p`` from ``with path("perceiver.scripts",
"trainer.yaml") as p`` (``importlib.resources``), and whose ``instantiate_trainer`` replaces the strategy
name ``ddp_static_graph`` by ``DDPStrategy(static_graph=True, ...)`` before ``super().instantiate_trainer``.

Read here:

* the chain of project classes from the class called up to ``LightningCLI`` (a base in the same module or
  in a module of the project, its imports resolved; at most four levels);
* the keywords of each ``super().__init__(...)`` in that chain (``trainer_defaults=``, ``parser_kwargs=``,
  ``trainer_class=``, ``env_parse=``), a name bound to a dict literal in ``__init__`` followed once;
* ``default_config_files`` of ``parser_kwargs`` (flat or under the ``fit`` subcommand): literal paths, or the
  name of ``with importlib.resources.path(PACKAGE, FILE) as p`` (the package's folder in the project);
* ``parser.set_defaults({...})`` in ``add_arguments_to_parser``: a ``trainer.*`` key makes the Trainer's
  defaults unknown (not read);
* ``instantiate_trainer`` overrides: ``if cfg["trainer"]["KEY"] == "NAME": cfg["trainer"]["KEY"] = CALL``
  rewrites that value when the flags or files give NAME (a Lightning ``DDPStrategy(...)`` is ``ddp``); any other
  store into the trainer's config there makes the key unknown.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.import_names import import_names

from preflight._record import dataclass, field

_LIGHTNING = ("lightning.pytorch.cli.LightningCLI", "pytorch_lightning.cli.LightningCLI",
              "pytorch_lightning.utilities.cli.LightningCLI", "lightning.pytorch.utilities.cli.LightningCLI")
_STRATEGY_CALLS = {"DDPStrategy": "ddp", "DDPPlugin": "ddp"}


@dataclass
class CliChain:
    """What the classes between the call and ``LightningCLI`` set."""

    names: list[str] = field(default_factory=list)  # the classes, the called one first
    keywords: dict[str, ast.expr] = field(default_factory=dict)  # super().__init__ keywords (nearest wins)
    default_files: Optional[list[Path]] = None  # parser_kwargs' default_config_files, resolved; None: none given
    unknown: list[str] = field(default_factory=list)  # why the Trainer's keys cannot all be read
    dropped: set[str] = field(default_factory=set)  # trainer keys an override sets in a way not read
    rewrites: list[tuple[str, Any, str, Any]] = field(default_factory=list)  # (key, when value, to, detail)


def _imports(tree: ast.Module) -> dict[str, str]:
    return import_names(tree.body)


def _qualify(expr: ast.expr, imports: dict[str, str]) -> str:
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return ""
    head = imports.get(expr.id, expr.id)
    return ".".join([head, *reversed(parts)])


def _parse(path: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_file

    try:
        if path.stat().st_size > 1_000_000:
            return None
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _class_in(qualified: str, here: Path, tree: ast.Module) -> Optional[tuple[ast.ClassDef, ast.Module, Path]]:
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    if module:
        found = _module_file(here.parent, module)
        got = _parse(found) if found is not None else None
        if found is None or got is None:
            return None
        here, tree = found, got
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return (classes[0], tree, here) if len(classes) == 1 else None


def cli_chain(script_path: Any, tree: Optional[ast.AST], qualified: str) -> Optional[list[tuple]]:
    """(class, its module's tree, its file, its module's imports) from the class ``qualified`` names up to the
    last project class below ``LightningCLI``; None when the chain does not reach ``LightningCLI``."""
    if script_path is None or not isinstance(tree, ast.Module) or not qualified:
        return None
    here = Path(str(script_path))
    got = _class_in(qualified, here, tree)
    chain: list[tuple] = []
    for _ in range(4):
        if got is None:
            return None
        cls, module, path = got
        imports = _imports(module)
        chain.append((cls, module, path, imports))
        bases = [_qualify(b, imports) for b in cls.bases]
        if any(b in _LIGHTNING for b in bases):
            return chain
        if len(bases) != 1 or not bases[0]:
            return None
        got = _class_in(bases[0], path, module)
    return None


def _method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    return next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _super_init(fn: ast.FunctionDef) -> Optional[ast.Call]:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__" \
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name) \
                and node.func.value.func.id == "super":
            return node
    return None


def _bound(fn: ast.AST, name: str) -> list[ast.AST]:
    """What ``name`` is bound to in ``fn``: assigned values and ``with ... as name`` items."""
    out: list[ast.AST] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            out.append(node.value)
        elif isinstance(node, ast.With):
            out.extend(i.context_expr for i in node.items
                       if isinstance(i.optional_vars, ast.Name) and i.optional_vars.id == name)
    return out


def _dict_of(expr: ast.expr, fn: ast.AST) -> Optional[ast.Dict]:
    if isinstance(expr, ast.Name):
        bound = _bound(fn, expr.id)
        expr = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.expr) else expr
    return expr if isinstance(expr, ast.Dict) else None


def _path_of(expr: ast.expr, fn: ast.AST, imports: dict[str, str], here: Path) -> Optional[Path]:
    """A default config file: a literal path (from the script's folder up), or ``str(p)`` with ``p`` from
    ``with importlib.resources.path("pkg.sub", "file.yaml") as p``."""
    from preflight.script_parsers import _module_file

    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        for base in (here.parent, *here.parents):
            if (base / expr.value).is_file():
                return base / expr.value
        return None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "str" and expr.args:
        expr = expr.args[0]
    if not isinstance(expr, ast.Name):
        return None
    bound = _bound(fn, expr.id)
    if len(bound) != 1 or not isinstance(bound[0], ast.Call):
        return None
    call = bound[0]
    if _qualify(call.func, imports) not in ("importlib.resources.path", "importlib_resources.path") \
            or len(call.args) != 2 or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                              for a in call.args):
        return None
    package, name = (a.value for a in call.args)  # type: ignore[attr-defined]
    init = _module_file(here.parent, package)
    if init is None or init.name != "__init__.py" or not (init.parent / name).is_file():
        return None
    return init.parent / name


def _default_files(kwargs: ast.expr, fn: ast.AST, imports: dict[str, str], here: Path,
                   chain: CliChain) -> None:
    top = _dict_of(kwargs, fn)
    if top is None:
        chain.unknown.append("parser_kwargs is not a dict literal")
        return
    entries = dict(zip(top.keys, top.values))
    section = next((v for k, v in entries.items() if isinstance(k, ast.Constant) and k.value == "fit"), None)
    inner = _dict_of(section, fn) if section is not None else top
    if inner is None:
        chain.unknown.append("parser_kwargs['fit'] is not a dict literal")
        return
    files = next((v for k, v in zip(inner.keys, inner.values)
                  if isinstance(k, ast.Constant) and k.value == "default_config_files"), None)
    if files is None:
        return
    if not isinstance(files, (ast.List, ast.Tuple)):
        chain.unknown.append("default_config_files is not a list literal")
        return
    paths = [_path_of(e, fn, imports, here) for e in files.elts]
    if any(p is None for p in paths):
        chain.unknown.append("a default config file is not found")
        return
    chain.default_files = [p for p in paths if p is not None]


def _trainer_store(node: ast.AST) -> Optional[str]:
    """``cfg["trainer"]["KEY"] = ...``: KEY."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.value, ast.Subscript) \
            and isinstance(node.value.slice, ast.Constant) and node.value.slice.value == "trainer":
        key = node.slice.value
        return key if isinstance(key, str) else None
    return None


def _overrides(fn: ast.FunctionDef, imports: dict[str, str], where: str, chain: CliChain) -> None:
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            key = _trainer_store(t)
            if key is not None:
                chain.dropped.add(key)
    for node in ast.walk(fn):
        if not (isinstance(node, ast.If) and not node.orelse and len(node.body) == 1
                and isinstance(node.body[0], ast.Assign) and len(node.body[0].targets) == 1):
            continue
        test, stmt = node.test, node.body[0]
        key = _trainer_store(stmt.targets[0])
        if key is None or not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
                               and _trainer_store(test.left) == key and isinstance(test.comparators[0], ast.Constant)):
            continue
        value = stmt.value
        qualified = _qualify(value.func, imports) if isinstance(value, ast.Call) else ""
        last = qualified.rsplit(".", 1)[-1]
        if key == "strategy" and last in _STRATEGY_CALLS and qualified.startswith(("lightning", "pytorch_lightning")):
            chain.rewrites.append((key, test.comparators[0].value, _STRATEGY_CALLS[last],
                                   f"{where}:{stmt.lineno} instantiate_trainer() turns it into {last}(...)"))
            chain.dropped.discard(key)


def read_chain(classes: list[tuple]) -> CliChain:
    out = CliChain(names=[c[0].name for c in classes])
    for cls, _module, path, imports in reversed(classes):  # the base first: the nearer class wins
        init = _method(cls, "__init__")
        call = _super_init(init) if init is not None else None
        if call is not None and init is not None:
            for kw in call.keywords:
                if kw.arg is None:
                    continue
                out.keywords[kw.arg] = kw.value
                if kw.arg == "parser_kwargs":
                    _default_files(kw.value, init, imports, path, out)
        adder = _method(cls, "add_arguments_to_parser")
        if adder is not None:
            for node in ast.walk(adder):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "set_defaults" and node.args:
                    keys = node.args[0].keys if isinstance(node.args[0], ast.Dict) else [None]
                    if any(not (isinstance(k, ast.Constant) and isinstance(k.value, str)) or
                           k.value.startswith("trainer") for k in keys):
                        out.unknown.append(f"{cls.name}.add_arguments_to_parser sets trainer defaults")
        over = _method(cls, "instantiate_trainer")
        if over is not None:
            _overrides(over, imports, path.name, out)
    return out
