"""A process the entry starts on one of its own functions, read as a call of that function (for
:func:`preflight.adapters.config_object_roots._roots`: an option the entry hands it is the parameter's
value there, a config file's path say; nothing is imported or executed).

* ``multiprocessing.Process(target=F, args=(a, b), kwargs={...})``: ``F(a, b, ...)``
  (facebookresearch/ijepa @ 52c1ae9 ``main.py:57-62`` ``mp.Process(target=process_main, args=(rank,
  args.fname, num_gpus, args.devices)).start()``, then ``process_main(rank, fname, ...)`` opens ``fname``
  and ``yaml.load``\\ s it, ``main.py:28-52``; facebookresearch/vjepa2 @ 0f5e4e3 ``app/main.py:84``);
* ``torch.multiprocessing.spawn(F, args=(a, b))`` (and ``start_processes``): ``F(i, a, b)``, the process
  index first (``torch.multiprocessing.spawn``'s contract).

Only ``F`` a plain name and ``args`` a literal tuple or list; anything else is no call.
"""

from __future__ import annotations

import ast
from typing import Optional


def _last(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def started_call(node: ast.Call) -> Optional[ast.Call]:
    """The call of the entry's function that ``node`` starts in a new process, or None."""
    name = _last(node.func)
    kwargs = {k.arg: k.value for k in node.keywords if k.arg is not None}
    if name == "Process":
        target = kwargs.get("target")
        given = kwargs.get("args")
        index: list[ast.expr] = []
    elif name in ("spawn", "start_processes"):
        target = node.args[0] if node.args else kwargs.get("fn")
        given = kwargs.get("args", node.args[1] if len(node.args) > 1 else None)
        index = [ast.Constant(value=0)]  # the process index spawn passes first
    else:
        return None
    if not isinstance(target, ast.Name):
        return None
    if given is None:
        args: list[ast.expr] = []
    elif isinstance(given, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in given.elts):
        args = list(given.elts)
    else:
        return None
    keywords: list[ast.keyword] = []
    extra = kwargs.get("kwargs") if name == "Process" else None
    if isinstance(extra, ast.Dict):
        for key, value in zip(extra.keys, extra.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            keywords.append(ast.keyword(arg=key.value, value=value))
    elif extra is not None:
        return None
    call = ast.Call(func=ast.Name(id=target.id, ctx=ast.Load()), args=[*index, *args], keywords=keywords)
    return ast.copy_location(call, node)
