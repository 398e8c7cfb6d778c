"""The options of argument parsers a library builds for the script (``args =
default_argument_parser().parse_args()``): the script declares none of them itself, so without these
its ``args.config_file`` is unknown. Each parser is written out as the library declares it (the
``add_argument`` calls only, read like the script's own; nothing is imported or executed):

* detectron2 ``detectron2/engine/defaults.py`` ``default_argument_parser`` (facebookresearch/detectron2
  @ 2a420ed), the parser of its ``tools/train_net.py`` and of the projects built on it
  (facebookresearch/MaskFormer @ da3e60d ``train_net.py:262``, facebookresearch/Mask2Former
  ``train_net.py``, facebookresearch/CutLER): ``--config-file``, ``--num-gpus``, ``--num-machines``,
  ``--dist-url`` (its default a URL with a port derived from the user id: left unset here) and the
  trailing ``opts`` (``KEY VALUE`` pairs merged into the yacs config).

A project may vendor a copy of detectron2's engine and import it from its own package
(facebookresearch/CutLER @ cca0a27 ``cutler/train_net.py:30`` ``from engine import DefaultTrainer,
default_argument_parser, default_setup`` of ``cutler/engine/defaults.py``; a CutLER-derived
``train_net.py`` ``from engine import DefaultTrainer, MeanTeacherTrainer, default_argument_parser``;
another ``from engine import DefaultTrainer, DefaultPredictor, launch``). :func:`detectron2_copy` decides by
the definition's structure, never by the project's name: a ``default_argument_parser`` that adds
``--config-file``, ``--num-gpus`` and ``--num-machines``, a ``class DefaultTrainer`` with detectron2's
``build_model``/``build_optimizer``/``build_train_loader`` whose ``__init__`` picks its loop by
``cfg.SOLVER.AMP.ENABLED``. The module is read (never imported); a package's ``__init__`` is followed
into the sibling modules it imports from (``from .defaults import *``).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import Any, Optional, Sequence, Union

_DETECTRON2 = """
parser.add_argument("--config-file", default="", metavar="FILE")
parser.add_argument("--resume", action="store_true")
parser.add_argument("--eval-only", action="store_true")
parser.add_argument("--num-gpus", type=int, default=1)
parser.add_argument("--num-machines", type=int, default=1)
parser.add_argument("--machine-rank", type=int, default=0)
parser.add_argument("--dist-url")
parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
"""

_PARSERS = {
    "detectron2.engine.default_argument_parser": _DETECTRON2,
    "detectron2.engine.defaults.default_argument_parser": _DETECTRON2,
}


@cache
def _tree(text: str) -> ast.Module:
    return ast.parse(text)


def library_parser(qualified: Optional[str], script: Optional[Union[str, Path]] = None) -> Optional[ast.Module]:
    """The ``add_argument`` calls of the library parser function ``qualified`` (its full dotted name as
    the script imports it; with ``script``, the path of the importing script, also a project copy of
    one, :func:`detectron2_copy`), or None when it is not one of the parsers known here."""
    text = _PARSERS.get(qualified or "")
    if text is None and qualified and script is not None:
        text = _PARSERS.get(detectron2_copy(qualified, script) or "")
    return _tree(text) if text is not None else None


def library_option(qualified: str, dest: str, argv: Sequence[str]) -> Any:
    """Option ``dest`` of the library parser ``qualified`` on the launch line ``argv`` (the last one
    given, as argparse reads it, converted by its declared type), else its declared literal default; None
    when the parser or the option is not known here, or the value given does not convert."""
    from preflight.script_argv import _arg_spec, _convert, from_argv

    stub = library_parser(qualified)
    specs: dict[str, list[Any]] = {}
    for node in ast.walk(stub) if stub is not None else ():
        spec = _arg_spec(node) if isinstance(node, ast.Call) else None
        if spec is not None:
            specs.setdefault(spec.dest, []).append(spec)
    if len(specs.get(dest, [])) != 1:
        return None
    spec = specs[dest][0]
    given = from_argv(spec, specs, argv)
    if given is not None:
        return _convert(given[0], spec)
    return spec.default.value if isinstance(spec.default, ast.Constant) else None


def _parser_shape(node: ast.stmt) -> bool:
    flags = {n.args[0].value for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "add_argument" and n.args and isinstance(n.args[0], ast.Constant)}
    return isinstance(node, ast.FunctionDef) and {"--config-file", "--num-gpus", "--num-machines"} <= flags


def _trainer_shape(node: ast.stmt) -> bool:
    if not isinstance(node, ast.ClassDef):
        return False
    methods = {n.name: n for n in node.body if isinstance(n, ast.FunctionDef)}
    init = methods.get("__init__")
    return {"build_model", "build_optimizer", "build_train_loader"} <= set(methods) and init is not None \
        and any(isinstance(n, ast.Attribute) and n.attr == "ENABLED" and isinstance(n.value, ast.Attribute)
                and n.value.attr == "AMP" and isinstance(n.value.value, ast.Attribute)
                and n.value.value.attr == "SOLVER" for n in ast.walk(init))


_SHAPES = {"default_argument_parser": _parser_shape, "DefaultTrainer": _trainer_shape}


def detectron2_copy(qualified: str, script: Union[str, Path]) -> Optional[str]:
    """detectron2's own dotted name (``detectron2.engine.defaults.DefaultTrainer``) for ``qualified``
    (``engine.DefaultTrainer`` as the script at ``script`` imports it) where the project's module
    defines that name with detectron2's structure; None otherwise (and for detectron2's own names)."""
    from preflight.local_trees import parse_project_file
    from preflight.script_parsers import _module_file

    module, _, name = qualified.rpartition(".")
    shape = _SHAPES.get(name)
    if shape is None or not module or module.split(".")[0] == "detectron2":
        return None
    found = _module_file(Path(script).parent, module)
    tree = parse_project_file(found) if found is not None else None
    trees = [tree] if tree is not None else []
    if found is not None and found.name == "__init__.py" and tree is not None:
        for node in tree.body:  # ``from .defaults import *`` / ``from .defaults import DefaultTrainer``
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module \
                    and any(a.name in ("*", name) for a in node.names):
                more = parse_project_file(found.parent / f"{node.module.replace('.', '/')}.py")
                trees += [more] if more is not None else []
    if any(getattr(node, "name", None) == name and shape(node) for t in trees for node in t.body):
        return f"detectron2.engine.defaults.{name}"
    return None
