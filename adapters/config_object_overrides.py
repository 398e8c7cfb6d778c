"""A project function that applies the launch line's ``key=value`` words to a loaded config dict
(read by :mod:`preflight.adapters.config_object_roots`; nothing is imported or executed).

NVIDIA/flowtron @ d149bc4 ``train.py:38-55,383-398``: ``parser.add_argument('-p', '--params',
nargs='+', default=[])``, ``config = json.loads(data)``, ``update_params(config, args.params)`` whose body
is ``for param in params: k, v = param.split("="); v = ast.literal_eval(v) ...; config[k] = v`` (a dotted
``k`` recursing into ``config[parent_k]``), then ``train(n_gpus, rank, **train_config)`` with
``train_config = config["train_config"]``. The function writes keys it computes, so the dict would be
dropped as unknown; but the keys are the words' own: each ``a.b=v`` sets ``a.b`` to ``v`` (through
``literal_eval``, else the text). A key the file has takes the word's value; a key it lacks is left
unknown (some such functions add it, others skip it). Every other key keeps the file's value.

The function qualifies only when its shape says so: two parameters, a ``for`` over the second, a
``.split("=")`` in that loop and a subscript store on the first (directly, or through a recursive call
of itself on a sub-dict); the second argument is an option of the job whose words all read ``key=value``.
Anything else (another word, a function that also writes a literal key, a value not known) is not read
here: the dict is then dropped as before.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object import Leaf, Modules, Namespace, assign, lookup


def _name_of(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else ""


def _applies_words(fn: ast.FunctionDef) -> bool:
    """The override-applier shape (module docstring)."""
    params = [a.arg for a in fn.args.args]
    if len(params) != 2 or fn.args.vararg or fn.args.kwarg:
        return False
    target, words = params
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For) and isinstance(n.iter, ast.Name)
             and n.iter.id == words and isinstance(n.target, ast.Name)]
    if len(loops) != 1:
        return False
    loop = loops[0]
    splits = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "split"
                 and n.args and isinstance(n.args[0], ast.Constant) and n.args[0].value == "="
                 for n in ast.walk(loop))
    stores = [n for n in ast.walk(fn) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)]
    if not splits or not stores:
        return False
    for store in stores:  # only ``target[<computed key>] = ...``: a literal key is a write of its own
        if not (isinstance(store.value, ast.Name) and store.value.id == target) \
                or isinstance(store.slice, ast.Constant):
            return False
    for n in ast.walk(fn):  # nothing else of the dict changes (``target.update``, ``del``, setattr)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.value.id == target and n.func.attr not in ("get", "keys", "items", "values"):
            return False
        if isinstance(n, ast.Delete):
            return False
    return True


def _words(value: Any) -> Optional[list[str]]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(w, str) for w in value):
        return None
    if not all("=" in w and w.split("=", 1)[0].strip() for w in value):
        return None
    return list(value)


def _nargs_words(tree: ast.AST, dest: str, argv: list[str]) -> Optional[list[str]]:
    """The words after the option of ``dest`` on the launch line when the parser declares it with
    ``nargs='+'``/``'*'`` (the option resolver gives such an option's first word only); None when the
    declaration is not found or not of that kind. An option given twice: the last one (argparse)."""
    flags: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        longs = [n for n in names if n.startswith("--")]
        named = next((k.value.value for k in node.keywords if k.arg == "dest" and isinstance(k.value, ast.Constant)),
                     (longs[0][2:] if longs else names[0].lstrip("-") if names else "").replace("-", "_"))
        nargs = next((k.value for k in node.keywords if k.arg == "nargs"), None)
        if named == dest and isinstance(nargs, ast.Constant) and nargs.value in ("+", "*"):
            flags = names
    if not flags:
        return None
    out: Optional[list[str]] = []
    i = 0
    while i < len(argv):
        if argv[i] in flags:
            out = []
            i += 1
            while i < len(argv) and not argv[i].startswith("-"):
                out.append(argv[i])
                i += 1
            continue
        if any(argv[i].startswith(f + "=") for f in flags if f.startswith("--")):
            return None  # ``--params=a=b``: not read
        i += 1
    return out


def apply_overrides(call: ast.Call, local: dict[str, Any], modules: Modules, applied: set[int],
                    argv: Optional[list[str]] = None) -> bool:
    """``f(config, args.params)`` of the shape above: the words set on ``local[config]``, and ``f``'s
    statements marked as taken into the values (so they do not drop the dict). True when applied."""
    name = _name_of(call)
    if not name or len(call.args) != 2 or call.keywords:
        return False
    tree_arg, words_arg = call.args
    if not (isinstance(tree_arg, ast.Name) and isinstance(local.get(tree_arg.id), dict)
            and not isinstance(local.get(tree_arg.id), Namespace)):
        return False
    if not (isinstance(words_arg, ast.Attribute) and isinstance(words_arg.value, ast.Name)
            and isinstance(local.get(words_arg.value.id), Namespace)):
        return False
    found = modules.function(name)
    if found is None or found[2] is not None or not _applies_words(found[1]):
        return False
    leaf = local[words_arg.value.id].get(words_arg.attr)
    if not isinstance(leaf, Leaf):
        return False
    words = _words(leaf.value)
    if leaf.how == "launch line":  # every word of an nargs option, from the launch line itself
        listed = _nargs_words(modules.trees[0][2], words_arg.attr, argv or [])
        words = _words(listed) if listed is not None else None
    if words is None:
        return False
    tree = local[tree_arg.id]
    for word in words:
        key, _, raw = word.partition("=")
        path = tuple(key.strip().split("."))
        try:
            value: Any = ast.literal_eval(raw)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            value = raw
        if isinstance(lookup(tree, path), Leaf):
            assign(tree, path, Leaf(value, "", None, "launch line", f"-p {word}"))
        elif lookup(tree, path) is None and isinstance(lookup(tree, path[:-1]) if len(path) > 1 else tree, dict):
            assign(tree, path, None)  # a key the file lacks: added or skipped, depending on the function
        elif lookup(tree, path) is not None:
            return False  # a word naming a whole section: not followed
    applied.update(id(n) for n in ast.walk(found[1]))
    return True
