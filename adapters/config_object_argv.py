"""Options of the job whose value the option index (:mod:`preflight.script_index`) does not give:
``args.<name>`` is None when the script declares the option once without a default and the launch line
does not give it (argparse's default is None), and the list of tokens when an option with ``nargs`` is
given (microsoft/Swin-Transformer @ f82860b ``main.py:39-44``: ``--opts``, ``default=None, nargs='+'``,
then ``if args.opts: config.merge_from_list(args.opts)``). Anything else stays unknown."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Leaf


def _without_nargs(call: ast.Call) -> ast.Call:
    return ast.copy_location(ast.Call(call.func, call.args, [k for k in call.keywords if k.arg != "nargs"]), call)


def _no_default(spec: Any) -> bool:
    return spec.default is None or (isinstance(spec.default, ast.Constant) and spec.default.value is None)


def parser_trees(modules: Any) -> list[ast.Module]:
    """The project modules (other than the entry) of the functions the entry imports by name that return
    ``parser.parse_args()`` (facebookresearch/SlowFast @ 287ec00 ``tools/run_net.py:19`` ``args =
    parse_args()`` of ``slowfast/utils/parser.py:13-63``): their ``nargs`` options are the job's too."""
    from preflight.library_parsers import library_parser
    from preflight.script_parsers import _returns_namespace

    entry = modules.trees[0][2]
    names = {a.asname or a.name for node in entry.body if isinstance(node, ast.ImportFrom) for a in node.names}
    out: list[ast.Module] = []
    for _, _, tree in modules.trees[1:]:
        if any(isinstance(fn, ast.FunctionDef) and fn.name in names and _returns_namespace(fn) for fn in tree.body):
            out.append(tree)
    for node in entry.body:  # a library's parser (detectron2 ``default_argument_parser``): its ``opts``
        for alias in node.names if isinstance(node, ast.ImportFrom) and node.module else []:
            stub = library_parser(f"{node.module}.{alias.name}", modules.trees[0][1])
            if stub is not None and stub not in out:
                out.append(stub)
    return out


def unset_or_list(project: Any, script: Any, more: Optional[list[ast.Module]] = None) -> Any:
    """``name`` -> a Leaf (None: declared without a default and not given; a list: the tokens an
    ``nargs`` option takes on the launch line), or None when not known. ``more``: other modules whose
    parser the job runs (:func:`parser_trees`)."""
    from preflight.script_argv import _arg_spec, from_argv

    index = project.index(script)
    lists: dict[str, list[ast.Call]] = {}  # options with ``nargs`` (the index leaves them out)

    def _lists() -> None:
        if lists or not isinstance(script.tree, ast.Module):
            return
        for node in (n for tree in [script.tree, *(more or [])] for n in ast.walk(tree)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "add_argument" and any(k.arg == "nargs" for k in node.keywords):
                spec = _arg_spec(_without_nargs(node))
                if spec is not None:
                    lists.setdefault(spec.dest, []).append(node)
        lists.setdefault("", [])

    def _given(spec: Any) -> Optional[list[str]]:
        """The tokens after the option's flag up to the next option (``--opts A 1 B 2``), or None."""
        out: Optional[list[str]] = None
        args = list(index.args)
        for i, tok in enumerate(args):
            if tok == "--":
                break
            flag = tok.split("=", 1)[0]
            if tok.startswith("--") and len(flag) > 2 and any(o.startswith(flag) for o in spec.options):
                out = [tok.split("=", 1)[1]] if "=" in tok else []
                for more in args[i + 1:]:
                    if more.startswith("-") and not _number(more):
                        break
                    out.append(more)
        return out

    def _no_positionals() -> bool:
        """Every token of the launch line is a declared option or its value (so a positional list is [])."""
        takes: dict[str, bool] = {}
        for specs in index.arguments.values():
            for spec in specs:
                for o in spec.options:
                    takes[o] = spec.takes_value
        args = list(index.args)
        i = 0
        while i < len(args):
            tok = args[i]
            flag = tok.split("=", 1)[0]
            if flag not in takes:
                return False
            i += 2 if takes[flag] and "=" not in tok else 1
        return True

    def _remainder(call: ast.Call) -> Optional[list[str]]:
        """The tokens a positional ``nargs=argparse.REMAINDER`` takes: every token from the first one
        that is not a declared option or its value (michuanhaohao/reid-strong-baseline tools/train.py:122-123
        @ 3da7e6f, ``python3 tools/train.py --config_file=X MODEL.DEVICE_ID "('2')" ...``), or None (an
        undeclared option before it)."""
        nargs = next((k.value for k in call.keywords if k.arg == "nargs"), None)
        if not ((isinstance(nargs, ast.Attribute) and nargs.attr == "REMAINDER")
                or (isinstance(nargs, ast.Constant) and nargs.value == "...")):
            return None
        takes: dict[str, bool] = {o: spec.takes_value for specs in index.arguments.values() for spec in specs
                                  for o in spec.options}
        args = [str(a) for a in index.args]
        i = 0
        while i < len(args):
            tok = args[i]
            flag = tok.split("=", 1)[0]
            if flag in takes:
                i += 2 if takes[flag] and "=" not in tok else 1
                continue
            return None if tok.startswith("-") else args[i:]
        return []

    def unset(name: str) -> Optional[Leaf]:
        specs = index.arguments.get(name, [])
        if not specs:
            _lists()
            if len(lists.get(name, [])) != 1:
                return None
            call = lists[name][0]
            spec = _arg_spec(_without_nargs(call))
            if spec is None or name in index.set_defaults:
                return None
            if not spec.options[0].startswith("-"):  # detectron2 ``opts`` (argparse.REMAINDER): [] when the
                if _no_positionals():  # line gives none
                    return Leaf([], "", None, "literal")
                rest = _remainder(call)
                return None if rest is None else Leaf(rest, "", None, "launch line", name)
            if not all(o.startswith("--") for o in spec.options):
                return None
            given = _given(spec)
            if given is not None:
                return Leaf(given, "", None, "launch line", spec.flag)
            return Leaf(None, "", None, "literal") if _no_default(spec) else None
        if len(specs) != 1 or name in index.set_defaults:
            return None
        spec = specs[0]
        if not _no_default(spec) or spec.action not in (None, "store", "append", "extend"):
            return None
        return Leaf(None, "", None, "literal") if from_argv(spec, index.arguments, index.args) is None else None

    return unset


def _number(tok: str) -> bool:
    try:
        float(tok)
        return True
    except ValueError:
        return False
