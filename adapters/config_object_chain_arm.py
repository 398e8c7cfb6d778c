"""A local bound once in each arm of an ``if/elif/else`` chain whose tests compare keys of the configuration
object: the value of the arm the config's values take, with the key that decided it (read by
:mod:`preflight.adapters.config_object_reads`; nothing is imported or executed).

facebookresearch/jepa @ 51c59d5 ``app/vjepa/train.py:76-86`` (and facebookresearch/vjepa2 ``app/vjepa/train.py:
69-79``, the same code): ``which_dtype = cfgs_meta.get('dtype')``, then ``if which_dtype.lower() == 'bfloat16':
dtype = torch.bfloat16; mixed_precision = True elif ... == 'float16': ... else: dtype = torch.float32;
mixed_precision = False``, and ``:453`` ``torch.cuda.amp.autocast(dtype=dtype, enabled=mixed_precision)``:
``meta.dtype: bfloat16`` in the launched YAML takes the first arm, so the step runs under bf16 autocast. The
same chain over a script's own options is :func:`preflight.script_chain.chain_binding` (parler-tts). An arm
not decided before the one taken, a name bound elsewhere in the function, or a chain whose tests read no
key of the object: unknown (None).
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.script_chain import function_chains, taken_arm


def _key_of(test: ast.expr, reader: Any) -> Optional[tuple]:
    """The config key a test reads (``which_dtype.lower() == 'bfloat16'``: the key ``which_dtype`` holds)."""
    for node in ast.walk(test):
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            got = reader.ev(node)
            if got is not None and got.path is not None:
                return tuple(got.path)
    return None


def chain_arm(fn: ast.AST, name: str, count: int, reader: Any) -> Optional[tuple[ast.expr, tuple]]:
    """(the value ``name`` is bound to in the arm taken, the config key that decided it), or None;
    ``count``: how many times the function binds the name (every binding must be an arm of the chain)."""
    arms = function_chains(fn).get(name)
    if arms is None or len(arms) != count:
        return None
    got = taken_arm(arms, reader.test)
    if got is None:
        return None
    tests = [t for t, _ in arms if t is not None]
    key = next((k for k in (_key_of(t, reader) for t in tests) if k is not None), None)
    return None if key is None else (got[1], key)
